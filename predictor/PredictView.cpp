//===- PredictView.cpp - The prediction report as text and JSON ----------===//
///
/// \file
/// The views of `segtime predict`'s report (Prediction, predictor/Predict.h):
/// printText and toJSON from the same object (the JSON layout is a
/// contract, docs/cli.md), the --breakdown table, the exit status, and
/// formatSeconds (predictor/PredictedSpeed.h). predict() computes and never
/// prints.
///
//===----------------------------------------------------------------------===//
#include "predictor/Predict.h"
#include "predictor/PredictDetail.h"
#include "predictor/PredictedSpeed.h"
#include "predictor/levels/LevelUnit.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <sstream>

namespace segtime {
using namespace predict_detail;

/// J[Key] = F's formula and, when it names subexpressions, J[Key + "_defs"] =
/// [{"name", "expr"}, ...] (docs/cli.md).
static void putFormula(json &J, const std::string &Key, const FormulaText &F) {
  J[Key] = F.Formula;
  if (F.Defs.empty())
    return;
  json Defs = json::array();
  for (const FormulaDef &D : F.Defs)
    Defs.push_back({{"name", D.Name}, {"expr", D.Expr}});
  J[Key + "_defs"] = Defs;
}

static json missingJSON(const std::vector<MissingValue> &Ms) {
  json A = json::array();
  for (const MissingValue &V : Ms)
    A.push_back({{"name", V.Name}, {"where", V.Where}, {"meaning", V.Meaning}, {"levels", levelKeys(V.Levels)}});
  return A;
}

int Prediction::exitStatus() const {
  int St = 0;
  for (const FunctionPrediction &F : Functions)
    if (!F.Error.empty())
      St = std::max(St, F.Failed ? 2 : 1);
  return St;
}

json Prediction::toJSON() const {
  json Fs = json::array();
  for (const FunctionPrediction &F : Functions) {
    json J = {{"name", F.Name}, {"structural", F.Structural}};
    json Ps = json::array();
    for (const ParamValue &V : F.Params)
      Ps.push_back({{"name", V.Name}, {"value", V.Value}, {"source", V.Source}});
    J["parameters"] = Ps;
    if (!F.Bound.empty()) {
      json Bs = json::array();
      for (const BoundValue &B : F.Bound) {
        json X = {{"name", B.Name}, {"expression", B.Expr}, {"source", "bound from call at " + B.Where}};
        if (B.Value)
          X["value"] = *B.Value;
        Bs.push_back(std::move(X));
      }
      J["bound_parameters"] = Bs;
    }
    if (F.Costed.NotCosted) // (as "unresolved": nothing when all is costed)
      J["costed"] = {{"nodes", F.Costed.Nodes},
                     {"not_costed", F.Costed.NotCosted},
                     {"no_seg", F.Costed.NoSeg}};
    json Ls = json::object();
    for (auto &[Lv, LP] : F.Levels) {
      const std::string L = levelKey(Lv);
      Ls[L] = {{"time_s", LP.TimeS}};
      putFormula(Ls[L], "formula", LP.Formula);
      Ls[L]["counts"] = LP.Counts;
      if (!F.CommFormula.Formula.empty())
        Ls[L]["comm_s"] = LP.CommS;
      if (!F.LibraryFormula.Formula.empty() || !F.LibraryIrFormula.Formula.empty())
        Ls[L]["library_s"] = LP.LibraryS;
      if (LP.Rank >= 0)
        Ls[L]["rank"] = LP.Rank;
      if (levelUnit(Lv).perTarget())
        Ls[L]["target"] = Target;
    }
    J["levels"] = Ls;
    if (!F.CommFormula.Formula.empty())
      putFormula(J, "comm_formula", F.CommFormula);
    if (!F.LibraryFormula.Formula.empty())
      putFormula(J, "library_formula", F.LibraryFormula);
    if (!F.LibraryIrFormula.Formula.empty())
      putFormula(J, "library_ir_formula", F.LibraryIrFormula);
    J["unresolved"] = F.Unresolved;
    if (!F.Notes.empty())
      J["notes"] = F.Notes;
    if (!F.Breakdown.empty()) {
      json Bs = json::array();
      for (const NestBreakdown &B : F.Breakdown) {
        json X = {{"loop", B.Id},           {"line", B.Line},
                  {"executions", B.Executions}, {"time_s", B.TimeS},
                  {"iterations", B.Iterations}, {"core_cycles", B.CoreCycles},
                  {"core_cycles_per_iteration", B.Iterations > 0 ? B.CoreCycles / B.Iterations : 0.0},
                  {"lines", B.Lines},       {"bound", B.Bound},
                  {"share", B.Share},       {"model", B.NotAnalysable.empty() ? "ECM" : "fallback"}};
        if (B.OverlapExponent > 0)
          X["overlap_exponent"] = B.OverlapExponent;
        if (!B.LinesIn.empty())
          X["lines_in"] = B.LinesIn;
        if (!B.NotAnalysable.empty())
          X["not_analysable"] = B.NotAnalysable;
        json Ts = json::array();
        for (const NestBreakdown::Term &T : B.Terms)
          Ts.push_back({{"name", T.Name},
                        {"bound", T.Bound},
                        {"time_s", T.TimeS},
                        {"cycles", B.CycleS > 0 ? T.TimeS / B.CycleS : 0.0},
                        {"overlaps", T.Overlaps}});
        X["terms"] = Ts;
        Bs.push_back(X);
      }
      J["breakdown"] = Bs;
    }
    J["where"] = F.Where;
    J["status"] = F.Failed ? "error" : !F.Error.empty() ? "incomplete" : "predicted";
    if (!F.Error.empty())
      J["error"] = F.Error;
    if (!F.Missing.empty())
      J["missing"] = missingJSON(F.Missing);
    Fs.push_back(J);
  }
  // The functions not predicted, with what they lack.
  json Inc = json::array();
  for (const FunctionPrediction &F : Functions)
    if (!F.Error.empty()) {
      json X = {{"name", F.Name}, {"where", F.Where}, {"status", F.Failed ? "error" : "incomplete"},
                {"error", F.Error}};
      std::vector<MissingValue> Need;
      for (const MissingValue &V : F.Missing)
        if (!F.Failed && !V.Levels.empty() && !F.Levels.count(V.Levels.front()))
          Need.push_back(V);
      X["missing"] = missingJSON(Need);
      Inc.push_back(X);
    }
  json J = {{"machine", MachineName}, {"machine_file", MachinePath}, {"opt_level", OptLevel},
            {"functions", Fs}, {"unused_parameters", UnusedValues}, {"incomplete", Inc},
            {"exit_status", exitStatus()}};
  if (!Target.empty())
    J["target"] = Target;
  if (!CommModel.empty())
    J["comm_model"] = CommModel;
  return J;
}

std::string formatSeconds(double S, int Digits) {
  if (std::isinf(S))
    return "unlimited";
  double A = std::fabs(S);
  std::ostringstream OS;
  OS << std::setprecision(Digits);
  if (A == 0 || A >= 1)
    OS << S << " s";
  else if (A >= 1e-3)
    OS << S * 1e3 << " ms";
  else if (A >= 1e-6)
    OS << S * 1e6 << " us";
  else
    OS << S * 1e9 << " ns";
  return OS.str();
}


/// The --breakdown table: one block per loop nest.
static void printBreakdown(std::ostream &OS, const std::vector<NestBreakdown> &Bs) {
  if (Bs.empty())
    return;
  OS << "  breakdown (ICC, per execution of each loop nest; ECM: T = max(T_OL, T_data), T_data "
        "= max(overlapping terms, sum of the others)):\n";
  char Buf[256];
  for (const NestBreakdown &B : Bs) {
    std::snprintf(Buf, sizeof Buf,
                  "  loop nest %s at line %u: %s x %.4g per call; bound: %s (%.0f %%)%s\n",
                  B.Id.c_str(), B.Line, formatSeconds(B.TimeS).c_str(), B.Executions,
                  B.Bound.c_str(), 100 * B.Share, B.NotAnalysable.empty() ? "" : " [fallback]");
    OS << Buf;
    if (!B.NotAnalysable.empty())
      OS << "    not analysable by ECM: " << B.NotAnalysable << "\n";
    else if (B.OverlapExponent > 0) {
      std::snprintf(Buf, sizeof Buf,
                    "    T = (T_OL^p + T_data^p)^(1/p), p = %.3g (memory.overlap), T_data = "
                    "max(overlapping transfers, sum of the others)\n",
                    B.OverlapExponent);
      OS << Buf;
    }
    std::snprintf(Buf, sizeof Buf, "    core: %.4g cycles, %.4g iterations, %.3g cycles per iteration\n",
                  B.CoreCycles, B.Iterations, B.Iterations > 0 ? B.CoreCycles / B.Iterations : 0.0);
    OS << Buf;
    if (!B.Lines.empty()) {
      OS << "    lines:";
      for (const char *L : {"L1", "L2", "L3", "memory"})
        if (B.Lines.count(L)) {
          std::snprintf(Buf, sizeof Buf, " %s %.4g", L, B.Lines.at(L));
          OS << Buf;
        }
      OS << "  (into L1, into L2, into L2 from L3, from memory)\n";
    }
    OS << "    term      level    time         cycles       overlaps  share\n";
    for (const NestBreakdown::Term &T : B.Terms) {
      std::snprintf(Buf, sizeof Buf, "    %-9s %-8s %-12s %-12.4g %-9s %.0f %%\n", T.Name.c_str(),
                    T.Bound.c_str(), formatSeconds(T.TimeS).c_str(),
                    B.CycleS > 0 ? T.TimeS / B.CycleS : 0.0, T.Overlaps ? "yes" : "no",
                    B.TimeS > 0 ? 100 * T.TimeS / B.TimeS : 0.0);
      OS << Buf;
    }
  }
}

void Prediction::printText(std::ostream &OS) const {
  OS << "machine: " << MachineName << " (" << MachinePath << "), code compiled at -" << OptLevel
     << "\n";
  if (!CommModel.empty())
    OS << "communication: " << CommModel << "\n";
  for (const FunctionPrediction &F : Functions) {
    OS << "\n" << F.Name << "\n  " << F.Structural << "\n";
    if (!F.Error.empty()) {
      OS << "  error: " << F.Error << "\n";
      continue;
    }
    if (!F.Params.empty()) {
      OS << "  parameters:";
      for (const ParamValue &V : F.Params)
        OS << " " << V.Name << "=" << V.Value << " [" << V.Source << "]";
      OS << "\n";
    }
    if (!F.Bound.empty()) {
      OS << "  bound from calls:";
      for (const BoundValue &B : F.Bound) {
        OS << " " << B.Name << "=" << B.Expr;
        char *End = nullptr;
        std::strtod(B.Expr.c_str(), &End);
        if (B.Value && End && *End) // an expression, not a number: its value too
          OS << "=" << *B.Value;
        OS << " [" << B.Where << "]";
      }
      OS << "\n";
    }
    if (!F.CommFormula.Formula.empty())
      OS << "  comm  t = " << cutFormula(F.CommFormula, 400, "in --json")
         << " s (included in every level below)\n";
    {
      bool Src = false, Ir = false; // the levels shown that use each
      for (auto &[L, LP] : F.Levels)
        (irLevel(L) ? Ir : Src) = true;
      const FormulaText &A = F.LibraryFormula, &B = F.LibraryIrFormula;
      if (!A.Formula.empty() && (!Ir || A.Formula == B.Formula))
        OS << "  lib   t = " << cutFormula(A, 400, "in --json")
           << " s (library calls, included in every level below)\n";
      else if (!A.Formula.empty() && Src)
        OS << "  lib   t = " << cutFormula(A, 400, "in --json")
           << " s (library calls of the source, included in POC and HLLC)\n";
      if (!B.Formula.empty() && Ir && (!Src || A.Formula != B.Formula))
        OS << "  libIR t = " << cutFormula(B, 400, "in --json")
           << " s (library calls of the optimised code, included in INTCC and ICC)\n";
    }
    for (auto &[L, LP] : F.Levels) {
      OS << "  " << std::left << std::setw(5) << levelKey(L) << " t = " << cutFormula(LP.Formula, 400, "in --json") << " s\n"
         << "        = " << formatSeconds(LP.TimeS);
      if (!F.CommFormula.Formula.empty())
        OS << "   (comm " << formatSeconds(LP.CommS) << ")";
      if (LP.LibraryS != 0)
        OS << "   (library " << formatSeconds(LP.LibraryS) << ")";
      if (LP.Rank >= 0)
        OS << "   [rank " << LP.Rank << "]";
      levelUnit(L).printCounts(OS, LP.Counts, Target);
      OS << "\n";
    }
    for (const std::string &U : F.Unresolved)
      OS << "  not costed: " << U << "\n";
    if (F.Costed.NotCosted) {
      OS << "  costed: " << F.Costed.Nodes - F.Costed.NotCosted << " of " << F.Costed.Nodes
         << " SEG nodes (with the functions called); not costed: " << F.Costed.NotCosted
         << " (their time is not in the figures above)";
      if (!F.Costed.NoSeg.empty()) {
        OS << "; functions with no SEG:";
        for (const std::string &C : F.Costed.NoSeg)
          OS << " " << C;
      }
      OS << "\n";
    }
    for (const std::string &N : F.Notes)
      OS << "  note: " << N << "\n";
    printBreakdown(OS, F.Breakdown);
  }
  // The functions not predicted, with what they lack, last.
  size_t Incomplete = 0, Failed = 0;
  for (const FunctionPrediction &F : Functions)
    if (!F.Error.empty())
      ++(F.Failed ? Failed : Incomplete);
  if (Incomplete) {
    OS << "\nincomplete: " << Incomplete << " of " << Functions.size()
       << " functions not predicted for want of values (give them with -p NAME=VALUE):\n";
    for (const FunctionPrediction &F : Functions) {
      if (F.Error.empty() || F.Failed)
        continue;
      OS << "  " << F.Name << " (" << F.Where << "):";
      std::string Sep = " ";
      for (const MissingValue &V : F.Missing)
        if (!V.Levels.empty() && !F.Levels.count(V.Levels.front())) {
          OS << Sep << V.Name << " (" << V.Meaning << ", " << V.Where << ")";
          Sep = ", ";
        }
      OS << "\n";
    }
  }
  if (Failed) {
    OS << "\nfailed: " << Failed << " of " << Functions.size() << " functions:\n";
    for (const FunctionPrediction &F : Functions)
      if (F.Failed)
        OS << "  " << (F.Error.compare(0, F.Name.size(), F.Name) ? F.Name + ": " : "") << F.Error
           << "\n";
  }
}

} // namespace segtime
