//===- PredictedSpeed.h - Predicted times of one function on machines -*- C++ -*-===//
///
/// \file
/// The time of one function of a SEG file on one or more machines at given
/// parameter values, from predict() (predictor/Predict.h): what the parallel
/// templates (`segtime hetero`, `farm`, `dc` with --seg) take as speeds or
/// task times, and what `segtime predict --machine A --machine B` sets side
/// by side. No I/O besides reading the machine files.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PREDICTOR_PREDICTEDSPEED_H
#define SEGTIME_PREDICTOR_PREDICTEDSPEED_H

#include "predictor/Predict.h"

#include <optional>

#include <ostream>
#include <string>
#include <vector>

namespace segtime {

/// Adds the levels `segtime predict` adds by default to O.Levels (and
/// O.Optional): INTCC when S has IR-level SEGs and M an INTCC cost vector,
/// ICC when also an ICC target of S has a cost vector in M (iccTarget).
void addDefaultLevels(const SegFile &S, const Machine &M, PredictOptions &O);
/// Adds to O.Levels and O.Optional each level costed on the optimised code
/// (INTCC, ICC) that M has a cost vector of (ICC: for iccTarget(S, M,
/// O.Target)), if HasIR (the functions predicted have IR-level SEGs).
void addOptionalIrLevels(const SegFile &S, const Machine &M, bool HasIR, PredictOptions &O);

/// Predicted time of one function on one machine.
struct MachineTime {
  std::string Machine, Path; ///< machine name and file
  segtime::Level Level;      ///< ICC, INTCC, HLLC or POC
  std::string Target;        ///< ICC target ("" below ICC)
  double TimeS = 0;          ///< s
};

/// The time (s) of Function in S on each machine of Machines (names or
/// paths, findMachine) at Values, all at one level: AtLevel if
/// given, else the most detailed level every machine can predict (ICC,
/// INTCC, HLLC, POC in that order; UTSA-95 power weights compare times of
/// one model). Target: ICC target, "" for iccTarget's choice. Throws
/// std::runtime_error naming the machine and function when a machine file
/// cannot be read, the function is not in S, or it cannot be predicted
/// (FunctionPrediction::Error, e.g. a missing -p value).
std::vector<MachineTime> predictFunctionTimes(const SegFile &S, const std::string &Function,
                                              const std::vector<std::string> &Machines,
                                              const std::map<std::string, double> &Values,
                                              std::optional<Level> AtLevel = std::nullopt,
                                              const std::string &Target = "");

/// Predictions of the same SEG on several machines (`segtime predict
/// --machine A --machine B ...`): each function's time per level and
/// machine, and the ratio t(first machine) / t(machine), i.e. the speed of
/// each machine relative to the first (1 for the first).
struct MachineComparison {
  std::vector<Prediction> Predictions; ///< one per machine, in the order given
  json toJSON() const;                 ///< {"machines": [Prediction JSON + "ratio_to_first"]}
  void printText(std::ostream &OS) const;
  int exitStatus() const; ///< the worst of the predictions' exit statuses
};

/// A time S in seconds with a readable unit, as segtime's reports print it:
/// Digits significant digits (4 in `segtime predict`, 6 in the parallel
/// templates) in s (also for 0), ms, us or ns: "17.25 ms", "0 s", "40 ns";
/// an infinite time is "unlimited".
std::string formatSeconds(double S, int Digits = 4);

} // namespace segtime

#endif
