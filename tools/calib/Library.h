//===- Library.h - Library-call costs for calibrate --------------*- C++ -*-===//
///
/// \file
/// `segtime calibrate --level library`: the cost per call and per byte of
/// the C library functions of core/Library.h (allocation and release,
/// memory copy/set/compare, string functions, formatting a number, libm,
/// clock reads), measured by kernels/Library.c and fitted as
/// t = per_call + per_B * size (fitCallCost, relative least squares) per
/// function; functions without a size argument cost per call (the
/// statistic of the samples). Written to the machine file's `library`
/// section (docs/calibrate.md), every entry with provenance, spread over
/// the repetitions and a ref naming the benchmark, sizes, fit and date.
///
/// USAGE:
///   LibraryResult R = runLibrary(Dir, LO);   // LowLevelOptions
///   ParamList P = R.params();                // library.memcpy.per_call, ...
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_TOOLS_CALIB_LIBRARY_H
#define SEGTIME_TOOLS_CALIB_LIBRARY_H

#include "core/Library.h"
#include "predictor/CostFit.h"
#include "tools/calib/LowLevel.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <ostream>
#include <vector>

namespace segtime {

/// The library part's measurements and fits.
struct LibraryResult : Sampled {
  struct Function {
    const LibraryFunction *F = nullptr;
    std::vector<double> N;                  ///< sizes, B (one 0 if not Sized)
    std::vector<std::vector<double>> Times; ///< s per call: [size][rep]
    std::vector<double> T;                  ///< s per call, the statistic of Times
    CallCostFit Fit;                        ///< on (N, T); PerB = 0 if not Sized
    std::vector<double> PerCallRep, PerBRep; ///< the same per repetition
  };
  std::vector<Function> Functions;

  /// library.<F>.per_call (s) and, for sized functions, .per_B (s/B).
  ParamList params() const;
  nlohmann::json toJson() const;
  void print(std::ostream &OS) const;
};

/// Fits one function's points (Fn.N, Fn.Times) with statistic Stat
/// ("min" or "median"): T, Fit and the per-repetition values.
void fitLibraryFunction(LibraryResult::Function &Fn, const std::string &Stat);

/// The allocation functions are timed as call + free pairs (WithFree, per
/// function of R.Functions): subtracts free's time per call (the statistic
/// Stat of its samples) from each of their samples, so that per_call of
/// malloc + per_call of free is the pair. Throws CalibError if R has no free.
void subtractFree(LibraryResult &R, const std::vector<bool> &WithFree, const std::string &Stat);

/// Compiles kernels/Library.c in Dir (-O2 -fno-builtin) and runs it with
/// O's sample duration and repetitions (QUICK: three sizes); throws
/// CalibError if it fails or prints what is not the expected JSON.
LibraryResult runLibrary(const std::filesystem::path &Dir, const LowLevelOptions &O);

} // namespace segtime

#endif
