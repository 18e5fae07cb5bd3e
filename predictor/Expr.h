//===- Expr.h - Symbolic expressions of timing formulas ---------*- C++ -*-===//
///
/// \file
/// Symbolic expressions over source names and parameters, on GiNaC. Adds the
/// functions a C loop nest needs: idiv(a,b) (C integer division, truncates),
/// imod(a,b), min(a,b), max(a,b), ltrip(a,b,c) (iterations of
/// for (i = a; i < b; i *= c)), cmp_eq/cmp_lt/cmp_le(a,b) (0 or 1) and seg_sum(body, k, lo, hi) = sum of body for
/// k = lo..hi, which sums in closed form when body is a polynomial in k
/// (Faulhaber's formula with Bernoulli numbers) and numerically once the
/// bounds and every other symbol are numbers.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PREDICTOR_EXPR_H
#define SEGTIME_PREDICTOR_EXPR_H

#include "predictor/ExprText.h"

#include <ginac/ginac.h>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace segtime {

DECLARE_FUNCTION_2P(idiv)
DECLARE_FUNCTION_2P(imod)
/// umod(a, m): a modulo m in [0, m) (wrap-around of an unsigned m-valued type).
DECLARE_FUNCTION_2P(umod)
DECLARE_FUNCTION_2P(min)
DECLARE_FUNCTION_2P(max)
DECLARE_FUNCTION_3P(ltrip)
DECLARE_FUNCTION_4P(seg_sum)
/// 1 if a == b (a < b, a <= b), else 0, once both are numbers: branch
/// conditions on the MPI rank (docs/mpi.md).
DECLARE_FUNCTION_2P(cmp_eq)
DECLARE_FUNCTION_2P(cmp_lt)
DECLARE_FUNCTION_2P(cmp_le)
/// seg_call(id, {args}): a callee's closed form kept as a call (keptCall).
DECLARE_FUNCTION_2P(seg_call)

/// The one symbol with this name (GiNaC symbols are identified by object, so
/// all of segtime takes them from this registry).
GiNaC::symbol sym(const std::string &Name);

/// Parses an expression string (see core/Seg.h for the syntax). Names may
/// start with '_' (C identifiers; the names of FormulaText::Defs).
/// Throws std::invalid_argument naming the expression on a syntax error.
GiNaC::ex parseExpr(const std::string &S);

/// Sum of Body for K = 0 .. N-1 (N symbolic or numeric): closed form when
/// Body is polynomial in K, else an unevaluated seg_sum.
GiNaC::ex sumOver(const GiNaC::ex &Body, const GiNaC::symbol &K, const GiNaC::ex &N);

/// The work of numeric seg_sum evaluations since the process started (or
/// the last resetSumWork): a bound for tests (test/unit/ExprSumWorkTest.cpp)
/// and --timing's counters.
struct SumWork {
  size_t Evals = 0;       ///< seg_sum evaluations (GiNaC's eval of a seg_sum)
  size_t Sums = 0;        ///< numeric sums computed (not found in the memo)
  size_t MemoHits = 0;    ///< numeric sums found in the memo
  size_t Terms = 0;       ///< terms evaluated in double arithmetic (compiled body)
  size_t Substituted = 0; ///< terms evaluated by substituting into the GiNaC body
  size_t Compiled = 0;    ///< bodies compiled to double operations
};
const SumWork &sumWork();
void resetSumWork();

/// Names of the free symbols of E (bound seg_sum indices excluded).
std::set<std::string> freeSymbols(const GiNaC::ex &E);

/// E with the symbols of M (symbol -> expression) replaced, as E.subs(M)
/// replaces them, but each subexpression object once: a DAG that shares
/// objects (a memory term's line counts, a callee's closed form used in
/// several places) is walked in time linear in its DAG size, where GiNaC's
/// subs walks it as a tree (exponential in the depth of sharing). Keys of M
/// must be symbols (std::invalid_argument otherwise).
GiNaC::ex subsShared(const GiNaC::ex &E, const GiNaC::exmap &M);

/// Does E mention symbol S? As E.has(S), each subexpression object once.
bool hasShared(const GiNaC::ex &E, const GiNaC::symbol &S);

/// Number of distinct subexpression objects of E (its DAG size: nodes with
/// operands, symbols and numbers each counted once per object). The work a
/// DAG-aware walk (subsShared, evaluate, toFormulaText) does on E.
size_t dagSize(const GiNaC::ex &E);

/// An upper bound of the number of terms of expand(E) plus those of the
/// function arguments expand() also expands, saturating at Limit + 1 (a sum
/// has the terms of its operands, a product their product, (a sum of m
/// terms)^k binomial(m + k - 1, k)). Linear in the size of E's DAG.
size_t expandedTermsBound(const GiNaC::ex &E, size_t Limit);

