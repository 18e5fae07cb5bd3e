//===- Overlap.cpp - Overlap of core work and memory transfers -----------===//
#include "predictor/Overlap.h"

#include "predictor/Expr.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

using namespace GiNaC;

namespace segtime {

double overlapTime(double Tc, double Tm, double P) {
  double M = std::max(Tc, Tm);
  if (M <= 0)
    return 0;
  // Scaled by the larger time: no overflow for large P.
  return M * std::pow(std::pow(Tc / M, P) + std::pow(Tm / M, P), 1 / P);
}

ex overlapTime(const ex &Tc, const ex &Tm, double P) {
  if (P >= MaxOverlapExponent)
    return max(Tc, Tm);
  return pow(pow(Tc, numeric(P)) + pow(Tm, numeric(P)), numeric(1 / P));
}

namespace {
double objective(const std::vector<double> &Tc, const std::vector<double> &Tm,
                 const std::vector<double> &T, double P) {
  double S = 0;
  for (size_t I = 0; I < T.size(); ++I) {
    double R = std::log(overlapTime(Tc[I], Tm[I], P) / T[I]);
    S += R * R;
  }
  return S;
}

double rmsRel(const std::vector<double> &Tc, const std::vector<double> &Tm,
              const std::vector<double> &T, double P, std::vector<double> *Res = nullptr) {
  double S = 0;
  for (size_t I = 0; I < T.size(); ++I) {
    double R = overlapTime(Tc[I], Tm[I], P) / T[I] - 1;
    if (Res)
      Res->push_back(R);
    S += R * R;
  }
  return std::sqrt(S / T.size());
}
} // namespace

OverlapFit fitOverlap(const std::vector<double> &Tc, const std::vector<double> &Tm,
                      const std::vector<double> &T) {
  if (Tc.size() != T.size() || Tm.size() != T.size())
    throw std::invalid_argument("overlap fit: " + std::to_string(Tc.size()) + " core times, " +
                                std::to_string(Tm.size()) + " memory times, " +
                                std::to_string(T.size()) + " measured times");
  if (T.empty())
    throw std::invalid_argument("overlap fit: no points");
  for (size_t I = 0; I < T.size(); ++I)
    if (!(Tc[I] > 0) || !(Tm[I] > 0) || !(T[I] > 0))
      throw std::invalid_argument("overlap fit: times must be > 0 (point " + std::to_string(I) +
                                  ")");
  const int Steps = 400;
  const double Hi = std::log(MaxOverlapExponent);
  auto F = [&](double L) { return objective(Tc, Tm, T, std::exp(L)); };
  int Best = 0;
  double BestV = F(0);
  for (int K = 1; K <= Steps; ++K) {
    double V = F(Hi * K / Steps);
    if (V < BestV)
      BestV = V, Best = K;
  }
  // Golden section on the bracket around the best step.
  double A = Hi * std::max(0, Best - 1) / Steps, B = Hi * std::min(Steps, Best + 1) / Steps;
  const double G = (std::sqrt(5.0) - 1) / 2;
  double C = B - G * (B - A), D = A + G * (B - A), FC = F(C), FD = F(D);
  for (int It = 0; It < 60 && B - A > 1e-9; ++It) {
    if (FC < FD) {
      B = D, D = C, FD = FC, C = B - G * (B - A), FC = F(C);
    } else {
      A = C, C = D, FC = FD, D = A + G * (B - A), FD = F(D);
    }
  }
  double L = (A + B) / 2;
  OverlapFit R;
  R.P = F(L) <= BestV ? std::exp(L) : std::exp(Hi * Best / Steps);
  R.RmsRel = rmsRel(Tc, Tm, T, R.P, &R.Residuals);
  R.RmsSum = rmsRel(Tc, Tm, T, 1);
  double S = 0;
  for (size_t I = 0; I < T.size(); ++I) {
    double X = std::max(Tc[I], Tm[I]) / T[I] - 1;
    S += X * X;
  }
  R.RmsMax = std::sqrt(S / T.size());
  return R;
}

} // namespace segtime
