//===- SegBuilderStmt.cpp - Statements and loops in the source-level SEG --===//
///
/// \file
/// The builder's statements (plugin/SourceSegBuilder.h): compound
/// statements (with guard clauses as branches), declarations, loops
/// (`for` loops in canonical form get a symbolic trip count in source
/// names, other loops a parameter N_<function>_<line>), if and switch
/// (branches with probability parameters P_<function>_<line>), and what
/// is not characterised (goto, inline assembly).
///
//===----------------------------------------------------------------------===//
#include "plugin/SourceSegBuilder.h"
#include "predictor/ExprText.h"

#include "clang/AST/ASTContext.h"

using namespace clang;

namespace segtime {

std::optional<SourceSegBuilder::Canonical> SourceSegBuilder::canonical(const ForStmt *F) {
  Canonical C;
  const Expr *InitE = nullptr;
  if (auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit())) {
    if (!DS->isSingleDecl())
      return std::nullopt;
    auto *V = dyn_cast<VarDecl>(DS->getSingleDecl());
    if (!V || !V->getInit())
      return std::nullopt;
    C.Index = V;
    InitE = V->getInit();
  } else if (auto *B = dyn_cast_or_null<BinaryOperator>(F->getInit())) {
    if (B->getOpcode() != BO_Assign)
      return std::nullopt;
    C.Index = refTo(B->getLHS());
    InitE = B->getRHS();
  }
  if (!C.Index || !C.Index->getType()->isIntegerType() || !F->getCond() || !F->getInc())
    return std::nullopt;
  const Stmt *Body = F->getBody();
  if (mutatedIn(C.Index, Body))
    return std::nullopt;
  auto Start = toExpr(InitE, F);
  if (!Start)
    return std::nullopt;
  C.Start = *Start;
  // increment
  const Expr *Inc = F->getInc()->IgnoreParens();
  long Dir = 0;
  std::string StepS;
  if (auto *U = dyn_cast<UnaryOperator>(Inc)) {
    if (!U->isIncrementDecrementOp() || refTo(U->getSubExpr()) != C.Index)
      return std::nullopt;
    Dir = U->isIncrementOp() ? 1 : -1;
    StepS = "1";
  } else if (auto *B = dyn_cast<BinaryOperator>(Inc)) {
    if (refTo(B->getLHS()) != C.Index)
      return std::nullopt;
    const Expr *R = B->getRHS();
    BinaryOperatorKind K = B->getOpcode();
    if (K == BO_Assign) { // i = i + s, i = i * s
      auto *RB = dyn_cast<BinaryOperator>(R->IgnoreParenImpCasts());
      if (!RB || refTo(RB->getLHS()) != C.Index)
        return std::nullopt;
      K = RB->getOpcode() == BO_Add   ? BO_AddAssign
          : RB->getOpcode() == BO_Sub ? BO_SubAssign
          : RB->getOpcode() == BO_Mul ? BO_MulAssign
                                      : BO_Comma;
      R = RB->getRHS();
    }
    if (mutatedIn(C.Index, R))
      return std::nullopt;
    auto S = toExpr(R, F);
    if (!S)
      return std::nullopt;
    StepS = *S;
    if (K == BO_AddAssign || K == BO_SubAssign) {
      Dir = K == BO_AddAssign ? 1 : -1;
      Expr::EvalResult ER;
      if (R->EvaluateAsInt(ER, Ctx)) {
        long V = ER.Val.getInt().getSExtValue();
        if (V == 0)
          return std::nullopt;
        if (V < 0) {
          Dir = -Dir;
          StepS = std::to_string(-V);
        }
      }
    } else if (K == BO_MulAssign || K == BO_ShlAssign) {
      Expr::EvalResult ER;
      if (!R->EvaluateAsInt(ER, Ctx))
        return std::nullopt;
      long V = ER.Val.getInt().getSExtValue();
      if (K == BO_ShlAssign)
        V = 1L << V;
      if (V < 2)
        return std::nullopt;
      C.StepKind = "mul";
      StepS = std::to_string(V);
      Dir = 1;
    } else {
      return std::nullopt;
    }
  } else {
    return std::nullopt;
  }
  C.Step = Dir < 0 ? "(-" + StepS + ")" : StepS;
  // condition: index REL bound (or bound REL index)
  auto *Cmp = dyn_cast<BinaryOperator>(F->getCond()->IgnoreParenImpCasts());
  if (!Cmp || !(Cmp->isRelationalOp() || Cmp->getOpcode() == BO_NE))
    return std::nullopt;
  BinaryOperatorKind K = Cmp->getOpcode();
  const Expr *BoundE = nullptr;
  if (refTo(Cmp->getLHS()) == C.Index) {
    BoundE = Cmp->getRHS();
  } else if (refTo(Cmp->getRHS()) == C.Index) {
    BoundE = Cmp->getLHS();
    K = K == BO_LT ? BO_GT : K == BO_GT ? BO_LT : K == BO_LE ? BO_GE : K == BO_GE ? BO_LE : K;
  } else {
    return std::nullopt;
  }
  if (mutatedIn(C.Index, BoundE))
    return std::nullopt;
  auto BoundS = toExpr(BoundE, F);
  if (!BoundS)
    return std::nullopt;
  const std::string &A = C.Start, &Bd = *BoundS;
  bool Unit = StepS == "1";
  if (C.StepKind == "mul") {
    if (K == BO_LT)
      C.Trip = "ltrip(" + A + ", " + Bd + ", " + StepS + ")";
    else if (K == BO_LE)
      C.Trip = "ltrip(" + A + ", " + Bd + " + 1, " + StepS + ")";
    else
      return std::nullopt;
  } else {
    // Iterations of an additive loop from its start towards the bound: the
    // distance Hi - Lo (inclusive bounds add one), rounded up to steps.
    bool Up = Dir > 0;
    if (Up ? K != BO_LT && K != BO_LE && K != BO_NE : K != BO_GT && K != BO_GE && K != BO_NE)
      return std::nullopt; // e.g. increasing index with '>': runs 0 times or forever
    bool Inclusive = K == BO_LE || K == BO_GE;
    std::string Dist = Up ? Bd + " - " + A : A + " - " + Bd;
    if (Unit)
      C.Trip = Inclusive ? Dist + " + 1" : Dist;
    else if (K == BO_NE)
      C.Trip = "idiv(" + Dist + ", " + StepS + ")";
    else
      C.Trip = "idiv(" + Dist + " + " + StepS + (Inclusive ? "" : " - 1") + ", " + StepS + ")";
  }
  return C;
}

