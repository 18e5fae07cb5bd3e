//===- Templates.cpp - Parallel templates: farm, D&C ----------------------===//
///
/// \file
/// UBC-91 models (processor farm, divide and conquer, general framework); see
/// Templates.h. The UTSA-95 heterogeneous network is in Hetero.cpp.
///
//===----------------------------------------------------------------------===//
#include "predictor/Templates.h"
#include "predictor/TemplateCheck.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <functional>
#include <iterator>
#include <limits>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace segtime {

namespace templatecheck {

std::string num(double V) {
  std::ostringstream OS;
  OS << V;
  return OS.str();
}

void invalid(const std::string &Model, const std::string &Msg) {
  throw std::invalid_argument(Model + ": " + Msg);
}

void positive(const std::string &Model, const std::string &Name, double V,
              const std::string &Unit) {
  if (!std::isfinite(V) || V <= 0)
    invalid(Model, Name + " must be a finite value > 0" + Unit + ", got " + num(V));
}

void nonNegative(const std::string &Model, const std::string &Name, double V,
                 const std::string &Unit) {
  if (!std::isfinite(V) || V < 0)
    invalid(Model, Name + " must be a finite value >= 0" + Unit + ", got " + num(V));
}

} // namespace templatecheck

using namespace templatecheck;

namespace {

constexpr double Inf = std::numeric_limits<double>::infinity();
/// Largest N accepted: far beyond any peak operating point, small enough that
/// per-level vectors stay cheap.
constexpr unsigned MaxLevelsAccepted = 4096;
/// Largest explicit tree (processors) built by balancedTreeParents.
constexpr double MaxExplicitProcessors = 1e6;

void checkShape(const std::string &Model, unsigned Arity, unsigned Levels) {
  if (Arity < 1)
    invalid(Model, "arity k must be >= 1 (1 = linear chain), got " + std::to_string(Arity));
  if (Levels < 1)
    invalid(Model, "number of levels N must be >= 1, got " + std::to_string(Levels));
  if (Levels > MaxLevelsAccepted)
    invalid(Model, "number of levels N must be <= " + std::to_string(MaxLevelsAccepted) + ", got " +
                       std::to_string(Levels));
}

double powk(unsigned K, unsigned E) { return std::pow(static_cast<double>(K), E); }

/// What farm and dc check alike after their task times: the message costs,
/// the number of tasks and the size of the tree.
void checkTreeRun(const std::string &Model, unsigned Arity, unsigned Levels, double BetaE,
                  double BetaF, std::uint64_t Tasks) {
  nonNegative(Model, "beta_e", BetaE);
  nonNegative(Model, "beta_f", BetaF);
  if (Tasks < 1)
    invalid(Model, "number of tasks M must be >= 1, got 0");
  if (!std::isfinite(treeProcessors(Arity, Levels)))
    invalid(Model, "a " + std::to_string(Arity) + "-ary tree of " + std::to_string(Levels) +
                       " levels has too many processors");
}

void checkFarm(const FarmParams &P) {
  checkShape("farm", P.Arity, P.Levels);
  positive("farm", "T_e", P.TaskTime);
  nonNegative("farm", "T_tau", P.TransferTime);
  checkTreeRun("farm", P.Arity, P.Levels, P.BetaE, P.BetaF, P.Tasks);
}

/// The peak operating point of a speedup curve SP(N), N = 1, 2, ...
PeakPoint findPeak(const std::function<double(unsigned)> &Speedup,
                   const std::function<double(unsigned)> &Processors, double Threshold,
                   unsigned MaxLevels) {
  if (!std::isfinite(Threshold) || Threshold < 0)
    throw std::invalid_argument("peak: threshold must be a finite value >= 0, got " +
                                num(Threshold));
  if (MaxLevels < 1)
    throw std::invalid_argument("peak: maximum number of levels must be >= 1");
  PeakPoint R;
  double Cur = Speedup(1);
  for (unsigned N = 1; N < MaxLevels; ++N) {
    double Next = Speedup(N + 1);
    if (Next < (1 + Threshold) * Cur) {
      R.Levels = N;
      R.Speedup = Cur;
      R.Processors = Processors(N);
      R.Found = true;
      return R;
    }
    Cur = Next;
  }
  R.Levels = MaxLevels;
  R.Speedup = Cur;
  R.Processors = Processors(MaxLevels);
  return R;
}

} // namespace

