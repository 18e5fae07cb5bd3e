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
  /// Warwick-94 eq. 1 style structural formula of Fn.
  std::string structural(const std::string &Fn) const;

  /// Unknown nodes and unresolved calls met while building closed forms.
  const std::set<std::string> &unresolved() const { return Unresolved; }

  /// All parameters declared by the file's functions, by name.
  std::map<std::string, Parameter> declaredParameters() const;

private:
  GiNaC::ex listCost(const NodeList &L, const StageWeight &W, const std::string &Key,
                     const std::string &Fn, const std::string &Level);
  GiNaC::ex nodeCost(const Node &N, const StageWeight &W, const std::string &Key,
                     const std::string &Fn, const std::string &Level);

  /// IR-level bodies (INTCC, ICC): SourceNode id -> the product of the
  /// rank-resolved arm probabilities (cmp_eq(rank, 0), ...) between that
  /// source node and its nearest enclosing loop, when every arm on that path
  /// is rank-resolved; nullptr if Fn's level body is the source-level SEG.
  /// Such IR nodes take this frequency instead of BranchProbabilityInfo's
  /// static one (docs/mpi.md).
  const std::map<std::string, std::string> *irRankFreqs(const std::string &Fn,
                                                         const std::string &Level);

  const SegFile &File;
  /// nodeForm: nodes of function MaskFn outside *Mask are not costed.
  const std::set<const Node *> *Mask = nullptr;
  std::string MaskFn;
  std::map<std::string, std::map<std::string, std::string>> RankFreqs;
  std::map<std::pair<std::string, std::string>, GiNaC::ex> Memo;
  std::set<std::string> InProgress;
  std::set<std::string> Unresolved;
  std::map<std::string, LoopBound> Bounds;
  int LoopDepth = 0; ///< loops enclosing the node being costed
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
