//===- SegBuilder.cpp - Clang AST -> SEG with HLLC and POC RUVs -----------===//
///
/// \file
/// Walks one function body. Straight-line code accumulates into the open
/// Stage; loops, branches (if, switch, ?:, && and ||), calls to functions
/// defined in the program and uncharacterisable code (goto, indirect and
/// external calls, inline assembly) become nodes of their own. Canonical
/// `for` loops get a symbolic trip count in source names; other loops a
/// parameter N_<function>_<line>; branches a probability P_<function>_<line>.
/// MPI communication calls become Comm nodes (docs/mpi.md); variables set by
/// MPI_Comm_size/MPI_Comm_rank are `p` and `rank`, and branches on them get
/// 0/1 probabilities (cmp_eq, ...) resolved for a given rank.
///
//===----------------------------------------------------------------------===//
#include "plugin/SourceSegBuilder.h"
#include "core/Vocabulary.h"
#include "predictor/ExprText.h"

#include "clang/AST/ASTContext.h"

using namespace clang;

namespace segtime {
namespace {

std::string typeKey(QualType T) {
  T = T.getCanonicalType();
  if (const auto *BT = T->getAs<BuiltinType>()) {
    if (BT->getKind() == BuiltinType::Float || BT->getKind() == BuiltinType::Half ||
        BT->getKind() == BuiltinType::Float16)
      return "f32";
    if (BT->isFloatingPoint())
      return "f64";
  }
  if (T->isPointerType() || T->isArrayType())
    return "i64";
  if (T->isIntegralOrEnumerationType() || T->isBooleanType())
    return "i32"; // refined by size below
  return "i64";
}

/// Whether clang's evaluator certainly fails on E, so that asking it
/// (Expr::isEvaluatable, whose set-up is most of its cost on the small
/// expressions of real code) can be spared: an assignment, increment or
/// decrement (in C never evaluated, in C++ a side effect on an object that
/// outlives the evaluation), and the read of a variable that is not
/// const-qualified, constexpr, a reference or in an address space (clang
/// never reads a non-const object outside a constexpr call: ExprConstant.cpp
/// findCompleteObject). The SEG is the same with or without this test.
/// A call of a function that is neither constexpr nor a builtin (the
/// evaluator gives up on it). Also an expression whose evaluation needs an
/// operand for which isEvaluatable is certainly false (one that fails or
/// has a side effect: the evaluation fails or notes the side effect):
/// both operands of arithmetic, bitwise, comparison and comma operators,
/// the left one of && and || (when it cannot be evaluated the evaluator
/// notes a possible side effect), the condition of ?:, the operand of
/// unary -, +, ~, ! and *, of casts, subscripts and member accesses; not
/// the right operand of && and ||, nor the arms of ?:, which may be left
/// unevaluated. On csmith's deeply nested expressions this spares the
/// evaluation of every subexpression of a non-constant one
/// (Expr::isEvaluatable walks the whole subexpression each time).
bool certainlyNotConstant(const Expr *E) {
  E = E->IgnoreParens();
  if (auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->isAssignmentOp())
      return true;
    if (B->isLogicalOp())
      return certainlyNotConstant(B->getLHS());
    return certainlyNotConstant(B->getLHS()) || certainlyNotConstant(B->getRHS());
  }
  if (auto *CO = dyn_cast<ConditionalOperator>(E))
    return certainlyNotConstant(CO->getCond());
  if (auto *CE = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *F = CE->getDirectCallee();
    return F && !F->isConstexpr() && !F->getBuiltinID();
  }
  if (auto *U = dyn_cast<UnaryOperator>(E)) {
    if (U->isIncrementDecrementOp())
      return true;
    switch (U->getOpcode()) {
    case UO_Minus: case UO_Plus: case UO_Not: case UO_LNot: case UO_Deref:
      return certainlyNotConstant(U->getSubExpr());
    default:
      return false;
    }
  }
  if (auto *A = dyn_cast<ArraySubscriptExpr>(E))
    return certainlyNotConstant(A->getBase()) || certainlyNotConstant(A->getIdx());
  if (auto *M = dyn_cast<MemberExpr>(E))
    return certainlyNotConstant(M->getBase());
  auto *C = dyn_cast<CastExpr>(E);
  if (!C)
    return false;
  if (C->getCastKind() != CK_LValueToRValue || !isa<ImplicitCastExpr>(C))
    return certainlyNotConstant(C->getSubExpr());
  // The read of a variable, or of a member or element of one (x.f, a[i]:
  // the evaluator needs the whole variable to be constant).
  const Expr *L = C->getSubExpr()->IgnoreParens();
  bool Part = false;
  for (;;) {
    if (auto *M = dyn_cast<MemberExpr>(L); M && !M->isArrow()) {
      L = M->getBase()->IgnoreParens();
    } else if (auto *A = dyn_cast<ArraySubscriptExpr>(L)) {
      auto *D = dyn_cast<ImplicitCastExpr>(A->getBase()->IgnoreParens());
      if (!D || D->getCastKind() != CK_ArrayToPointerDecay)
        break;
      L = D->getSubExpr()->IgnoreParens();
    } else {
      break;
    }
    Part = true;
  }
  auto *R = dyn_cast<DeclRefExpr>(L);
  auto *V = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
  if (!V)
    return certainlyNotConstant(C->getSubExpr());
  QualType T = V->getType();
  if (T.isConstQualified() || T.hasAddressSpace() || T->isReferenceType() || V->isConstexpr() ||
      (Part && T.isConstant(V->getASTContext())))
    return Part && certainlyNotConstant(C->getSubExpr());
  return true;
}

} // namespace

