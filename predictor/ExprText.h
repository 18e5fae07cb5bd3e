//===- ExprText.h - Expression strings without GiNaC headers ----*- C++ -*-===//
///
/// \file
/// For code that cannot include GiNaC (the clang plugin is built without
/// RTTI): simplifies an expression string, e.g. "i - 0 + 1" -> "i + 1".
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PREDICTOR_EXPRTEXT_H
#define SEGTIME_PREDICTOR_EXPRTEXT_H

#include <map>
#include <string>

namespace segtime {
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
