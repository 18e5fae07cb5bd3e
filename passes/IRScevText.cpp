//===- IRScevText.cpp - SCEV expressions in source names ------------------===//
///
/// \file
/// ScalarEvolution's expressions written in the syntax of core/Seg.h's
/// formulas, in the function's source names (parameters, globals, inlined
/// calls' "<callee>.<parameter>", k_<loop> iteration numbers).
///
//===----------------------------------------------------------------------===//
#include "passes/IRSegBuilder.h"

using namespace llvm;

namespace segtime {
namespace irseg {

std::string ScevText::join(const SCEVNAryExpr *E, const char *Sep, ScevText &T, bool &Ok) {
  std::string S;
  for (const SCEV *Op : E->operands()) {
    auto X = T.str(Op);
    if (!X) {
      Ok = false;
      return "";
    }
    S += (S.empty() ? "" : Sep) + *X;
  }
  return S;
}

std::string ScevText::fold(const SCEVNAryExpr *E, const char *Fn, bool &Ok) {
  std::string S;
  for (const SCEV *Op : E->operands()) {
    auto X = str(Op);
    if (!X) {
      Ok = false;
      return "";
    }
    S = S.empty() ? *X : std::string(Fn) + "(" + S + ", " + *X + ")";
  }
  return S;
}

std::optional<std::pair<std::string, SmallVector<const SCEV *, 4>>>
ScevText::namedSum(const SCEVAddExpr *A) {
  if (!SE)
    return std::nullopt;
  auto SumOf = [&](const Value *V) -> const SCEVAddExpr * {
    if (!SE->isSCEVable(V->getType()))
      return nullptr;
    return dyn_cast<SCEVAddExpr>(SE->getSCEV(const_cast<Value *>(V)));
  };
  if (NamedSumsFor != Named.size()) {
    NamedSums.clear();
    for (const auto &[V, Name] : Named)
      if (const SCEVAddExpr *X = SumOf(V))
        NamedSums.push_back({X, Name});
    NamedSumsFor = Named.size();
  }
  std::vector<std::pair<const SCEVAddExpr *, std::string>> Sums;
  for (const auto &[V, Name] : Context)
    if (const SCEVAddExpr *X = SumOf(V))
      Sums.push_back({X, Name});
  Sums.insert(Sums.end(), NamedSums.begin(), NamedSums.end());
  for (const auto &[X, Name] : Sums) {
      if (X->getType() != A->getType() || X->getNumOperands() > A->getNumOperands())
        continue;
      // A's terms less X's (both sorted by ScalarEvolution's order: a
      // multiset difference by search)
      SmallVector<const SCEV *, 4> Left(A->operands().begin(), A->operands().end());
      bool All = true;
      for (const SCEV *Op : X->operands()) {
        auto It = llvm::find(Left, Op);
        if (It == Left.end()) {
          All = false;
          break;
        }
        Left.erase(It);
      }
      if (All)
        return std::make_pair(Name, std::move(Left));
    }
  return std::nullopt;
}

std::optional<std::string> ScevText::str(const SCEV *S) {
  bool Ok = true;
  std::string R;
  if (auto *C = dyn_cast<SCEVConstant>(S)) {
    const APInt &V = C->getAPInt();
    return V.getBitWidth() <= 64 ? std::to_string(V.getSExtValue()) : std::optional<std::string>();
  }
  if (auto *U = dyn_cast<SCEVUnknown>(S)) {
    if (auto C = Context.find(U->getValue()); C != Context.end())
      return C->second;
    if (auto C = Named.find(U->getValue()); C != Named.end())
      return C->second;
    if (auto *A = dyn_cast<Argument>(U->getValue()))
      if (A->getArgNo() < Params.size() && !Params[A->getArgNo()].empty())
        return Params[A->getArgNo()];
    if (auto *P = dyn_cast<PHINode>(U->getValue()); P && Phi)
      return Phi(P);
    return std::nullopt;
  }
  if (auto *T = dyn_cast<SCEVTruncateExpr>(S)) {
    // trunc to a narrow type is a remainder ((n & 3) is zext(trunc n to i2))
    auto X = str(T->getOperand());
    unsigned W = T->getType()->getIntegerBitWidth();
    if (!X || W > 16)
      return X; // wide truncations (i64 -> i32, masks like & 0x7ffffffc) keep the value
    return "umod(" + *X + ", " + std::to_string(1ull << W) + ")";
  }
  if (auto *C = dyn_cast<SCEVCastExpr>(S))
    return str(C->getOperand()); // zext, sext, ptrtoint: values are non-negative
  if (auto *A = dyn_cast<SCEVAddExpr>(S)) {
    R = "(" + join(A, " + ", *this, Ok) + ")";
    if (!Ok)
      if (auto N = namedSum(A)) {
        // a term has no source name, but the sum holds a named value
        // that ScalarEvolution looked through (the argument of an
        // inlined call, n rounded up to even: trunc(n) + zext(trunc n to
        // i1)): that name, then the other terms
        Ok = true;
        R = N->first;
        for (const SCEV *Op : N->second) {
          auto X = str(Op);
          if (!X)
            return std::nullopt;
          R += " + " + *X;
        }
        if (!N->second.empty())
          R = "(" + R + ")";
      }
  }
  else if (auto *M = dyn_cast<SCEVMulExpr>(S))
    R = join(M, "*", *this, Ok);
  else if (auto *D = dyn_cast<SCEVUDivExpr>(S)) {
    auto L = str(D->getLHS()), Rt = str(D->getRHS());
    if (!L || !Rt)
      return std::nullopt;
    R = "idiv(" + *L + ", " + *Rt + ")";
  } else if (auto *AR = dyn_cast<SCEVAddRecExpr>(S)) {
    // {start,+,step}<L> = start + step * k_L (k_L: iteration number of L)
    auto It = LoopIndex.find(AR->getLoop());
    if (!AR->isAffine() || It == LoopIndex.end())
      return std::nullopt;
    auto St = str(AR->getStart()), Sp = str(AR->getOperand(1));
    if (!St || !Sp)
      return std::nullopt;
    R = "(" + *St + " + " + *Sp + "*" + It->second + ")";
  } else if (isa<SCEVSMaxExpr, SCEVUMaxExpr>(S))
    R = fold(cast<SCEVNAryExpr>(S), "max", Ok);
  else if (isa<SCEVSMinExpr, SCEVUMinExpr, SCEVSequentialUMinExpr>(S))
    R = fold(cast<SCEVNAryExpr>(S), "min", Ok);
  else
    return std::nullopt;
  if (!Ok)
    return std::nullopt;
  // arithmetic in a narrow type wraps: ({1,+,1} in i2 is (k + 1) mod 4)
  if (S->getType()->isIntegerTy() && S->getType()->getIntegerBitWidth() <= 16)
    R = "umod(" + R + ", " + std::to_string(1ull << S->getType()->getIntegerBitWidth()) + ")";
  return R;
}

} // namespace irseg
} // namespace segtime
