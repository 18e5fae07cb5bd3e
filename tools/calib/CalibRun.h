//===- CalibRun.h - One `segtime calibrate` run -----------------*- C++ -*-===//
///
/// \file
/// What one `segtime calibrate` run (tools/Calibrate.cpp) asks for and
/// measures, and the steps it is made of, one file each:
///   CalibOptions.cpp   the command line (Options)
///   CalibCosts.cpp     HLLC, INTCC and POC: benchmark program, least-squares
///                      costs, training-set fit, flop rate
///   CalibIcc.cpp       ICC: core clock and branch-misprediction penalty
///   MachineWriter.cpp  the machine file (YAML) written or updated
///   CalibReport.cpp    the text table and the JSON report
/// The low-level parts (PARKBENCH-93 §3.2, caches) are LowLevel.h.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_TOOLS_CALIB_CALIBRUN_H
#define SEGTIME_TOOLS_CALIB_CALIBRUN_H

#include "core/Seg.h"
#include "predictor/CostFit.h"
#include "predictor/Machine.h"
#include "predictor/Parkbench.h"
#include "predictor/levels/LevelUnit.h"
#include "tools/calib/BenchSource.h"
#include "tools/calib/LowLevel.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace segtime::calib {

namespace fs = std::filesystem;

/// The low-level parts (PARKBENCH-93 §3.2 and the memory curves), in the
/// order they run: the default and `--level all`.
const std::vector<std::string> LowLevelParts{"caches",  "tick",    "rinf1",  "poly",
                                             "strided", "overlap", "library"};

/// Command-line options (see calibrateUsage()).
struct Options {
  std::vector<Level> Levels{Level::HLLC, Level::POC, Level::IntCC, Level::ICC};
  /// Low-level parts (PARKBENCH-93 §3.2): tick, rinf1, poly.
  std::vector<std::string> Parts = LowLevelParts;
  std::string Plot; ///< --plot DIR
  std::vector<std::string> Compare; ///< --compare A B: two machine files
  double Tolerance = 0.10;          ///< --tolerance: agreement asked of --compare
  std::vector<std::string> Opts{"O0", "O2"};
  std::string Out, Name = "local", Keep;
  /// No --out: Out is NAME.yaml in the user's machine directory, which
  /// becomes this machine's default (Install.h, defaultMachine).
  bool OutIsUserDefault = false;
  /// Statistic of the samples. The minimum: on a shared or virtual machine
  /// noise only slows calls down (two runs agree within 0.5-7 % with it,
  /// 4-40 % with the median; docs/results.md).
  std::string Stat = "min";
  int Reps = 11;
  double TargetMs = 10;
  unsigned Unroll = 16;
  bool Quick = false, Json = false;
  /// Fit one multiplier per group of HLLC constructs / INTCC classes on the
  /// training kernels (--no-train: the construct-benchmark costs alone).
  bool Train = true;
  ProbeSeams Seams = ProbeSeams::fromEnvironment(); ///< --sysfs-root, --cpuid-table
  bool has(Level L) const {
    return std::find(Levels.begin(), Levels.end(), L) != Levels.end();
  }
  /// Whether a level asked for is measured by fit F (LevelUnit::calibFit).
  bool hasFit(CalibFit F) const {
    return std::any_of(Levels.begin(), Levels.end(),
                       [F](Level L) { return levelUnit(L).calibFit() == F; });
  }
  bool hasPart(const std::string &P) const {
    return std::find(Parts.begin(), Parts.end(), P) != Parts.end();
  }
};

/// Timings of one benchmark function.
struct Measured {
  BenchInfo Info;
  long R = 0;
  std::vector<double> Times; ///< s per call, one per repetition
  double Time = 0;           ///< s per call: median (or minimum, --stat min) of Times
  int Disturbed = 0;         ///< samples kept although other processes ran
  int Retries = 0;           ///< samples repeated because other processes ran
};

/// One row of the least-squares report.
struct Row {
  std::string Function, Construct;
  double Rel = 0; ///< (A c - t)_i / t_i with the written costs
};

/// The loop-carried chain latencies at -O0 (kernels/Chain.c; HLLCModel::
/// chainLatency, docs/calibrate.md "Loop-carried chains").
struct ChainResult {
  /// ns per iteration, one row per repetition: int1, int2, fadd1, fadd2,
  /// fmul1, load1, then rchain4, rfree4 .. rchain32, rfree32 (kernels/Chain.c)
  std::vector<std::vector<double>> Ns;
  long Iterations = 0; ///< per pass
  /// The entries HLLCModel::chainEntries() and chain.window, ns, derived from the statistic
  /// (--stat) of each column, and their spread ((max - min) / median of
  /// the entry derived from each repetition alone).
  std::map<std::string, double> Entry;
  std::map<std::string, std::optional<double>> Spread;
  std::map<std::string, std::string> How; ///< each entry's formula, with the numbers
};

