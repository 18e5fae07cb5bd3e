//===- Expr.cpp - Symbolic expressions of timing formulas -----------------===//
#include "predictor/Expr.h"
#include "predictor/ExprText.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <regex>
#include <sstream>
#include <tuple>
#include <unordered_map>

using namespace GiNaC;

namespace segtime {

static bool isNum(const ex &E) { return is_a<numeric>(E) && ex_to<numeric>(E).is_real(); }
static double dbl(const ex &E) { return ex_to<numeric>(E).to_double(); }

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

/// Sum_{k=0}^{N-1} k^d = 1/(d+1) Sum_{j=0}^{d} binom(d+1, j) B_j N^(d+1-j),
/// with B_1 = -1/2 (Faulhaber).
static ex powerSum(int D, const ex &N) {
  ex S = 0;
  for (int J = 0; J <= D; ++J)
    S += binomial(numeric(D + 1), numeric(J)) * bernoulli(numeric(J)) * pow(N, D + 1 - J);
  return expand(S / (D + 1));
}

/// An integer that a double holds exactly (|v| < 2^52).
static bool exactInt(double V) {
  return V == std::trunc(V) && std::fabs(V) < 4503599627370496.0;
}

namespace {
/// The body of a numeric seg_sum compiled once into a list of operations
/// (operands before their users; a subexpression object shared in the body is
/// one operation) and evaluated in double arithmetic for each value of the
/// index. Substituting the index and re-evaluating the whole GiNaC tree for
/// every term took seconds for lu's IR bodies at n = 320. Covers sums,
/// products, numeric powers and the integer functions; a comparison, integer
/// division or modulus whose operands are not exact integers makes that term
/// fall back to GiNaC, so that every decision is the one its exact
/// arithmetic takes.
class TermProgram {
public:
  TermProgram(const ex &Body, const symbol &K) : Index(K) {
    Ok = compile(Body) >= 0;
  }
  bool ok() const { return Ok; }
  /// The body at K = KVal; false if a term needs GiNaC's exact arithmetic.
  bool value(double KVal, double &Out) {
    for (size_t I = 0; I < Ops.size(); ++I) {
      const Op &O = Ops[I];
      double A = O.Args.empty() ? 0 : Vals[O.Args[0]];
      double B = O.Args.size() > 1 ? Vals[O.Args[1]] : 0;
      double &V = Vals[I];
      switch (O.K) {
      case Const:
        V = O.C;
        break;
      case Var:
        V = KVal;
        break;
      case Add:
        V = 0;
        for (int J : O.Args)
          V += Vals[J];
        break;
      case Mul:
        V = 1;
        for (int J : O.Args)
          V *= Vals[J];
        break;
      case Pow:
        V = std::pow(A, O.C);
        if (!std::isfinite(V))
          return false;
        break;
      case Min:
        V = std::min(A, B);
        break;
      case Max:
        V = std::max(A, B);
        break;
      default:
        if (!exactInt(A) || !exactInt(B))
          return false;
        switch (O.K) {
        case CmpEq:
          V = A == B;
          break;
        case CmpLt:
          V = A < B;
          break;
        case CmpLe:
          V = A <= B;
          break;
        default: {
          if (B == 0)
            return false;
          double R = std::fmod(A, B);
          V = O.K == Idiv   ? std::trunc(A / B)
              : O.K == Imod ? R
              : R < 0       ? R + B
                            : R;
        }
        }
      }
    }
    Out = Vals.back();
    return true;
  }

private:
  enum Kind {
    Const,
    Var,
    Add,
    Mul,
    Pow,
    Min,
    Max,
    CmpEq,
    CmpLt,
    CmpLe,
    Idiv,
    Imod,
    Umod
  };
  struct Op {
    Kind K;
    double C = 0;
    std::vector<int> Args;
  };
  /// Index of E's operation, -1 if E has something not covered.
  int compile(const ex &E) {
    const basic *Key = &ex_to<basic>(E);
    auto Seen = Done.find(Key);
    if (Seen != Done.end())
      return Seen->second;
    Op O;
    if (is_exactly_a<numeric>(E)) {
      if (!isNum(E))
        return -1;
      O = {Const, dbl(E), {}};
    } else if (is_exactly_a<symbol>(E)) {
      if (!E.is_equal(Index))
        return -1;
      O = {Var, 0, {}};
    } else if (is_exactly_a<power>(E)) {
      if (!isNum(E.op(1)))
        return -1;
      O = {Pow, dbl(E.op(1)), {}};
    } else if (is_exactly_a<add>(E) || is_exactly_a<mul>(E)) {
      O.K = is_exactly_a<add>(E) ? Add : Mul;
    } else if (is_exactly_a<function>(E) && E.nops() == 2) {
      static const std::vector<std::pair<unsigned, Kind>> Fns = {
          {min_SERIAL::serial, Min},      {max_SERIAL::serial, Max},
          {cmp_eq_SERIAL::serial, CmpEq}, {cmp_lt_SERIAL::serial, CmpLt},
          {cmp_le_SERIAL::serial, CmpLe}, {idiv_SERIAL::serial, Idiv},
          {imod_SERIAL::serial, Imod},    {umod_SERIAL::serial, Umod}};
      unsigned Serial = ex_to<function>(E).get_serial();
      auto F = std::find_if(Fns.begin(), Fns.end(),
                            [&](auto &P) { return P.first == Serial; });
      if (F == Fns.end())
        return -1;
      O.K = F->second;
    } else {
      return -1;
    }
    if (O.K != Const && O.K != Var)
      for (size_t I = 0; I < (O.K == Pow ? 1 : E.nops()); ++I) {
        int A = compile(E.op(I));
        if (A < 0)
          return -1;
        O.Args.push_back(A);
      }
    Ops.push_back(std::move(O));
    Vals.push_back(0);
    Keep.push_back(E); // keeps Key the address of this object
    return Done[Key] = static_cast<int>(Ops.size()) - 1;
  }

