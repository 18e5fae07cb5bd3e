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
/// declared outside the loop body and written by an expression that is
/// evaluated in every iteration -- the loop's condition or increment, or
/// a statement of the body that is not inside an `if`, `switch`, `?:`, the
/// right operand of `&&`/`||` or an inner loop -- whose value at the end of
/// the iteration depends on its value at the start through arithmetic,
/// conversions, loads (`p->next`), the arms of `?:` (`lo = x < lo ? x : lo`:
/// the store is unconditional) and other scalars those statements write
/// (Kahan's `y = a[i] - c; t = sum + y; c = (t - sum) - y`: c's chain has
/// three stores and reloads). The longest path counts. A scalar that such a
/// statement overwrites with a value independent of its old one has no
/// chain. Writes under a condition are not followed (the branch predictor
/// breaks the dependence when the store is skipped).
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
/// branches or inner loops); a declaration's initialiser, with its scalar
/// variable in InitOf.
void unconditionalExprs(const Stmt *S, std::vector<const Expr *> &Out,
                        std::map<const Expr *, const VarDecl *> &InitOf) {
  if (!S)
    return;
  if (auto *CS = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *X : CS->body())
      unconditionalExprs(X, Out, InitOf);
  } else if (auto *L = dyn_cast<LabelStmt>(S)) {
    unconditionalExprs(L->getSubStmt(), Out, InitOf);
  } else if (auto *E = dyn_cast<Expr>(S)) {
    Out.push_back(E);
  } else if (auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (auto *V = dyn_cast<VarDecl>(D); V && V->getInit() && !V->isStaticLocal()) {
        Out.push_back(V->getInit());
        if (V->getType()->isScalarType() && !V->getType()->isAnyComplexType())
          InitOf[V->getInit()] = V;
      }
  }
}

} // namespace

/// The longer of two paths (by constructs), or the one there is.
static std::optional<std::vector<std::string>>
longer(std::optional<std::vector<std::string>> A, std::optional<std::vector<std::string>> B) {
  if (!A)
    return B;
  if (!B)
    return A;
  return A->size() >= B->size() ? A : B;
}

