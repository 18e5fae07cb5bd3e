//===- ParamNames.h - Names of the IR level's measured parameters -*- C++ -*-===//
///
/// \file
/// The naming conventions by which the plugin (passes/), the CT profile
/// reader (core/Ct.cpp) and the evaluator (predictor/ExprEval.cpp) agree on
/// what an IR-level parameter is (docs/seg-json.md): header-only, so that
/// the evaluator's library needs nothing else of core.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_CORE_PARAMNAMES_H
#define SEGTIME_CORE_PARAMNAMES_H

#include <string>

namespace segtime {

/// The prefix of an alias-check indicator, Pov_<fn>_<line>_<col>[_c<k>]:
/// 1 where the vectoriser's runtime checks find two ranges overlapping, 0
/// where they pass; its value is the probability that it is 1.
inline constexpr const char *IndicatorPrefix = "Pov_";

/// The suffix of the probability that the first test of a branch on a
/// logical and/or split into two jumps is true, Pir_<fn>_<line>_<col>_first.
inline constexpr const char *FirstTestSuffix = "_first";

/// Whether Name is an alias-check indicator (IndicatorPrefix).
inline bool isIndicatorName(const std::string &Name) {
  return Name.rfind(IndicatorPrefix, 0) == 0;
}

/// Whether Name is a first test's probability (FirstTestSuffix).
inline bool isFirstTestName(const std::string &Name) {
  const std::string S = FirstTestSuffix;
  return Name.size() > S.size() && Name.compare(Name.size() - S.size(), S.size(), S) == 0;
}

} // namespace segtime

#endif // SEGTIME_CORE_PARAMNAMES_H
