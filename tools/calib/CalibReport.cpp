//===- CalibReport.cpp - segtime calibrate: text and JSON reports ---------===//
///
/// \file
/// The report of a calibrate run's levels (CalibRun.h): a text table with
/// the costs, spreads, least-squares residuals and training fit, or JSON.
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

namespace {

std::string pct(std::optional<double> V, bool Sign = false) {
  if (!V)
    return "-";
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, Sign ? "%+.1f%%" : "%.1f%%", *V * 100);
  return Buf;
}

/// S padded with blanks to width W (right-aligned unless Left).
std::string pad(const std::string &S, size_t W, bool Left = false) {
  if (S.size() >= W)
    return S;
  return Left ? S + std::string(W - S.size(), ' ') : std::string(W - S.size(), ' ') + S;
}

/// The training-set fit of Level (HLLC or INTCC) at every variant: the
/// multipliers with their spread, then per kernel the relative error of its
/// time with the construct costs c0, with the fit, and left out of the fit.
void printTraining(std::ostream &OS, Level L,
                   const std::vector<const HllcResult *> &Hs, const std::vector<std::string> &Opts) {
  if (Hs.empty() || !Hs.front()->Train)
    return;
  const auto &F0 = Hs.front()->Train->Fit;
  OS << "\n" << levelKey(L) << " training-set fit: cost of key k = s_g c0_k (Warwick-94 eq. 4 with "
     << "c = diag(s) c0),\nc0 from the construct benchmarks, one multiplier s_g per group fitted "
     << "on " << F0.Rel.size() << " training kernels\n(weights 1/t; * = not fitted, s = 1: "
        "group math (library calls, timed directly) or one that carries < 1 % of every "
        "kernel's time)\n";
  OS << pad("group", 22, true);
  for (const std::string &Op : Opts)
    OS << pad(Op + " s_g", 10) << pad("spread", 8);
  OS << "\n";
  for (size_t G = 0; G < F0.Groups.size(); ++G) {
    OS << pad(F0.Groups[G], 22, true);
    for (const HllcResult *H : Hs) {
      const GroupFit &F = H->Train->Fit;
      OS << pad(num(F.S[G], 3) + (F.Determined[G] ? "" : "*"), 10) << pad(pct(F.Spread[G]), 8);
    }
    OS << "\n";
  }
  OS << "relative error of the kernel's time: c0 = construct costs alone, fit = with s_g, LOO =\n"
        "with s_g fitted without the kernel (leave-one-out cross-validation)\n";
  OS << pad("kernel", 22, true);
  for (const std::string &Op : Opts)
    OS << pad(Op + " c0", 9) << pad("fit", 8) << pad("LOO", 8);
  OS << "\n";
  const auto &Ks = Hs.front()->Train->Kernels;
  for (size_t K = 0; K < Ks.size(); ++K) {
    OS << pad(Ks[K], 22, true);
    for (const HllcResult *H : Hs) {
      const GroupFit &F = H->Train->Fit;
      OS << pad(pct(F.Rel0[K], true), 9) << pad(pct(F.Rel[K], true), 8)
         << pad(pct(F.LooRel[K], true), 8);
    }
    OS << "\n";
  }
  OS << pad("rms", 22, true);
  for (const HllcResult *H : Hs) {
    const GroupFit &F = H->Train->Fit;
    OS << pad(pct(F.RmsRel0), 9) << pad(pct(F.RmsRel), 8) << pad(pct(F.RmsLoo), 8);
  }
  OS << "\n" << pad("median |error|", 22, true);
  for (const HllcResult *H : Hs) {
    const GroupFit &F = H->Train->Fit;
    OS << pad(pct(F.MedianAbsRel0), 9) << pad(pct(F.MedianAbsRel), 8)
       << pad(pct(F.MedianAbsLoo), 8);
  }
  OS << "\n";
}