const char *throughputLimitName(ThroughputLimit L) {
  // In the enum's order.
  static constexpr const char *Names[] = {"steady-state", "forwarding", "transfer"};
  auto I = static_cast<size_t>(L);
  return I < std::size(Names) ? Names[I] : "?";
}

//===----------------------------------------------------------------------===//
// Processor farm
//===----------------------------------------------------------------------===//

double treeProcessors(unsigned Arity, unsigned Levels) {
  checkShape("tree", Arity, Levels);
  if (Arity == 1)
    return Levels;
  return (powk(Arity, Levels) - 1) / (Arity - 1);
}

std::vector<double> farmLevelThroughputs(const FarmParams &P) {
  checkFarm(P);
  const double D = P.TaskTime + P.BetaE;
  const double Q = (D - P.BetaF) / D;
  std::vector<double> S(P.Levels);
  double Prev = 0; // S_0
  for (unsigned I = 0; I < P.Levels; ++I)
    Prev = S[I] = P.Arity * Prev * Q + 1 / D; // eq. (d)
  return S;
}

double farmThroughputClosedForm(const FarmParams &P) {
  checkFarm(P);
  const double D = P.TaskTime + P.BetaE;
  const unsigned K = P.Arity, N = P.Levels;
  // (T_e + β_e) − k(T_e + β_e − β_f) = D (1 − a), computed without cancellation.
  const double Den = K * P.BetaF - (K - 1.0) * D;
  if (Den == 0)
    return N / D; // a = 1: S_N = N/(T_e + β_e)
  const double AMinus1 = -Den / D;
  const double A = 1 + AMinus1;
  // 1 − a^N, accurate also for a close to 1.
  const double OneMinusAN =
      AMinus1 > -1 ? -std::expm1(N * std::log1p(AMinus1)) : 1 - std::pow(A, N);
  return OneMinusAN / Den; // eq. (f)
}

std::vector<double> farmSteadyFractions(const FarmParams &P) {
  std::vector<double> S = farmLevelThroughputs(P);
  const unsigned N = P.Levels;
  std::vector<double> F(N);
  for (unsigned I = 0; I < N; ++I) {
    double Below = I ? P.Arity * S[I - 1] : 0;
    F[I] = powk(P.Arity, N - 1 - I) * (S[I] - Below) / S[N - 1];
  }
  return F;
}

std::vector<double> farmFractionsClosedForm(const FarmParams &P) {
  checkFarm(P);
  const double D = P.TaskTime + P.BetaE;
  const double K = P.Arity;
  const unsigned N = P.Levels;
  const double A = K * (D - P.BetaF) / D;
  std::vector<double> F(N);
  for (unsigned L = 1; L <= N; ++L) {
    double Scale = powk(P.Arity, N - L);
    if (std::fabs(A - 1) < 1e-9) // the limit a -> 1 (l'Hôpital)
      F[L - 1] = Scale * (1 + (1.0 - L) * (K - 1)) / N;
    else
      F[L - 1] = Scale * ((1 - K) + std::pow(A, L - 1) * (K - A)) / (1 - std::pow(A, N));
  }
  return F;
}

double farmStartup(const FarmParams &P) {
  checkFarm(P);
  return (P.Levels - 1.0) * (2 * P.TransferTime + P.BetaF) + P.TaskTime + P.BetaE;
}

double farmSpeedupClosedForm(const FarmParams &P) {
  checkFarm(P);
  const double D = P.TaskTime + P.BetaE;
  const double K = P.Arity;
  const double M = static_cast<double>(P.Tasks);
  const double A = K * (D - P.BetaF) / D;
  const double TStart = farmStartup(P);
  if (std::fabs(A - 1) < 1e-9) {
    // Divide numerator and denominator by (1 − a): (1 − a^N)/(1 − a) -> N.
    const double G = P.Levels;
    return M * P.TaskTime * G / ((M - 1) * D + TStart * G);
  }
  const double OneMinusAN = 1 - std::pow(A, P.Levels);
  return M * P.TaskTime * OneMinusAN / ((M - 1) * (D - K * (D - P.BetaF)) + TStart * OneMinusAN);
}

