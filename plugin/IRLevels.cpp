//===- IRLevels.cpp - The IR passes' results put into the SEG file --------===//
///
/// \file
/// The plugin's side of core/MergeIR.h (names from the compile, the
/// predictor's expression algebra) and the references to the code of the
/// calls of functions whose every call was inlined (plugin/IRLevels.h).
///
//===----------------------------------------------------------------------===//
#include "plugin/IRLevels.h"
#include "core/InlinedLevels.h"
#include "predictor/ExprText.h"

#include "llvm/ADT/STLExtras.h"

#include <functional>

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

InlinedRef inlinedRef(const IRFunctionSeg &IR, const InlinedSite &S, const std::string &Caller) {
  InlinedRef R{Caller, S.Where, {}};
  std::function<void(const NodeList &)> Walk = [&](const NodeList &L) {
    for (size_t I = 0; I < L.size(); ++I) {
      if (!llvm::is_contained(S.Nodes, L[I].Id)) {
        Walk(L[I].Body);
        for (const Arm &A : L[I].Arms)
          Walk(A.Body);
        continue;
      }
      R.Nodes.push_back(L[I].Id);
      // Edge stages (<id>e<to>) and a final loop test (<id>t) go with it.
      while (I + 1 < L.size() &&
             (L[I + 1].Id.rfind(L[I].Id + "e", 0) == 0 || L[I + 1].Id == L[I].Id + "t") &&
             !llvm::is_contained(S.Nodes, L[I + 1].Id))
        R.Nodes.push_back(L[++I].Id);
    }
  };
  Walk(IR.Seg);
  R.Runs = inlinedSiteRuns(IR.Seg, R.Nodes);
  return R;
}

} // namespace segtime
