//===- Collectives.h - Time of MPI operations for p processes ---*- C++ -*-===//
///
/// \file
/// The time of one MPI operation (a Comm node of the SEG, core/Seg.h) for p
/// processes, built from the machine's point-to-point model t(n) (the time of
/// one message of n bytes, predictor/CommModels.h: Hockney, LogGP or
/// Parsytec) and its SYNCH1 barrier model. The collectives are costed by the
/// algorithms of Thakur, Rabenseifner and Gropp, "Optimization of collective
/// communication operations in MPICH", IJHPCA 19(1), 2005 (TRG-05), with
/// their alpha + n beta terms replaced by t(n); L = ceil(log2 p):
///
/// | pattern   | MPI operations                      | algorithm, time |
/// |-----------|-------------------------------------|-----------------|
/// | p2p       | Send, Ssend, Rsend, Bsend, Recv, Irecv | one message: t(n) |
/// | exchange  | Sendrecv                            | one message each way at once (full duplex): t(n) |
/// | post      | Isend                               | 0 (the message is charged at the matching Irecv) |
/// | wait      | Wait, Waitall                       | 0 |
/// | bcast     | Bcast                               | binomial tree: L t(n) |
/// | reduce    | Reduce                              | binomial tree: L t(n) |
/// | allreduce | Allreduce                           | n <= 2048 B: recursive doubling, log2 p' t(n); else Rabenseifner (recursive-halving reduce-scatter + recursive-doubling allgather), 2 sum_{k=1}^{log2 p'} t(n/2^k); p' = 2^floor(log2 p), plus 2 t(n) when p != p' |
/// | scatter   | Scatter                             | binomial tree, the root's sends: sum_{k=1}^{L} t(n min(2^(L-k), p - 2^(L-k))) |
/// | gather    | Gather                              | binomial tree, as scatter |
/// | allgather | Allgather                           | recursive doubling: sum_{k=0}^{L-1} t(n min(2^k, p - 2^k)) |
/// | alltoall  | Alltoall                            | pairwise exchange: (p - 1) t(n) |
/// | barrier   | Barrier                             | SYNCH1 t_b0 + t_b1 L (PARKBENCH-93 §3.3.4); without SYNCH1 numbers, a dissemination estimate L t(0) |
///
/// n is the operation's Comm-node bytes: the message of a send or receive,
/// the buffer of Bcast/Reduce/Allreduce, one process's block of
/// Scatter/Gather/Allgather, one destination's block of Alltoall. The
/// reductions' arithmetic (gamma n per step in TRG-05) is left out: at the
/// sizes measured here a double add per 8 B is < 2% of the byte time of the
/// shared-memory transport, and it has no machine-file parameter. Every
/// process is charged the completion time of the whole collective (the
/// slowest process's view; a process leaving a binomial bcast early is not
/// modelled).
///
/// For the timing formulas (predictor/Formula.h) each pattern is a GiNaC
/// function of the bytes and p -- t_p2p(n, p), t_bcast(n, p), ...,
/// t_barrier(p) -- that evaluates to a number once its arguments are numbers
/// and a model is installed with CommModelScope. (t_p2p does not depend on p;
/// the symbol p keeps a term with constant bytes unevaluated until the
/// values are substituted, when a model is installed.)
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PREDICTOR_COLLECTIVES_H
#define SEGTIME_PREDICTOR_COLLECTIVES_H

#include "predictor/CommModels.h"
#include "predictor/Machine.h"

#include <functional>
#include <ginac/ginac.h>
#include <optional>
#include <string>
#include <vector>

namespace segtime {

DECLARE_FUNCTION_2P(t_p2p)
DECLARE_FUNCTION_2P(t_bcast)
DECLARE_FUNCTION_2P(t_reduce)
DECLARE_FUNCTION_2P(t_allreduce)
DECLARE_FUNCTION_2P(t_scatter)
DECLARE_FUNCTION_2P(t_gather)
DECLARE_FUNCTION_2P(t_allgather)
DECLARE_FUNCTION_2P(t_alltoall)
DECLARE_FUNCTION_1P(t_barrier)

/// Time of MPI operations for p processes from a point-to-point model and a
/// barrier model (TRG-05 algorithms, table above).
struct CollectiveModel {
  /// Time of one message of n bytes, s. Required.
  std::function<double(double Bytes)> P2P;
  /// SYNCH1 barrier model; absent: the dissemination estimate L t(0).
  std::optional<BarrierModel> Barrier;
  /// Describes P2P and Barrier for reports ("hockney (2 ranges)").
  std::string P2PName;
  /// Allreduce: recursive doubling up to this many bytes, Rabenseifner above
  /// (MPICH's MPIR_ALLREDUCE_SHORT_MSG, TRG-05 §4.4).
  double AllreduceSwitch = 2048;

  /// Time of one operation of pattern Pattern moving Bytes (B) among P >= 1
  /// processes, s. Throws std::invalid_argument for an unknown pattern, a
  /// negative byte count or P < 1.
  double time(const std::string &Pattern, double Bytes, int P) const;

  /// The algorithm a pattern is costed by, one line for reports and docs.
  /// Throws std::invalid_argument for an unknown pattern.
  static std::string algorithm(const std::string &Pattern);
  /// Every pattern a Comm node may have, in table order.
  static const std::vector<std::string> &patterns();
  /// One line naming the point-to-point and barrier models.
  std::string describe() const;

  /// The machine's preferred point-to-point model (PointToPoint::fromMachine)
  /// and, if present, its comm.synch1 barrier. Throws std::runtime_error
  /// (naming `segtime comm calibrate`) if the machine has no comm model.
  static CollectiveModel fromMachine(const Machine &M);
};

/// The formula term of one Comm node: t_<pattern>(Bytes, P) (0 for "post"
/// and "wait"). Throws std::invalid_argument for an unknown pattern.
GiNaC::ex commTerm(const std::string &Pattern, const GiNaC::ex &Bytes, const GiNaC::ex &P);

/// While alive, the t_* functions of formulas evaluate with Model once their
/// arguments are numbers (scopes nest; the innermost wins).
class CommModelScope {
public:
  explicit CommModelScope(const CollectiveModel &Model);
  ~CommModelScope();
  CommModelScope(const CommModelScope &) = delete;
  CommModelScope &operator=(const CommModelScope &) = delete;

private:
  const CollectiveModel *Saved;
};

} // namespace segtime

#endif