FarmResult analyzeFarm(const FarmParams &P) {
  checkFarm(P);
  FarmResult R;
  R.Params = P;
  const unsigned K = P.Arity, N = P.Levels;
  const double D = P.TaskTime + P.BetaE, C = 1 / D;
  R.Processors = treeProcessors(K, N);
  R.A = K * (D - P.BetaF) / D;
  R.LevelThroughputs = farmLevelThroughputs(P);
  R.ThroughputRecurrence = R.LevelThroughputs.back();
  R.ThroughputClosedForm = farmThroughputClosedForm(P);
  R.ForwardLimit = P.BetaF > 0 ? 1 / P.BetaF : Inf;
  R.TransferLimit = P.TransferTime + P.BetaE > 0 ? 1 / (P.TransferTime + P.BetaE) : Inf;

  // Subtree capacities with forwarding at high priority (see Templates.h).
  std::vector<double> Cap(N);
  bool Saturated = false;
  for (unsigned I = 0; I < N; ++I) {
    double Fwd = I ? K * Cap[I - 1] : 0;
    if (Fwd > R.ForwardLimit) {
      Fwd = R.ForwardLimit;
      Saturated = true;
    }
    Cap[I] = Fwd * (1 - P.BetaF * C) + C;
  }
  double X = Cap[N - 1];
  R.Limit = Saturated ? ThroughputLimit::Forwarding : ThroughputLimit::SteadyState;
  if (R.TransferLimit < X) {
    X = R.TransferLimit;
    R.Limit = ThroughputLimit::Transfer;
  }
  R.Throughput = X;

  R.SteadyFractions = farmSteadyFractions(P);
  // Top down: each processor forwards what its children accept, executes the
  // rest of its input.
  R.Fractions.assign(N, 0);
  double In = X; // per processor of the current level
  for (unsigned I = N; I-- > 0;) {
    double Fwd = I ? std::min({In, K * Cap[I - 1], R.ForwardLimit}) : 0;
    R.Fractions[I] = powk(K, N - 1 - I) * (In - Fwd) / X;
    In = Fwd / K;
  }
  if (R.Limit == ThroughputLimit::SteadyState)
    R.Fractions = R.SteadyFractions;

  const double M = static_cast<double>(P.Tasks);
  R.Startup = farmStartup(P);
  R.Time = R.Startup + (M - 1) / X; // eq. (g)
  R.SequentialTime = M * P.TaskTime;
  R.Speedup = R.SequentialTime / R.Time;
  R.SpeedupClosedForm = farmSpeedupClosedForm(P);
  R.Efficiency = R.Speedup / R.Processors;
  return R;
}

std::vector<double> farmSpeedupCurve(FarmParams P, unsigned MaxLevels) {
  checkShape("farm", P.Arity, MaxLevels);
  std::vector<double> SP;
  for (unsigned N = 1; N <= MaxLevels; ++N) {
    P.Levels = N;
    SP.push_back(analyzeFarm(P).Speedup);
  }
  return SP;
}

PeakPoint farmPeak(FarmParams P, double Threshold, unsigned MaxLevels) {
  checkFarm(P);
  checkShape("farm", P.Arity, MaxLevels);
  return findPeak(
      [&](unsigned N) {
        P.Levels = N;
        return analyzeFarm(P).Speedup;
      },
      [&](unsigned N) { return treeProcessors(P.Arity, N); }, Threshold, MaxLevels);
}

FarmParams farmPacked(const FarmParams &P, unsigned G) {
  checkFarm(P);
  if (G < 1)
    invalid("farm", "granularity (tasks per message) must be >= 1, got 0");
  FarmParams Q = P;
  Q.TaskTime = G * P.TaskTime;
  Q.TransferTime = G * P.TransferTime;
  Q.Tasks = (P.Tasks + G - 1) / G;
  return Q;
}

std::vector<GranularityRow> farmGranularity(const FarmParams &P,
                                            const std::vector<unsigned> &Grains, unsigned MaxLevels,
                                            double Threshold) {
  checkFarm(P);
  checkShape("farm", P.Arity, MaxLevels);
  if (Grains.empty())
    invalid("farm", "the granularity study needs at least one granularity");
  std::vector<GranularityRow> Rows;
  const double Seq = static_cast<double>(P.Tasks) * P.TaskTime;
  for (unsigned G : Grains) {
    GranularityRow Row;
    Row.Granularity = G;
    FarmParams Q = farmPacked(P, G);
    Row.TaskTime = Q.TaskTime;
    auto SpeedupAt = [&](unsigned N) {
      Q.Levels = N;
      return Seq / analyzeFarm(Q).Time;
    };
    for (unsigned N = 1; N <= MaxLevels; ++N)
      Row.Speedup.push_back(SpeedupAt(N));
    Row.Peak = findPeak(
        SpeedupAt, [&](unsigned N) { return treeProcessors(P.Arity, N); }, Threshold, MaxLevels);
    Rows.push_back(std::move(Row));
  }
  return Rows;
}

