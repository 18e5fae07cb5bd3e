//===- Collectives.cpp - Time of MPI operations for p processes -----------===//
#include "predictor/Collectives.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

using namespace GiNaC;

namespace segtime {

namespace {
/// ceil(log2 P) for P >= 1.
int ceilLog2(int P) {
  int L = 0;
  while ((1L << L) < P)
    ++L;
  return L;
}
/// floor(log2 P) for P >= 1.
int floorLog2(int P) {
  int L = 0;
  while ((2L << L) <= P)
    ++L;
  return L;
}

struct PatternInfo {
  const char *Name;
  const char *Algorithm;
};
const PatternInfo Patterns[] = {
    {"p2p", "one message: t(n)"},
    {"exchange", "one message each way at once (full duplex): t(n)"},
    {"post", "0 (charged at the matching receive)"},
    {"wait", "0"},
    {"bcast", "binomial tree: ceil(log2 p) t(n) (TRG-05 §4.1)"},
    {"reduce", "binomial tree: ceil(log2 p) t(n), arithmetic left out (TRG-05 §4.5)"},
    {"allreduce", "recursive doubling up to 2048 B, Rabenseifner above (TRG-05 §4.4)"},
    {"scatter", "binomial tree: sum_k t(n min(2^(L-k), p - 2^(L-k))) (TRG-05 §4.6)"},
    {"gather", "binomial tree: sum_k t(n min(2^(L-k), p - 2^(L-k))) (TRG-05 §4.6)"},
    {"allgather", "recursive doubling: sum_k t(n min(2^k, p - 2^k)) (TRG-05 §4.2)"},
    {"alltoall", "pairwise exchange: (p - 1) t(n) (TRG-05 §4.7)"},
    {"barrier", "SYNCH1: t_b0 + t_b1 ceil(log2 p) (PARKBENCH-93 §3.3.4)"},
};

const CollectiveModel *Active = nullptr;

bool num(const ex &E) { return is_a<numeric>(E) && ex_to<numeric>(E).is_real(); }
double dbl(const ex &E) { return ex_to<numeric>(E).to_double(); }

/// Evaluates pattern Name once bytes and p are numbers and a model is active.
ex evalComm(const char *Name, const ex &Bytes, const ex &P, const ex &Held) {
  if (!Active || !num(Bytes) || !num(P))
    return Held;
  double Pv = dbl(P);
  if (Pv < 1 || Pv != std::floor(Pv))
    throw std::invalid_argument(std::string("t_") + Name + ": p = " + std::to_string(Pv) +
                                " is not a positive whole number of processes");
  return numeric(Active->time(Name, dbl(Bytes), static_cast<int>(Pv)));
}

ex p2pEval(const ex &N, const ex &P) { return evalComm("p2p", N, P, t_p2p(N, P).hold()); }
ex barrierEval(const ex &P) { return evalComm("barrier", 0, P, t_barrier(P).hold()); }
#define SEGTIME_COLL_EVAL(NAME)                                                              \
  ex NAME##Eval(const ex &N, const ex &P) { return evalComm(#NAME, N, P, t_##NAME(N, P).hold()); }
SEGTIME_COLL_EVAL(bcast)
SEGTIME_COLL_EVAL(reduce)
SEGTIME_COLL_EVAL(allreduce)
SEGTIME_COLL_EVAL(scatter)
SEGTIME_COLL_EVAL(gather)
SEGTIME_COLL_EVAL(allgather)
SEGTIME_COLL_EVAL(alltoall)
#undef SEGTIME_COLL_EVAL
} // namespace

REGISTER_FUNCTION(t_p2p, eval_func(p2pEval))
REGISTER_FUNCTION(t_bcast, eval_func(bcastEval))
REGISTER_FUNCTION(t_reduce, eval_func(reduceEval))
REGISTER_FUNCTION(t_allreduce, eval_func(allreduceEval))
REGISTER_FUNCTION(t_scatter, eval_func(scatterEval))
REGISTER_FUNCTION(t_gather, eval_func(gatherEval))
REGISTER_FUNCTION(t_allgather, eval_func(allgatherEval))
REGISTER_FUNCTION(t_alltoall, eval_func(alltoallEval))
REGISTER_FUNCTION(t_barrier, eval_func(barrierEval))

double CollectiveModel::time(const std::string &Pattern, double N, int P) const {
  if (!P2P)
    throw std::logic_error("CollectiveModel without a point-to-point model");
  if (N < 0)
    throw std::invalid_argument(Pattern + ": negative message size " + std::to_string(N) + " B");
  if (P < 1)
    throw std::invalid_argument(Pattern + ": p = " + std::to_string(P) + " < 1");
  const int L = ceilLog2(P);
  if (Pattern == "p2p" || Pattern == "exchange")
    return P2P(N);
  if (Pattern == "post" || Pattern == "wait")
    return 0;
  if (Pattern == "bcast" || Pattern == "reduce")
    return L * P2P(N);
  if (Pattern == "allreduce") {
    const int Lp = floorLog2(P);       // log2 p'
    const double Extra = (1L << Lp) == P ? 0 : 2 * P2P(N); // fold-in and fold-out steps
    if (N <= AllreduceSwitch)
      return Lp * P2P(N) + Extra;
    double T = 0;
    for (int K = 1; K <= Lp; ++K)
      T += 2 * P2P(N / double(1L << K));
    return T + Extra;
  }
  if (Pattern == "scatter" || Pattern == "gather") {
    double T = 0;
    for (int K = 1; K <= L; ++K) {
      long Sub = 1L << (L - K);
      T += P2P(N * double(std::min<long>(Sub, P - Sub)));
    }
    return T;
  }
  if (Pattern == "allgather") {
    double T = 0;
    for (int K = 0; K < L; ++K)
      T += P2P(N * double(std::min<long>(1L << K, P - (1L << K))));
    return T;
  }
  if (Pattern == "alltoall")
    return (P - 1) * P2P(N);
  if (Pattern == "barrier")
    return Barrier ? Barrier->time(P) : L * P2P(0);
  throw std::invalid_argument("unknown communication pattern '" + Pattern + "'");
}

std::string CollectiveModel::algorithm(const std::string &Pattern) {
  for (const PatternInfo &I : Patterns)
    if (Pattern == I.Name)
      return I.Algorithm;
  throw std::invalid_argument("unknown communication pattern '" + Pattern + "'");
}

const std::vector<std::string> &CollectiveModel::patterns() {
  static const std::vector<std::string> Names = [] {
    std::vector<std::string> V;
    for (const PatternInfo &I : Patterns)
      V.push_back(I.Name);
    return V;
  }();
  return Names;
}

std::string CollectiveModel::describe() const {
  return "point-to-point: " + P2PName + "; barrier: " +
         (Barrier ? std::string("synch1") : std::string("dissemination estimate ceil(log2 p) t(0)")) +
         "; collectives: TRG-05 (docs/mpi.md)";
}

CollectiveModel CollectiveModel::fromMachine(const Machine &M) {
  PointToPoint PP = PointToPoint::fromMachine(M);
  CollectiveModel C;
  C.P2PName = PP.Name;
  if (PP.Hockney && PP.Hockney->Segments.size() > 1)
    C.P2PName += " (" + std::to_string(PP.Hockney->Segments.size()) + " ranges)";
  C.P2P = [PP](double N) { return PP.time(N); };
  if (M.param("comm.synch1.t0"))
    C.Barrier = BarrierModel::fromMachine(M);
  return C;
}

ex commTerm(const std::string &Pattern, const ex &Bytes, const ex &P) {
  if (Pattern == "p2p" || Pattern == "exchange")
    return t_p2p(Bytes, P);
  if (Pattern == "post" || Pattern == "wait")
    return 0;
  if (Pattern == "bcast") return t_bcast(Bytes, P);
  if (Pattern == "reduce") return t_reduce(Bytes, P);
  if (Pattern == "allreduce") return t_allreduce(Bytes, P);
  if (Pattern == "scatter") return t_scatter(Bytes, P);
  if (Pattern == "gather") return t_gather(Bytes, P);
  if (Pattern == "allgather") return t_allgather(Bytes, P);
  if (Pattern == "alltoall") return t_alltoall(Bytes, P);
  if (Pattern == "barrier") return t_barrier(P);
  throw std::invalid_argument("unknown communication pattern '" + Pattern + "'");
}

CommModelScope::CommModelScope(const CollectiveModel &Model) : Saved(Active) {
  Active = &Model;
}
CommModelScope::~CommModelScope() { Active = Saved; }

} // namespace segtime
