//===- SummarySites.cpp - The compile-time summary per inlined site -------===//
///
/// \file
/// segtime predict --summary for files with functions that have no code of
/// their own (inlined everywhere): the summary of the file as read, then
/// each such function's ICC line from its inlined call sites, per site,
/// as segtime predict gives them (docs/cli.md "Inlined functions"); and
/// predict's per-site figures of such functions (perSiteFigures).
///
//===----------------------------------------------------------------------===//
#include "core/InlinedLevels.h"
#include "core/MergeIR.h"
#include "predictor/Install.h"
#include "predictor/Predict.h"
#include "predictor/PredictedSpeed.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <optional>
#include <sstream>

namespace segtime {

/// The ICC line of the compile-time summary (printIccSummaryLine), or
/// Head ": not predicted: why".
static std::string summaryIccLine(const std::string &Head, const FunctionPrediction &FP) {
  std::ostringstream OS;
  if (!printIccSummaryLine(OS, Head, FP))
    OS << Head << ": not predicted: " << (FP.Error.empty() ? "no ICC data" : FP.Error) << "\n";
  return OS.str();
}

/// segtime predict --summary: the compile-time summary (predictor/Predict.h
/// compileTimeSummary) per site, as predict does it. The text of S as read
/// (Values: -p; at most Max functions), so that the functions with code of
/// their own have the figures they have without the plugin option inlined;
/// then each shown function with no code of its own gets, in place of its
/// ICC line, the ICC prediction of the sum of one call at each of its
/// inlined call sites (S resolved, only those functions predicted) and,
/// with several sites, one line per site (that function alone resolved at
/// that site, core/MergeIR.h resolveInlinedLevel). Resolves S. Never
/// throws for what S holds (no machine, no ICC target: the text as read).
/// X: the expression algebra for resolveInlinedLevel; Resolve: every
/// site of S resolved (segtime.cpp resolveInlined, its warnings on stderr).
std::string summaryPerSite(SegFile &S, const std::string &MachineName,
                           const std::map<std::string, double> &Values, size_t Max,
                           const MergeIRServices &X,
                           const std::function<void(SegFile &)> &Resolve) {
  std::string Text = compileTimeSummary(S, MachineName, Values, Max);
  std::vector<FunctionSeg> Unresolved; // the shown functions with no code of their own
  size_t Shown = 0;
  for (const FunctionSeg &F : S.Functions)
    if (F.InMainFile && Shown++ < Max && !F.InlinedAt.empty())
      Unresolved.push_back(F);
  if (Unresolved.empty())
    return Text;
  std::unique_ptr<Machine> M;
  try {
    M = std::make_unique<Machine>(readMachine(findMachine(MachineName)));
  } catch (const std::exception &) {
    return Text; // (the text says why)
  }
  std::optional<std::string> Target = iccTarget(S, *M, "");
  if (!Target)
    return Text;
  Resolve(S);
  PredictOptions PO;
  PO.Levels = {Level::ICC};
  PO.Optional = {Level::ICC};
  PO.Values = Values;
  for (const FunctionSeg &U : Unresolved)
    if (const FunctionSeg *F = S.find(U.Name); F && F->LevelSegs.count(IrSegKey))
      PO.Functions.push_back(U.Name);
  if (PO.Functions.empty())
    return Text;
  Prediction P;
  try {
    checkValues(S, PO);
    P = predict(S, *M, PO);
  } catch (const std::exception &) {
    return Text; // (the text as read has the ICC note)
  }
  const std::string Head = "  ICC   t on " + M->Name + " (" + *Target + ")";
  for (const FunctionPrediction &FP : P.Functions) {
    auto U = std::find_if(Unresolved.begin(), Unresolved.end(),
                          [&](const FunctionSeg &G) { return G.Name == FP.Name; });
    auto In = std::find_if(S.Functions.begin(), S.Functions.end(),
                           [&](const FunctionSeg &G) { return G.Name == FP.Name; });
    if (U == Unresolved.end() || In == S.Functions.end())
      continue;
    std::string Lines = summaryIccLine(Head, FP);
    PredictOptions One = PO;
    One.Functions = {FP.Name};
    for (unsigned K = 1; U->InlinedAt.size() > 1 && K <= U->InlinedAt.size(); ++K) {
      FunctionSeg Site = *U;
      std::vector<std::string> W;
      resolveInlinedLevel(S, Site, X, K, W);
      const InlinedRef &R = U->InlinedAt[K - 1];
      unsigned Loops = inlinedCallerLoops(S, *U, R);
      std::string SiteHead = "  ICC   site " + std::to_string(K) + " (" + R.Caller +
                             (R.Where.empty() ? "" : " at " + R.Where) +
                             (Loops ? ", in " + std::to_string(Loops) + " loop(s) of " + R.Caller
                                    : "") +
                             ")";
      Prediction Q;
      std::swap(*In, Site); // (swapped back before anything else)
      try {
        Q = predict(S, *M, One);
      } catch (const std::exception &E) {
        std::swap(*In, Site);
        Lines += SiteHead + ": not predicted: " + E.what() + "\n";
        continue;
      }
      std::swap(*In, Site);
      if (!Q.Functions.empty())
        Lines += summaryIccLine(SiteHead, Q.Functions[0]);
    }
    // In the function's block (from "segtime: NAME (" to the next
    // "segtime: " line), its ICC lines are replaced.
    const std::string Start = "segtime: " + FP.Name + " (";
    size_t B = Text.compare(0, Start.size(), Start) == 0 ? 0 : Text.find("\n" + Start);
    if (B == std::string::npos)
      continue;
    B += B ? 1 : 0;
    size_t E = Text.find("\nsegtime: ", B + Start.size());
    E = E == std::string::npos ? Text.size() : E + 1;
    std::string Block = Text.substr(B, E - B), Kept;
    size_t At = std::string::npos;
    std::istringstream Ls(Block);
    for (std::string L; std::getline(Ls, L);) {
      if (L.rfind("  ICC   ", 0) == 0) {
        if (At == std::string::npos)
          At = Kept.size();
        continue;
      }
      Kept += L + "\n";
    }
    Kept.insert(At == std::string::npos ? Kept.size() : At, Lines);
    Text.replace(B, E - B, Kept);
  }
  return Text;
}

/// The callees of F's calls in the order of its bodies (the source-level
/// SEG, then each level SEG by key), a level's end marked by "".
static std::vector<std::string> callSequence(const FunctionSeg &F) {
  std::vector<std::string> Out;
  auto Add = [&](const NodeList &L) {
    forEachNode(L, [&](const Node &N) {
      if (N.Kind == NodeKind::Call)
        Out.push_back(N.Callee);
    });
    Out.push_back("");
  };
  Add(F.Body);
  for (auto &[Key, L] : F.LevelSegs) {
    Out.push_back(Key);
    Add(L);
  }
  return Out;
}

namespace {
/// Calls F when it goes out of scope, also on an exception.
struct AtExit {
  std::function<void()> F;
  ~AtExit() { F(); }
};
} // namespace

/// For each function of P with several inlined call sites (Unresolved: those
/// functions as read, before resolveInlined; S: the file P was predicted
/// from, every site resolved): the INTCC and ICC figures of one call at
/// each site (predict with O at its IR levels, the function resolved at
/// that site alone; none if O has no IR level), as a note in P, and by function name the JSON of its
/// sites: [{"site", "caller", "where", "levels": {level: {"time_s",
/// "instructions"}}}] (--json: "inlined_sites"). Each site is resolved on a
/// copy of its function only (core/MergeIR.h resolveInlinedLevel, the
/// callers read from S) that replaces the function in S for its prediction
/// (of the instruction count only); the function as it was is put back
/// after the last site: the time is linear in the number of sites. A site
/// left out was reported when S was resolved.
std::map<std::string, json> perSiteFigures(const std::vector<FunctionSeg> &Unresolved,
                                           SegFile &S, const Machine &M,
                                           const PredictOptions &O, Prediction &P,
                                           const MergeIRServices &X) {
  std::map<std::string, json> Out;
  PredictOptions OK = O;
  OK.Levels.clear();
  for (Level Lv : O.Levels)
    if (irLevel(Lv))
      OK.Levels.push_back(Lv);
  if (OK.Levels.empty())
    return Out;
  OK.CountOps = {"instructions"}; // (the one count a site's figures show)
  // One predictor for every site: the callees' closed forms are built once
  // (a site's copy replaces the function, and its forms are built again).
  Predictor AtSites(S, M, OK);
  for (FunctionPrediction &FP : P.Functions) {
    auto F = std::find_if(Unresolved.begin(), Unresolved.end(),
                          [&](const FunctionSeg &U) { return U.Name == FP.Name; });
    auto In = std::find_if(S.Functions.begin(), S.Functions.end(),
                           [&](const FunctionSeg &G) { return G.Name == FP.Name; });
    if (F == Unresolved.end() || In == S.Functions.end() || F->InlinedAt.size() < 2)
      continue;
    std::string Note = "INTCC and ICC: the sum of one call at each of its " +
                       std::to_string(F->InlinedAt.size()) +
                       " inlined call sites (--site K: one call at site K):";
    json Sites = json::array();
    // Each site's copy replaces the one before (one replaced() per site);
    // the function's own level is swapped back after the last.
    FunctionSeg Own = *In;
    AtExit Restore{[&] {
      *In = Own;
      AtSites.replaced(FP.Name);
    }};
    std::vector<std::string> CallsBefore;
    for (unsigned K = 1; K <= F->InlinedAt.size(); ++K) {
      FunctionSeg One = *F;
      std::vector<std::string> W;
      resolveInlinedLevel(S, One, X, K, W);
      // A site whose copy calls what the one before called, in the same
      // order, meets the recursions below it along the same paths: the
      // forms cut there are kept (Predictor::keepCutForms).
      std::vector<std::string> Calls = callSequence(One);
      if (K > 1 && Calls == CallsBefore)
        AtSites.keepCutForms();
      CallsBefore = std::move(Calls);
      *In = std::move(One);
      AtSites.replaced(FP.Name);
      Prediction Q = AtSites.predict({FP.Name});
      const InlinedRef &R = F->InlinedAt[K - 1];
      unsigned Loops = inlinedCallerLoops(S, *F, R);
      json Site = {{"site", K}, {"caller", R.Caller}, {"where", R.Where},
                   {"caller_loops", Loops}, {"levels", json::object()}};
      Note += "\n  site " + std::to_string(K) + " (" + R.Caller +
              (R.Where.empty() ? "" : " at " + R.Where) +
              (Loops ? ", in " + std::to_string(Loops) + " loop(s) of " + R.Caller : "") + "):";
      if (Q.Functions.empty() || Q.Functions[0].Levels.empty())
        Note += " not predicted";
      for (auto &[Lv, L] : Q.Functions.empty() ? decltype(FP.Levels){} : Q.Functions[0].Levels) {
        if (!irLevel(Lv))
          continue;
        const std::string Level = levelKey(Lv);
        std::ostringstream T;
        T << " " << Level << " " << L.TimeS << " s";
        json LJ = {{"time_s", L.TimeS}};
        if (auto C = L.Counts.find("instructions"); C != L.Counts.end()) {
          T << " (" << std::llround(C->second) << " instructions)";
          LJ["instructions"] = C->second;
        }
        Note += T.str();
        Site["levels"][Level] = LJ;
      }
      Sites.push_back(Site);
    }
    FP.Notes.push_back(Note);
    Out[FP.Name] = std::move(Sites);
  }
  return Out;
}

} // namespace segtime
