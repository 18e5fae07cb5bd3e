//===- CalibChain.cpp - segtime calibrate: loop-carried chains at -O0 -----===//
///
/// \file
/// The latencies of the HLLC level's loop-carried chain term at -O0
/// (HLLCModel::chainLatency, docs/models.md "HLLC at -O0"): one small C
/// program (kernels/Chain.c) compiled at -O0 times six loops whose iteration
/// is a chain through a stack variable, and the six entries are solved from
/// them (docs/calibrate.md "Loop-carried chains").
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

/// The columns of kernels/Chain.c's output.
enum Col { Int1, Int2, Fadd1, Fadd2, Fmul1, Load1, NCols };

/// One entry of HLLCModel::chainEntries() from the six per-iteration times
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
  };
  return R;
}

} // namespace

/// Runs kernels/Chain.c (-O0): per repetition one row of the six loops' ns
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
  static const char *Names[NCols] = {"int1", "int2", "fadd1", "fadd2", "fmul1", "load1"};
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
