//===- KernelSources.h - The calibration programs' C text --------*- C++ -*-===//
///
/// \file
/// The C programs (or parts of programs) that `segtime calibrate` writes out,
/// compiles and runs. Each is an ordinary file under tools/calib/kernels/,
/// embedded at build time (tools/CMakeLists.txt, KernelSources.cpp.in): the
/// function `kernel::fooBar()` returns the text of kernels/FooBar.c after its
/// first line (a `/*===- ... -===*/` banner saying what the file is).
///
/// Whole programs: cacheSweep(), coreClock(), mispredict(), library(), chain(),
/// latency(). The others are
/// pieces that BenchSource.cpp and LowLevelSource.cpp join with the code they
/// generate (one function per HLLC construct, one Horner polynomial per
/// order), in this order:
///   bench.c = benchPrologue() + HLLC benchmarks + benchPoc() + training()
///             + the table of benchmarks + benchMain()
///   park.c  = lowLevelHead() + POLY kernels and tables + lowLevelTail()
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_TOOLS_CALIB_KERNELSOURCES_H
#define SEGTIME_TOOLS_CALIB_KERNELSOURCES_H

namespace segtime::kernel {

/// kernels/BenchPrologue.c: headers, the barrier macros B, BF, B0 and
/// CLOBBER, the benchmarks' global data.
const char *benchPrologue();
/// kernels/BenchPoc.c: the four in-cache POC flop-rate kernels.
const char *benchPoc();
/// kernels/BenchMain.c: timers, the noise checks and main() of bench.c.
const char *benchMain();
/// kernels/Training.c: the training kernels (TrainingSource.h).
const char *training();
/// kernels/LowLevelHead.c: timers and the RINF1/streaming kernels of park.c.
const char *lowLevelHead();
/// kernels/LowLevelTail.c: the drivers and main() of park.c.
const char *lowLevelTail();
/// kernels/CacheSweep.c: the capacity sweep (LowLevelSource.h).
const char *cacheSweep();
/// kernels/CoreClock.c: the core clock, a chain of dependent integer adds.
const char *coreClock();
/// kernels/Mispredict.c: the branch-misprediction penalty.
const char *mispredict();
/// kernels/Library.c: time per call of the C library functions (Library.h).
const char *library();
/// kernels/Chain.c: loop-carried chains through a stack variable at -O0.
const char *chain();
/// kernels/Latency.c: latencies of the instruction classes of register chains.
const char *latency();

} // namespace segtime::kernel

#endif
