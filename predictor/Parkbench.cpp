//===- Parkbench.cpp - PARKBENCH-93 low-level fits ------------------------===//
///
/// \file
/// Least-squares fits of PARKBENCH-93 eqs. 3.1 and 3.3 and the bandwidth
/// plateaus of a memory hierarchy (see Parkbench.h).
///
//===----------------------------------------------------------------------===//
#include "predictor/Parkbench.h"
#include "predictor/CommFit.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>
#include <stdexcept>

namespace segtime {

static double rms(const std::vector<double> &V) {
  double S = 0;
  for (double X : V)
    S += X * X;
  return V.empty() ? 0 : std::sqrt(S / static_cast<double>(V.size()));
}

RinfFit fitHockney(const std::vector<double> &X, const std::vector<double> &T, double Q) {
  if (X.size() != T.size())
    throw std::invalid_argument("Hockney fit: " + std::to_string(X.size()) + " lengths but " +
                                std::to_string(T.size()) + " times");
  if (!(Q > 0))
    throw std::invalid_argument("Hockney fit: q (operations per element) must be > 0");
  if (std::set<double>(X.begin(), X.end()).size() < 2)
    throw std::invalid_argument("Hockney fit: needs at least two distinct lengths");
  for (size_t I = 0; I < X.size(); ++I)
    if (!(T[I] > 0) || !std::isfinite(T[I]))
      throw std::invalid_argument("Hockney fit: time " + std::to_string(T[I]) + " at length " +
                                  std::to_string(X[I]) + " is not positive");
  // The line a + b x with relative residuals (one solve with CommFit.h's).
  RelativeLine L = fitRelativeLine(X, T);
  double Intercept = L.T0, Slope = L.Slope;
  if (!(Slope > 0))
    throw std::invalid_argument("Hockney fit: the time does not grow with the length (slope " +
                                std::to_string(Slope) + " s per element)");
  RinfFit F;
  F.RInf = Q / Slope;
  F.XHalf = Intercept / Slope;
  F.T0 = Intercept;
  for (size_t I = 0; I < X.size(); ++I)
    F.Residuals.push_back((Intercept + Slope * X[I] - T[I]) / T[I]);
  F.RmsRel = rms(F.Residuals);
  return F;
}

PolyFit fitPoly(const std::vector<double> &F, const std::vector<double> &R) {
  if (F.size() != R.size())
    throw std::invalid_argument("POLY fit: " + std::to_string(F.size()) + " intensities but " +
                                std::to_string(R.size()) + " rates");
  std::vector<double> Tau; // s per memory reference: f / r
  for (size_t I = 0; I < F.size(); ++I) {
    if (!(F[I] > 0) || !(R[I] > 0))
      throw std::invalid_argument("POLY fit: intensity and rate must be > 0 (point " +
                                  std::to_string(I) + ")");
    Tau.push_back(F[I] / R[I]);
  }
  RinfFit H;
  try {
    H = fitHockney(F, Tau, 1);
  } catch (const std::invalid_argument &E) {
    std::string M = E.what();
    if (M.find("does not grow") == std::string::npos)
      throw;
    throw std::invalid_argument("POLY fit: the time per memory reference does not grow with "
                                "the intensity f (memory-bound at every f: r_hat_inf "
                                "undetermined)");
  }
  PolyFit P;
  P.RHatInf = H.RInf;
  P.FHalf = H.XHalf;
  for (size_t I = 0; I < F.size(); ++I) {
    double Model = P.RHatInf / (1 + P.FHalf / F[I]);
    P.Residuals.push_back((Model - R[I]) / R[I]);
  }
  P.RmsRel = rms(P.Residuals);
  return P;
}

PolyFit fitPolyGivenPeak(const std::vector<double> &F, const std::vector<double> &R,
                         double RHat) {
  if (F.size() != R.size() || F.empty())
    throw std::invalid_argument("POLY fit: " + std::to_string(F.size()) + " intensities but " +
                                std::to_string(R.size()) + " rates");
  if (!(RHat > 0))
    throw std::invalid_argument("POLY fit: the given r_hat_inf must be > 0");
  double Num = 0, Den = 0;
  for (size_t I = 0; I < F.size(); ++I) {
    if (!(F[I] > 0) || !(R[I] > 0))
      throw std::invalid_argument("POLY fit: intensity and rate must be > 0 (point " +
                                  std::to_string(I) + ")");
    double Tau = F[I] / R[I], W = 1 / (Tau * Tau);
    Num += W * (RHat * Tau - F[I]);
    Den += W;
  }
  PolyFit P;
  P.RHatInf = RHat;
  P.FHalf = Num / Den;
  for (size_t I = 0; I < F.size(); ++I) {
    double Model = RHat / (1 + P.FHalf / F[I]);
    P.Residuals.push_back((Model - R[I]) / R[I]);
  }
  P.RmsRel = rms(P.Residuals);
  return P;
}

std::vector<Plateau> bandwidthPlateaus(const std::vector<double> &W,
                                       const std::vector<double> &B,
                                       const std::vector<CacheLevel> &Levels) {
  if (W.size() != B.size() || W.empty())
    throw std::invalid_argument("bandwidth plateaus: " + std::to_string(W.size()) +
                                " working sets but " + std::to_string(B.size()) + " bandwidths");
  if (Levels.empty() || Levels.back().Size != 0)
    throw std::invalid_argument("bandwidth plateaus: the last level must be DRAM (size 0)");
  for (size_t K = 0; K + 1 < Levels.size(); ++K)
    if (!(Levels[K].Size > 0) || (K > 0 && !(Levels[K].Size > Levels[K - 1].Size)))
      throw std::invalid_argument("bandwidth plateaus: cache sizes must be positive and "
                                  "increasing (" + Levels[K].Name + ")");
  std::vector<Plateau> R;
  for (size_t K = 0; K < Levels.size(); ++K) {
    const CacheLevel &L = Levels[K];
    bool Dram = L.Size == 0;
    double Prev = K ? Levels[K - 1].Size : 0;
    double Lo = Dram ? 4 * Prev : K ? 2 * Prev : L.Size / 8;
    double Hi = Dram ? std::numeric_limits<double>::infinity() : L.Size / 2;
    auto Collect = [&](double A, double Z) {
      std::vector<size_t> P;
      for (size_t I = 0; I < W.size(); ++I)
        if (W[I] >= A && W[I] <= Z)
          P.push_back(I);
      return P;
    };
    std::vector<size_t> P = Collect(Lo, Hi);
    if (P.empty() && !Dram) {
      Lo = K ? Prev : 0;
      Hi = L.Size;
      P = Collect(Lo, Hi);
    }
    if (P.empty()) {
      std::ostringstream OS;
      OS << "bandwidth plateaus: no working set in the window of " << L.Name << " [" << Lo
         << ", " << Hi << "] B";
      throw std::invalid_argument(OS.str());
    }
    Plateau Pl;
    Pl.Level = L.Name;
    Pl.Lo = Lo;
    Pl.Hi = Hi;
    Pl.Points = P;
    std::vector<double> V;
    for (size_t I : P) {
      if (!(B[I] > 0))
        throw std::invalid_argument("bandwidth plateaus: bandwidth at working set " +
                                    std::to_string(W[I]) + " B is not positive");
      V.push_back(B[I]);
    }
    Pl.Bandwidth = median(V);
    Pl.Flatness = relSpread(V).value_or(0);
    R.push_back(std::move(Pl));
  }
  return R;
}

} // namespace segtime
