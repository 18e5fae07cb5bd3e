//===- ExprText.cpp - Expression strings without GiNaC headers ------------===//
///
/// \file
/// The functions of predictor/ExprText.h: closed forms cut for text tables,
/// expression strings simplified, and two strings compared by value at
/// sample points.
///
//===----------------------------------------------------------------------===//
#include "predictor/ExprText.h"
#include "predictor/Expr.h"

#include <cmath>

using namespace GiNaC;

namespace segtime {

std::string cutFormula(const FormulaText &F, size_t Max, const std::string &Where) {
  const std::string &S = F.Formula;
  std::string Defs;
  if (!F.Defs.empty())
    Defs = F.Defs.size() == 1 ? "1 definition, " + F.Defs[0].Name
                              : std::to_string(F.Defs.size()) + " definitions, " +
                                    F.Defs.front().Name + " .. " + F.Defs.back().Name;
  if (S.size() <= Max)
    return Defs.empty() ? S : S + " (" + Defs + ", " + Where + ")";
  size_t Cut = S.rfind(" + ", Max);
  size_t Cut2 = S.rfind(" - ", Max);
  if (Cut == std::string::npos || (Cut2 != std::string::npos && Cut2 > Cut))
    Cut = Cut2;
  if (Cut == std::string::npos)
    Cut = Max;
  return S.substr(0, Cut) + " + \u2026 (" + std::to_string(S.size()) + " characters" +
         (Defs.empty() ? "" : " and " + Defs) + "; the whole closed form is " + Where + ")";
}

std::string simplifyExprText(const std::string &S) {
  if (S.empty())
    return S;
  try {
    return toString(parseExpr(S), 17);
  } catch (const std::exception &) {
    return S;
  }
}

namespace {
/// A and B (with Subst applied to B) as expressions, and the sample value of
/// every symbol of either: Base + Step * (its rank).
struct ExprPair {
  ex A, B;
  std::set<std::string> Syms;
  ExprPair(const std::string &SA, const std::string &SB,
           const std::map<std::string, std::string> &Subst)
      : A(parseExpr(SA)), B(parseExpr(SB)) {
    exmap M;
    for (auto &[K, V] : Subst)
      M[sym(K)] = parseExpr(V);
    B = B.subs(M);
    Syms = freeSymbols(A);
    for (const std::string &X : freeSymbols(B))
      Syms.insert(X);
  }
  std::map<std::string, double> sample(double Base, double Step) const {
    std::map<std::string, double> V;
    int I = 0;
    for (const std::string &X : Syms)
      V[X] = Base + Step * I++;
    return V;
  }
};
} // namespace

int sameValue(const std::string &A, const std::string &B,
              const std::map<std::string, std::string> &Subst) {
  try {
    ExprPair P(A, B, Subst);
    // Samples large enough that unrolled and remainder forms are exercised.
    for (int Base : {37, 64, 100, 257}) {
      auto V = P.sample(Base, 3);
      if (std::fabs(evaluate(P.A, V) - evaluate(P.B, V)) > 1e-9)
        return 0;
    }
    return 1;
  } catch (const std::exception &) {
    return -1;
  }
}

double valueRatio(const std::string &A, const std::string &B,
                  const std::map<std::string, std::string> &Subst) {
  try {
    ExprPair P(A, B, Subst);
    auto V = P.sample(4096, 16);
    double VB = evaluate(P.B, V);
    return VB == 0 ? 0 : evaluate(P.A, V) / VB;
  } catch (const std::exception &) {
    return 0;
  }
}

} // namespace segtime
