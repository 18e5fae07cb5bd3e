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
/// This file runs the steps in order; the steps themselves are in
/// tools/calib/ (CalibRun.h lists which file holds which).
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
#include "tools/calib/MachineCompare.h"
#include "tools/calib/KernelSources.h"
#include "tools/calib/Library.h"
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
using namespace segtime::calib;
namespace fs = std::filesystem;

namespace {

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

/// Points default.yaml, next to the machine file Path that calibrate wrote
/// into the user's machine directory, at it (a relative symbolic link): the
/// plugin and predict then use it when no machine is named. A default.yaml
/// that is not a link was put there by the user and is left alone.
void makeDefaultMachine(const fs::path &Path) {
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

/// Reports that part What could not run (E says why) and records it in
/// I.Skipped; the run goes on with the other parts.
void skipPart(RunInfo &I, const std::string &What, const std::exception &E) {
  std::string Why = E.what();
  std::cerr << "calibrate: " << What << ": skipped: " << Why << "\n";
  I.Skipped.push_back(What + " (" + Why.substr(0, Why.find('\n')) + ")");
}

/// Checks that --out's directory exists (creating the user's machine
/// directory) and that the plugin is there; sets Dir, the directory the
/// benchmarks are written to: --keep DIR, else a new temporary one (Remove
/// set). Throws CalibError.
void prepareRun(const Options &O, fs::path &Dir, bool &Remove) {
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
    return;
  }
  std::string T = (fs::temp_directory_path() / "segtime-calibrate-XXXXXX").string();
  if (!mkdtemp(T.data()))
    throw CalibError("cannot create a temporary directory: " + std::string(std::strerror(errno)));
  Dir = T;
  Remove = true;
}

/// The run's date, processor (/proc/cpuinfo), cores, compiler and command.
RunInfo runInfo(const fs::path &Dir, const std::string &Command) {
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
  return Info;
}

/// Adds the CPU identity, virtualisation flag and usable CPUs of the probe P
/// to Info, and names the suggested machine file on stderr.
void addProbe(RunInfo &Info, const MachineProbe &P) {
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

/// The benchmark program Src compiled at -Opt and run, and the levels asked
/// for solved from its timings (HLLC, INTCC with their training fit, POC).
/// Throws CalibError.
OptResult measureLevels(const Options &O, const std::string &Opt, const fs::path &Dir,
                        const fs::path &Src, const std::vector<BenchInfo> &Benches) {
  fs::path Seg;
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
  for (const LevelUnit *U : levelUnits())
    if (U->calibFit() == CalibFit::Costs && O.has(U->level()))
      R.Costs[U->level()] = solveCosts(Ms, S, O.Reps, U->level());
  if (O.Train) {
    std::cerr << "calibrate: " << Opt << ": training-set fit" << ellipsis() << "\n";
    for (auto &[L, H] : R.Costs)
      fitTraining(H, Ms, S, L, Opt);
  }
  // HLLC at -O0: the loop-carried chains' latencies (kernels/Chain.c).
  if (auto H = R.Costs.find(Level::HLLC); H != R.Costs.end() && Opt == "O0") {
    std::cerr << "calibrate: O0: loop-carried chains" << ellipsis() << "\n";
    measureChains(Dir, O, H->second);
  }
  if (O.hasFit(CalibFit::FlopRate))
    R.Poc = solvePoc(Ms, S, O.Reps);
  R.Timings = std::move(Ms);
  return R;
}

/// The results of the low-level parts (PARKBENCH-93 §3.2 and the memory
/// curves) that ran, and the machine-file parameters they give.
struct LowLevelResults {
  std::optional<CacheResult> Caches;
  std::optional<TickResult> Tick;
  std::optional<RinfResult> Rinf;
  std::optional<PolyMemResult> Poly;
  std::optional<StridedResult> Strided;
  std::optional<OverlapResult> Overlap;
  std::optional<LibraryResult> Library;
  ParamList Params;
  std::vector<std::string> OwnedKeys; ///< cache keys the file's old values of are replaced
};

/// Runs the low-level parts O asks for, in the order of the paper; a part
/// that cannot run is skipped (skipPart).
LowLevelResults runLowLevel(const Options &O, const LowLevelOptions &LO, LowLevelBench &LB,
                            RunInfo &Info, const fs::path &Dir) {
  LowLevelResults LR;
  // Runs one part, collects its parameters, says how long it took.
  bool UsesCaches = false; // a part sized its benchmarks with the cache hierarchy
  auto Part = [&](const char *Name, auto &Result, auto Run) {
    if (!O.hasPart(Name))
      return;
    auto T0 = std::chrono::steady_clock::now();
    UsesCaches |= std::string(Name) != "tick" && std::string(Name) != "library";
    try {
      LB.waitForFastPhase(Name);
      Result = std::invoke(Run, LB);
    } catch (const CalibError &E) {
      skipPart(Info, Name, E);
      return;
    }
    if constexpr (!std::is_same_v<std::decay_t<decltype(*Result)>, CacheResult>)
      for (auto &P : Result->params())
        LR.Params.push_back(P);
    std::cerr << "calibrate: " << Name << ": done ("
              << num(std::chrono::duration<double>(std::chrono::steady_clock::now() - T0)
                         .count(),
                     3)
              << " s)\n";
  };
  Part("caches", LR.Caches, &LowLevelBench::runCaches);
  Part("tick", LR.Tick, &LowLevelBench::runTick);
  Part("rinf1", LR.Rinf, &LowLevelBench::runRinf1);
  Part("poly", LR.Poly, &LowLevelBench::runPoly);
  Part("strided", LR.Strided, [](LowLevelBench &B) { return B.runStrided(); });
  Part("overlap", LR.Overlap, &LowLevelBench::runOverlap);
  Part("library", LR.Library, [&](LowLevelBench &) { return runLibrary(Dir, LO); });
  if (LR.Strided && !LR.Strided->SharedSkipped.empty()) {
    std::cerr << "calibrate: strided: skipped: " << LR.Strided->SharedSkipped << "\n";
    Info.Skipped.push_back(LR.Strided->SharedSkipped);
  }
  if (LR.Tick && LR.Tick->Tick1 > LO.TargetS / 100) {
    std::string Why = "the timer's resolution " + num(LR.Tick->Tick1, 3) +
                      " s is above 1 % of a low-level sample (" + num(LO.TargetS, 3) +
                      " s): every low-level time is coarse";
    std::cerr << "calibrate: warning: " << Why << "\n";
  }
  // The cache hierarchy (reported sizes always; measured if the sweep ran)
  // whenever a part used it.
  if (UsesCaches) {
    const CacheResult &H = LB.cacheResult();
    for (auto &P : H.params())
      LR.Params.push_back(P);
    LR.OwnedKeys = H.ownedKeys();
    if (!LR.Caches && H.Measured)
      LR.Caches = H;
  }
  return LR;
}

/// Prints the run's results on stdout: JSON (--json) or the text tables,
/// then the plots written.
void report(const Options &O, const RunInfo &Info, const std::vector<OptResult> &Results,
            const LowLevelResults &LR, const std::vector<std::string> &Plots) {
  if (O.Json) {
    json J = toJson(O, Info, Results);
    if (LR.Caches)
      J["caches"] = LR.Caches->toJson();
    if (!Info.Skipped.empty())
      J["skipped"] = Info.Skipped;
    if (LR.Tick)
      J["parkbench"].update(LR.Tick->toJson());
    if (LR.Rinf)
      J["parkbench"].update(LR.Rinf->toJson());
    if (LR.Poly) {
      json P = LR.Poly->toJson();
      J["memory"] = P["memory"];
      P.erase("memory");
      J["parkbench"].update(P);
    }
    if (LR.Strided)
      J["memory"]["strided"] = LR.Strided->toJson();
    if (LR.Overlap)
      J["memory"]["overlap"] = LR.Overlap->toJson();
    if (LR.Library)
      J["library"] = LR.Library->toJson();
    if (!Plots.empty())
      J["plots"] = Plots;
    std::cout << J.dump(2) << "\n";
    return;
  }
  printTable(std::cout, O, Info, Results);
  auto Print = [](const auto &Result) {
    if (Result)
      Result->print(std::cout);
  };
  Print(LR.Caches);
  Print(LR.Tick);
  Print(LR.Rinf);
  Print(LR.Poly);
  Print(LR.Strided);
  Print(LR.Overlap);
  Print(LR.Library);
  for (const std::string &P : Plots)
    std::cout << "plot: " << P << "\n";
}

/// One calibrate run (no --compare) with the benchmarks in Dir: levels, ICC
/// clock and low-level parts measured, machine file written and checked,
/// results reported. Throws on a fatal error.
void calibrate(const Options &O, const std::string &Command, const fs::path &Dir) {
  auto Start = std::chrono::steady_clock::now();
  std::vector<BenchInfo> Benches;
  fs::path Src = Dir / "bench.c";
  {
    std::ofstream OS(Src);
    OS << generateBenchSource(O.Unroll, Benches);
    if (!OS)
      throw CalibError("cannot write " + Src.string());
  }
  RunInfo Info = runInfo(Dir, Command);

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
  addProbe(Info, LB.cacheResult().Probe);
  // The ICC clock: three batches of samples, at the start, after the levels
  // and at the end (measureClock).
  std::optional<ClockResult> Clock;
  int ClockReps = (O.Reps + 2) / 3;
  if (O.hasFit(CalibFit::Clock)) {
    std::cerr << "calibrate: ICC: core clock (dependent adds), first batch" << ellipsis()
              << "\n";
    Clock.emplace();
    try {
      measureClock(Dir, O, ClockReps, *Clock);
    } catch (const CalibError &E) {
      skipPart(Info, levelKey(Level::ICC), E);
      Clock.reset();
    }
  }
  std::vector<OptResult> Results;
  for (const std::string &Opt : O.hasFit(CalibFit::Costs) || O.hasFit(CalibFit::FlopRate)
                                    ? O.Opts
                                    : std::vector<std::string>{}) {
    try {
      LB.waitForFastPhase(Opt + " benchmarks");
      Results.push_back(measureLevels(O, Opt, Dir, Src, Benches));
    } catch (const CalibError &E) {
      skipPart(Info, "levels " + Opt, E);
    }
  }
  if (Clock) {
    // One ICC part after the levels: announced, skipped (skipPart) if it
    // cannot run.
    auto IccPart = [&](const char *Says, const char *Name, auto Measure) {
      std::cerr << "calibrate: ICC: " << Says << ellipsis() << "\n";
      try {
        Measure();
      } catch (const CalibError &E) {
        skipPart(Info, Name, E);
      }
    };
    IccPart("core clock, second batch", "ICC clock, second batch",
            [&] { measureClock(Dir, O, ClockReps, *Clock); });
    IccPart("branch-misprediction penalty (random vs sorted data)",
            "ICC branch-misprediction penalty", [&] { measureMispredict(Dir, O, *Clock); });
    IccPart("latencies of loop-carried chains (dependent operations)", "ICC latencies",
            [&] { measureLatencies(Dir, O, *Clock); });
  }
  LowLevelResults LR = runLowLevel(O, LO, LB, Info, Dir);
  if (LR.Params.empty() && Results.empty() && !Clock)
    throw CalibError("nothing was measured: every part requested was skipped");
  if (Clock) {
    measureClock(Dir, O, ClockReps, *Clock);
    std::cerr << "calibrate: ICC: core clock " << num(Clock->Value, 4) << " GHz (fastest of "
              << Clock->GHz.size() << " samples in " << Clock->Batches << " batches)\n";
  }
  // Write next to --out, check that it loads with readMachine, then move.
  writeMachine(O.Out, O, Info, Results, Clock, LR.Params, LR.OwnedKeys);
  verifyMachine(O.Out, O, Results);
  std::vector<std::string> Plots;
  if (!O.Plot.empty())
    Plots = plotLowLevel(O.Plot, LR.Rinf ? &*LR.Rinf : nullptr, LR.Poly ? &*LR.Poly : nullptr,
                         LR.Caches ? &*LR.Caches : nullptr);
  report(O, Info, Results, LR, Plots);
  double El = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  if (!Info.Skipped.empty()) {
    std::cerr << "calibrate: skipped " << Info.Skipped.size() << " part(s):\n";
    for (const std::string &X : Info.Skipped)
      std::cerr << "  " << X << "\n";
  }
  std::cerr << "calibrate: wrote " << O.Out << " (" << num(El, 3) << " s)\n";
  if (O.OutIsUserDefault)
    makeDefaultMachine(O.Out);
}

} // namespace

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
  try {
    prepareRun(O, Dir, Remove);
    calibrate(O, Command, Dir);
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