/// The table of a level fitted per construct (FitColumns::Vocabulary, HLLC):
/// per construct and variant the construct-benchmark cost, its spread and
/// residual, and the cost written after the training fit.
void printConstructTable(std::ostream &OS, const LevelUnit &U, const std::vector<OptResult> &Res) {
  const Level L = U.level();
  bool Trained = Res.front().Costs.at(L).Train.has_value();
  OS << "\n" << U.key() << " cost vector, ns per " << U.entryWord()
     << " (Warwick-94 eq. 4); spread over reps; "
        "resid = relative\nresidual of the construct's benchmark; 0* = negative in the "
        "fit (noise), written as 0"
     << (Trained ? ";\nc0 = construct-benchmark cost, written = s_g c0 (training-set fit, "
                   "below)"
                 : "")
     << "\n";
  OS << pad(U.entryWord(), 18, true);
  for (const OptResult &R : Res) {
    OS << pad(R.Opt + (Trained ? " c0 ns" : " ns"), 11) << pad("spread", 8) << pad("resid", 8);
    if (Trained)
      OS << pad("written", 9);
  }
  OS << "\n";
  const HllcResult &H0 = Res.front().Costs.at(L);
  for (size_t J = 0; J < H0.Constructs.size(); ++J) {
    OS << pad(H0.Constructs[J], 18, true);
    for (const OptResult &R : Res) {
      const HllcResult &H = R.Costs.at(L);
      double Resid = 0;
      for (const Row &Rw : H.Rows)
        if (Rw.Function == H.Bench[J])
          Resid = Rw.Rel;
      OS << pad(H.Fixed[J] ? "0*" : num(H.BaseNs[J], 3), 11) << pad(pct(H.Spread[J]), 8)
         << pad(pct(Resid, true), 8);
      if (Trained)
        OS << pad(num(H.CostNs[J], 3), 9);
    }
    OS << "\n";
  }
  OS << pad("(bench_baseline)", 18, true);
  for (const OptResult &R : Res) {
    double Resid = 0;
    for (const Row &Rw : R.Costs.at(L).Rows)
      if (Rw.Function == "bench_baseline")
        Resid = Rw.Rel;
    OS << pad("", 11) << pad("", 8) << pad(pct(Resid, true), 8);
  }
  OS << "\n";
  for (const OptResult &R : Res) {
    const HllcResult &H = R.Costs.at(L);
    OS << "  " << R.Opt << ": " << H.Rows.size() << " benchmarks, " << H.Constructs.size()
       << " constructs, condition number " << num(H.Cond, 3) << ", rms residual "
       << pct(H.RmsRel) << "; check, POC kernels predicted by c^T f:";
    for (const Row &C : H.Checks)
      OS << " " << C.Function.substr(4) << " " << pct(C.Rel, true);
    OS << "\n";
  }
}

/// The summary of a level fitted per operation class
/// (FitColumns::ExecutedClasses, INTCC): its costs are in the machine file.
void printClassSummary(std::ostream &OS, const LevelUnit &U,
                       const std::vector<const HllcResult *> &Hs,
                       const std::vector<std::string> &Opts) {
  OS << "\n" << U.key() << " cost vector, ns per IR operation class (Warwick-94 eq. 4), least "
     << "squares over the construct\nbenchmarks' IR counts (costs in the machine file; --json "
        "lists them)\n";
  for (size_t K = 0; K < Hs.size(); ++K) {
    const HllcResult &H = *Hs[K];
    size_t Fixed = static_cast<size_t>(std::count(H.Fixed.begin(), H.Fixed.end(), true));
    OS << "  " << Opts[K] << ": " << H.Rows.size() << " benchmarks, " << H.Constructs.size()
       << " classes (" << Fixed << " fixed at 0), condition number " << num(H.Cond, 3)
       << ", rms residual " << pct(H.RmsRel) << "\n";
  }
}

} // namespace

void printTable(std::ostream &OS, const Options &O, const RunInfo &I,
                const std::vector<OptResult> &Res) {
  OS << "segtime calibrate: " << O.Name << " (" << I.Cpu << "), " << O.Reps << " reps";
  if (!O.Levels.empty())
    OS << " of >= " << num(O.TargetMs, 3) << " ms per benchmark";
  OS << (O.Quick ? " [--quick]" : "") << "\n";
  std::vector<std::string> Opts;
  for (const OptResult &R : Res)
    Opts.push_back(R.Opt);
  // The levels measured by their costs (HLLC, INTCC), each with its
  // training-set fit, then those measured by their flop rate (POC).
  for (const LevelUnit *U : levelUnits()) {
    if (U->calibFit() != CalibFit::Costs)
      continue;
    std::vector<const HllcResult *> Hs;
    for (const OptResult &R : Res)
      if (auto It = R.Costs.find(U->level()); It != R.Costs.end())
        Hs.push_back(&It->second);
    if (U->fitColumns() == FitColumns::Vocabulary) {
      if (O.has(U->level()))
        printConstructTable(OS, *U, Res);
    } else if (!Hs.empty()) {
      printClassSummary(OS, *U, Hs, Opts);
    }
    printTraining(OS, U->level(), Hs, Opts);
  }
  for (const LevelUnit *U : levelUnits()) {
    if (U->calibFit() != CalibFit::FlopRate || !O.has(U->level()))
      continue;
    OS << "\n" << U->key() << " flop rate R_fpu, Mflop/s (Warwick-94 eq. 6; McMahon flop / time)\n";
    for (const OptResult &R : Res) {
      const PocResult &P = *R.Poc;
      OS << "  " << R.Opt << ": " << num(P.Mflops) << " Mflop/s (spread " << pct(P.Spread)
         << "); kernels:";
      for (const PocKernel &K : P.Kernels)
        OS << " " << K.Function.substr(4) << " " << num(K.Flop / K.Time / 1e6, 3);
      OS << "\n";
    }
  }
}