std::optional<std::vector<std::string>>
SourceSegBuilder::chainPath(const Expr *E, const ChainDeps &Deps) {
  E = E->IgnoreParens();
  if (auto *C = dyn_cast<CastExpr>(E)) {
    const Expr *Sub = C->getSubExpr();
    QualType From = Sub->getType(), To = C->getType();
    std::optional<std::vector<std::string>> P;
    if (C->getCastKind() == CK_LValueToRValue) {
      // a load: of a scalar on the chain (its reload), or of memory whose
      // address depends on the chain (p->next, a[x], *p)
      if (const VarDecl *Y = namedVar(Sub)) {
        auto It = Deps.find(Y);
        if (It == Deps.end())
          return std::nullopt;
        P = It->second;
      } else {
        P = chainPath(Sub, Deps);
      }
      if (P)
        P->push_back("mem." + memClass(Sub) + ".read");
      return P;
    }
    P = chainPath(Sub, Deps);
    if (!P)
      return std::nullopt;
    switch (C->getCastKind()) {
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
    auto P = longer(chainPath(B->getLHS(), Deps), chainPath(B->getRHS(), Deps));
    if (!P)
      return std::nullopt;
    QualType T = B->getType();
    if (B->getLHS()->getType()->isPointerType() || B->getRHS()->getType()->isPointerType())
      T = Ctx.LongTy;
    std::string Op = arithConstruct(B->getOpcode(), T, B->getLHS()->getType());
    if (!Op.empty())
      P->push_back(Op);
    return P;
  }
  if (auto *U = dyn_cast<UnaryOperator>(E)) {
    auto P = chainPath(U->getSubExpr(), Deps);
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
  if (auto *C = dyn_cast<ConditionalOperator>(E)) {
    // `x[i] < lo ? x[i] : lo`: the value is one arm's, chosen by a predicted
    // branch (its condition is not on the chain); the store of the result
    // is unconditional, so the arm that keeps the old value carries it on.
    return longer(chainPath(C->getTrueExpr(), Deps), chainPath(C->getFalseExpr(), Deps));
  }
  if (auto *M = dyn_cast<MemberExpr>(E))
    return M->isArrow() ? chainPath(M->getBase(), Deps) : std::nullopt;
  if (auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
    auto P = longer(chainPath(A->getBase(), Deps), chainPath(A->getIdx(), Deps));
    if (P)
      P->push_back("i64.add"); // the address
    return P;
  }
  return std::nullopt; // variables not on the chain, calls, assignments inside
}

/// Whether statement S refers to variable V.
static bool mentions(const Stmt *S, const VarDecl *V) {
  if (!S)
    return false;
  if (auto *DR = dyn_cast<DeclRefExpr>(S); DR && DR->getDecl() == V)
    return true;
  for (const Stmt *C : S->children())
    if (mentions(C, V))
      return true;
  return false;
}

bool SourceSegBuilder::restartsBefore(const VarDecl *V, const Stmt *S, const Stmt *Init,
                                      const Stmt *Enclosing) {
  if (!Enclosing)
    return false;
  auto In = [&](SourceLocation Loc, const Stmt *X) {
    SourceLocation B = SM.getExpansionLoc(X->getBeginLoc());
    SourceLocation E = SM.getExpansionLoc(X->getEndLoc());
    Loc = SM.getExpansionLoc(Loc);
    return (B == Loc || SM.isBeforeInTranslationUnit(B, Loc)) &&
           (Loc == E || SM.isBeforeInTranslationUnit(Loc, E));
  };
  // Declared in the enclosing body (`double s = c[d];`, `for (int j = ...)`):
  // a new variable in each of its iterations.
  if (In(V->getLocation(), Enclosing))
    return true;
  // Assigned a value independent of its old one, unconditionally, before S
  // in the enclosing body (`s = 0;`), or in S's own initialisation.
  std::vector<const Expr *> Exprs;
  std::map<const Expr *, const VarDecl *> InitOf;
  unconditionalExprs(Enclosing, Exprs, InitOf);
  if (auto *IE = dyn_cast_or_null<Expr>(Init))
    Exprs.push_back(IE);
  SourceLocation Start = SM.getExpansionLoc(S->getBeginLoc());
  bool Fresh = false;
  for (const Expr *X : Exprs) {
    if (X != Init && !SM.isBeforeInTranslationUnit(SM.getExpansionLoc(X->getEndLoc()), Start))
      continue;
    forEachUpdate(X, [&](const Expr *U) {
      auto *B = dyn_cast<BinaryOperator>(U);
      const Expr *T = B ? B->getLHS() : llvm::cast<UnaryOperator>(U)->getSubExpr();
      if (namedVar(T) != V)
        return;
      // a plain assignment from other values starts afresh; any other
      // update (s += x, s++, s = s * c) carries the old value on
      Fresh = B && B->getOpcode() == BO_Assign && !mentions(B->getRHS(), V);
    });
  }
  return Fresh;
}

void SourceSegBuilder::recordChains(Node &L, const Stmt *S, const Stmt *Init, const Stmt *Body,
                                    const Expr *Cond, const Expr *Inc) {
  std::vector<const Expr *> Exprs;
  std::map<const Expr *, const VarDecl *> InitOf;
  if (Cond)
    Exprs.push_back(Cond);
  unconditionalExprs(Body, Exprs, InitOf);
  if (Inc)
    Exprs.push_back(Inc);
  // The writes of one iteration, in order: the scalar, the expression that
  // writes it (an assignment, an increment, or a declaration's initialiser).
  struct Write {
    const VarDecl *V;
    const Expr *E;
    bool Init;
  };
  std::vector<Write> Writes;
  for (const Expr *X : Exprs) {
    forEachUpdate(X, [&](const Expr *U) {
      const Expr *Target = isa<BinaryOperator>(U) ? llvm::cast<BinaryOperator>(U)->getLHS()
                                                  : llvm::cast<UnaryOperator>(U)->getSubExpr();
      if (const VarDecl *V = namedVar(Target); V && V->getType()->isScalarType() &&
                                               !V->getType()->isAnyComplexType())
        Writes.push_back({V, U, false});
    });
    if (auto It = InitOf.find(X); It != InitOf.end())
      Writes.push_back({It->second, X, true});
  }
  auto Outside = [&](const VarDecl *V) {
    if (!Body)
      return true;
    SourceLocation Loc = SM.getExpansionLoc(V->getLocation());
    SourceLocation B = SM.getExpansionLoc(Body->getBeginLoc());
    SourceLocation E = SM.getExpansionLoc(Body->getEndLoc());
    return !(SM.isBeforeInTranslationUnit(B, Loc) && SM.isBeforeInTranslationUnit(Loc, E));
  };
  std::vector<const VarDecl *> Candidates;
  for (const Write &W : Writes)
    if (!W.Init && Outside(W.V) &&
        std::find(Candidates.begin(), Candidates.end(), W.V) == Candidates.end())
      Candidates.push_back(W.V);
  for (const VarDecl *C : Candidates) {
    // The scalars whose value depends on C's value at the start of the
    // iteration, each with the path from it, write by write.
    ChainDeps Deps{{C, {}}};
    for (const Write &W : Writes) {
      const VarDecl *V = W.V;
      const Expr *U = W.E;
      std::optional<std::vector<std::string>> P;
      std::string Cls = "mem." + std::string(V->hasLocalStorage() ? "local" : "global");
      auto Old = [&]() -> std::optional<std::vector<std::string>> {
        auto It = Deps.find(V);
        if (It == Deps.end())
          return std::nullopt;
        std::vector<std::string> R = It->second;
        R.push_back(Cls + ".read");
        return R;
      };
      if (W.Init) {
        P = chainPath(U, Deps);
      } else if (auto *B = dyn_cast<BinaryOperator>(U)) {
        if (B->getOpcode() == BO_Assign) {
          P = chainPath(B->getRHS(), Deps);
        } else {
          // V op= e: the operation on V's value (in the computation type)
          P = longer(Old(), chainPath(B->getRHS(), Deps));
          if (P) {
            auto *CA = llvm::cast<CompoundAssignOperator>(B);
            QualType CT = CA->getComputationResultType(), LT = B->getLHS()->getType();
            bool Convert = typeOf(CT) != typeOf(LT) && !LT->isPointerType();
            if (Convert)
              P->push_back(conversion(LT, CT));
            std::string Op =
                arithConstruct(B->getOpcode(), LT->isPointerType() ? Ctx.LongTy : CT, CT);
            if (!Op.empty())
              P->push_back(Op);
            if (Convert)
              P->push_back(conversion(CT, LT));
          }
        }
      } else {
        auto *Un = llvm::cast<UnaryOperator>(U);
        P = Old();
        if (P)
          P->push_back(typeOf(Un->getSubExpr()->getType()) +
                       (Un->isIncrementOp() ? ".add" : ".sub"));
      }
      if (P) {
        P->push_back(Cls + ".write");
        Deps[V] = std::move(*P);
      } else {
        Deps.erase(V); // overwritten with a value independent of C
      }
    }
    auto It = Deps.find(C);
    if (It == Deps.end() || It->second.empty())
      continue; // not written from its own value
    Ruv R;
    for (const std::string &Op : It->second)
      R.add(Op, 1);
    // A chain that starts afresh in each iteration of the enclosing loop:
    // consecutive executions of this loop are independent chains.
    if (restartsBefore(C, S, Init, LoopBodies.empty() ? nullptr : LoopBodies.back()))
      R.add("restart", 1);
    std::string Key = "chain." + typeOf(C->getType()) + ":" + C->getNameAsString();
    if (!L.Ruvs.count(Key))
      L.Ruvs[Key] = R;
  }
}

} // namespace segtime