SourceSegBuilder::SourceSegBuilder(ASTContext &Ctx, const FunctionDecl *FD, FunctionSeg &Out,
                                   std::vector<BuilderWarning> &W)
    : Ctx(Ctx), SM(Ctx.getSourceManager()), FD(FD), Out(Out), Warnings(W) {
  Fn = FD->getNameAsString();
  MpiIds Ids = findMpiIds(Ctx, FD->getBody());
  MpiAddrOfs = std::move(Ids.AddrOfs);
  MutationFinder MF;
  MF.Ignore = &MpiAddrOfs;
  MF.TraverseStmt(FD->getBody());
  Mutated = std::move(MF.Mutated);
  for (auto &[V, Sym] : Ids.Vars)
    if (!Sym.empty() && !Mutated.count(V))
      MpiVars[V] = Sym;
  Cur = &Out.Body;
}

void SourceSegBuilder::run() {
  stmt(FD->getBody());
  close();
  // The MPI parameters of the formulas (docs/mpi.md).
  bool HasComm = false;
  forEachNode(Out.Body, [&](const Node &N) { HasComm |= N.Kind == NodeKind::Comm; });
  if (HasComm || UsedMpiSyms.count("p"))
    Out.Parameters.push_back({"p", "mpi", std::nullopt, "none", where(FD->getBeginLoc()),
                              "number of MPI processes (give --np P)"});
  if (UsedMpiSyms.count("rank"))
    Out.Parameters.push_back({"rank", "mpi", std::nullopt, "none", where(FD->getBeginLoc()),
                              "MPI rank of the process (--rank R; default: every rank, the "
                              "slowest is reported)"});
}

SourceRange SourceSegBuilder::range(clang::SourceRange R) {
  SourceRange S;
  if (R.isInvalid())
    return S;
  PresumedLoc B = SM.getPresumedLoc(SM.getExpansionLoc(R.getBegin()));
  PresumedLoc E = SM.getPresumedLoc(SM.getExpansionLoc(R.getEnd()));
  if (B.isValid()) {
    S.File = B.getFilename();
    S.Line = B.getLine();
    S.Col = B.getColumn();
  }
  if (E.isValid()) {
    S.EndLine = E.getLine();
    S.EndCol = E.getColumn();
  }
  return S;
}

