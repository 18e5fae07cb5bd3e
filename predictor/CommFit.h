//===- CommFit.h - Least-squares fits of the communication models -*- C++ -*-===//
///
/// \file
/// Fits the models of predictor/CommModels.h to measurements (design.md §6,
/// docs/comm.md). Every fit is a weighted linear least-squares problem solved
/// with Eigen (column-pivoting Householder QR); the weights are 1/t_i, so the
/// residuals minimised are the relative ones, (t_fit - t_i) / t_i, and a
/// 1 µs message counts as much as a 1 ms one. Every fit reports its residual
/// per measured point.
///
///  - fitHockney: t = t_0 + n / r_inf over one range (PARKBENCH-93 eq. 3.4,
///    t_0 = n_1/2 / r_inf eq. 3.7).
///  - fitPiecewiseHockney: the same, piecewise over message-size ranges with
///    automatically placed breakpoints (PARKBENCH-93 §3.3.1: a separate fit
///    per transmission mode). Dynamic programming finds, for every number of
///    segments k <= MaxSegments, the partition of the sorted sizes into k
///    contiguous ranges (each >= MinPoints sizes) with the least total
///    squared relative residual; k is chosen by the Bayesian information
///    criterion m ln(RSS/m) + 3k ln m (2 coefficients + 1 breakpoint per
///    segment), with RSS/m floored at NoiseFloor^2 (1 % rms by default):
///    residuals below the noise of a timing measurement do not buy segments
///    (with 0.5 % noise, a raw BIC split a range in 5 % of synthetic trials;
///    with the floor in none of 200). Segments need not join (protocol switches are
///    jumps). A breakpoint lies between the last size of one range and the
///    first of the next: UpTo is where the two lines cross if they cross
///    there (a continuous transition, e.g. a cache effect), else the last
///    size measured in the lower range (a jump, e.g. an eager/rendezvous
///    protocol switch).
///  - fitBarrier: SYNCH1 t(p) = t_b0 + t_b1 ceil(log2 p) (PARKBENCH-93 §3.3.4).
///  - fitLogGP: L, o, g, G from parametrised round-trip times PRTT(n, d, s)
///    (Hoefler, Lichei, Rehm 2007; Kielmann, Bal, Verstoep 2000).
///
/// Units: bytes (B), seconds (s), B/s. Bad input (too few points, sizes and
/// times of different lengths, times <= 0) throws std::invalid_argument.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PREDICTOR_COMMFIT_H
#define SEGTIME_PREDICTOR_COMMFIT_H

#include "predictor/CommModels.h"

#include <vector>

