//===- Formula.h - Timing formulas from a SEG --------------------*- C++ -*-===//
///
/// \file
/// Builds the timing formula of a function from its SEG (Warwick-94 eq. 1,
/// Table 3): the sum over stages of t(v_i), multiplied by loop trip counts and
/// branch probabilities, with calls bound to the callee's formula. Two forms:
///  - structural: "t_f = t(v1) + n*(t(v2) + P_f_9*t(v3))" (a string);
///  - closed: a GiNaC expression in the parameters, for one stage weight
///    (a level's resource model, or one operation's count), with sums over
///    loop indices done in closed form (Faulhaber) where the body is a
///    polynomial in the index.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PREDICTOR_FORMULA_H
#define SEGTIME_PREDICTOR_FORMULA_H

#include "core/Seg.h"
#include "predictor/Expr.h"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace segtime {

/// Cost of one execution of a node's own RUVs (not its children), e.g.
/// t(v) = c^T f (Warwick-94 eq. 4) or the count of one operation.
using StageWeight = std::function<GiNaC::ex(const Node &)>;

/// A node's executions per execution of the list it is in (Node::Freq, an
/// expression; "" = 1).
inline GiNaC::ex frequencyOf(const Node &N) { return N.Freq.empty() ? GiNaC::ex(1) : parseExpr(N.Freq); }

/// Stage weight that reads Ruvs[LevelKey][Op] (a count of one operation).
StageWeight countWeight(const std::string &LevelKey, const std::string &Op);

/// Stage weight of the communication time of Comm nodes (0 for every other
/// node): t_<pattern>(bytes, p) of predictor/Collectives.h, in the source
/// names of the node's byte expression and the number of processes `p`.
StageWeight commWeight();

/// Stage weight of library calls (core/Library.h; FormulaBuilder::
/// libraryCall): t = per_call + per_B * bytes, s, with the machine's
/// `library` entries (Machine.h) in Costs ("library.memcpy.per_call" ->
/// value); 0 for every other node and for a function Costs lacks (the
/// builder reports those, setLibraryCosts).
StageWeight libraryWeight(const std::map<std::string, double> &Costs);

/// The substitution that binds Callee's formula at call node Call, by the
/// binder of core/Link.h (callBindings): each bound parameter -> its
/// argument; an unbound one -> the symbol "<callee>.<param>", for the user
/// to give (never the caller's symbol of the same name). Throws
/// std::invalid_argument if an argument does not parse.
GiNaC::exmap callSubstitution(const Node &Call, const FunctionSeg &Callee);

/// Formula builder over one SEG file. Closed forms are memoised per
/// (function, weight key). Recursion (a cycle of calls) contributes 0 and
/// is reported by unresolved(); a call to a function without a SEG too.
class FormulaBuilder {
public:
  explicit FormulaBuilder(const SegFile &S) : File(S) {}

  /// Closed form of function Fn under weight W (WeightKey names W for the
  /// memo). Throws std::invalid_argument if Fn has no SEG.
  GiNaC::ex closedForm(const std::string &Fn, const StageWeight &W,
                       const std::string &WeightKey);
  /// Same, over the SEG the level LevelKey is costed on (FunctionSeg::bodyFor).
  GiNaC::ex closedForm(const std::string &Fn, const StageWeight &W, const std::string &WeightKey,
                       const std::string &LevelKey);

  /// Time (or count) of the nodes of Fn in Only, per call of Fn: the closed
  /// form of Fn's body (the SEG the level LevelKey is costed on) with every
  /// other node of Fn weighted 0, so enclosing loop trips, index sums and
  /// branch probabilities multiply the nodes as in closedForm; a call in Only
  /// costs its whole callee. Only holds nodes of Fn's SEG (pointers into the
  /// file): a source node and its descendants, or the IR nodes attributed to
  /// them. A loop bound (setLoopBound) applies to loops whose whole nest is
  /// in Only. Not memoised. Throws std::invalid_argument if Fn has no SEG.
  GiNaC::ex nodeForm(const std::string &Fn, const std::set<const Node *> &Only,
                     const StageWeight &W, const std::string &WeightKey,
                     const std::string &LevelKey);

