//===- PredictedArgs.h - Predicted times as template options ----*- C++ -*-===//
///
/// \file
/// `segtime hetero|farm|dc --seg FILE.seg.json --function F --machines
/// M1:COUNT,... | --machine M -p NAME=VALUE [--level L] [--target T]`: the
/// options that take a template's times from segtime's own predictions
/// (predictor/PredictedSpeed.h). PredictedArgs removes them from the
/// command line and puts in what the template reads: hetero gets `--times`
/// (the predicted time of F on each workstation, the machines repeated
/// COUNT times), farm and dc get `--te` (the predicted time of F on the
/// machine as the task time).
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_TOOLS_PREDICTEDARGS_H
#define SEGTIME_TOOLS_PREDICTEDARGS_H

#include <nlohmann/json.hpp>

#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace segtime {

/// Usage lines for the options, for the templates' --help ("hetero" or not).
std::string predictedArgsUsage(const std::string &Cmd);

/// The command line of a template (this header declares no segtime::json, so
/// that the templates' own `json` stays unambiguous) with the prediction options replaced.
class PredictedArgs {
public:
  /// Cmd: "hetero" (--machines NAME:COUNT,...) or "farm" / "dc" (--machine
  /// NAME). Without --seg the arguments pass unchanged. Throws
  /// std::runtime_error for a prediction option without --seg, --seg
  /// together with --times/--speeds (hetero) or --te (farm, dc), a missing
  /// --function or machine, a bad COUNT or -p, and whatever the prediction
  /// throws (predictFunctionTimes).
  PredictedArgs(const std::string &Cmd, int Argc, char **Argv);
  int argc() const { return static_cast<int>(Ptrs.size()); }
  char **argv() { return Ptrs.data(); }
  bool active() const { return Active; }
  /// {"seg", "function", "level", "values", "machines": [{"name", "file",
  /// "count", "time_s", "target"}]}.
  const nlohmann::json &toJSON() const { return Info; }
  /// One line per machine: name x count, predicted time, level, file.
  void printText(std::ostream &OS) const { OS << Text; }

private:
  bool Active = false;
  nlohmann::json Info; ///< toJSON
  std::string Text;    ///< printText
  std::vector<std::string> Args;
  std::vector<char *> Ptrs;
};

} // namespace segtime

#endif
