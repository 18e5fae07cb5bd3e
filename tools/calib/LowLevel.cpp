//===- LowLevel.cpp - PARKBENCH-93 low-level parts of calibrate -----------===//
///
/// \file
/// Runs the low-level benchmark program (LowLevelSource.h), fits its output
/// with predictor/Parkbench.h and reports the results (see LowLevel.h).
///
//===----------------------------------------------------------------------===//
#include "tools/calib/LowLevel.h"
#include "tools/calib/LowLevelText.h"

#include <chrono>
#include <thread>
#include "predictor/MemoryModel.h"

#include "tools/Gnuplot.h"
#include "tools/calib/KernelSources.h"
#include "tools/calib/Process.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>
#include <tuple>
#include <unistd.h>

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace segtime {

using namespace lowlevel;

// --- caches: reported and measured ------------------------------------------------

namespace {

/// The measured level named Name with a knee, or null.
const MeasuredLevel *measuredLevel(const std::vector<MeasuredLevel> &L, const std::string &Name) {
  for (const MeasuredLevel &M : L)
    if (M.Name == Name && M.Knee)
      return &M;
  return nullptr;
}

const MeasuredLevel *dramLevel(const std::vector<MeasuredLevel> &L) {
  for (const MeasuredLevel &M : L)
    if (M.Name == "DRAM")
      return &M;
  return nullptr;
}

/// The level numbers some source reported or the sweep measured.
std::vector<int> levelNumbers(const CacheResult &R) {
  std::vector<int> N = R.Probe.levels();
  for (const MeasuredLevel &M : R.Levels)
    if (M.Knee && M.Name.size() > 1 && M.Name[0] == 'L') {
      int K = std::atoi(M.Name.c_str() + 1);
      if (std::find(N.begin(), N.end(), K) == N.end())
        N.push_back(K);
    }
  std::sort(N.begin(), N.end());
  return N;
}

} // namespace

std::vector<CacheInfo> CacheResult::hierarchy() const {
  std::vector<CacheInfo> H;
  for (int K : levelNumbers(*this)) {
    CacheInfo C;
    C.Name = "L" + std::to_string(K);
    const CacheReport *Rep = Probe.reported(K);
    const MeasuredLevel *M = measuredLevel(Levels, C.Name);
    if (M) {
      C.Size = M->Size;
      C.Source = "measured effective size" +
                 (Rep ? " (reported " + bytes(Rep->Size) + ", " + Rep->Source + ")"
                      : std::string(" (no source reports it)"));
    } else {
      C.Size = Rep->Size;
      C.Source = Rep->Ref;
    }
    for (const CacheReport *R : Probe.reports(K)) {
      if (C.Ways < 1 && R->Ways >= 1)
        C.Ways = R->Ways;
      if (C.Line < 1 && R->Line >= 1)
        C.Line = R->Line;
    }
    H.push_back(C);
  }
  return H;
}

std::vector<std::string> CacheResult::ownedKeys() const {
  std::vector<std::string> K;
  for (int L = 1; L <= 4; ++L)
    for (const char *F : {"size", "size_sysfs", "size_cpuid", "size_sysconf", "ways", "line_size"})
      K.push_back("memory.L" + std::to_string(L) + "." + F);
  if (Measured) {
    for (int L = 1; L <= 4; ++L)
      for (const char *F : {"size_effective", "latency", "bandwidth_read"})
        K.push_back("memory.L" + std::to_string(L) + "." + F);
    K.push_back("memory.DRAM.latency");
    K.push_back("memory.DRAM.bandwidth_read");
  }
  return K;
}

ParamList CacheResult::params() const {
  ParamList P;
  std::string Sweep =
      "segtime calibrate " + Date + ": capacity sweep (tools/calib/CacheSweep.c, -O2 "
      "-march=native): " + std::to_string(W.size()) + " working sets 4 KiB.." + bytes(MaxBytes) +
      ", " + std::to_string(PerOctave) + " per doubling, one buffer" +
      (HugeRequested ? " with madvise(MADV_HUGEPAGE) (" +
                           (HugeKib >= 0 ? bytes(HugeKib * 1024.0) : std::string("unknown")) +
                           " in huge pages)"
                     : std::string(", 4 KiB pages")) +
      ", " + sampling(Stat, Reps, TargetS) + (Passes > 1 ? " in " + std::to_string(Passes) + " sweeps" : "");
  // Per level, the relative spread over repetitions of the plateau's median.
  auto PlateauSpread = [&](const MeasuredLevel &M, bool Latency) {
    std::vector<double> PerRep;
    for (int R = 0; R < Reps; ++R) {
      std::vector<double> V;
      for (size_t I = 0; I < W.size(); ++I)
        if (W[I] >= M.Lo && W[I] <= M.Hi)
          V.push_back(Latency ? LatS[I][static_cast<size_t>(R)] : ReadBps[I][static_cast<size_t>(R)]);
      if (!V.empty())
        PerRep.push_back(median(V));
    }
    return relSpread(PerRep);
  };
  auto Measures = [&](const MeasuredLevel &M, const std::string &Pre) {
    std::string Win = bytes(M.Lo) + ".." + bytes(M.Hi) + " (" + std::to_string(M.Points) +
                      " points)";
    P.push_back({Pre + "latency",
                 measured(M.Latency, "s", PlateauSpread(M, true),
                          Sweep + "; dependent loads of a random pointer chase, one per 64 B "
                                  "line: median over the plateau " + Win)});
    P.push_back({Pre + "bandwidth_read",
                 measured(M.Bandwidth, "B/s", PlateauSpread(M, false),
                          Sweep + "; bytes read / s, a sum of 64-bit words: median over the "
                                  "plateau " + Win)});
  };
  for (int K : levelNumbers(*this)) {
    std::string Pre = "memory.L" + std::to_string(K) + ".";
    auto Reps0 = Probe.reports(K);
    if (!Reps0.empty()) {
      P.push_back({Pre + "size", CostEntry::of(Reps0.front()->Size, "B", "datasheet",
                                               Reps0.front()->Ref +
                                                   " (the first source that reports it, of "
                                                   "sysfs, cpuid, sysconf)")});
      bool Ways = false, Line = false;
      for (const CacheReport *R : Reps0) {
        P.push_back({Pre + "size_" + R->Source, CostEntry::of(R->Size, "B", "datasheet", R->Ref)});
        char T[32];
        if (!Ways && R->Ways >= 1) {
          std::snprintf(T, sizeof T, "%g", R->Ways);
          P.push_back({Pre + "ways", CostEntry::of(R->Ways, "ways", "datasheet",
                                                   std::string(T) + " ways: " + R->Ref)});
          Ways = true;
        }
        if (!Line && R->Line >= 1) {
          std::snprintf(T, sizeof T, "%g", R->Line);
          P.push_back({Pre + "line_size", CostEntry::of(R->Line, "B", "datasheet",
                                                        std::string(T) + " B per line: " + R->Ref)});
          Line = true;
        }
      }
    }
    if (const MeasuredLevel *M = measuredLevel(Levels, "L" + std::to_string(K))) {
      P.push_back({Pre + "size_effective",
                   measured(M->Size, "B", std::nullopt,
                            Sweep + "; the working set where the chase's latency crosses the "
                                    "geometric mean of this level's plateau (" +
                                fmt(M->Latency * 1e9, 3) +
                                " ns) and the next one's (detectLevels, "
                                "tools/calib/CacheProbe.h)")});
      Measures(*M, Pre);
    }
  }
  if (const MeasuredLevel *D = dramLevel(Levels))
    Measures(*D, "memory.DRAM.");
  return P;
}

json CacheResult::toJson() const {
  json Rep = json::array();
  for (const CacheReport &R : Probe.Reports)
    Rep.push_back({{"level", R.Level}, {"source", R.Source}, {"size_bytes", R.Size},
                   {"ways", R.Ways}, {"line_bytes", R.Line}, {"ref", R.Ref}});
  json J = {{"reported", Rep},
            {"sources_without_answer", Probe.Missing},
            {"virtualised", Probe.Virt.Flag},
            {"hypervisor_vendor", Probe.Virt.Vendor},
            {"cpus", {{"affinity", Probe.Cpus.Affinity}, {"quota", Probe.Cpus.Quota},
                      {"quota_ref", Probe.Cpus.QuotaRef}, {"usable", Probe.Cpus.usable()}}},
            {"measured", Measured}};
  if (!Measured)
    return J;
  json Pts = jsonRows(W.size(), [&](size_t I) {
    return json{{"bytes", W[I]}, {"latency_s", Lat[I]}, {"read_Bps", Read[I]},
                {"latency_samples_s", LatS[I]}, {"read_samples_Bps", ReadBps[I]}};
  });
  json Lv = json::array();
  for (const MeasuredLevel &M : Levels)
    Lv.push_back({{"level", M.Name}, {"effective_size_bytes", M.Knee ? json(M.Size) : json(nullptr)},
                  {"latency_s", M.Latency}, {"read_Bps", M.Bandwidth},
                  {"plateau_bytes", {M.Lo, M.Hi}}, {"points", M.Points}});
  J["sweep"] = {{"per_octave", PerOctave}, {"max_bytes", MaxBytes}, {"max_why", MaxWhy},
                {"huge_requested", HugeRequested}, {"huge_kib", HugeKib},
                {"levels", Lv}, {"points", Pts}};
  J["warnings"] = Warnings;
  return J;
}

void CacheResult::print(std::ostream &OS) const {
  OS << "\nCache hierarchy: reported (sysfs, cpuid, sysconf) and measured (capacity sweep";
  if (Measured)
    OS << ", " << std::to_string(W.size()) << " working sets 4 KiB.." << bytes(MaxBytes)
       << (HugeKib > 0 ? ", huge pages" : ", 4 KiB pages");
  OS << ")\n"
     << pad("level", 6, true) << pad("sysfs", 10) << pad("cpuid", 10) << pad("sysconf", 10)
     << pad("effective", 11) << pad("latency ns", 12) << pad("read GB/s", 11) << "\n";
  auto Cell = [&](int K, const char *Src) {
    for (const CacheReport *R : Probe.reports(K))
      if (R->Source == Src)
        return bytes(R->Size);
    return std::string("-");
  };
  for (int K : levelNumbers(*this)) {
    std::string N = "L" + std::to_string(K);
    const MeasuredLevel *M = nullptr;
    for (const MeasuredLevel &X : Levels)
      if (X.Name == N)
        M = &X;
    OS << pad(N, 6, true) << pad(Cell(K, "sysfs"), 10) << pad(Cell(K, "cpuid"), 10)
       << pad(Cell(K, "sysconf"), 10)
       << pad(M && M->Knee ? bytes(M->Size) : M ? ">= " + bytes(M->Hi) : "-", 11)
       << pad(M ? fmt(M->Latency * 1e9, 3) : "-", 12)
       << pad(M ? fmt(M->Bandwidth / 1e9, 3) : "-", 11) << "\n";
  }
  if (const MeasuredLevel *D = dramLevel(Levels))
    OS << pad("DRAM", 6, true) << pad("", 41) << pad(fmt(D->Latency * 1e9, 3), 12)
       << pad(fmt(D->Bandwidth / 1e9, 3), 11) << "\n";
  for (const std::string &M : Probe.Missing)
    OS << "  no answer: " << M << "\n";
  OS << "  virtualised: "
     << (Probe.Virt.Flag ? "yes (CPUID leaf 1 ECX bit 31" +
                               (Probe.Virt.Vendor.empty() ? std::string(")")
                                                          : ", hypervisor " + Probe.Virt.Vendor + ")")
                         : std::string("no (CPUID leaf 1 ECX bit 31 clear)"))
     << "; CPUs usable: " << Probe.Cpus.usable() << " (affinity " << Probe.Cpus.Affinity
     << "; " << Probe.Cpus.QuotaRef << ")\n";
}

const CacheResult &LowLevelBench::cacheResult() {
  if (!Hier) {
    Hier.emplace();
    Hier->stamp(O);
    try {
      Hier->Probe = probeMachine(O.Seams);
    } catch (const std::exception &E) {
      throw CalibError(std::string("caches: ") + E.what());
    }
  }
  return *Hier;
}

std::vector<CacheInfo> LowLevelBench::caches(const std::string &Part) {
  std::vector<CacheInfo> H = cacheResult().hierarchy();
  if (H.empty() && !Hier->Measured) {
    std::cerr << "calibrate: " << Part << ": no source reports the cache sizes: measuring them"
              << ellipsis() << "\n";
    try {
      runCaches();
    } catch (const CalibError &E) {
      throw PartSkipped(Part + ": no cache sizes (no source reports them and the capacity "
                               "sweep failed: " + E.what() + ")");
    }
    H = Hier->hierarchy();
  }
  if (H.empty()) {
    std::string Why;
    for (const std::string &M : Hier->Probe.Missing)
      Why += "; " + M;
    throw PartSkipped(Part + ": no cache sizes (" +
                      (Hier->Measured ? "the capacity sweep found no cache level" +  Why
                                      : Why.substr(2)) +
                      ")");
  }
  return H;
}

double LowLevelBench::lastLevelExtent(const std::string &Part) {
  std::vector<CacheInfo> H = caches(Part);
  double S = H.back().Size;
  for (const CacheReport &R : Hier->Probe.Reports)
    S = std::max(S, R.Size);
  return std::min(S, 32.0 * 1048576);
}

CacheResult LowLevelBench::runCaches() {
  cacheResult();
  CacheResult &R = *Hier;
  R.stamp(O);
  R.PerOctave = O.Quick ? 2 : 4;
  double Largest = 0;
  for (const CacheReport &C : R.Probe.Reports)
    Largest = std::max(Largest, C.Size);
  const double Cap = (O.Quick ? 64.0 : 256.0) * 1048576;
  if (Largest > 0) {
    R.MaxBytes = std::min(4 * Largest, Cap);
    R.MaxWhy = "4x the largest reported cache (" + bytes(Largest) + ")" +
               (4 * Largest > Cap ? ", at most " + bytes(Cap) : std::string());
  } else {
    R.MaxBytes = Cap;
    R.MaxWhy = "no reported cache size: " + bytes(Cap);
  }
  R.MaxBytes = std::max(R.MaxBytes, 16.0 * 1048576);
  long Pages = sysconf(_SC_AVPHYS_PAGES), PageSize = sysconf(_SC_PAGESIZE);
  if (Pages > 0 && PageSize > 0 && R.MaxBytes > double(Pages) * PageSize / 4) {
    R.MaxBytes = std::max(4.0 * 1048576, double(Pages) * PageSize / 4);
    R.MaxWhy += ", at most a quarter of the free memory";
  }
  R.HugeRequested = O.Huge;
  // Samples in two sweeps over all points (one with --quick), so that a slow
  // phase of the machine spoils some samples of a point, not all of them.
  int Reps = O.Quick ? std::min(O.Reps, 3) : std::min(O.Reps, 6);
  int Passes = O.Quick ? 1 : std::min(Reps, 2);
  double Target = O.Quick ? 0.2e-3 : 0.5e-3;
  R.Reps = Reps;
  R.TargetS = Target;
  R.Passes = Passes;
  fs::path Src = Dir / "sweep.c", Exe = Dir / "sweep";
  {
    std::ofstream OS(Src);
    OS << kernel::cacheSweep();
    if (!OS)
      throw CalibError("cannot write " + Src.string());
  }
  std::vector<std::string> Cc = {SEGTIME_CLANG, "-O2", "-march=native", "-w", Src.string(),
                                 "-o", Exe.string(), "-lm"};
  RunResult C = runProgram(Cc, Dir, "compile_sweep", 120);
  if (!C.ok())
    throw CalibError("caches: compiling the capacity sweep failed (" + C.status() + ")\n  " +
                     commandLine(Cc) + "\n" + tail(C.Err + C.Out));
  std::cerr << "calibrate: caches: capacity sweep, latency and read bandwidth at working sets "
               "4 KiB.."
            << bytes(R.MaxBytes) << " (" << R.MaxWhy << ")" << ellipsis() << "\n";
  std::vector<std::string> Argv = {Exe.string(), std::to_string(Reps), fmt(Target, 3),
                                   fmt(R.MaxBytes, 12), std::to_string(R.PerOctave),
                                   O.Huge ? "1" : "0", std::to_string(Passes)};
  RunResult Run = runProgram(Argv, Dir, "run_sweep", 300);
  if (!Run.ok())
    throw CalibError("caches: the capacity sweep failed (" + Run.status() + ")\n  " +
                     commandLine(Argv) + "\n" + tail(Run.Err));
  json J;
  try {
    J = json::parse(Run.Out);
  } catch (const std::exception &E) {
    throw CalibError(std::string("caches: cannot parse the capacity sweep's output: ") + E.what());
  }
  R.HugeKib = J.value("huge_kib", -1L);
  R.W.clear(), R.LatS.clear(), R.ReadBps.clear(), R.Lat.clear(), R.Read.clear();
  for (const json &P : J.at("points")) {
    R.W.push_back(P.at("bytes").get<double>());
    R.LatS.push_back(P.at("latency_s").get<std::vector<double>>());
    R.ReadBps.push_back(P.at("read_Bps").get<std::vector<double>>());
    if (R.LatS.back().size() != static_cast<size_t>(Reps) ||
        R.ReadBps.back().size() != static_cast<size_t>(Reps))
      throw CalibError("caches: a point of the sweep has the wrong number of samples");
    // Noise only slows a sample: the fastest with --stat min.
    std::vector<double> T;
    for (double B : R.ReadBps.back())
      T.push_back(1 / B);
    R.Lat.push_back(stat(R.LatS.back(), O.Stat));
    R.Read.push_back(1 / stat(T, O.Stat));
  }
  std::vector<int> Lv = R.Probe.levels();
  try {
    R.Levels = detectLevels(R.W, R.Lat, R.Read, R.PerOctave, Lv.size(), Largest);
  } catch (const std::invalid_argument &E) {
    throw CalibError(std::string("caches: ") + E.what());
  }
  R.Measured = true;
  // One line per level whose reported and measured sizes differ by more than 2x.
  R.Warnings.clear();
  for (int K : Lv) {
    const CacheReport *Rep = R.Probe.reported(K);
    std::string N = "L" + std::to_string(K);
    const MeasuredLevel *M = measuredLevel(R.Levels, N);
    std::string Line;
    if (M && (M->Size > 2 * Rep->Size || Rep->Size > 2 * M->Size))
      Line = N + ": reported " + bytes(Rep->Size) + " (" + Rep->Source + ") but measured " +
             bytes(M->Size) + " effective (" +
             fmt(std::max(M->Size / Rep->Size, Rep->Size / M->Size), 2) + "x " +
             (M->Size < Rep->Size ? "smaller" : "larger") +
             "): the memory term and the layer conditions use the measured size";
    else if (!M && Rep->Size * 2 > R.MaxBytes && Rep->Size > R.W.back())
      Line = N + ": reported " + bytes(Rep->Size) + " (" + Rep->Source +
             ") is beyond the sweep (" + bytes(R.W.back()) + "): not measured";
    else if (!M && K > 1)
      Line = N + ": reported " + bytes(Rep->Size) + " (" + Rep->Source +
             ") but the sweep shows no such level (the latency has " +
             std::to_string(R.Levels.size()) + " plateaus): the reported size is used";
    if (!Line.empty()) {
      R.Warnings.push_back(Line);
      std::cerr << "calibrate: caches: " << Line << "\n";
    }
  }
  if (R.HugeRequested && R.HugeKib == 0)
    std::cerr << "calibrate: caches: the kernel gave no huge pages (transparent huge pages "
                 "off?): TLB misses may show as a level beyond the last-level cache\n";
  return R;
}

// --- running ---------------------------------------------------------------------

std::string LowLevelBench::binary() {
  if (!Bin.empty())
    return Bin;
  fs::path Src = Dir / "park.c", Exe = Dir / "park";
  {
    std::ofstream OS(Src);
    OS << lowLevelSource();
    if (!OS)
      throw CalibError("cannot write " + Src.string());
  }
  std::vector<std::string> Cc = {SEGTIME_CLANG, "-O2", "-march=native", "-fno-builtin", "-w",
                                 Src.string(), "-o", Exe.string()};
  std::cerr << "calibrate: low-level: compiling (" << compileFlags() << ")" << ellipsis() << "\n";
  RunResult C = runProgram(Cc, Dir, "compile_park", 120);
  if (!C.ok())
    throw CalibError("compiling the low-level benchmarks failed (" + C.status() + ")\n  " +
                     commandLine(Cc) + "\n" + tail(C.Err + C.Out));
  Bin = Exe.string();
  return Bin;
}

void LowLevelBench::reportDisturbed(const std::string &Part) {
  if (Disturbed)
    std::cerr << "calibrate: " << Part << ": " << Disturbed << " of " << Samples
              << " samples lost the CPU to other processes even when taken again (busy "
                 "machine); the minimum statistic discards them\n";
  Samples = Disturbed = 0;
}

json LowLevelBench::run(const std::string &Part, const std::vector<std::string> &Args,
                        double TimeoutS, int Reps) {
  std::vector<std::string> Argv = {binary(), Part, std::to_string(Reps > 0 ? Reps : O.Reps)};
  Argv.insert(Argv.end(), Args.begin(), Args.end());
  RunResult R = runProgram(Argv, Dir, "run_" + Part, TimeoutS);
  if (!R.ok())
    throw CalibError(Part + ": the benchmark program failed (" + R.status() + ")\n  " +
                     commandLine(Argv) + "\n" + tail(R.Err));
  try {
    return json::parse(R.Out);
  } catch (const std::exception &E) {
    throw CalibError(Part + ": cannot parse the benchmark program's output: " + E.what() + "\n" +
                     tail(R.Out, 2000));
  }
}

json LowLevelBench::runChecked(const std::string &Part, const std::vector<std::string> &Args,
                               double TimeoutS, const std::string &Name, double &ProbeGHz) {
  json Best;
  double BestProbe = -1;
  for (int Try = 0; Try < 3; ++Try) {
    json J = run(Part, Args, TimeoutS);
    double P = 0;
    for (const json &G : J.value("probe_ghz", json::array()))
      P = std::max(P, G.get<double>());
    BestGHz = std::max(BestGHz, P);
    if (P > BestProbe) {
      Best = std::move(J);
      BestProbe = P;
    }
    double Ref = std::max(BestGHz, O.NominalGHz);
    if (BestProbe >= 0.8 * Ref)
      break;
    std::cerr << "calibrate: " << Name << ": ran in a slow phase of the machine (core clock "
              << fmt(BestProbe, 3) << " GHz against " << fmt(Ref, 3) << " GHz)"
              << (Try < 2 ? ": measuring again" + ellipsis() : std::string(": keeping it"))
              << "\n";
  }
  ProbeGHz = BestProbe;
  return Best;
}

double LowLevelBench::phaseProbe() {
  json J = run("phase", {}, 30, /*Reps=*/15);
  if (!J.contains("phase_s_per_point") || !J["phase_s_per_point"].is_number())
    throw CalibError("phase: no \"phase_s_per_point\" in the benchmark program's output");
  return J["phase_s_per_point"].get<double>();
}

double LowLevelBench::waitForFastPhase(const std::string &Before, double MaxWaitS) {
  if (BestPhase <= 0) // a reference from probes a second apart
    for (int K = 0; K < 4; ++K) {
      double P = phaseProbe();
      BestPhase = BestPhase > 0 ? std::min(BestPhase, P) : P;
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
  double P = phaseProbe(), Waited = 0;
  BestPhase = std::min(BestPhase, P);
  if (P > 1.25 * BestPhase)
    std::cerr << "calibrate: " << Before << ": the machine is in a slow phase (probe "
              << fmt(P * 1e9, 3) << " ns per point against " << fmt(BestPhase * 1e9, 3)
              << "): waiting up to " << fmt(MaxWaitS, 3) << " s" << ellipsis() << "\n";
  while (P > 1.25 * BestPhase && Waited < MaxWaitS) {
    std::this_thread::sleep_for(std::chrono::seconds(3));
    Waited += 3;
    P = phaseProbe();
    BestPhase = std::min(BestPhase, P);
  }
  if (P > 1.25 * BestPhase)
    std::cerr << "calibrate: " << Before << ": still slow after " << fmt(Waited, 3)
              << " s; measuring anyway (the minimum over repetitions keeps the fast samples)\n";
  return P;
}

// --- TICK1 / TICK2 ------------------------------------------------------------------

TickResult LowLevelBench::runTick() {
  TickResult T;
  T.Date = O.Date;
  long Calls = O.Quick ? 20000 : 200000;
  binary();
  std::cerr << "calibrate: TICK1: " << O.Reps << " x " << Calls << " timer reads" << ellipsis()
            << "\n";
  json J = run("tick1", {std::to_string(Calls)}, 60);
  T.GetRes = J.at("getres_s").get<double>();
  std::vector<double> Med;
  for (const json &R : J.at("tick1")) {
    double Min = R.at("min_nonzero_s").get<double>();
    if (!(Min > 0) || Min > 1)
      throw CalibError("TICK1: the timer never advanced in " + std::to_string(Calls) + " reads");
    T.Tick1PerRep.push_back(Min);
    Med.push_back(R.at("median_s").get<double>());
    T.Zeros += R.at("zeros").get<long>();
    T.Calls += R.at("calls").get<long>();
  }
  T.Tick1 = *std::min_element(T.Tick1PerRep.begin(), T.Tick1PerRep.end());
  T.ReadS = median(Med);
  T.Sleep = O.Quick ? 0.02 : 0.1;
  int SleepReps = std::min(O.Reps, 5);
  std::cerr << "calibrate: TICK2: " << SleepReps << " sleeps of " << fmt(T.Sleep, 2)
            << " s against CLOCK_REALTIME" << ellipsis() << "\n";
  json J2 = run("tick2", {fmt(T.Sleep, 3)}, 60);
  std::vector<double> Scale, CpuFrac;
  int K = 0;
  for (const json &R : J2.at("tick2")) {
    if (K++ >= SleepReps)
      break;
    T.Timer.push_back(R.at("timer_s").get<double>());
    T.Reference.push_back(R.at("realtime_s").get<double>());
    T.Raw.push_back(R.at("raw_s").get<double>());
    T.Cpu.push_back(R.at("cpu_s").get<double>());
    if (!(T.Reference.back() > 0))
      throw CalibError("TICK2: the reference clock CLOCK_REALTIME did not advance over a sleep");
    Scale.push_back(T.Timer.back() / T.Reference.back());
    CpuFrac.push_back(T.Cpu.back() / T.Timer.back());
  }
  T.Tick2 = median(T.Timer);
  T.Scale = median(Scale);
  T.WallClock = median(CpuFrac) < 0.1 && T.Tick2 >= 0.9 * T.Sleep;
  T.ScaleOk = std::fabs(T.Scale - 1) < 1e-3;
  if (!T.WallClock || !T.ScaleOk)
    std::cerr << "calibrate: warning: TICK2: the timer does not count wall-clock time correctly "
                 "(timer / reference "
              << fmt(T.Scale, 6) << ", CPU time " << fmt(median(CpuFrac) * 100, 3)
              << " % of the interval): every timing of this machine is suspect\n";
  return T;
}

ParamList TickResult::params() const {
  std::string Ref0 = "segtime calibrate " + Date + ": ";
  ParamList P;
  P.push_back({"parkbench.TICK1",
               measured(Tick1, "s", relSpread(Tick1PerRep),
                        Ref0 + "TICK1 (PARKBENCH-93 §3.2.1): smallest non-zero difference of " +
                            std::to_string(Calls) + " successive clock_gettime(CLOCK_MONOTONIC) "
                            "reads, minimum over " + std::to_string(Tick1PerRep.size()) +
                            " repetitions; clock_getres " + fmt(GetRes, 3) +
                            " s; median difference (one read) " + fmt(ReadS, 3) + " s; " +
                            std::to_string(Zeros) + " zero differences")});
  P.push_back({"parkbench.TICK2",
               measured(Tick2, "s", relSpread(Timer),
                        Ref0 + "TICK2 (PARKBENCH-93 §3.2.2): a sleep of " + fmt(Sleep, 3) +
                            " s timed by CLOCK_MONOTONIC (the benchmark timer), median of " +
                            std::to_string(Timer.size()) + "; reference CLOCK_REALTIME " +
                            fmt(median(Reference), 6) + " s, CLOCK_MONOTONIC_RAW " +
                            fmt(median(Raw), 6) + " s, process CPU time " + fmt(median(Cpu), 3) +
                            " s: " + (WallClock ? "wall-clock time" : "NOT wall-clock time") +
                            (ScaleOk ? ", scale correct" : ", WRONG scale"))});
  std::vector<double> S;
  for (size_t I = 0; I < Timer.size(); ++I)
    S.push_back(Timer[I] / Reference[I]);
  P.push_back({"parkbench.TICK2_scale",
               measured(Scale, "1", relSpread(S),
                        Ref0 + "TICK2: timer / reference (CLOCK_REALTIME) over the sleep, median "
                               "of " + std::to_string(S.size()) + "; 1 = correct scale")});
  return P;
}

json TickResult::toJson() const {
  return {{"TICK1",
           {{"value_s", Tick1}, {"per_rep_s", Tick1PerRep}, {"spread", optJson(relSpread(Tick1PerRep))},
            {"read_cost_s", ReadS}, {"getres_s", GetRes}, {"zero_differences", Zeros},
            {"reads", Calls}}},
          {"TICK2",
           {{"sleep_s", Sleep}, {"timer_s", Timer}, {"realtime_s", Reference},
            {"monotonic_raw_s", Raw}, {"cpu_s", Cpu}, {"value_s", Tick2},
            {"spread", optJson(relSpread(Timer))}, {"scale", Scale},
            {"wall_clock", WallClock}, {"scale_ok", ScaleOk}}}};
}

void TickResult::print(std::ostream &OS) const {
  OS << "\nTICK1 timer resolution (PARKBENCH-93 §3.2.1): " << fmt(Tick1 * 1e9, 3)
     << " ns (smallest non-zero step; spread " << pct(relSpread(Tick1PerRep))
     << "); one read " << fmt(ReadS * 1e9, 3) << " ns; clock_getres " << fmt(GetRes * 1e9, 3)
     << " ns\n"
     << "TICK2 wall-clock check (§3.2.2): sleep " << fmt(Sleep, 3) << " s: timer "
     << fmt(Tick2, 6) << " s, CLOCK_REALTIME " << fmt(median(Reference), 6)
     << " s (ratio " << fmt(Scale, 7) << "), CPU time " << fmt(median(Cpu), 3) << " s: "
     << (WallClock && ScaleOk ? "ok, the timer counts wall-clock time"
                              : "FAILED: not wall-clock time or wrong scale")
     << "\n";
}

// --- RINF1 -------------------------------------------------------------------------

RinfResult LowLevelBench::runRinf1() {
  RinfResult R;
  R.stamp(O);
  std::vector<CacheInfo> Caches = caches("RINF1");
  // Three vectors in half of L1: in cache, the start-up and the pipelines only.
  long NMax = std::max(64L, static_cast<long>(Caches.front().Size / 2 / 24));
  const auto &Ks = rinfKernels();
  binary();
  std::cerr << "calibrate: RINF1: " << Ks.size() << " kernels, n <= " << NMax << ", "
            << O.Reps << " samples of " << fmt(O.TargetS * 1e3, 2) << " ms" << ellipsis()
            << "\n";
  json J = runChecked("rinf1", {fmt(O.TargetS, 3), std::to_string(NMax)}, 600, "RINF1",
                      R.ProbeGHz);
  const json &Arr = J.at("rinf1");
  if (Arr.size() != Ks.size())
    throw CalibError("RINF1: expected " + std::to_string(Ks.size()) + " kernels in the output");
  for (size_t I = 0; I < Ks.size(); ++I) {
    RinfResult::Kernel K;
    K.K = Ks[I];
    for (const json &P : Arr[I].at("points")) {
      K.N.push_back(P.at("n").get<double>());
      K.Times.push_back(timesOf(P, O.Reps, "RINF1 " + K.K.Name, Samples, Disturbed));
      K.T.push_back(stat(K.Times.back(), O.Stat));
    }
    try {
      K.Fit = fitHockney(K.N, K.T, K.K.Q);
    } catch (const std::invalid_argument &E) {
      throw CalibError("RINF1 " + K.K.Name + ": " + E.what());
    }
    for (int Rep = 0; Rep < O.Reps && O.Reps > 1; ++Rep) {
      try {
        RinfFit F = fitHockney(K.N, column(K.Times, Rep), K.K.Q);
        K.RInfRep.push_back(F.RInf / 1e6);
        K.NHalfRep.push_back(F.XHalf);
      } catch (const std::invalid_argument &) {
        // a repetition too disturbed to fit: it gives no spread sample
      }
    }
    R.Kernels.push_back(std::move(K));
  }
  reportDisturbed("RINF1");
  return R;
}

ParamList RinfResult::params() const {
  ParamList P;
  for (const Kernel &K : Kernels) {
    std::string Ref = "segtime calibrate " + Date + ": RINF1 (PARKBENCH-93 §3.2.3) kernel " +
                      K.K.What + ", q = " + fmt(K.K.Q, 2) + " flop, " +
                      LowLevelBench::compileFlags() + ", n = " + std::to_string(static_cast<long>(K.N.front())) + ".." +
                      std::to_string(static_cast<long>(K.N.back())) + " (" + std::to_string(K.N.size()) + " lengths, in L1), " +
                      sampling(Stat, Reps, TargetS) + " (core clock probe " + fmt(ProbeGHz, 3) +
                      " GHz); weighted least squares on eq. 3.1 t = q (n + n_1/2) / r_inf, rms residual " +
                      pct(K.Fit.RmsRel);
    P.push_back({"parkbench.RINF1." + K.K.Name + ".n_half",
                 measured(K.Fit.XHalf, "elements", relSpread(K.NHalfRep),
                          Ref + rangeText(K.NHalfRep))});
    P.push_back({"parkbench.RINF1." + K.K.Name + ".r_inf",
                 measured(K.Fit.RInf / 1e6, "Mflop/s", relSpread(K.RInfRep),
                          Ref + rangeText(K.RInfRep, 4))});
  }
  return P;
}

json RinfResult::toJson() const {
  json J = json::array();
  for (const Kernel &K : Kernels) {
    json Pts = jsonRows(K.N.size(), [&](size_t I) {
      return json{{"n", K.N[I]},
                  {"seconds", K.T[I]},
                  {"samples_s", K.Times[I]},
                  {"mflops", K.K.Q * K.N[I] / K.T[I] / 1e6},
                  {"residual", K.Fit.Residuals[I]}};
    });
    J.push_back({{"kernel", K.K.Name}, {"statement", K.K.What}, {"q_flop", K.K.Q},
                 {"r_inf_mflops", K.Fit.RInf / 1e6}, {"n_half", K.Fit.XHalf},
                 {"t0_s", K.Fit.T0}, {"rms_residual", K.Fit.RmsRel},
                 {"r_inf_spread", optJson(relSpread(K.RInfRep))},
                 {"n_half_spread", optJson(relSpread(K.NHalfRep))},
                 {"r_inf_per_rep", K.RInfRep}, {"n_half_per_rep", K.NHalfRep},
                 {"core_clock_probe_ghz", ProbeGHz}, {"points", Pts}});
  }
  return {{"RINF1", J}};
}

void RinfResult::print(std::ostream &OS) const {
  OS << "\nRINF1 (PARKBENCH-93 eq. 3.1 t = q (n + n_1/2) / r_inf), "
     << LowLevelBench::compileFlags() << ", in L1; spread over repetitions\n"
     << pad("kernel", 8, true) << pad("q", 3) << pad("r_inf Mflop/s", 15) << pad("spread", 8)
     << pad("n_1/2", 9) << pad("spread", 8) << pad("rms resid", 11) << "  r at n = 8, 64, max\n";
  for (const Kernel &K : Kernels) {
    OS << pad(K.K.Name, 8, true) << pad(fmt(K.K.Q, 1), 3) << pad(fmt(K.Fit.RInf / 1e6), 15)
       << pad(pct(relSpread(K.RInfRep)), 8) << pad(fmt(K.Fit.XHalf, 3), 9)
       << pad(pct(relSpread(K.NHalfRep)), 8) << pad(pct(K.Fit.RmsRel), 11) << " ";
    for (double Want : {8.0, 64.0, K.N.back()}) {
      size_t Best = 0;
      for (size_t I = 0; I < K.N.size(); ++I)
        if (std::fabs(K.N[I] - Want) < std::fabs(K.N[Best] - Want))
          Best = I;
      OS << " " << fmt(K.K.Q * K.N[Best] / K.T[Best] / 1e6, 3);
    }
    OS << "\n";
  }
}

} // namespace segtime