  /// Adjustment of the cost Core of one execution of a loop (a resource
  /// model's correction, e.g. overlap of iterations, or a memory bound
  /// max(Core, memory time)); Depth = number of enclosing loops.
  using LoopBound =
      std::function<GiNaC::ex(const Node &Loop, const GiNaC::ex &Core, int Depth)>;
  /// Applies B to every loop of the closed forms built under WeightKey.
  void setLoopBound(const std::string &WeightKey, LoopBound B) { Bounds[WeightKey] = std::move(B); }
  /// The names the closed form of Fn under W (closedForm with the same
  /// arguments) depends on, read from the SEG's structure rather than from
  /// the closed form: the symbols of the trip counts, frequencies, arm
  /// probabilities and loop bounds on the paths to the nodes W weighs
  /// non-zero, of those weights themselves, and of the callees' such names
  /// bound through the calls' arguments (an unbound one as "callee.param").
  /// Unlike freeSymbols(closedForm(...)), the set does not depend on whether
  /// floating-point coefficients cancel exactly (which varies with GiNaC's
  /// hash order from run to run): a name whose coefficient is 0 in value is
  /// still in it. Memoised per (function, weight key).
  std::set<std::string> dependsOn(const std::string &Fn, const StageWeight &W,
                                  const std::string &WeightKey, const std::string &LevelKey);

  /// Closed forms are expanded (GiNaC expand) only when the expansion has at
  /// most this many terms (expandWithin; 0: always). Default
  /// DefaultMaxTerms.
  void setMaxTerms(size_t N) { MaxTerms = N; }
  static constexpr size_t DefaultMaxTerms = 4000;
  /// A callee's closed form of more than this many DAG nodes (dagSize) is
  /// bound at a call as a kept call (Expr.h keptCall: evaluated once the
  /// values are known, printed "T_callee(args)") rather than substituted
  /// into the caller's form, unless an argument depends on an enclosing
  /// loop's index; 0: always substituted. Each caller's form then holds
  /// its own code and its callees' calls, so the work of a caller no
  /// longer grows with the size of everything it calls (whole programs:
  /// a library's printf or initialisation under every function). The
  /// value is the same (up to the rounding of the callee's value to a
  /// double). Default DefaultMaxCalleeNodes.
  void setMaxCalleeNodes(size_t N) { MaxCalleeNodes = N; }
  /// A call (to a function with a SEG, not a recursive call in progress)
  /// for which Skip(callee, weight key) is true is costed as the call node
  /// alone, without the callee's closed form: the caller knows the form is
  /// 0 under that weight (a count of an operation nothing the callee
  /// reaches has). Skip must be true only then: the values are the same.
  void setCallFilter(std::function<bool(const std::string &, const std::string &)> Skip) {
    CallFilter = std::move(Skip);
  }
  static constexpr size_t DefaultMaxCalleeNodes = 5000;
  /// Did closedForm(Fn, ..., WeightKey) stay factored (over the budget)?
  bool factored(const std::string &Fn, const std::string &WeightKey) const {
    return Factored.count({Fn, WeightKey}) > 0;
  }

