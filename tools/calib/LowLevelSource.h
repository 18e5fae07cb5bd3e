//===- LowLevelSource.h - PARKBENCH-93 low-level benchmark program -*- C++ -*-===//
///
/// \file
/// The C source of the program behind `segtime calibrate`'s low-level parts
/// (PARKBENCH-93 §3.2): TICK1, TICK2, RINF1, POLY1, POLY2 and the
/// bandwidth-versus-working-set sweep. It is compiled without the segtime
/// plugin, at -O2 -march=native -fno-builtin (the compiler vectorises the
/// loops; -fno-builtin keeps the copy loop a loop instead of a memcpy call).
/// The program pins itself to the CPU it starts on, times with
/// clock_gettime(CLOCK_MONOTONIC) and prints one JSON object on stdout.
///
/// USAGE (after writing lowLevelSource() to park.c and compiling it):
///   ./park tick1 REPS CALLS            TICK1: CALLS timer reads per rep
///   ./park tick2 REPS SLEEP_S          TICK2: a sleep timed by four clocks
///   ./park rinf1 REPS TARGET_S NMAX    RINF1: kernels x lengths 1..NMAX
///   ./park poly1 REPS TARGET_S N       POLY1: orders polyOrders(), in cache
///   ./park poly2 REPS N                POLY2: the same, one sweep each
///   ./park mem REPS TARGET_S MAXBYTES  load/copy/triad over working sets
///   ./park strided REPS TARGET_S MIN MAX  strided walk (strided2: two processes)
///   ./park overlap REPS TARGET_S W...  chains of dependent multiply-adds over 1
///                                      and 2 streams, and the streams alone,
///                                      at footprints W B (core/memory overlap)
/// Times are s per call of a kernel (the minimum-statistics choice is the
/// caller's); TARGET_S is the minimum duration of one timed sample.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_TOOLS_CALIB_LOWLEVELSOURCE_H
#define SEGTIME_TOOLS_CALIB_LOWLEVELSOURCE_H

#include <string>
#include <vector>

namespace segtime {

/// One RINF1 kernel of the program: name, q (flop per element, McMahon
/// weights) and the Fortran-style statement it repeats.
struct RinfKernel {
  std::string Name;
  double Q;
  std::string What;
};

/// The RINF1 kernels, in the order the program reports them.
const std::vector<RinfKernel> &rinfKernels();

/// The Horner polynomial orders of POLY1/POLY2 (f, flop per memory
/// reference), smallest first: 1..10 as in PARKBENCH-93 §3.2.4, then more.
const std::vector<int> &polyOrders();

/// The C source of the low-level benchmark program (see the file comment).
std::string lowLevelSource();

} // namespace segtime

#endif
