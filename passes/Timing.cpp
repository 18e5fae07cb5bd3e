//===- Timing.cpp - The plugin's own phase times ---------------------------===//
#include "passes/Timing.h"

#include "llvm/ADT/StringMap.h"

#include <memory>

using namespace llvm;

namespace segtime {

namespace {

struct PhaseTimers {
  bool On = false;
  TimerGroup Group{"segtime", "segtime plugin phases"};
  StringMap<std::unique_ptr<Timer>> Timers; ///< destroyed before Group
};

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

void printPhaseTimes(raw_ostream &OS) {
  timers().Group.print(OS, /*ResetAfterPrint=*/true);
}

} // namespace segtime