/// Line and column of L's expansion (0, 0 if invalid), as range() gives
/// for an end; remembered for the last L: every construct counted in a
/// stage asks for the end of the same statement.
std::pair<unsigned, unsigned> SourceSegBuilder::endOf(SourceLocation L) {
  if (L != LastEnd) {
    PresumedLoc E = SM.getPresumedLoc(SM.getExpansionLoc(L));
    LastEnd = L;
    LastEndPos = E.isValid() ? std::make_pair(E.getLine(), E.getColumn())
                             : std::make_pair(0u, 0u);
  }
  return LastEndPos;
}

std::string SourceSegBuilder::where(SourceLocation L) {
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(L));
  return P.isValid() ? std::string(P.getFilename()) + ":" + std::to_string(P.getLine()) : "";
}

std::string SourceSegBuilder::addParam(const std::string &Prefix, SourceLocation L,
                                       const std::string &Kind, std::optional<double> Default,
                                       const std::string &Source, const std::string &Meaning) {
  std::string Base = Prefix + "_" + Fn + "_" + std::to_string(line(L));
  std::string Name = Base;
  for (int I = 2; ParamNames.count(Name); ++I)
    Name = Base + "_" + std::to_string(I);
  ParamNames.insert(Name);
  Out.Parameters.push_back({Name, Kind, Default, Source, where(L), Meaning});
  return Name;
}

Node &SourceSegBuilder::stage(clang::SourceRange R) {
  if (OpenStage < 0) {
    Node N = newNode(NodeKind::Stage, R);
    Cur->push_back(N);
    OpenStage = static_cast<int>(Cur->size()) - 1;
  } else if (R.isValid()) {
    Node &S = (*Cur)[OpenStage];
    if (S.Range.Line == 0) {
      S.Range = range(R);
    } else {
      auto [EndLine, EndCol] = endOf(R.getEnd());
      if (EndLine > S.Range.EndLine ||
          (EndLine == S.Range.EndLine && EndCol > S.Range.EndCol)) {
        S.Range.EndLine = EndLine;
        S.Range.EndCol = EndCol;
      }
    }
  }
  return (*Cur)[OpenStage];
}

/// Counts one HLLC construct (and its McMahon flop) in the open stage.
void SourceSegBuilder::op(const std::string &C, double N) {
  Node &S = stage(CurRange);
  S.Ruvs[levelKey(Level::HLLC)].add(C, N);
  double W = mcmahonWeight(C);
  if (W != 0)
    S.Ruvs[levelKey(Level::POC)].add("flop", W * N);
}

/// Appends a structured node (closes the open stage before it).
Node &SourceSegBuilder::push(Node N) {
  close();
  Cur->push_back(std::move(N));
  return Cur->back();
}

/// Runs F with Cur redirected to L (a loop body or branch arm).
void SourceSegBuilder::within(NodeList &L, const std::function<void()> &F) {
  NodeList *SavedCur = Cur;
  int SavedOpen = OpenStage;
  Cur = &L;
  OpenStage = -1;
  F();
  Cur = SavedCur;
  OpenStage = SavedOpen;
  close();
}

Node &SourceSegBuilder::unknown(const Stmt *S, const std::string &Reason,
                                const std::string &External) {
  Node N = newNode(NodeKind::Unknown, S->getSourceRange());
  N.Reason = Reason;
  Node &Pushed = push(N);
  Warnings.push_back({S->getBeginLoc(),
                      "segtime: not characterised: " + Reason + " (SEG node " + N.Id +
                          " in '" + Fn + "')",
                      Fn, External});
  return Pushed;
}

std::string SourceSegBuilder::typeOf(QualType T) {
  std::string K = typeKey(T);
  if (K == "i32" && Ctx.getTypeSize(T.getCanonicalType()) > 32)
    return "i64";
  return K;
}