namespace segtime {

/// Residuals of a fit at its measured points.
struct FitResiduals {
  std::vector<double> X;        ///< the abscissa: message size (B) or p
  std::vector<double> Measured; ///< s
  std::vector<double> Fitted;   ///< s
  std::vector<double> Rel;      ///< (Fitted - Measured) / Measured
  double MaxAbsRel = 0;         ///< max |Rel|
  double RmsRel = 0;            ///< sqrt(mean Rel^2)
};

/// A Hockney fit: the model, its residuals, and for each point the index of
/// the segment that fitted it.
struct HockneyFit {
  HockneyModel Model;
  FitResiduals Residuals;
  std::vector<int> SegmentOf;
  double Bic = 0; ///< the criterion of the chosen segment count (piecewise only)
};

/// The straight line t = T0 + Slope x through the points (X_i, T_i) by least
/// squares with weights 1/T_i (relative residuals), columns scaled for
/// conditioning, solved with Eigen's column-pivoting QR: the solve of every
/// Hockney-type fit (PARKBENCH-93 eq. 3.1 in Parkbench.h fitHockney, eq. 3.4
/// here). Rss is the sum of squared relative residuals. X and T of equal
/// size >= 2 with T > 0 (the callers check; not checked here).
struct RelativeLine {
  double T0 = 0, Slope = 0, Rss = 0;
};
RelativeLine fitRelativeLine(const std::vector<double> &X, const std::vector<double> &T);

/// Single-range Hockney fit of times T (s) at sizes N (B), N and T of equal
/// length >= 2 with at least 2 distinct sizes: min sum ((t_0 + n/r_inf - t)/t)^2.
/// Throws std::invalid_argument on bad input or if the fitted slope 1/r_inf
/// is not > 0 (times that do not grow with the size).
HockneyFit fitHockney(const std::vector<double> &N, const std::vector<double> &T);

/// Options of the piecewise fit (see the file comment).
struct PiecewiseOptions {
  int MaxSegments = 4;     ///< at most this many ranges
  int MinPoints = 3;       ///< sizes per range (3: a 2-parameter fit keeps a residual)
  double NoiseFloor = 0.01; ///< rms relative residual below which fits are not told apart
};

/// Piecewise Hockney fit with automatic breakpoints; points need not be
/// sorted (they are sorted by size; equal sizes stay together). Segments
/// whose slope comes out <= 0 are not allowed. Throws std::invalid_argument
/// if no admissible partition exists (fewer than MinPoints points, ...).
HockneyFit fitPiecewiseHockney(const std::vector<double> &N, const std::vector<double> &T,
                               const PiecewiseOptions &O = {});

/// Residuals of Model at the points (N, T); throws std::invalid_argument if
/// the lengths differ or a time is <= 0.
FitResiduals residuals(const HockneyModel &Model, const std::vector<double> &N,
                       const std::vector<double> &T);

/// SYNCH1 fit of barrier times T (s) at process counts P (>= 1), at least
/// two distinct values of ceil(log2 p) (e.g. p = 1 and 2).
struct BarrierFit {
  BarrierModel Model;
  FitResiduals Residuals;
};
BarrierFit fitBarrier(const std::vector<int> &P, const std::vector<double> &T);

/// PRTT measurements at one message size s (all s).
struct PrttPoint {
  double S = 1;     ///< message size, B
  double Prtt1 = 0; ///< PRTT(1, 0, s)
  double PrttN = 0; ///< PRTT(n, 0, s): n messages back to back
  double PrttD = 0; ///< PRTT(n, d, s): n messages with a delay d between sends
  double N = 16;    ///< n
  double D = 0;     ///< d, s (>= PRTT(1, 0, s) so that the network idles)
  /// Gap per message of s bytes: (PRTT(n,0,s) - PRTT(1,0,s)) / (n-1) = g + (s-1)G.
  double gap() const { return (PrttN - Prtt1) / (N - 1); }
  /// Send overhead: (PRTT(n,d,s) - PRTT(1,0,s)) / (n-1) - d.
  double overhead() const { return (PrttD - Prtt1) / (N - 1) - D; }
};

/// The LogGP fit (Hoefler, Lichei, Rehm 2007):
///   o = overhead() at the smallest s;  g = gap() at the smallest s;
///   G = slope of gap(s) = g' + (s-1) G, least squares (weights 1/gap) over
///       the sizes s >= LargeFrom (the two largest if fewer than two);
///   L = PRTT(1,0,s_min)/2 - 2o - (s_min - 1) G.
/// Residuals: one-message times LogGPModel::time(s) against PRTT(1,0,s)/2.
/// L may come out < 0 where o is most of the latency (shared memory); it is
/// reported as measured and flagged by checkConsistency.
struct LogGPFit {
  LogGPModel Model;
  FitResiduals Residuals;   ///< X = s, Measured = PRTT(1,0,s)/2
  FitResiduals GapResiduals; ///< the G fit: gap(s) against g' + (s-1)G
  std::vector<double> Overheads; ///< o(s) at each size, s
};
LogGPFit fitLogGP(const std::vector<PrttPoint> &Points, int P, double LargeFrom = 65536);

} // namespace segtime

#endif