//===----------------------------------------------------------------------===//
// Divide and conquer
//===----------------------------------------------------------------------===//

namespace {

void checkPerLevel(const std::string &Name, const std::vector<double> &V, unsigned N,
                   bool AllowEmpty, bool Positive) {
  if (V.empty() && AllowEmpty)
    return;
  if (V.size() != N)
    invalid("dc", Name + " needs one value per level (" + std::to_string(N) + "), got " +
                      std::to_string(V.size()));
  for (unsigned I = 0; I < N; ++I) {
    std::string What = Name + " at level " + std::to_string(I + 1);
    if (Positive)
      positive("dc", What, V[I]);
    else
      nonNegative("dc", What, V[I]);
  }
}

void checkDC(const DCParams &P) {
  checkShape("dc", P.Arity, P.Levels);
  checkPerLevel("T_e", P.TaskTime, P.Levels, false, true);
  checkPerLevel("T_s", P.SplitTime, P.Levels, true, false);
  checkPerLevel("T_j", P.JoinTime, P.Levels, true, false);
  checkPerLevel("T_tau", P.TransferTime, P.Levels, true, false);
  checkTreeRun("dc", P.Arity, P.Levels, P.BetaE, P.BetaF, P.Tasks);
}

double at(const std::vector<double> &V, unsigned I) { return V.empty() ? 0 : V[I]; }

/// T_s(i) + T_j(i) + β_f for the level at index I.
double splitCost(const DCParams &P, unsigned I) {
  return at(P.SplitTime, I) + at(P.JoinTime, I) + P.BetaF;
}

} // namespace

DCParams dcUniform(unsigned Arity, unsigned Levels, double WholeTaskTime, double SplitTime,
                   double JoinTime, double TransferTime, double BetaE, double BetaF,
                   std::uint64_t Tasks) {
  checkShape("dc", Arity, Levels);
  positive("dc", "T_e", WholeTaskTime);
  DCParams P;
  P.Arity = Arity;
  P.Levels = Levels;
  for (unsigned L = 1; L <= Levels; ++L)
    P.TaskTime.push_back(WholeTaskTime / powk(Arity, Levels - L));
  P.SplitTime.assign(Levels, SplitTime);
  P.JoinTime.assign(Levels, JoinTime);
  P.TransferTime.assign(Levels, TransferTime);
  P.BetaE = BetaE;
  P.BetaF = BetaF;
  P.Tasks = Tasks;
  checkDC(P);
  return P;
}

std::vector<double> dcLevelThroughputs(const DCParams &P) {
  checkDC(P);
  std::vector<double> S(P.Levels);
  double Prev = 0; // S_0
  for (unsigned I = 0; I < P.Levels; ++I) {
    const double D = P.TaskTime[I] + P.BetaE;
    Prev = S[I] = Prev * (D - splitCost(P, I)) / D + 1 / D; // eq. (j)
  }
  return S;
}

double dcSMax(const DCParams &P) {
  checkDC(P);
  if (P.Levels == 1)
    return Inf;
  double TMax = 0;
  for (unsigned I = 1; I < P.Levels; ++I)
    TMax = std::max(TMax, at(P.SplitTime, I) + at(P.JoinTime, I));
  return TMax + P.BetaF > 0 ? 1 / (TMax + P.BetaF) : Inf; // eq. (k)
}

double dcStartup(const DCParams &P) {
  checkDC(P);
  double T = P.TaskTime[0] + P.BetaE;
  for (unsigned I = 1; I < P.Levels; ++I)
    T += 2 * at(P.TransferTime, I) + at(P.SplitTime, I) + at(P.JoinTime, I) + P.BetaF;
  return T;
}

