//===- IRFreqPoly.cpp - Block frequencies in exact branch conditions ------===//
///
/// \file
/// A block frequency as a polynomial in 0/1 branch conditions (Builder::Poly):
/// products, the rejoining of the two sides of one condition (simplify), the
/// cap on monomials and the budget of symbolic work, and the text written
/// into the SEG.
///
//===----------------------------------------------------------------------===//
#include "passes/IRSegBuilder.h"

#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <cmath>
#include <regex>

using namespace llvm;

namespace segtime {
namespace irseg {

/// The factors of a monomial of a Poly, in order: the pieces between its
/// '\x1f' separators (as std::getline reads them: none for "", no empty
/// piece after a trailing separator).
std::vector<std::string> Builder::factorList(const std::string &M) {
  std::vector<std::string> Fs;
  for (size_t From = 0; From < M.size();) {
    size_t End = M.find('\x1f', From);
    if (End == std::string::npos)
      End = M.size();
    Fs.emplace_back(M, From, End - From);
    From = End + 1;
  }
  return Fs;
}

/// The factors of monomial M as pieces of M (no copies), appended to Fs
/// in order: the pieces factorList copies.
static void splitFactors(StringRef M, SmallVectorImpl<StringRef> &Fs) {
  for (size_t From = 0; From < M.size();) {
    size_t End = M.find('\x1f', From);
    if (End == StringRef::npos)
      End = M.size();
    Fs.push_back(M.slice(From, End));
    From = End + 1;
  }
}

/// Appends the monomial of factors Fs (Builder::monomial) to K.
static void appendMonomial(std::string &K, ArrayRef<StringRef> Fs) {
  for (size_t I = 0; I < Fs.size(); ++I) {
    if (I)
      K += '\x1f';
    K.append(Fs[I].data(), Fs[I].size());
  }
}

/// X if A is "(1 - X)" (one parenthesised negation), else nullopt.
static std::optional<StringRef> negatedRef(StringRef A) {
  if (!A.starts_with("(1 - ") || A.back() != ')')
    return std::nullopt;
  int Depth = 0;
  for (size_t I = 0; I + 1 < A.size(); ++I) {
    Depth += A[I] == '(' ? 1 : A[I] == ')' ? -1 : 0;
    if (Depth == 0)
      return std::nullopt; // "(1 - a)*(1 - b)": the first parenthesis closes early
  }
  return A.substr(5, A.size() - 6);
}

/// The factors of a monomial of a Poly.
std::set<std::string> Builder::factors(const std::string &M) {
  std::vector<std::string> Fs = factorList(M);
  return std::set<std::string>(Fs.begin(), Fs.end());
}

/// Does expression E name only iteration numbers of loops that Text can
/// name now? (The nest's own loops are summed over in memoryOf.)
bool Builder::inScope(const std::string &E) const {
  if (E.find("k_") == std::string::npos)
    return true; // (no counter named: the common case, without the regex)
  static const std::regex Index("k_[A-Za-z0-9_.$]*?_ir[0-9]+");
  std::set<std::string> Known;
  for (auto &[L, K] : Text.LoopIndex)
    Known.insert(K);
  for (auto It = std::sregex_iterator(E.begin(), E.end(), Index); It != std::sregex_iterator();
       ++It)
    if (!Known.count(It->str()))
      return false;
  return true;
}

/// To += From * Scale * Factor (Factor: an expression, "" for 1, "0").
/// Conditions are 0/1 indicators: a factor already in a monomial is not
/// repeated (c*c = c), and c*(1 - c) = 0. Each monomial of From is one
/// unit of the function's symbolic work (spend).
void Builder::addScaled(Poly &To, const Poly &From, double Scale, const std::string &Factor) {
  if (Scale == 0 || Factor == "0")
    return;
  spend(From.size());
  if (Factor.empty() || Factor == "1") {
    for (auto &[M, C] : From)
      To[M] += C * Scale; // M's factors are sorted and distinct already
    return;
  }
  const std::string Neg = negation(Factor);
  SmallVector<StringRef, 8> Fs;
  for (auto &[M, C] : From) {
    Fs.clear();
    splitFactors(M, Fs); // sorted, distinct
    if (std::binary_search(Fs.begin(), Fs.end(), StringRef(Neg)))
      continue;
    auto At = std::lower_bound(Fs.begin(), Fs.end(), StringRef(Factor));
    if (At != Fs.end() && *At == Factor) {
      To[M] += C * Scale;
      continue;
    }
    Fs.insert(At, Factor);
    std::string K;
    K.reserve(M.size() + Factor.size() + 1);
    appendMonomial(K, Fs);
    To[std::move(K)] += C * Scale;
  }
}

/// An order-free hash of the factors Fs of a monomial: the sum of their
/// texts' hashes (a monomial with X in place of a factor "(1 - X)" then
/// has hash H - h("(1 - X)") + h(X), with no sorting or joining).
static uint64_t factorHash(StringRef F) { return llvm::xxh3_64bits(F); }

/// Whether P has something mergeable could merge: two monomials, one with
/// a negated factor "(1 - X)".
static bool mayMerge(const FlatPoly &P) {
  return P.size() >= 2 && llvm::any_of(P, [](const auto &MC) {
           return MC.first.find("(1 - ") != std::string::npos;
         });
}

/// Whether simplify merges two monomials of P: a monomial with a factor
/// "(1 - X)" whose monomial with X in its place is in P with the same
/// coefficient. If none, the look costs what simplify's first look at
/// each monomial costs (its factors + 1 units of symbolic work), spent
/// here; if there is one, nothing is spent (simplify's merging spends it).
///
/// The monomials' factor hashes (factorHash) sift the candidates: only a
/// swapped monomial whose hash is one of P's is built and looked up.
bool Builder::mergeable(const Poly &P) {
  if (!mayMerge(P))
    return false;
  uint64_t Units = 0;
  SmallVector<StringRef, 8> Fs, Other;
  SmallVector<uint64_t, 16> Hash, Sorted; // (per monomial, in P's order)
  Hash.reserve(P.size());
  for (auto &[M, C] : P) {
    Fs.clear();
    splitFactors(M, Fs);
    Units += Fs.size() + 1;
    uint64_t H = 0;
    for (StringRef F : Fs)
      H += factorHash(F);
    Hash.push_back(H);
  }
  Sorted.assign(Hash.begin(), Hash.end());
  llvm::sort(Sorted);
  std::string Key;
  size_t N = 0;
  for (auto &[M, C] : P) {
    uint64_t H = Hash[N++];
    if (M.find("(1 - ") == std::string::npos)
      continue;
    Fs.clear();
    splitFactors(M, Fs);
    for (size_t I = 0; I < Fs.size(); ++I) {
      std::optional<StringRef> X = negatedRef(Fs[I]);
      if (!X || !std::binary_search(Sorted.begin(), Sorted.end(),
                                    H - factorHash(Fs[I]) + factorHash(*X)))
        continue;
      Other.assign(Fs.begin(), Fs.end());
      Other[I] = *X;
      std::sort(Other.begin(), Other.end());
      Key.clear();
      appendMonomial(Key, Other);
      auto It = P.find(Key);
      if (It != P.end() && !(std::fabs(It->second - C) > 1e-12 * std::fabs(C)))
        return true;
    }
  }
  spend(Units);
  return false;
}

/// M*c + M*(1 - c) = M in P (the two sides of one exact condition
/// rejoin), until no two monomials merge; always the first mergeable
/// monomial in P's order first, at its first factor "(1 - X)" such that
/// the monomial with X in its place is in P with the same coefficient.
///
/// The factors are numbered in their text's order, so that monomials as
/// sorted vectors of numbers compare as their texts do; the mergeable
/// monomials are kept in a set and, after each merge, only those next to
/// the three changed (one factor swapped for its other side) are looked
/// at again. Each monomial looked at costs its factors in units of
/// symbolic work.
void Builder::simplify(Poly &P) {
  if (!mergeable(P))
    return; // (the common case: P unchanged, looked at without copies)
  using Mono = std::vector<unsigned>;
  // (the factors as pieces of P's monomials, which outlive the merging:
  // P is rebuilt from them at the end)
  std::map<StringRef, unsigned> Id;
  SmallVector<StringRef, 8> Fs;
  for (auto &[M, C] : P) {
    Fs.clear();
    splitFactors(M, Fs);
    for (StringRef F : Fs)
      Id.emplace(F, 0);
  }
  std::vector<StringRef> Text;
  Text.reserve(Id.size());
  for (auto &[F, N] : Id) {
    N = Text.size();
    Text.push_back(F);
  }
  // Other side of each factor: X for "(1 - X)" (Neg), and the reverse
  // (Pos), where both are factors of P.
  const unsigned None = ~0u;
  std::vector<unsigned> Neg(Text.size(), None), Pos(Text.size(), None);
  for (unsigned I = 0; I < Text.size(); ++I)
    if (std::optional<StringRef> X = negatedRef(Text[I]))
      if (auto It = Id.find(*X); It != Id.end()) {
        Neg[I] = It->second;
        Pos[It->second] = I;
      }
  std::map<Mono, double> Q;
  for (auto &[M, C] : P) {
    Fs.clear();
    splitFactors(M, Fs);
    Mono K;
    K.reserve(Fs.size());
    for (StringRef F : Fs)
      K.push_back(Id.find(F)->second);
    Q.emplace(std::move(K), C);
  }
  auto Swapped = [](const Mono &K, size_t I, unsigned F) { // K sorted: R sorted
    Mono R;
    R.reserve(K.size());
    bool Put = false;
    for (size_t J = 0; J < K.size(); ++J) {
      if (J == I)
        continue;
      if (!Put && F < K[J]) {
        R.push_back(F);
        Put = true;
      }
      R.push_back(K[J]);
    }
    if (!Put)
      R.push_back(F);
    return R;
  };
  // The monomial M merges with, and the factor position, if any.
  auto MergeOf = [&](const Mono &M, double C, Mono &Other, size_t &At) {
    spend(M.size() + 1);
    for (size_t I = 0; I < M.size(); ++I) {
      if (Neg[M[I]] == None)
        continue;
      Mono O = Swapped(M, I, Neg[M[I]]);
      auto It = Q.find(O);
      if (It == Q.end() || std::fabs(It->second - C) > 1e-12 * std::fabs(C))
        continue;
      Other = std::move(O);
      At = I;
      return true;
    }
    return false;
  };
  std::set<Mono> Ready;
  Mono Other;
  size_t At;
  auto Check = [&](const Mono &M) {
    auto It = Q.find(M);
    if (It != Q.end() && MergeOf(M, It->second, Other, At))
      Ready.insert(M);
    else
      Ready.erase(M);
  };
  for (auto &[M, C] : Q)
    Check(M);
  if (Ready.empty())
    return; // (P unchanged)
  while (!Ready.empty()) {
    Mono M = *Ready.begin();
    double Coef = Q.at(M);
    MergeOf(M, Coef, Other, At);
    Mono Merged = Other, Key = M;
    Key.erase(Key.begin() + At);
    Q.erase(Merged);
    Q.erase(M);
    Q[Key] += Coef;
    std::set<Mono> Again{M, Merged, Key};
    for (const Mono *X : {&M, &Merged, &Key})
      for (size_t I = 0; I < X->size(); ++I)
        for (unsigned F : {Neg[(*X)[I]], Pos[(*X)[I]]})
          if (F != None)
            Again.insert(Swapped(*X, I, F));
    for (const Mono &Y : Again)
      Check(Y);
  }
  Poly R;
  R.reserve(Q.size());
  for (auto &[K, C] : Q) {
    std::string M;
    for (unsigned F : K) {
      if (!M.empty())
        M += '\x1f';
      M.append(Text[F].data(), Text[F].size());
    }
    R.append(std::move(M), C);
  }
  P = std::move(R); // (Text's pieces of P's old monomials are not read again)
}

/// Completes the frequency P of a region member (all its incoming edges
/// added): simplified; the numeric estimate Numeric instead if it has
/// more than MaxTerms monomials or the function's symbolic work has
/// passed its budget (each counted in Out.Notes).
void Builder::settle(double Numeric, Poly &P) {
  simplify(P);
  bool Large = P.size() > MaxTerms;
  if (!Large && !overBudget())
    return;
  if (Large)
    ++CappedFrequencies;
  P = Poly{{"", Numeric}};
}

/// P as an expression ("" for 1), or nullopt if too large to be useful
/// (the numeric frequency is used then); P simplified first (a copy of
/// it, if simplify merges anything).
std::optional<std::string> Builder::render(const Poly &P) {
  if (mergeable(P)) {
    Poly Q = P;
    simplify(Q);
    return text(Q);
  }
  return text(P);
}

std::optional<std::string> Builder::renderSettled(const Poly &P) {
  // What mergeable(P) spends when it finds nothing: the factors of each
  // monomial and one more, where there is something to look at.
  if (mayMerge(P)) {
    uint64_t Units = 0;
    for (auto &[M, C] : P)
      Units += (M.empty() ? 0 : std::count(M.begin(), M.end(), '\x1f') + 1) + 1;
    spend(Units);
  }
  return text(P);
}

/// The text of P as render writes it, with no merging; nullopt if longer
/// than 4000 characters.
std::optional<std::string> Builder::text(const Poly &P) {
  std::string R;
  for (auto &[M, C] : P) {
    if (C == 0)
      continue;
    if (!R.empty())
      R += " + ";
    if (M.empty() || C != 1)
      R += num(C);
    if (!M.empty()) {
      if (C != 1)
        R += '*';
      size_t From = R.size();
      R += M;
      std::replace(R.begin() + From, R.end(), '\x1f', '*');
    }
    if (R.size() > 4000)
      return std::nullopt;
  }
  return R == "1" ? "" : R.empty() ? "0" : R;
}

/// X if A is "(1 - X)" (one parenthesised negation), else nullopt: not
/// not c is c.
std::optional<std::string> Builder::negated(const std::string &A) {
  if (std::optional<StringRef> X = negatedRef(A))
    return X->str();
  return std::nullopt;
}

/// 1 - A for a 0/1 condition A, written without a double negation.
std::string Builder::negation(const std::string &A) {
  if (A == "1" || A == "0")
    return A == "1" ? "0" : "1";
  if (auto X = negated(A))
    return *X;
  int Depth = 0; // a sum ("a + b", from render) is parenthesised
  bool Sum = false;
  for (char C : A) {
    Depth += C == '(' ? 1 : C == ')' ? -1 : 0;
    Sum |= Depth == 0 && C == ' ';
  }
  return "(1 - " + (Sum ? "(" + A + ")" : A) + ")";
}

} // namespace irseg
} // namespace segtime
