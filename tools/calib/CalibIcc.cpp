//===- CalibIcc.cpp - segtime calibrate: ICC clock and misprediction ------===//
///
/// \file
/// The ICC level's machine numbers (CalibRun.h): the core clock, the
/// branch-misprediction penalty and the latencies of the instruction classes
/// of loop-carried chains, each a small C program (kernels/CoreClock.c,
/// kernels/Mispredict.c, kernels/Latency.c) compiled at -O2 and run.
///
//===----------------------------------------------------------------------===//
#include "tools/calib/CalibRun.h"

#include "core/Seg.h"
#include "core/Vocabulary.h"
#include "predictor/CostFit.h"
#include "predictor/Expr.h"
#include "predictor/Formula.h"
#include "predictor/Install.h"
#include "predictor/Machine.h"
#include "predictor/Parkbench.h"
#include "predictor/ResourceModel.h"
#include "tools/calib/BenchSource.h"
#include "tools/calib/KernelSources.h"
#include "tools/calib/LowLevel.h"
#include "tools/calib/Process.h"
#include "tools/calib/TrainingSource.h"

#include <Eigen/Dense>

#include <algorithm>
#include <functional>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <sys/utsname.h>
#include <thread>
#include <type_traits>
#include <unistd.h>


namespace segtime::calib {

std::vector<double> runSampleProgram(const fs::path &Dir, const std::string &Name,
                                     const char *Source, const std::vector<std::string> &Args,
                                     const std::string &OptFlag) {
  fs::path Src = Dir / (Name + ".c"), Bin = Dir / Name;
  if (!fs::exists(Bin)) {
    std::ofstream(Src) << Source;
    RunResult C = runProgram({SEGTIME_CLANG, OptFlag, Src.string(), "-o", Bin.string()}, Dir,
                             "compile_" + Name, 120);
    if (!C.ok())
      throw CalibError("compiling the " + Name + " benchmark failed (" + C.status() + "):\n" +
                       tail(C.Err));
  }
  std::vector<std::string> Argv{Bin.string()};
  Argv.insert(Argv.end(), Args.begin(), Args.end());
  RunResult R = runProgram(Argv, Dir, "run_" + Name, 120);
  if (!R.ok())
    throw CalibError("the " + Name + " benchmark failed (" + R.status() + "):\n" + tail(R.Err));
  std::istringstream In(R.Out);
  std::vector<double> Samples;
  for (double V; In >> V;)
    Samples.push_back(V);
  if (Samples.empty())
    throw CalibError("the " + Name + " benchmark printed nothing");
  return Samples;
}

/// Measures the core clock with a chain of dependent integer additions (one
/// cycle of latency each on every out-of-order x86 core; a compiler barrier
/// keeps each add). The clock is measured, not read from /proc: turbo and
/// virtualisation make the nominal frequency wrong (design.md §7). Adds Reps
/// samples to CR and updates its value and spread; calibrate calls it at the
/// start, middle and end of a run, so that the fastest sample comes from
/// whichever phase of a shared VM was least disturbed (one batch of 0.5 s
/// can fall wholly in a slow phase: 1.7 vs 2.4 GHz in two runs).
void measureClock(const fs::path &Dir, const Options &O, int Reps, ClockResult &CR) {
  long N = O.Quick ? 1000000 : 8000000; // 16 adds each: ~40 ms at 3 GHz
  std::vector<double> G =
      runSampleProgram(Dir, "clock", kernel::coreClock(), {std::to_string(Reps), std::to_string(N)});
  CR.GHz.insert(CR.GHz.end(), G.begin(), G.end());
  ++CR.Batches;
  // the fastest sample is the undisturbed one
  CR.Value = O.Stat == "min" ? *std::max_element(CR.GHz.begin(), CR.GHz.end()) : median(CR.GHz);
  CR.Spread = relSpread(CR.GHz);
}

static void measureSearchReplay(const fs::path &Dir, const Options &O, MispredictResult &M);

/// Measures the branch-misprediction penalty: one loop with one
/// data-dependent branch per byte (taken if the byte is < 128; inline asm in
/// the taken arm keeps it a conditional jump, neither a cmov nor a vector
/// loop) over the same 1 MiB of random bytes, once in random order (taken
/// with P = 1/2: min(P, 1 - P) = 1/2 mispredictions per byte, the model's
/// count) and once sorted (one misprediction per pass). Per repetition the
/// fastest of 3 passes of each; penalty = (t_random - t_sorted) / (n / 2).
/// 1 MiB (in L2 on current x86 cores) is too long a pattern for the
/// predictor's history to learn across passes. The value is the median
/// over Reps repetitions (spread (max - min) / median); about 0.1 s.
void measureMispredict(const fs::path &Dir, const Options &O, ClockResult &CR) {
  MispredictResult M;
  M.Elements = O.Quick ? 262144 : 1048576;
  M.Ns = runSampleProgram(Dir, "mispredict", kernel::mispredict(),
                          {std::to_string(O.Reps), std::to_string(M.Elements)});
  M.Value = median(M.Ns);
  M.Spread = relSpread(M.Ns);
  if (M.Value <= 0)
    throw CalibError("the misprediction benchmark measured no penalty (median " +
                     num(M.Value, 3) + " ns): random data ran as fast as sorted");
  // The same bytes' prefixes of m = 2^10 .. n replayed: how long a sequence
  // of outcomes the predictor learns (docs/calibrate.md "ICC: replayed
  // branches"). The half point H: where the extra time per branch crosses
  // half of the longest prefix's. Then the replayed binary searches' own
  // half point (measureSearchReplay).
  std::vector<double> R = runSampleProgram(
      Dir, "mispredict", kernel::mispredict(),
      {std::to_string(O.Reps), std::to_string(M.Elements), "replay"});
  for (size_t I = 0; I + 1 < R.size(); I += 2)
    M.Replay.push_back({long(R[I]), R[I + 1]});
  if (M.Replay.size() >= 2 && M.Replay.back().second > 0) {
    // the unlearned share: the extra over the longest prefix's
    std::vector<std::pair<double, double>> Share;
    for (const auto &[Len, Extra] : M.Replay)
      Share.push_back({double(Len), Extra / M.Replay.back().second});
    M.ReplayHalf = replayHalfPoint(Share);
  }
  measureSearchReplay(Dir, O, M);
  CR.Mispredict = M;
}

/// Replayed binary searches (kernels/Mispredict.c "search"; docs/calibrate.md
/// "ICC replayed branches"): per repetition, for outcomes per pass of
/// 2^11 .. 2^17 (half octaves), K random keys searched in a sorted table of
/// 4096 ints (L1) replayed each pass and, the reference, fresh keys each
/// pass; ns per search step of each (>= 2^22 steps per timing, 2^20 with
/// --quick, fastest of 3). The unlearned share of a point is
/// (replayed - learned) / (fresh - learned), learned the replayed ns at the
/// fewest outcomes, fresh the median over the points of the fresh keys'
/// (the same at every K: nothing to learn); the half point
/// (replayHalfPoint) per repetition, the value their median. 3
/// repetitions (2 with --quick), about 1 s each.
static void measureSearchReplay(const fs::path &Dir, const Options &O, MispredictResult &M) {
  const int Reps = O.Quick ? 2 : 3;
  std::vector<double> R = runSampleProgram(
      Dir, "mispredict", kernel::mispredict(),
      {std::to_string(Reps), std::to_string(O.Quick ? 1L << 20 : 1L << 22), "search"});
  constexpr size_t Points = 13;
  if (R.size() != 3 * Points * Reps)
    throw CalibError("the replayed-search benchmark printed " + std::to_string(R.size()) +
                     " numbers, not " + std::to_string(3 * Points * Reps));
  std::vector<double> Learned, Fresh;
  for (int Rep = 0; Rep < Reps; ++Rep) {
    const double *P = &R[3 * Points * Rep];
    std::vector<double> F;
    for (size_t I = 0; I < Points; ++I)
      F.push_back(P[3 * I + 2]);
    double L = P[1], U = median(F);
    Learned.push_back(L);
    Fresh.push_back(U);
    if (U <= L)
      continue; // nothing learned at the fewest outcomes
    std::vector<std::pair<double, double>> Share;
    for (size_t I = 0; I < Points; ++I)
      Share.push_back({P[3 * I], (P[3 * I + 1] - L) / (U - L)});
    if (double H = replayHalfPoint(Share); H > 0)
      M.SearchHalves.push_back(H);
  }
  for (size_t I = 0; I < Points; ++I) {
    std::vector<double> Rep, Fr;
    for (int K = 0; K < Reps; ++K) {
      Rep.push_back(R[3 * (Points * K + I) + 1]);
      Fr.push_back(R[3 * (Points * K + I) + 2]);
    }
    M.Search.push_back({long(R[3 * I]), median(Rep), median(Fr)});
  }
  M.SearchLearned = median(Learned);
  M.SearchFresh = median(Fresh);
  if (!M.SearchHalves.empty()) {
    M.SearchHalf = median(M.SearchHalves);
    M.SearchSpread = relSpread(M.SearchHalves);
  }
}

/// A throughput timed in several columns of the latency benchmark's samples
/// S (Columns per repetition, the integer adds first), one per pattern
/// (Names, from column First): per pattern the ratio to the adds as for the
/// classes (with --stat min the fastest pass over the fastest adds, else the
/// median ratio), the value the slowest pattern's; per repetition the
/// slowest pattern's ratio (the spread). Detail lists each pattern's cycles.
/// nullopt when a column was not measured (-1: the CPU lacks AVX).
static std::optional<LatencyResult> slowestPattern(const std::vector<double> &S, size_t Columns,
                                                   size_t First,
                                                   const std::vector<const char *> &Names,
                                                   const char *Class, const Options &O,
                                                   std::string &Detail) {
  LatencyResult R;
  R.Class = Class;
  R.Throughput = true;
  std::ostringstream D;
  double AddMin = 1e300;
  for (size_t K = 0; K < S.size(); K += Columns)
    if (S[K] > 0)
      AddMin = std::min(AddMin, S[K]);
  for (size_t P = 0; P < Names.size(); ++P) {
    std::vector<double> Ratio, Ns;
    for (size_t K = 0; K + Columns <= S.size(); K += Columns)
      if (S[K + First + P] > 0 && S[K] > 0) {
        Ratio.push_back(S[K + First + P] / S[K]);
        Ns.push_back(S[K + First + P]);
      }
    if (Ratio.empty())
      return std::nullopt;
    double V = O.Stat == "min" ? *std::min_element(Ns.begin(), Ns.end()) / AddMin : median(Ratio);
    R.Value = std::max(R.Value, V);
    if (R.Cycles.size() < Ratio.size())
      R.Cycles.resize(Ratio.size(), 0);
    for (size_t I = 0; I < Ratio.size(); ++I)
      R.Cycles[I] = std::max(R.Cycles[I], Ratio[I]);
    D << (P ? ", " : "") << Names[P] << " " << num(V, 3);
  }
  R.Spread = relSpread(R.Cycles);
  Detail = D.str();
  return R;
}

/// The masked stores' reciprocal throughput (slowestPattern of the columns
/// from First: vmaskmovps ymm to L1 with every lane, every other lane and
/// no lane set, kernels/Latency.c).
static std::optional<LatencyResult> maskedStores(const std::vector<double> &S, size_t Columns,
                                                 size_t First, const Options &O) {
  std::string Detail;
  std::optional<LatencyResult> R =
      slowestPattern(S, Columns, First, {"all lanes", "every other lane", "no lane"},
                     "store.masked", O, Detail);
  if (R)
    R->Detail = "vmaskmovps ymm to 16 slots of a 512 B buffer (L1), the slowest of three "
                "masks (" + Detail + " cycles)";
  return R;
}

/// The reciprocal throughput of vector loads that cross a 64 B line
/// (docs/models.md "ICC" 4f): slowestPattern of the columns from First
/// (vmovups ymm at byte 36 of a line, xmm at byte 56, kernels/Latency.c);
/// the next column, ymm at a line's start, is the aligned reference, given
/// in the detail.
static std::optional<LatencyResult> splitLoads(const std::vector<double> &S, size_t Columns,
                                               size_t First, const Options &O) {
  std::string Detail, Aligned;
  std::optional<LatencyResult> R =
      slowestPattern(S, Columns, First, {"ymm", "xmm"}, "load.split", O, Detail);
  std::optional<LatencyResult> A =
      slowestPattern(S, Columns, First + 2, {"ymm"}, "load.split", O, Aligned);
  if (R)
    R->Detail = "vmovups from 16 lines of a 1088 B buffer (L1), each load across two lines, "
                "the slower of two widths (" + Detail + " cycles; the same ymm loads at " +
                "the lines' start " + (A ? num(A->Value, 3) : std::string("not measured")) +
                " cycles)";
  return R;
}

/// Measures the latency of each class of loop-carried chains (IccChains.h in
/// the plugin): per class a chain of 16 dependent operations per iteration
/// (kernels/Latency.c), timed against a chain of dependent integer adds of the
/// same length in the same process, so that each sample is in core cycles
/// whatever the clock's phase (the method of Agner Fog's instruction tables
/// and of uops.info: latency = time of a dependent chain / its length). The
/// same program then times 16 independent operations per iteration of each
/// port class (the chains' classes without "load", and "fp.cvt"): their
/// reciprocal throughput, cycles per operation (uops.info's throughput
/// method), for the port-bound blocks of docs/models.md "ICC" 4c. The
/// value is the median of Reps ratios (with --stat min the fastest pass of the
/// class over the fastest of the adds; spread of the ratios
/// (max - min) / median); a
/// class the CPU lacks (FMA) prints -1 and is left out. The masked vector
/// stores ("store.masked", maskedStores) and the vector loads across a
/// cache line ("load.split", splitLoads) are timed the same way. About 1 s.
void measureLatencies(const fs::path &Dir, const Options &O, ClockResult &CR) {
  static const char *const Classes[] = {"fp.add", "fp.mul", "fp.fma", "fp.div", "int.mul",
                                        "load", "fp.add", "fp.mul", "fp.fma", "fp.div",
                                        "int.mul", "fp.cvt"};
  constexpr size_t Chains = 6; // the first six columns after the adds: latencies
  // The integer-add chain first, then the classes, the masked stores' three
  // mask patterns, the split loads' three columns, the two window loops last.
  constexpr size_t Masks = 3, Splits = 3, Columns = std::size(Classes) + Masks + Splits + 3;
  long N = O.Quick ? 250000 : 2000000;
  std::vector<double> S = runSampleProgram(Dir, "latency", kernel::latency(),
                                           {std::to_string(O.Reps), std::to_string(N)});
  if (S.empty() || S.size() % Columns)
    throw CalibError("the latency benchmark printed " + std::to_string(S.size()) +
                     " numbers, not " + std::to_string(Columns) + " per repetition");
  std::vector<double> Add;
  for (size_t K = 0; K < S.size(); K += Columns)
    Add.push_back(S[K]);
  double AddMin = *std::min_element(Add.begin(), Add.end());
  std::vector<LatencyResult> L;
  for (size_t C = 1; C <= std::size(Classes); ++C) {
    LatencyResult R;
    R.Class = Classes[C - 1];
    R.Throughput = C > Chains;
    std::vector<double> Ns;
    for (size_t K = C; K < S.size(); K += Columns)
      if (S[K] > 0 && S[K - C] > 0) {
        R.Cycles.push_back(S[K] / S[K - C]); // this repetition's ratio
        Ns.push_back(S[K]);
      }
    if (R.Cycles.empty())
      continue;
    // Contention (another process on the core, preemption) only lengthens a
    // pass: with --stat min, the fastest pass of the class over the fastest
    // of the adds; else the median of the repetitions' ratios.
    R.Value = O.Stat == "min" ? *std::min_element(Ns.begin(), Ns.end()) / AddMin
                              : median(R.Cycles);
    R.Spread = relSpread(R.Cycles);
    L.push_back(std::move(R));
  }
  if (std::optional<LatencyResult> M = maskedStores(S, Columns, std::size(Classes) + 1, O))
    L.push_back(std::move(*M));
  if (std::optional<LatencyResult> M = splitLoads(S, Columns, std::size(Classes) + Masks + 1, O))
    L.push_back(std::move(*M));
  // The window: per repetition, the restarted chain of 32 FMAs (C = 32 x
  // the FMA latency, cycles) over the time per iteration T of the loop with
  // 192 leas (U = 226 reorder-buffer micro-ops: the chain, 192 leas, the
  // restarting move, the fused decrement-and-branch) is the iterations in
  // flight K; W = K x U (Little's law; the model's window, ICCModel::window).
  constexpr size_t Fma = 3, Win = Columns - 1;
  constexpr double WinUops = 226, ChainOps = 32;
  // With --stat min, the fastest chain pass over the fastest window pass
  // (as the latencies); else the median of the repetitions' values.
  std::vector<double> W, Lats, Ts;
  for (size_t K = 0; K + Columns <= S.size(); K += Columns) {
    double Lat = S[K + Fma], T = S[K + Win] * 16;
    if (Lat > 0 && T > 0) {
      W.push_back(ChainOps * Lat / T * WinUops);
      Lats.push_back(Lat);
      Ts.push_back(T);
    }
  }
  if (!W.empty()) {
    CR.Window = W;
    CR.WindowValue = O.Stat == "min" ? ChainOps * *std::min_element(Lats.begin(), Lats.end()) /
                                           *std::min_element(Ts.begin(), Ts.end()) * WinUops
                                     : median(W);
  }
  CR.Latencies = std::move(L);
  CR.LatencyOps = 16 * N;
}

} // namespace segtime::calib
