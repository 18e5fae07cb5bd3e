//===- Parkbench.h - PARKBENCH-93 low-level fits ------------------*- C++ -*-===//
///
/// \file
/// The fits behind `segtime calibrate`'s low-level benchmarks (PARKBENCH-93
/// §3.2), as pure functions of measured data (no timing, no I/O), so they can
/// be tested on synthetic data:
///
///  - fitHockney: RINF1, t = q (n + n_1/2) / r_inf (PARKBENCH-93 eq. 3.1),
///    by least squares on the straight line t = a + b n;
///  - fitPoly: POLY1 / POLY2, r_inf(f) = r̂_inf / (1 + f_1/2 / f)
///    (PARKBENCH-93 eq. 3.3), which is eq. 3.1 again with the computational
///    intensity f in place of n (time per memory reference, see fitPoly);
///  - bandwidthPlateaus: the bandwidth of each cache level and of memory from
///    a bandwidth-versus-working-set curve and the cache sizes;
///  - median and relSpread, the statistics every calibrated number carries.
///
/// USAGE:
///   RinfFit F = fitHockney({8, 64, 512}, {2e-9, 9e-9, 6.5e-8}, /*Q=*/1);
///   // F.RInf flop/s, F.NHalf elements
///   PolyFit P = fitPoly({1, 2, 4, 8}, {2.0e9, 3.1e9, 4.2e9, 5.0e9});
///   // P.RHatInf flop/s, P.FHalf flop per memory reference
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PREDICTOR_PARKBENCH_H
#define SEGTIME_PREDICTOR_PARKBENCH_H

#include <limits>
#include "predictor/Stats.h"

#include <optional>
#include <string>
#include <vector>

namespace segtime {

/// Result of a RINF1-style Hockney fit t = q (x + x_1/2) / r_inf (named apart
/// from CommFit.h's HockneyFit, the communication model's fit, which has
/// other members: one name for two classes would break the one-definition rule).
struct RinfFit {
  double RInf = 0;  ///< asymptotic rate r_inf, (units of q) per s (flop/s for RINF1)
  double XHalf = 0; ///< half-performance length x_1/2 (n_1/2 for RINF1), units of x
  double T0 = 0;    ///< intercept a = q x_1/2 / r_inf, s (start-up time)
  std::vector<double> Residuals; ///< (model - measured) / measured, per point
  double RmsRel = 0;             ///< root mean square of Residuals
};

/// Least-squares fit of PARKBENCH-93 eq. 3.1, t = q (x + x_1/2) / r_inf, to
/// points (X_i, T_i): the straight line t = a + b x with b = q / r_inf and
/// a = q x_1/2 / r_inf (eq. 3.1 as the benchmark fits it). The points are
/// weighted by 1/T_i, so the relative residuals are minimised and short
/// vectors, whose time is mostly start-up, count as much as long ones.
/// Solved with Eigen (QR). X in elements (or any length unit), T in s,
/// Q > 0 operations per element. x_1/2 may come out negative (a machine whose
/// short vectors are faster per element than the asymptote), as in the paper.
/// Throws std::invalid_argument if the sizes differ, there are fewer than two
/// distinct X, a T is not positive, or the slope is not positive.
RinfFit fitHockney(const std::vector<double> &X, const std::vector<double> &T, double Q);

/// Result of a POLY1 / POLY2 fit of PARKBENCH-93 eq. 3.3.
struct PolyFit {
  double RHatInf = 0; ///< r̂_inf, flop/s: the rate at infinite computational intensity
  double FHalf = 0;   ///< f_1/2, flop per memory reference: intensity for half of r̂_inf
  std::vector<double> Residuals; ///< (model rate - measured rate) / measured, per point
  double RmsRel = 0;             ///< root mean square of Residuals
};

/// Least-squares fit of PARKBENCH-93 eq. 3.3, r_inf(f) = r̂_inf / (1 + f_1/2/f),
/// to long-vector rates R_i (flop/s) measured at computational intensities
/// F_i (flop per memory reference; for POLY1/POLY2 the order of the Horner
/// polynomial). Since the time per memory reference is f / r = (f + f_1/2) /
/// r̂_inf, this is fitHockney on (F_i, F_i / R_i) with q = 1, i.e. a straight
/// line in f. Throws std::invalid_argument as fitHockney (and for F_i <= 0 or
/// R_i <= 0).
PolyFit fitPoly(const std::vector<double> &F, const std::vector<double> &R);

/// PARKBENCH-93 eq. 3.3 with r̂_inf known (RHat, flop/s, e.g. from POLY1:
/// the arithmetic peak is the core's, in cache or not): the one-parameter
/// least-squares f_1/2 of the time per memory reference f / r =
/// (f + f_1/2) / r̂_inf, relative residuals, i.e. f_1/2 = sum_i w_i (r̂ tau_i
/// - f_i) / sum_i w_i with tau_i = F_i / R_i and w_i = 1 / tau_i^2. For
/// POLY2 on machines where the out-of-cache curve stays memory-bound
/// (r nearly proportional to f) over the orders measured, so that the
/// two-parameter fit cannot resolve r̂_inf. Throws std::invalid_argument on
/// empty or mismatched input or a non-positive F_i, R_i or RHat.
PolyFit fitPolyGivenPeak(const std::vector<double> &F, const std::vector<double> &R,
                         double RHat);

/// One level of the memory hierarchy for bandwidthPlateaus.
struct CacheLevel {
  std::string Name; ///< "L1", "L2", "L3" or "DRAM"
  double Size = 0;  ///< B (0 for DRAM: unbounded)
};

/// The bandwidth plateau found for one level.
struct Plateau {
  std::string Level;
  double Lo = 0, Hi = 0;       ///< working-set window searched, B (Hi = inf for DRAM)
  double Bandwidth = 0;        ///< B/s: median of the curve's points in the window
  std::vector<size_t> Points;  ///< indices of those points
  double Flatness = 0;         ///< (max - min) / median of those points
};

/// Bandwidth of each level of a memory hierarchy from a curve of bandwidth
/// B_i (B/s) against working set W_i (B), as a plateau: the median of the
/// points whose working set lies well inside the level, i.e. in
/// [2 S_(k-1), S_k / 2] for cache k of size S_k (L1: [S_1 / 8, S_1 / 2];
/// DRAM: W >= 4 S_last). The factor 2 on each side keeps the transitions
/// (partly-hit caches, associativity conflicts, prefetch ramps) out of the
/// plateau; if a window is empty because two levels are within a factor 4 of
/// each other, it widens to [S_(k-1), S_k]. Levels are given from the
/// smallest; the last must be DRAM (Size 0). Throws std::invalid_argument if
/// the sizes are not increasing, the curve is malformed, or a window holds no
/// point (naming the level and its window).
std::vector<Plateau> bandwidthPlateaus(const std::vector<double> &W,
                                       const std::vector<double> &B,
                                       const std::vector<CacheLevel> &Levels);

} // namespace segtime

#endif
