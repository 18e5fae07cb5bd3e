//===- Calibrate.cpp - segtime calibrate: measure this machine's costs ----===//
///
/// \file
/// `segtime calibrate` measures this machine and writes (or updates) a
/// machine file (schema segtime.machine/1, like costvectors/t800.yaml): the
/// PARKBENCH-93 low-level parameters (parts tick, rinf1, poly: sections
/// `parkbench` and `memory`, run by tools/calib/LowLevel.h, fitted by
/// predictor/Parkbench.h; docs/calibrate.md) and the levels' cost vectors,
/// one variant per optimisation level:
///
///  - HLLC (Warwick-94 §3.3.3, §4.2.2, eq. 4 t = c^T f): a generated C file
///    holds one benchmark per HLLC construct, each repeating its construct in
///    a canonical loop, plus a baseline loop (Saavedra-Barrera's
///    loop-overhead isolation). It is compiled with the segtime plugin, so
///    the counts f_i(R) of every construct in every benchmark are exactly what
///    the plugin counts in user code; the times t_i are measured (median of
///    --reps calls of >= ~20 ms). The cost vector c (ns per construct) solves
///    the least-squares system A c = t (rows: benchmarks, columns:
///    constructs), rows weighted by 1/t_i so residuals are relative. Costs
///    that come out negative (noise) are fixed at 0 and the rest re-solved.
///  - training-set fit (HLLC and INTCC, unless --no-train): the construct
///    benchmarks repeat one operation in a dependent chain, so a construct
///    costs its latency, while real kernels overlap independent operations
///    (and -O2 vectorises and unrolls). The costs c0 above are kept and one
///    multiplier s_g >= 0 per group of keys (predictor/CostFit.h costGroups)
///    is fitted on the training kernels (tools/calib/TrainingSource.h, not the
///    validation kernels): t_j ~ sum_g s_g sum_{k in g} c0_k f_jk, weights
///    1/t_j; the costs written are s_g c0_k, with c0, s_g and the fit's
///    residuals in each ref; leave-one-out errors per kernel are reported.
///  - POC (Warwick-94 §3.3.2, eq. 6 t = flop / R_fpu): R_fpu (Mflop/s) is the
///    total McMahon flop (plugin count) over the total time of four in-cache
///    kernels, dot product, daxpy, Horner polynomial and a rational function
///    (PARKBENCH-93 RINF1 style).
///  - spread: the system (or the flop rate) is solved once per repetition k
///    with the k-th sample of every benchmark; spread = (max-min)/median of
///    those per-repetition values.
///  - noise: the benchmark program pins itself to one CPU and repeats (within
///    a budget) a call during which other processes ran on its CPU or kept the
///    other CPUs busy; disturbed calls kept are reported as a warning. Noise
///    only ever slows a call down, so `--stat min` (minimum instead of median
///    of the samples) is more reproducible on shared or virtual machines.
///
///  - update: an existing --out file keeps every level, variant and parameter
///    not re-measured (writeMachine); the result is checked with readMachine
///    before it replaces the file.
///
/// USAGE:
///   segtime calibrate [--level caches,tick,rinf1,poly,hllc,poc,intcc,icc] [--opt O0,O2]
///                     [--out FILE.yaml] [--reps K] [--name NAME] [--quick] [--json]
///                     [--plot DIR] [--time MS] [--unroll U] [--stat median|min]
///                     [--keep DIR] [--no-train] [--sysfs-root DIR] [--cpuid-table FILE]
///   segtime calibrate --out costvectors/local.yaml
///   segtime calibrate --level poly --out costvectors/local.yaml --plot plots/
///   segtime calibrate --compare run1.yaml run2.yaml [--tolerance 0.1] [--json]
///   segtime calibrate --quick --out /tmp/smoke.yaml --json
///
/// A part that cannot run (no cache sizes, one CPU, a failed benchmark) is
/// reported with its reason and skipped; the rest is measured and written
/// (identity.calibration_skipped lists the parts skipped).
///
/// Exit status: 0 ok, 2 usage error, nothing measured, or a machine file
/// that cannot be written.
///
//===----------------------------------------------------------------------===//
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
#include "tools/calib/Compare.h"
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

using namespace segtime;
namespace fs = std::filesystem;

