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
#include "core/ParamNames.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <unordered_map>

using namespace GiNaC;

namespace segtime {

using expr_detail::dbl;
using expr_detail::isNum;

namespace {
/// A closed form kept behind its calls (keptCall): the form, its
/// parameters, its other names, and its values by arguments and values.
struct KeptForm {
  std::string Name;
  ex Form;
  std::vector<symbol> Params;
  std::vector<std::string> Names; ///< the form's free names other than Params
  std::map<std::vector<double>, ex> Values; ///< (args, Names' values; NaN: none) -> value
};
std::vector<KeptForm> &keptForms() {
  static std::vector<KeptForm> Forms;
  return Forms;
}
ex keptValue(size_t Id, const exvector &Args, const std::map<std::string, double> &Values);
} // namespace

size_t keepForm(const std::string &Name, const ex &Form, const std::vector<std::string> &Params) {
  KeptForm K;
  K.Name = Name;
  K.Form = Form;
  std::set<std::string> Free = freeSymbols(Form);
  for (const std::string &P : Params) {
    K.Params.push_back(sym(P));
    Free.erase(P);
  }
  K.Names.assign(Free.begin(), Free.end());
  keptForms().push_back(std::move(K));
  return keptForms().size() - 1;
}

ex keptCall(size_t Id, const exvector &Args) {
  if (Id >= keptForms().size() || Args.size() != keptForms()[Id].Params.size())
    throw std::out_of_range("keptCall: no kept form " + std::to_string(Id) + " of " +
                            std::to_string(Args.size()) + " parameters");
  lst L;
  for (const ex &A : Args)
    L.append(A);
  return seg_call(numeric(long(Id)), L).hold();
}

/// The kept form of seg_call E (its name, for printing).
const std::string &keptName(const ex &E) {
  return keptForms().at(ex_to<numeric>(E.op(0)).to_long()).Name;
}

/// Calls Visit(X) for each kept call X (seg_call) in E, each shared
/// subexpression walked once (E is a DAG).
static void forEachKeptCall(const ex &E, const std::function<void(const ex &)> &Visit) {
  std::unordered_map<const basic *, ex> Seen;
  std::function<void(const ex &)> Walk = [&](const ex &X) {
    if (X.nops() == 0 || !Seen.emplace(&ex_to<basic>(X), X).second)
      return;
    if (is_ex_the_function(X, seg_call))
      Visit(X);
    for (size_t I = 0; I < X.nops(); ++I)
      Walk(X.op(I));
  };
  Walk(E);
}

std::set<std::string> keptCalls(const ex &E) {
  std::set<std::string> Out;
  forEachKeptCall(E, [&](const ex &X) { Out.insert(keptName(X)); });
  return Out;
}

std::set<std::string> keptFormNames(const ex &E) {
  std::set<std::string> Out;
  std::set<long> Forms;
  std::function<void(const ex &)> Visit = [&](const ex &X) {
    long Id = ex_to<numeric>(X.op(0)).to_long();
    if (!Forms.insert(Id).second)
      return;
    const KeptForm &K = keptForms().at(Id);
    Out.insert(K.Names.begin(), K.Names.end());
    forEachKeptCall(K.Form, Visit); // (its own kept calls)
  };
  forEachKeptCall(E, Visit);
  return Out;
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
  /// The values by name (a kept call's form has names of its own).
  const std::map<std::string, double> &Values;
  std::unordered_map<const basic *, std::pair<ex, ex>> Memo; // (object kept, result)
  CanonicalEval(const exmap &M, const std::map<std::string, double> &Values)
      : M(M), Values(Values) {}
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
    if (is_ex_the_function(E, seg_call)) {
      exvector Args;
      bool AllNum = true;
      for (const ex &A : E.op(1)) {
        Args.push_back((*this)(A));
        AllNum = AllNum && isNum(Args.back());
      }
      R = AllNum ? keptValue(ex_to<numeric>(E.op(0)).to_long(), Args, Values) : E;
    } else if (Sum || is_a<mul>(E)) {
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

namespace {
ex keptValue(size_t Id, const exvector &Args, const std::map<std::string, double> &Values) {
  KeptForm &K = keptForms().at(Id);
  std::vector<double> At;
  std::set<std::string> Missing;
  for (const ex &A : Args)
    At.push_back(dbl(A));
  for (const std::string &X : K.Names) {
    auto It = Values.find(X);
    At.push_back(It == Values.end() ? std::numeric_limits<double>::quiet_NaN() : It->second);
    if (It == Values.end())
      Missing.insert(X);
  }
  // (NaN != NaN: a key with a name missing is its own; those are rare)
  if (auto Hit = K.Values.find(At); Missing.empty() && Hit != K.Values.end())
    return Hit->second;
  exmap M;
  for (size_t I = 0; I < K.Params.size(); ++I)
    M[K.Params[I]] = Args[I];
  for (const std::string &X : K.Names)
    if (auto It = Values.find(X); It != Values.end())
      M[sym(X)] = numeric(It->second);
  CanonicalEval Eval(M, Values);
  ex V = Eval(Missing.empty() ? K.Form : dropTermsWith(K.Form, Missing));
  if (!isNum(V)) {
    std::string Free;
    for (const std::string &S : freeSymbols(V))
      Free += (Free.empty() ? "" : ", ") + S;
    throw std::runtime_error("the call T_" + K.Name + " kept as a call: " +
                             (Free.empty() ? "its form did not evaluate to a number"
                                           : "no value for " + Free));
  }
  if (Missing.empty())
    K.Values.emplace(std::move(At), V);
  return V;
}
} // namespace

bool isIndicator(const std::string &Name) { return isIndicatorName(Name); }

/// E evaluated with M (E's free symbols bound to their values) and Values
/// (for kept calls): evaluate() without the mixing of indicators.
static double evaluateAt(const ex &E, const exmap &M,
                         const std::map<std::string, double> &Values) {
  CanonicalEval Eval(M, Values);
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

double evaluate(const ex &E, const std::map<std::string, double> &Values) {
  exmap M;
  std::vector<std::pair<std::string, double>> Mixed;
  for (const std::string &S : freeSymbols(E))
    if (auto It = Values.find(S); It != Values.end()) {
      M[sym(S)] = numeric(It->second);
      if (isIndicator(S) && It->second > 0 && It->second < 1)
        Mixed.push_back({S, It->second});
    }
  if (Mixed.empty() || Mixed.size() > 10)
    return evaluateAt(E, M, Values);
  std::map<std::string, double> At = Values;
  double Sum = 0;
  for (unsigned Corner = 0; Corner < (1u << Mixed.size()); ++Corner) {
    double W = 1;
    for (size_t I = 0; I < Mixed.size(); ++I) {
      bool One = Corner >> I & 1;
      M[sym(Mixed[I].first)] = numeric(One ? 1 : 0);
      At[Mixed[I].first] = One;
      W *= One ? Mixed[I].second : 1 - Mixed[I].second;
    }
    Sum += W * evaluateAt(E, M, At);
  }
  return Sum;
}

} // namespace segtime
