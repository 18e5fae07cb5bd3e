//===- PredictTiming.h - Where segtime predict spends its time ---*- C++ -*-===//
///
/// \file
/// CPU time of segtime predict per phase (reading the file, resolving
/// inlined levels, predicting, per-site figures, printing), per level and
/// per function, for `segtime predict --timing`: one process-wide record,
/// off unless switched on (then each scope costs two clock() calls).
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PREDICTOR_PREDICTTIMING_H
#define SEGTIME_PREDICTOR_PREDICTTIMING_H

#include <ctime>
#include <map>
#include <ostream>
#include <string>

namespace segtime {

/// The process-wide record of CPU seconds (std::clock) by phase and by
/// function; formula work counters (FormulaBuilder's closed forms built).
struct PredictTiming {
  bool On = false;
  std::map<std::string, double> Phase;    ///< phase or level -> CPU s
  std::map<std::string, double> Function; ///< function -> CPU s of its prediction(s)
  std::map<std::string, double> Counter;  ///< e.g. "closed forms built" -> count
  static PredictTiming &get();
  /// Phases, then the Top functions that took longest, as text.
  void print(std::ostream &OS, size_t Top = 20) const;
};

/// Adds the CPU time from its making to its end to Phase[Name] (and to
/// Function[Fn] if Fn is given), when PredictTiming is on.
class TimedScope {
public:
  explicit TimedScope(std::string Name, std::string Fn = "")
      : Name(std::move(Name)), Fn(std::move(Fn)), Start(PredictTiming::get().On ? std::clock() : 0) {}
  ~TimedScope() {
    PredictTiming &T = PredictTiming::get();
    if (!T.On)
      return;
    double S = double(std::clock() - Start) / CLOCKS_PER_SEC;
    if (!Name.empty())
      T.Phase[Name] += S;
    if (!Fn.empty())
      T.Function[Fn] += S;
  }
  TimedScope(const TimedScope &) = delete;
  TimedScope &operator=(const TimedScope &) = delete;

private:
  std::string Name, Fn;
  std::clock_t Start;
};

} // namespace segtime

#endif
