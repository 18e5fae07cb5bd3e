//===- Timing.h - The plugin's own phase times ------------------*- C++ -*-===//
///
/// \file
/// `-fplugin-arg-segtime-timing` times the
/// plugin's phases: the AST SEG, the IR SEG (IntCC), and per ICC target the
/// clone, its code generation and the costing of its blocks (llvm-mca,
/// itineraries, code layout), the merge of the levels and the writing of the
/// .seg.json. The times go into one llvm::TimerGroup, "segtime", printed to
/// stderr at the end of the compile in the table format of clang's
/// -ftime-report (user, system, user+system and wall seconds per phase),
/// followed by the peak and current resident set at the phase boundaries
/// (notePeakMemory), to find where the compile's peak memory is reached.
///
/// USAGE:
///   clang-19 -O2 -fplugin=build/lib/segtime.so -fplugin-arg-segtime-timing \
///       -fplugin-arg-segtime-targets=compile -c kernel.c
///   { llvm::TimeRegion R(segtime::phaseTimer("ir-seg", "IR SEG")); ... }
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PASSES_TIMING_H
#define SEGTIME_PASSES_TIMING_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Timer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <optional>

namespace segtime {

/// Turns the phase timers on or off (off by default).
void enablePhaseTimers(bool On);

/// The timer of phase Name (Description: the row's label), created on first
/// use; nullptr when the timers are off, for which llvm::TimeRegion does
/// nothing. Timers of one name accumulate over the compile.
llvm::Timer *phaseTimer(llvm::StringRef Name, llvm::StringRef Description);

/// Times a phase that runs inside another, running, phase: the outer
/// phase's timer stops meanwhile, so that the rows of the table add up (the
/// costing of each function's blocks runs inside code generation).
class NestedPhaseRegion {
public:
  NestedPhaseRegion(llvm::Timer *Outer, llvm::Timer *Inner)
      : Outer(Outer && Outer->isRunning() ? Outer : nullptr), Inner(Inner) {
    if (this->Outer)
      this->Outer->stopTimer();
    if (Inner)
      Inner->startTimer();
  }
  ~NestedPhaseRegion() {
    if (Inner)
      Inner->stopTimer();
    if (Outer)
      Outer->startTimer();
  }
  NestedPhaseRegion(const NestedPhaseRegion &) = delete;
  NestedPhaseRegion &operator=(const NestedPhaseRegion &) = delete;

private:
  llvm::Timer *Outer, *Inner;
};

/// With the timers on, notes the process's peak and current resident set
/// (VmHWM, VmRSS of /proc/self/status, in kB; nothing where that file does
/// not exist) at point Where of the compile, for printPhaseTimes.
void notePeakMemory(llvm::StringRef Where);

/// Bytes malloc has handed out and not had back (glibc's mallinfo2:
/// uordblks + hblkhd); nullopt where the C library does not say.
std::optional<size_t> heapBytesInUse();

/// Prints the phases timed so far (nothing if none) and the memory noted
/// (notePeakMemory), and resets both.
void printPhaseTimes(llvm::raw_ostream &OS);

} // namespace segtime

#endif
