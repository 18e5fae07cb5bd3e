//===- CostFit.h - Least-squares fits of cost vectors ------------*- C++ -*-===//
///
/// \file
/// The least-squares solves behind `segtime calibrate` (tools/Calibrate.cpp):
///
///  - relativeNnls: the cost vector c of Warwick-94 eq. 4 (t = A c) from
///    benchmark counts A and times t, residuals relative (rows weighted by
///    1/t_i), non-negative by the active-set rule "fix the most negative at 0
///    and re-solve" (Eigen QR, or a complete orthogonal decomposition for
///    collinear columns).
///  - fitGroupMultipliers: one multiplier s_g >= 0 per group g of cost keys,
///    fitted on a training set of kernels, so that the cost of key k is
///    s_g(k) c0_k (c = diag(s) c0 in Warwick-94 eq. 4): with
///    G_jg = sum_{k in g} c0_k f_jk, t_j ~ sum_g s_g G_jg, the same weighted
///    non-negative solve; plus its residuals and leave-one-out errors.
///  - costGroup: the groups of HLLC constructs and INTCC operation classes
///    (docs/calibrate.md, "Training-set fit").
///
/// USAGE:
///   NonNegativeLs C = relativeNnls(A, T, Names);          // A: rows x columns
///   GroupFit F = fitGroupMultipliers(G, T, costGroups(Level::IntCC), TimesByRep);
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PREDICTOR_COSTFIT_H
#define SEGTIME_PREDICTOR_COSTFIT_H

#include "core/Vocabulary.h"
#include <optional>
#include <string>
#include <vector>

namespace segtime {

/// A dense matrix as its rows: M[i][j], every row the same length.
using DenseRows = std::vector<std::vector<double>>;

/// Weighted least squares on the columns Free of A: minimises
/// sum_i ((A x - t)_i / t_i)^2 over x_j, j in Free (x_j = 0 elsewhere).
/// A: m x n (counts), T: m times (> 0), Names: n column names for messages.
/// MinimumNorm: collinear columns share their value (minimum-norm solution)
/// instead of being an error. Throws std::runtime_error if a free column is
/// all zero, or (without MinimumNorm) if the free columns are rank deficient.
std::vector<double> relativeLs(const DenseRows &A, const std::vector<double> &T,
                               const std::vector<int> &Free, const std::vector<std::string> &Names,
                               bool MinimumNorm = false);

/// Result of relativeNnls.
struct NonNegativeLs {
  std::vector<double> X;  ///< the solution, >= 0 (0 where Fixed or not free)
  std::vector<double> Ls; ///< value before it was fixed at 0 (= X where not fixed)
  std::vector<bool> Fixed; ///< negative in a solve: fixed at 0
  std::vector<int> Free;   ///< columns solved in the last solve
};

/// Non-negative weighted least squares (relativeLs) on the columns Free
/// (all if empty): solve, fix the most negative value at 0, re-solve, until
/// none is negative. Same errors as relativeLs.
NonNegativeLs relativeNnls(const DenseRows &A, const std::vector<double> &T,
                           const std::vector<std::string> &Names, bool MinimumNorm = false,
                           std::vector<int> Free = {});

/// Cost of a library call of size n (docs/calibrate.md "library"):
/// t = PerCall + PerB * n, s and s/B.
struct CallCostFit {
  double PerCall = 0; ///< s
  double PerB = 0;    ///< s/B
  double RmsRel = 0;  ///< root mean square of (fit - t_i) / t_i
  double MaxRel = 0;  ///< largest |fit - t_i| / t_i
};

/// Fits t = a + b n to times T (s per call, > 0) at sizes N (B), by
/// relativeNnls on the rows [1, n_i] (a, b >= 0; relative residuals, so the
/// per-call cost of small sizes is not swamped by the large ones). Throws
/// std::runtime_error if N and T differ in length, there are fewer than two
/// distinct sizes, or a time is not > 0.
CallCostFit fitCallCost(const std::vector<double> &N, const std::vector<double> &T);

/// The group-multiplier fit of a training set (see the file comment).
struct GroupFit {
  std::vector<std::string> Groups;
  std::vector<double> S;     ///< multiplier per group (1 where not Determined)
  std::vector<double> LsS;   ///< least-squares value before fixing at 0
  std::vector<bool> Fixed;   ///< negative in the solve: written as 0
  /// The group carries >= 1 % of some kernel's time with the construct costs
  /// (G_jg / t_j >= 0.01) and is not held at 1 (heldAtOne); otherwise its
  /// multiplier stays 1.
  std::vector<bool> Determined;
  std::vector<std::optional<double>> Spread; ///< (max-min)/median of s over repetitions
  std::vector<double> Rel0;  ///< per kernel: (sum_g G_jg - t_j) / t_j, construct costs alone
  std::vector<double> Rel;   ///< per kernel: (sum_g s_g G_jg - t_j) / t_j
  std::vector<double> LooRel; ///< per kernel: the same, s fitted without kernel j
  double RmsRel0 = 0, RmsRel = 0, RmsLoo = 0;            ///< root mean square
  double MedianAbsRel0 = 0, MedianAbsRel = 0, MedianAbsLoo = 0; ///< median |.|
};

/// Fits one multiplier per group (columns of G) to the training times T:
/// G: m kernels x groups (s per call with the construct costs c0, grouped),
/// T: m times (s per call, > 0), Groups: column names, TimesByRep: optional,
/// TimesByRep[r][j] the r-th sample of kernel j, for the spread (one solve
/// per repetition). Leave-one-out: for each kernel j, s refitted on the
/// others (the determined groups re-decided) predicts t_j. Throws
/// std::runtime_error on mismatched sizes, fewer than 2 kernels or T <= 0.
GroupFit fitGroupMultipliers(const DenseRows &G, const std::vector<double> &T,
                             const std::vector<std::string> &Groups,
                             const DenseRows &TimesByRep = {});

/// True for a group whose multiplier is held at 1, not fitted: "math", the
/// calls of math-library functions, whose construct benchmarks time the
/// library's own code directly (the same code at every level: ICC costs its
/// library calls with these costs, ICCModel::libraryCallCost).
bool heldAtOne(const std::string &Group);

/// Groups of cost keys fitted by one multiplier each, in order:
///   HLLC  fp (f32/f64 add, sub, mul, cmp, abs), div (div, rem, sqrt), math
///         (exp, log, trig, pow, libm), int (i32/i64 arithmetic, compares,
///         shifts, bit operations, conversions cvt.*), mem (mem.*), control
///         (loop, if, switch, call);
///   INTCC fp (fadd, fsub, fmul, fneg, fcmp, fp conversions, llvm.fmuladd,
///         fabs, minnum ...), div (fdiv, frem, sdiv, udiv, srem, urem, sqrt),
///         math (calls of math-library functions), int (integer and address
///         arithmetic, icmp, select, casts, llvm.abs/smax ...), load, store,
///         other (br, switch, phi, ret, alloca, vector shuffles, other calls
///         and the fallback "*").
/// Throws std::invalid_argument for another level. The tables are the
/// level units' (predictor/levels: HllcUnit.cpp, IntccUnit.cpp).
const std::vector<std::string> &costGroups(Level L);

/// The group (one of costGroups(Level)) of cost key Key: an HLLC construct
/// ("f64.add") or an INTCC class ("fadd.*", "call.exp", "*").
std::string costGroup(Level L, const std::string &Key);

} // namespace segtime

#endif
