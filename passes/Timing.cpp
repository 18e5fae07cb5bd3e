//===- Timing.cpp - The plugin's own phase times ---------------------------===//
#include "passes/Timing.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <string>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <vector>

using namespace llvm;

namespace segtime {

namespace {

struct PhaseTimers {
  bool On = false;
  TimerGroup Group{"segtime", "segtime plugin phases"};
  StringMap<std::unique_ptr<Timer>> Timers; ///< destroyed before Group
  /// notePeakMemory: {where, VmHWM kB, VmRSS kB}, in call order.
  struct MemoryNote {
    std::string Where;
    uint64_t PeakKB, CurrentKB;
    uint64_t HeapKB; ///< bytes allocated by malloc and not freed (glibc), kB
    uint64_t FreeKB = 0; ///< bytes freed but held by malloc (glibc), kB

  };
  std::vector<MemoryNote> Memory;
};

/// The value in kB of field Key ("VmHWM:") of /proc/self/status Text.
uint64_t statusKB(StringRef Text, StringRef Key) {
  size_t At = Text.find(Key);
  if (At == StringRef::npos)
    return 0;
  uint64_t KB = 0;
  Text.substr(At + Key.size()).ltrim().consumeInteger(10, KB);
  return KB;
}

PhaseTimers &timers() {
  static PhaseTimers T;
  return T;
}

} // namespace

void enablePhaseTimers(bool On) { timers().On = On; }

Timer *phaseTimer(StringRef Name, StringRef Description) {
  PhaseTimers &T = timers();
  if (!T.On)
    return nullptr;
  std::unique_ptr<Timer> &P = T.Timers[Name];
  if (!P)
    P = std::make_unique<Timer>(Name, Description, T.Group);
  return P.get();
}

void notePeakMemory(StringRef Where) {
  PhaseTimers &T = timers();
  if (!T.On)
    return;
  ErrorOr<std::unique_ptr<MemoryBuffer>> Status =
      MemoryBuffer::getFileAsStream("/proc/self/status");
  if (!Status)
    return;
  StringRef Text = (*Status)->getBuffer();
  uint64_t Heap = 0, Free = 0;
#if defined(__GLIBC__)
  struct mallinfo2 MI = mallinfo2();
  Heap = (MI.uordblks + MI.hblkhd) / 1024;
  Free = MI.fordblks / 1024;
#endif
  T.Memory.push_back(
      {Where.str(), statusKB(Text, "VmHWM:"), statusKB(Text, "VmRSS:"), Heap, Free});
}

std::optional<size_t> heapBytesInUse() {
#if defined(__GLIBC__)
  struct mallinfo2 MI = mallinfo2();
  return MI.uordblks + MI.hblkhd;
#else
  return std::nullopt;
#endif
}

void printPhaseTimes(raw_ostream &OS) {
  PhaseTimers &T = timers();
  T.Group.print(OS, /*ResetAfterPrint=*/true);
  if (T.Memory.empty())
    return;
  OS << "  segtime memory (MB): peak resident set so far, resident set, malloc'd and not "
        "freed, freed and held by malloc\n";
  for (const PhaseTimers::MemoryNote &M : T.Memory)
    OS << format("  %8.1f %8.1f %8.1f %8.1f  ", M.PeakKB / 1024.0, M.CurrentKB / 1024.0,
                 M.HeapKB / 1024.0, M.FreeKB / 1024.0)
       << M.Where << "\n";
  T.Memory.clear();
}

} // namespace segtime
