//===- Expr.cpp - Symbolic expressions of timing formulas -----------------===//
///
/// \file
/// The functions of predictor/Expr.h (idiv, imod, umod, min, max, ltrip,
/// cmp_*) and their registration with GiNaC (seg_sum's evaluation is in
/// ExprSum.cpp), the symbol registry, the parser, free symbols, the bound of
/// an expansion's terms and the removal of terms by name. Numeric
/// evaluation: ExprEval.cpp; printing: ExprPrint.cpp; expression strings:
/// ExprText.cpp.
///
//===----------------------------------------------------------------------===//
#include "predictor/Expr.h"
#include "predictor/ExprDetail.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <regex>
#include <unordered_map>

using namespace GiNaC;

namespace segtime {

using expr_detail::dbl;
using expr_detail::isNum;
using expr_detail::segSumEval;

/// Whether a whole number Q (a quotient or remainder in double) is a long:
/// finite and in range; otherwise idiv and imod stay unevaluated (a NaN
/// cast to long is undefined, and was LONG_MIN on x86).
static bool isLong(double Q) { return std::isfinite(Q) && std::fabs(Q) < 9.2e18; }

static ex idivEval(const ex &A, const ex &B) {
  if (B.is_equal(1))
    return A;
  if (isNum(A) && isNum(B) && !B.is_zero())
    if (double Q = std::trunc(dbl(A) / dbl(B)); isLong(Q))
      return numeric(static_cast<long>(Q));
  return idiv(A, B).hold();
}
static ex imodEval(const ex &A, const ex &B) {
  if (isNum(A) && isNum(B) && !B.is_zero())
    if (double R = std::fmod(std::trunc(dbl(A)), std::trunc(dbl(B))); isLong(R))
      return numeric(static_cast<long>(R));
  return imod(A, B).hold();
}
static ex umodEval(const ex &A, const ex &B) {
  if (isNum(A) && isNum(B) && !B.is_zero()) {
    double M = std::trunc(dbl(B)), R = std::fmod(std::trunc(dbl(A)), M);
    return numeric(static_cast<long>(R < 0 ? R + M : R));
  }
  return umod(A, B).hold();
}
static ex minEval(const ex &A, const ex &B) {
  if (isNum(A) && isNum(B))
    return dbl(A) <= dbl(B) ? A : B;
  if (A.is_equal(B))
    return A;
  return min(A, B).hold();
}
static ex maxEval(const ex &A, const ex &B) {
  if (isNum(A) && isNum(B))
    return dbl(A) >= dbl(B) ? A : B;
  if (A.is_equal(B))
    return A;
  return max(A, B).hold();
}
static ex ltripEval(const ex &A, const ex &B, const ex &C) {
  if (isNum(A) && isNum(B) && isNum(C) && dbl(A) > 0 && dbl(C) > 1) {
    long N = 0;
    for (double I = dbl(A); I < dbl(B); I *= dbl(C))
      ++N;
    return numeric(N);
  }
  return ltrip(A, B, C).hold();
}

static ex cmpEqEval(const ex &A, const ex &B) {
  if (isNum(A) && isNum(B))
    return dbl(A) == dbl(B) ? 1 : 0;
  if (A.is_equal(B))
    return 1;
  return cmp_eq(A, B).hold();
}
static ex cmpLtEval(const ex &A, const ex &B) {
  if (isNum(A) && isNum(B))
    return dbl(A) < dbl(B) ? 1 : 0;
  if (A.is_equal(B))
    return 0;
  return cmp_lt(A, B).hold();
}
static ex cmpLeEval(const ex &A, const ex &B) {
  if (isNum(A) && isNum(B))
    return dbl(A) <= dbl(B) ? 1 : 0;
  if (A.is_equal(B))
    return 1;
  return cmp_le(A, B).hold();
}

REGISTER_FUNCTION(idiv, eval_func(idivEval))
REGISTER_FUNCTION(imod, eval_func(imodEval))
REGISTER_FUNCTION(umod, eval_func(umodEval))
REGISTER_FUNCTION(min, eval_func(minEval))
REGISTER_FUNCTION(max, eval_func(maxEval))
REGISTER_FUNCTION(ltrip, eval_func(ltripEval))
REGISTER_FUNCTION(seg_sum, eval_func(segSumEval))
REGISTER_FUNCTION(cmp_eq, eval_func(cmpEqEval))
REGISTER_FUNCTION(cmp_lt, eval_func(cmpLtEval))
REGISTER_FUNCTION(cmp_le, eval_func(cmpLeEval))
REGISTER_FUNCTION(seg_call, dummy())

symbol sym(const std::string &Name) {
  static std::map<std::string, symbol> Registry;
  auto It = Registry.find(Name);
  if (It != Registry.end())
    return It->second;
  symbol S(Name);
  Registry.emplace(Name, S);
  return S;
}

namespace {

/// The end of the operand of a unary minus or plus that starts at P of S
/// (after spaces): a parenthesised group, a number, or a name with its
/// call's arguments, each with the powers that follow it ("a^2",
/// "a^-b"), or another unary operator's operand.
size_t unaryOperandEnd(const std::string &S, size_t P) {
  auto Space = [&](size_t Q) {
    while (Q < S.size() && S[Q] == ' ')
      ++Q;
    return Q;
  };
  auto Group = [&](size_t Q) { // Q at '(': after its ')'
    for (int Depth = 0; Q < S.size(); ++Q) {
      Depth += S[Q] == '(' ? 1 : S[Q] == ')' ? -1 : 0;
      if (!Depth)
        return Q + 1;
    }
    return Q;
  };
  P = Space(P);
  if (P >= S.size())
    return P;
  if (S[P] == '-' || S[P] == '+')
    return unaryOperandEnd(S, P + 1);
  if (S[P] == '(') {
    P = Group(P);
  } else if (std::isdigit(static_cast<unsigned char>(S[P])) || S[P] == '.') {
    while (P < S.size() && (std::isdigit(static_cast<unsigned char>(S[P])) || S[P] == '.'))
      ++P;
    if (P + 1 < S.size() && (S[P] == 'e' || S[P] == 'E') &&
        (std::isdigit(static_cast<unsigned char>(S[P + 1])) ||
         ((S[P + 1] == '-' || S[P + 1] == '+') && P + 2 < S.size() &&
          std::isdigit(static_cast<unsigned char>(S[P + 2])))))
      for (P += 2; P < S.size() && std::isdigit(static_cast<unsigned char>(S[P]));)
        ++P;
  } else if (std::isalpha(static_cast<unsigned char>(S[P])) || S[P] == '_') {
    while (P < S.size() && (std::isalnum(static_cast<unsigned char>(S[P])) || S[P] == '_'))
      ++P;
    size_t Q = Space(P);
    if (Q < S.size() && S[Q] == '(')
      P = Group(Q);
  } else {
    return P;
  }
  size_t Q = Space(P);
  return Q < S.size() && S[Q] == '^' ? unaryOperandEnd(S, Q + 1) : P;
}

/// S with the operand of every unary minus or plus that follows a binary
/// operator in parentheses with its sign: "-13 - -20 + 1" becomes
/// "-13 - (-20) + 1". GiNaC's parser reads such an operator as the start
/// of a whole sum (parser::parse_unary_expr parses "0 - <the rest>"), so
/// it would read "-13 - (-20 + 1)".
std::string parenthesiseUnary(const std::string &S) {
  std::string Out;
  char Prev = 0; // the last character other than a space copied
  for (size_t P = 0; P < S.size();) {
    char C = S[P];
    if ((C == '-' || C == '+') && Prev && std::strchr("+-*/^", Prev)) {
      size_t End = unaryOperandEnd(S, P + 1);
      std::string Inner = parenthesiseUnary(S.substr(P + 1, End - P - 1));
      Out += "(" + std::string(1, C) + Inner + ")";
      Prev = ')';
      P = End;
      continue;
    }
    Out += C;
    if (C != ' ')
      Prev = C;
    ++P;
  }
  return Out;
}

} // namespace

ex parseExpr(const std::string &Src) {
  // A SEG's frequencies and trip counts are parsed once per weight (each
  // level's time and every counted operation): parse each text once.
  static std::unordered_map<std::string, ex> Parsed;
  auto Hit = Parsed.find(Src);
  if (Hit != Parsed.end())
    return Hit->second;
  // GiNaC's default reader already holds every function registered with
  // REGISTER_FUNCTION (idiv, min, ...), encoded as the parser expects.
  const prototype_table &Table = get_default_reader();
  symtab Syms;
  static const std::regex Ident("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*");
  // GiNaC's lexer reads no name that starts with '_' (a C identifier may;
  // FormulaText's names do) and no callee's parameter in its caller,
  // "kernel.n" (the IR level of inlined code): such a name is read as a
  // token of letters and digits that no name of Src is, bound to the
  // symbol of the real name.
  std::string Text;
  size_t Copied = 0;
  std::map<std::string, std::string> TokenOf;
  for (auto It = std::sregex_iterator(Src.begin(), Src.end(), Ident);
       It != std::sregex_iterator(); ++It) {
    size_t End = It->position() + It->length();
    size_t P = End;
    while (P < Src.size() && Src[P] == ' ')
      ++P;
    if (P < Src.size() && Src[P] == '(')
      continue; // a function name
    std::string Name = It->str(), Token = Name;
    if (Name[0] == '_' || Name.find('.') != std::string::npos) {
      auto [T, New] = TokenOf.emplace(Name, "");
      if (New) {
        T->second = "U" + std::to_string(TokenOf.size());
        while (std::regex_search(Src, std::regex("\\b" + T->second + "\\b")))
          T->second = "U" + T->second;
      }
      Token = T->second;
      Text += Src.substr(Copied, It->position() - Copied) + Token;
      Copied = End;
    }
    Syms[Token] = sym(Name);
  }
  Text += Src.substr(Copied);
  try {
    parser Parse(Syms, true, Table);
    ex E = Parse(parenthesiseUnary(Text));
    Parsed.emplace(Src, E);
    return E;
  } catch (const std::exception &E) {
    throw std::invalid_argument("cannot parse expression '" + Src + "': " + E.what());
  }
}

ex sumOver(const ex &Body, const symbol &K, const ex &N) {
  return seg_sum(Body, K, 0, N - 1);
}

/// (Seen: subexpressions already walked with the same bound indices: a
/// large expression shares its subexpressions, e.g. a memory term's line
/// counts, and walking them once keeps the walk linear in the DAG.)
static void collect(const ex &E, std::set<std::string> &Out, std::set<std::string> &Bound,
                    std::map<std::pair<const basic *, std::set<std::string>>, ex> &Seen,
                    std::unordered_map<const basic *, ex> &SeenFree) {
  // (the map holds E: op() of a product may return a fresh object whose
  // address a later one would otherwise reuse; outside every seg_sum, the
  // common case, by address alone)
  if (E.nops() > 0 && !(Bound.empty() ? SeenFree.emplace(&ex_to<basic>(E), E).second
                                      : Seen.emplace(std::make_pair(&ex_to<basic>(E), Bound), E)
                                            .second))
    return;
  if (is_a<symbol>(E)) {
    const std::string &N = ex_to<symbol>(E).get_name();
    if (!Bound.count(N))
      Out.insert(N);
    return;
  }
  if (is_ex_the_function(E, seg_sum) && is_a<symbol>(E.op(1))) {
    std::string K = ex_to<symbol>(E.op(1)).get_name();
    bool Was = Bound.count(K);
    Bound.insert(K);
    collect(E.op(0), Out, Bound, Seen, SeenFree);
    if (!Was)
      Bound.erase(K);
    collect(E.op(2), Out, Bound, Seen, SeenFree);
    collect(E.op(3), Out, Bound, Seen, SeenFree);
    return;
  }
  for (size_t I = 0; I < E.nops(); ++I)
    collect(E.op(I), Out, Bound, Seen, SeenFree);
}

std::set<std::string> freeSymbols(const ex &E) {
  std::set<std::string> Out, Bound;
  std::map<std::pair<const basic *, std::set<std::string>>, ex> Seen;
  std::unordered_map<const basic *, ex> SeenFree;
  collect(E, Out, Bound, Seen, SeenFree);
  return Out;
}

namespace {
/// subsShared's map: each subexpression object once.
struct SubsShared : map_function {
  const exmap &M;
  std::unordered_map<const basic *, std::pair<ex, ex>> Memo; // (object kept, result)
  explicit SubsShared(const exmap &M) : M(M) {}
  ex operator()(const ex &E) override {
    if (is_a<symbol>(E)) {
      auto It = M.find(E);
      return It == M.end() ? E : It->second;
    }
    if (E.nops() == 0)
      return E;
    const basic *Key = &ex_to<basic>(E);
    if (auto It = Memo.find(Key); It != Memo.end())
      return It->second.second;
    ex R = E.map(*this);
    Memo.emplace(Key, std::make_pair(E, R));
    return R;
  }
};

/// Whether an expression holds a symbol that Accept takes, each
/// subexpression object walked once (hasShared, dropTermsWith).
struct SymbolSearch {
  std::function<bool(const symbol &)> Accept;
  std::unordered_map<const basic *, std::pair<ex, bool>> Memo; // (object kept, result)
  bool has(const ex &E) {
    if (is_a<symbol>(E))
      return Accept(ex_to<symbol>(E));
    if (E.nops() == 0)
      return false;
    const basic *Key = &ex_to<basic>(E);
    if (auto It = Memo.find(Key); It != Memo.end())
      return It->second.second;
    bool R = false;
    for (size_t I = 0; I < E.nops() && !R; ++I)
      R = has(E.op(I));
    Memo.emplace(Key, std::make_pair(E, R));
    return R;
  }
};

/// Seen: the objects met, kept alive (an operand of a sum may be a
/// temporary whose address would otherwise be reused).
void dagWalk(const ex &E, std::unordered_map<const basic *, ex> &Seen) {
  if (!Seen.emplace(&ex_to<basic>(E), E).second)
    return;
  for (size_t I = 0; I < E.nops(); ++I)
    dagWalk(E.op(I), Seen);
}
} // namespace

ex subsShared(const ex &E, const exmap &M) {
  if (M.empty())
    return E;
  for (const auto &KV : M)
    if (!is_a<symbol>(KV.first))
      throw std::invalid_argument("subsShared: a key is not a symbol: " + toString(KV.first));
  SubsShared S(M);
  return S(E);
}

bool hasShared(const ex &E, const symbol &S) {
  SymbolSearch H{[&S](const symbol &X) { return X.is_equal(S); }, {}};
  return H.has(E);
}

size_t dagSize(const ex &E) {
  std::unordered_map<const basic *, ex> Seen;
  dagWalk(E, Seen);
  return Seen.size();
}

namespace {
/// expandedTermsBound's walk: each subexpression object once.
struct TermBound {
  size_t Limit;
  size_t Inner = 0; ///< terms of the function arguments expand() expands
  std::unordered_map<const basic *, std::pair<ex, size_t>> Memo;
  size_t sat(double V) const { return V > double(Limit) ? Limit + 1 : size_t(V); }
  size_t terms(const ex &E) {
    if (E.nops() == 0)
      return 1;
    const basic *Key = &ex_to<basic>(E);
    if (auto It = Memo.find(Key); It != Memo.end())
      return It->second.second;
    double R = 1;
    if (is_exactly_a<add>(E)) {
      R = 0;
      for (size_t I = 0; I < E.nops() && R <= Limit; ++I)
        R += terms(E.op(I));
    } else if (is_exactly_a<mul>(E)) {
      for (size_t I = 0; I < E.nops() && R <= Limit; ++I)
        R *= terms(E.op(I));
    } else if (is_exactly_a<power>(E)) {
      double B = terms(E.op(0));
      const ex &X = E.op(1);
      if (is_a<numeric>(X) && ex_to<numeric>(X).is_pos_integer() && B > 1) {
        // monomials of a sum of B terms to the k: binomial(B + k - 1, k)
        long K = ex_to<numeric>(X).to_long();
        for (long J = 1; J <= K && R <= Limit; ++J)
          R = R * (B + K - J) / J;
      } else {
        Inner = sat(double(Inner) + B);
      }
    } else {
      for (size_t I = 0; I < E.nops(); ++I)
        Inner = sat(double(Inner) + terms(E.op(I)));
    }
    size_t N = sat(R);
    Memo.emplace(Key, std::make_pair(E, N));
    return N;
  }
};
} // namespace

size_t expandedTermsBound(const ex &E, size_t Limit) {
  TermBound B{Limit};
  double T = B.terms(E);
  return B.sat(T + double(B.Inner));
}

ex expandWithin(const ex &E, size_t MaxTerms, bool *Expanded) {
  bool Do = MaxTerms == 0 || expandedTermsBound(E, MaxTerms) <= MaxTerms;
  if (Expanded)
    *Expanded = Do;
  return Do ? expand(E) : E;
}

namespace {
/// dropTermsWith's map, once per subexpression object.
struct DropTerms : map_function {
  const std::set<std::string> &Names;
  std::unordered_map<const basic *, std::pair<ex, ex>> Memo;
  explicit DropTerms(const std::set<std::string> &Names) : Names(Names) {}
  SymbolSearch Has{[this](const symbol &S) { return Names.count(S.get_name()) > 0; }, {}};
  bool mentions(const ex &E) { return Has.has(E); }
  ex operator()(const ex &E) override {
    if (E.nops() == 0)
      return E;
    const basic *Key = &ex_to<basic>(E);
    if (auto It = Memo.find(Key); It != Memo.end())
      return It->second.second;
    ex R;
    if (!mentions(E)) {
      R = E;
    } else if (is_exactly_a<add>(E)) {
      // (terms cleaned inside first: a name inside max(...) goes, not the max)
      exvector Keep;
      for (size_t I = 0; I < E.nops(); ++I) {
        ex T = (*this)(E.op(I));
        if (!mentions(T))
          Keep.push_back(T);
      }
      R = add(Keep);
    } else {
      R = E.map(*this);
    }
    Memo.emplace(Key, std::make_pair(E, R));
    return R;
  }
};
} // namespace

ex dropTermsWith(const ex &E, const std::set<std::string> &Names) {
  if (Names.empty())
    return E;
  DropTerms D(Names);
  return D(E);
}

} // namespace segtime
