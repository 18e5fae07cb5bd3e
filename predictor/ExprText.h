//===- ExprText.h - Expression strings without GiNaC headers ----*- C++ -*-===//
///
/// \file
/// For code that cannot include GiNaC (the clang plugin is built without
/// RTTI): simplifies an expression string, e.g. "i - 0 + 1" -> "i + 1";
/// closed forms printed with named subexpressions (toFormulaText in
/// predictor/Expr.h) and their cut form for text tables.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PREDICTOR_EXPRTEXT_H
#define SEGTIME_PREDICTOR_EXPRTEXT_H

#include <map>
#include <string>
#include <vector>

namespace segtime {
/// One named subexpression of a FormulaText: Name = Expr.
struct FormulaDef {
  std::string Name; ///< "_s1", "_s2", ...
  std::string Expr; ///< in the syntax of toString; uses only earlier names
};

/// A closed form printed with its repeated subexpressions named: Formula and
/// each Defs[i].Expr may use the names of Defs[0..i-1]. Parsing the
/// definitions in order (parseExpr) and substituting them gives the printed
/// expression back, up to the rounding of its numbers to the printed digits.
struct FormulaText {
  std::string Formula;
  std::vector<FormulaDef> Defs; ///< empty when nothing is repeated
};

/// F for a text table: F.Formula cut at a term boundary before Max
/// characters when longer, with a note giving its length, the number of
/// definitions and Where (where the whole form is, e.g. "in --json").
/// The definitions themselves are not printed.
std::string cutFormula(const FormulaText &F, size_t Max, const std::string &Where);

/// Expanded, simplified form of S in the same syntax; S itself if it cannot
/// be parsed.
std::string simplifyExprText(const std::string &S);

/// Do A and B agree once Subst (symbol -> expression) is applied to B?
/// Evaluated at several sample values of the remaining symbols (positive
/// integers, the same for both). Returns 1 if they agree at every sample, 0 if
/// not, -1 if either cannot be evaluated.
int sameValue(const std::string &A, const std::string &B,
              const std::map<std::string, std::string> &Subst);

/// The ratio A / B at a large sample value (see sameValue), or 0 if either
/// cannot be evaluated or B is 0 there. An unrolled loop runs its source
/// loop's iterations / factor times.
double valueRatio(const std::string &A, const std::string &B,
                  const std::map<std::string, std::string> &Subst);
} // namespace segtime

#endif
