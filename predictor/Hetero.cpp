//===- Hetero.cpp - Parallel templates: heterogeneous NOW -----------------===//
///
/// \file
/// The UTSA-95 model of a heterogeneous network of workstations (power
/// weights, heterogeneity, speedup, efficiency, scalability); see Templates.h.
///
//===----------------------------------------------------------------------===//
#include "predictor/TemplateCheck.h"
#include "predictor/Templates.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace segtime {

using namespace templatecheck;

//===----------------------------------------------------------------------===//
// Heterogeneous networks of workstations
//===----------------------------------------------------------------------===//

namespace {

void checkList(const std::string &Name, const std::vector<double> &V) {
  if (V.empty())
    invalid("hetero", Name + ": the list is empty (need one value per workstation)");
}

void checkSameSize(const std::string &Name, const std::vector<double> &V, size_t M) {
  if (V.size() != M)
    invalid("hetero", Name + " has " + std::to_string(V.size()) + " values for " +
                          std::to_string(M) + " workstations");
}

void checkWeights(const std::vector<double> &W) {
  checkList("power weights", W);
  for (double X : W)
    if (!std::isfinite(X) || X <= 0 || X > 1 + 1e-12)
      invalid("hetero", "a power weight must be in (0, 1], got " + num(X));
}

void checkUtil(const std::vector<double> &U) {
  for (double X : U)
    if (!std::isfinite(X) || X < 0 || X >= 1)
      invalid("hetero", "an owner utilisation must be in [0, 1), got " + num(X));
}

} // namespace

std::vector<double> powerWeightsFromSpeeds(const std::vector<double> &Speeds) {
  checkList("speeds", Speeds);
  for (double S : Speeds)
    positive("hetero", "speed", S, "");
  double Max = *std::max_element(Speeds.begin(), Speeds.end());
  std::vector<double> W;
  for (double S : Speeds)
    W.push_back(S / Max); // eq. 1
  return W;
}

std::vector<double> powerWeightsFromTimes(const std::vector<double> &Times) {
  checkList("times", Times);
  for (double T : Times)
    positive("hetero", "execution time", T);
  double Min = *std::min_element(Times.begin(), Times.end());
  std::vector<double> W;
  for (double T : Times)
    W.push_back(Min / T); // eq. 2
  return W;
}

double heterogeneity(const std::vector<double> &Weights) {
  checkWeights(Weights);
  double Sum = 0;
  for (double W : Weights)
    Sum += 1 - W;
  return Sum / Weights.size(); // eq. 4
}

double parallelismDegree(const std::vector<double> &ActiveTimes, double ParallelTime) {
  checkList("active times", ActiveTimes);
  positive("hetero", "parallel time T(A, HN)", ParallelTime);
  double Sum = 0;
  for (double T : ActiveTimes) {
    nonNegative("hetero", "active time", T);
    Sum += T;
  }
  return Sum / ParallelTime; // eq. 5
}

double heteroSpeedupProperty1(double ParallelismDegree, double Heterogeneity) {
  nonNegative("hetero", "parallelism degree", ParallelismDegree, "");
  if (!std::isfinite(Heterogeneity) || Heterogeneity < 0 || Heterogeneity >= 1)
    invalid("hetero", "heterogeneity must be in [0, 1), got " + num(Heterogeneity));
  return ParallelismDegree * (1 - Heterogeneity); // eq. 6
}

double heteroSpeedup(const std::vector<double> &SingleTimes, double ParallelTime) {
  checkList("single-machine times", SingleTimes);
  for (double T : SingleTimes)
    positive("hetero", "single-machine time", T);
  positive("hetero", "parallel time T(A, HN)", ParallelTime);
  return *std::min_element(SingleTimes.begin(), SingleTimes.end()) / ParallelTime;
}

double heteroEfficiency(const std::vector<double> &Weights, const std::vector<double> &CpuTimes,
                        const std::vector<double> &OwnerTimes, double ParallelTime) {
  checkWeights(Weights);
  checkSameSize("CPU times", CpuTimes, Weights.size());
  checkSameSize("owner times", OwnerTimes, Weights.size());
  positive("hetero", "parallel time T(A, HN)", ParallelTime);
  double Num = 0, Den = 0;
  for (size_t J = 0; J < Weights.size(); ++J) {
    nonNegative("hetero", "CPU time", CpuTimes[J]);
    nonNegative("hetero", "owner time", OwnerTimes[J]);
    if (OwnerTimes[J] >= ParallelTime)
      invalid("hetero", "owner time " + num(OwnerTimes[J]) + " s must be below the parallel time " +
                            num(ParallelTime) + " s");
    Num += Weights[J] * CpuTimes[J];
    Den += (ParallelTime - OwnerTimes[J]) * Weights[J];
  }
  return Num / Den; // eq. 10
}

double workloadFactor(double DedicatedFastestTime, double FastestTime) {
  positive("hetero", "dedicated fastest time |A|/max S", DedicatedFastestTime);
  positive("hetero", "fastest single-machine time", FastestTime);
  if (DedicatedFastestTime > FastestTime * (1 + 1e-12))
    invalid("hetero", "the dedicated fastest time " + num(DedicatedFastestTime) +
                          " s exceeds the fastest single-machine time " + num(FastestTime) +
                          " s (Delta_A must be <= 1)");
  return DedicatedFastestTime / FastestTime; // eq. 11
}

