//===- ExprSum.cpp - Closed forms and numeric values of seg_sum -----------===//
///
/// \file
/// seg_sum(body, k, lo, hi) (predictor/Expr.h): Faulhaber's closed form
/// when the body is a polynomial in k; once the bounds and every other
/// symbol are numbers, the numeric sum, its body compiled once into double
/// operations (TermProgram) with GiNaC's exact arithmetic where a term
/// needs it.
///
//===----------------------------------------------------------------------===//
#include "predictor/Expr.h"
#include "predictor/ExprDetail.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>

using namespace GiNaC;

namespace segtime {

using expr_detail::dbl;
using expr_detail::isNum;

/// Sum_{k=0}^{N-1} k^d = 1/(d+1) Sum_{j=0}^{d} binom(d+1, j) B_j N^(d+1-j),
/// with B_1 = -1/2 (Faulhaber).
static ex powerSum(int D, const ex &N) {
  ex S = 0;
  for (int J = 0; J <= D; ++J)
    S += binomial(numeric(D + 1), numeric(J)) * bernoulli(numeric(J)) * pow(N, D + 1 - J);
  return expand(S / (D + 1));
}

static SumWork Work;
const SumWork &sumWork() { return Work; }
void resetSumWork() { Work = SumWork(); }

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
/// products, powers (a geometric loop's index start*step^k has the index in
/// the exponent), the integer functions and seg_sums nested in the body (a
/// loop nest whose inner trip count depends on the outer index: mergesort's
/// sum over the merge width of a sum over the runs), whose bodies are
/// compiled once too. The operations that do not depend on a program's own
/// index are run once per run of the sum (for a nested sum, once per term
/// of the sums around it), the others once per term. An integer division
/// or modulus whose operands are not exact integers, or a comparison of
/// such operands closer than 1e-9 relative, or a nested sum whose bounds are
/// not exact integers, makes that term fall back to GiNaC, so that every
/// decision is the one its exact arithmetic takes.
class TermProgram {
  enum Kind {
    Const,
    Var,
    Sum,
    Add,
    Mul,
    Pow,
    PowV,
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
    double C = 0;          ///< Const: the value; Pow: the exponent
    std::vector<int> Args; ///< operands (Sum: lo, hi)
    int Slot = 0;          ///< Var: the index's slot in Env
    int Sub = 0;           ///< Sum: its body's program in Subs
    bool Dep = false;      ///< depends on this program's own index
  };

public:
  TermProgram(const ex &Body, const symbol &K) : Env(&OwnEnv), Slots(&OwnSlots) {
    OwnSlots.emplace(K, 0);
    OwnEnv.push_back(0);
    Ok = compile(Body) >= 0;
    split();
  }
  bool ok() const { return Ok; }
  /// The body at K = KVal; false if a term needs GiNaC's exact arithmetic.
  bool value(double KVal, double &Out) {
    if (!Prepared) {
      InvOk = runOps(Inv);
      Prepared = true;
    }
    (*Env)[0] = KVal;
    if (!InvOk || !runOps(Dep))
      return false;
    Out = Vals.back();
    return true;
  }

private:
  /// The body of a seg_sum nested in another's: its index is slot Own of
  /// the outermost program's Env, the indices of the sums around it the
  /// other slots in Slots.
  TermProgram(const ex &Body, int Own, std::vector<double> *E, std::map<ex, int, ex_is_less> *S)
      : OwnSlot(Own), Env(E), Slots(S) {
    Ok = compile(Body) >= 0;
    split();
  }
  /// Inv and Dep: the operations without and with a dependence on the own
  /// index, in order.
  void split() {
    for (size_t I = 0; I < Ops.size(); ++I)
      (Ops[I].Dep ? Dep : Inv).push_back(static_cast<int>(I));
  }
  /// The value of the nested sum O (Sub: its body) at the indices in Env.
  bool sum(const Op &O, double Lo, double Hi, double &V) {
    // As segSumEval: hi - lo + 1 terms of integer bounds, none if that is
    // <= 0; at most 5e6 terms (else GiNaC holds the sum: the caller's path).
    if (!exactInt(Lo) || !exactInt(Hi))
      return false;
    double N = Hi - Lo + 1;
    if (N <= 0) {
      V = 0;
      return true;
    }
    if (N > 5e6)
      return false;
    TermProgram &Sub = *Subs[O.Sub];
    (*Env)[Sub.OwnSlot] = Lo;
    if (!Sub.runOps(Sub.Inv))
      return false;
    if (Sub.Dep.empty()) { // (the body does not use the index: N times it)
      ++Work.Terms;
      V = N * Sub.Vals.back();
      return true;
    }
    double Acc = 0;
    for (long J = 0; J < static_cast<long>(N); ++J) {
      (*Env)[Sub.OwnSlot] = Lo + double(J);
      if (!Sub.runOps(Sub.Dep))
        return false;
      Acc += Sub.Vals.back();
    }
    Work.Terms += static_cast<size_t>(N);
    V = Acc;
    return true;
  }
  /// Runs the operations Which (indices into Ops, in order).
  bool runOps(const std::vector<int> &Which) {
    for (int I : Which) {
      const Op &O = Ops[I];
      double A = O.Args.empty() ? 0 : Vals[O.Args[0]];
      double B = O.Args.size() > 1 ? Vals[O.Args[1]] : 0;
      double &V = Vals[I];
      switch (O.K) {
      case Const:
        V = O.C;
        break;
      case Var:
        V = (*Env)[O.Slot];
        break;
      case Sum:
        if (!sum(O, A, B, V))
          return false;
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
      case PowV:
        V = std::pow(A, B);
        if (!std::isfinite(V))
          return false;
        break;
      case Min:
        V = std::min(A, B);
        break;
      case Max:
        V = std::max(A, B);
        break;
      case CmpEq:
      case CmpLt:
      case CmpLe:
        if (!exactInt(A) || !exactInt(B)) {
          // Operands apart by far more than double round-off (a cache
          // size against a footprint) compare as GiNaC's numbers do.
          if (std::fabs(A - B) <= 1e-9 * std::max({1.0, std::fabs(A), std::fabs(B)}))
            return false;
          V = O.K == CmpEq ? 0 : A < B;
          break;
        }
        V = O.K == CmpEq ? A == B : O.K == CmpLt ? A < B : A <= B;
        break;
      default:
        if (!exactInt(A) || !exactInt(B))
          return false;
        {
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
    return true;
  }

  /// Index of E's operation, -1 if E has something not covered.
  int compile(const ex &E) {
    const basic *Key = &ex_to<basic>(E);
    auto Seen = Done.find(Key);
    if (Seen != Done.end())
      return Seen->second;
    // A structurally equal object met before (a sum's or product's operands
    // are rebuilt as new objects at each op(), and substitution copies
    // shared terms) is the same operation.
    if (E.nops() > 0)
      if (auto Same = Equal.find(E); Same != Equal.end()) {
        Keep.push_back(E); // (keeps Key the address of this object)
        return Done[Key] = Same->second;
      }
    Op O;
    if (is_exactly_a<numeric>(E)) {
      if (!isNum(E))
        return -1;
      O = {Const, dbl(E), {}};
    } else if (is_exactly_a<symbol>(E)) {
      auto Slot = Slots->find(E);
      if (Slot == Slots->end())
        return -1;
      O = {Var, 0, {}};
      O.Slot = Slot->second;
      O.Dep = O.Slot == OwnSlot;
      Uses.insert(O.Slot);
    } else if (is_ex_the_function(E, seg_sum)) {
      if (!is_exactly_a<symbol>(E.op(1)) || Slots->count(E.op(1)))
        return -1;
      O.K = Sum;
      int Slot = static_cast<int>(Env->size());
      Env->push_back(0);
      Slots->emplace(E.op(1), Slot);
      auto Body = std::unique_ptr<TermProgram>(new TermProgram(E.op(0), Slot, Env, Slots));
      Slots->erase(E.op(1));
      if (!Body->Ok)
        return -1;
      for (int U : Body->Uses)
        if (U != Slot) {
          Uses.insert(U);
          O.Dep |= U == OwnSlot;
        }
      O.Sub = static_cast<int>(Subs.size());
      Subs.push_back(std::move(Body));
    } else if (is_exactly_a<power>(E)) {
      O = isNum(E.op(1)) ? Op{Pow, dbl(E.op(1)), {}} : Op{PowV, 0, {}};
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
    if (O.K != Const && O.K != Var) {
      std::vector<size_t> Operands;
      if (O.K == Sum)
        Operands = {2, 3};
      else
        for (size_t I = 0; I < (O.K == Pow ? 1 : E.nops()); ++I)
          Operands.push_back(I);
      for (size_t I : Operands) {
        int A = compile(E.op(I));
        if (A < 0)
          return -1;
        O.Args.push_back(A);
        O.Dep |= Ops[A].Dep;
      }
    }
    Ops.push_back(std::move(O));
    Vals.push_back(0);
    Keep.push_back(E); // keeps Key the address of this object
    if (E.nops() > 0)
      Equal.emplace(E, static_cast<int>(Ops.size()) - 1);
    return Done[Key] = static_cast<int>(Ops.size()) - 1;
  }

  int OwnSlot = 0; ///< this program's index in Env
  /// The values of the indices (slot 0: the outermost sum's; the others:
  /// nested sums'), owned by the outermost program.
  std::vector<double> OwnEnv, *Env;
  std::map<ex, int, ex_is_less> OwnSlots, *Slots; ///< index symbol -> slot (sums in scope)
  std::set<int> Uses;                             ///< the slots the body reads
  std::vector<std::unique_ptr<TermProgram>> Subs; ///< nested sums' bodies
  std::vector<int> Inv, Dep;                      ///< split()
  bool Ok = false, Prepared = false, InvOk = false;
  std::vector<Op> Ops;
  std::vector<double> Vals;
  std::vector<ex> Keep;
  std::unordered_map<const basic *, int> Done;
  std::unordered_map<ex, int, std::hash<ex>, ex_is_equal> Equal; ///< by structure
};
} // namespace

namespace {
/// E.is_polynomial(S), each subexpression object once (GiNaC's walks a
/// shared DAG as a tree: a memory term's line counts inside an IR body).
struct PolynomialIn {
  const symbol &S;
  // (object kept: an operand of a sum may be a temporary), (mentions S, polynomial)
  std::unordered_map<const basic *, std::pair<ex, std::pair<bool, bool>>> Memo;
  /// (E mentions S, E is a polynomial in S).
  std::pair<bool, bool> of(const ex &E) {
    if (E.nops() == 0)
      return {E.is_equal(S), true};
    const basic *Key = &ex_to<basic>(E);
    if (auto It = Memo.find(Key); It != Memo.end())
      return It->second.second;
    bool Has = false, Poly = true;
    for (size_t I = 0; I < E.nops(); ++I) {
      auto [H, P] = of(E.op(I));
      Has |= H;
      Poly &= P;
    }
    if (is_exactly_a<power>(E)) {
      bool BaseHas = of(E.op(0)).first, ExpHas = of(E.op(1)).first;
      const ex &X = E.op(1);
      Poly = !ExpHas && (!BaseHas || (is_a<numeric>(X) && ex_to<numeric>(X).is_nonneg_integer() &&
                                      of(E.op(0)).second));
    } else if (!is_exactly_a<add>(E) && !is_exactly_a<mul>(E)) {
      Poly = !Has; // a function of S
    }
    Memo.emplace(Key, std::make_pair(E, std::make_pair(Has, Poly)));
    return {Has, Poly};
  }
};
} // namespace

ex expr_detail::segSumEval(const ex &Body, const ex &K, const ex &Lo, const ex &Hi) {
  ++Work.Evals;
  if (!is_a<symbol>(K))
    return seg_sum(Body, K, Lo, Hi).hold();
  ex N = Hi - Lo + 1;
  if (isNum(N) && dbl(N) <= 0)
    return 0;
  if (!hasShared(Body, ex_to<symbol>(K)))
    return N * Body;
  const symbol &S = ex_to<symbol>(K);
  if (PolynomialIn{S}.of(Body).second) {
    ex P = expand(subsShared(Body, {{S, S + Lo}}));
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
    if (auto It = Memo.find(Key); It != Memo.end()) {
      ++Work.MemoHits;
      return It->second;
    }
    if (Memo.size() > 100000)
      Memo.clear();
    auto Free = freeSymbols(Body);
    if (Free.size() == 1 && *Free.begin() == S.get_name()) {
      double Acc = 0;
      long L = static_cast<long>(dbl(Lo));
      long Cnt = static_cast<long>(dbl(N));
      TermProgram Prog(Body, S);
      ++Work.Sums;
      ++Work.Compiled;
      for (long I = 0; I < Cnt; ++I) {
        double Fast;
      if (Prog.ok() && Prog.value(double(L + I), Fast)) {
          ++Work.Terms;
          Acc += Fast;
          continue;
        }
        ++Work.Substituted;
        ex V = subsShared(Body, {{S, numeric(L + I)}});
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

} // namespace segtime
