//===- ExprText.h - Expression strings without GiNaC headers ----*- C++ -*-===//
///
/// \file
/// For code that cannot include GiNaC (the clang plugin is built without
/// RTTI): simplifies an expression string, e.g. "i - 0 + 1" -> "i + 1".
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PREDICTOR_EXPRTEXT_H
#define SEGTIME_PREDICTOR_EXPRTEXT_H

#include <string>

namespace segtime {
/// Expanded, simplified form of S in the same syntax; S itself if it cannot
/// be parsed.
std::string simplifyExprText(const std::string &S);
} // namespace segtime

#endif