/// Emits a Loop node. Cond/Inc are counted per iteration unless the loop is
/// canonical (then the `loop` construct covers test, increment and branch).
void SourceSegBuilder::loop(const Stmt *S, const std::string &Kind, const Stmt *Init,
                            const Expr *Cond, const Expr *Inc, const Stmt *Body,
                            std::optional<Canonical> C, const std::function<void()> &PerIteration) {
  if (Init)
    stmt(Init);
  Node L;
  L.Kind = NodeKind::Loop;
  L.Id = newId();
  L.Range = range(S->getSourceRange());
  L.LoopKind = Kind;
  bool Exits = ExitsOf.hasExit(Body);
  if (C && !Exits) {
    L.Index = C->Index->getNameAsString();
    L.Start = simplifyExprText(C->Start);
    L.Step = simplifyExprText(C->Step);
    L.StepKind = C->StepKind;
    L.Trip = simplifyExprText(C->Trip);
  } else {
    std::string Why = C ? "leaves early (break/return/goto)" : "is not a counted loop";
    L.Trip = addParam("N", S->getBeginLoc(), "loop", std::nullopt, "none",
                      "iterations of the " + Kind + " loop (" + Why + ")");
  }
  within(L.Body, [&] {
    CurRange = S->getSourceRange();
    op("loop");
    if (!(C && !Exits)) {
      if (Cond)
        expr(Cond);
      if (Inc)
        expr(Inc);
    }
    if (PerIteration)
      PerIteration();
    CurRange = clang::SourceRange();
    close();
    if (C && !Exits)
      Indices.push_back(C->Index);
    LoopBodies.push_back(Body);
    stmt(Body);
    LoopBodies.pop_back();
    if (C && !Exits)
      Indices.pop_back();
  });
  // At -O0 every scalar lives in memory: record the loop-carried chains.
  if (!Ctx.getLangOpts().Optimize)
    recordChains(L, S, Init, Body, Cond, Inc);
  push(std::move(L));
}

void SourceSegBuilder::compound(llvm::ArrayRef<Stmt *> Stmts) {
  for (size_t I = 0; I < Stmts.size(); ++I) {
    const Stmt *S = Stmts[I];
    // Guard clause: "if (c) { ...; return; }" without else runs the rest
    // of the block only when c is false (Warwick-94 Table 3, P_edge).
    if (auto *If = dyn_cast<IfStmt>(S); If && !If->getElse() && I + 1 < Stmts.size() &&
                                        !If->getInit() && !If->getConditionVariable()) {
      const Stmt *Then = If->getThen();
      const Stmt *Last = Then;
      if (auto *CS = dyn_cast<CompoundStmt>(Then); CS && !CS->body_empty())
        Last = CS->body_back();
      if (isa<ReturnStmt>(Last)) {
        llvm::ArrayRef<Stmt *> Rest = Stmts.drop_front(I + 1);
        twoArmBranch(If, If->getCond(), [&] { stmt(Then); }, [&] { compound(Rest); },
                     "probability that the guard at this 'if' returns early");
        return;
      }
    }
    stmt(S);
  }
}

