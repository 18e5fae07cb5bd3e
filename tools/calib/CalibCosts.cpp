//===- CalibCosts.cpp - segtime calibrate: HLLC, INTCC and POC costs ------===//
///
/// \file
/// The cost-vector levels of `segtime calibrate` (CalibRun.h, file comment
/// of tools/Calibrate.cpp): the benchmark program compiled with the plugin
/// and run, the least-squares construct costs (HLLC, INTCC), the
/// training-set fit and the POC flop rate.
///
//===----------------------------------------------------------------------===//
#include "tools/calib/CalibRun.h"

#include "core/Seg.h"
#include "core/Vocabulary.h"
#include "predictor/CostFit.h"
#include "predictor/Expr.h"
#include "predictor/Formula.h"
#include "predictor/Install.h"
#include "predictor/Machine.h"
#include "predictor/Parkbench.h"
#include "predictor/ResourceModel.h"
#include "tools/calib/BenchSource.h"
#include "tools/calib/KernelSources.h"
#include "tools/calib/LowLevel.h"
#include "tools/calib/Process.h"
#include "tools/calib/TrainingSource.h"

#include <Eigen/Dense>

#include <algorithm>
#include <functional>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <sys/utsname.h>
#include <thread>
#include <type_traits>
#include <unistd.h>