namespace {

const char *Usage =
    "usage: segtime calibrate [options]\n"
    "\n"
    "Measures this machine and writes (or updates) a machine file: the PARKBENCH-93\n"
    "low-level parameters (TICK1, TICK2, RINF1, POLY1, POLY2, cache bandwidths) and\n"
    "the cost vectors of the characterisation levels (HLLC ns per construct,\n"
    "Warwick-94 eq. 4; POC Mflop/s, eq. 6; INTCC; ICC clock), every number with its\n"
    "provenance and spread. Progress goes to stderr; about 1 minute in all.\n"
    "\n"
    "  --level L      parts to measure, a comma list (default all):\n"
    "                   caches the cache hierarchy: sizes from sysfs, CPUID and\n"
    "                          sysconf side by side, and measured (latency of a\n"
    "                          random pointer chase and read bandwidth against\n"
    "                          working set; each level's effective size)\n"
    "                   tick   TICK1 timer resolution, TICK2 wall-clock check\n"
    "                   rinf1  (r_inf, n_1/2) of vector loops, eq. 3.1\n"
    "                   poly   POLY1/POLY2 (r_hat_inf, f_1/2), eq. 3.3, and the\n"
    "                          bandwidth of each cache level and of memory\n"
    "                   strided  line rate of a 4 KiB-stride walk (no prefetch)\n"
    "                          against footprint, one process and two sharing\n"
    "                          the L3 (memory.strided, memory.strided_shared2)\n"
    "                   overlap  how far memory transfers hide under a chain of\n"
    "                          dependent multiply-adds: exponent p of t = (t_core^p\n"
    "                          + t_mem^p)^(1/p) per footprint (memory.overlap)\n"
    "                   parkbench = tick,rinf1,poly\n"
    "                   hllc, poc  the HLLC constructs and the POC flop rate\n"
    "                   intcc  the same benchmarks counted on the optimised IR,\n"
    "                          one cost per opcode class (load.*, fadd.*, call.exp)\n"
    "                   icc    the core clock (a chain of dependent adds) and the\n"
    "                          branch-misprediction penalty (random vs sorted data)\n"
    "                   all    everything\n"
    "  --opt LIST     optimisation levels of hllc/poc/intcc, one variant each\n"
    "                 (default O0,O2)\n"
    "  --out FILE     machine file; an existing file is updated: only the parts\n"
    "                 measured are replaced. Default: NAME.yaml in the user's\n"
    "                 machine directory ($XDG_DATA_HOME/segtime/machines, by\n"
    "                 default ~/.local/share/segtime/machines), and default.yaml\n"
    "                 there is linked to it: this machine's default machine\n"
    "  --name NAME    machine name of a new file (default local)\n"
    "  --reps K       samples per benchmark (default 11; 3 with --quick)\n"
    "  --time MS      minimum time of one hllc/poc/intcc call, ms (default 10; 2\n"
    "                 with --quick); low-level samples last >= 1 ms\n"
    "  --unroll U     constructs per loop iteration in a benchmark (default 16)\n"
    "  --quick        short calls and 3 reps: a smoke test, not a calibration\n"
    "  --no-train     hllc/intcc: write the construct-benchmark costs c0 alone; by\n"
    "                 default one multiplier s_g >= 0 per group of constructs or IR\n"
    "                 classes (fp, div, math, int, mem/load/store, control/other) is\n"
    "                 fitted on the training kernels (reductions, stencils, sorting,\n"
    "                 hashing, math calls, ...) and the costs written are s_g c0_k;\n"
    "                 the table and --json show s_g, the residuals and the\n"
    "                 leave-one-out errors per kernel (docs/calibrate.md)\n"
    "  --json         print the results (fits with their residuals) as JSON\n"
    "  --plot DIR     gnuplot PNG + SVG of the RINF1 fits and of bandwidth\n"
    "                 against working set (with their .dat and .gp files)\n"
    "  --sysfs-root DIR  read the sysfs cache and cgroup files below DIR instead\n"
    "                 of / (a test seam; also SEGTIME_SYSFS_ROOT)\n"
    "  --cpuid-table FILE  answer CPUID from FILE (lines LEAF SUBLEAF EAX EBX\n"
    "                 ECX EDX) instead of the processor (a test seam; also\n"
    "                 SEGTIME_CPUID_TABLE); sysconf is then not consulted\n"
    "  --stat S       time per call from the samples: min (default; noise only\n"
    "                 slows calls down) or median\n"
    "  --keep DIR     keep the generated C files, binaries, SEG and timings in DIR\n"
    "  --compare A B  measure nothing: compare two machine files (e.g. two runs),\n"
    "                 per level and variant and per parameter group: median and\n"
    "                 largest relative difference |B - A| / |A| of the measured\n"
    "                 numbers (ns costs under 0.1 ns left out); exit status 1 if a\n"
    "                 group's median exceeds --tolerance (default 0.10)\n"
    "\n"
    "A part that cannot run on this machine (no cache sizes, one CPU, a failed\n"
    "benchmark) is reported with its reason and skipped; the rest is measured\n"
    "and written, and the machine file's identity lists the parts skipped.\n"
    "\n"
    "Exit status: 0 ok (parts may have been skipped), 2 usage error, nothing\n"
    "measured, or a machine file that cannot be written.\n";

/// The low-level parts (PARKBENCH-93 §3.2 and the memory curves), in the
/// order they run: the default and `--level all`.
const std::vector<std::string> LowLevelParts{"caches", "tick",    "rinf1",
                                             "poly",   "strided", "overlap"};

/// Command-line options (see Usage).
struct Options {
  std::vector<std::string> Levels{"HLLC", "POC", "INTCC", "ICC"};
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
  bool has(const std::string &L) const {
    return std::find(Levels.begin(), Levels.end(), L) != Levels.end();
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
  std::optional<HllcResult> Hllc;
  std::optional<HllcResult> Intcc; ///< same solve over IR operation classes
  std::optional<PocResult> Poc;
};

std::string statName(const Options &O) { return O.Stat == "min" ? "minimum" : "median"; }

std::vector<std::string> splitList(const std::string &S) {
  std::vector<std::string> R;
  std::stringstream SS(S);
  std::string X;
  while (std::getline(SS, X, ','))
    if (!X.empty())
      R.push_back(X);
  return R;
}

// --- machine identity -----------------------------------------------------------

std::string cpuinfoField(const std::string &Key) {
  std::ifstream In("/proc/cpuinfo");
  std::string Line;
  while (std::getline(In, Line)) {
    size_t C = Line.find(':');
    if (C == std::string::npos)
      continue;
    std::string K = Line.substr(0, C);
    while (!K.empty() && (K.back() == ' ' || K.back() == '\t'))
      K.pop_back();
    if (K == Key) {
      std::string V = Line.substr(C + 1);
      size_t B = V.find_first_not_of(" \t");
      return B == std::string::npos ? "" : V.substr(B);
    }
  }
  return "";
}

std::string today() {
  std::time_t T = std::time(nullptr);
  char Buf[32];
  std::strftime(Buf, sizeof Buf, "%Y-%m-%d", std::localtime(&T));
  return Buf;
}

std::string clangVersion(const fs::path &Dir) {
  try {
    RunResult R = runProgram({SEGTIME_CLANG, "--version"}, Dir, "clang-version", 30);
    std::string L = R.Out.substr(0, R.Out.find('\n'));
    if (R.ok() && !L.empty())
      return L;
  } catch (const CalibError &) {
  }
  return "clang (" SEGTIME_CLANG ")";
}

// --- the measurement ---------------------------------------------------------------

/// Compiles Src at -Opt with the plugin, runs it, returns the timings and
/// the SEG file path. Throws CalibError with the compiler's or the program's
/// output.
std::vector<Measured> compileAndRun(const std::string &Opt, const fs::path &Dir,
                                    const fs::path &Src, const std::vector<BenchInfo> &Benches,
                                    const Options &O, fs::path &SegOut) {
  std::string Bin = (Dir / ("bench_" + Opt)).string();
  SegOut = Dir / ("bench_" + Opt + ".seg.json");
  std::vector<std::string> Cc = {SEGTIME_CLANG,
                                 "-" + Opt,
                                 "-w",
                                 "-fplugin=" + pluginPath().string(),
                                 "-fplugin-arg-segtime-quiet",
                                 "-fplugin-arg-segtime-out=" + SegOut.string(),
                                 "-o",
                                 Bin,
                                 Src.string(),
                                 "-lm"};
  std::cerr << "calibrate: " << Opt << ": compiling" << ellipsis() << "\n";
  RunResult C = runProgram(Cc, Dir, "compile_" + Opt, 300);
  if (!C.ok())
    throw CalibError(Opt + ": compiling the benchmarks failed (" + C.status() + ")\n  " +
                     commandLine(Cc) + "\n" + tail(C.Err + C.Out));
  if (!fs::exists(SegOut))
    throw CalibError(Opt + ": the segtime plugin wrote no SEG file (" + SegOut.string() +
                     "); compiler output:\n" + tail(C.Err + C.Out));

  int Mask = (O.has("HLLC") || O.has("INTCC") ? MaskHllc : 0) | (O.has("POC") ? MaskPoc : 0);
  if ((O.has("HLLC") || O.has("INTCC")) && O.Train)
    Mask |= MaskTrain;
  // The HLLC kernels double as a check of the HLLC fit, so run them with it.
  if (Mask & MaskHllc)
    Mask |= MaskPoc;
  size_t NH = 0, NP = 0, NT = 0;
  for (const BenchInfo &B : Benches)
    (B.Poc ? NP : B.Train ? NT : NH) += 1;
  NH = Mask & MaskHllc ? NH : 0;
  NP = Mask & MaskPoc ? NP : 0;
  NT = Mask & MaskTrain ? NT : 0;
  double Target = O.TargetMs / 1000;
  double Expect = (NH + NP + NT) * (O.Reps + 1.3) * Target;
  std::cerr << "calibrate: " << Opt << ": running ";
  if (NH)
    std::cerr << NH << " benchmarks" << (NP || NT ? " + " : "");
  if (NP)
    std::cerr << NP << " POC kernels" << (NT ? " + " : "");
  if (NT)
    std::cerr << NT << " training kernels";
  std::cerr << " (about " << static_cast<int>(std::ceil(Expect)) << " s)" << ellipsis()
            << "\n";
  std::vector<std::string> Run = {Bin, std::to_string(Target), std::to_string(O.Reps),
                                  std::to_string(Mask)};
  RunResult R = runProgram(Run, Dir, "run_" + Opt, 60 + 10 * Expect);
  if (!R.ok())
    throw CalibError(Opt + ": the benchmark program failed (" + R.status() + ")\n  " +
                     commandLine(Run) + "\n" + tail(R.Err));
  json J;
  try {
    J = json::parse(R.Out);
  } catch (const std::exception &E) {
    throw CalibError(Opt + ": cannot parse the benchmark program's output: " + E.what() +
                     "\n" + tail(R.Out, 2000));
  }
  std::vector<Measured> M;
  for (const json &B : J.at("benchmarks")) {
    Measured X;
    std::string Name = B.at("name").get<std::string>();
    auto It = std::find_if(Benches.begin(), Benches.end(),
                           [&](const BenchInfo &I) { return I.Function == Name; });
    if (It == Benches.end())
      throw CalibError(Opt + ": unexpected benchmark '" + Name + "' in the program's output");
    X.Info = *It;
    X.R = B.at("R").get<long>();
    X.Times = B.at("times").get<std::vector<double>>();
    if (X.Times.size() != static_cast<size_t>(O.Reps))
      throw CalibError(Opt + ": benchmark '" + Name + "' reported " +
                       std::to_string(X.Times.size()) + " times, expected " +
                       std::to_string(O.Reps));
    for (double T : X.Times)
      if (!(T > 0))
        throw CalibError(Opt + ": benchmark '" + Name + "' reported a time <= 0");
    X.Time = O.Stat == "min" ? *std::min_element(X.Times.begin(), X.Times.end())
                             : median(X.Times);
    X.Disturbed = B.value("disturbed", 0);
    X.Retries = B.value("retries", 0);
    M.push_back(std::move(X));
  }
  return M;
}

/// Count of Op (level Level) in one call of F with loop bound R: the plugin's
/// closed form, with branch probabilities at their static defaults (the
/// benchmarks are written so that the counts do not depend on them).
/// The INTCC class an IR operation is fitted in: calls by callee
/// ("call.exp", "call.llvm.sqrt.f64"), everything else by opcode ("fadd.*").
std::string intccClass(const std::string &Op) {
  if (Op.compare(0, 5, "call.") == 0)
    return Op;
  size_t Dot = Op.find('.');
  return Dot == std::string::npos ? Op : Op.substr(0, Dot) + ".*";
}

/// Stage weight counting the operations of RUV key Level that Member admits.
StageWeight classWeight(const std::string &Level, const std::string &Class) {
  return [Level, Class](const Node &N) -> GiNaC::ex {
    auto It = N.Ruvs.find(Level);
    if (It == N.Ruvs.end())
      return 0;
    double C = 0;
    for (auto &[Op, K] : It->second.counts())
      if (Level == "INTCC" ? intccClass(Op) == Class : Op == Class)
        C += K;
    return GiNaC::numeric(C);
  };
}

/// Value of the closed form of weight W (cache key Key) over F's SEG at
/// Level in one call with loop bound R, the other parameters at their
/// defaults. Throws CalibError if the form depends on anything else.
double perCall(FormulaBuilder &FB, const FunctionSeg &F, const StageWeight &W,
               const std::string &Key, const std::string &Level, long R) {
  GiNaC::ex E = FB.closedForm(F.Name, W, Key, Level);
  std::map<std::string, double> V{{"R", static_cast<double>(R)}};
  for (const Parameter &P : F.Parameters)
    if (P.Default)
      V[P.Name] = *P.Default;
  for (const Parameter &P : F.Parameters) // expression defaults use the numbers
    if (!P.DefaultExpr.empty())
      try {
        V[P.Name] = *defaultValue(P, V);
      } catch (const std::exception &E) {
        throw CalibError("benchmark " + F.Name + ": " + E.what());
      }
  for (const std::string &S : freeSymbols(E))
    if (!V.count(S))
      throw CalibError("benchmark " + F.Name + ": the count of " + Key +
                       " depends on '" + S + "', which has no value");
  return evaluate(E, V);
}

double countPerCall(FormulaBuilder &FB, const FunctionSeg &F, const std::string &Level,
                    const std::string &Op, long R) {
  return perCall(FB, F, classWeight(Level, Op), Level + ":" + Op, Level, R);
}

/// A as rows, for predictor/CostFit.h.
DenseRows toRows(const Eigen::MatrixXd &A) {
  DenseRows R(static_cast<size_t>(A.rows()), std::vector<double>(static_cast<size_t>(A.cols())));
  for (Eigen::Index I = 0; I < A.rows(); ++I)
    for (Eigen::Index J = 0; J < A.cols(); ++J)
      R[I][J] = A(I, J);
  return R;
}

std::vector<double> toVector(const Eigen::VectorXd &V) {
  return std::vector<double>(V.data(), V.data() + V.size());
}

/// Least-squares cost vector of Level (HLLC: the constructs; INTCC: the
/// classes of IR operations the benchmarks execute, see intccClass) from the
/// benchmarks' counts at that level and their times.
HllcResult solveCosts(const std::vector<Measured> &Ms, const SegFile &Seg, int Reps,
                      const std::string &Level) {
  HllcResult H;
  if (Level == "HLLC") {
    for (const Construct &C : hllcVocabulary())
      H.Constructs.push_back(C.Name);
  } else {
    std::set<std::string> Classes;
    for (const FunctionSeg &F : Seg.Functions) {
      if (F.Name.compare(0, 6, "bench_") != 0)
        continue;
      forEachNode(F.bodyFor(Level), [&](const Node &N) {
        auto It = N.Ruvs.find(Level);
        if (It != N.Ruvs.end())
          for (auto &[Op, K] : It->second.counts())
            Classes.insert(intccClass(Op));
      });
    }
    H.Constructs.assign(Classes.begin(), Classes.end());
  }
  const auto &Names = H.Constructs;
  Eigen::Index NC = static_cast<Eigen::Index>(Names.size());
  FormulaBuilder FB(Seg);
  auto CountsOf = [&](const Measured &X) {
    const FunctionSeg *F = Seg.find(X.Info.Function);
    if (!F)
      throw CalibError("the SEG file has no function '" + X.Info.Function + "'");
    Eigen::RowVectorXd Row(NC);
    for (Eigen::Index J = 0; J < NC; ++J)
      Row(J) = countPerCall(FB, *F, Level, Names[J], X.R);
    return Row;
  };
  std::vector<const Measured *> Rows, Checks;
  for (const Measured &X : Ms)
    if (!X.Info.Train)
      (X.Info.Poc ? Checks : Rows).push_back(&X);
  Eigen::Index M = static_cast<Eigen::Index>(Rows.size());
  Eigen::MatrixXd A(M, NC);
  Eigen::VectorXd T(M);
  for (Eigen::Index I = 0; I < M; ++I) {
    A.row(I) = CountsOf(*Rows[I]);
    T(I) = Rows[I]->Time;
  }
  if (Level == "INTCC") {
    // Only classes executed in the benchmarks' repeated loops can be
    // determined: one that runs a few times per call (alloca, the prologue)
    // would absorb every call's constant overhead. They are not fitted.
    std::vector<Eigen::Index> Keep;
    for (Eigen::Index J = 0; J < NC; ++J) {
      bool Scales = false;
      for (Eigen::Index I = 0; I < M; ++I)
        Scales |= A(I, J) >= 0.05 * static_cast<double>(Rows[I]->R);
      if (Scales)
        Keep.push_back(J);
      else
        H.Unfitted.push_back(Names[J]);
    }
    Eigen::MatrixXd A2(M, static_cast<Eigen::Index>(Keep.size()));
    std::vector<std::string> Kept;
    for (size_t K = 0; K < Keep.size(); ++K) {
      A2.col(static_cast<Eigen::Index>(K)) = A.col(Keep[K]);
      Kept.push_back(Names[Keep[K]]);
    }
    A = A2;
    H.Constructs = Kept;
    NC = static_cast<Eigen::Index>(Kept.size());
  }
  if (!FB.unresolved().empty()) {
    std::string U;
    for (const std::string &S : FB.unresolved())
      U += "\n  " + S;
    throw CalibError("the plugin could not count everything in the benchmarks:" + U);
  }
  // Condition number of the row- and column-scaled design.
  {
    Eigen::MatrixXd S = A;
    for (Eigen::Index I = 0; I < M; ++I)
      S.row(I) /= T(I);
    for (Eigen::Index J = 0; J < NC; ++J)
      if (S.col(J).norm() > 0)
        S.col(J) /= S.col(J).norm();
    Eigen::JacobiSVD<Eigen::MatrixXd> Svd(S);
    auto Sv = Svd.singularValues();
    H.Cond = Sv(Sv.size() - 1) > 0 ? Sv(0) / Sv(Sv.size() - 1) : INFINITY;
  }
  // Solve; fix the most negative cost at 0 and re-solve until none is negative.
  DenseRows Ad = toRows(A);
  NonNegativeLs Nn;
  try {
    Nn = relativeNnls(Ad, toVector(T), Names, Level == "INTCC");
  } catch (const std::runtime_error &E) {
    throw CalibError(E.what());
  }
  H.Fixed = Nn.Fixed;
  Eigen::VectorXd C = Eigen::Map<const Eigen::VectorXd>(Nn.X.data(), NC);
  for (Eigen::Index J = 0; J < NC; ++J) {
    H.LsNs.push_back(Nn.Ls[J] * 1e9);
    H.CostNs.push_back(C(J) * 1e9);
  }
  H.BaseNs = H.CostNs;
  // Spread: one solve per repetition, same free set.
  std::vector<std::vector<double>> PerRep(NC);
  for (int K = 0; K < Reps && Reps > 1; ++K) {
    std::vector<double> Tk(M);
    for (Eigen::Index I = 0; I < M; ++I)
      Tk[I] = Rows[I]->Times[K];
    std::vector<double> Ck = relativeLs(Ad, Tk, Nn.Free, Names, Level == "INTCC");
    for (Eigen::Index J = 0; J < NC; ++J)
      PerRep[J].push_back(Ck[J]);
  }
  for (Eigen::Index J = 0; J < NC; ++J)
    H.Spread.push_back(H.Fixed[J] ? std::nullopt : relSpread(PerRep[J]));
  if (Level == "INTCC") {
    std::vector<double> Fitted;
    for (Eigen::Index J = 0; J < NC; ++J)
      if (!H.Fixed[J])
        Fitted.push_back(H.CostNs[J]);
    if (!Fitted.empty())
      H.StarBaseNs = H.StarNs = median(Fitted);
  }
  // Residuals with the construct costs c0, and the isolating benchmark per construct.
  Eigen::VectorXd Pred = A * C;
  double Sum2 = 0;
  for (Eigen::Index I = 0; I < M; ++I) {
    double Rel = (Pred(I) - T(I)) / T(I);
    H.Rows.push_back({Rows[I]->Info.Function, Rows[I]->Info.Construct, Rel});
    Sum2 += Rel * Rel;
  }
  H.RmsRel = std::sqrt(Sum2 / M);
  for (const std::string &N : Names) {
    std::string B;
    for (const Measured *X : Rows)
      if (X->Info.Construct == N && X->Info.Function != "bench_baseline")
        B = X->Info.Function;
    H.Bench.push_back(B);
  }
  for (const Measured *X : Checks) {
    double P = CountsOf(*X).dot(C);
    H.Checks.push_back({X->Info.Function, "", (P - X->Time) / X->Time});
  }
  return H;
}

/// The training-set fit of Level's costs (predictor/CostFit.h,
/// docs/calibrate.md "Training-set fit"): keeps the construct-benchmark costs
/// c0 of H and fits one multiplier s_g >= 0 per group of keys (costGroups) on
/// the training kernels' times, t_j ~ sum_g s_g G_jg with G_jg the time of
/// kernel j's keys of group g at the costs c0 (Warwick-94 eq. 4 with
/// c = diag(s) c0), rows weighted by 1/t_j. G is computed exactly as
/// `segtime predict` computes the level's time (CostVectorModel, the same
/// key lookup "op", "opcode.*", "*"), one closed form per kernel and group.
/// Sets H.Train and scales H.CostNs (and the INTCC "*") by the multipliers.
/// Throws CalibError if fewer than 2 training kernels were run.
void fitTraining(HllcResult &H, const std::vector<Measured> &Ms, const SegFile &Seg,
                 const std::string &Level, const std::string &Opt) {
  std::vector<const Measured *> Rows;
  for (const Measured &X : Ms)
    if (X.Info.Train)
      Rows.push_back(&X);
  if (Rows.size() < 2)
    throw CalibError(Level + " " + Opt + ": the training fit needs at least 2 training kernels, " +
                     std::to_string(Rows.size()) + " were run");
  // c0 as a machine file in memory, read by the predictor's own cost model.
  Machine M;
  M.Name = "construct benchmarks";
  CostVector CV;
  CV.Unit = "ns";
  for (size_t J = 0; J < H.Constructs.size(); ++J)
    CV.Costs[H.Constructs[J]].Value = H.BaseNs[J];
  if (H.StarBaseNs)
    CV.Costs["*"].Value = *H.StarBaseNs;
  M.Levels[Level][Opt] = CV;
  CostVectorModel Model(M, Level, Opt, Level);
  const std::vector<std::string> &Groups = costGroups(Level);
  FormulaBuilder FB(Seg);
  DenseRows G;
  std::vector<double> T;
  HllcResult::Training Tr;
  for (const Measured *X : Rows) {
    const FunctionSeg *F = Seg.find(X->Info.Function);
    if (!F)
      throw CalibError("the SEG file has no function '" + X->Info.Function + "'");
    std::vector<double> Row;
    for (const std::string &Gr : Groups) {
      StageWeight W = [&Model, &Level, Gr](const Node &N) -> GiNaC::ex {
        auto It = N.Ruvs.find(Level);
        if (It == N.Ruvs.end())
          return 0;
        double S = 0;
        for (auto &[Op, K] : It->second.counts())
          if (costGroup(Level, Model.costKey(Op)) == Gr)
            S += K * Model.cost(Op);
        return GiNaC::numeric(S);
      };
      Row.push_back(perCall(FB, *F, W, "train:" + Level + ":" + Gr, Level, X->R));
    }
    G.push_back(Row);
    T.push_back(X->Time);
    Tr.Kernels.push_back(X->Info.Function);
    Tr.What.push_back(X->Info.What);
    Tr.Times.push_back(X->Time);
  }
  if (!FB.unresolved().empty()) {
    std::string U;
    for (const std::string &S : FB.unresolved())
      U += "\n  " + S;
    throw CalibError("the plugin could not count everything in the training kernels:" + U);
  }
  DenseRows ByRep;
  for (size_t K = 0; K < Rows.front()->Times.size() && Rows.front()->Times.size() > 1; ++K) {
    ByRep.emplace_back();
    for (const Measured *X : Rows)
      ByRep.back().push_back(X->Times[K]);
  }
  try {
    Tr.Fit = fitGroupMultipliers(G, T, Groups, ByRep);
  } catch (const std::runtime_error &E) {
    throw CalibError(Level + " " + Opt + ": training fit: " + E.what());
  }
  H.Train = Tr;
  for (size_t J = 0; J < H.Constructs.size(); ++J) {
    H.Train->Group.push_back(costGroup(Level, H.Constructs[J]));
    H.CostNs[J] = H.BaseNs[J] * H.Train->Fit.S[H.groupIndex(H.Train->Group.back())];
  }
  if (H.StarBaseNs)
    H.StarNs = *H.StarBaseNs * H.Train->Fit.S[H.groupIndex(costGroup(Level, "*"))];
}

/// R_fpu = total flop / total time of the POC kernels (PARKBENCH-93 style).
PocResult solvePoc(const std::vector<Measured> &Ms, const SegFile &Seg, int Reps) {
  PocResult P;
  FormulaBuilder FB(Seg);
  double Flop = 0, Time = 0;
  std::vector<double> TimeRep(Reps, 0.0);
  for (const Measured &X : Ms) {
    if (!X.Info.Poc)
      continue;
    const FunctionSeg *F = Seg.find(X.Info.Function);
    if (!F)
      throw CalibError("the SEG file has no function '" + X.Info.Function + "'");
    double Fl = countPerCall(FB, *F, "POC", pocFlop(), X.R);
    if (!(Fl > 0))
      throw CalibError("kernel " + X.Info.Function + ": the plugin counts no flop");
    P.Kernels.push_back({X.Info.Function, Fl, X.Time});
    Flop += Fl;
    Time += X.Time;
    for (int K = 0; K < Reps; ++K)
      TimeRep[K] += X.Times[K];
  }
  if (P.Kernels.empty())
    throw CalibError("no POC kernel was run");
  P.Mflops = Flop / Time / 1e6;
  std::vector<double> Rates;
  for (double T : TimeRep)
    Rates.push_back(Flop / T / 1e6);
  P.Spread = relSpread(Rates);
  return P;
}

// --- output ---------------------------------------------------------------------

std::string yq(const std::string &S) { return yamlQuote(S); }
std::string num(double V, int Digits = 4) { return yamlNumber(V, Digits); }

std::string pct(std::optional<double> V, bool Sign = false) {
  if (!V)
    return "-";
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, Sign ? "%+.1f%%" : "%.1f%%", *V * 100);
  return Buf;
}

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
};

