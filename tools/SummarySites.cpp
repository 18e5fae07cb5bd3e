//===- SummarySites.cpp - The compile-time summary per inlined site -------===//
///
/// \file
/// segtime predict --summary for files with functions that have no code of
/// their own (inlined everywhere): the summary of the file as read, then
/// each such function's ICC line from its inlined call sites, per site,
/// as segtime predict gives them (docs/cli.md "Inlined functions").
///
//===----------------------------------------------------------------------===//
#include "core/InlinedLevels.h"
#include "core/MergeIR.h"
#include "predictor/Install.h"
#include "predictor/Predict.h"
#include "predictor/PredictedSpeed.h"

#include <algorithm>
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

} // namespace segtime
