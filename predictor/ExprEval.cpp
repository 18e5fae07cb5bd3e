//===- ExprEval.cpp - Numeric values of expressions, the same every run ---===//
///
/// \file
/// evaluate() (predictor/Expr.h): substitutes values and combines the numbers
/// of each sum and product in an order of its own (exact ones exactly, the
/// others in ascending order), so that the value does not depend on GiNaC's
/// address-dependent order of operands; and dropRoundoff().
///
//===----------------------------------------------------------------------===//
#include "predictor/Expr.h"
#include "predictor/ExprDetail.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

using namespace GiNaC;

namespace segtime {

using expr_detail::dbl;
using expr_detail::isNum;

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

} // namespace segtime
