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
#include "plugin/SegBuilder.h"
#include "core/Library.h"
#include "core/Vocabulary.h"
#include "predictor/ExprText.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <optional>
#include <set>

using namespace clang;

namespace segtime {
namespace {

/// Variables whose value changes inside a statement: assigned, incremented,
/// or whose address is taken.
class MutationFinder : public RecursiveASTVisitor<MutationFinder> {
public:
  std::set<const VarDecl *> Mutated;
  /// Address-of expressions that do not count (&rank passed to MPI_Comm_rank).
  const std::set<const Stmt *> *Ignore = nullptr;
  static const VarDecl *target(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (auto *DR = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(DR->getDecl());
    return nullptr;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp())
      if (auto *V = target(B->getLHS()))
        Mutated.insert(V);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (Ignore && Ignore->count(U))
      return true;
    if (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf)
      if (auto *V = target(U->getSubExpr()))
        Mutated.insert(V);
    return true;
  }
};

/// Whether a loop's body contains a break that leaves that loop, a return or
/// a goto. One traversal of a body answers for it and for every loop body
/// nested in it (remembered), so a loop nest costs its size, not its size
/// times its depth.
class ExitFinder : public RecursiveASTVisitor<ExitFinder> {
public:
  bool hasExit(const Stmt *Body) {
    auto It = Exits.find(Body);
    if (It != Exits.end())
      return It->second;
    Parent = nullptr;
    TraverseStmt(const_cast<Stmt *>(Body));
    return Exits.lookup(Body);
  }

