//===- StmtFinders.cpp - AST queries of the SEG builder -------------------===//
///
/// \file
/// MutationFinder and ExitFinder (plugin/StmtFinders.h).
///
//===----------------------------------------------------------------------===//
#include "plugin/StmtFinders.h"

using namespace clang;

namespace segtime {

const VarDecl *MutationFinder::target(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (auto *DR = dyn_cast<DeclRefExpr>(E))
    return dyn_cast<VarDecl>(DR->getDecl());
  return nullptr;
}

bool MutationFinder::VisitBinaryOperator(BinaryOperator *B) {
  if (B->isAssignmentOp())
    if (auto *V = target(B->getLHS()))
      Mutated.insert(V);
  return true;
}

bool MutationFinder::VisitUnaryOperator(UnaryOperator *U) {
  if (Ignore && Ignore->count(U))
    return true;
  if (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf)
    if (auto *V = target(U->getSubExpr()))
      Mutated.insert(V);
  return true;
}

bool ExitFinder::hasExit(const Stmt *Body) {
  auto It = Exits.find(Body);
  if (It != Exits.end())
    return It->second;
  Parent = nullptr;
  TraverseStmt(const_cast<Stmt *>(Body));
  return Exits.lookup(Body);
}

bool ExitFinder::TraverseStmt(Stmt *S) {
  if (!S)
    return true;
  Flags Outer = std::move(Cur);
  const Stmt *OuterParent = Parent;
  Cur = Flags();
  Parent = S;
  bool R = RecursiveASTVisitor::TraverseStmt(S);
  Parent = OuterParent;
  // A break inside S leaves S's loop unless a loop or switch within S
  // (S included) encloses it.
  bool Inner = isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt>(S);
  bool FreeBreak = Cur.FreeBreak && !Inner;
  // A goto to a label within S stays within S.
  for (const LabelDecl *L : Cur.Labels)
    Cur.Gotos.erase(L);
  if (!Parent || isBodyOf(S, Parent))
    Exits[S] = FreeBreak || Cur.Leaves || !Cur.Gotos.empty();
  Outer.FreeBreak |= FreeBreak;
  Outer.Leaves |= Cur.Leaves;
  Outer.Gotos.insert(Cur.Gotos.begin(), Cur.Gotos.end());
  Outer.Labels.insert(Cur.Labels.begin(), Cur.Labels.end());
  Cur = std::move(Outer);
  return R;
}

bool ExitFinder::isBodyOf(const Stmt *S, const Stmt *Loop) {
  if (auto *F = dyn_cast<ForStmt>(Loop))
    return F->getBody() == S;
  if (auto *W = dyn_cast<WhileStmt>(Loop))
    return W->getBody() == S;
  if (auto *D = dyn_cast<DoStmt>(Loop))
    return D->getBody() == S;
  if (auto *R = dyn_cast<CXXForRangeStmt>(Loop))
    return R->getBody() == S;
  return false;
}

} // namespace segtime
