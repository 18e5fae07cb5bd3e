//===- Overlap.h - Overlap of core work and memory transfers ------*- C++ -*-===//
///
/// \file
/// How much of a loop nest's memory transfer time hides under its core time
/// on an out-of-order core (the ICC memory term, docs/models.md "Overlap of
/// core and memory"):
///
///   t = (t_core^p + t_mem^p)^(1/p),     p >= 1,
///
/// the p-norm ("smooth maximum") of the core time t_core (scheduling-model
/// cycles x t_cyc) and the transfer time t_mem (MemoryModel::lineTime): p = 1
/// is no overlap (the sum, as Warwick-94 eq. 7 adds its memory terms on an
/// in-order core), p -> infinity full overlap (the max of the roofline and of
/// the ECM model's overlapping part, Stengel et al. 2015). The exponent is a
/// property of the machine measured by `segtime calibrate --level overlap`
/// (memory.overlap.NN.exponent at memory.overlap.NN.working_set): chains of
/// 1/4, 1, 2 and 4 dependent multiply-adds per element over 1 and 2 streams,
/// against their own in-L1 time (t_core) and the same streams summed into
/// independent accumulators (t_mem). On the Ice Lake VM of docs/results.md a
/// chain of 4 cycles per element over two DRAM streams of 4.5 cycles per
/// element runs at 5.5, not max = 4.5: a latency-bound chain keeps the
/// reorder buffer full and the loads it holds are issued late.
///
/// USAGE:
///   double T = overlapTime(2.3e-3, 2.2e-3, 2.5);   // 3.0e-3 s
///   OverlapFit F = fitOverlap(Tc, Tm, T);           // F.P, F.RmsRel
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PREDICTOR_OVERLAP_H
#define SEGTIME_PREDICTOR_OVERLAP_H

#include <ginac/ginac.h>
#include <vector>

namespace segtime {

/// Largest exponent fitOverlap returns: at p = 64 the p-norm of two equal
/// times is 1.1 % above their max (full overlap for the purpose).
constexpr double MaxOverlapExponent = 64;

/// (Tc^P + Tm^P)^(1/P) in the units of Tc and Tm (s); P >= 1. Tc, Tm >= 0.
double overlapTime(double Tc, double Tm, double P);
/// The same as an expression (Tc, Tm expressions in s, P a number >= 1);
/// max(Tc, Tm) for P >= MaxOverlapExponent.
GiNaC::ex overlapTime(const GiNaC::ex &Tc, const GiNaC::ex &Tm, double P);

/// Result of fitOverlap.
struct OverlapFit {
  double P = 0;                  ///< fitted exponent, in [1, MaxOverlapExponent]
  std::vector<double> Residuals; ///< (model - measured) / measured per point
  double RmsRel = 0;             ///< root mean square of Residuals
  double RmsMax = 0;             ///< the same for the max (full overlap)
  double RmsSum = 0;             ///< the same for the sum (no overlap)
};

/// Least-squares exponent p of t = (Tc^p + Tm^p)^(1/p) for points
/// (Tc_i, Tm_i, T_i), s: minimises sum_i (ln t(p) - ln T_i)^2 (relative
/// residuals) over ln p in [0, ln MaxOverlapExponent], by a scan of 400 steps
/// and golden-section refinement of the best bracket (one parameter; the
/// objective is smooth). Throws std::invalid_argument on sizes that differ,
/// no points, or a non-positive time.
OverlapFit fitOverlap(const std::vector<double> &Tc, const std::vector<double> &Tm,
                      const std::vector<double> &T);

} // namespace segtime

#endif
