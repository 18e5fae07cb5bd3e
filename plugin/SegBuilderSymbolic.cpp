//===- SegBuilderSymbolic.cpp - Source expressions as formula text --------===//
///
/// \file
/// The builder's symbolic expressions (plugin/SourceSegBuilder.h): an
/// expression of the source in source names (constants, parameters,
/// globals, indices of enclosing counted loops, locals assigned once,
/// numbers main reads from its command line), and a branch condition as an
/// exact 0/1 expression (cmp_eq, cmp_lt, cmp_le of core/Seg.h).
///
//===----------------------------------------------------------------------===//
#include "plugin/SourceSegBuilder.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/SmallString.h"

#include <algorithm>

using namespace clang;

namespace segtime {

/// A branch condition as a 0/1 expression (cmp_eq, cmp_lt, cmp_le of
/// core/Seg.h), if it is a comparison or logical combination of
/// expressions in source names.
std::optional<std::string> SourceSegBuilder::condExpr(const Expr *E) {
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

/// A number main reads from its command line, atoi(argv[K]) (or atol,
/// atoll, atof, strtol, strtoll, strtoul, strtoull, strtod): the parameter
/// argvK (kind "input", no default: a value read from input), declared once
/// with the line of its first read; nullopt for any other call.
std::optional<std::string> SourceSegBuilder::inputValue(const CallExpr *Call) {
  const FunctionDecl *F = Call->getDirectCallee();
  if (!F || Call->getNumArgs() < 1 || !FD->isMain() || FD->getNumParams() < 2)
    return std::nullopt;
  std::string N = F->getNameAsString();
  static const std::set<std::string> Readers = {"atoi",    "atol",    "atoll",    "atof",  "strtol",
                                                "strtoll", "strtoul", "strtoull", "strtod"};
  if (!Readers.count(N))
    return std::nullopt;
  auto *Sub = dyn_cast<ArraySubscriptExpr>(Call->getArg(0)->IgnoreParenImpCasts());
  auto *Base = Sub ? dyn_cast<DeclRefExpr>(Sub->getBase()->IgnoreParenImpCasts()) : nullptr;
  Expr::EvalResult K;
  if (!Base || Base->getDecl() != FD->getParamDecl(1) || !Sub->getIdx()->EvaluateAsInt(K, Ctx))
    return std::nullopt;
  std::string Name = "argv" + std::to_string(K.Val.getInt().getSExtValue());
  if (ParamNames.insert(Name).second)
    Out.Parameters.push_back({Name, "input", std::nullopt, "none", where(Call->getBeginLoc()),
                              "the number in command-line argument argv[" + Name.substr(4) + "] (" +
                                  N + "): read from input"});
  return Name;
}

/// The expression E in source names, if it is an arithmetic expression of
/// constants, parameters, globals, indices of enclosing counted loops and
/// locals assigned once at their declaration, none of them changed in the
/// loop being analysed (Avoid).
std::optional<std::string> SourceSegBuilder::toExpr(const Expr *E, const Stmt *Avoid) {
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

bool SourceSegBuilder::mutatedIn(const VarDecl *V, const Stmt *S) {
  auto It = MutatedCache.find(S);
  if (It == MutatedCache.end()) {
    MutationFinder MF;
    MF.Ignore = &MpiAddrOfs;
    MF.TraverseStmt(const_cast<Stmt *>(S));
    It = MutatedCache.emplace(S, std::move(MF.Mutated)).first;
  }
  return It->second.count(V) != 0;
}

} // namespace segtime