  /// Forgets the closed forms and dependsOn sets of Fn and of every
  /// function whose kept form used Fn's, directly or through other calls:
  /// Fn's SEG was replaced (another copy swapped into the file).
  void forget(const std::string &Fn);
  /// Forgets every closed form and dependsOn set (the stage weights changed).
  void forgetAll() {
    Memo.clear();
    BoundMemo.clear();
    KeptIds.clear();
    SizeMemo.clear();
    FreeMemo.clear();
    DepMemo.clear();
    CutMemo.clear();
    CutDeps.clear();
    Factored.clear();
    RankFreqs.clear();
    UsedBy.clear();
  }
  /// Forgets the closed forms and dependsOn sets that were cut at a
  /// recursive call in progress (or use one that was): those depend on the
  /// function the building started from, the others are the same from any
  /// start. Between two predictions of one file over this builder, the
  /// closed forms kept are then those a new builder would build.
  void keepContextFree();
  /// Closed forms built (memo misses) since this builder was made: the work
  /// bound of test/unit/FormulaWorkTest.cpp.
  size_t formsBuilt() const { return Built; }
  /// Callee forms bound to a call's arguments (subsShared over the
  /// callee's closed form) since this builder was made: one per distinct
  /// (callee, weight key, binding of the form's parameters); a call site
  /// with a binding met before reuses that bound form.
  size_t bindingsMade() const { return Bindings; }

  /// Trip counts as max(0, trip) in the closed forms built from now on (the
  /// memo of closed forms is cleared): a C loop whose bound is below its
  /// start runs 0 times, but the closed form of `for (i = 2; i < n; ++i)`,
  /// n - 2, is negative at n = 1. max is segtime's GiNaC function (Expr.h),
  /// which evaluates once its arguments are numbers and otherwise stays
  /// symbolic, so the clamp makes the printed formulas longer
  /// ("max(0, n - 2)*...") and a polynomial body no longer sums in closed
  /// form over a clamped index range; the predictor therefore turns it on
  /// only when a trip count is negative at the values given. A trip count
  /// that is a non-negative number is left as it is.
  void setClampTrips(bool On) {
    if (On != ClampTrips) {
      Memo.clear();
      BoundMemo.clear();
      KeptIds.clear();
      SizeMemo.clear();
      FreeMemo.clear();
    }
    ClampTrips = On;
  }
  bool clampTrips() const { return ClampTrips; }

  /// Warwick-94 eq. 1 style structural formula of Fn.
  std::string structural(const std::string &Fn) const;

  /// A call to a C library function segtime costs (core/Library.h) that
  /// has no SEG in the file.
  bool libraryCall(const Node &N) const;
  /// The library functions the machine has costs for (LibraryFunction
  /// names) and its name: a library call to any other is reported by
  /// unresolved() as "no library cost in MACHINE". Unset (calibrate):
  /// library calls cost nothing and are not reported.
  void setLibraryCosts(std::set<std::string> Costed, std::string Machine) {
    LibraryCosted = std::move(Costed);
    LibraryMachine = std::move(Machine);
    LibrarySet = true;
  }

  /// Unknown nodes and unresolved calls met while building closed forms.
  const std::set<std::string> &unresolved() const { return Unresolved; }

  /// All parameters declared by the file's functions, by name.
  std::map<std::string, Parameter> declaredParameters() const;

private:
  GiNaC::ex listCost(const NodeList &L, const StageWeight &W, const std::string &Key,
                     const std::string &Fn, const std::string &Level);
  GiNaC::ex nodeCost(const Node &N, const StageWeight &W, const std::string &Key,
                     const std::string &Fn, const std::string &Level);

  /// Callee's closed form C (weight key Key) bound to call node Call's
  /// arguments: the form itself if it has none of the callee's parameters,
  /// a kept call if it is larger than MaxCalleeNodes, else the substituted
  /// form, once per distinct binding (BoundMemo).
  GiNaC::ex boundCall(const Node &Call, const FunctionSeg &Callee, const GiNaC::ex &C,
                      const std::string &Key);

  /// IR-level bodies (INTCC, ICC): SourceNode id -> the product of the
  /// rank-resolved arm probabilities (cmp_eq(rank, 0), ...) between that
  /// source node and its nearest enclosing loop, when every arm on that path
  /// is rank-resolved; nullptr if Fn's level body is the source-level SEG.
  /// Such IR nodes take this frequency instead of BranchProbabilityInfo's
  /// static one (docs/mpi.md).
  const std::map<std::string, std::string> *irRankFreqs(const std::string &Fn,
                                                         const std::string &Level);

