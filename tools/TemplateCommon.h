//===- TemplateCommon.h - What segtime farm, dc and hetero share -*- C++ -*-===//
///
/// \file
/// The option reading, formatting, plots and the k-ary tree options and
/// peak/granularity reports that the parallel-template commands
/// (tools/Templates.cpp: farm, dc, hetero) share; values are parsed by the
/// command-line layer (tools/CommandLine.h). Errors are UsageError: the
/// command prints it and exits with status 2.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_TOOLS_TEMPLATECOMMON_H
#define SEGTIME_TOOLS_TEMPLATECOMMON_H

#include "predictor/Templates.h"
#include "tools/CommandLine.h"
#include "tools/PredictedArgs.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <iostream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace segtime::tmpl {

using json = nlohmann::ordered_json; // keys in the documented order

using cli::ArgReader;
using cli::parseCount;
using cli::parseNumber;
using cli::parseNumberList;
using cli::parseTime;
using cli::parseTimeList;
using cli::parseUnsigned;
using cli::parseUnsignedList;
using cli::requireOptions;
using cli::splitList;
using cli::UsageError;

/// Reads the options of command Cmd in order, after Pred took those of times
/// predicted by segtime (PredictedArgs.h): --help and -h print Usage and
/// the predicted-time options; Take(F, A) consumes any other option F (its
/// value from A) and returns false for one it does not know. Then, unless
/// Json was set, prints what Pred predicted. Returns false when --help was
/// given.
template <typename TakeFn>
bool readOptions(PredictedArgs &Pred, const std::string &Cmd, const char *Usage, const bool &Json,
                 TakeFn Take) {
  ArgReader A(Pred.argc(), Pred.argv());
  while (A.next()) {
    std::string F = A.flag();
    if (F == "--help" || F == "-h") {
      std::cout << Usage << predictedArgsUsage(Cmd);
      return false;
    }
    if (!Take(F, A))
      cli::unknownOption(Cmd, F);
  }
  if (Pred.active() && !Json)
    Pred.printText(std::cout);
  return true;
}

//===--- Formatting -------------------------------------------------------===//

std::string fmt(double V, int Digits = 6);

/// A time with a readable unit and 6 digits: "17 ms", "2.08491 s", "0 s"
/// (formatSeconds, predictor/PredictedSpeed.h).
std::string fmtTime(double S);

std::string pad(const std::string &S, size_t W);

/// A processor count: an integer while exact in a double.
json countJson(double V);

/// A finite number, or null for "no limit".
json finiteOrNull(double V);

//===--- Plots ------------------------------------------------------------===//

struct Series {
  std::string Title;
  std::vector<double> Y; ///< at x = 1, 2, ...
  PeakPoint Peak;
};

/// Plot text: Greek letters and µ for the ASCII spellings of the tables.
std::string plotText(std::string S);

/// Writes DIR/NAME.dat and DIR/NAME.gp and runs gnuplot for NAME.png and
/// NAME.svg. Returns the paths of the two images.
std::vector<std::string> plot(const std::string &Dir, const std::string &Name,
                              const std::string &Title, const std::string &XLabel,
                              const std::vector<Series> &All);

//===--- farm and dc: shared options, peak and granularity ----------------===//

/// The options farm and dc share (a balanced k-ary tree, its costs, the peak
/// and granularity study, the output); each command adds its own.
struct TreeOptions {
  unsigned Arity = 2;
  unsigned Levels = 0;
  std::vector<double> Te; ///< --te: one time or a list; empty if not given
  double BetaE = 0, BetaF = 0;
  std::uint64_t Tasks = 0; ///< 0: not given (--tasks is >= 1)
  double Threshold = 0.01;
  unsigned MaxLevels = 0; ///< farm: 0 chooses by the tree
  std::vector<unsigned> Grains = {1, 2, 4, 8, 16};
  std::string PlotDir;
  bool HaveArity = false, HaveLevels = false, HaveBetaE = false, HaveBetaF = false;
  bool Json = false;
};

/// Takes F (and its value from A) into O if farm and dc share it; returns
/// false for any other option.
bool readTreeOption(const std::string &F, ArgReader &A, TreeOptions &O);

void checkGrains(const std::vector<unsigned> &Grains);

/// The table lines of the peak operating point and the granularity study.
void printPeakAndGranularity(const PeakPoint &Peak, const std::vector<GranularityRow> &Gran);

void printPlots(const std::vector<std::string> &Plots);

/// Appends peak_threshold, peak_levels, peak_processors, peak_speedup,
/// peak_found and granularity to J.
void addPeakJson(json &J, double Threshold, const PeakPoint &Peak,
                 const std::vector<GranularityRow> &Gran);

std::string levelsLabel(unsigned Arity);

/// The speedup-vs-N series for T_e/2, T_e and 2*T_e; Curve(T) returns the
/// speedups and the peak operating point for task time T.
template <typename CurveFn> std::vector<Series> taskTimeSeries(double Te, CurveFn Curve) {
  std::vector<Series> All;
  for (double Scale : {0.5, 1.0, 2.0}) {
    auto [Y, Peak] = Curve(Scale * Te);
    All.push_back({"T_e = " + fmtTime(Scale * Te), std::move(Y), Peak});
  }
  return All;
}

/// Draws DIR/NAME_speedup (the series Speedup) and DIR/NAME_granularity (one
/// series per row of Gran), titled "Model: ... (Common)", with GranNote
/// appended to Common in the granularity title. Returns the images.
std::vector<std::string> plotTemplate(const std::string &Dir, const std::string &Name,
                                      const std::string &Model, const std::string &Common,
                                      const std::string &GranNote, const std::string &XLabel,
                                      const std::vector<Series> &Speedup,
                                      const std::vector<GranularityRow> &Gran);

} // namespace segtime::tmpl

#endif
