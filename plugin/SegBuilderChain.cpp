//===- SegBuilderChain.cpp - Loop-carried scalar chains at -O0 ------------===//
///
/// \file
/// At -O0 clang keeps every scalar in its stack slot (or global): a scalar
/// that a loop iteration updates from its own previous value (`s += a[i]`,
/// `x = x*c + d`, the counter `i++`, `p = p->next`) is a chain load -> the
/// operations on its value -> store -> (store-to-load forwarding) -> load in
/// the next iteration, and an iteration cannot be shorter than that chain.
/// The builder records each such chain on the loop node as one RUV-like
/// entry `chain.<type>:<name>` (docs/seg-json.md "Loop-carried chains"):
/// the constructs on the chain, the scalar's own reload and store included.
/// The HLLC model takes max(construct time, chain latency) per iteration
/// (docs/models.md "HLLC at -O0: loop-carried chains"). With optimisation
/// the scalars live in registers and nothing is recorded.
///
/// What counts as a chain: a scalar variable (arithmetic or pointer type)
/// declared outside the loop body, updated by an expression that is
/// evaluated in every iteration -- the loop's condition or increment, or
/// a statement of the body that is not inside an `if`, `switch`, `?:`, the
/// right operand of `&&`/`||` or an inner loop -- whose new value depends
/// on its old one through arithmetic, conversions and loads (`p->next`).
/// A scalar that such a statement overwrites with a value independent of its
/// old one has no chain. Writes under a condition are not chains (the
/// branch predictor breaks the dependence when the store is skipped).
///
//===----------------------------------------------------------------------===//
#include "plugin/SourceSegBuilder.h"

#include "clang/AST/ASTContext.h"

using namespace clang;

namespace segtime {

namespace {

/// The variable an lvalue expression names directly, or nullptr.
const VarDecl *namedVar(const Expr *E) {
  if (auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    return dyn_cast<VarDecl>(DR->getDecl());
  return nullptr;
}

/// Calls F on every assignment, compound assignment and increment or
/// decrement in E that runs whenever E runs (not in the arms of `?:`, nor
/// the right operand of `&&`, `||`), innermost first.
void forEachUpdate(const Expr *E, const std::function<void(const Expr *)> &F) {
  if (!E)
    return;
  E = E->IgnoreParens();
  if (auto *C = dyn_cast<ConditionalOperator>(E)) {
    forEachUpdate(C->getCond(), F);
    return;
  }
  if (auto *B = dyn_cast<BinaryOperator>(E); B && B->isLogicalOp()) {
    forEachUpdate(B->getLHS(), F);
    return;
  }
  if (isa<StmtExpr>(E))
    return;
  for (const Stmt *Child : E->children())
    if (auto *CE = dyn_cast_or_null<Expr>(Child))
      forEachUpdate(CE, F);
  if (auto *B = dyn_cast<BinaryOperator>(E); B && B->isAssignmentOp())
    F(E);
  else if (auto *U = dyn_cast<UnaryOperator>(E); U && U->isIncrementDecrementOp())
    F(E);
}

/// The statements of Body that run in every iteration: the body itself or
/// the statements of its compound blocks, recursively (not those inside
/// branches or inner loops).
void unconditionalExprs(const Stmt *S, std::vector<const Expr *> &Out) {
  if (!S)
    return;
  if (auto *CS = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *X : CS->body())
      unconditionalExprs(X, Out);
  } else if (auto *L = dyn_cast<LabelStmt>(S)) {
    unconditionalExprs(L->getSubStmt(), Out);
  } else if (auto *E = dyn_cast<Expr>(S)) {
    Out.push_back(E);
  } else if (auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (auto *V = dyn_cast<VarDecl>(D); V && V->getInit() && !V->isStaticLocal())
        Out.push_back(V->getInit());
  }
}

} // namespace

std::optional<std::vector<std::string>> SourceSegBuilder::chainPath(const Expr *E,
                                                                    const VarDecl *V) {
  E = E->IgnoreParens();
  if (auto *DR = dyn_cast<DeclRefExpr>(E)) {
    if (DR->getDecl() == V)
      return std::vector<std::string>{};
    return std::nullopt;
  }
  if (auto *C = dyn_cast<CastExpr>(E)) {
    const Expr *Sub = C->getSubExpr();
    auto P = chainPath(Sub, V);
    if (!P)
      return std::nullopt;
    QualType From = Sub->getType(), To = C->getType();
    switch (C->getCastKind()) {
    case CK_LValueToRValue:
      // a load: of V itself (the chain's reload, counted once per update),
      // or of memory whose address depends on V (p->next, a[x], *p)
      if (namedVar(Sub) != V)
        P->push_back("mem." + memClass(Sub) + ".read");
      break;
    case CK_IntegralToFloating:
      P->push_back("cvt.i2f");
      break;
    case CK_FloatingToIntegral:
      P->push_back("cvt.f2i");
      break;
    case CK_FloatingCast:
      if (typeOf(From) != typeOf(To))
        P->push_back("cvt.f2f");
      break;
    case CK_IntegralCast:
      if (Ctx.getTypeSize(From) != Ctx.getTypeSize(To) && !To->isBooleanType())
        P->push_back("cvt.i2i");
      break;
    default:
      break;
    }
    return P;
  }
  if (auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->isAssignmentOp() || B->isLogicalOp() || B->getOpcode() == BO_Comma)
      return std::nullopt;
    auto L = chainPath(B->getLHS(), V), R = chainPath(B->getRHS(), V);
    if (!L && !R)
      return std::nullopt;
    std::vector<std::string> P = L && (!R || L->size() >= R->size()) ? *L : *R;
    QualType T = B->getType();
    if (B->getLHS()->getType()->isPointerType() || B->getRHS()->getType()->isPointerType())
      T = Ctx.LongTy;
    std::string Op = arithConstruct(B->getOpcode(), T, B->getLHS()->getType());
    if (!Op.empty())
      P.push_back(Op);
    return P;
  }
  if (auto *U = dyn_cast<UnaryOperator>(E)) {
    auto P = chainPath(U->getSubExpr(), V);
    if (!P)
      return std::nullopt;
    switch (U->getOpcode()) {
    case UO_Minus:
      P->push_back(typeOf(U->getType()) + ".sub");
      break;
    case UO_Not:
      P->push_back(typeOf(U->getType()) + ".bit");
      break;
    case UO_LNot:
      P->push_back(typeOf(U->getSubExpr()->getType()) + ".cmp");
      break;
    case UO_Deref:
    case UO_Plus:
      break; // *p is an lvalue: its load is the enclosing cast's
    default:
      return std::nullopt;
    }
    return P;
  }
  if (auto *M = dyn_cast<MemberExpr>(E))
    return chainPath(M->getBase(), V);
  if (auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
    auto Bs = chainPath(A->getBase(), V), Ix = chainPath(A->getIdx(), V);
    if (!Bs && !Ix)
      return std::nullopt;
    std::vector<std::string> P = Bs && (!Ix || Bs->size() >= Ix->size()) ? *Bs : *Ix;
    P.push_back("i64.add"); // the address
    return P;
  }
  return std::nullopt; // calls, ?:, assignments inside: not followed
}

