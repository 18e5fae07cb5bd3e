//===- LinearText.h - Integer-linear expression texts folded without algebra -===//
///
/// \file
/// foldLinearText: the value of an expression text that is an integer or a
/// single name once folded ("3 - 0", "(-1)", "(0 + 1*k)"), the texts that
/// make up most of what the plugin simplifies. The plugin answers them
/// without loading the expression algebra (GiNaC, plugin/ExprLoader.cpp).
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_CORE_LINEARTEXT_H
#define SEGTIME_CORE_LINEARTEXT_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace segtime {

/// S folded, when S is an integer-linear expression whose value is an
/// integer or exactly one name: S holds decimal integer literals (no
/// leading zero), names (C identifiers, possibly dotted as `a.b`), binary
/// `+ - *`, unary `-`, parentheses and spaces, and every product has a
/// constant factor. Returns the value's decimal text, or the name when S
/// equals 1·name + 0. Returns nullopt for anything else (a call, a
/// division, a product of names, a sum of several names or of a name and a
/// constant, a magnitude of 2^62 or more): the caller then asks the
/// expression algebra. Where it answers, the answer is the text GiNaC's
/// simplification prints for S (simplifyExprText, predictor/ExprText.h):
/// an integer is canonical, a name is the symbol's name.
std::optional<std::string> foldLinearText(std::string_view S);

/// The value of S when S is an expression of foldLinearText's form that
/// names nothing (integers only) and every value on the way stays below
/// 2^53 in magnitude (exact as a double); nullopt otherwise.
std::optional<int64_t> foldIntegerText(std::string_view S);

} // namespace segtime

#endif