std::string SourceSegBuilder::memClass(const Expr *E) {
  E = E->IgnoreParens();
  if (auto *DR = dyn_cast<DeclRefExpr>(E)) {
    if (auto *V = dyn_cast<VarDecl>(DR->getDecl()))
      return V->hasLocalStorage() && !V->getType()->isArrayType() ? "local" : "global";
    return "global";
  }
  if (auto *M = dyn_cast<MemberExpr>(E))
    return M->isArrow() ? "array" : memClass(M->getBase());
  return "array";
}

/// Address computation of an lvalue (no read of the lvalue itself).
void SourceSegBuilder::lvalue(const Expr *E) {
  E = E->IgnoreParens();
  if (isa<DeclRefExpr>(E))
    return;
  if (auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
    expr(A->getBase());
    expr(A->getIdx());
    return;
  }
  if (auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_Deref) {
    expr(U->getSubExpr());
    return;
  }
  if (auto *M = dyn_cast<MemberExpr>(E)) {
    if (M->isArrow())
      expr(M->getBase());
    else
      lvalue(M->getBase());
    return;
  }
  expr(E);
}

std::string SourceSegBuilder::arithConstruct(BinaryOperatorKind K, QualType T,
                                             QualType OperandT) {
  std::string Ty = typeOf(T);
  switch (K) {
  case BO_Add: case BO_AddAssign: return Ty + ".add";
  case BO_Sub: case BO_SubAssign: return Ty + ".sub";
  case BO_Mul: case BO_MulAssign: return Ty + ".mul";
  case BO_Div: case BO_DivAssign: return Ty + ".div";
  case BO_Rem: case BO_RemAssign: return Ty + ".rem";
  case BO_Shl: case BO_Shr: case BO_ShlAssign: case BO_ShrAssign: return Ty + ".shift";
  case BO_And: case BO_Or: case BO_Xor: case BO_AndAssign: case BO_OrAssign:
  case BO_XorAssign: return Ty + ".bit";
  case BO_LT: case BO_GT: case BO_LE: case BO_GE: case BO_EQ: case BO_NE:
    return typeOf(OperandT) + ".cmp";
  default:
    return "";
  }
}

void SourceSegBuilder::arith(BinaryOperatorKind K, QualType T, QualType OperandT) {
  std::string C = arithConstruct(K, T, OperandT);
  if (!C.empty())
    op(C);
}

void SourceSegBuilder::shortCircuit(const BinaryOperator *B) {
  expr(B->getLHS());
  op("if");
  Node Br;
  Br.Kind = NodeKind::Branch;
  Br.Id = newId();
  Br.Range = range(B->getSourceRange());
  std::string P = addParam("P", B->getOperatorLoc(), "branch", 0.5, "static: default 0.5",
                           std::string("probability that the right operand of '") +
                               (B->getOpcode() == BO_LAnd ? "&&" : "||") + "' is evaluated");
  Arm A{"rhs", P, {}};
  within(A.Body, [&] { expr(B->getRHS()); });
  Br.Arms.push_back(std::move(A));
  push(std::move(Br));
}