/// The HLLC result for one optimisation level.
struct HllcResult {
  std::vector<std::string> Constructs;
  std::vector<double> CostNs;                ///< written value (>= 0), ns
  std::vector<double> LsNs;                  ///< least-squares value before fixing at 0
  std::vector<bool> Fixed;                   ///< negative in the solve: written as 0
  std::vector<std::optional<double>> Spread; ///< (max-min)/median over repetitions
  std::vector<std::string> Bench;            ///< the benchmark isolating each construct
  std::vector<Row> Rows;
  std::vector<Row> Checks; ///< POC kernels predicted with c^T f (not fitted)
  double Cond = 0;
  double RmsRel = 0;
  std::vector<std::string> Unfitted; ///< INTCC classes the benchmarks cannot determine
  /// Construct-benchmark cost c0 per construct, ns (the least-squares fit
  /// above); CostNs = s_g c0 after a training fit, else CostNs = BaseNs.
  std::vector<double> BaseNs;
  /// INTCC fallback "*" for operations the benchmarks do not repeat: the
  /// median of the fitted classes' c0 (StarBaseNs), times s_other (StarNs).
  std::optional<double> StarBaseNs, StarNs;
  /// The training-set fit (fitTraining), if run.
  struct Training {
    GroupFit Fit;
    std::vector<std::string> Kernels, What; ///< train_* functions and descriptions
    std::vector<double> Times;              ///< s per call
    std::vector<std::string> Group;         ///< group of each construct (Constructs order)
  };
  std::optional<Training> Train;
  /// HLLC at -O0: the loop-carried chain latencies (measureChains), if run.
  std::optional<ChainResult> Chain;
  /// Index of group G in Train->Fit.Groups.
  size_t groupIndex(const std::string &G) const {
    const auto &Gs = Train->Fit.Groups;
    return static_cast<size_t>(std::find(Gs.begin(), Gs.end(), G) - Gs.begin());
  }
};

/// The POC result for one optimisation level.
struct PocKernel {
  std::string Function;
  double Flop = 0, Time = 0; ///< flop and s per call
};
struct PocResult {
  double Mflops = 0; ///< R_fpu: total flop / total time, Mflop/s
  std::optional<double> Spread;
  std::vector<PocKernel> Kernels;
};

/// Everything measured and solved at one optimisation level (one variant).
struct OptResult {
  std::string Opt;
  int Samples = 0, Disturbed = 0, Retries = 0; ///< timed calls of the benchmark program
  std::vector<Measured> Timings;
  /// The levels asked for that CalibFit::Costs measures (HLLC per construct,
  /// INTCC per IR operation class: LevelUnit::fitColumns).
  LevelMap<HllcResult> Costs;
  std::optional<PocResult> Poc; ///< CalibFit::FlopRate
};


struct RunInfo {
  std::string Date, Cpu, Compiler, Command;
  unsigned Cores = 0;
  double ClockHz = 0;
  std::string Virtual; ///< "yes (CPUID ...)" or "no (...)"
  std::string Cpus;    ///< CPUs the process may use, and from what
  CpuIdentity Id;      ///< vendor, family, model, brand string (CPUID)
  std::vector<std::string> Skipped; ///< parts skipped, each with its reason
};

/// The branch-misprediction penalty, for the ICC level's misprediction term
/// (docs/models.md "branch mispredictions").
struct MispredictResult {
  std::vector<double> Ns; ///< one sample per repetition, ns per misprediction
  double Value = 0;       ///< median, ns
  std::optional<double> Spread;
  long Elements = 0;      ///< bytes per pass
  /// Replayed sequences: (bytes m per pass, extra ns per branch of the random
  /// order replayed over sorted) for m = 2^10 .. Elements; and the half
  /// point H (outcomes) where the extra crosses half of the largest m's, by
  /// log-linear interpolation (0: not found).
  std::vector<std::pair<long, double>> Replay;
  double ReplayHalf = 0;
  /// Replayed binary searches (kernels/Mispredict.c "search"): per point
  /// (outcomes = search steps of the K keys per pass, the medians over the
  /// repetitions of ns per step replayed and with fresh keys each pass),
  /// outcomes 2^11 .. 2^17; the half point per repetition, their median
  /// (0: not found) and spread.
  struct SearchPoint {
    long Outcomes = 0;
    double Replayed = 0, Fresh = 0;
  };
  std::vector<SearchPoint> Search;
  std::vector<double> SearchHalves;
  double SearchHalf = 0;
  std::optional<double> SearchSpread;
  double SearchLearned = 0, SearchFresh = 0; ///< ns per step: the medians of the levels
};

/// The latency of one instruction class of loop-carried chains, for the ICC
/// level's chain term (docs/models.md "ICC", loop-carried chains).
struct LatencyResult {
  std::string Class;          ///< "fp.add", "fp.mul", "fp.fma", "fp.div", "int.mul", "load"
                              ///< ("fp.cvt": throughput only)
  bool Throughput = false;    ///< reciprocal throughput (independent operations), not latency
  std::vector<double> Cycles; ///< one sample per repetition, core cycles per operation
  double Value = 0;           ///< median, cycles
  std::optional<double> Spread;
  std::string Detail;         ///< the kernel and its parts, where not the class's usual
                              ///< 16 operations (the machine file's ref)
};

