//===- LinearText.cpp - Integer-linear expression texts folded -----------===//
///
/// \file
/// foldLinearText (core/LinearText.h): a recursive descent over the text
/// that keeps each sub-expression as c0 + sum c_i * name_i with 64-bit
/// integer coefficients, and gives up (nullopt) at anything else.
///
//===----------------------------------------------------------------------===//
#include "core/LinearText.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <utility>
#include <vector>

namespace segtime {
namespace {

/// c0 + sum Coef * Name.
struct Linear {
  int64_t C = 0;
  std::vector<std::pair<std::string_view, int64_t>> Terms;
};

/// |V| < 2^62: sums and products of two such stay inside int64_t or fail
/// the overflow checks below.
bool small(int64_t V) { return V > -(int64_t(1) << 62) && V < (int64_t(1) << 62); }

/// |V| < 2^53: exact as a double.
bool exact(int64_t V) { return V > -(int64_t(1) << 53) && V < (int64_t(1) << 53); }

class Folder {
public:
  explicit Folder(std::string_view S) : S(S) {}

  std::optional<Linear> all() {
    std::optional<Linear> L = sum();
    skip();
    if (!L || P != S.size())
      return std::nullopt;
    return L;
  }

  /// Whether a name was read, and whether every constant on the way was
  /// exact as a double (exact()).
  bool Named = false, Exact = true;

private:
  void skip() {
    while (P < S.size() && S[P] == ' ')
      ++P;
  }
  bool eat(char Ch) {
    skip();
    if (P < S.size() && S[P] == Ch) {
      ++P;
      return true;
    }
    return false;
  }

    static void dropZeros(Linear &A) {
    A.Terms.erase(std::remove_if(A.Terms.begin(), A.Terms.end(),
                                 [](const auto &T) { return T.second == 0; }),
                  A.Terms.end());
  }

  /// A + Sign * B, or nullopt on overflow.
  static std::optional<Linear> add(Linear A, const Linear &B, int Sign) {
    int64_t BC = Sign * B.C;
    if (__builtin_add_overflow(A.C, BC, &A.C) || !small(A.C))
      return std::nullopt;
    for (const auto &[Name, Coef] : B.Terms) {
      bool Found = false;
      for (auto &[N, C] : A.Terms)
        if (N == Name) {
          if (__builtin_add_overflow(C, Sign * Coef, &C) || !small(C))
            return std::nullopt;
          Found = true;
        }
      if (!Found)
        A.Terms.emplace_back(Name, Sign * Coef);
    }
    dropZeros(A);
    return A;
  }

  /// K * A, or nullopt on overflow.
  static std::optional<Linear> scale(Linear A, int64_t K) {
    if (__builtin_mul_overflow(A.C, K, &A.C) || !small(A.C))
      return std::nullopt;
    for (auto &[N, C] : A.Terms)
      if (__builtin_mul_overflow(C, K, &C) || !small(C))
        return std::nullopt;
    dropZeros(A);
    return A;
  }

  std::optional<Linear> sum() {
    std::optional<Linear> L = product();
    while (L) {
      int Sign = eat('+') ? 1 : eat('-') ? -1 : 0;
      if (!Sign)
        break;
      std::optional<Linear> R = product();
      L = R ? add(std::move(*L), *R, Sign) : std::nullopt;
      Exact &= !L || exact(L->C);
    }
    return L;
  }

  std::optional<Linear> product() {
    std::optional<Linear> L = unary();
    while (L && eat('*')) {
      std::optional<Linear> R = unary();
      if (!R)
        return std::nullopt;
      if (R->Terms.empty())
        L = scale(std::move(*L), R->C);
      else if (L->Terms.empty())
        L = scale(std::move(*R), L->C);
      else
        return std::nullopt; // (a product of names)
      Exact &= !L || exact(L->C);
    }
    return L;
  }

  std::optional<Linear> unary() {
    if (eat('-')) {
      std::optional<Linear> L = unary();
      return L ? scale(std::move(*L), -1) : std::nullopt;
    }
    return primary();
  }

  static bool nameStart(char Ch) { return std::isalpha(static_cast<unsigned char>(Ch)) || Ch == '_'; }
  static bool nameChar(char Ch) { return std::isalnum(static_cast<unsigned char>(Ch)) || Ch == '_'; }

  std::optional<Linear> primary() {
    if (eat('(')) {
      std::optional<Linear> L = sum();
      return L && eat(')') ? L : std::nullopt;
    }
    skip();
    if (P >= S.size())
      return std::nullopt;
    size_t Start = P;
    Linear L;
    if (std::isdigit(static_cast<unsigned char>(S[P]))) {
      if (S[P] == '0' && P + 1 < S.size() && std::isalnum(static_cast<unsigned char>(S[P + 1])))
        return std::nullopt; // (a leading zero, a suffix, a hexadecimal)
      for (; P < S.size() && std::isdigit(static_cast<unsigned char>(S[P])); ++P)
        if (P - Start >= 18)
          return std::nullopt;
      if (P < S.size() && (nameChar(S[P]) || S[P] == '.'))
        return std::nullopt; // (10u, 1.5, 1e3)
      for (size_t I = Start; I < P; ++I)
        L.C = L.C * 10 + (S[I] - '0');
      Exact &= exact(L.C);
      return L;
    }
    if (!nameStart(S[P]))
      return std::nullopt;
    for (;;) {
      while (P < S.size() && nameChar(S[P]))
        ++P;
      if (P + 1 < S.size() && S[P] == '.' && nameStart(S[P + 1]))
        ++P;
      else
        break;
    }
    std::string_view Name = S.substr(Start, P - Start);
    skip();
    if (P < S.size() && (S[P] == '(' || S[P] == '.'))
      return std::nullopt; // (a call)
    L.Terms.emplace_back(Name, 1);
    Named = true;
    return L;
  }

  std::string_view S;
  size_t P = 0;
};

} // namespace

std::optional<int64_t> foldIntegerText(std::string_view S) {
  Folder F(S);
  std::optional<Linear> L = F.all();
  if (!L || F.Named || !F.Exact)
    return std::nullopt;
  return L->C;
}

std::optional<std::string> foldLinearText(std::string_view S) {
  // An integer literal of any length, possibly negated and in parentheses,
  // prints as itself.
  std::string_view T = S;
  if (T.size() > 2 && T.front() == '(' && T.back() == ')')
    T = T.substr(1, T.size() - 2);
  std::string_view Digits = !T.empty() && T[0] == '-' ? T.substr(1) : T;
  if (!Digits.empty() && (Digits[0] != '0' || Digits.size() == 1) &&
      std::all_of(Digits.begin(), Digits.end(),
                  [](char C) { return std::isdigit(static_cast<unsigned char>(C)); }))
    return Digits == "0" ? std::string("0") : std::string(T);
  std::optional<Linear> L = Folder(S).all();
  if (!L)
    return std::nullopt;
  if (L->Terms.empty())
    return std::to_string(L->C);
  if (L->Terms.size() == 1 && L->Terms[0].second == 1 && L->C == 0)
    return std::string(L->Terms[0].first);
  return std::nullopt;
}

} // namespace segtime