  bool TraverseStmt(Stmt *S) {
    if (!S)
      return true;
    Flags Outer = Cur;
    const Stmt *OuterParent = Parent;
    Cur = Flags();
    Parent = S;
    bool R = RecursiveASTVisitor::TraverseStmt(S);
    Parent = OuterParent;
    // A break inside S leaves S's loop unless a loop or switch within S
    // (S included) encloses it.
    bool Inner = isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt>(S);
    bool FreeBreak = Cur.FreeBreak && !Inner;
    if (!Parent || isBodyOf(S, Parent))
      Exits[S] = FreeBreak || Cur.ReturnOrGoto;
    Cur.FreeBreak = Outer.FreeBreak || FreeBreak;
    Cur.ReturnOrGoto |= Outer.ReturnOrGoto;
    return R;
  }
  bool VisitBreakStmt(BreakStmt *) {
    Cur.FreeBreak = true;
    return true;
  }
  bool VisitReturnStmt(ReturnStmt *) {
    Cur.ReturnOrGoto = true;
    return true;
  }
  bool VisitGotoStmt(GotoStmt *) {
    Cur.ReturnOrGoto = true;
    return true;
  }

private:
  static bool isBodyOf(const Stmt *S, const Stmt *Loop) {
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
  struct Flags {
    bool FreeBreak = false, ReturnOrGoto = false;
  };
  Flags Cur;
  const Stmt *Parent = nullptr; ///< of the statement being traversed
  llvm::DenseMap<const Stmt *, bool> Exits; ///< by loop body
};

// --- MPI (docs/mpi.md) --------------------------------------------------------

/// An MPI predefined handle as the source spells it ("MPI_DOUBLE",
/// "MPI_COMM_WORLD", "MPI_ANY_SOURCE"), or "". The macro spelling is read
/// from the source text; failing that (a macro inside a macro), Open MPI's
/// handles are addresses of globals ompi_mpi_<name> (&ompi_mpi_double).
static std::string mpiHandleName(const Expr *E, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = SM.getExpansionRange(E->getSourceRange());
  std::string Text = Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
  if (Text.size() > 4 && Text.compare(0, 4, "MPI_") == 0 &&
      Text.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == std::string::npos)
    return Text;
  struct Finder : RecursiveASTVisitor<Finder> {
    std::string Name;
    bool VisitDeclRefExpr(DeclRefExpr *D) {
      std::string N = D->getDecl()->getNameAsString();
      if (Name.empty() && N.compare(0, 9, "ompi_mpi_") == 0) {
        Name = "MPI_" + N.substr(9);
        for (char &C : Name)
          C = static_cast<char>(toupper(C));
      }
      return true;
    }
  } F;
  F.TraverseStmt(const_cast<Expr *>(E));
  return F.Name;
}

/// Size in bytes of an MPI predefined datatype, 0 if unknown.
static unsigned mpiTypeSize(const std::string &T, ASTContext &Ctx) {
  auto Sz = [&](QualType Q) { return static_cast<unsigned>(Ctx.getTypeSize(Q) / 8); };
  static const std::map<std::string, unsigned> Fixed = {
      {"MPI_CHAR", 1}, {"MPI_SIGNED_CHAR", 1}, {"MPI_UNSIGNED_CHAR", 1}, {"MPI_BYTE", 1},
      {"MPI_PACKED", 1}, {"MPI_C_BOOL", 1}, {"MPI_INT8_T", 1}, {"MPI_UINT8_T", 1},
      {"MPI_SHORT", 2}, {"MPI_UNSIGNED_SHORT", 2}, {"MPI_INT16_T", 2}, {"MPI_UINT16_T", 2},
      {"MPI_INT", 4}, {"MPI_UNSIGNED", 4}, {"MPI_INT32_T", 4}, {"MPI_UINT32_T", 4},
      {"MPI_FLOAT", 4}, {"MPI_DOUBLE", 8}, {"MPI_INT64_T", 8}, {"MPI_UINT64_T", 8},
      {"MPI_LONG_LONG", 8}, {"MPI_LONG_LONG_INT", 8}, {"MPI_UNSIGNED_LONG_LONG", 8},
      {"MPI_C_FLOAT_COMPLEX", 8}, {"MPI_C_COMPLEX", 8}, {"MPI_C_DOUBLE_COMPLEX", 16},
      {"MPI_2INT", 8}, {"MPI_FLOAT_INT", 8}, {"MPI_DOUBLE_INT", 12}};
  auto It = Fixed.find(T);
  if (It != Fixed.end())
    return It->second;
  if (T == "MPI_LONG" || T == "MPI_UNSIGNED_LONG")
    return Sz(Ctx.LongTy);
  if (T == "MPI_LONG_DOUBLE")
    return Sz(Ctx.LongDoubleTy);
  if (T == "MPI_WCHAR")
    return Sz(Ctx.getWideCharType());
  if (T == "MPI_AINT" || T == "MPI_OFFSET" || T == "MPI_COUNT")
    return 8;
  return 0;
}

/// Where an MPI communication call keeps its arguments (-1: none).
struct MpiSignature {
  const char *Name, *Pattern;
  int Count, Type, Peer, Root, Count2, Type2;
};
static const MpiSignature *mpiSignature(const std::string &Name) {
  static const MpiSignature Table[] = {
      {"MPI_Send", "p2p", 1, 2, 3, -1, -1, -1},
      {"MPI_Ssend", "p2p", 1, 2, 3, -1, -1, -1},
      {"MPI_Rsend", "p2p", 1, 2, 3, -1, -1, -1},
      {"MPI_Bsend", "p2p", 1, 2, 3, -1, -1, -1},
      {"MPI_Recv", "p2p", 1, 2, 3, -1, -1, -1},
      {"MPI_Irecv", "p2p", 1, 2, 3, -1, -1, -1},
      {"MPI_Isend", "post", 1, 2, 3, -1, -1, -1},
      {"MPI_Issend", "post", 1, 2, 3, -1, -1, -1},
      {"MPI_Wait", "wait", -1, -1, -1, -1, -1, -1},
      {"MPI_Waitall", "wait", -1, -1, -1, -1, -1, -1},
      {"MPI_Sendrecv", "exchange", 1, 2, 3, -1, 6, 7},
      {"MPI_Bcast", "bcast", 1, 2, -1, 3, -1, -1},
      {"MPI_Reduce", "reduce", 2, 3, -1, 5, -1, -1},
      {"MPI_Allreduce", "allreduce", 2, 3, -1, -1, -1, -1},
      {"MPI_Scatter", "scatter", 4, 5, -1, 6, -1, -1}, // the receive block: valid at every rank
      {"MPI_Gather", "gather", 1, 2, -1, 6, -1, -1},
      {"MPI_Allgather", "allgather", 1, 2, -1, -1, -1, -1},
      {"MPI_Alltoall", "alltoall", 1, 2, -1, -1, -1, -1},
      {"MPI_Barrier", "barrier", -1, -1, -1, -1, -1, -1},
  };
  for (const MpiSignature &S : Table)
    if (Name == S.Name)
      return &S;
  return nullptr;
}

/// MPI calls that set up or query the environment: costed as a call, no
/// communication (MPI_Init's start-up lies outside the timed region).
static bool mpiEnvironmentCall(const std::string &Name) {
  static const std::set<std::string> Env = {
      "MPI_Init",    "MPI_Init_thread",  "MPI_Finalize",  "MPI_Comm_rank", "MPI_Comm_size",
      "MPI_Wtime",   "MPI_Wtick",        "MPI_Initialized", "MPI_Finalized", "MPI_Abort",
      "MPI_Get_count", "MPI_Get_processor_name"};
  return Env.count(Name) != 0;
}

/// Variables set by MPI_Comm_rank / MPI_Comm_size(MPI_COMM_WORLD, &v): they
/// are `rank` and `p` in formulas (if nothing else changes them).
class MpiIdFinder : public RecursiveASTVisitor<MpiIdFinder> {
public:
  explicit MpiIdFinder(ASTContext &Ctx) : Ctx(Ctx) {}
  std::map<const VarDecl *, std::string> Vars;
  std::set<const Stmt *> AddrOfs;
  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *F = C->getDirectCallee();
    if (!F || C->getNumArgs() != 2)
      return true;
    std::string N = F->getNameAsString();
    if (N != "MPI_Comm_rank" && N != "MPI_Comm_size")
      return true;
    auto *U = dyn_cast<UnaryOperator>(C->getArg(1)->IgnoreParenImpCasts());
    if (!U || U->getOpcode() != UO_AddrOf)
      return true;
    const VarDecl *V = MutationFinder::target(U->getSubExpr());
    if (!V || mpiHandleName(C->getArg(0), Ctx) != "MPI_COMM_WORLD")
      return true;
    std::string Sym = N == "MPI_Comm_rank" ? "rank" : "p";
    auto [It, New] = Vars.emplace(V, Sym);
    if (!New && It->second != Sym)
      It->second = ""; // both a rank and a size: neither
    AddrOfs.insert(U);
    return true;
  }

private:
  ASTContext &Ctx;
};

static std::string typeKey(QualType T) {
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

class Builder {
public:
  Builder(ASTContext &Ctx, const FunctionDecl *FD, FunctionSeg &Out,
          std::vector<BuilderWarning> &W)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), FD(FD), Out(Out), Warnings(W) {
    Fn = FD->getNameAsString();
    MpiIdFinder Ids(Ctx);
    Ids.TraverseStmt(FD->getBody());
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

  void run() {
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

private:
  // --- ids, ranges, parameters -------------------------------------------
  std::string newId() { return "v" + std::to_string(NextId++); }

  SourceRange range(clang::SourceRange R) {
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
  std::pair<unsigned, unsigned> endOf(SourceLocation L) {
    if (L != LastEnd) {
      PresumedLoc E = SM.getPresumedLoc(SM.getExpansionLoc(L));
      LastEnd = L;
      LastEndPos = E.isValid() ? std::make_pair(E.getLine(), E.getColumn())
                               : std::make_pair(0u, 0u);
    }
    return LastEndPos;
  }
  unsigned line(SourceLocation L) { return SM.getPresumedLineNumber(SM.getExpansionLoc(L)); }
  std::string where(SourceLocation L) {
    PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(L));
    return P.isValid() ? std::string(P.getFilename()) + ":" + std::to_string(P.getLine()) : "";
  }

  std::string addParam(const std::string &Prefix, SourceLocation L, const std::string &Kind,
                       std::optional<double> Default, const std::string &Source,
                       const std::string &Meaning) {
    std::string Base = Prefix + "_" + Fn + "_" + std::to_string(line(L));
    std::string Name = Base;
    for (int I = 2; ParamNames.count(Name); ++I)
      Name = Base + "_" + std::to_string(I);
    ParamNames.insert(Name);
    Out.Parameters.push_back({Name, Kind, Default, Source, where(L), Meaning});
    return Name;
  }

  // --- stages -------------------------------------------------------------
  Node &stage(clang::SourceRange R) {
    if (OpenStage < 0) {
      Node N;
      N.Kind = NodeKind::Stage;
      N.Id = newId();
      N.Range = range(R);
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
  void close() { OpenStage = -1; }

  /// Counts one HLLC construct (and its McMahon flop) in the open stage.
  void op(const std::string &C, double N = 1) {
    Node &S = stage(CurRange);
    S.Ruvs["HLLC"].add(C, N);
    double W = mcmahonWeight(C);
    if (W != 0)
      S.Ruvs["POC"].add("flop", W * N);
  }

  /// Appends a structured node (closes the open stage before it).
  Node &push(Node N) {
    close();
    Cur->push_back(std::move(N));
    return Cur->back();
  }

  /// Runs F with Cur redirected to L (a loop body or branch arm).
  void within(NodeList &L, const std::function<void()> &F) {
    NodeList *SavedCur = Cur;
    int SavedOpen = OpenStage;
    Cur = &L;
    OpenStage = -1;
    F();
    Cur = SavedCur;
    OpenStage = SavedOpen;
    close();
  }

  Node &unknown(const Stmt *S, const std::string &Reason, const std::string &External = "") {
    Node N;
    N.Kind = NodeKind::Unknown;
    N.Id = newId();
    N.Range = range(S->getSourceRange());
    N.Reason = Reason;
    Node &Pushed = push(N);
    Warnings.push_back({S->getBeginLoc(),
                        "segtime: not characterised: " + Reason + " (SEG node " + N.Id +
                            " in '" + Fn + "')",
                        Fn, External});
    return Pushed;
  }

  std::string typeOf(QualType T) {
    std::string K = typeKey(T);
    if (K == "i32" && Ctx.getTypeSize(T.getCanonicalType()) > 32)
      return "i64";
    return K;
  }

  // --- memory references ----------------------------------------------------
  std::string memClass(const Expr *E) {
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
  void read(const Expr *LV) { op("mem." + memClass(LV) + ".read"); }
  void write(const Expr *LV) { op("mem." + memClass(LV) + ".write"); }

  /// Address computation of an lvalue (no read of the lvalue itself).
  void lvalue(const Expr *E) {
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

  // --- expressions ------------------------------------------------------------
  void arith(BinaryOperatorKind K, QualType T, QualType OperandT) {
    std::string Ty = typeOf(T);
    switch (K) {
    case BO_Add: case BO_AddAssign: op(Ty + ".add"); break;
    case BO_Sub: case BO_SubAssign: op(Ty + ".sub"); break;
    case BO_Mul: case BO_MulAssign: op(Ty + ".mul"); break;
    case BO_Div: case BO_DivAssign: op(Ty + ".div"); break;
    case BO_Rem: case BO_RemAssign: op(Ty + ".rem"); break;
    case BO_Shl: case BO_Shr: case BO_ShlAssign: case BO_ShrAssign: op(Ty + ".shift"); break;
    case BO_And: case BO_Or: case BO_Xor: case BO_AndAssign: case BO_OrAssign:
    case BO_XorAssign: op(Ty + ".bit"); break;
    case BO_LT: case BO_GT: case BO_LE: case BO_GE: case BO_EQ: case BO_NE:
      op(typeOf(OperandT) + ".cmp");
      break;
    default:
      break;
    }
  }

  void shortCircuit(const BinaryOperator *B) {
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

  void twoArmBranch(const Stmt *S, const Expr *Cond, const std::function<void()> &Then,
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

  void call(const CallExpr *C) {
    const FunctionDecl *Callee = C->getDirectCallee();
    for (const Expr *A : C->arguments())
      expr(A);
    if (!Callee) {
      expr(C->getCallee()); // reads the function pointer
      unknown(C, "indirect call (callee not known at compile time)");
      return;
    }
    std::string Name = Callee->getNameAsString();
    if (unsigned B = Callee->getBuiltinID()) {
      if (B == Builtin::BI__builtin_expect || B == Builtin::BI__builtin_assume ||
          B == Builtin::BI__builtin_unreachable || B == Builtin::BI__builtin_prefetch)
        return;
    }
    std::string Math = mathLibraryConstruct(Name);
    if (!Math.empty() && !Callee->hasBody()) {
      op(Math);
      return;
    }
    if ((Name == "memcpy" || Name == "memmove" || Name == "memset" ||
         Name == "__builtin_memcpy" || Name == "__builtin_memset" ||
         Name == "__builtin_memmove") &&
        C->getNumArgs() == 3) {
      Node L;
      L.Kind = NodeKind::Loop;
      L.Id = newId();
      L.Range = range(C->getSourceRange());
      L.LoopKind = Name;
      L.Label = Name + " bytes";
      std::optional<std::string> Bytes = toExpr(C->getArg(2));
      L.Trip = Bytes ? simplifyExprText(*Bytes)
                     : addParam("N", C->getBeginLoc(), "loop", std::nullopt, "none",
                                "bytes moved by " + Name);
      within(L.Body, [&] { op("mem.copy.byte"); });
      push(std::move(L));
      return;
    }
    const FunctionDecl *Def = Callee->getDefinition();
    if ((!Def || !Def->hasBody()) && mpiCall(C, Name))
      return;
    if ((!Def || !Def->hasBody()) && libraryCall(C, Name))
      return;
    if (!Def || !Def->hasBody()) {
      // callee and arguments, for `segtime link` (another unit may define it)
      Node &U = unknown(C, externalCallReason(Name), Name);
      U.Callee = Name;
      for (const Expr *A : C->arguments()) {
        std::optional<std::string> S = toExpr(A);
        U.Args.push_back(S ? simplifyExprText(*S) : "");
      }
      return;
    }
    Node N;
    N.Kind = NodeKind::Call;
    N.Id = newId();
    N.Range = range(C->getSourceRange());
    N.Callee = Def->getNameAsString();
    N.Ruvs["HLLC"].add("call");
    for (const Expr *A : C->arguments()) {
      std::optional<std::string> S = toExpr(A);
      N.Args.push_back(S ? simplifyExprText(*S) : "");
    }
    push(std::move(N));
  }

  /// A call to a C library function segtime costs (core/Library.h): a
  /// Call node with its size in bytes (`bytes`) from the arguments, the
  /// length of a string literal argument for the string functions; a size
  /// the arguments do not give is a parameter B_<fn>_<line> (no default).
  /// False: Name is not such a function.
  bool libraryCall(const CallExpr *C, const std::string &Name) {
    const LibraryFunction *F = libraryFunction(Name);
    if (!F)
      return false;
    Node N;
    N.Kind = NodeKind::Call;
    N.Id = newId();
    N.Range = range(C->getSourceRange());
    N.Callee = Name;
    for (const Expr *A : C->arguments()) {
      std::optional<std::string> S = toExpr(A);
      N.Args.push_back(S ? simplifyExprText(*S) : "");
    }
    if (F->Sized) {
      std::vector<unsigned> Strings;
      std::vector<unsigned> Factors = librarySizeArgs(Name, &Strings);
      std::optional<std::string> Size;
      for (unsigned I : Factors) {
        if (I >= N.Args.size() || N.Args[I].empty()) {
          Size.reset();
          break;
        }
        Size = (Size ? *Size + "*" : "") + "(" + N.Args[I] + ")";
      }
      for (unsigned I : Strings) // the shortest literal bounds strcmp's comparison
        if (I < C->getNumArgs())
          if (auto *L = dyn_cast<StringLiteral>(C->getArg(I)->IgnoreParenImpCasts()))
            if (!Size || std::stod(*Size) > L->getByteLength())
              Size = std::to_string(L->getByteLength());
      if (Size) {
        N.Bytes = simplifyExprText(*Size);
      } else {
        N.Bytes = addParam("B", C->getBeginLoc(), "library", std::nullopt, "none",
                           "bytes of " + Name + " (" + F->Size + ")");
        Warnings.push_back({C->getBeginLoc(),
                            "segtime: size of " + Name +
                                " not an expression in source names; it is parameter " +
                                N.Bytes + " (SEG node " + N.Id + " in '" + Fn + "')",
                            Fn, ""});
      }
    }
    push(std::move(N));
    return true;
  }

  /// Bytes moved by an MPI call: count * size of the datatype, in source
  /// names; nullopt (and Why says why) if either is not known.
  std::optional<std::string> mpiBytes(const CallExpr *C, int CountArg, int TypeArg,
                                      std::string &Why) {
    std::string T = mpiHandleName(C->getArg(TypeArg), Ctx);
    unsigned Size = T.empty() ? 0 : mpiTypeSize(T, Ctx);
    if (!Size) {
      const SourceManager &SM = Ctx.getSourceManager();
      std::string Text = Lexer::getSourceText(
          SM.getExpansionRange(C->getArg(TypeArg)->getSourceRange()), SM, Ctx.getLangOpts()).str();
      Why = "datatype '" + (T.empty() ? Text : T) + "' " +
            (T.empty() ? "is not a predefined MPI datatype" : "has no known size");
      return std::nullopt;
    }
    std::optional<std::string> Count = toExpr(C->getArg(CountArg));
    if (!Count) {
      Why = "the count is not an expression in source names";
      return std::nullopt;
    }
    return simplifyExprText("(" + *Count + ")*" + std::to_string(Size));
  }

  /// A peer or root argument: an expression, "any" (MPI_ANY_SOURCE),
  /// "null" (MPI_PROC_NULL), or "" if not expressible.
  std::string mpiRank(const Expr *E) {
    std::string H = mpiHandleName(E, Ctx);
    if (H == "MPI_ANY_SOURCE")
      return "any";
    if (H == "MPI_PROC_NULL")
      return "null";
    std::optional<std::string> S = toExpr(E);
    return S ? simplifyExprText(*S) : "";
  }

  /// MPI calls: a Comm node for communication (docs/mpi.md), the cost of
  /// a call for environment calls. False: not an MPI call we know.
  bool mpiCall(const CallExpr *C, const std::string &Name) {
    if (mpiEnvironmentCall(Name)) {
      op("call");
      return true;
    }
    const MpiSignature *Sig = mpiSignature(Name);
    if (!Sig)
      return false;
    int MaxArg = std::max({Sig->Count, Sig->Type, Sig->Peer, Sig->Root, Sig->Count2, Sig->Type2});
    if (static_cast<int>(C->getNumArgs()) <= MaxArg)
      return false;
    Node N;
    N.Kind = NodeKind::Comm;
    N.Id = newId();
    N.Range = range(C->getSourceRange());
    N.CommOp = Name;
    N.Pattern = Sig->Pattern;
    N.Ruvs["HLLC"].add("call");
    if (Sig->Count >= 0) {
      std::string Why;
      std::optional<std::string> B = mpiBytes(C, Sig->Count, Sig->Type, Why);
      if (B && Sig->Count2 >= 0) {
        std::optional<std::string> B2 = mpiBytes(C, Sig->Count2, Sig->Type2, Why);
        B = B2 ? std::optional<std::string>(simplifyExprText("max(" + *B + ", " + *B2 + ")"))
               : std::nullopt;
      }
      if (B) {
        N.Bytes = *B;
      } else {
        N.Bytes = addParam("B", C->getBeginLoc(), "comm", std::nullopt, "none",
                           "bytes of " + Name + " (" + Why + ")");
        Warnings.push_back({C->getBeginLoc(),
                            "segtime: message size of " + Name + " unknown: " + Why +
                                "; it is parameter " + N.Bytes + " (SEG node " + N.Id + " in '" +
                                Fn + "')",
                            Fn, ""});
      }
    } else {
      N.Bytes = "0";
    }
    if (Sig->Peer >= 0)
      N.Peer = mpiRank(C->getArg(Sig->Peer));
    if (Sig->Root >= 0)
      N.Root = mpiRank(C->getArg(Sig->Root));
    push(std::move(N));
    return true;
  }

  /// A branch condition as a 0/1 expression (cmp_eq, cmp_lt, cmp_le of
  /// core/Seg.h), if it is a comparison or logical combination of
  /// expressions in source names.
  std::optional<std::string> condExpr(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_LNot) {
      auto X = condExpr(U->getSubExpr());
      return X ? std::optional<std::string>("(1 - " + *X + ")") : std::nullopt;
    }
    if (auto *B = dyn_cast<BinaryOperator>(E)) {
      BinaryOperatorKind K = B->getOpcode();
      if (K == BO_LAnd || K == BO_LOr) {
        auto X = condExpr(B->getLHS()), Y = condExpr(B->getRHS());
        if (!X || !Y)
          return std::nullopt;
        return K == BO_LAnd ? *X + "*" + *Y : "(" + *X + " + " + *Y + " - " + *X + "*" + *Y + ")";
      }
      if (B->isComparisonOp()) {
        auto X = toExpr(B->getLHS()), Y = toExpr(B->getRHS());
        if (!X || !Y)
          return std::nullopt;
        switch (K) {
        case BO_EQ: return "cmp_eq(" + *X + ", " + *Y + ")";
        case BO_NE: return "(1 - cmp_eq(" + *X + ", " + *Y + "))";
        case BO_LT: return "cmp_lt(" + *X + ", " + *Y + ")";
        case BO_GT: return "cmp_lt(" + *Y + ", " + *X + ")";
        case BO_LE: return "cmp_le(" + *X + ", " + *Y + ")";
        case BO_GE: return "cmp_le(" + *Y + ", " + *X + ")";
        default: return std::nullopt;
        }
      }
    }
    if (E->getType()->isIntegerType())
      if (auto X = toExpr(E))
        return "(1 - cmp_eq(" + *X + ", 0))";
    return std::nullopt;
  }

  /// The HLLC conversion construct from type From to type To.
  static std::string conversion(QualType From, QualType To) {
    bool FF = From->isRealFloatingType(), TF = To->isRealFloatingType();
    return FF ? (TF ? "cvt.f2f" : "cvt.f2i") : (TF ? "cvt.i2f" : "cvt.i2i");
  }

  void cast(const CastExpr *C) {
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

  void expr(const Expr *E) {
    if (!E)
      return;
    clang::SourceRange SavedRange = CurRange;
    if (!CurRange.isValid())
      CurRange = E->getSourceRange();
    E = E->IgnoreParens();
    if (isa<IntegerLiteral, FloatingLiteral, CharacterLiteral, StringLiteral,
            UnaryExprOrTypeTraitExpr, DeclRefExpr, CXXBoolLiteralExpr,
            CXXNullPtrLiteralExpr, OffsetOfExpr>(E)) {
      // constants, sizeof, and lvalue names: no work (reads are counted at
      // the lvalue-to-rvalue conversion); tested first, it spares the
      // evaluation below for the leaves
    } else if (E->isPRValue() && !E->getType()->isVoidType() && !isa<CallExpr>(E) &&
               E->isEvaluatable(Ctx)) {
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
      case UO_Minus:
        expr(S);
        op(typeOf(U->getType()) + ".sub");
        break;
      case UO_LNot:
        expr(S);
        op(typeOf(S->getType()) + ".cmp");
        break;
      case UO_Not:
        expr(S);
        op(typeOf(U->getType()) + ".bit");
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

  // --- symbolic expressions in source names ---------------------------------
  /// A number main reads from its command line, atoi(argv[K]) (or atol,
  /// atoll, atof, strtol, strtoll, strtoul, strtoull, strtod): the parameter
  /// argvK (kind "input", no default: a value read from input), declared once
  /// with the line of its first read; nullopt for any other call.
  std::optional<std::string> inputValue(const CallExpr *Call) {
    const FunctionDecl *F = Call->getDirectCallee();
    if (!F || Call->getNumArgs() < 1 || !FD->isMain() || FD->getNumParams() < 2)
      return std::nullopt;
    std::string N = F->getNameAsString();
    static const std::set<std::string> Readers = {"atoi",   "atol",    "atoll",    "atof",
                                                  "strtol", "strtoll", "strtoul",  "strtoull",
                                                  "strtod"};
    if (!Readers.count(N))
      return std::nullopt;
    auto *Sub = dyn_cast<ArraySubscriptExpr>(Call->getArg(0)->IgnoreParenImpCasts());
    auto *Base = Sub ? dyn_cast<DeclRefExpr>(Sub->getBase()->IgnoreParenImpCasts()) : nullptr;
    Expr::EvalResult K;
    if (!Base || Base->getDecl() != FD->getParamDecl(1) ||
        !Sub->getIdx()->EvaluateAsInt(K, Ctx))
      return std::nullopt;
    std::string Name = "argv" + std::to_string(K.Val.getInt().getSExtValue());
    if (ParamNames.insert(Name).second)
      Out.Parameters.push_back({Name, "input", std::nullopt, "none", where(Call->getBeginLoc()),
                                "the number in command-line argument argv[" +
                                    Name.substr(4) + "] (" + N + "): read from input"});
    return Name;
  }

  /// The expression E in source names, if it is an arithmetic expression of
  /// constants, parameters, globals, indices of enclosing counted loops and
  /// locals assigned once at their declaration, none of them changed in the
  /// loop being analysed (Avoid).
  std::optional<std::string> toExpr(const Expr *E, const Stmt *Avoid = nullptr) {
    E = E->IgnoreParens();
    QualType T = E->getType();
    if (!T->isIntegralOrEnumerationType() && !T->isRealFloatingType())
      return std::nullopt;
    Expr::EvalResult Folded;
    if (T->isIntegralOrEnumerationType() && !E->HasSideEffects(Ctx) &&
        E->EvaluateAsInt(Folded, Ctx))
      return std::to_string(Folded.Val.getInt().getSExtValue()); // sizeof, enums, 2*3
    if (auto *IL = dyn_cast<IntegerLiteral>(E))
      return std::to_string(IL->getValue().getSExtValue());
    if (auto *CL = dyn_cast<CharacterLiteral>(E))
      return std::to_string(CL->getValue());
    if (auto *FL = dyn_cast<FloatingLiteral>(E)) {
      llvm::SmallString<32> S;
      FL->getValue().toString(S);
      return std::string(S.str());
    }
    if (auto *C = dyn_cast<CastExpr>(E))
      return toExpr(C->getSubExpr(), Avoid);
    if (auto *DR = dyn_cast<DeclRefExpr>(E)) {
      if (auto *EC = dyn_cast<EnumConstantDecl>(DR->getDecl()))
        return std::to_string(EC->getInitVal().getSExtValue());
      auto *V = dyn_cast<VarDecl>(DR->getDecl());
      if (!V)
        return std::nullopt;
      if (Avoid && mutatedIn(V, Avoid))
        return std::nullopt;
      if (auto M = MpiVars.find(V); M != MpiVars.end()) {
        UsedMpiSyms.insert(M->second);
        UsedMpi = true;
        return M->second;
      }
      if (std::find(Indices.begin(), Indices.end(), V) != Indices.end())
        return V->getNameAsString();
      if (Mutated.count(V) && !V->getType().isConstQualified())
        return std::nullopt;
      if (isa<ParmVarDecl>(V) || V->hasGlobalStorage())
        return V->getNameAsString();
      if (V->hasInit() && V->getInit())
        if (auto S = toExpr(V->getInit(), Avoid))
          return "(" + *S + ")";
      return std::nullopt;
    }
    if (auto *U = dyn_cast<UnaryOperator>(E)) {
      if (U->getOpcode() == UO_Minus)
        if (auto S = toExpr(U->getSubExpr(), Avoid))
          return "(-" + *S + ")";
      if (U->getOpcode() == UO_Plus)
        return toExpr(U->getSubExpr(), Avoid);
      return std::nullopt;
    }
    if (auto *B = dyn_cast<BinaryOperator>(E)) {
      auto L = toExpr(B->getLHS(), Avoid), R = toExpr(B->getRHS(), Avoid);
      if (!L || !R)
        return std::nullopt;
      bool Int = B->getType()->isIntegralOrEnumerationType();
      switch (B->getOpcode()) {
      case BO_Add: return "(" + *L + " + " + *R + ")";
      case BO_Sub: return "(" + *L + " - " + *R + ")";
      case BO_Mul: return *L + "*" + *R;
      case BO_Div: return Int ? "idiv(" + *L + ", " + *R + ")" : "(" + *L + ")/(" + *R + ")";
      case BO_Rem: return "imod(" + *L + ", " + *R + ")";
      case BO_Shl: return *L + "*2^(" + *R + ")";
      case BO_Shr: return "idiv(" + *L + ", 2^(" + *R + "))";
      default: return std::nullopt;
      }
    }
    if (auto *C = dyn_cast<ConditionalOperator>(E)) {
      // a < b ? a : b  (min), a > b ? a : b (max), as MIN/MAX macros expand
      auto *Cmp = dyn_cast<BinaryOperator>(C->getCond()->IgnoreParenImpCasts());
      if (!Cmp || !(Cmp->isRelationalOp() || Cmp->isEqualityOp()))
        return std::nullopt;
      auto A = toExpr(Cmp->getLHS(), Avoid), B = toExpr(Cmp->getRHS(), Avoid);
      auto X = toExpr(C->getTrueExpr(), Avoid), Y = toExpr(C->getFalseExpr(), Avoid);
      if (!A || !B || !X || !Y)
        return std::nullopt;
      bool Less = Cmp->getOpcode() == BO_LT || Cmp->getOpcode() == BO_LE;
      if (Cmp->isRelationalOp() && *X == *A && *Y == *B)
        return std::string(Less ? "min(" : "max(") + *A + ", " + *B + ")";
      if (Cmp->isRelationalOp() && *X == *B && *Y == *A)
        return std::string(Less ? "max(" : "min(") + *A + ", " + *B + ")";
      // c ? x : y, the condition exact (1 or 0): c*x + (1 - c)*y
      std::string Cond;
      switch (Cmp->getOpcode()) {
      case BO_LT: Cond = "cmp_lt(" + *A + ", " + *B + ")"; break;
      case BO_LE: Cond = "cmp_le(" + *A + ", " + *B + ")"; break;
      case BO_GT: Cond = "cmp_lt(" + *B + ", " + *A + ")"; break;
      case BO_GE: Cond = "cmp_le(" + *B + ", " + *A + ")"; break;
      case BO_EQ: Cond = "cmp_eq(" + *A + ", " + *B + ")"; break;
      case BO_NE: Cond = "(1 - cmp_eq(" + *A + ", " + *B + "))"; break;
      default: return std::nullopt;
      }
      return "(" + Cond + "*(" + *X + ") + (1 - " + Cond + ")*(" + *Y + "))";
    }
    if (auto *Call = dyn_cast<CallExpr>(E)) {
      if (auto In = inputValue(Call))
        return In;
      // a call to a min/max helper of two arguments
      const FunctionDecl *F = Call->getDirectCallee();
      if (F && Call->getNumArgs() == 2) {
        std::string N = F->getNameAsString();
        for (char &Ch : N)
          Ch = static_cast<char>(tolower(Ch));
        if (N == "min" || N == "max" || N == "imin" || N == "imax") {
          auto A = toExpr(Call->getArg(0), Avoid), B = toExpr(Call->getArg(1), Avoid);
          if (A && B)
            return (N.back() == 'n' ? "min(" : "max(") + *A + ", " + *B + ")";
        }
      }
    }
    return std::nullopt;
  }

  bool mutatedIn(const VarDecl *V, const Stmt *S) {
    auto It = MutatedCache.find(S);
    if (It == MutatedCache.end()) {
      MutationFinder MF;
      MF.Ignore = &MpiAddrOfs;
      MF.TraverseStmt(const_cast<Stmt *>(S));
      It = MutatedCache.emplace(S, std::move(MF.Mutated)).first;
    }
    return It->second.count(V) != 0;
  }

  // --- loops -------------------------------------------------------------------
  struct Canonical {
    const VarDecl *Index = nullptr;
    std::string Start, Step, StepKind = "add", Trip;
  };

  static const VarDecl *refTo(const Expr *E) { return MutationFinder::target(E); }

  std::optional<Canonical> canonical(const ForStmt *F) {
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
  void loop(const Stmt *S, const std::string &Kind, const Stmt *Init, const Expr *Cond,
            const Expr *Inc, const Stmt *Body, std::optional<Canonical> C,
            const std::function<void()> &PerIteration = nullptr) {
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
      stmt(Body);
      if (C && !Exits)
        Indices.pop_back();
    });
    push(std::move(L));
  }

  // --- statements --------------------------------------------------------------
  void compound(llvm::ArrayRef<Stmt *> Stmts) {
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

  void stmt(const Stmt *S) {
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

  void switchStmt(const SwitchStmt *Sw) {
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

  ASTContext &Ctx;
  SourceManager &SM;
  const FunctionDecl *FD;
  FunctionSeg &Out;
  std::vector<BuilderWarning> &Warnings;
  std::string Fn;
  int NextId = 1;
  NodeList *Cur = nullptr;
  int OpenStage = -1;
  clang::SourceRange CurRange;
  SourceLocation LastEnd;                   ///< endOf's last query
  std::pair<unsigned, unsigned> LastEndPos; ///< and its answer
  ExitFinder ExitsOf;
  std::set<const VarDecl *> Mutated;
  std::map<const Stmt *, std::set<const VarDecl *>> MutatedCache;
  std::vector<const VarDecl *> Indices;
  std::set<std::string> ParamNames;
  std::set<const Stmt *> MpiAddrOfs;
  std::map<const VarDecl *, std::string> MpiVars; ///< -> "rank" or "p"
  std::set<std::string> UsedMpiSyms;
  bool UsedMpi = false; ///< set by toExpr when it maps a variable to rank or p
};

} // namespace

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
  Builder(Ctx, FD, F, Warnings).run();
  return F;
}

} // namespace segtime