DCResult analyzeDC(const DCParams &P) {
  checkDC(P);
  DCResult R;
  R.Params = P;
  const unsigned N = P.Levels;
  R.Processors = treeProcessors(P.Arity, N);
  R.LevelThroughputs = dcLevelThroughputs(P);
  R.ThroughputRecurrence = R.LevelThroughputs.back();
  R.SMax = dcSMax(P);
  R.ThroughputPaperRule = R.LevelThroughputs.front() < R.SMax ? R.ThroughputRecurrence : R.SMax;

  // Capacities of levels 1..i with splitting at high priority.
  std::vector<double> Cap(N), SplitLimit(N, Inf);
  bool Saturated = false;
  for (unsigned I = 0; I < N; ++I) {
    const double D = P.TaskTime[I] + P.BetaE, Split = splitCost(P, I);
    if (I && Split > 0)
      SplitLimit[I] = 1 / Split;
    double Fwd = I ? Cap[I - 1] : 0;
    if (Fwd > SplitLimit[I]) {
      Fwd = SplitLimit[I];
      Saturated = true;
    }
    Cap[I] = Fwd + std::max(0.0, 1 - Fwd * Split) / D;
  }
  const double X = Cap[N - 1];
  R.Throughput = X;
  R.Limit = Saturated ? ThroughputLimit::Forwarding : ThroughputLimit::SteadyState;

  R.SteadyFractions.resize(N);
  for (unsigned I = 0; I < N; ++I)
    R.SteadyFractions[I] =
        (R.LevelThroughputs[I] - (I ? R.LevelThroughputs[I - 1] : 0)) / R.ThroughputRecurrence;
  R.Fractions.assign(N, 0);
  double In = X;
  for (unsigned I = N; I-- > 0;) {
    double Fwd = I ? std::min({In, Cap[I - 1], SplitLimit[I]}) : 0;
    R.Fractions[I] = (In - Fwd) / X;
    In = Fwd;
  }
  if (!Saturated)
    R.Fractions = R.SteadyFractions;

  const double M = static_cast<double>(P.Tasks);
  R.Startup = dcStartup(P);
  R.Time = R.Startup + (M - 1) / X;
  R.SequentialTime = M * P.TaskTime[N - 1];
  R.Speedup = R.SequentialTime / R.Time;
  R.Efficiency = R.Speedup / R.Processors;
  return R;
}

std::vector<double> dcSpeedupCurve(unsigned Arity, double WholeTaskTime, double SplitTime,
                                   double JoinTime, double TransferTime, double BetaE, double BetaF,
                                   std::uint64_t Tasks, unsigned MaxLevels) {
  checkShape("dc", Arity, MaxLevels);
  std::vector<double> SP;
  for (unsigned N = 1; N <= MaxLevels; ++N)
    SP.push_back(analyzeDC(dcUniform(Arity, N, WholeTaskTime, SplitTime, JoinTime, TransferTime,
                                     BetaE, BetaF, Tasks))
                     .Speedup);
  return SP;
}

PeakPoint dcPeak(unsigned Arity, double WholeTaskTime, double SplitTime, double JoinTime,
                 double TransferTime, double BetaE, double BetaF, std::uint64_t Tasks,
                 double Threshold, unsigned MaxLevels) {
  checkShape("dc", Arity, MaxLevels);
  return findPeak(
      [&](unsigned N) {
        return analyzeDC(dcUniform(Arity, N, WholeTaskTime, SplitTime, JoinTime, TransferTime,
                                   BetaE, BetaF, Tasks))
            .Speedup;
      },
      [&](unsigned N) { return treeProcessors(Arity, N); }, Threshold, MaxLevels);
}

//===----------------------------------------------------------------------===//
// General framework
//===----------------------------------------------------------------------===//

