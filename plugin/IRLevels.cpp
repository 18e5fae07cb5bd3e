//===- IRLevels.cpp - The IR passes' results put into the SEG file --------===//
///
/// \file
/// The plugin's side of core/MergeIR.h (names from the compile, the
/// predictor's expression algebra) and the IR level of functions whose
/// every call was inlined (plugin/IRLevels.h).
///
//===----------------------------------------------------------------------===//
#include "plugin/IRLevels.h"
#include "predictor/ExprText.h"

#include "llvm/ADT/STLExtras.h"

#include <functional>
#include <set>

namespace segtime {

void mergeIR(std::vector<std::string> &Warnings, FunctionSeg &F, IRFunctionSeg &IR,
             const std::map<std::string, std::string> &SourceNames,
             const std::map<std::string, std::vector<std::string>> &ParamNames) {
  MergeIRServices S;
  S.SourceNames = &SourceNames;
  S.ParamName = [&](const std::string &Callee, unsigned K) {
    return calleeParamName(ParamNames, Callee, K);
  };
  S.Simplify = simplifyExprText;
  S.SameValue = sameValue;
  S.ValueRatio = valueRatio;
  segtime::mergeIR(Warnings, F, std::move(IR.Seg), IR.Parameters, IR.Inlined, S);
}

void mergeIRFile(SegFile &File, const IRCollection &C) {
  File.Targets = C.TargetInfo;
  for (const std::string &E : C.Errors)
    File.Warnings.push_back("segtime: " + E);
}

InlinedCopy copyInlined(const IRFunctionSeg &IR, const InlinedSite &S) {
  InlinedCopy C{IR.Name, S, {}, {}};
  std::function<void(const NodeList &)> Walk = [&](const NodeList &L) {
    for (size_t I = 0; I < L.size(); ++I) {
      if (!llvm::is_contained(S.Nodes, L[I].Id)) {
        Walk(L[I].Body);
        for (const Arm &A : L[I].Arms)
          Walk(A.Body);
        continue;
      }
      C.Nodes.push_back(L[I]);
      // Edge stages (<id>e<to>) and a final loop test (<id>t) go with it.
      while (I + 1 < L.size() &&
             (L[I + 1].Id.rfind(L[I].Id + "e", 0) == 0 || L[I + 1].Id == L[I].Id + "t") &&
             !llvm::is_contained(S.Nodes, L[I + 1].Id))
        C.Nodes.push_back(L[++I]);
    }
  };
  Walk(IR.Seg);
  std::string Texts;
  for (Node &N : C.Nodes)
    forEachText(N, [&](std::string &T) { Texts += T + " "; });
  for (const Parameter &P : IR.Parameters)
    if (containsWord(Texts, P.Name))
      C.Parameters.push_back(P);
  return C;
}

/// The IR-level SEG of a function that has no code of its own (every call
/// to it inlined) from the copies of its inlined calls: one call, as the
/// mean of its K call sites (each site's code in the order of the copies,
/// its top-level frequencies divided by K; they stay relative to the
/// enclosing region of the caller, 1 for a call in straight-line code or
/// unconditional in a loop body). Per call, as the source levels and the
/// IR level of a function with code of its own are; the caller's own IR
/// level counts each site's code where it runs. The callee's
/// arguments ("kernel.n") become its parameters (n, bound to themselves by
/// Own: core/Link.h bindCalleeNames); a loop count the
/// caller could not give, N_<caller>_<line>, becomes N_<callee>_<line>, so
/// that mergeIR can take the source loop's count for it. With several
/// calls, node ids get the prefix "c<k>_".
IRFunctionSeg inlinedSeg(const std::string &Callee, const std::string &SourceName,
                         const std::vector<CallBinding> &Own, std::vector<InlinedCopy> &Copies) {
  IRFunctionSeg R;
  R.Name = Callee;
  std::set<std::string> ParamNames;
  for (size_t K = 0; K < Copies.size(); ++K) {
    InlinedCopy &C = Copies[K];
    std::map<std::string, std::string> Rename;
    for (Parameter P : C.Parameters) {
      std::string Own = "N_" + C.Caller + "_";
      if (P.Name.rfind(Own, 0) == 0) {
        std::string New = "N_" + Callee + "_" + P.Name.substr(Own.size());
        Rename[P.Name] = New;
        P.Name = New;
      }
      if (ParamNames.insert(P.Name).second)
        R.Parameters.push_back(P);
    }
    std::string Prefix = Copies.size() > 1 ? "c" + std::to_string(K + 1) + "_" : "";
    std::function<void(Node &)> Ids = [&](Node &N) {
      N.Id = Prefix + N.Id;
      for (MemStream &M : N.Streams)
        for (MemStream::Step &St : M.Loops)
          St.Loop = Prefix + St.Loop;
      for (Node &X : N.Body)
        Ids(X);
      for (Arm &A : N.Arms)
        for (Node &X : A.Body)
          Ids(X);
    };
    for (Node &N : C.Nodes) {
      forEachText(N, [&](std::string &T) {
        T = bindCalleeNames(T, SourceName, Own);
        for (auto &[From, To] : Rename)
          T = replaceWord(T, From, To);
      });
      if (!Prefix.empty()) {
        Ids(N);
        std::string K = std::to_string(Copies.size());
        N.Freq = N.Freq.empty() ? "1/" + K : "(" + N.Freq + ")/" + K;
      }
      R.Seg.push_back(std::move(N));
    }
    R.Notes.push_back("code of the call at " + C.Site.Where + " (inlined into '" + C.Caller + "')");
  }
  return R;
}

} // namespace segtime