void SourceSegBuilder::twoArmBranch(const Stmt *S, const Expr *Cond,
                                    const std::function<void()> &Then,
                                    const std::function<void()> &Else, const std::string &Meaning) {
  if (Cond)
    expr(Cond);
  op("if");
  Node Br;
  Br.Kind = NodeKind::Branch;
  Br.Id = newId();
  Br.Range = range(S->getSourceRange());
  // A condition on the MPI rank or process count is resolved for a given
  // rank and p (docs/mpi.md); any other keeps its probability parameter.
  std::string P;
  // (Without MPI variables the condition cannot name rank or p; in main,
  // toExpr may declare an argvK parameter on the way, so it runs there.)
  if (Cond && (!MpiVars.empty() || FD->isMain())) {
    UsedMpi = false;
    std::optional<std::string> CE = condExpr(Cond);
    if (CE && UsedMpi)
      P = simplifyExprText(*CE);
  }
  if (P.empty())
    P = addParam("P", S->getBeginLoc(), "branch", 0.5, "static: default 0.5", Meaning);
  Arm T{"then", P, {}};
  within(T.Body, Then);
  Br.Arms.push_back(std::move(T));
  if (Else) {
    Arm E{"else", P.compare(0, 2, "P_") == 0 ? "1 - " + P : simplifyExprText("1 - (" + P + ")"), {}};
    within(E.Body, Else);
    Br.Arms.push_back(std::move(E));
  }
  push(std::move(Br));
}

/// The HLLC conversion construct from type From to type To.
std::string SourceSegBuilder::conversion(QualType From, QualType To) {
  bool FF = From->isRealFloatingType(), TF = To->isRealFloatingType();
  return FF ? (TF ? "cvt.f2f" : "cvt.f2i") : (TF ? "cvt.i2f" : "cvt.i2i");
}

void SourceSegBuilder::cast(const CastExpr *C) {
  const Expr *Sub = C->getSubExpr();
  QualType From = Sub->getType(), To = C->getType();
  switch (C->getCastKind()) {
  case CK_ToVoid: // (void)x: only side effects run
    if (Sub->HasSideEffects(Ctx))
      expr(Sub);
    return;
  case CK_LValueToRValue:
    lvalue(Sub);
    read(Sub);
    return;
  case CK_IntegralToFloating:
    expr(Sub);
    op("cvt.i2f");
    return;
  case CK_FloatingToIntegral:
    expr(Sub);
    op("cvt.f2i");
    return;
  case CK_FloatingCast:
    expr(Sub);
    if (typeOf(From) != typeOf(To))
      op("cvt.f2f");
    return;
  case CK_IntegralCast:
    expr(Sub);
    if (Ctx.getTypeSize(From) != Ctx.getTypeSize(To) && !To->isBooleanType())
      op("cvt.i2i");
    return;
  default:
    expr(Sub);
  }
}