FrameworkSolution solveFramework(const FrameworkSystem &S) {
  const size_t N = S.ExecCost.size();
  if (N == 0)
    invalid("framework", "the system has no processors");
  if (S.ForwardCost.size() != N || S.Forward.size() != N)
    invalid("framework",
            "ExecCost, ForwardCost and Forward must all have " + std::to_string(N) + " rows");
  for (size_t I = 0; I < N; ++I) {
    positive("framework", "execution cost T_e + beta_e of unit " + std::to_string(I),
             S.ExecCost[I]);
    nonNegative("framework", "forwarding cost of unit " + std::to_string(I), S.ForwardCost[I]);
    if (S.Forward[I].size() != N)
      invalid("framework", "row " + std::to_string(I) + " of Forward must have " +
                               std::to_string(N) + " entries");
    for (double V : S.Forward[I])
      if (!std::isfinite(V))
        invalid("framework", "Forward has a non-finite entry");
  }
  // Unknowns x = (f_1..f_N, T/M).
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(N + 1, N + 1);
  Eigen::VectorXd B = Eigen::VectorXd::Zero(N + 1);
  for (size_t I = 0; I < N; ++I) {
    A(I, I) += S.ExecCost[I];
    for (size_t J = 0; J < N; ++J)
      A(I, J) += S.ForwardCost[I] * S.Forward[I][J];
    A(I, N) = -1;
    A(N, I) = 1; // Σ f_i = 1
  }
  B(N) = 1;
  Eigen::FullPivLU<Eigen::MatrixXd> LU(A);
  if (!LU.isInvertible())
    invalid("framework", "the system of equations is singular (no unique task distribution)");
  Eigen::VectorXd X = LU.solve(B);
  if ((A * X - B).norm() > 1e-9 * (1 + A.norm() * X.norm()))
    invalid("framework", "the system of equations could not be solved accurately");
  FrameworkSolution R;
  R.TimePerTask = X(N);
  if (!(R.TimePerTask > 0))
    invalid("framework", "the solution has a non-positive time per task");
  R.Throughput = 1 / R.TimePerTask;
  R.Fractions.resize(N);
  R.Forwarded.assign(N, 0);
  for (size_t I = 0; I < N; ++I) {
    R.Fractions[I] = X(I);
    if (X(I) < -1e-12)
      R.Feasible = false;
  }
  for (size_t I = 0; I < N; ++I)
    for (size_t J = 0; J < N; ++J)
      R.Forwarded[I] += S.Forward[I][J] * X(J);
  return R;
}

unsigned treeDepth(const std::vector<int> &Parent) {
  const size_t N = Parent.size();
  if (N == 0)
    invalid("tree", "the parent list is empty");
  size_t Roots = 0;
  for (size_t I = 0; I < N; ++I) {
    if (Parent[I] == -1)
      ++Roots;
    else if (Parent[I] < 0 || static_cast<size_t>(Parent[I]) >= N)
      invalid("tree", "parent of processor " + std::to_string(I) + " is " +
                          std::to_string(Parent[I]) + ", not a processor (0.." +
                          std::to_string(N - 1) + ") or -1 for the root");
    else if (static_cast<size_t>(Parent[I]) == I)
      invalid("tree", "processor " + std::to_string(I) + " is its own parent");
  }
  if (Roots != 1)
    invalid("tree",
            "the parent list must have exactly one root (-1), it has " + std::to_string(Roots));
  unsigned Depth = 0;
  for (size_t I = 0; I < N; ++I) {
    unsigned D = 0;
    for (int P = Parent[I]; P != -1; P = Parent[P])
      if (++D > N)
        invalid("tree", "the parent list has a cycle through processor " + std::to_string(I));
    Depth = std::max(Depth, D);
  }
  return Depth;
}

std::vector<int> balancedTreeParents(unsigned Arity, unsigned Levels) {
  double Count = treeProcessors(Arity, Levels);
  if (Count > MaxExplicitProcessors)
    invalid("tree", "a " + std::to_string(Arity) + "-ary tree of " + std::to_string(Levels) +
                        " levels has " + num(Count) + " processors, too many to list");
  std::vector<int> Parent(static_cast<size_t>(Count));
  Parent[0] = -1;
  for (size_t I = 1; I < Parent.size(); ++I)
    Parent[I] = static_cast<int>((I - 1) / Arity);
  return Parent;
}

FrameworkSystem farmOnTree(const std::vector<int> &Parent, const std::vector<double> &TaskTime,
                           double BetaE, double BetaF) {
  treeDepth(Parent);
  const size_t N = Parent.size();
  if (TaskTime.size() != 1 && TaskTime.size() != N)
    invalid("framework", "T_e needs one value or one per processor (" + std::to_string(N) +
                             "), got " + std::to_string(TaskTime.size()));
  for (double T : TaskTime)
    positive("framework", "T_e", T);
  nonNegative("framework", "beta_e", BetaE);
  nonNegative("framework", "beta_f", BetaF);
  FrameworkSystem S;
  S.Forward.assign(N, std::vector<double>(N, 0));
  for (size_t I = 0; I < N; ++I) {
    S.ExecCost.push_back((TaskTime.size() == 1 ? TaskTime[0] : TaskTime[I]) + BetaE);
    S.ForwardCost.push_back(BetaF);
    for (int P = Parent[I]; P != -1; P = Parent[P])
      S.Forward[P][I] = 1; // I is below P: P forwards the tasks I executes
  }
  return S;
}