json toJson(const Options &O, const RunInfo &I, const std::vector<OptResult> &Res) {
  json J;
  J["machine"] = {{"name", O.Name}, {"path", O.Out}, {"processor", I.Cpu}, {"date", I.Date}};
  J["reps"] = O.Reps;
  J["statistic"] = O.Stat;
  J["time_ms"] = O.TargetMs;
  J["unroll"] = O.Unroll;
  auto Opt = [](std::optional<double> V) { return V ? json(*V) : json(nullptr); };
  for (const OptResult &R : Res) {
    J["samples"][R.Opt] = {{"timed_calls", R.Samples}, {"disturbed", R.Disturbed},
                           {"retries", R.Retries}};
    for (const Measured &X : R.Timings)
      J["timings"][R.Opt][X.Info.Function] = {{"construct", X.Info.Construct},
                                              {"body", X.Info.What},
                                              {"R", X.R},
                                              {"seconds", X.Time},
                                              {"times_s", X.Times},
                                              {"disturbed", X.Disturbed}};
    for (const auto &[Lv, H] : R.Costs) {
      const std::string Level = levelKey(Lv);
      json V;
      V["unit"] = "ns";
      for (size_t J2 = 0; J2 < H.Constructs.size(); ++J2) {
        json C = {{"value", H.CostNs[J2]},
                  {"construct_benchmark_cost", H.BaseNs[J2]},
                  {"least_squares", H.LsNs[J2]},
                  {"fixed_at_zero", static_cast<bool>(H.Fixed[J2])},
                  {"spread", Opt(H.Spread[J2])}};
        if (J2 < H.Bench.size() && !H.Bench[J2].empty())
          C["benchmark"] = H.Bench[J2];
        if (H.Train)
          C["group"] = H.Train->Group[J2];
        V["costs"][H.Constructs[J2]] = C;
      }
      if (H.StarNs)
        V["costs"]["*"] = {{"value", *H.StarNs}, {"construct_benchmark_cost", *H.StarBaseNs}};
      for (const Row &Rw : H.Rows)
        V["residuals"][Rw.Function] = Rw.Rel;
      for (const Row &C : H.Checks)
        V["checks"][C.Function] = C.Rel;
      if (!H.Unfitted.empty())
        V["unfitted"] = H.Unfitted;
      V["condition_number"] = H.Cond;
      V["rms_residual"] = H.RmsRel;
      if (H.Train) {
        const GroupFit &F = H.Train->Fit;
        json T;
        for (size_t G = 0; G < F.Groups.size(); ++G)
          T["multipliers"][F.Groups[G]] = {{"value", F.S[G]},
                                           {"least_squares", F.LsS[G]},
                                           {"fixed_at_zero", static_cast<bool>(F.Fixed[G])},
                                           {"determined", static_cast<bool>(F.Determined[G])},
                                           {"spread", Opt(F.Spread[G])}};
        for (size_t K = 0; K < H.Train->Kernels.size(); ++K)
          T["kernels"][H.Train->Kernels[K]] = {{"what", H.Train->What[K]},
                                               {"seconds", H.Train->Times[K]},
                                               {"rel_error_construct_costs", F.Rel0[K]},
                                               {"rel_error_fit", F.Rel[K]},
                                               {"rel_error_leave_one_out", F.LooRel[K]}};
        T["rms"] = {{"construct_costs", F.RmsRel0}, {"fit", F.RmsRel},
                    {"leave_one_out", F.RmsLoo}};
        T["median_abs"] = {{"construct_costs", F.MedianAbsRel0}, {"fit", F.MedianAbsRel},
                           {"leave_one_out", F.MedianAbsLoo}};
        V["training_fit"] = T;
      }
      J["levels"][Level][R.Opt] = V;
    }
    if (R.Poc) {
      const PocResult &P = *R.Poc;
      json V;
      V["unit"] = "Mflop/s";
      V["costs"]["flop"] = {{"value", P.Mflops}, {"spread", Opt(P.Spread)}};
      for (const PocKernel &K : P.Kernels)
        V["kernels"][K.Function] = {{"flop_per_call", K.Flop},
                                    {"seconds_per_call", K.Time},
                                    {"mflops", K.Flop / K.Time / 1e6}};
      J["levels"][levelKey(Level::POC)][R.Opt] = V;
    }
  }
  return J;
}

} // namespace segtime::calib