namespace {
double availablePower(const std::vector<double> &OwnerUtil, const std::vector<double> &Weights) {
  checkWeights(Weights);
  checkSameSize("owner utilisations", OwnerUtil, Weights.size());
  checkUtil(OwnerUtil);
  double Sum = 0;
  for (size_t J = 0; J < Weights.size(); ++J)
    Sum += (1 - OwnerUtil[J]) * Weights[J];
  return Sum;
}
void checkDelta(double DeltaA) {
  if (!std::isfinite(DeltaA) || DeltaA <= 0 || DeltaA > 1 + 1e-12)
    invalid("hetero", "Delta_A must be in (0, 1], got " + num(DeltaA));
}
} // namespace

double heteroEfficiencyFromSpeedup(double Speedup, double DeltaA,
                                   const std::vector<double> &OwnerUtil,
                                   const std::vector<double> &Weights) {
  nonNegative("hetero", "speedup", Speedup, "");
  checkDelta(DeltaA);
  return Speedup * DeltaA / availablePower(OwnerUtil, Weights); // eq. 12
}

double linearSpeedup(double DeltaA, const std::vector<double> &OwnerUtil,
                     const std::vector<double> &Weights) {
  checkDelta(DeltaA);
  return availablePower(OwnerUtil, Weights) / DeltaA; // eq. 13
}

double dedicatedEfficiency(double Speedup, const std::vector<double> &Weights) {
  nonNegative("hetero", "speedup", Speedup, "");
  checkWeights(Weights);
  return Speedup / std::accumulate(Weights.begin(), Weights.end(), 0.0); // eq. 14
}

double averageOverheadLatency(const std::vector<double> &Overheads,
                              const std::vector<double> &Weights) {
  checkWeights(Weights);
  checkSameSize("overheads", Overheads, Weights.size());
  double L = 0;
  for (size_t J = 0; J < Weights.size(); ++J) {
    nonNegative("hetero", "overhead latency", Overheads[J]);
    L += Overheads[J] * Weights[J];
  }
  return L; // eq. 15
}

double averageLatencyUnit(const std::vector<double> &Overheads,
                          const std::vector<double> &Weights) {
  double L = averageOverheadLatency(Overheads, Weights);
  return L / std::accumulate(Weights.begin(), Weights.end(), 0.0); // eq. 16
}

double heteroScalability(double LatencyUnit1, double LatencyUnit2) {
  nonNegative("hetero", "latency unit L_e(A(I_1), HN_1)", LatencyUnit1);
  positive("hetero", "latency unit L_e(A(I_2), HN_2)", LatencyUnit2);
  return LatencyUnit1 / LatencyUnit2; // eq. 17
}

HeteroResult analyzeHetero(const HeteroParams &P) {
  checkList("speeds", P.Speeds);
  const size_t M = P.Speeds.size();
  std::vector<double> U = P.OwnerUtil.empty() ? std::vector<double>(M, 0) : P.OwnerUtil;
  std::vector<double> Comm = P.CommTime.empty() ? std::vector<double>(M, 0) : P.CommTime;
  checkSameSize("owner utilisations", U, M);
  checkSameSize("communication times", Comm, M);
  checkUtil(U);
  for (double C : Comm)
    nonNegative("hetero", "communication time", C);
  positive("hetero", "problem size |A|", P.Size, " operations");

  HeteroResult R;
  R.Weights = powerWeightsFromSpeeds(P.Speeds);
  R.Heterogeneity = heterogeneity(R.Weights);
  R.TotalPower = std::accumulate(R.Weights.begin(), R.Weights.end(), 0.0);

  if (P.WorkShare.empty()) {
    for (size_t J = 0; J < M; ++J)
      R.WorkShare.push_back((1 - U[J]) * P.Speeds[J]);
  } else {
    checkSameSize("work shares", P.WorkShare, M);
    for (double W : P.WorkShare)
      nonNegative("hetero", "work share", W, "");
    R.WorkShare = P.WorkShare;
  }
  double Total = std::accumulate(R.WorkShare.begin(), R.WorkShare.end(), 0.0);
  if (!(Total > 0))
    invalid("hetero", "the work shares add up to 0");
  for (double &W : R.WorkShare)
    W /= Total;

  double MaxSpeed = *std::max_element(P.Speeds.begin(), P.Speeds.end());
  for (size_t J = 0; J < M; ++J) {
    R.CpuTimes.push_back(R.WorkShare[J] * P.Size / P.Speeds[J]);
    R.SingleTimes.push_back(P.Size / (P.Speeds[J] * (1 - U[J])));
    R.ParallelTime = std::max(R.ParallelTime, (R.CpuTimes[J] + Comm[J]) / (1 - U[J]));
  }
  const double T = R.ParallelTime;
  std::vector<double> Owner;
  for (size_t J = 0; J < M; ++J) {
    Owner.push_back(U[J] * T);
    R.Overheads.push_back(std::max(0.0, T - Owner[J] - R.CpuTimes[J]));
  }
  R.ParallelismDegree = parallelismDegree(R.CpuTimes, T);
  R.Speedup = heteroSpeedup(R.SingleTimes, T);
  R.SpeedupProperty1 = heteroSpeedupProperty1(R.ParallelismDegree, R.Heterogeneity);
  R.DeltaA = workloadFactor(P.Size / MaxSpeed,
                            *std::min_element(R.SingleTimes.begin(), R.SingleTimes.end()));
  R.Efficiency = heteroEfficiency(R.Weights, R.CpuTimes, Owner, T);
  R.EfficiencyProperty2 = heteroEfficiencyFromSpeedup(R.Speedup, R.DeltaA, U, R.Weights);
  R.LinearSpeedup = linearSpeedup(R.DeltaA, U, R.Weights);
  R.AverageOverheadLatency = averageOverheadLatency(R.Overheads, R.Weights);
  R.LatencyUnit = averageLatencyUnit(R.Overheads, R.Weights);
  return R;
}

} // namespace segtime