/// expand(E) if expandedTermsBound(E, MaxTerms) <= MaxTerms (MaxTerms = 0:
/// always), else E as it is (the same value, factored): closed forms whose
/// expansion grows with the product of the branches in a row (an IR-level
/// SEG's block frequencies) stay linear in the code. Sets *Expanded.
GiNaC::ex expandWithin(const GiNaC::ex &E, size_t MaxTerms, bool *Expanded = nullptr);

/// E without the terms of its sums (at any depth) that have a symbol named
/// in Names: the round-off that a name whose coefficient is exactly 0 leaves
/// behind. c*x + d*(1 - x) with c == d in value leaves x in the expanded
/// form with a coefficient of about 1e-22 or not at all, depending on the
/// order in which GiNaC adds the floating-point coefficients (hash order,
/// which moves with address-space randomisation). Names: names the caller
/// knows E does not depend on (FormulaBuilder::dependsOn).
GiNaC::ex dropTermsWith(const GiNaC::ex &E, const std::set<std::string> &Names);

/// Whether Name is an indicator: a parameter that is 0 or 1 on each run of
/// the code it decides, whose value is the probability that it is 1 (the
/// vectoriser's alias checks finding an overlap, Pov_<fn>_<line>_<col>,
/// passes/IRBranchCond.cpp checksPassing).
bool isIndicator(const std::string &Name);

/// Substitutes values for symbols by name and evaluates to a double: the
/// numbers of each sum and product are combined exactly if they are exact,
/// else in ascending order of value, so that the result does not depend on
/// GiNaC's address-dependent order of operands (the same bits in every
/// run). Indicators (isIndicator) of E with a value p strictly between 0 and
/// 1: the mean of E over their 0/1 values, each 1 with its probability p
/// (E is not linear in them: a loop's frequency and its trip count both
/// depend on one); at most 10 such, else E at the values as given. Throws
/// std::runtime_error listing the symbols still free.
double evaluate(const GiNaC::ex &E, const std::map<std::string, double> &Values);

/// E without the terms of its top-level sum whose coefficient is a
/// floating-point number smaller in magnitude than Rel times the largest
/// such coefficient of the sum: the round-off a cancellation leaves
/// (5e-29*P*Q beside 3e-08), which, like the order GiNaC adds in, changes
/// from run to run. Any other E is returned as it is.
GiNaC::ex dropRoundoff(const GiNaC::ex &E, double Rel = 1e-12);

/// Registers the closed form Form of function Name, in its parameters
/// Params (source names), for keptCall; returns its id. The registry lives
/// as long as the process (a form is registered once per function and
/// weight by FormulaBuilder).
size_t keepForm(const std::string &Name, const GiNaC::ex &Form,
                const std::vector<std::string> &Params);

/// The call of kept form Id at Args (one per parameter, in order):
/// seg_call(Id, {Args}), an expression whose size does not depend on the
/// form's. evaluate() gives it the value of the form with each parameter
/// bound to its argument's value and every other name to the value it is
/// given (a name it is not given is one whose coefficient is 0 in value,
/// FormulaBuilder::dependsOn: its terms are dropped, as evaluateLevel drops
/// them from a closed form); toString prints it "T_Name(args)". The value is
/// the form's own, computed once per distinct arguments and values
/// (numbers in doubles, as evaluate() returns them). Throws
/// std::out_of_range for an unknown Id.
GiNaC::ex keptCall(size_t Id, const GiNaC::exvector &Args);

/// The function names of the kept calls in E (keptCall), not those inside
/// the kept forms.
std::set<std::string> keptCalls(const GiNaC::ex &E);

/// The names the kept forms called in E (keptCall, and those they call)
/// have besides their parameters: the names their values are read at.
std::set<std::string> keptFormNames(const GiNaC::ex &E);

/// Human form: "2.1e-09*n^3 + 4e-09*n^2" with Cs numbers rounded to Digits.
/// Repeats a shared subexpression at every use (see toFormulaText).
std::string toString(const GiNaC::ex &E, int Digits = 4);

/// Prints E (as toString does) with every subexpression that is written
/// more than once and is longer than MinChars characters (a name counted as
/// 3) printed once as a definition. Subexpressions are the same when they
/// are structurally equal (GiNaC is_equal), which includes the objects a
/// GiNaC DAG shares. A subexpression in which the index of an enclosing
/// seg_sum is free is not named (its value differs per term). Names are
/// "_s1", "_s2", ... (another prefix when E has a symbol of that form),
/// numbered by nesting depth, then text, so output is reproducible. Without
/// such a subexpression, Formula == toString(E, Digits) and Defs is empty.
/// The work is linear in the size of E's DAG plus the size of the output
/// (toString's is linear in the printed text, which can be exponentially
/// longer).
FormulaText toFormulaText(const GiNaC::ex &E, int Digits = 4, size_t MinChars = 60);

} // namespace segtime

#endif
