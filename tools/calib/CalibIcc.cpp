//===- CalibIcc.cpp - segtime calibrate: ICC clock and misprediction ------===//
///
/// \file
/// The ICC level's machine numbers (CalibRun.h): the core clock and the
/// branch-misprediction penalty, each a small C program (kernels/CoreClock.c,
/// kernels/Mispredict.c) compiled at -O2 and run.
///
//===----------------------------------------------------------------------===//
#include "tools/calib/CalibRun.h"

#include "core/Seg.h"
#include "core/Vocabulary.h"
#include "predictor/CostFit.h"
#include "predictor/Expr.h"
#include "predictor/Formula.h"
#include "predictor/Install.h"
#include "predictor/Machine.h"
#include "predictor/Parkbench.h"
#include "predictor/ResourceModel.h"
#include "tools/calib/BenchSource.h"
#include "tools/calib/KernelSources.h"
#include "tools/calib/LowLevel.h"
#include "tools/calib/Process.h"
#include "tools/calib/TrainingSource.h"

#include <Eigen/Dense>

#include <algorithm>
#include <functional>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <sys/utsname.h>
#include <thread>
#include <type_traits>
#include <unistd.h>


namespace segtime::calib {

std::vector<double> runSampleProgram(const fs::path &Dir, const std::string &Name,
                                     const char *Source, const std::vector<std::string> &Args,
                                     const std::string &OptFlag) {
  fs::path Src = Dir / (Name + ".c"), Bin = Dir / Name;
  if (!fs::exists(Bin)) {
    std::ofstream(Src) << Source;
    RunResult C = runProgram({SEGTIME_CLANG, OptFlag, Src.string(), "-o", Bin.string()}, Dir,
                             "compile_" + Name, 120);
    if (!C.ok())
      throw CalibError("compiling the " + Name + " benchmark failed (" + C.status() + "):\n" +
                       tail(C.Err));
  }
  std::vector<std::string> Argv{Bin.string()};
  Argv.insert(Argv.end(), Args.begin(), Args.end());
  RunResult R = runProgram(Argv, Dir, "run_" + Name, 120);
  if (!R.ok())
    throw CalibError("the " + Name + " benchmark failed (" + R.status() + "):\n" + tail(R.Err));
  std::istringstream In(R.Out);
  std::vector<double> Samples;
  for (double V; In >> V;)
    Samples.push_back(V);
  if (Samples.empty())
    throw CalibError("the " + Name + " benchmark printed nothing");
  return Samples;
}

/// Measures the core clock with a chain of dependent integer additions (one
/// cycle of latency each on every out-of-order x86 core; a compiler barrier
/// keeps each add). The clock is measured, not read from /proc: turbo and
/// virtualisation make the nominal frequency wrong (design.md §7). Adds Reps
/// samples to CR and updates its value and spread; calibrate calls it at the
/// start, middle and end of a run, so that the fastest sample comes from
/// whichever phase of a shared VM was least disturbed (one batch of 0.5 s
/// can fall wholly in a slow phase: 1.7 vs 2.4 GHz in two runs).
void measureClock(const fs::path &Dir, const Options &O, int Reps, ClockResult &CR) {
  long N = O.Quick ? 1000000 : 8000000; // 16 adds each: ~40 ms at 3 GHz
  std::vector<double> G =
      runSampleProgram(Dir, "clock", kernel::coreClock(), {std::to_string(Reps), std::to_string(N)});
  CR.GHz.insert(CR.GHz.end(), G.begin(), G.end());
  ++CR.Batches;
  // the fastest sample is the undisturbed one
  CR.Value = O.Stat == "min" ? *std::max_element(CR.GHz.begin(), CR.GHz.end()) : median(CR.GHz);
  CR.Spread = relSpread(CR.GHz);
}

/// Measures the branch-misprediction penalty: one loop with one
/// data-dependent branch per byte (taken if the byte is < 128; inline asm in
/// the taken arm keeps it a conditional jump, neither a cmov nor a vector
/// loop) over the same 1 MiB of random bytes, once in random order (taken
/// with P = 1/2: min(P, 1 - P) = 1/2 mispredictions per byte, the model's
/// count) and once sorted (one misprediction per pass). Per repetition the
/// fastest of 3 passes of each; penalty = (t_random - t_sorted) / (n / 2).
/// 1 MiB (in L2 on current x86 cores) is too long a pattern for the
/// predictor's history to learn across passes. The value is the median
/// over Reps repetitions (spread (max - min) / median); about 0.1 s.
void measureMispredict(const fs::path &Dir, const Options &O, ClockResult &CR) {
  MispredictResult M;
  M.Elements = O.Quick ? 262144 : 1048576;
  M.Ns = runSampleProgram(Dir, "mispredict", kernel::mispredict(),
                          {std::to_string(O.Reps), std::to_string(M.Elements)});
  M.Value = median(M.Ns);
  M.Spread = relSpread(M.Ns);
  if (M.Value <= 0)
    throw CalibError("the misprediction benchmark measured no penalty (median " +
                     num(M.Value, 3) + " ns): random data ran as fast as sorted");
  CR.Mispredict = M;
}

} // namespace segtime::calib