void SourceSegBuilder::expr(const Expr *E) {
  if (!E)
    return;
  clang::SourceRange SavedRange = CurRange;
  if (!CurRange.isValid())
    CurRange = E->getSourceRange();
  E = E->IgnoreParens();
  if (isa<IntegerLiteral, FloatingLiteral, CharacterLiteral, StringLiteral,
          UnaryExprOrTypeTraitExpr, DeclRefExpr, CXXBoolLiteralExpr, CXXNullPtrLiteralExpr,
          OffsetOfExpr>(E)) {
    // constants, sizeof, and lvalue names: no work (reads are counted at
    // the lvalue-to-rvalue conversion); tested first, it spares the
    // evaluation below for the leaves
  } else if (E->isPRValue() && !E->getType()->isVoidType() && !isa<CallExpr>(E) &&
             !certainlyNotConstant(E) && E->isEvaluatable(Ctx)) {
    // a constant the compiler folds (0, 2.0*PI, sizeof x): no run-time work
  } else if (auto *C = dyn_cast<CastExpr>(E)) {
    cast(C);
  } else if (auto *B = dyn_cast<BinaryOperator>(E)) {
    BinaryOperatorKind K = B->getOpcode();
    if (K == BO_LAnd || K == BO_LOr) {
      shortCircuit(B);
    } else if (K == BO_Assign) {
      lvalue(B->getLHS());
      expr(B->getRHS());
      write(B->getLHS());
    } else if (auto *CA = dyn_cast<CompoundAssignOperator>(B)) {
      lvalue(B->getLHS());
      expr(B->getRHS());
      read(B->getLHS());
      QualType CT = CA->getComputationResultType();
      QualType LT = B->getLHS()->getType();
      if (typeOf(CT) != typeOf(LT) && !LT->isPointerType()) {
        // x op= y computes in CT: convert x to CT, operate, convert back
        op(conversion(LT, CT));
        arith(K, CT, CT);
        op(conversion(CT, LT));
      } else {
        arith(K, B->getLHS()->getType()->isPointerType() ? Ctx.LongTy : CT, CT);
      }
      write(B->getLHS());
    } else if (K == BO_Comma) {
      expr(B->getLHS());
      expr(B->getRHS());
    } else {
      expr(B->getLHS());
      expr(B->getRHS());
      QualType T = B->getType();
      if (B->getLHS()->getType()->isPointerType() || B->getRHS()->getType()->isPointerType())
        T = Ctx.LongTy;
      arith(K, T, B->getLHS()->getType());
    }
  } else if (auto *U = dyn_cast<UnaryOperator>(E)) {
    const Expr *S = U->getSubExpr();
    switch (U->getOpcode()) {
    case UO_PreInc: case UO_PostInc: case UO_PreDec: case UO_PostDec:
      lvalue(S);
      read(S);
      op(typeOf(S->getType()) + (U->isIncrementOp() ? ".add" : ".sub"));
      write(S);
      break;
    case UO_Minus: // -x: a subtraction, !x: a compare with 0, ~x: a bit operation
    case UO_LNot:
    case UO_Not:
      expr(S);
      op(U->getOpcode() == UO_LNot ? typeOf(S->getType()) + ".cmp"
                                   : typeOf(U->getType()) + (U->getOpcode() == UO_Minus ? ".sub" : ".bit"));
      break;
    case UO_AddrOf:
      lvalue(S);
      break;
    default: // deref (an lvalue: its read is counted by the enclosing cast), plus
      expr(S);
    }
  } else if (isa<ArraySubscriptExpr, MemberExpr>(E)) {
    lvalue(E);
  } else if (auto *C = dyn_cast<CallExpr>(E)) {
    call(C);
  } else if (auto *C = dyn_cast<ConditionalOperator>(E)) {
    twoArmBranch(E, C->getCond(), [&] { expr(C->getTrueExpr()); },
                 [&] { expr(C->getFalseExpr()); }, "probability that '?:' takes its true arm");
  } else if (auto *I = dyn_cast<InitListExpr>(E)) {
    for (const Expr *X : I->inits())
      expr(X);
  } else if (auto *SE = dyn_cast<StmtExpr>(E)) {
    stmt(SE->getSubStmt());
  } else {
    for (const Stmt *Child : E->children())
      if (auto *CE = dyn_cast_or_null<Expr>(Child))
        expr(CE);
  }
  CurRange = SavedRange;
}

FunctionSeg buildFunctionSeg(ASTContext &Ctx, const FunctionDecl *FD,
                             std::vector<BuilderWarning> &Warnings) {
  FunctionSeg F;
  F.Name = FD->getNameAsString();
  SourceManager &SM = Ctx.getSourceManager();
  PresumedLoc B = SM.getPresumedLoc(SM.getExpansionLoc(FD->getBeginLoc()));
  PresumedLoc E = SM.getPresumedLoc(SM.getExpansionLoc(FD->getEndLoc()));
  if (B.isValid()) {
    F.Range.File = B.getFilename();
    F.Range.Line = B.getLine();
    F.Range.Col = B.getColumn();
  }
  if (E.isValid()) {
    F.Range.EndLine = E.getLine();
    F.Range.EndCol = E.getColumn();
  }
  F.InMainFile = SM.isInMainFile(SM.getExpansionLoc(FD->getLocation()));
  F.Static = !FD->isExternallyVisible();
  for (const ParmVarDecl *P : FD->parameters())
    F.Params.push_back(P->getNameAsString());
  SourceSegBuilder(Ctx, FD, F, Warnings).run();
  return F;
}

} // namespace segtime