void SourceSegBuilder::stmt(const Stmt *S) {
  if (!S)
    return;
  clang::SourceRange Saved = CurRange;
  CurRange = S->getSourceRange();
  if (auto *CS = dyn_cast<CompoundStmt>(S)) {
    CurRange = Saved;
    compound(llvm::ArrayRef<Stmt *>(const_cast<CompoundStmt *>(CS)->body_begin(),
                                    const_cast<CompoundStmt *>(CS)->body_end()));
  } else if (auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (auto *V = dyn_cast<VarDecl>(D); V && V->getInit()) {
        if (V->isStaticLocal())
          continue; // initialised once, before the program runs
        expr(V->getInit());
        if (auto *IL = dyn_cast<InitListExpr>(V->getInit()->IgnoreImplicit()))
          op("mem.array.write", IL->getNumInits());
        else if (!V->getType()->isRecordType() && !V->getType()->isArrayType())
          op(V->hasLocalStorage() ? "mem.local.write" : "mem.global.write");
      }
  } else if (auto *F = dyn_cast<ForStmt>(S)) {
    loop(S, "for", F->getInit(), F->getCond(), F->getInc(), F->getBody(), canonical(F));
  } else if (auto *W = dyn_cast<WhileStmt>(S)) {
    loop(S, "while", nullptr, W->getCond(), nullptr, W->getBody(), std::nullopt);
  } else if (auto *D = dyn_cast<DoStmt>(S)) {
    loop(S, "do", nullptr, D->getCond(), nullptr, D->getBody(), std::nullopt);
  } else if (auto *R = dyn_cast<CXXForRangeStmt>(S)) {
    std::optional<Canonical> C;
    if (auto *AT = Ctx.getAsConstantArrayType(R->getRangeInit()->getType())) {
      C = Canonical();
      C->Index = R->getLoopVariable(); // not referenced by trip counts
      C->Start = "0";
      C->Step = "1";
      C->Trip = std::to_string(AT->getSize().getZExtValue());
    }
    loop(S, "range-for", nullptr, nullptr, nullptr, R->getBody(), C, [&] {
      op("mem.array.read");
      op("mem.local.write");
    });
  } else if (auto *If = dyn_cast<IfStmt>(S)) {
    if (If->getInit())
      stmt(If->getInit());
    const Stmt *Then = If->getThen(), *Else = If->getElse();
    twoArmBranch(If, If->getCond(), [&] { stmt(Then); },
                 Else ? std::function<void()>([&] { stmt(Else); }) : nullptr,
                 "probability that the 'if' condition is true");
  } else if (auto *Sw = dyn_cast<SwitchStmt>(S)) {
    switchStmt(Sw);
  } else if (auto *Ret = dyn_cast<ReturnStmt>(S)) {
    expr(Ret->getRetValue());
  } else if (isa<BreakStmt, ContinueStmt, NullStmt>(S)) {
  } else if (isa<GotoStmt, IndirectGotoStmt>(S)) {
    unknown(S, "goto: unstructured control flow");
  } else if (auto *L = dyn_cast<LabelStmt>(S)) {
    stmt(L->getSubStmt());
  } else if (auto *A = dyn_cast<GCCAsmStmt>(S)) {
    if (!A->getAsmString()->getString().empty())
      unknown(S, "inline assembly");
    // an empty asm is a compiler barrier: no work
  } else if (auto *E = dyn_cast<Expr>(S)) {
    expr(E);
  } else {
    unknown(S, std::string("statement '") + S->getStmtClassName() + "' not characterised");
  }
  CurRange = Saved;
}

void SourceSegBuilder::switchStmt(const SwitchStmt *Sw) {
  expr(Sw->getCond());
  op("switch");
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Sw->getBody());
  if (!Body) {
    unknown(Sw, "switch without a compound body");
    return;
  }
  // Arms: the statements from one case label to the next.
  std::vector<std::pair<std::string, std::vector<const Stmt *>>> Arms;
  bool HasDefault = false;
  for (const Stmt *S : Body->body()) {
    const Stmt *Inner = S;
    while (auto *SC = dyn_cast<SwitchCase>(Inner)) {
      std::string Label;
      if (auto *CS = dyn_cast<CaseStmt>(SC)) {
        Expr::EvalResult ER;
        Label = CS->getLHS()->EvaluateAsInt(ER, Ctx)
                    ? "case " + std::to_string(ER.Val.getInt().getSExtValue())
                    : "case";
      } else {
        Label = "default";
        HasDefault = true;
      }
      if (Arms.empty() || !Arms.back().second.empty())
        Arms.push_back({Label, {}});
      else
        Arms.back().first += ", " + Label;
      Inner = SC->getSubStmt();
    }
    if (Arms.empty())
      continue;
    Arms.back().second.push_back(Inner);
  }
  size_t NArms = Arms.size() + (HasDefault ? 0 : 1);
  Node Br;
  Br.Kind = NodeKind::Branch;
  Br.Id = newId();
  Br.Range = range(Sw->getSourceRange());
  for (auto &[Label, Stmts] : Arms) {
    std::string P = addParam("P", Sw->getBeginLoc(), "branch", 1.0 / NArms,
                             "static: 1/arms (" + std::to_string(NArms) + " arms)",
                             "probability of switch arm '" + Label + "'");
    Arm A{Label, P, {}};
    within(A.Body, [&] {
      for (const Stmt *S : Stmts)
        stmt(S);
    });
    Br.Arms.push_back(std::move(A));
  }
  push(std::move(Br));
}

} // namespace segtime
