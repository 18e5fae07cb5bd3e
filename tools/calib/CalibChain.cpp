//===- CalibChain.cpp - segtime calibrate: loop-carried chains at -O0 -----===//
///
/// \file
/// The latencies of the HLLC level's loop-carried chain term at -O0
/// (HLLCModel::chainLatency, docs/models.md "HLLC at -O0"): one small C
/// program (kernels/Chain.c) compiled at -O0 times six loops whose iteration
/// is a chain through a stack variable, and the six entries are solved from
/// them; short inner loops whose chain restarts in each execution, beside
/// the same loops without the chain, give the window of restarted chains
/// (chain.window; docs/calibrate.md "Loop-carried chains").
///
//===----------------------------------------------------------------------===//
#include "tools/calib/CalibRun.h"

#include "predictor/ResourceModel.h"
#include "predictor/Stats.h"
#include "tools/calib/KernelSources.h"
#include "tools/calib/Process.h"

#include <algorithm>
#include <functional>
#include <map>

namespace segtime::calib {

namespace {

/// The columns of kernels/Chain.c's output: the six chains, then per
/// m = 4, 8, 16, 32 the restarted chain and the same loop without it.
enum Col { Int1, Int2, Fadd1, Fadd2, Fmul1, Load1, Restart0, NCols = Restart0 + 8 };
constexpr int kRestartTrips[4] = {4, 8, 16, 32};

/// The window of restarted chains (ns) from one row T of per-iteration
/// times (docs/calibrate.md "Loop-carried chains"): per m, the chain of one
/// execution lasts m x fadd1, the execution's own work m x rfree_m; the
/// model t = max(work, chain x min(1, work / T_w)) gives T_w = fadd1 x m x
/// rfree_m / rchain_m where the chain is partly hidden, a lower bound of T_w
/// where it is wholly hidden or not at all: the largest over m.
double windowNs(const double *T) {
  double W = 0;
  for (int I = 0; I < 4; ++I) {
    double Chain = T[Restart0 + 2 * I], Free = T[Restart0 + 2 * I + 1];
    if (Chain > 0)
      W = std::max(W, T[Fadd1] * kRestartTrips[I] * Free / Chain);
  }
  return W;
}

/// One entry of HLLCModel::chainEntries() (or chain.window) from the per-iteration times
/// T (ns), and its formula as text.
struct EntryRule {
  const char *Name;
  const char *Formula;
  std::function<double(const double *)> Solve;
};

const std::vector<EntryRule> &rules() {
  // int1 = F_int + a, int2 = F_int + 2a; fadd1 = F_fp + f, fadd2 = F_fp + 2f;
  // fmul1 = F_fp + m; load1 = F_int + l (F: the forwarding round trip of the
  // variable: reload + store; a, f, m, l: one integer op, fp add, fp mul,
  // load on the chain).
  static const std::vector<EntryRule> R{
      {"chain.int.op", "int2 - int1", [](const double *T) { return T[Int2] - T[Int1]; }},
      {"chain.int.forward", "2 int1 - int2",
       [](const double *T) { return 2 * T[Int1] - T[Int2]; }},
      {"chain.fp.add", "fadd2 - fadd1", [](const double *T) { return T[Fadd2] - T[Fadd1]; }},
      {"chain.fp.forward", "2 fadd1 - fadd2",
       [](const double *T) { return 2 * T[Fadd1] - T[Fadd2]; }},
      {"chain.fp.mul", "fmul1 - (2 fadd1 - fadd2)",
       [](const double *T) { return T[Fmul1] - 2 * T[Fadd1] + T[Fadd2]; }},
      {"chain.mem.read", "load1 - (2 int1 - int2)",
       [](const double *T) { return T[Load1] - 2 * T[Int1] + T[Int2]; }},
      {"chain.window", "max over m = 4, 8, 16, 32 of fadd1 x m x rfree_m / rchain_m", windowNs},
  };
  return R;
}

} // namespace

/// Runs kernels/Chain.c (-O0): per repetition one row of the fourteen loops' ns
/// per iteration (each the fastest of 3 passes); each column's statistic
/// (--stat: minimum or median) gives the entries by rules(); an entry that
/// comes out below 0 (noise: two chains within a cycle) is written as 0.
void measureChains(const fs::path &Dir, const Options &O, HllcResult &H) {
  ChainResult C;
  C.Iterations = O.Quick ? 1000000 : 4000000; // ~2 ns each: ~8 ms per pass
  std::vector<double> V = runSampleProgram(Dir, "chain", kernel::chain(),
                                           {std::to_string(O.Reps), std::to_string(C.Iterations)},
                                           "-O0");
  if (V.size() % NCols != 0 || V.empty())
    throw CalibError("the chain benchmark printed " + std::to_string(V.size()) +
                     " numbers, expected rows of " + std::to_string(NCols));
  for (size_t I = 0; I < V.size(); I += NCols)
    C.Ns.emplace_back(V.begin() + I, V.begin() + I + NCols);
  double Stat[NCols];
  for (int K = 0; K < NCols; ++K) {
    std::vector<double> Col;
    for (const auto &Row : C.Ns)
      Col.push_back(Row[K]);
    Stat[K] = O.Stat == "min" ? *std::min_element(Col.begin(), Col.end()) : median(Col);
  }
  static const char *Names[NCols] = {"int1",    "int2",   "fadd1",    "fadd2",   "fmul1",
                                     "load1",   "rchain4", "rfree4",   "rchain8", "rfree8",
                                     "rchain16", "rfree16", "rchain32", "rfree32"};
  std::string Times;
  for (int K = 0; K < NCols; ++K)
    Times += std::string(K ? ", " : "") + Names[K] + " " + num(Stat[K], 4);
  for (const EntryRule &R : rules()) {
    double X = R.Solve(Stat);
    std::vector<double> PerRep;
    for (const auto &Row : C.Ns)
      PerRep.push_back(R.Solve(Row.data()));
    std::string How = std::string(R.Formula) + " (ns per iteration at -O0: " + Times + ")";
    if (X < 0) {
      How += "; value " + num(X, 3) + " ns < 0 (noise): written as 0";
      X = 0;
    }
    C.Entry[R.Name] = X;
    C.Spread[R.Name] = X > 0 ? relSpread(PerRep) : std::nullopt;
    C.How[R.Name] = How;
  }
  for (const std::string &E : HLLCModel::chainEntries())
    if (!C.Entry.count(E))
      throw CalibError("the chain benchmark gives no value for " + E);
  H.Chain = std::move(C);
}

} // namespace segtime::calib