/// The core clock, for the ICC level: the cost of one scheduling-model cycle.
struct ClockResult {
  std::vector<double> GHz; ///< one sample per repetition
  int Batches = 0;         ///< measureClock calls the samples came from
  double Value = 0;        ///< GHz, by the --stat statistic
  std::optional<double> Spread;
  std::optional<MispredictResult> Mispredict; ///< measureMispredict, if run
  std::vector<LatencyResult> Latencies;       ///< measureLatencies, if run (also the
                                              ///< reciprocal throughputs, Throughput set)
  long LatencyOps = 0;                        ///< dependent operations per kernel pass
  /// The reorder window, micro-ops (measureLatencies: restarted FMA chains,
  /// docs/calibrate.md "ICC: the reorder window"), one sample per repetition.
  std::vector<double> Window;
  double WindowValue = 0; ///< the median of Window, micro-ops (0: not measured)
};

/// YAML scalar of S, quoted where needed (predictor/Machine.h yamlQuote).
inline std::string yq(const std::string &S) { return yamlQuote(S); }
/// V with Digits significant digits (predictor/Machine.h yamlNumber).
inline std::string num(double V, int Digits = 4) { return yamlNumber(V, Digits); }

// --- CalibOptions.cpp

/// The text of `segtime calibrate --help`.
const char *calibrateUsage();
/// "minimum" or "median": the statistic of the samples (--stat).
std::string statName(const Options &O);
/// The options of Argv (the arguments after `calibrate`); Command is set to
/// the command line as typed. Exits with status 2 on a usage error.
Options parseArgs(int Argc, char **Argv, std::string &Command);

// --- CalibCosts.cpp

/// Compiles Src at -Opt with the plugin, runs it, returns the timings and
/// the SEG file path (SegOut). Throws CalibError with the compiler's or the
/// program's output.
std::vector<Measured> compileAndRun(const std::string &Opt, const fs::path &Dir,
                                    const fs::path &Src, const std::vector<BenchInfo> &Benches,
                                    const Options &O, fs::path &SegOut);
/// Least-squares cost vector of level L (CalibFit::Costs: HLLC, INTCC), ns
/// per key.
HllcResult solveCosts(const std::vector<Measured> &Ms, const SegFile &Seg, int Reps, Level L);
/// The training-set fit of level L's costs; sets H.Train and scales H.CostNs.
/// Throws CalibError if fewer than 2 training kernels were run.
void fitTraining(HllcResult &H, const std::vector<Measured> &Ms, const SegFile &Seg, Level L,
                 const std::string &Opt);
/// R_fpu = total flop / total time of the POC kernels (PARKBENCH-93 style).
PocResult solvePoc(const std::vector<Measured> &Ms, const SegFile &Seg, int Reps);

// --- CalibIcc.cpp

/// Compiles the C program Source as Dir/Name (once per run directory) with
/// OptFlag ("-O2"), runs it with Args and returns the numbers it prints, one
/// sample each (several per line are read in order). Throws CalibError.
std::vector<double> runSampleProgram(const fs::path &Dir, const std::string &Name,
                                     const char *Source, const std::vector<std::string> &Args,
                                     const std::string &OptFlag = "-O2");

/// Adds Reps core-clock samples (GHz) to CR and updates its value and spread.
void measureClock(const fs::path &Dir, const Options &O, int Reps, ClockResult &CR);
/// Measures the branch-misprediction penalty (ns) into CR.Mispredict.
void measureMispredict(const fs::path &Dir, const Options &O, ClockResult &CR);
/// Measures the latencies (cycles) of the classes of loop-carried chains into
/// CR.Latencies (kernels/Latency.c). Throws CalibError.
void measureLatencies(const fs::path &Dir, const Options &O, ClockResult &CR);

// --- CalibChain.cpp

/// Measures the loop-carried chain latencies at -O0 (kernels/Chain.c) into
/// H.Chain. Throws CalibError.
void measureChains(const fs::path &Dir, const Options &O, HllcResult &H);

// --- MachineWriter.cpp

/// Writes (or updates) the machine file Path (see MachineWriter.cpp).
void writeMachine(const std::string &Path, const Options &O, const RunInfo &I,
                  const std::vector<OptResult> &Res, const std::optional<ClockResult> &Clock,
                  const ParamList &Params, const std::vector<std::string> &OwnedKeys);
/// Reads the file back with readMachine and checks every value is there.
void verifyMachine(const std::string &Path, const Options &O, const std::vector<OptResult> &Res);

// --- CalibReport.cpp

/// The human-readable report of the levels measured.
void printTable(std::ostream &OS, const Options &O, const RunInfo &I,
                const std::vector<OptResult> &Res);
/// The JSON report of the levels measured (--json).
nlohmann::json toJson(const Options &O, const RunInfo &I, const std::vector<OptResult> &Res);

} // namespace segtime::calib

#endif
