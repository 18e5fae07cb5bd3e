//===- LowLevelText.h - Shared text functions of calibrate -----*- C++ -*-===//
///
/// \file
/// Number and text formatting, sample checks and machine-file entries that
/// the low-level parts of calibrate (LowLevel.cpp: caches, TICK, RINF1;
/// LowLevelMemory.cpp: POLY, memory, strided walk, overlap, plots) share.
/// Internal to tools/calib.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_TOOLS_CALIB_LOWLEVELTEXT_H
#define SEGTIME_TOOLS_CALIB_LOWLEVELTEXT_H

#include "predictor/Machine.h"
#include "predictor/Parkbench.h"
#include "tools/calib/Process.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace segtime::lowlevel {

using json = nlohmann::json;

inline std::string fmt(double V, int Digits = 4) { return yamlNumber(V, Digits); }

inline std::string pct(std::optional<double> V) {
  if (!V)
    return "-";
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%.1f%%", *V * 100);
  return Buf;
}

/// Engineering text of a byte count: 48 KiB, 1.25 MiB, 384 MiB.
inline std::string bytes(double B) {
  const char *U[] = {"B", "KiB", "MiB", "GiB"};
  int K = 0;
  while (B >= 1024 && K < 3) {
    B /= 1024;
    ++K;
  }
  return fmt(B, 3) + " " + U[K];
}

inline json optJson(std::optional<double> V) { return V ? json(*V) : json(nullptr); }

/// A JSON array of N rows, row I being Row(I) (a fit's points, a curve).
template <typename F> json jsonRows(size_t N, F &&Row) {
  json A = json::array();
  for (size_t I = 0; I < N; ++I)
    A.push_back(Row(I));
  return A;
}

/// The per-point statistic: min (noise only slows a sample down) or median.
inline double stat(const std::vector<double> &V, const std::string &S) {
  return S == "min" ? *std::min_element(V.begin(), V.end()) : median(V);
}

/// "min of 11 samples of >= 1 ms".
inline std::string sampling(const std::string &Stat, int Reps, double TargetS) {
  return (Stat == "min" ? "minimum" : "median") + std::string(" of ") + std::to_string(Reps) +
         " samples" + (TargetS > 0 ? " of >= " + fmt(TargetS * 1e3, 2) + " ms" : "");
}

/// A measured parameter entry.
inline CostEntry measured(double V, const std::string &Unit, std::optional<double> Spread,
                   const std::string &Ref) {
  return CostEntry::of(V, Unit, "measured", Ref, Spread);
}

/// "; per-repetition range [a, b]" for values whose relative spread is
/// undefined (a median <= 0, e.g. n_1/2 near 0).
inline std::string rangeText(const std::vector<double> &V, int Digits = 3) {
  if (V.size() < 2)
    return "";
  auto [Lo, Hi] = std::minmax_element(V.begin(), V.end());
  return "; per-repetition fits range " + fmt(*Lo, Digits) + " to " + fmt(*Hi, Digits);
}

inline std::string pad(const std::string &S, size_t W, bool Left = false) {
  if (S.size() >= W)
    return S;
  return Left ? S + std::string(W - S.size(), ' ') : std::string(W - S.size(), ' ') + S;
}

/// Samples [point][rep] from the program's {"n", "calls", "disturbed",
/// "times"} objects; adds to Samples and Disturbed.
inline std::vector<double> timesOf(const json &P, int Reps, const std::string &What, int &Samples,
                            int &Disturbed) {
  Samples += Reps;
  Disturbed += P.value("disturbed", 0);
  std::vector<double> T = P.at("times").get<std::vector<double>>();
  if (T.size() != static_cast<size_t>(Reps))
    throw CalibError(What + ": " + std::to_string(T.size()) + " samples, expected " +
                     std::to_string(Reps));
  for (double X : T)
    if (!(X > 0))
      throw CalibError(What + ": a sample time <= 0");
  return T;
}

inline std::vector<double> column(const std::vector<std::vector<double>> &M, size_t K) {
  std::vector<double> C;
  for (const auto &Row : M)
    C.push_back(Row[K]);
  return C;
}

} // namespace segtime::lowlevel

#endif