  symbol Index;
  bool Ok = false;
  std::vector<Op> Ops;
  std::vector<double> Vals;
  std::vector<ex> Keep;
  std::unordered_map<const basic *, int> Done;
};
} // namespace

static ex segSumEval(const ex &Body, const ex &K, const ex &Lo, const ex &Hi) {
  if (!is_a<symbol>(K))
    return seg_sum(Body, K, Lo, Hi).hold();
  ex N = Hi - Lo + 1;
  if (isNum(N) && dbl(N) <= 0)
    return 0;
  if (!Body.has(K))
    return N * Body;
  const symbol &S = ex_to<symbol>(K);
  if (Body.is_polynomial(S)) {
    ex P = expand(Body.subs(S == S + Lo));
    ex R = 0;
    for (int D = P.ldegree(S); D <= P.degree(S); ++D)
      R += P.coeff(S, D) * powerSum(D, N);
    return R;
  }
  if (isNum(Lo) && isNum(N) && dbl(N) <= 5e6) {
    // The same numeric sum recurs in one prediction (a memory term's line
    // counts appear in several terms of a nest's transfer time): once.
    static std::unordered_map<ex, numeric, std::hash<ex>, ex_is_equal> Memo;
    ex Key = lst{Body, K, Lo, Hi};
    if (auto It = Memo.find(Key); It != Memo.end())
      return It->second;
    if (Memo.size() > 100000)
      Memo.clear();
    auto Free = freeSymbols(Body);
    if (Free.size() == 1 && *Free.begin() == S.get_name()) {
      double Acc = 0;
      long L = static_cast<long>(dbl(Lo));
      long Cnt = static_cast<long>(dbl(N));
      TermProgram Prog(Body, S);
      for (long I = 0; I < Cnt; ++I) {
        double Fast;
        if (Prog.ok() && Prog.value(double(L + I), Fast)) {
          Acc += Fast;
          continue;
        }
        ex V = Body.subs(S == numeric(L + I));
        V = V.evalf();
        if (!isNum(V))
          return seg_sum(Body, K, Lo, Hi).hold();
        Acc += dbl(V);
      }
      return Memo[Key] = numeric(Acc);
    }
  }
  return seg_sum(Body, K, Lo, Hi).hold();
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

symbol sym(const std::string &Name) {
  static std::map<std::string, symbol> Registry;
  auto It = Registry.find(Name);
  if (It != Registry.end())
    return It->second;
  symbol S(Name);
  Registry.emplace(Name, S);
  return S;
}

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
    ex E = Parse(Text);
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
  std::unordered_map<const basic *, std::pair<ex, bool>> Has;
  bool mentions(const ex &E) {
    if (is_a<symbol>(E))
      return Names.count(ex_to<symbol>(E).get_name()) > 0;
    if (E.nops() == 0)
      return false;
    const basic *Key = &ex_to<basic>(E);
    if (auto It = Has.find(Key); It != Has.end())
      return It->second.second;
    bool R = false;
    for (size_t I = 0; I < E.nops() && !R; ++I)
      R = mentions(E.op(I));
    Has.emplace(Key, std::make_pair(E, R));
    return R;
  }
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

namespace {
/// Substitutes numbers for symbols and evaluates, combining the numbers of
/// every sum and product in an order of their own: exact (rational) ones
/// exactly, the others as GiNaC floats (evalf's precision) in ascending
/// order of value. GiNaC keeps a sum's or product's operands in the order of
/// their hashes, which depend on memory addresses (type names' addresses
/// under ASLR), so its evalf adds the same floats in an order that changes
/// from run to run and the last digit with it. Each subexpression object is
/// evaluated once: a shared object (a memory term's line counts) is not
/// walked again at every use, as GiNaC's subs would (conv2d's ICC closed
/// form: 50 s).
struct CanonicalEval : map_function {
  const exmap &M;
  std::unordered_map<const basic *, std::pair<ex, ex>> Memo; // (object kept, result)
  explicit CanonicalEval(const exmap &M) : M(M) {}
  ex operator()(const ex &E) override {
    if (is_a<symbol>(E)) {
      auto It = M.find(E);
      return It == M.end() ? E : It->second;
    }
    if (is_a<numeric>(E))
      return E;
    if (E.nops() == 0)
      return E.evalf();
    const basic *Key = &ex_to<basic>(E);
    if (auto It = Memo.find(Key); It != Memo.end())
      return It->second.second;
    ex R;
    bool Sum = is_a<add>(E);
    if (Sum || is_a<mul>(E)) {
      exvector Ops;
      bool AllNum = true;
      for (const ex &Op : E) {
        Ops.push_back((*this)(Op));
        AllNum = AllNum && isNum(Ops.back());
      }
      if (AllNum) {
        numeric Exact = Sum ? 0 : 1;
        std::vector<numeric> Inexact;
        for (const ex &V : Ops) {
          const numeric &N = ex_to<numeric>(V);
          if (N.is_rational())
            Exact = Sum ? Exact + N : Exact * N;
          else
            Inexact.push_back(N);
        }
        if (Inexact.empty()) {
          R = Exact;
        } else {
          // GiNaC's floats (evalf's precision), in ascending order of value.
          std::stable_sort(Inexact.begin(), Inexact.end(), [](const numeric &A, const numeric &B) {
            return A.is_real() && B.is_real() ? A < B : A.to_double() < B.to_double();
          });
          numeric Acc = Exact;
          for (const numeric &N : Inexact)
            Acc = Sum ? Acc + N : Acc * N;
          R = Acc;
        }
      } else {
        R = Sum ? ex(add(Ops)) : ex(mul(Ops));
      }
    } else {
      R = E.map(*this);
      if (!isNum(R))
        R = R.evalf();
    }
    Memo.emplace(Key, std::make_pair(E, R));
    return R;
  }
};
} // namespace

ex dropRoundoff(const ex &E, double Rel) {
  if (!is_a<add>(E))
    return E;
  // A term's numeric coefficient if it is not exact (a float), else 0.
  auto FloatCoeff = [](const ex &T) {
    numeric C = 1;
    if (is_a<numeric>(T))
      C = ex_to<numeric>(T);
    else if (is_a<mul>(T))
      for (const ex &F : T)
        if (is_a<numeric>(F))
          C *= ex_to<numeric>(F);
    return C.is_real() && !C.is_rational() ? std::fabs(C.to_double()) : 0.0;
  };
  double Max = 0;
  for (const ex &T : E)
    Max = std::max(Max, FloatCoeff(T));
  exvector Kept;
  bool Dropped = false;
  for (const ex &T : E) {
    double C = FloatCoeff(T);
    if (C > 0 && C < Rel * Max)
      Dropped = true;
    else
      Kept.push_back(T);
  }
  return Dropped ? ex(add(Kept)) : E;
}

double evaluate(const ex &E, const std::map<std::string, double> &Values) {
  exmap M;
  for (const std::string &S : freeSymbols(E)) {
    auto It = Values.find(S);
    if (It != Values.end())
      M[sym(S)] = numeric(It->second);
  }
  CanonicalEval Eval(M);
  ex V = Eval(E);
  if (!isNum(V)) {
    std::string Missing;
    for (const std::string &S : freeSymbols(V))
      Missing += (Missing.empty() ? "" : ", ") + S;
    throw std::runtime_error(Missing.empty() ? "expression did not evaluate to a number"
                                             : "no value for " + Missing);
  }
  return dbl(V);
}

namespace {
/// Prints an expression for humans: numbers with Digits significant digits,
/// products with '*', powers with '^', sums with ' + ' / ' - '.
struct HumanPrinter {
  int Digits;
  /// Text of every subexpression object printed so far, by identity (the ex
  /// is kept so that the address stays its own): a sum is printed once for
  /// its sort key and once in place, so without it the work doubles with
  /// every level of nesting (lu's IR closed forms: 19 s at n = 48).
  mutable std::unordered_map<const basic *, std::pair<ex, std::string>> Memo;
  /// signedSum's choice for every sum factor printed so far, by identity
  /// (the sum and its negation kept alive).
  mutable std::unordered_map<const basic *, std::pair<ex, std::pair<std::string, bool>>> SumMemo;
  static std::string num(const numeric &N, int Digits) {
    if (N.is_integer() || (N.is_rational() && N.denom() < 10000)) {
      std::ostringstream OS;
      OS << N;
      return OS.str();
    }
    char Buf[64];
    std::snprintf(Buf, sizeof Buf, "%.*g", Digits, N.to_double());
    return Buf;
  }
  int prec(const ex &E) const {
    if (is_a<add>(E)) return 1;
    if (is_a<mul>(E)) return 2;
    if (is_a<numeric>(E)) {
      const numeric &N = ex_to<numeric>(E);
      if (N.is_negative() || (N.is_rational() && !N.is_integer())) return 2;
    }
    if (is_a<power>(E)) return 3;
    return 4;
  }
  std::string wrap(const ex &E, int Min) const {
    std::string S = str(E);
    return prec(E) < Min ? "(" + S + ")" : S;
  }
  /// The text of sum S with the sign that writes it first: of S and -S,
  /// the one whose text does not start with '-', else the smaller text;
  /// Flip says -S was taken. GiNaC takes the sign of a sum factor from the
  /// term it happens to list first (mul::eval strips the "unit part",
  /// choosing a main variable by hash order, which changes from run to run:
  /// (a - b)*(c - d) one run, (b - a)*(d - c) the next): printing the sum
  /// factors of a product this way makes the text independent of that.
  std::pair<std::string, bool> signedSum(const ex &S) const {
    auto It = SumMemo.find(&ex_to<basic>(S));
    if (It != SumMemo.end())
      return It->second.second;
    ex Neg = -S; // an add again (GiNaC distributes a number over a sum)
    std::string P = str(S), N = str(Neg);
    auto Key = [](const std::string &X) { return std::make_pair(!X.empty() && X[0] == '-', X); };
    std::pair<std::string, bool> R = Key(N) < Key(P) ? std::make_pair(N, true)
                                                     : std::make_pair(P, false);
    SumMemo.emplace(&ex_to<basic>(S), std::make_pair(lst{S, Neg}, R));
    return R;
  }
  /// Factor B^E of a product at precedence Min (E = 1: B alone); a sum
  /// raised to an integer power is written with signedSum's sign, and C
  /// takes (-1)^E if that flipped it.
  std::string factor(const ex &B, const ex &E, numeric &C, int Min) const {
    std::string BT;
    bool One = E.is_equal(1);
    if (is_a<add>(B) && is_a<numeric>(E) && ex_to<numeric>(E).is_integer()) {
      auto [T, Flip] = signedSum(B);
      if (Flip && ex_to<numeric>(E).is_odd())
        C = -C;
      BT = "(" + T + ")";
    } else {
      BT = wrap(B, One ? Min : 4);
    }
    if (One)
      return BT;
    std::string S = BT + "^" + wrap(E, 4);
    return Min > 3 ? "(" + S + ")" : S;
  }
  /// A term as its numeric coefficient (signs of sum factors included, see
  /// signedSum) and the text of its other factors ("" for none). Factors
  /// with negative exponents go below a '/': a*b^(-1)*c^(-2) -> a/(b*c^2);
  /// factors are sorted by text on each side.
  std::pair<numeric, std::string> termParts(const ex &T) const {
    if (is_a<numeric>(T))
      return {ex_to<numeric>(T), ""};
    numeric C = 1;
    std::vector<std::pair<ex, ex>> Num, Den; // (base, exponent > 0)
    auto Add = [&](const ex &F) {
      if (is_a<numeric>(F))
        C *= ex_to<numeric>(F);
      else if (is_a<power>(F) && is_a<numeric>(F.op(1)) && ex_to<numeric>(F.op(1)).is_negative())
        Den.push_back({F.op(0), -F.op(1)});
      else if (is_a<power>(F))
        Num.push_back({F.op(0), F.op(1)});
      else
        Num.push_back({F, 1});
    };
    if (is_a<mul>(T))
      for (size_t I = 0; I < T.nops(); ++I)
        Add(T.op(I));
    else
      Add(T);
    auto Join = [&](const std::vector<std::pair<ex, ex>> &V, int Min) {
      std::vector<std::string> Parts;
      for (auto &[B, E] : V)
        Parts.push_back(factor(B, E, C, Min));
      std::sort(Parts.begin(), Parts.end()); // reproducible order
      std::string S;
      for (const std::string &P : Parts)
        S += (S.empty() ? "" : "*") + P;
      return S;
    };
    std::string S = Num.empty() ? "" : Join(Num, 3);
    if (!Den.empty())
      S = (S.empty() ? "1" : S) + "/" + (Den.size() == 1 ? Join(Den, 4) : "(" + Join(Den, 3) + ")");
    return {C, S};
  }
  /// Coefficient C (>= 0) times the factors' text P.
  std::string term(const numeric &C, const std::string &P) const {
    if (P.empty()) return num(C, Digits);
    if (C.is_equal(1)) return P;
    return num(C, Digits) + "*" + P;
  }
  std::string str(const ex &E) const {
    if (is_a<numeric>(E)) return num(ex_to<numeric>(E), Digits);
    if (is_a<symbol>(E))
      return ex_to<symbol>(E).get_name();
    const basic *Key = &ex_to<basic>(E);
    auto It = Memo.find(Key);
    if (It != Memo.end())
      return It->second.second;
    std::string S = compose(E);
    Memo.emplace(Key, std::make_pair(E, S));
    return S;
  }
  std::string compose(const ex &E) const {
    if (is_a<symbol>(E)) return ex_to<symbol>(E).get_name();
    if (is_a<add>(E)) {
      // highest-degree terms first: sort by total degree, descending
      std::vector<ex> Terms(E.begin(), E.end());
      auto Deg = [](const ex &T) {
        int D = 0;
        for (const std::string &S : freeSymbols(T)) {
          try {
            D += T.degree(sym(S));
          } catch (const std::runtime_error &) {
            // a real exponent (the overlap's p-norm) has no degree: 0
          }
        }
        return D;
      };
      // GiNaC orders terms by hash values that change between runs: sort by
      // degree, then text, so that output is reproducible.
      std::vector<std::pair<int, std::string>> Keys;
      for (const ex &T : Terms)
        Keys.push_back({-Deg(T), str(T)});
      std::vector<size_t> Idx(Terms.size());
      for (size_t I = 0; I < Idx.size(); ++I)
        Idx[I] = I;
      std::sort(Idx.begin(), Idx.end(), [&](size_t A, size_t B) { return Keys[A] < Keys[B]; });
      std::string S;
      for (size_t I : Idx) {
        auto [C, P] = termParts(Terms[I]);
        bool Neg = C.is_negative();
        std::string X = term(Neg ? numeric(-C) : C, P);
        S += S.empty() ? (Neg ? "-" + X : X) : (Neg ? " - " : " + ") + X;
      }
      return S;
    }
    if (is_a<mul>(E)) {
      auto [C, P] = termParts(E);
      if (C.is_negative()) return "-" + term(numeric(-C), P);
      return term(C, P);
    }
    if (is_a<power>(E)) {
      numeric C = 1;
      std::string P = factor(E.op(0), E.op(1), C, 0);
      return C.is_negative() ? "-" + P : P;
    }
    if (is_a<function>(E)) {
      std::string S = ex_to<function>(E).get_name() + "(";
      for (size_t I = 0; I < E.nops(); ++I)
        S += (I ? ", " : "") + str(E.op(I));
      return S + ")";
    }
    std::ostringstream OS;
    OS << E;
    return OS.str();
  }
};
} // namespace

std::string toString(const ex &E, int Digits) { return HumanPrinter{Digits}.str(E); }

namespace {
/// Common-subexpression naming for toFormulaText. The structurally distinct
/// subexpressions of E that have operands (GiNaC's shared objects, and the
/// fresh ones op() makes for the terms of a sum and the factors of a
/// product), in post-order, each with how often its text is written.
class SubexprNamer {
public:
  SubexprNamer(const ex &E, int Digits, size_t MinChars)
      : Printer{Digits}, MinChars(MinChars) {
    findIndices(E);
    int Root = visit(E);
    if (Root < 0)
      return;
    countUses(Root);
    decide(Root);
    Out.Formula = Printer.str(finalForm(Root));
  }
  FormulaText take() { return std::move(Out); }

private:
  struct Node {
    ex E;
    std::vector<int> Kids; ///< operands that are nodes, one per occurrence
    /// seg_sum indices free in E: such a node's value depends on the term.
    std::set<std::string> FreeIdx;
    int Uses = 0;       ///< times its text is written, saturating at 2
    bool Named = false; ///< printed once, as a definition
    int Height = 0;     ///< named: 1 + the largest Height of the named ones inside
    int Below = 0;      ///< the largest Height of the named nodes inside
    ex Placeholder;     ///< E with named nodes as placeholders (decide)
    ex Final;           ///< E with named nodes as their names (finalForm)
    bool HasFinal = false;
  };
  HumanPrinter Printer; // one memo for the placeholder and the final forms
  size_t MinChars;
  FormulaText Out;
  std::vector<Node> Nodes;
  std::unordered_map<ex, int, std::hash<ex>, ex_is_equal> Index;
  std::unordered_map<const basic *, int> ByAddr; // the objects Nodes keep
  std::set<std::string> Indices, Names;          // seg_sum indices; every symbol
  /// findIndices' walk; it keeps each object (op() of a sum or product may
  /// return a fresh one, whose address a later one would otherwise reuse).
  std::unordered_map<const basic *, ex> Seen;

  void findIndices(const ex &E) {
    if (E.nops() == 0 || !Seen.emplace(&ex_to<basic>(E), E).second)
      return;
    if (is_ex_the_function(E, seg_sum) && is_a<symbol>(E.op(1)))
      Indices.insert(ex_to<symbol>(E.op(1)).get_name());
    for (size_t I = 0; I < E.nops(); ++I)
      findIndices(E.op(I));
  }

  int find(const ex &E) const {
    auto A = ByAddr.find(&ex_to<basic>(E));
    if (A != ByAddr.end())
      return A->second;
    auto S = Index.find(E);
    return S == Index.end() ? -1 : S->second;
  }

  /// Index of E's node (operands first), -1 for a number or symbol.
  int visit(const ex &E) {
    if (E.nops() == 0) {
      if (is_a<symbol>(E))
        Names.insert(ex_to<symbol>(E).get_name());
      return -1;
    }
    if (int Known = find(E); Known >= 0)
      return Known;
    bool Sum = is_ex_the_function(E, seg_sum) && is_a<symbol>(E.op(1));
    std::vector<int> Kids;
    std::set<std::string> Free;
    for (size_t I = 0; I < E.nops(); ++I) {
      ex O = E.op(I);
      if (Sum && I == 1)
        continue; // the index itself
      if (O.nops() == 0) {
        visit(O);
        if (is_a<symbol>(O) && Indices.count(ex_to<symbol>(O).get_name()))
          Free.insert(ex_to<symbol>(O).get_name());
        continue;
      }
      int K = visit(O);
      Kids.push_back(K);
      for (const std::string &X : Nodes[K].FreeIdx)
        if (!(Sum && I == 0 && X == ex_to<symbol>(E.op(1)).get_name()))
          Free.insert(X);
    }
    Node N;
    N.E = E;
    N.Kids = std::move(Kids);
    N.FreeIdx = std::move(Free);
    Nodes.push_back(std::move(N));
    int Id = static_cast<int>(Nodes.size()) - 1;
    Index.emplace(E, Id);
    ByAddr.emplace(&ex_to<basic>(E), Id);
    return Id;
  }

  /// Uses: a node is written once per use in a named or nameable parent,
  /// and as often as the parent in one whose value depends on a seg_sum
  /// index (which is written wherever it is used).
  void countUses(int Root) {
    Nodes[Root].Uses = 1;
    for (int I = Root; I >= 0; --I) { // post-order reversed: users first
      const Node &N = Nodes[I];
      int Each = N.FreeIdx.empty() ? 1 : N.Uses;
      for (int K : N.Kids)
        Nodes[K].Uses = std::min(2, Nodes[K].Uses + Each);
    }
  }

  /// N.E with each operand node K replaced by Nodes[K].*Form.
  ex rebuild(const Node &N, ex Node::*Form) {
    bool Same = std::all_of(N.Kids.begin(), N.Kids.end(), [&](int K) {
      return are_ex_trivially_equal(Nodes[K].*Form, Nodes[K].E);
    });
    if (Same)
      return N.E;
    struct Subst : map_function {
      SubexprNamer &S;
      ex Node::*Form;
      Subst(SubexprNamer &S, ex Node::*Form) : S(S), Form(Form) {}
      ex operator()(const ex &O) override {
        int K = O.nops() ? S.find(O) : -1;
        return K < 0 ? O : S.Nodes[K].*Form;
      }
    } F(*this, Form);
    return N.E.map(F);
  }

  /// Operands first: a node written more than once whose text (named ones
  /// inside as 3-character placeholders) is longer than MinChars is named.
  void decide(int Root) {
    for (int I = 0; I <= Root; ++I) {
      Node &N = Nodes[I];
      N.Placeholder = rebuild(N, &Node::Placeholder);
      for (int K : N.Kids)
        N.Below = std::max(N.Below, Nodes[K].Named ? Nodes[K].Height : Nodes[K].Below);
      // (a sum's length with the sign it is written with: signedSum)
      if (I == Root || N.Uses < 2 || !N.FreeIdx.empty() ||
          (is_a<add>(N.Placeholder) ? Printer.signedSum(N.Placeholder).first
                                    : Printer.str(N.Placeholder))
                  .size() <= MinChars)
        continue;
      N.Named = true;
      N.Height = N.Below + 1;
      N.Placeholder = symbol("_sN"); // a fresh symbol: distinct from the others
    }
  }

  /// Node I's final form; the named nodes inside have their names already.
  const ex &finalOf(int I) {
    Node &N = Nodes[I];
    if (!N.HasFinal) {
      for (int K : N.Kids)
        finalOf(K);
      N.Final = rebuild(N, &Node::Final);
      N.HasFinal = true;
    }
    return N.Final;
  }

  /// Names by height (so each definition uses only earlier ones), then text.
  const ex &finalForm(int Root) {
    std::string Prefix = "_s";
    auto Clash = [&] {
      return std::any_of(Names.begin(), Names.end(), [&](const std::string &X) {
        return X.size() > Prefix.size() && X.compare(0, Prefix.size(), Prefix) == 0 &&
               X.find_first_not_of("0123456789", Prefix.size()) == std::string::npos;
      });
    };
    while (Clash())
      Prefix += "_";
    std::map<int, std::vector<int>> ByHeight;
    for (size_t I = 0; I < Nodes.size(); ++I)
      if (Nodes[I].Named)
        ByHeight[Nodes[I].Height].push_back(static_cast<int>(I));
    for (auto &[H, Group] : ByHeight) {
      // (text, negated, node): a sum is defined with the sign HumanPrinter
      // gives a sum factor (signedSum: GiNaC's sign changes from run to
      // run), its uses then being -name.
      std::vector<std::tuple<std::string, bool, int>> Texts;
      for (int I : Group) {
        for (int K : Nodes[I].Kids)
          finalOf(K);
        ex R = rebuild(Nodes[I], &Node::Final);
        if (is_a<add>(R)) {
          auto [Text, Flip] = Printer.signedSum(R);
          Texts.push_back({Text, Flip, I});
        } else {
          Texts.push_back({Printer.str(R), false, I});
        }
      }
      std::sort(Texts.begin(), Texts.end());
      for (auto &[Text, Flip, I] : Texts) {
        std::string Name = Prefix + std::to_string(Out.Defs.size() + 1);
        Nodes[I].Final = Flip ? ex(-sym(Name)) : ex(sym(Name));
        Nodes[I].HasFinal = true;
        Out.Defs.push_back({Name, Text});
      }
    }
    return finalOf(Root);
  }
};
} // namespace

FormulaText toFormulaText(const ex &E, int Digits, size_t MinChars) {
  if (E.nops() == 0)
    return {toString(E, Digits), {}};
  return SubexprNamer(E, Digits, MinChars).take();
}

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