  /// dependsOn's walk over L: adds the names to Out; true if some node of L
  /// is weighed non-zero.
  bool listDeps(const NodeList &L, const StageWeight &W, const std::string &Key,
                const std::string &Fn, const std::string &Level, int Depth,
                std::set<std::string> &Out);
  /// The frequency N has in Fn's level body (rank-resolved, see irRankFreqs).
  std::string freqOf(const Node &N, const std::map<std::string, std::string> *RF) const;

  const SegFile &File;
  size_t MaxTerms = DefaultMaxTerms;
  std::set<std::pair<std::string, std::string>> Factored;
  std::map<std::pair<std::string, std::string>, std::pair<bool, std::set<std::string>>> DepMemo;
  /// nodeForm: nodes of function MaskFn outside *Mask are not costed.
  const std::set<const Node *> *Mask = nullptr;
  std::string MaskFn;
  std::map<std::string, std::map<std::string, std::string>> RankFreqs;
  std::map<std::pair<std::string, std::string>, GiNaC::ex> Memo;
  /// The free symbols of Memo's closed forms (a call binds only those).
  std::map<std::pair<std::string, std::string>, std::set<std::string>> FreeMemo;
  std::set<std::string> InProgress;
  /// Memo and DepMemo entries cut at a call in InProgress, directly or in
  /// a callee's entry they used (keepContextFree).
  std::set<std::pair<std::string, std::string>> CutMemo, CutDeps;
  /// The build under way met such a cut (saved and restored per build).
  bool Cut = false;
  /// The notes of Unresolved that calls cut at a recursion in progress
  /// gave (keepContextFree drops them with the forms).
  std::set<std::string> CutNotes;
  /// Callee -> the functions whose memo entries used its entry (forget).
  std::map<std::string, std::set<std::string>> UsedBy;
  size_t Built = 0; ///< formsBuilt
  size_t Bindings = 0; ///< bindingsMade
  /// A callee's closed form under one weight key, bound to one call's
  /// arguments (the parameters the form has, by name, in order).
  struct BoundKey {
    std::string Callee, Key;
    std::vector<std::pair<std::string, GiNaC::ex>> Args;
    bool operator<(const BoundKey &O) const;
  };
  std::map<BoundKey, GiNaC::ex> BoundMemo;
  size_t MaxCalleeNodes = DefaultMaxCalleeNodes;
  std::function<bool(const std::string &, const std::string &)> CallFilter; ///< setCallFilter
  /// (function, weight key) -> dagSize of its closed form; -> its kept id.
  std::map<std::pair<std::string, std::string>, size_t> SizeMemo, KeptIds;
  /// The indices of the loops enclosing the node being costed.
  std::vector<std::string> Indices;
  std::set<std::string> Unresolved;
  std::map<std::string, LoopBound> Bounds;
  std::set<std::string> LibraryCosted; ///< setLibraryCosts
  std::string LibraryMachine = "the machine file";
  bool LibrarySet = false; ///< setLibraryCosts called (else calls are not reported)
  int LoopDepth = 0; ///< loops enclosing the node being costed
  bool ClampTrips = false; ///< setClampTrips
};

/// Substitution applied to a loop body: the loop index as a function of the
/// iteration number k (i = start + k*step, or start*step^k).
GiNaC::ex loopIndexValue(const Node &Loop, const GiNaC::symbol &K);

/// The default value of parameter P: its number (Parameter::Default), or
/// its expression (Parameter::DefaultExpr, e.g. the min-update idiom's
/// H_N/N) evaluated with Values (source names -> numbers); nullopt if P has
/// no default. Throws std::runtime_error "default of P (EXPR): no value for
/// X" if the expression needs a name Values lacks, or names P's syntax error.
std::optional<double> defaultValue(const Parameter &P, const std::map<std::string, double> &Values);

} // namespace segtime

#endif