FrameworkSystem dcLevelSystem(const DCParams &P) {
  checkDC(P);
  const unsigned N = P.Levels;
  FrameworkSystem S;
  S.Forward.assign(N, std::vector<double>(N, 0));
  for (unsigned I = 0; I < N; ++I) {
    S.ExecCost.push_back(P.TaskTime[I] + P.BetaE);
    S.ForwardCost.push_back(I ? splitCost(P, I) : 0);
    for (unsigned J = 0; J < I; ++J)
      S.Forward[I][J] = 1; // F_i = Σ_{j<i} f_j (UBC-91 §3.3.1)
  }
  return S;
}

TreeFarmResult analyzeFarmOnTree(const TreeFarmParams &P) {
  TreeFarmResult R;
  R.Depth = treeDepth(P.Parent);
  nonNegative("farm", "T_tau", P.TransferTime);
  if (P.Tasks < 1)
    invalid("farm", "number of tasks M must be >= 1, got 0");
  R.Framework = solveFramework(farmOnTree(P.Parent, P.TaskTime, P.BetaE, P.BetaF));
  const size_t N = P.Parent.size();
  R.Processors = N;
  auto Te = [&](size_t I) { return P.TaskTime.size() == 1 ? P.TaskTime[0] : P.TaskTime[I]; };

  std::vector<unsigned> Depth(N, 0);
  std::vector<std::vector<size_t>> Children(N);
  size_t Root = 0;
  for (size_t I = 0; I < N; ++I) {
    if (P.Parent[I] == -1)
      Root = I;
    else
      Children[P.Parent[I]].push_back(I);
    for (int Q = P.Parent[I]; Q != -1; Q = P.Parent[Q])
      ++Depth[I];
  }
  std::vector<size_t> Order(N); // deepest first
  std::iota(Order.begin(), Order.end(), 0);
  std::stable_sort(Order.begin(), Order.end(),
                   [&](size_t A, size_t B) { return Depth[A] > Depth[B]; });

  const double ForwardLimit = P.BetaF > 0 ? 1 / P.BetaF : Inf;
  std::vector<double> Cap(N), ChildCap(N, 0);
  bool Saturated = false;
  for (size_t I : Order) {
    const double C = 1 / (Te(I) + P.BetaE);
    for (size_t Ch : Children[I])
      ChildCap[I] += Cap[Ch];
    double Fwd = ChildCap[I];
    if (Fwd > ForwardLimit) {
      Fwd = ForwardLimit;
      Saturated = true;
    }
    Cap[I] = Fwd * (1 - P.BetaF * C) + C;
  }
  double X = Cap[Root];
  R.Limit = Saturated ? ThroughputLimit::Forwarding : ThroughputLimit::SteadyState;
  R.TransferLimit = P.TransferTime + P.BetaE > 0 ? 1 / (P.TransferTime + P.BetaE) : Inf;
  if (R.TransferLimit < X) {
    X = R.TransferLimit;
    R.Limit = ThroughputLimit::Transfer;
  }
  R.Throughput = X;

  // Top down (shallowest first); an underfed processor's children share what
  // it forwards in proportion to their capacities.
  std::vector<double> In(N, 0);
  In[Root] = X;
  R.Fractions.assign(N, 0);
  for (auto It = Order.rbegin(); It != Order.rend(); ++It) {
    size_t I = *It;
    double Fwd = Children[I].empty() ? 0 : std::min({In[I], ChildCap[I], ForwardLimit});
    R.Fractions[I] = (In[I] - Fwd) / X;
    for (size_t Ch : Children[I])
      In[Ch] = Fwd * Cap[Ch] / ChildCap[I];
  }
  if (R.Limit == ThroughputLimit::SteadyState && R.Framework.Feasible)
    R.Fractions = R.Framework.Fractions;

  const double M = static_cast<double>(P.Tasks);
  double MinTe = Inf;
  for (size_t I = 0; I < N; ++I) {
    MinTe = std::min(MinTe, Te(I));
    if (Children[I].empty())
      R.Startup = std::max(R.Startup, Depth[I] * (2 * P.TransferTime + P.BetaF) + Te(I) + P.BetaE);
  }
  R.Time = R.Startup + (M - 1) / X;
  R.SequentialTime = M * MinTe;
  R.Speedup = R.SequentialTime / R.Time;
  R.Efficiency = R.Speedup / R.Processors;
  return R;
}

} // namespace segtime
