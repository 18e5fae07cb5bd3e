//===- SegBuilderCalls.cpp - Calls in the source-level SEG ----------------===//
///
/// \file
/// The builder's calls (plugin/SourceSegBuilder.h): a call to a function of
/// the program is a Call node with its arguments in source names; a C
/// library function segtime costs (core/Library.h) a Call node with its size
/// in bytes; memcpy/memmove/memset a byte loop; an MPI communication call a
/// Comm node (docs/mpi.md); anything else an Unknown node, with callee and
/// arguments for `segtime link`.
///
//===----------------------------------------------------------------------===//
#include "core/Library.h"
#include "core/Vocabulary.h"
#include "plugin/SourceSegBuilder.h"
#include "predictor/ExprText.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Builtins.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>

using namespace clang;

namespace segtime {
namespace {

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

} // namespace

MpiIds findMpiIds(ASTContext &Ctx, const Stmt *Body) {
  // (neither name ever read by the lexer: no call of either, no walk)
  if (Ctx.Idents.find("MPI_Comm_rank") == Ctx.Idents.end() &&
      Ctx.Idents.find("MPI_Comm_size") == Ctx.Idents.end())
    return {};
  MpiIdFinder Ids(Ctx);
  Ids.TraverseStmt(const_cast<Stmt *>(Body));
  return {std::move(Ids.Vars), std::move(Ids.AddrOfs)};
}

void SourceSegBuilder::call(const CallExpr *C) {
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
  Node N = newNode(NodeKind::Call, C->getSourceRange());
  N.Callee = Def->getNameAsString();
  N.Ruvs[levelKey(Level::HLLC)].add("call");
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
bool SourceSegBuilder::libraryCall(const CallExpr *C, const std::string &Name) {
  const LibraryFunction *F = libraryFunction(Name);
  if (!F)
    return false;
  Node N = newNode(NodeKind::Call, C->getSourceRange());
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
std::optional<std::string> SourceSegBuilder::mpiBytes(const CallExpr *C, int CountArg, int TypeArg,
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
std::string SourceSegBuilder::mpiRank(const Expr *E) {
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
bool SourceSegBuilder::mpiCall(const CallExpr *C, const std::string &Name) {
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
  Node N = newNode(NodeKind::Comm, C->getSourceRange());
  N.CommOp = Name;
  N.Pattern = Sig->Pattern;
  N.Ruvs[levelKey(Level::HLLC)].add("call");
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

} // namespace segtime