void SourceSegBuilder::recordChains(Node &L, const Stmt *Body, const Expr *Cond,
                                    const Expr *Inc) {
  std::vector<const Expr *> Exprs;
  if (Cond)
    Exprs.push_back(Cond);
  unconditionalExprs(Body, Exprs);
  if (Inc)
    Exprs.push_back(Inc);
  // Per scalar, in order of first update: its chain's constructs, or
  // nullopt once an update does not depend on the old value.
  std::vector<const VarDecl *> Order;
  std::map<const VarDecl *, std::optional<Ruv>> Chains;
  auto Outside = [&](const VarDecl *V) {
    if (!Body)
      return true;
    SourceLocation Loc = SM.getExpansionLoc(V->getLocation());
    SourceLocation B = SM.getExpansionLoc(Body->getBeginLoc());
    SourceLocation E = SM.getExpansionLoc(Body->getEndLoc());
    return !(SM.isBeforeInTranslationUnit(B, Loc) && SM.isBeforeInTranslationUnit(Loc, E));
  };
  for (const Expr *X : Exprs)
    forEachUpdate(X, [&](const Expr *U) {
      const Expr *Target = nullptr;
      std::optional<std::vector<std::string>> Path;
      if (auto *B = dyn_cast<BinaryOperator>(U)) {
        Target = B->getLHS();
        const VarDecl *V = namedVar(Target);
        if (!V)
          return;
        if (B->getOpcode() == BO_Assign) {
          Path = chainPath(B->getRHS(), V);
        } else {
          // V op= e: the operation on V's value (in the computation type)
          Path = std::vector<std::string>{};
          auto *CA = llvm::cast<CompoundAssignOperator>(B);
          QualType CT = CA->getComputationResultType(), LT = Target->getType();
          bool Convert = typeOf(CT) != typeOf(LT) && !LT->isPointerType();
          if (Convert)
            Path->push_back(conversion(LT, CT));
          std::string Op = arithConstruct(B->getOpcode(), LT->isPointerType() ? Ctx.LongTy : CT, CT);
          if (!Op.empty())
            Path->push_back(Op);
          if (Convert)
            Path->push_back(conversion(CT, LT));
        }
      } else {
        auto *Un = llvm::cast<UnaryOperator>(U);
        Target = Un->getSubExpr();
        if (!namedVar(Target))
          return;
        Path = std::vector<std::string>{typeOf(Target->getType()) +
                                        (Un->isIncrementOp() ? ".add" : ".sub")};
      }
      const VarDecl *V = namedVar(Target);
      QualType T = V->getType();
      if (!T->isScalarType() || T->isAnyComplexType() || !Outside(V))
        return;
      auto It = Chains.find(V);
      if (It == Chains.end()) {
        Order.push_back(V);
        It = Chains.emplace(V, Ruv()).first;
      }
      if (!It->second)
        return;
      if (!Path) { // overwritten: no chain through this scalar
        It->second.reset();
        return;
      }
      std::string Cls = V->hasLocalStorage() ? "local" : "global";
      It->second->add("mem." + Cls + ".read", 1);
      for (const std::string &Op : *Path)
        It->second->add(Op, 1);
      It->second->add("mem." + Cls + ".write", 1);
    });
  for (const VarDecl *V : Order)
    if (const std::optional<Ruv> &R = Chains[V]) {
      std::string Key = "chain." + typeOf(V->getType()) + ":" + V->getNameAsString();
      if (!L.Ruvs.count(Key))
        L.Ruvs[Key] = *R;
    }
}

} // namespace segtime
