//===- CommModels.h - Hardware communication models -------------*- C++ -*-===//
///
/// \file
/// The communication layer of the layered framework (Warwick-94 §2, Fig. 1-2,
/// design.md §6): models of the time of one message and of a barrier, with
/// their parameters read from (and written to) the `comm` section of a
/// machine file (costvectors/README.md). Units: bytes (B), seconds (s),
/// bytes per second (B/s).
///
///  - HockneyModel: t(n) = (n + n_1/2) / r_inf, piecewise over message-size
///    ranges (PARKBENCH-93 eqs. 3.4-3.11; §3.3.1 allows a separate fit per
///    range when the transmission mode changes, e.g. an eager/rendezvous
///    protocol switch).
///  - ParsytecModel: the linear packet model t(l, d) of Warwick-94 eq. 5.
///  - LogGPModel: L, o, g, G, P (Alexandrov et al. 1995); one message of n
///    bytes costs o + (n-1) G + L + o.
///  - BarrierModel: SYNCH1 barrier time t(p) = t_b0 + t_b1 ceil(log2 p)
///    (PARKBENCH-93 §3.3.4; the log2 p rounds of a dissemination or
///    recursive-doubling barrier).
///
/// The fits that produce these parameters live in predictor/CommFit.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PREDICTOR_COMMMODELS_H
#define SEGTIME_PREDICTOR_COMMMODELS_H

#include "predictor/Machine.h"

#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace segtime {

/// Hockney's two-parameter model, piecewise in the message length.
/// PARKBENCH-93 eq. 3.4: t = (n + n_1/2)/r_inf; eq. 3.7: t_0 = n_1/2 / r_inf;
/// eq. 3.10: pi_0 = 1/t_0 = r_inf / n_1/2; eq. 3.5: r = r_inf / (1 + n_1/2 / n).
struct HockneyModel {
  /// One message-size range: lengths n <= UpTo (B) use (RInf, NHalf).
  struct Segment {
    double UpTo = std::numeric_limits<double>::infinity(); ///< B, inclusive
    double RInf = 0;                                       ///< B/s
    double NHalf = 0;                                      ///< B (may be < 0 on a range far from 0)
    double t0() const { return NHalf / RInf; }             ///< s, eq. 3.7
    double pi0() const { return RInf / NHalf; }            ///< 1/s, eq. 3.10
  };
  /// Ranges in increasing UpTo; the last one is open (UpTo = infinity).
  std::vector<Segment> Segments;

  /// The range message length N (B) falls in. Throws std::logic_error if
  /// the model has no segments.
  const Segment &segment(double N) const;
  /// Time of one message of N bytes, s (eq. 3.4 with N's range).
  double time(double N) const {
    const Segment &S = segment(N);
    return (N + S.NHalf) / S.RInf;
  }
  /// Transfer rate N / t(N), B/s (eq. 3.5).
  double rate(double N) const { return N / time(N); }

  /// Reads comm.<Name>.<k>.{upto, r_inf, n_half} (k = 0, 1, ...); throws
  /// std::runtime_error naming the machine file and the missing key.
  static HockneyModel fromMachine(const Machine &M, const std::string &Name = "hockney");
  /// The parameters as comm-section entries "<Name>.<k>.upto|r_inf|n_half|t0|pi0"
  /// (upto, t0 and pi0 derived), with provenance Prov and reference Ref.
  ParamList toParams(const std::string &Name, const std::string &Prov,
                     const std::string &Ref) const;
};

/// The Parsytec SuperCluster linear packet model, Warwick-94 eq. 5:
///   t(l, d) = alpha + d (beta + tau (l + h))                        if l <= p
///   t(l, d) = alpha + d (beta + tau p) + (l/p - 1)(alpha2 + beta + tau p)   if l > p
/// l message length (B), d distance (hops), h packet header (B), p packet
/// size (B), alpha message preparation (s), beta start-up (s), tau inverse
/// bandwidth (s/B), alpha2 packet preparation (s). l/p is real-valued, as in
/// the paper.
struct ParsytecModel {
  double Alpha = 0, Beta = 0, Tau = 0, H = 0, P = 1, Alpha2 = 0;
  /// Time of one message of L bytes over D hops, s.
  double time(double L, double D) const;
  /// Reads comm.parsytec.{alpha, beta, tau, h, p, alpha2}.
  static ParsytecModel fromMachine(const Machine &M);
};

/// LogGP (Alexandrov, Ionescu, Schauser, Scheiman 1995): latency L, send or
/// receive overhead o, gap between messages g, gap per byte G (all s, G in
/// s/B), P processes.
struct LogGPModel {
  double L = 0, O = 0, Gap = 0, G = 0;
  int P = 2;
  /// One message of N >= 1 bytes, sender start to receiver end: o + (N-1)G + L + o.
  double time(double N) const { return 2 * O + L + (N > 1 ? N - 1 : 0) * G; }
  /// K back-to-back messages of N bytes from one sender: the sender is busy
  /// max(o + (N-1)G, g) per message; the last arrives L + o later.
  double stream(double N, double K) const;
  /// Reads comm.loggp.{L, o, g, G, P}.
  static LogGPModel fromMachine(const Machine &M);
};

/// Agreement of a LogGP model with a Hockney model of the same network
/// (PARKBENCH-93 eq. 3.7 vs LogGP): for small messages t_0 (Hockney) and
/// L + 2o - G (LogGP) describe the same start-up; for long ones 1/r_inf and G
/// the same byte time; and the gap g cannot exceed the one-message time t_0
/// + G (else streaming would be slower than ping-pong). Values are relative
/// differences (LogGP - Hockney) / Hockney.
struct LogGPConsistency {
  double StartupDiff = 0;  ///< (L + 2o - G - t_0) / t_0, first Hockney range
  double ByteTimeDiff = 0; ///< (G - 1/r_inf) / (1/r_inf), last Hockney range
  bool GapOk = true;       ///< g <= t_0 + G
};
LogGPConsistency checkConsistency(const LogGPModel &L, const HockneyModel &H);

/// SYNCH1 barrier time as a function of the number of processes p
/// (PARKBENCH-93 §3.3.4): t(p) = T0 + T1 ceil(log2 p), s; t(1) = T0.
struct BarrierModel {
  double T0 = 0, T1 = 0;
  double time(int P) const;
  /// Barriers per second at p processes (SYNCH1's reported quantity).
  double rate(int P) const { return 1 / time(P); }
  /// Reads comm.synch1.{t0, t1}.
  static BarrierModel fromMachine(const Machine &M);
};

/// Point-to-point time of the machine's preferred model: Hockney when the
/// machine file has comm.hockney, else LogGP, else Parsytec at distance 1.
/// Throws std::runtime_error (naming `segtime comm calibrate`) if none.
struct PointToPoint {
  std::optional<HockneyModel> Hockney;
  std::optional<LogGPModel> LogGP;
  std::optional<ParsytecModel> Parsytec;
  std::string Name; ///< "hockney", "loggp", "parsytec"
  double time(double Bytes) const;
  static PointToPoint fromMachine(const Machine &M);
};

} // namespace segtime

#endif