namespace segtime::calib {

/// Compiles Src at -Opt with the plugin, runs it, returns the timings and
/// the SEG file path. Throws CalibError with the compiler's or the program's
/// output.
std::vector<Measured> compileAndRun(const std::string &Opt, const fs::path &Dir,
                                    const fs::path &Src, const std::vector<BenchInfo> &Benches,
                                    const Options &O, fs::path &SegOut) {
  std::string Bin = (Dir / ("bench_" + Opt)).string();
  SegOut = Dir / ("bench_" + Opt + ".seg.json");
  std::vector<std::string> Cc = {SEGTIME_CLANG,
                                 "-" + Opt,
                                 "-w",
                                 "-fplugin=" + pluginPath().string(),
                                 "-fplugin-arg-segtime-quiet",
                                 "-fplugin-arg-segtime-out=" + SegOut.string(),
                                 "-o",
                                 Bin,
                                 Src.string(),
                                 "-lm"};
  std::cerr << "calibrate: " << Opt << ": compiling" << ellipsis() << "\n";
  RunResult C = runProgram(Cc, Dir, "compile_" + Opt, 300);
  if (!C.ok())
    throw CalibError(Opt + ": compiling the benchmarks failed (" + C.status() + ")\n  " +
                     commandLine(Cc) + "\n" + tail(C.Err + C.Out));
  if (!fs::exists(SegOut))
    throw CalibError(Opt + ": the segtime plugin wrote no SEG file (" + SegOut.string() +
                     "); compiler output:\n" + tail(C.Err + C.Out));

  int Mask = (O.hasFit(CalibFit::Costs) ? MaskHllc : 0) |
             (O.hasFit(CalibFit::FlopRate) ? MaskPoc : 0);
  if (O.hasFit(CalibFit::Costs) && O.Train)
    Mask |= MaskTrain;
  // The HLLC kernels double as a check of the HLLC fit, so run them with it.
  if (Mask & MaskHllc)
    Mask |= MaskPoc;
  size_t NH = 0, NP = 0, NT = 0;
  for (const BenchInfo &B : Benches)
    (B.Poc ? NP : B.Train ? NT : NH) += 1;
  NH = Mask & MaskHllc ? NH : 0;
  NP = Mask & MaskPoc ? NP : 0;
  NT = Mask & MaskTrain ? NT : 0;
  double Target = O.TargetMs / 1000;
  double Expect = (NH + NP + NT) * (O.Reps + 1.3) * Target;
  std::cerr << "calibrate: " << Opt << ": running ";
  if (NH)
    std::cerr << NH << " benchmarks" << (NP || NT ? " + " : "");
  if (NP)
    std::cerr << NP << " POC kernels" << (NT ? " + " : "");
  if (NT)
    std::cerr << NT << " training kernels";
  std::cerr << " (about " << static_cast<int>(std::ceil(Expect)) << " s)" << ellipsis()
            << "\n";
  std::vector<std::string> Run = {Bin, std::to_string(Target), std::to_string(O.Reps),
                                  std::to_string(Mask)};
  RunResult R = runProgram(Run, Dir, "run_" + Opt, 60 + 10 * Expect);
  if (!R.ok())
    throw CalibError(Opt + ": the benchmark program failed (" + R.status() + ")\n  " +
                     commandLine(Run) + "\n" + tail(R.Err));
  json J;
  try {
    J = json::parse(R.Out);
  } catch (const std::exception &E) {
    throw CalibError(Opt + ": cannot parse the benchmark program's output: " + E.what() +
                     "\n" + tail(R.Out, 2000));
  }
  std::vector<Measured> M;
  for (const json &B : J.at("benchmarks")) {
    Measured X;
    std::string Name = B.at("name").get<std::string>();
    auto It = std::find_if(Benches.begin(), Benches.end(),
                           [&](const BenchInfo &I) { return I.Function == Name; });
    if (It == Benches.end())
      throw CalibError(Opt + ": unexpected benchmark '" + Name + "' in the program's output");
    X.Info = *It;
    X.R = B.at("R").get<long>();
    X.Times = B.at("times").get<std::vector<double>>();
    if (X.Times.size() != static_cast<size_t>(O.Reps))
      throw CalibError(Opt + ": benchmark '" + Name + "' reported " +
                       std::to_string(X.Times.size()) + " times, expected " +
                       std::to_string(O.Reps));
    for (double T : X.Times)
      if (!(T > 0))
        throw CalibError(Opt + ": benchmark '" + Name + "' reported a time <= 0");
    X.Time = O.Stat == "min" ? *std::min_element(X.Times.begin(), X.Times.end())
                             : median(X.Times);
    X.Disturbed = B.value("disturbed", 0);
    X.Retries = B.value("retries", 0);
    M.push_back(std::move(X));
  }
  return M;
}

namespace {

/// Stage weight counting the operations of level U's RUV whose fit class
/// (LevelUnit::fitClass: INTCC "fadd.*", else the operation) is Class.
StageWeight classWeight(const LevelUnit &U, const std::string &Class) {
  return [&U, Key = U.key(), Class](const Node &N) -> GiNaC::ex {
    auto It = N.Ruvs.find(Key);
    if (It == N.Ruvs.end())
      return 0;
    double C = 0;
    for (auto &[Op, K] : It->second.counts())
      if (U.fitClass(Op) == Class)
        C += K;
    return GiNaC::numeric(C);
  };
}

/// Value of the closed form of weight W (cache key Key) over F's SEG at
/// Level in one call with loop bound R, the other parameters at their
/// defaults. Throws CalibError if the form depends on anything else.
double perCall(FormulaBuilder &FB, const FunctionSeg &F, const StageWeight &W,
               const std::string &Key, const std::string &Level, long R) {
  GiNaC::ex E = FB.closedForm(F.Name, W, Key, Level);
  std::map<std::string, double> V{{"R", static_cast<double>(R)}};
  for (const Parameter &P : F.Parameters)
    if (P.Default)
      V[P.Name] = *P.Default;
  for (const Parameter &P : F.Parameters) // expression defaults use the numbers
    if (!P.DefaultExpr.empty())
      try {
        V[P.Name] = *defaultValue(P, V);
      } catch (const std::exception &E) {
        throw CalibError("benchmark " + F.Name + ": " + E.what());
      }
  for (const std::string &S : freeSymbols(E))
    if (!V.count(S))
      throw CalibError("benchmark " + F.Name + ": the count of " + Key +
                       " depends on '" + S + "', which has no value");
  return evaluate(E, V);
}

/// Count of the operations of class Op (level L) in one call of F with loop
/// bound R: the plugin's closed form, with branch probabilities at their
/// static defaults (the benchmarks are written so that the counts do not
/// depend on them).
double countPerCall(FormulaBuilder &FB, const FunctionSeg &F, Level L, const std::string &Op,
                    long R) {
  const LevelUnit &U = levelUnit(L);
  return perCall(FB, F, classWeight(U, Op), U.key() + ":" + Op, U.key(), R);
}

/// A as rows, for predictor/CostFit.h.
DenseRows toRows(const Eigen::MatrixXd &A) {
  DenseRows R(static_cast<size_t>(A.rows()), std::vector<double>(static_cast<size_t>(A.cols())));
  for (Eigen::Index I = 0; I < A.rows(); ++I)
    for (Eigen::Index J = 0; J < A.cols(); ++J)
      R[I][J] = A(I, J);
  return R;
}

std::vector<double> toVector(const Eigen::VectorXd &V) {
  return std::vector<double>(V.data(), V.data() + V.size());
}

} // namespace

/// Least-squares cost vector of Level (LevelUnit::fitColumns: HLLC the
/// constructs; INTCC the classes of IR operations the benchmarks execute,
/// LevelUnit::fitClass) from the benchmarks' counts at that level and their
/// times.
HllcResult solveCosts(const std::vector<Measured> &Ms, const SegFile &Seg, int Reps, Level Lv) {
  const LevelUnit &U = levelUnit(Lv);
  const std::string Key = U.key();
  const bool Classes = U.fitColumns() == FitColumns::ExecutedClasses;
  HllcResult H;
  if (!Classes) {
    H.Constructs = U.vocabulary();
  } else {
    std::set<std::string> Executed;
    for (const FunctionSeg &F : Seg.Functions) {
      if (F.Name.compare(0, 6, "bench_") != 0)
        continue;
      forEachNode(F.bodyFor(Key), [&](const Node &N) {
        auto It = N.Ruvs.find(Key);
        if (It != N.Ruvs.end())
          for (auto &[Op, K] : It->second.counts())
            Executed.insert(U.fitClass(Op));
      });
    }
    H.Constructs.assign(Executed.begin(), Executed.end());
  }
  const auto &Names = H.Constructs;
  Eigen::Index NC = static_cast<Eigen::Index>(Names.size());
  FormulaBuilder FB(Seg);
  auto CountsOf = [&](const Measured &X) {
    const FunctionSeg *F = Seg.find(X.Info.Function);
    if (!F)
      throw CalibError("the SEG file has no function '" + X.Info.Function + "'");
    Eigen::RowVectorXd Row(NC);
    for (Eigen::Index J = 0; J < NC; ++J)
      Row(J) = countPerCall(FB, *F, Lv, Names[J], X.R);
    return Row;
  };
  std::vector<const Measured *> Rows, Checks;
  for (const Measured &X : Ms)
    if (!X.Info.Train)
      (X.Info.Poc ? Checks : Rows).push_back(&X);
  Eigen::Index M = static_cast<Eigen::Index>(Rows.size());
  Eigen::MatrixXd A(M, NC);
  Eigen::VectorXd T(M);
  for (Eigen::Index I = 0; I < M; ++I) {
    A.row(I) = CountsOf(*Rows[I]);
    T(I) = Rows[I]->Time;
  }
  if (Classes) {
    // Only classes executed in the benchmarks' repeated loops can be
    // determined: one that runs a few times per call (alloca, the prologue)
    // would absorb every call's constant overhead. They are not fitted.
    std::vector<Eigen::Index> Keep;
    for (Eigen::Index J = 0; J < NC; ++J) {
      bool Scales = false;
      for (Eigen::Index I = 0; I < M; ++I)
        Scales |= A(I, J) >= 0.05 * static_cast<double>(Rows[I]->R);
      if (Scales)
        Keep.push_back(J);
      else
        H.Unfitted.push_back(Names[J]);
    }
    Eigen::MatrixXd A2(M, static_cast<Eigen::Index>(Keep.size()));
    std::vector<std::string> Kept;
    for (size_t K = 0; K < Keep.size(); ++K) {
      A2.col(static_cast<Eigen::Index>(K)) = A.col(Keep[K]);
      Kept.push_back(Names[Keep[K]]);
    }
    A = A2;
    H.Constructs = Kept;
    NC = static_cast<Eigen::Index>(Kept.size());
  }
  if (!FB.unresolved().empty()) {
    std::string U;
    for (const std::string &S : FB.unresolved())
      U += "\n  " + S;
    throw CalibError("the plugin could not count everything in the benchmarks:" + U);
  }
  // Condition number of the row- and column-scaled design.
  {
    Eigen::MatrixXd S = A;
    for (Eigen::Index I = 0; I < M; ++I)
      S.row(I) /= T(I);
    for (Eigen::Index J = 0; J < NC; ++J)
      if (S.col(J).norm() > 0)
        S.col(J) /= S.col(J).norm();
    Eigen::JacobiSVD<Eigen::MatrixXd> Svd(S);
    auto Sv = Svd.singularValues();
    H.Cond = Sv(Sv.size() - 1) > 0 ? Sv(0) / Sv(Sv.size() - 1) : INFINITY;
  }
  // Solve; fix the most negative cost at 0 and re-solve until none is negative.
  DenseRows Ad = toRows(A);
  NonNegativeLs Nn;
  try {
    Nn = relativeNnls(Ad, toVector(T), Names, Classes);
  } catch (const std::runtime_error &E) {
    throw CalibError(E.what());
  }
  H.Fixed = Nn.Fixed;
  Eigen::VectorXd C = Eigen::Map<const Eigen::VectorXd>(Nn.X.data(), NC);
  for (Eigen::Index J = 0; J < NC; ++J) {
    H.LsNs.push_back(Nn.Ls[J] * 1e9);
    H.CostNs.push_back(C(J) * 1e9);
  }
  H.BaseNs = H.CostNs;
  // Spread: one solve per repetition, same free set.
  std::vector<std::vector<double>> PerRep(NC);
  for (int K = 0; K < Reps && Reps > 1; ++K) {
    std::vector<double> Tk(M);
    for (Eigen::Index I = 0; I < M; ++I)
      Tk[I] = Rows[I]->Times[K];
    std::vector<double> Ck = relativeLs(Ad, Tk, Nn.Free, Names, Classes);
    for (Eigen::Index J = 0; J < NC; ++J)
      PerRep[J].push_back(Ck[J]);
  }
  for (Eigen::Index J = 0; J < NC; ++J)
    H.Spread.push_back(H.Fixed[J] ? std::nullopt : relSpread(PerRep[J]));
  if (Classes) {
    std::vector<double> Fitted;
    for (Eigen::Index J = 0; J < NC; ++J)
      if (!H.Fixed[J])
        Fitted.push_back(H.CostNs[J]);
    if (!Fitted.empty())
      H.StarBaseNs = H.StarNs = median(Fitted);
  }
  // Residuals with the construct costs c0, and the isolating benchmark per construct.
  Eigen::VectorXd Pred = A * C;
  double Sum2 = 0;
  for (Eigen::Index I = 0; I < M; ++I) {
    double Rel = (Pred(I) - T(I)) / T(I);
    H.Rows.push_back({Rows[I]->Info.Function, Rows[I]->Info.Construct, Rel});
    Sum2 += Rel * Rel;
  }
  H.RmsRel = std::sqrt(Sum2 / M);
  for (const std::string &N : Names) {
    std::string B;
    for (const Measured *X : Rows)
      if (X->Info.Construct == N && X->Info.Function != "bench_baseline")
        B = X->Info.Function;
    H.Bench.push_back(B);
  }
  for (const Measured *X : Checks) {
    double P = CountsOf(*X).dot(C);
    H.Checks.push_back({X->Info.Function, "", (P - X->Time) / X->Time});
  }
  return H;
}

/// The training-set fit of Level's costs (predictor/CostFit.h,
/// docs/calibrate.md "Training-set fit"): keeps the construct-benchmark costs
/// c0 of H and fits one multiplier s_g >= 0 per group of keys (costGroups) on
/// the training kernels' times, t_j ~ sum_g s_g G_jg with G_jg the time of
/// kernel j's keys of group g at the costs c0 (Warwick-94 eq. 4 with
/// c = diag(s) c0), rows weighted by 1/t_j. G is computed exactly as
/// `segtime predict` computes the level's time (CostVectorModel, the same
/// key lookup "op", "opcode.*", "*"), one closed form per kernel and group.
/// Sets H.Train and scales H.CostNs (and the INTCC "*") by the multipliers.
/// Throws CalibError if fewer than 2 training kernels were run.
void fitTraining(HllcResult &H, const std::vector<Measured> &Ms, const SegFile &Seg, Level Lv,
                 const std::string &Opt) {
  const std::string Key = levelKey(Lv);
  std::vector<const Measured *> Rows;
  for (const Measured &X : Ms)
    if (X.Info.Train)
      Rows.push_back(&X);
  if (Rows.size() < 2)
    throw CalibError(Key + " " + Opt + ": the training fit needs at least 2 training kernels, " +
                     std::to_string(Rows.size()) + " were run");
  // c0 as a machine file in memory, read by the predictor's own cost model.
  Machine M;
  M.Name = "construct benchmarks";
  CostVector CV;
  CV.Unit = "ns";
  for (size_t J = 0; J < H.Constructs.size(); ++J)
    CV.Costs[H.Constructs[J]].Value = H.BaseNs[J];
  if (H.StarBaseNs)
    CV.Costs["*"].Value = *H.StarBaseNs;
  M.Levels[Lv][Opt] = CV;
  CostVectorModel Model(M, Lv, Opt);
  const std::vector<std::string> &Groups = costGroups(Lv);
  FormulaBuilder FB(Seg);
  DenseRows G;
  std::vector<double> T;
  HllcResult::Training Tr;
  for (const Measured *X : Rows) {
    const FunctionSeg *F = Seg.find(X->Info.Function);
    if (!F)
      throw CalibError("the SEG file has no function '" + X->Info.Function + "'");
    std::vector<double> Row;
    for (const std::string &Gr : Groups) {
      StageWeight W = [&Model, &Key, Lv, Gr](const Node &N) -> GiNaC::ex {
        auto It = N.Ruvs.find(Key);
        if (It == N.Ruvs.end())
          return 0;
        double S = 0;
        for (auto &[Op, K] : It->second.counts())
          if (costGroup(Lv, Model.costKey(Op)) == Gr)
            S += K * Model.cost(Op);
        return GiNaC::numeric(S);
      };
      Row.push_back(perCall(FB, *F, W, "train:" + Key + ":" + Gr, Key, X->R));
    }
    G.push_back(Row);
    T.push_back(X->Time);
    Tr.Kernels.push_back(X->Info.Function);
    Tr.What.push_back(X->Info.What);
    Tr.Times.push_back(X->Time);
  }
  if (!FB.unresolved().empty()) {
    std::string U;
    for (const std::string &S : FB.unresolved())
      U += "\n  " + S;
    throw CalibError("the plugin could not count everything in the training kernels:" + U);
  }
  DenseRows ByRep;
  for (size_t K = 0; K < Rows.front()->Times.size() && Rows.front()->Times.size() > 1; ++K) {
    ByRep.emplace_back();
    for (const Measured *X : Rows)
      ByRep.back().push_back(X->Times[K]);
  }
  try {
    Tr.Fit = fitGroupMultipliers(G, T, Groups, ByRep);
  } catch (const std::runtime_error &E) {
    throw CalibError(Key + " " + Opt + ": training fit: " + E.what());
  }
  H.Train = Tr;
  for (size_t J = 0; J < H.Constructs.size(); ++J) {
    H.Train->Group.push_back(costGroup(Lv, H.Constructs[J]));
    H.CostNs[J] = H.BaseNs[J] * H.Train->Fit.S[H.groupIndex(H.Train->Group.back())];
  }
  if (H.StarBaseNs)
    H.StarNs = *H.StarBaseNs * H.Train->Fit.S[H.groupIndex(costGroup(Lv, "*"))];
}

/// R_fpu = total flop / total time of the POC kernels (PARKBENCH-93 style).
PocResult solvePoc(const std::vector<Measured> &Ms, const SegFile &Seg, int Reps) {
  PocResult P;
  FormulaBuilder FB(Seg);
  double Flop = 0, Time = 0;
  std::vector<double> TimeRep(Reps, 0.0);
  for (const Measured &X : Ms) {
    if (!X.Info.Poc)
      continue;
    const FunctionSeg *F = Seg.find(X.Info.Function);
    if (!F)
      throw CalibError("the SEG file has no function '" + X.Info.Function + "'");
    double Fl = countPerCall(FB, *F, Level::POC, pocFlop(), X.R);
    if (!(Fl > 0))
      throw CalibError("kernel " + X.Info.Function + ": the plugin counts no flop");
    P.Kernels.push_back({X.Info.Function, Fl, X.Time});
    Flop += Fl;
    Time += X.Time;
    for (int K = 0; K < Reps; ++K)
      TimeRep[K] += X.Times[K];
  }
  if (P.Kernels.empty())
    throw CalibError("no POC kernel was run");
  P.Mflops = Flop / Time / 1e6;
  std::vector<double> Rates;
  for (double T : TimeRep)
    Rates.push_back(Flop / T / 1e6);
  P.Spread = relSpread(Rates);
  return P;
}

} // namespace segtime::calib