/// The core clock, for the ICC level: the cost of one scheduling-model cycle.
struct ClockResult {
  std::vector<double> GHz; ///< one sample per repetition
  int Batches = 0;         ///< measureClock calls the samples came from
  double Value = 0;        ///< GHz, by the --stat statistic
  std::optional<double> Spread;
  std::optional<MispredictResult> Mispredict; ///< measureMispredict, if run
};

/// Compiles the C program Source as Dir/Name (once per run directory) with
/// -O2, runs it with Args and returns the numbers it prints, one sample each.
std::vector<double> runSampleProgram(const fs::path &Dir, const std::string &Name,
                                     const char *Source, const std::vector<std::string> &Args) {
  fs::path Src = Dir / (Name + ".c"), Bin = Dir / Name;
  if (!fs::exists(Bin)) {
    std::ofstream(Src) << Source;
    RunResult C = runProgram({SEGTIME_CLANG, "-O2", Src.string(), "-o", Bin.string()}, Dir,
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
  CR.Mispredict = M;
}

/// The provenance of a cost scaled by the training fit: "; c0 = X ns
/// (construct benchmarks) x s_group = Y (training fit: N kernels, ...)".
std::string trainingRef(const HllcResult &H, size_t G, double BaseNs) {
  const GroupFit &F = H.Train->Fit;
  std::string R = "; construct-benchmark cost " + num(BaseNs, 4) + " ns x multiplier s_" +
                  F.Groups[G] + " = " + num(F.S[G], 4);
  if (heldAtOne(F.Groups[G]))
    return R + " (group " + F.Groups[G] + " held at 1: library calls are timed directly by "
               "their construct benchmarks)";
  if (!F.Determined[G])
    return R + " (group " + F.Groups[G] + " carries < 1 % of every training kernel's time: "
               "not fitted)";
  if (F.Fixed[G])
    R += " (least-squares value " + num(F.LsS[G], 3) + " < 0, fixed at 0)";
  return R + " (training fit of group " + F.Groups[G] + " over " +
         std::to_string(F.Rel.size()) + " kernels, weights 1/t: rms residual " +
         num(F.RmsRel * 100, 3) + " %, leave-one-out rms " + num(F.RmsLoo * 100, 3) +
         " %; docs/calibrate.md)";
}

/// Level key -> variant -> the YAML text of that variant in the `levels`
/// section (its key line and body).
using LevelTexts = std::map<std::string, std::map<std::string, std::string>>;

/// The variants measured in this run, as machine-file text.
LevelTexts measuredLevels(const Options &O, const RunInfo &I, const std::vector<OptResult> &Res,
                          const std::optional<ClockResult> &Clock) {
  LevelTexts L;
  std::string Ref0 = "segtime calibrate " + I.Date + ": ";
  std::string Reps = std::to_string(O.Reps) + " reps, " + statName(O);
  if (O.has("POC"))
    for (const OptResult &R : Res) {
      std::ostringstream Y;
      const PocResult &P = *R.Poc;
      std::string K;
      for (const PocKernel &Kn : P.Kernels)
        K += (K.empty() ? "" : ", ") + Kn.Function;
      Y << "      " << R.Opt << ":\n        unit: Mflop/s\n        costs:\n"
        << "          flop: {value: " << num(P.Mflops) << ", provenance: measured, ref: "
        << yq(Ref0 + "kernels " + K + " (PARKBENCH-93 RINF1 style), " + Reps +
              "; total flop / total time")
        << (P.Spread ? ", spread: " + num(*P.Spread, 3) : "") << "}\n";
      L["POC"][R.Opt] = Y.str();
    }
  // One cost entry of HLLC or INTCC: the construct-benchmark cost c0 and,
  // after a training fit, its group's multiplier (trainingRef).
  auto Entry = [&](const HllcResult &H, size_t J, std::string Ref, const char *Why) {
    if (H.Fixed[J])
      Ref += "; least-squares value " + num(H.LsNs[J], 3) + " ns < 0 (" + Why +
             "): written as 0, no spread";
    std::optional<double> Spread = H.Spread[J];
    if (H.Train) {
      size_t G = H.groupIndex(H.Train->Group[J]);
      Ref += trainingRef(H, G, H.BaseNs[J]);
      if (Spread && H.Train->Fit.Spread[G])
        Spread = *Spread + *H.Train->Fit.Spread[G];
    }
    return std::string(", provenance: measured, ref: ") + yq(Ref) +
           (Spread ? ", spread: " + num(*Spread, 3) : "") + "}\n";
  };
  if (O.has("HLLC"))
    for (const OptResult &R : Res) {
      std::ostringstream Y;
      const HllcResult &H = *R.Hllc;
      Y << "      " << R.Opt << ":\n        unit: ns\n        costs:\n";
      std::vector<size_t> Order(H.Constructs.size());
      for (size_t J = 0; J < Order.size(); ++J)
        Order[J] = J;
      std::sort(Order.begin(), Order.end(),
                [&](size_t A, size_t B) { return H.Constructs[A] < H.Constructs[B]; });
      for (size_t J : Order) {
        std::string Ref = Ref0 + "benchmark " + H.Bench[J] + ", " + Reps;
        if (H.Constructs[J] == "loop")
          Ref += " (with bench_baseline)";
        Y << "          " << H.Constructs[J] << ": {value: " << num(H.CostNs[J])
          << Entry(H, J, Ref, "noise");
      }
      L["HLLC"][R.Opt] = Y.str();
    }
  if (O.has("INTCC"))
    for (const OptResult &R : Res) {
      std::ostringstream Y;
      const HllcResult &H = *R.Intcc;
      Y << "      " << R.Opt << ":\n        unit: ns\n        costs:\n";
      for (size_t J = 0; J < H.Constructs.size(); ++J) {
        std::string Ref = Ref0 + "least squares over " + std::to_string(H.Rows.size()) +
                          " benchmarks, " + Reps;
        Y << "          " << yq(H.Constructs[J]) << ": {value: " << num(H.CostNs[J])
          << Entry(H, J, Ref, "noise or collinear");
      }
      std::string Unf;
      for (const std::string &U : H.Unfitted)
        Unf += (Unf.empty() ? "" : ", ") + U;
      if (H.StarNs) {
        std::string Ref = "median of the fitted classes, for operations the benchmarks do not "
                          "repeat" + (Unf.empty() ? std::string() : " (" + Unf + ")");
        if (H.Train)
          Ref += trainingRef(H, H.groupIndex(costGroup("INTCC", "*")), *H.StarBaseNs);
        Y << "          \"*\": {value: " << num(*H.StarNs) << ", provenance: derived, ref: "
          << yq(Ref) << "}\n";
      }
      L["INTCC"][R.Opt] = Y.str();
    }
  if (Clock) {
    std::ostringstream Y;
    Y << "      any:\n        unit: ns\n        costs:\n"
      << "          cycles: {value: " << num(1.0 / Clock->Value) << ", provenance: measured, ref: "
      << yq(Ref0 + "chain of dependent integer adds (1 cycle each), " +
            std::to_string(Clock->GHz.size()) + " reps in " + std::to_string(Clock->Batches) +
            " batches over the run, " + (O.Stat == "min" ? "fastest" : "median") + ": core clock " +
            num(Clock->Value, 4) + " GHz")
      << (Clock->Spread ? ", spread: " + num(*Clock->Spread, 3) : "") << "}\n";
    if (const auto &M = Clock->Mispredict)
      Y << "          branch.mispredict: {value: " << num(M->Value)
        << ", provenance: measured, ref: "
        << yq(Ref0 + "one data-dependent branch per byte over " + std::to_string(M->Elements) +
              " random vs sorted bytes, (t_random - t_sorted) / (n/2), median of " +
              std::to_string(M->Ns.size()) + " reps: " + num(M->Value * Clock->Value, 3) +
              " cycles at the measured clock (docs/calibrate.md)")
        << (M->Spread ? ", spread: " + num(*M->Spread, 3) : "") << "}\n";
    Y << "          \"*\": {value: 0, provenance: derived, ref: "
      << yq("out-of-order model: time is cycles x t_cyc; instructions, uops and memory "
            "operations are reported, not costed")
      << "}\n";
    L["ICC"]["any"] = Y.str();
  }
  return L;
}

/// V in the fewest significant digits that read back as V (a kept number
/// is written as it was read).
std::string exactNum(double V) {
  std::string S;
  for (int P = 1; P <= 17; ++P) {
    S = yamlNumber(V, P);
    if (std::strtod(S.c_str(), nullptr) == V)
      break;
  }
  return S;
}

/// Text of a variant kept from an existing machine file, entry by entry.
std::string keptVariantText(const std::string &Variant, const CostVector &V) {
  std::ostringstream Y;
  Y << "      " << Variant << ":\n        unit: " << V.Unit << "\n        costs:\n";
  for (const auto &[Op, E] : V.Costs) {
    bool Plain = std::all_of(Op.begin(), Op.end(), [](char C) {
      return std::isalnum(static_cast<unsigned char>(C)) || C == '.' || C == '_';
    });
    Y << "          " << (Plain ? Op : yq(Op)) << ": {value: " << exactNum(E.Value)
      << ", provenance: " << E.Provenance;
    if (!E.Ref.empty())
      Y << ", ref: " << yq(E.Ref);
    if (E.Spread)
      Y << ", spread: " << num(*E.Spread, 3);
    Y << "}\n";
  }
  return Y.str();
}

/// The `levels` section: the variants measured now and, from Old (the file
/// being updated, may be null), every level and variant not re-measured.
/// Comments (without "# ") go above the section's key line.
std::string levelsSection(const LevelTexts &New, const Machine *Old,
                          const std::vector<std::string> &Comments) {
  std::ostringstream Y;
  for (const std::string &C : Comments)
    Y << "# " << C << "\n";
  std::ostringstream Body;
  for (const char *L : {"POC", "HLLC", "INTCC", "ICC"}) {
    std::map<std::string, std::string> V;
    if (Old && Old->Levels.count(L))
      for (const auto &[Name, CV] : Old->Levels.at(L))
        V[Name] = keptVariantText(Name, CV);
    if (New.count(L))
      for (const auto &[Name, Text] : New.at(L))
        V[Name] = Text;
    if (V.empty())
      continue;
    Body << "  " << L << ":\n";
    if (std::string(L) == "INTCC")
      Body << "    # IR operation classes (opcode.*, calls by callee), least squares over every\n"
           << "    # benchmark's IR-level counts, times a group multiplier fitted on training\n"
           << "    # kernels where the ref says so (docs/models.md, docs/calibrate.md).\n";
    if (std::string(L) == "ICC")
      Body << "    # Out-of-order model: t = scheduling-model cycles x t_cyc (docs/models.md);\n"
           << "    # valid for the ICC targets of this machine's architecture.\n";
    Body << "    variants:\n";
    for (const auto &[Name, Text] : V)
      Body << Text;
  }
  std::string B = Body.str();
  Y << (B.empty() ? "levels: {}\n" : "levels:\n" + B);
  return Y.str();
}

/// The `identity` section of this machine.
std::string identitySection(const RunInfo &I) {
  std::ostringstream Y;
  Y << "identity:\n"
    << "  processor: " << yq(I.Cpu) << "\n"
    << "  cores: " << I.Cores << "\n";
  if (I.ClockHz > 0)
    Y << "  clock_hz: " << static_cast<long long>(std::llround(I.ClockHz)) << "\n";
  if (!I.Id.Vendor.empty())
    Y << "  vendor: " << yq(I.Id.Vendor) << "\n";
  if (I.Id.Family >= 0)
    Y << "  family: " << I.Id.Family << "\n"
      << "  model: " << I.Id.Model << "\n"
      << "  stepping: " << I.Id.Stepping << "\n";
  if (!I.Id.ModelName.empty())
    Y << "  model_name: " << yq(I.Id.ModelName) << "\n";
  if (!I.Id.llvmCpu().empty())
    Y << "  llvm_cpu: " << yq(I.Id.llvmCpu()) << "\n";
  if (!I.Id.Source.empty())
    Y << "  identity_source: " << yq(I.Id.Source + " leaves 0, 1, 0x80000002-4") << "\n";
  if (!I.Virtual.empty())
    Y << "  virtualised: " << yq(I.Virtual) << "\n";
  if (!I.Cpus.empty())
    Y << "  cpus_usable: " << yq(I.Cpus) << "\n";
  if (!I.Skipped.empty()) {
    std::string S;
    for (const std::string &X : I.Skipped)
      S += (S.empty() ? "" : "; ") + X;
    Y << "  calibration_skipped: " << yq(S) << "\n";
  }
  Y << "  date: " << yq(I.Date) << "\n"
    << "  compiler: "
    << yq(I.Compiler + "; levels: no -march, benchmarks compiled with the segtime plugin; "
                       "parkbench, memory: " + LowLevelBench::compileFlags())
    << "\n";
  return Y.str();
}

/// The comment lines above `levels`: how this run measured its levels.
std::vector<std::string> levelComments(const Options &O, const RunInfo &I,
                                       const std::vector<OptResult> &Res) {
  std::vector<std::string> C;
  C.push_back("Levels measured by `segtime calibrate` (tools/Calibrate.cpp) on " + I.Date +
              "; levels and variants not re-measured are kept from the file.");
  if (O.has("HLLC")) {
    C.push_back("HLLC: ns per construct, Warwick-94 eq. 4 / §4.2.2: least squares A c = t over "
                "one generated");
    C.push_back("  benchmark per construct plus a loop baseline (" + std::to_string(O.Unroll) +
                " constructs per loop iteration), counts A");
    C.push_back("  from the segtime plugin, t the " + statName(O) + " of " +
                std::to_string(O.Reps) + " calls of >= " + num(O.TargetMs, 3) + " ms.");
  }
  if ((O.has("HLLC") || O.has("INTCC")) && O.Train)
    C.push_back("HLLC, INTCC: each cost = construct-benchmark cost c0 x its group's multiplier "
                "s_g, fitted on the training kernels (docs/calibrate.md \"Training-set fit\").");
  if (O.has("POC")) {
    C.push_back("POC: R_fpu in Mflop/s, Warwick-94 eq. 6: total McMahon flop / total time of "
                "in-cache kernels");
    C.push_back("  (dot, daxpy, Horner, rational; PARKBENCH-93 RINF1 style).");
  }
  C.push_back("spread: (max-min)/median of the values solved from each repetition alone.");
  C.push_back("command: " + I.Command);
  if (O.Quick)
    C.push_back("--quick: a smoke test with short calls, not a calibration.");
  for (const OptResult &R : Res)
    if (R.Disturbed)
      C.push_back("warning: " + R.Opt + ": " + std::to_string(R.Disturbed) + " of " +
                  std::to_string(R.Samples) +
                  " timed calls were slowed by other processes (busy machine).");
  return C;
}

/// Key prefixes of the parameters a low-level part owns: re-measuring the
/// part replaces every old parameter under them.
std::vector<std::string> ownedPrefixes(const std::string &Part) {
  if (Part == "tick")
    return {"parkbench.TICK1", "parkbench.TICK2"};
  if (Part == "rinf1")
    return {"parkbench.RINF1."};
  if (Part == "poly")
    return {"parkbench.POLY1.", "parkbench.POLY2."};
  if (Part == "strided")
    return {"memory.strided.", "memory.strided_shared2."};
  if (Part == "overlap")
    return {"memory.overlap."};
  return {};
}

/// Writes (or updates) the machine file Path: the levels measured (Res,
/// Clock) merged with the file's other levels and variants, and the
/// parameters Params (full dotted keys) merged into the sections parkbench
/// and memory, replacing the old parameters of the parts re-measured. A
/// nonexistent file is created. The result is checked with readMachine
/// before it replaces Path.
void writeMachine(const std::string &Path, const Options &O, const RunInfo &I,
                  const std::vector<OptResult> &Res, const std::optional<ClockResult> &Clock,
                  const ParamList &Params, const std::vector<std::string> &OwnedKeys) {
  std::optional<Machine> Old;
  std::string Text;
  if (fs::exists(Path)) {
    try {
      Old = readMachine(Path);
    } catch (const std::exception &E) {
      throw CalibError(std::string("cannot update the existing machine file (move it away to "
                                   "start a new one): ") +
                       E.what());
    }
    Text = slurp(Path);
  }
  LevelTexts New = measuredLevels(O, I, Res, Clock);
  bool LevelsMeasured = !New.empty();
  if (!Old) {
    std::ostringstream Y;
    Y << "# This machine, measured by `segtime calibrate` (tools/Calibrate.cpp); every number "
         "gives its\n# method and date in its ref (docs/calibrate.md).\n"
      << "schema: segtime.machine/1\n"
      << "name: " << yq(O.Name) << "\n"
      << "version: 1\n"
      << "description: " << yq(I.Cpu + ", measured by segtime calibrate on " + I.Date) << "\n"
      << identitySection(I)
      << levelsSection(New, nullptr, LevelsMeasured ? levelComments(O, I, Res)
                                                    : std::vector<std::string>{});
    Text = Y.str();
  } else {
    // The identity always (virtualisation, CPUs, parts skipped: this run's).
    Text = spliceSection(Text, "identity", identitySection(I));
    if (LevelsMeasured)
      Text = spliceSection(Text, "levels", levelsSection(New, &*Old, levelComments(O, I, Res)));
  }
  // Parameter sections: old entries, minus those of the parts re-measured,
  // plus the new ones.
  // In this order when both are new (parkbench first, as in the shipped files).
  const std::vector<std::pair<std::string, std::string>> SectionComment = {
      {"parkbench", "PARKBENCH-93 §3.2 low-level benchmarks: `segtime calibrate --level "
                    "tick,rinf1,poly` (docs/calibrate.md)"},
      {"memory", "Cache sizes (reported: size = the first of size_sysfs, size_cpuid, "
                 "size_sysconf; measured: size_effective, latency, bandwidth_read: `segtime "
                 "calibrate --level caches`) and sustained bandwidths (B/s loaded + stored): "
                 "`--level poly`; strided-walk line rates: `--level strided`; "
                 "core/memory overlap: `--level overlap` "
                 "(docs/calibrate.md)"}};
  for (const auto &[Section, Comment] : SectionComment) {
    std::string Prefix = Section + ".";
    std::map<std::string, CostEntry> Merged;
    bool Any = false;
    for (const auto &[K, E] : Params)
      Any |= K.compare(0, Prefix.size(), Prefix) == 0;
    if (!Any)
      continue;
    if (Old)
      for (const std::string &K : Old->paramKeys(Prefix)) {
        bool Owned = std::find(OwnedKeys.begin(), OwnedKeys.end(), K) != OwnedKeys.end();
        for (const std::string &Part : O.Parts)
          for (const std::string &P : ownedPrefixes(Part))
            Owned |= K.compare(0, P.size(), P) == 0;
        if (!Owned)
          Merged[K.substr(Prefix.size())] = *Old->param(K);
      }
    for (const auto &[K, E] : Params)
      if (K.compare(0, Prefix.size(), Prefix) == 0)
        Merged[K.substr(Prefix.size())] = E;
    ParamList L(Merged.begin(), Merged.end());
    Text = spliceSection(Text, Section, paramsSectionYaml(Section, L, {Comment}));
  }
  std::string Tmp = Path + ".tmp";
  {
    std::ofstream OS(Tmp);
    if (!(OS << Text))
      throw CalibError("cannot write '" + Tmp + "'");
  }
  try {
    readMachine(Tmp);
  } catch (const std::exception &E) {
    throw CalibError(std::string("the machine file written does not load (it is ") + Tmp +
                     "): " + E.what());
  }
  std::error_code EC;
  fs::rename(Tmp, Path, EC);
  if (EC)
    throw CalibError("cannot write '" + Path + "': " + EC.message());
}

/// Reads the file back with readMachine and checks every value is there.
void verifyMachine(const std::string &Path, const Options &O, const std::vector<OptResult> &Res) {
  Machine M;
  try {
    M = readMachine(Path);
  } catch (const std::exception &E) {
    throw CalibError(std::string("the machine file does not load: ") + E.what());
  }
  for (const OptResult &R : Res) {
    if (O.has("HLLC")) {
      const CostVector &V = M.vector("HLLC", R.Opt);
      for (const Construct &C : hllcVocabulary())
        if (!V.Costs.count(C.Name))
          throw CalibError(Path + ": HLLC " + R.Opt + " lacks " + C.Name + " after reading");
    }
    if (O.has("POC") && !M.vector("POC", R.Opt).Costs.count("flop"))
      throw CalibError(Path + ": POC " + R.Opt + " lacks flop after reading");
  }
}

/// S padded with blanks to width W (right-aligned unless Left).
std::string pad(const std::string &S, size_t W, bool Left = false) {
  if (S.size() >= W)
    return S;
  return Left ? S + std::string(W - S.size(), ' ') : std::string(W - S.size(), ' ') + S;
}

/// The training-set fit of Level (HLLC or INTCC) at every variant: the
/// multipliers with their spread, then per kernel the relative error of its
/// time with the construct costs c0, with the fit, and left out of the fit.
void printTraining(std::ostream &OS, const std::string &Level,
                   const std::vector<const HllcResult *> &Hs, const std::vector<std::string> &Opts) {
  if (Hs.empty() || !Hs.front()->Train)
    return;
  const auto &F0 = Hs.front()->Train->Fit;
  OS << "\n" << Level << " training-set fit: cost of key k = s_g c0_k (Warwick-94 eq. 4 with "
     << "c = diag(s) c0),\nc0 from the construct benchmarks, one multiplier s_g per group fitted "
     << "on " << F0.Rel.size() << " training kernels\n(weights 1/t; * = not fitted, s = 1: "
        "group math (library calls, timed directly) or one that carries < 1 % of every "
        "kernel's time)\n";
  OS << pad("group", 22, true);
  for (const std::string &Op : Opts)
    OS << pad(Op + " s_g", 10) << pad("spread", 8);
  OS << "\n";
  for (size_t G = 0; G < F0.Groups.size(); ++G) {
    OS << pad(F0.Groups[G], 22, true);
    for (const HllcResult *H : Hs) {
      const GroupFit &F = H->Train->Fit;
      OS << pad(num(F.S[G], 3) + (F.Determined[G] ? "" : "*"), 10) << pad(pct(F.Spread[G]), 8);
    }
    OS << "\n";
  }
  OS << "relative error of the kernel's time: c0 = construct costs alone, fit = with s_g, LOO =\n"
        "with s_g fitted without the kernel (leave-one-out cross-validation)\n";
  OS << pad("kernel", 22, true);
  for (const std::string &Op : Opts)
    OS << pad(Op + " c0", 9) << pad("fit", 8) << pad("LOO", 8);
  OS << "\n";
  const auto &Ks = Hs.front()->Train->Kernels;
  for (size_t K = 0; K < Ks.size(); ++K) {
    OS << pad(Ks[K], 22, true);
    for (const HllcResult *H : Hs) {
      const GroupFit &F = H->Train->Fit;
      OS << pad(pct(F.Rel0[K], true), 9) << pad(pct(F.Rel[K], true), 8)
         << pad(pct(F.LooRel[K], true), 8);
    }
    OS << "\n";
  }
  OS << pad("rms", 22, true);
  for (const HllcResult *H : Hs) {
    const GroupFit &F = H->Train->Fit;
    OS << pad(pct(F.RmsRel0), 9) << pad(pct(F.RmsRel), 8) << pad(pct(F.RmsLoo), 8);
  }
  OS << "\n" << pad("median |error|", 22, true);
  for (const HllcResult *H : Hs) {
    const GroupFit &F = H->Train->Fit;
    OS << pad(pct(F.MedianAbsRel0), 9) << pad(pct(F.MedianAbsRel), 8)
       << pad(pct(F.MedianAbsLoo), 8);
  }
  OS << "\n";
}

void printTable(std::ostream &OS, const Options &O, const RunInfo &I,
                const std::vector<OptResult> &Res) {
  OS << "segtime calibrate: " << O.Name << " (" << I.Cpu << "), " << O.Reps << " reps";
  if (!O.Levels.empty())
    OS << " of >= " << num(O.TargetMs, 3) << " ms per benchmark";
  OS << (O.Quick ? " [--quick]" : "") << "\n";
  auto Pad = [](const std::string &S, size_t W, bool Left = false) { return pad(S, W, Left); };
  if (O.has("HLLC")) {
    bool Trained = Res.front().Hllc->Train.has_value();
    OS << "\nHLLC cost vector, ns per construct (Warwick-94 eq. 4); spread over reps; "
          "resid = relative\nresidual of the construct's benchmark; 0* = negative in the "
          "fit (noise), written as 0"
       << (Trained ? ";\nc0 = construct-benchmark cost, written = s_g c0 (training-set fit, "
                     "below)"
                   : "")
       << "\n";
    OS << Pad("construct", 18, true);
    for (const OptResult &R : Res) {
      OS << Pad(R.Opt + (Trained ? " c0 ns" : " ns"), 11) << Pad("spread", 8)
         << Pad("resid", 8);
      if (Trained)
        OS << Pad("written", 9);
    }
    OS << "\n";
    const HllcResult &H0 = *Res.front().Hllc;
    for (size_t J = 0; J < H0.Constructs.size(); ++J) {
      OS << Pad(H0.Constructs[J], 18, true);
      for (const OptResult &R : Res) {
        const HllcResult &H = *R.Hllc;
        double Resid = 0;
        for (const Row &Rw : H.Rows)
          if (Rw.Function == H.Bench[J])
            Resid = Rw.Rel;
        OS << Pad(H.Fixed[J] ? "0*" : num(H.BaseNs[J], 3), 11) << Pad(pct(H.Spread[J]), 8)
           << Pad(pct(Resid, true), 8);
        if (Trained)
          OS << Pad(num(H.CostNs[J], 3), 9);
      }
      OS << "\n";
    }
    OS << Pad("(bench_baseline)", 18, true);
    for (const OptResult &R : Res) {
      double Resid = 0;
      for (const Row &Rw : R.Hllc->Rows)
        if (Rw.Function == "bench_baseline")
          Resid = Rw.Rel;
      OS << Pad("", 11) << Pad("", 8) << Pad(pct(Resid, true), 8);
    }
    OS << "\n";
    for (const OptResult &R : Res) {
      const HllcResult &H = *R.Hllc;
      OS << "  " << R.Opt << ": " << H.Rows.size() << " benchmarks, " << H.Constructs.size()
         << " constructs, condition number " << num(H.Cond, 3) << ", rms residual "
         << pct(H.RmsRel) << "; check, POC kernels predicted by c^T f:";
      for (const Row &C : H.Checks)
        OS << " " << C.Function.substr(4) << " " << pct(C.Rel, true);
      OS << "\n";
    }
  }
  std::vector<std::string> Opts;
  std::vector<const HllcResult *> Hllcs, Intccs;
  for (const OptResult &R : Res) {
    Opts.push_back(R.Opt);
    if (R.Hllc)
      Hllcs.push_back(&*R.Hllc);
    if (R.Intcc)
      Intccs.push_back(&*R.Intcc);
  }
  printTraining(OS, "HLLC", Hllcs, Opts);
  if (!Intccs.empty()) {
    OS << "\nINTCC cost vector, ns per IR operation class (Warwick-94 eq. 4), least squares over "
          "the construct\nbenchmarks' IR counts (costs in the machine file; --json lists them)\n";
    for (size_t K = 0; K < Intccs.size(); ++K) {
      const HllcResult &H = *Intccs[K];
      size_t Fixed = static_cast<size_t>(std::count(H.Fixed.begin(), H.Fixed.end(), true));
      OS << "  " << Opts[K] << ": " << H.Rows.size() << " benchmarks, " << H.Constructs.size()
         << " classes (" << Fixed << " fixed at 0), condition number " << num(H.Cond, 3)
         << ", rms residual " << pct(H.RmsRel) << "\n";
    }
  }
  printTraining(OS, "INTCC", Intccs, Opts);
  if (O.has("POC")) {
    OS << "\nPOC flop rate R_fpu, Mflop/s (Warwick-94 eq. 6; McMahon flop / time)\n";
    for (const OptResult &R : Res) {
      const PocResult &P = *R.Poc;
      OS << "  " << R.Opt << ": " << num(P.Mflops) << " Mflop/s (spread " << pct(P.Spread)
         << "); kernels:";
      for (const PocKernel &K : P.Kernels)
        OS << " " << K.Function.substr(4) << " " << num(K.Flop / K.Time / 1e6, 3);
      OS << "\n";
    }
  }
}

json toJson(const Options &O, const RunInfo &I, const std::vector<OptResult> &Res) {
  json J;
  J["machine"] = {{"name", O.Name}, {"path", O.Out}, {"processor", I.Cpu}, {"date", I.Date}};
  J["reps"] = O.Reps;
  J["statistic"] = O.Stat;
  J["time_ms"] = O.TargetMs;
  J["unroll"] = O.Unroll;
  auto Opt = [](std::optional<double> V) { return V ? json(*V) : json(nullptr); };
  for (const OptResult &R : Res) {
    J["samples"][R.Opt] = {{"timed_calls", R.Samples}, {"disturbed", R.Disturbed},
                           {"retries", R.Retries}};
    for (const Measured &X : R.Timings)
      J["timings"][R.Opt][X.Info.Function] = {{"construct", X.Info.Construct},
                                              {"body", X.Info.What},
                                              {"R", X.R},
                                              {"seconds", X.Time},
                                              {"times_s", X.Times},
                                              {"disturbed", X.Disturbed}};
    using LevelResult = std::pair<const char *, const std::optional<HllcResult> *>;
    for (const LevelResult &LR : {LevelResult{"HLLC", &R.Hllc}, LevelResult{"INTCC", &R.Intcc}}) {
      const char *Level = LR.first;
      if (!*LR.second)
        continue;
      const HllcResult &H = **LR.second;
      json V;
      V["unit"] = "ns";
      for (size_t J2 = 0; J2 < H.Constructs.size(); ++J2) {
        json C = {{"value", H.CostNs[J2]},
                  {"construct_benchmark_cost", H.BaseNs[J2]},
                  {"least_squares", H.LsNs[J2]},
                  {"fixed_at_zero", static_cast<bool>(H.Fixed[J2])},
                  {"spread", Opt(H.Spread[J2])}};
        if (J2 < H.Bench.size() && !H.Bench[J2].empty())
          C["benchmark"] = H.Bench[J2];
        if (H.Train)
          C["group"] = H.Train->Group[J2];
        V["costs"][H.Constructs[J2]] = C;
      }
      if (H.StarNs)
        V["costs"]["*"] = {{"value", *H.StarNs}, {"construct_benchmark_cost", *H.StarBaseNs}};
      for (const Row &Rw : H.Rows)
        V["residuals"][Rw.Function] = Rw.Rel;
      for (const Row &C : H.Checks)
        V["checks"][C.Function] = C.Rel;
      if (!H.Unfitted.empty())
        V["unfitted"] = H.Unfitted;
      V["condition_number"] = H.Cond;
      V["rms_residual"] = H.RmsRel;
      if (H.Train) {
        const GroupFit &F = H.Train->Fit;
        json T;
        for (size_t G = 0; G < F.Groups.size(); ++G)
          T["multipliers"][F.Groups[G]] = {{"value", F.S[G]},
                                           {"least_squares", F.LsS[G]},
                                           {"fixed_at_zero", static_cast<bool>(F.Fixed[G])},
                                           {"determined", static_cast<bool>(F.Determined[G])},
                                           {"spread", Opt(F.Spread[G])}};
        for (size_t K = 0; K < H.Train->Kernels.size(); ++K)
          T["kernels"][H.Train->Kernels[K]] = {{"what", H.Train->What[K]},
                                               {"seconds", H.Train->Times[K]},
                                               {"rel_error_construct_costs", F.Rel0[K]},
                                               {"rel_error_fit", F.Rel[K]},
                                               {"rel_error_leave_one_out", F.LooRel[K]}};
        T["rms"] = {{"construct_costs", F.RmsRel0}, {"fit", F.RmsRel},
                    {"leave_one_out", F.RmsLoo}};
        T["median_abs"] = {{"construct_costs", F.MedianAbsRel0}, {"fit", F.MedianAbsRel},
                           {"leave_one_out", F.MedianAbsLoo}};
        V["training_fit"] = T;
      }
      J["levels"][Level][R.Opt] = V;
    }
    if (R.Poc) {
      const PocResult &P = *R.Poc;
      json V;
      V["unit"] = "Mflop/s";
      V["costs"]["flop"] = {{"value", P.Mflops}, {"spread", Opt(P.Spread)}};
      for (const PocKernel &K : P.Kernels)
        V["kernels"][K.Function] = {{"flop_per_call", K.Flop},
                                    {"seconds_per_call", K.Time},
                                    {"mflops", K.Flop / K.Time / 1e6}};
      J["levels"]["POC"][R.Opt] = V;
    }
  }
  return J;
}

[[noreturn]] void usageError(const std::string &Msg) {
  std::cerr << "segtime: error: calibrate: " << Msg << " (see segtime calibrate --help)\n";
  std::exit(2);
}

Options parseArgs(int Argc, char **Argv, std::string &Command) {
  Options O;
  bool RepsGiven = false, TimeGiven = false;
  Command = "segtime calibrate";
  for (int I = 0; I < Argc; ++I) {
    std::string A = Argv[I];
    Command += " " + A;
    auto Next = [&]() -> std::string {
      if (I + 1 >= Argc)
        usageError(A + " needs a value");
      Command += " " + std::string(Argv[I + 1]);
      return Argv[++I];
    };
    auto Number = [&](const std::string &S, double Lo, double Hi) {
      try {
        size_t Used = 0;
        double V = std::stod(S, &Used);
        if (Used == S.size() && V >= Lo && V <= Hi)
          return V;
      } catch (const std::exception &) {
      }
      std::ostringstream Range;
      Range << "[" << Lo << ", " << Hi << "]";
      usageError(A + " '" + S + "': expected a number in " + Range.str());
    };
    if (A == "--help" || A == "-h") {
      std::cout << Usage;
      std::exit(0);
    } else if (A == "--level") {
      O.Levels.clear();
      O.Parts.clear();
      std::vector<std::string> Items = splitList(Next());
      if (Items.empty())
        usageError("--level: empty list");
      for (const std::string &X : Items) {
        Level L;
        std::string Lower = X;
        for (char &C : Lower)
          C = static_cast<char>(std::tolower(static_cast<unsigned char>(C)));
        if (Lower == "all") {
          O.Levels = {"HLLC", "POC", "INTCC", "ICC"};
          O.Parts = LowLevelParts;
          continue;
        }
        if (Lower == "parkbench") {
          for (const char *P : {"tick", "rinf1", "poly"})
            if (!O.hasPart(P))
              O.Parts.push_back(P);
          continue;
        }
        if (std::find(LowLevelParts.begin(), LowLevelParts.end(), Lower) != LowLevelParts.end()) {
          if (!O.hasPart(Lower))
            O.Parts.push_back(Lower);
          continue;
        }
        if (!parseLevel(X, L) || L == Level::CT || L == Level::DBC)
          usageError("--level: '" + X +
                     "' is not one of caches, tick, rinf1, poly, strided, overlap, parkbench, hllc, "
                     "poc, "
                     "intcc, icc, all");
        if (!O.has(levelKey(L)))
          O.Levels.push_back(levelKey(L));
      }
    } else if (A == "--opt") {
      O.Opts.clear();
      for (std::string X : splitList(Next())) {
        if (!X.empty() && X[0] == '-')
          X = X.substr(1);
        static const char *Ok[] = {"O0", "O1", "O2", "O3", "Os", "Oz"};
        if (std::none_of(std::begin(Ok), std::end(Ok), [&](const char *K) { return X == K; }))
          usageError("--opt: '" + X + "' is not one of O0, O1, O2, O3, Os, Oz");
        if (std::find(O.Opts.begin(), O.Opts.end(), X) == O.Opts.end())
          O.Opts.push_back(X);
      }
      if (O.Opts.empty())
        usageError("--opt: empty list");
    } else if (A == "--out" || A == "-o") {
      O.Out = Next();
    } else if (A == "--name") {
      O.Name = Next();
      if (O.Name.empty())
        usageError("--name: empty name");
    } else if (A == "--reps") {
      O.Reps = static_cast<int>(Number(Next(), 1, 1000));
      RepsGiven = true;
    } else if (A == "--time") {
      O.TargetMs = Number(Next(), 0.1, 10000);
      TimeGiven = true;
    } else if (A == "--unroll") {
      O.Unroll = static_cast<unsigned>(Number(Next(), 1, 256));
    } else if (A == "--stat") {
      O.Stat = Next();
      if (O.Stat != "median" && O.Stat != "min")
        usageError("--stat: '" + O.Stat + "' is not median or min");
    } else if (A == "--keep") {
      O.Keep = Next();
    } else if (A == "--plot") {
      O.Plot = Next();
    } else if (A == "--compare") {
      O.Compare = {Next(), Next()};
    } else if (A == "--tolerance") {
      O.Tolerance = Number(Next(), 0, 10);
    } else if (A == "--sysfs-root") {
      O.Seams.SysfsRoot = Next();
    } else if (A == "--cpuid-table") {
      O.Seams.CpuidTable = Next();
    } else if (A == "--quick") {
      O.Quick = true;
    } else if (A == "--json") {
      O.Json = true;
    } else if (A == "--no-train") {
      O.Train = false;
    } else {
      usageError("unknown argument '" + A + "'");
    }
  }
  if (O.Quick) {
    if (!RepsGiven)
      O.Reps = 3;
    if (!TimeGiven)
      O.TargetMs = 2;
  }
  if (O.Out.empty() && O.Compare.empty()) {
    fs::path Dir = userMachineDirectory();
    if (Dir.empty())
      usageError("no --out given and neither XDG_DATA_HOME nor HOME is set");
    O.Out = (Dir / (O.Name + ".yaml")).string();
    O.OutIsUserDefault = true;
  }
  return O;
}

} // namespace

/// Points default.yaml, next to the machine file Path that calibrate wrote
/// into the user's machine directory, at it (a relative symbolic link): the
/// plugin and predict then use it when no machine is named. A default.yaml
/// that is not a link was put there by the user and is left alone.
static void makeDefaultMachine(const fs::path &Path) {
  fs::path Link = Path.parent_path() / "default.yaml";
  std::error_code EC;
  if (fs::exists(fs::symlink_status(Link, EC)) && !fs::is_symlink(fs::symlink_status(Link, EC))) {
    std::cerr << "calibrate: " << Link.string()
              << " is a file, not a link: left as it is (this machine's default)\n";
    return;
  }
  fs::remove(Link, EC);
  fs::create_symlink(Path.filename(), Link, EC);
  if (EC)
    std::cerr << "segtime: warning: calibrate: cannot link " << Link.string() << " -> "
              << Path.filename().string() << ": " << EC.message() << "\n";
  else
    std::cerr << "calibrate: " << Link.string() << " -> " << Path.filename().string()
              << ": the plugin and predict use this machine when none is named\n";
}

/// Entry point of `segtime calibrate` (called by segtime.cpp). Returns the
/// exit status: 0 ok (parts may have been skipped), 2 on a usage error, when
/// nothing was measured, or when the machine file cannot be written.
int calibrateMain(int Argc, char **Argv) {
  std::string Command;
  Options O = parseArgs(Argc, Argv, Command);
  if (!O.Compare.empty()) {
    try {
      return compareMachineFiles(O.Compare[0], O.Compare[1], O.Tolerance, O.Json, std::cout);
    } catch (const std::exception &E) {
      std::cerr << "segtime: error: calibrate --compare: " << E.what() << "\n";
      return 2;
    }
  }
  fs::path Dir;
  bool Remove = false;
  auto Start = std::chrono::steady_clock::now();
  try {
    fs::path OutDir = fs::path(O.Out).parent_path();
    if (O.OutIsUserDefault)
      fs::create_directories(OutDir);
    if (!OutDir.empty() && !fs::is_directory(OutDir))
      throw CalibError("--out: directory '" + OutDir.string() + "' does not exist");
    if ((!O.Levels.empty()) && pluginPath().empty())
      throw CalibError("the segtime plugin is missing (looked for lib/segtime/segtime.so and "
                       "lib/segtime.so in " +
                       (installPrefix().empty() ? moduleDirectory().string() + "/.."
                                                : installPrefix().string()) +
                       "): build or install it first");
    if (!O.Keep.empty()) {
      Dir = O.Keep;
      fs::create_directories(Dir);
    } else {
      std::string T = (fs::temp_directory_path() / "segtime-calibrate-XXXXXX").string();
      if (!mkdtemp(T.data()))
        throw CalibError("cannot create a temporary directory: " +
                         std::string(std::strerror(errno)));
      Dir = T;
      Remove = true;
    }
    std::vector<BenchInfo> Benches;
    fs::path Src = Dir / "bench.c";
    {
      std::ofstream OS(Src);
      OS << generateBenchSource(O.Unroll, Benches);
      if (!OS)
        throw CalibError("cannot write " + Src.string());
    }
    RunInfo Info;
    Info.Date = today();
    Info.Cpu = cpuinfoField("model name");
    if (Info.Cpu.empty())
      Info.Cpu = "unknown processor";
    Info.Cores = std::thread::hardware_concurrency();
    std::string Mhz = cpuinfoField("cpu MHz");
    Info.ClockHz = Mhz.empty() ? 0 : std::atof(Mhz.c_str()) * 1e6;
    Info.Compiler = clangVersion(Dir);
    Info.Command = Command;

    // The low-level benchmark program also gives the phase probe that every
    // part and level waits on (LowLevelBench::waitForFastPhase).
    LowLevelOptions LO;
    LO.Reps = O.Reps;
    LO.TargetS = O.Quick ? 0.5e-3 : 1e-3;
    LO.Quick = O.Quick;
    LO.Stat = O.Stat;
    LO.Date = Info.Date;
    LO.NominalGHz = Info.ClockHz / 1e9;
    LO.Seams = O.Seams;
    LowLevelBench LB(Dir, LO);
    // Parts that cannot run are skipped with their reason; the rest goes on.
    auto Skip = [&](const std::string &What, const std::exception &E) {
      std::string Why = E.what();
      std::cerr << "calibrate: " << What << ": skipped: " << Why << "\n";
      Info.Skipped.push_back(What + " (" + Why.substr(0, Why.find('\n')) + ")");
    };
    {
      const MachineProbe &P = LB.cacheResult().Probe;
      Info.Virtual = P.Virt.Flag ? "yes (" + P.Virt.Source + " leaf 1 ECX bit 31" +
                                       (P.Virt.Vendor.empty()
                                            ? std::string(")")
                                            : "; hypervisor " + P.Virt.Vendor +
                                                  " from leaf 0x40000000)")
                                 : "no (" + P.Virt.Source + " leaf 1 ECX bit 31 clear)";
      Info.Id = P.Cpu;
      std::cerr << "calibrate: CPU: " << (P.Cpu.Vendor.empty() ? "unknown vendor" : P.Cpu.Vendor)
                << ", family " << P.Cpu.Family << ", model " << P.Cpu.Model << ", '"
                << P.Cpu.ModelName << "'; suggested machine file: costvectors/"
                << P.Cpu.suggestedName() << ".yaml\n";
      Info.Cpus = std::to_string(P.Cpus.usable()) + " (sched_getaffinity: " +
                  std::to_string(P.Cpus.Affinity) + " CPUs; cgroup: " + P.Cpus.QuotaRef + ")";
    }
    // The ICC clock: three batches of samples, at the start, after the levels
    // and at the end (measureClock).
    std::optional<ClockResult> Clock;
    int ClockReps = (O.Reps + 2) / 3;
    if (O.has("ICC")) {
      std::cerr << "calibrate: ICC: core clock (dependent adds), first batch" << ellipsis()
                << "\n";
      Clock.emplace();
      try {
        measureClock(Dir, O, ClockReps, *Clock);
      } catch (const CalibError &E) {
        Skip("ICC", E);
        Clock.reset();
      }
    }
    std::vector<OptResult> Results;
    for (const std::string &Opt : O.has("HLLC") || O.has("POC") || O.has("INTCC")
                                      ? O.Opts
                                      : std::vector<std::string>{}) {
      fs::path Seg;
      try {
      LB.waitForFastPhase(Opt + " benchmarks");
      std::vector<Measured> Ms = compileAndRun(Opt, Dir, Src, Benches, O, Seg);
      OptResult R;
      R.Opt = Opt;
      for (const Measured &X : Ms) {
        R.Samples += static_cast<int>(X.Times.size());
        R.Disturbed += X.Disturbed;
        R.Retries += X.Retries;
      }
      if (R.Retries)
        std::cerr << "calibrate: " << Opt << ": " << R.Retries
                  << " timed calls repeated because other processes ran\n";
      if (R.Disturbed)
        std::cerr << "calibrate: " << Opt << ": warning: " << R.Disturbed << " of " << R.Samples
                  << " timed calls were slowed by other processes (the machine is busy); "
                     "the costs may be too high: re-run on a quiet machine\n";
      std::cerr << "calibrate: " << Opt << ": solving" << ellipsis() << "\n";
      SegFile S = SegFile::read(Seg.string());
      if (O.has("HLLC"))
        R.Hllc = solveCosts(Ms, S, O.Reps, "HLLC");
      if (O.has("INTCC"))
        R.Intcc = solveCosts(Ms, S, O.Reps, "INTCC");
      if (O.Train) {
        std::cerr << "calibrate: " << Opt << ": training-set fit" << ellipsis() << "\n";
        if (R.Hllc)
          fitTraining(*R.Hllc, Ms, S, "HLLC", Opt);
        if (R.Intcc)
          fitTraining(*R.Intcc, Ms, S, "INTCC", Opt);
      }
      if (O.has("POC"))
        R.Poc = solvePoc(Ms, S, O.Reps);
      R.Timings = std::move(Ms);
      Results.push_back(std::move(R));
      } catch (const CalibError &E) {
        Skip("levels " + Opt, E);
      }
    }
    if (Clock) {
      std::cerr << "calibrate: ICC: core clock, second batch" << ellipsis() << "\n";
      try {
        measureClock(Dir, O, ClockReps, *Clock);
      } catch (const CalibError &E) {
        Skip("ICC clock, second batch", E);
      }
      std::cerr << "calibrate: ICC: branch-misprediction penalty (random vs sorted data)"
                << ellipsis() << "\n";
      try {
        measureMispredict(Dir, O, *Clock);
      } catch (const CalibError &E) {
        Skip("ICC branch-misprediction penalty", E);
      }
    }
    // The low-level parts (PARKBENCH-93 §3.2), in the order of the paper.
    std::optional<CacheResult> Caches;
    std::optional<TickResult> Tick;
    std::optional<RinfResult> Rinf;
    std::optional<PolyMemResult> Poly;
    std::optional<StridedResult> Strided;
    std::optional<OverlapResult> Overlap;
    ParamList Params;
    // Runs one part, collects its parameters, says how long it took.
    bool UsesCaches = false; // a part sized its benchmarks with the cache hierarchy
    auto Part = [&](const char *Name, auto &Result, auto Run) {
      auto T0 = std::chrono::steady_clock::now();
      UsesCaches |= std::string(Name) != "tick";
      try {
        LB.waitForFastPhase(Name);
        Result = std::invoke(Run, LB);
      } catch (const CalibError &E) {
        Skip(Name, E);
        return;
      }
      if constexpr (!std::is_same_v<std::decay_t<decltype(*Result)>, CacheResult>)
        for (auto &P : Result->params())
          Params.push_back(P);
      std::cerr << "calibrate: " << Name << ": done ("
                << num(std::chrono::duration<double>(std::chrono::steady_clock::now() - T0)
                           .count(),
                       3)
                << " s)\n";
    };
    if (O.hasPart("caches"))
      Part("caches", Caches, &LowLevelBench::runCaches);
    if (O.hasPart("tick"))
      Part("tick", Tick, &LowLevelBench::runTick);
    if (O.hasPart("rinf1"))
      Part("rinf1", Rinf, &LowLevelBench::runRinf1);
    if (O.hasPart("poly"))
      Part("poly", Poly, &LowLevelBench::runPoly);
    if (O.hasPart("strided"))
      Part("strided", Strided, [](LowLevelBench &B) { return B.runStrided(); });
    if (O.hasPart("overlap"))
      Part("overlap", Overlap, &LowLevelBench::runOverlap);
    if (Strided && !Strided->SharedSkipped.empty()) {
      std::cerr << "calibrate: strided: skipped: " << Strided->SharedSkipped << "\n";
      Info.Skipped.push_back(Strided->SharedSkipped);
    }
    if (Tick && Tick->Tick1 > LO.TargetS / 100) {
      std::string Why = "the timer's resolution " + num(Tick->Tick1, 3) +
                        " s is above 1 % of a low-level sample (" + num(LO.TargetS, 3) +
                        " s): every low-level time is coarse";
      std::cerr << "calibrate: warning: " << Why << "\n";
    }
    // The cache hierarchy (reported sizes always; measured if the sweep ran)
    // whenever a part used it.
    std::vector<std::string> OwnedKeys;
    if (UsesCaches) {
      const CacheResult &H = LB.cacheResult();
      for (auto &P : H.params())
        Params.push_back(P);
      OwnedKeys = H.ownedKeys();
      if (!Caches && H.Measured)
        Caches = H;
    }
    if (Params.empty() && Results.empty() && !Clock)
      throw CalibError("nothing was measured: every part requested was skipped");
    if (Clock) {
      measureClock(Dir, O, ClockReps, *Clock);
      std::cerr << "calibrate: ICC: core clock " << num(Clock->Value, 4) << " GHz (fastest of "
                << Clock->GHz.size() << " samples in " << Clock->Batches << " batches)\n";
    }
    // Write next to --out, check that it loads with readMachine, then move.
    writeMachine(O.Out, O, Info, Results, Clock, Params, OwnedKeys);
    verifyMachine(O.Out, O, Results);
    std::vector<std::string> Plots;
    if (!O.Plot.empty())
      Plots = plotLowLevel(O.Plot, Rinf ? &*Rinf : nullptr, Poly ? &*Poly : nullptr,
                           Caches ? &*Caches : nullptr);
    if (O.Json) {
      json J = toJson(O, Info, Results);
      if (Caches)
        J["caches"] = Caches->toJson();
      if (!Info.Skipped.empty())
        J["skipped"] = Info.Skipped;
      if (Tick)
        J["parkbench"].update(Tick->toJson());
      if (Rinf)
        J["parkbench"].update(Rinf->toJson());
      if (Poly) {
        json P = Poly->toJson();
        J["memory"] = P["memory"];
        P.erase("memory");
        J["parkbench"].update(P);
      }
      if (Strided)
        J["memory"]["strided"] = Strided->toJson();
      if (Overlap)
        J["memory"]["overlap"] = Overlap->toJson();
      if (!Plots.empty())
        J["plots"] = Plots;
      std::cout << J.dump(2) << "\n";
    } else {
      printTable(std::cout, O, Info, Results);
      if (Caches)
        Caches->print(std::cout);
      if (Tick)
        Tick->print(std::cout);
      if (Rinf)
        Rinf->print(std::cout);
      if (Poly)
        Poly->print(std::cout);
      if (Strided)
        Strided->print(std::cout);
      if (Overlap)
        Overlap->print(std::cout);
      for (const std::string &P : Plots)
        std::cout << "plot: " << P << "\n";
    }
    double El = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
    if (!Info.Skipped.empty()) {
      std::cerr << "calibrate: skipped " << Info.Skipped.size() << " part(s):\n";
      for (const std::string &X : Info.Skipped)
        std::cerr << "  " << X << "\n";
    }
    std::cerr << "calibrate: wrote " << O.Out << " (" << num(El, 3) << " s)\n";
    if (O.OutIsUserDefault)
      makeDefaultMachine(O.Out);
    if (!O.Keep.empty())
      std::cerr << "calibrate: generated files kept in " << Dir.string() << "\n";
  } catch (const std::exception &E) {
    std::cerr << "segtime: error: calibrate: " << E.what() << "\n";
    if (!Dir.empty())
      std::cerr << "segtime: note: generated files kept in " << Dir.string() << "\n";
    return 2;
  }
  if (Remove) {
    std::error_code EC;
    fs::remove_all(Dir, EC);
  }
  return 0;
}
