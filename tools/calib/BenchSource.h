//===- BenchSource.h - C benchmarks for `segtime calibrate` ------*- C++ -*-===//
///
/// \file
/// Generates the one C file that `segtime calibrate` compiles (with the
/// segtime plugin) and runs: one benchmark function per HLLC construct
/// (Warwick-94 §4.2.2), a baseline that isolates the loop overhead
/// (Saavedra-Barrera's method, Warwick-94 §3.3.3), a few in-cache
/// floating-point kernels for the POC flop rate (PARKBENCH-93 RINF1 style,
/// Warwick-94 eq. 6), the training kernels of the group-multiplier fit
/// (TrainingSource.h), and a `main` that times them.
///
/// USAGE:
///   std::vector<BenchInfo> Benches;
///   std::string C = generateBenchSource(/*Unroll=*/16, Benches);
///   // write C to bench.c; compile with -fplugin=.../segtime.so; run
///   //   ./bench TARGET_SECONDS REPS MASK     (MASK bits: 1 HLLC, 2 POC, 4 training)
///   // which prints {"benchmarks": [{"name", "R", "disturbed", "retries",
///   //                               "times": [s, ...]}, ...]}
///   // (times: wall-clock s per call, CLOCK_MONOTONIC. The program pins itself
///   // to one CPU; a call during which other processes ran on that CPU for
///   // > 2% of the time, or kept the other CPUs > 25% busy, is repeated within
///   // a budget; "disturbed" counts the disturbed calls kept anyway.)
///
/// Every benchmark is `void NAME(long R)` with the canonical loop
/// `for (long r = 0; r < R; r++) { BODY }`; BODY repeats its construct
/// Unroll times in the `x = y OP z` style. At -O1 and above (`__OPTIMIZE__`)
/// empty inline-asm barriers (`__asm__ volatile("" : "+r"(x))`, "+x" for
/// floating values, and a "memory" clobber for global and array accesses)
/// keep the optimiser from folding, hoisting or deleting the repetitions; the
/// plugin counts nothing for them. At -O0 nothing is folded and the barriers
/// expand to nothing (an asm with a "+r" operand would add a load and a store
/// the plugin does not count).
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_TOOLS_CALIB_BENCHSOURCE_H
#define SEGTIME_TOOLS_CALIB_BENCHSOURCE_H

#include <string>
#include <vector>

namespace segtime {

/// One generated benchmark function.
struct BenchInfo {
  std::string Function;  ///< C function name: bench_<id>, bench_baseline, poc_<kernel>
  std::string Construct; ///< HLLC construct it isolates ("loop" for the baseline, "" for POC)
  bool Poc = false;      ///< a POC flop-rate kernel (not a row of the HLLC system)
  std::string What;      ///< one line: the C statement(s) it repeats
  /// A training kernel of the group-multiplier fit (TrainingSource.h): not a
  /// row of the construct system.
  bool Train = false;
};

/// Bit in the benchmark program's MASK argument.
enum BenchMask { MaskHllc = 1, MaskPoc = 2, MaskTrain = 4 };

/// The C source of the benchmark program (see the file comment). Fills
/// Benches with the functions in the order the program reports them.
std::string generateBenchSource(unsigned Unroll, std::vector<BenchInfo> &Benches);

} // namespace segtime

#endif
