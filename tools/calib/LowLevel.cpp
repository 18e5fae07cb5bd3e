//===- LowLevel.cpp - PARKBENCH-93 low-level parts of calibrate -----------===//
///
/// \file
/// Runs the low-level benchmark program (LowLevelSource.h), fits its output
/// with predictor/Parkbench.h and reports the results (see LowLevel.h).
///
//===----------------------------------------------------------------------===//
#include "tools/calib/LowLevel.h"

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

namespace {

std::string fmt(double V, int Digits = 4) { return yamlNumber(V, Digits); }

std::string pct(std::optional<double> V) {
  if (!V)
    return "-";
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%.1f%%", *V * 100);
  return Buf;
}

/// Engineering text of a byte count: 48 KiB, 1.25 MiB, 384 MiB.
std::string bytes(double B) {
  const char *U[] = {"B", "KiB", "MiB", "GiB"};
  int K = 0;
  while (B >= 1024 && K < 3) {
    B /= 1024;
    ++K;
  }
  return fmt(B, 3) + " " + U[K];
}

json optJson(std::optional<double> V) { return V ? json(*V) : json(nullptr); }

/// The per-point statistic: min (noise only slows a sample down) or median.
double stat(const std::vector<double> &V, const std::string &S) {
  return S == "min" ? *std::min_element(V.begin(), V.end()) : median(V);
}

/// "min of 11 samples of >= 1 ms".
std::string sampling(const std::string &Stat, int Reps, double TargetS) {
  return (Stat == "min" ? "minimum" : "median") + std::string(" of ") + std::to_string(Reps) +
         " samples" + (TargetS > 0 ? " of >= " + fmt(TargetS * 1e3, 2) + " ms" : "");
}

/// A measured parameter entry.
CostEntry measured(double V, const std::string &Unit, std::optional<double> Spread,
                   const std::string &Ref) {
  return CostEntry::of(V, Unit, "measured", Ref, Spread);
}

/// "; per-repetition range [a, b]" for values whose relative spread is
/// undefined (a median <= 0, e.g. n_1/2 near 0).
std::string rangeText(const std::vector<double> &V, int Digits = 3) {
  if (V.size() < 2)
    return "";
  auto [Lo, Hi] = std::minmax_element(V.begin(), V.end());
  return "; per-repetition fits range " + fmt(*Lo, Digits) + " to " + fmt(*Hi, Digits);
}

std::string pad(const std::string &S, size_t W, bool Left = false) {
  if (S.size() >= W)
    return S;
  return Left ? S + std::string(W - S.size(), ' ') : std::string(W - S.size(), ' ') + S;
}

/// Samples [point][rep] from the program's {"n", "calls", "disturbed",
/// "times"} objects; adds to Samples and Disturbed.
std::vector<double> timesOf(const json &P, int Reps, const std::string &What, int &Samples,
                            int &Disturbed) {
  Samples += Reps;
  Disturbed += P.value("disturbed", 0);
  std::vector<double> T = P.at("times").get<std::vector<double>>();
  if (T.size() != static_cast<size_t>(Reps))
    throw CalibError(What + ": " + std::to_string(T.size()) + " samples, expected " +
                     std::to_string(Reps));
  for (double X : T)
    if (!(X > 0))
      throw CalibError(What + ": a sample time <= 0");
  return T;
}

std::vector<double> column(const std::vector<std::vector<double>> &M, size_t K) {
  std::vector<double> C;
  for (const auto &Row : M)
    C.push_back(Row[K]);
  return C;
}

} // namespace

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
  json Pts = json::array();
  for (size_t I = 0; I < W.size(); ++I)
    Pts.push_back({{"bytes", W[I]}, {"latency_s", Lat[I]}, {"read_Bps", Read[I]},
                   {"latency_samples_s", LatS[I]}, {"read_samples_Bps", ReadBps[I]}});
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
    json Pts = json::array();
    for (size_t I = 0; I < K.N.size(); ++I)
      Pts.push_back({{"n", K.N[I]}, {"seconds", K.T[I]}, {"samples_s", K.Times[I]},
                     {"mflops", K.K.Q * K.N[I] / K.T[I] / 1e6},
                     {"residual", K.Fit.Residuals[I]}});
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

// --- POLY1 / POLY2 and the memory hierarchy ---------------------------------------------

PolyMemResult LowLevelBench::runPoly() {
  PolyMemResult R;
  R.stamp(O);
  R.Caches = caches("poly");
  const CacheInfo &L1 = R.Caches.front();
  const CacheInfo Llc{R.Caches.back().Name, lastLevelExtent("poly"), "", 0, 0};

  auto Poly = [&](PolyResult &P, const std::string &Name, long N, const std::string &Where,
                  double TargetS) {
    P.Name = Name;
    P.N = N;
    P.Where = Where;
    binary();
    std::cerr << "calibrate: " << Name << ": Horner orders 1.." << polyOrders().back() << ", n = " << N
              << " (" << Where << ")" << ellipsis() << "\n";
    std::string Mode = Name == "POLY1" ? "poly1" : "poly2";
    std::vector<std::string> Args = Name == "POLY1"
                                        ? std::vector<std::string>{fmt(TargetS, 3), std::to_string(N)}
                                        : std::vector<std::string>{std::to_string(N)};
    json J = runChecked(Mode, Args, 600, Name, P.ProbeGHz);
    for (const json &E : J.at(Mode)) {
      double F = E.at("order").get<double>();
      P.F.push_back(F);
      P.Times.push_back(timesOf(E.at("point"), O.Reps, Name, Samples, Disturbed));
      // Horner of order k: 2k flop per element.
      P.R.push_back(2 * F * static_cast<double>(N) / stat(P.Times.back(), O.Stat));
    }
    try {
      P.Fit = fitPoly(P.F, P.R);
    } catch (const std::invalid_argument &E) {
      // POLY2 may be memory-bound at every order (time per reference flat
      // or falling in f): fitted below with r_hat_inf from POLY1.
      if (Name != "POLY2")
        throw CalibError(Name + ": " + E.what());
      P.TwoParamError = E.what();
    }
    for (int Rep = 0; Rep < O.Reps && O.Reps > 1; ++Rep) {
      std::vector<double> Rr;
      for (size_t I = 0; I < P.F.size(); ++I)
        Rr.push_back(2 * P.F[I] * static_cast<double>(N) / P.Times[I][Rep]);
      try {
        PolyFit F = fitPoly(P.F, Rr);
        P.RHatRep.push_back(F.RHatInf / 1e6);
        P.FHalfRep.push_back(F.FHalf);
      } catch (const std::invalid_argument &) {
      }
    }
    reportDisturbed(Name);
  };
  long N1 = std::max(128L, static_cast<long>(L1.Size / 32)); // x and y in half of L1
  Poly(R.Poly1, "POLY1", N1, "x, y " + bytes(16.0 * N1) + " in " + L1.Name + " " + bytes(L1.Size),
       O.TargetS);
  long N2 = std::max(100000L, static_cast<long>(Llc.Size / 4)); // x and y: 4x the LLC
  Poly(R.Poly2, "POLY2", N2,
       "x, y " + bytes(16.0 * N2) + " = 4x " + Llc.Name + " " + bytes(Llc.Size) +
           ", one evaluation per sample",
       0);
  // Out of cache the curve may stay memory-bound (r nearly proportional to f)
  // over every order: then f_1/2 lies beyond the data and the two-parameter
  // fit cannot resolve r̂_inf. The arithmetic peak is the core's, so take it
  // from POLY1 and fit f_1/2 alone.
  double MaxF = R.Poly2.F.back();
  if (!R.Poly2.TwoParamError.empty() || !(R.Poly2.Fit.FHalf > 0 && R.Poly2.Fit.FHalf <= MaxF)) {
    PolyResult &P2 = R.Poly2;
    P2.PeakFrom = "POLY1";
    P2.TwoParam = P2.Fit;
    double RHat = R.Poly1.Fit.RHatInf;
    P2.Fit = fitPolyGivenPeak(P2.F, P2.R, RHat);
    P2.RHatRep = R.Poly1.RHatRep;
    P2.FHalfRep.clear();
    for (int Rep = 0; Rep < O.Reps && O.Reps > 1; ++Rep) {
      std::vector<double> Rr;
      for (size_t I = 0; I < P2.F.size(); ++I)
        Rr.push_back(2 * P2.F[I] * static_cast<double>(P2.N) / P2.Times[I][Rep]);
      P2.FHalfRep.push_back(fitPolyGivenPeak(P2.F, Rr, RHat).FHalf);
    }
    std::cerr << "calibrate: POLY2: memory-bound at every order (two-parameter fit: "
              << (P2.TwoParamError.empty()
                      ? "f_1/2 " + fmt(P2.TwoParam.FHalf, 3) + " > " + fmt(MaxF, 3)
                      : P2.TwoParamError)
              << "): r_hat_inf taken from POLY1, f_1/2 fitted alone\n";
  }

  double MaxB = 8 * Llc.Size;
  std::cerr << "calibrate: memory: load, copy, triad over working sets 4 KiB.." << bytes(MaxB)
            << ellipsis() << "\n";
  json J = runChecked("mem", {fmt(O.TargetS, 3), fmt(MaxB, 12)}, 900, "memory", R.MemProbeGHz);
  const char *Names[] = {"load", "copy", "triad"};
  const char *Whats[] = {"S = S + A(I) (reassociated sum)", "B(I) = A(I)",
                         "A(I) = B(I) + S * C(I)"};
  std::vector<CacheLevel> Levels;
  for (const CacheInfo &C : R.Caches)
    Levels.push_back({C.Name, C.Size});
  Levels.push_back({"DRAM", 0});
  const json &Arr = J.at("mem");
  if (Arr.size() != 3)
    throw CalibError("memory: expected 3 kernels in the output");
  for (size_t K = 0; K < 3; ++K) {
    MemKernel M;
    M.Name = Names[K];
    M.What = Whats[K];
    M.BytesPerElement = Arr[K].at("bytes_per_element").get<int>();
    for (const json &P : Arr[K].at("points")) {
      double W = P.at("n").get<double>() * M.BytesPerElement;
      M.W.push_back(W);
      M.Times.push_back(timesOf(P, O.Reps, "memory " + M.Name, Samples, Disturbed));
      M.Bw.push_back(W / stat(M.Times.back(), O.Stat));
    }
    try {
      M.Plateaus = bandwidthPlateaus(M.W, M.Bw, Levels);
      M.PlateauRep.assign(Levels.size(), {});
      for (int Rep = 0; Rep < O.Reps && O.Reps > 1; ++Rep) {
        std::vector<double> B;
        for (size_t I = 0; I < M.W.size(); ++I)
          B.push_back(M.W[I] / M.Times[I][Rep]);
        auto Pl = bandwidthPlateaus(M.W, B, Levels);
        for (size_t L = 0; L < Pl.size(); ++L)
          M.PlateauRep[L].push_back(Pl[L].Bandwidth);
      }
    } catch (const std::invalid_argument &E) {
      throw CalibError("memory " + M.Name + ": " + E.what());
    }
    R.Mem.push_back(std::move(M));
  }
  reportDisturbed("memory");
  return R;
}

/// Appends the points of curve M as memory.<Curve>.NN.working_set (B, as
/// chosen by the benchmark) and .bandwidth (B/s, measured, Ref; spread over
/// the repetitions' rates).
static void curveParams(ParamList &P, const MemKernel &M, const std::string &Curve,
                        const std::string &Ref) {
  for (size_t I = 0; I < M.W.size() && I < M.Bw.size(); ++I) {
    P.push_back({memoryCurveKey(I, "working_set", Curve),
                 CostEntry::of(M.W[I], "B", "derived",
                               "working set of point " + std::to_string(I) + " of the " +
                                   M.Name + " sweep (chosen by the benchmark)")});
    std::vector<double> Rates; // per repetition, 1/time: the spread is a ratio
    if (I < M.Times.size())
      for (double T : M.Times[I])
        if (T > 0)
          Rates.push_back(1 / T);
    P.push_back({memoryCurveKey(I, "bandwidth", Curve),
                 measured(M.Bw[I], "B/s", relSpread(Rates), Ref)});
  }
}

ParamList PolyMemResult::params() const {
  ParamList P;
  for (const PolyResult *Pr : {&Poly1, &Poly2}) {
    std::string Ref = "segtime calibrate " + Date + ": " + Pr->Name +
                      " (PARKBENCH-93 §3.2.4) Horner polynomials of order f = 1.." +
                      std::to_string(polyOrders().back()) + " (" + std::to_string(polyOrders().size()) + " orders; 2f flop per 2 memory references), " +
                      LowLevelBench::compileFlags() + ", n = " + std::to_string(Pr->N) + " (" +
                      Pr->Where + "), " +
                      sampling(Stat, Reps, Pr->Name == "POLY1" ? TargetS : 0) +
                      " (core clock probe " + fmt(Pr->ProbeGHz, 3) + " GHz); least squares on eq. 3.3 r = r_hat / (1 + f_1/2 / f), rms residual " +
                      pct(Pr->Fit.RmsRel);
    if (!Pr->PeakFrom.empty()) {
      Ref += " with r_hat_inf from " + Pr->PeakFrom + " (the curve stays memory-bound: " +
             (Pr->TwoParamError.empty()
                  ? "the two-parameter fit put f_1/2 at " + fmt(Pr->TwoParam.FHalf, 3) +
                        ", beyond f = " + fmt(Pr->F.back(), 3) + ", r_hat_inf " +
                        fmt(Pr->TwoParam.RHatInf / 1e6, 4) + " Mflop/s, undetermined)"
                  : "no two-parameter fit: " + Pr->TwoParamError + ")");
      CostEntry E;
      E.Value = Pr->Fit.RHatInf / 1e6;
      E.Unit = "Mflop/s";
      E.Provenance = "derived";
      E.Spread = relSpread(Pr->RHatRep);
      E.Ref = "= parkbench." + Pr->PeakFrom + ".r_inf (the arithmetic peak): " + Ref;
      P.push_back({"parkbench." + Pr->Name + ".r_inf", E});
    } else {
      P.push_back({"parkbench." + Pr->Name + ".r_inf",
                   measured(Pr->Fit.RHatInf / 1e6, "Mflop/s", relSpread(Pr->RHatRep),
                            Ref + rangeText(Pr->RHatRep, 4))});
    }
    P.push_back({"parkbench." + Pr->Name + ".f_half",
                 measured(Pr->Fit.FHalf, "flop/mref", relSpread(Pr->FHalfRep),
                          Ref + rangeText(Pr->FHalfRep))});
  }
  // memory.<level>.bandwidth is the triad's; the other kernels get a suffix.
  for (const MemKernel &M : Mem)
    for (size_t L = 0; L < M.Plateaus.size(); ++L) {
      const Plateau &Pl = M.Plateaus[L];
      std::string Key = "memory." + Pl.Level + ".bandwidth" + (M.Name == "triad" ? "" : "_" + M.Name);
      std::string Window = bytes(Pl.Lo) + ".." + (std::isfinite(Pl.Hi) ? bytes(Pl.Hi) : bytes(M.W.back()));
      P.push_back(
          {Key, measured(Pl.Bandwidth, "B/s", relSpread(M.PlateauRep[L]),
                         "segtime calibrate " + Date + ": " + M.Name + " kernel " + M.What + ", " +
                             LowLevelBench::compileFlags() + ", bytes loaded + stored (" +
                             std::to_string(M.BytesPerElement) +
                             " B per element; write-allocate traffic not counted) / time, " +
                             sampling(Stat, Reps, TargetS) + " (core clock probe " +
                             fmt(MemProbeGHz, 3) + " GHz); plateau: median of the " +
                             std::to_string(Pl.Points.size()) + " working sets in " + Window +
                             " (flatness " + pct(Pl.Flatness) + ")")});
    }
  // The triad's whole curve, for the ICC memory term's bandwidth at a given
  // footprint (predictor/MemoryModel.h): a VM's share of a large L3 can be
  // well below the plateau found inside the datasheet size.
  for (const MemKernel &M : Mem)
    if (M.Name == "triad")
      curveParams(P, M, "curve",
                  "segtime calibrate " + Date + ": triad kernel " + M.What +
                      ", bytes loaded + stored / time at this working set, " +
                      sampling(Stat, Reps, TargetS));
  return P;
}

json PolyMemResult::toJson() const {
  json J;
  for (const PolyResult *Pr : {&Poly1, &Poly2}) {
    json Pts = json::array();
    for (size_t I = 0; I < Pr->F.size(); ++I)
      Pts.push_back({{"f", Pr->F[I]}, {"mflops", Pr->R[I] / 1e6}, {"samples_s", Pr->Times[I]},
                     {"residual", Pr->Fit.Residuals[I]}});
    J[Pr->Name] = {{"n", Pr->N}, {"where", Pr->Where}, {"r_inf_mflops", Pr->Fit.RHatInf / 1e6},
                   {"f_half", Pr->Fit.FHalf}, {"rms_residual", Pr->Fit.RmsRel},
                   {"r_inf_spread", optJson(relSpread(Pr->RHatRep))},
                   {"f_half_spread", optJson(relSpread(Pr->FHalfRep))},
                   {"r_inf_per_rep", Pr->RHatRep}, {"f_half_per_rep", Pr->FHalfRep},
                   {"core_clock_probe_ghz", Pr->ProbeGHz}, {"points", Pts}};
    if (!Pr->PeakFrom.empty()) {
      J[Pr->Name]["r_inf_from"] = Pr->PeakFrom;
      if (Pr->TwoParamError.empty())
        J[Pr->Name]["two_parameter_fit"] = {{"r_inf_mflops", Pr->TwoParam.RHatInf / 1e6},
                                            {"f_half", Pr->TwoParam.FHalf},
                                            {"rms_residual", Pr->TwoParam.RmsRel}};
      else
        J[Pr->Name]["two_parameter_fit"] = {{"error", Pr->TwoParamError}};
    }
  }
  json C = json::array();
  for (const CacheInfo &Ci : Caches)
    C.push_back({{"level", Ci.Name}, {"size_bytes", Ci.Size}, {"source", Ci.Source}});
  J["memory"]["caches"] = C;
  J["memory"]["core_clock_probe_ghz"] = MemProbeGHz;
  for (const MemKernel &M : Mem) {
    json Pl = json::array();
    for (size_t L = 0; L < M.Plateaus.size(); ++L)
      Pl.push_back({{"level", M.Plateaus[L].Level}, {"bandwidth_Bps", M.Plateaus[L].Bandwidth},
                    {"spread", optJson(relSpread(M.PlateauRep[L]))},
                    {"window_bytes", {M.Plateaus[L].Lo,
                                      std::isfinite(M.Plateaus[L].Hi) ? json(M.Plateaus[L].Hi)
                                                                      : json(nullptr)}},
                    {"points", M.Plateaus[L].Points.size()},
                    {"flatness", M.Plateaus[L].Flatness}});
    json Curve = json::array();
    for (size_t I = 0; I < M.W.size(); ++I)
      Curve.push_back({{"bytes", M.W[I]}, {"bandwidth_Bps", M.Bw[I]}, {"samples_s", M.Times[I]}});
    J["memory"]["kernels"][M.Name] = {{"loop", M.What},
                                      {"bytes_per_element", M.BytesPerElement},
                                      {"plateaus", Pl},
                                      {"curve", Curve}};
  }
  return J;
}

void PolyMemResult::print(std::ostream &OS) const {
  OS << "\nPOLY1 / POLY2 (PARKBENCH-93 eq. 3.3 r = r_hat / (1 + f_1/2 / f)), Horner f = 1.."
     << polyOrders().back() << "\n"
     << pad("", 7, true) << pad("r_hat Mflop/s", 15) << pad("spread", 8)
     << pad("f_1/2", 8) << pad("spread", 8) << pad("rms resid", 11) << "  where\n";
  for (const PolyResult *Pr : {&Poly1, &Poly2})
    OS << pad(Pr->Name, 7, true) << pad(fmt(Pr->Fit.RHatInf / 1e6), 15)
       << pad(pct(relSpread(Pr->RHatRep)), 8) << pad(fmt(Pr->Fit.FHalf, 3), 8)
       << pad(pct(relSpread(Pr->FHalfRep)), 8) << pad(pct(Pr->Fit.RmsRel), 11) << "  n = "
       << Pr->N << ", " << Pr->Where
       << (Pr->PeakFrom.empty() ? "" : "; r_hat from " + Pr->PeakFrom + " (memory-bound at every f)")
       << "\n";
  OS << "\nMemory bandwidth, GB/s (bytes loaded + stored / s; plateau medians; spread over "
        "repetitions)\n"
     << pad("level", 6, true) << pad("size", 11);
  for (const MemKernel &M : Mem)
    OS << pad(M.Name, 9) << pad("spread", 8);
  OS << "\n";
  for (size_t L = 0; L < Mem.front().Plateaus.size(); ++L) {
    const std::string &Lv = Mem.front().Plateaus[L].Level;
    std::string Size = L < Caches.size() ? bytes(Caches[L].Size) : "-";
    OS << pad(Lv, 6, true) << pad(Size, 11);
    for (const MemKernel &M : Mem)
      OS << pad(fmt(M.Plateaus[L].Bandwidth / 1e9, 3), 9) << pad(pct(relSpread(M.PlateauRep[L])), 8);
    OS << "\n";
  }
}

// --- strided walk ----------------------------------------------------------------------

StridedResult LowLevelBench::runStrided(bool Shared) {
  StridedResult R;
  R.stamp(O);
  std::vector<CacheInfo> Caches = caches("strided");
  // From a quarter of L2 (lines from L2) to 4x the last-level cache (DRAM).
  double MinB = std::max(65536.0, Caches.size() > 1 ? Caches[1].Size / 4 : Caches[0].Size);
  double MaxB = std::max(4 * lastLevelExtent("strided"), 4 * MinB);
  if (Shared && cacheResult().Probe.Cpus.usable() < 2) {
    const CpuBudget &B = Hier->Probe.Cpus;
    R.SharedSkipped = "strided_shared2: one CPU usable (affinity " + std::to_string(B.Affinity) +
                      "; " + B.QuotaRef + "): no second process to share the caches with";
    Shared = false;
  }
  binary();
  for (const char *Mode : {"strided", "strided2"}) {
    bool Two = std::string(Mode) == "strided2";
    if (Two && !Shared)
      break;
    MemKernel M;
    M.Name = Two ? "strided_shared2" : "strided";
    M.What = std::string("s += a[r][c] over 4 KiB rows r, one access per 64 B line, columns c "
                         "of lines even ones first") +
             (Two ? ", while a second process on the next CPU walks its own buffer" : "");
    std::cerr << "calibrate: strided: line rate of a 4 KiB-stride walk over " << bytes(MinB)
              << ".." << bytes(MaxB) << (Two ? ", two processes" : ", one process")
              << ellipsis() << "\n";
    double Probe = 0;
    json J = runChecked(Mode, {fmt(O.TargetS, 3), fmt(MinB, 12), fmt(MaxB, 12)}, 900,
                        M.Name, Probe);
    R.ProbeGHz.push_back(Probe);
    const json &Arr = J.at(Mode);
    if (Arr.size() != 1)
      throw CalibError(std::string(Mode) + ": expected one kernel in the output");
    M.BytesPerElement = Arr[0].at("bytes_per_element").get<int>();
    for (const json &P : Arr[0].at("points")) {
      double W = P.at("n").get<double>() * M.BytesPerElement;
      M.W.push_back(W);
      M.Times.push_back(timesOf(P, O.Reps, M.Name, Samples, Disturbed));
      M.Bw.push_back(W / stat(M.Times.back(), O.Stat));
    }
    if (M.W.empty())
      throw CalibError(std::string(Mode) + ": no points measured");
    reportDisturbed(M.Name);
    R.Curves.push_back(std::move(M));
  }
  return R;
}

ParamList StridedResult::params() const {
  ParamList P;
  for (size_t K = 0; K < Curves.size(); ++K) {
    const MemKernel &M = Curves[K];
    curveParams(P, M, M.Name,
                "segtime calibrate " + Date + ": " + M.What + ", " +
                    LowLevelBench::compileFlags() +
                    ", 64 B x lines / time at this footprint (every access a new line, "
                    "no prefetch across 4 KiB pages), " +
                    sampling(Stat, Reps, TargetS) + " (core clock probe " +
                    fmt(K < ProbeGHz.size() ? ProbeGHz[K] : 0, 3) + " GHz)");
  }
  return P;
}

json StridedResult::toJson() const {
  json J;
  for (size_t K = 0; K < Curves.size(); ++K) {
    const MemKernel &M = Curves[K];
    json Curve = json::array();
    for (size_t I = 0; I < M.W.size(); ++I)
      Curve.push_back({{"bytes", M.W[I]}, {"bandwidth_Bps", M.Bw[I]}, {"samples_s", M.Times[I]}});
    J[M.Name] = {{"loop", M.What},
                 {"core_clock_probe_ghz", K < ProbeGHz.size() ? ProbeGHz[K] : 0},
                 {"curve", Curve}};
  }
  return J;
}

void StridedResult::print(std::ostream &OS) const {
  OS << "\nStrided walk (4 KiB stride, one access per line), GB/s of lines (" << Stat
     << " of " << Reps << " samples; spread over repetitions)\n"
     << pad("footprint", 11, true);
  for (const MemKernel &M : Curves)
    OS << pad(M.Name, 17) << pad("spread", 8);
  OS << "\n";
  for (size_t I = 0; I < Curves.front().W.size(); ++I) {
    OS << pad(bytes(Curves.front().W[I]), 11, true);
    for (const MemKernel &M : Curves) {
      std::vector<double> Rates;
      for (double T : M.Times[I])
        if (T > 0)
          Rates.push_back(1 / T);
      OS << pad(I < M.Bw.size() ? fmt(M.Bw[I] / 1e9, 3) : "-", 17) << pad(pct(relSpread(Rates)), 8);
    }
    OS << "\n";
  }
}

// --- overlap of core and memory ---------------------------------------------------------

OverlapResult LowLevelBench::runOverlap() {
  OverlapResult R;
  R.stamp(O);
  std::vector<CacheInfo> Caches = caches("overlap");
  double L1 = Caches.front().Size, L2 = Caches.size() > 1 ? Caches[1].Size : 4 * L1;
  double Last = std::max(lastLevelExtent("overlap"), 2 * L2);
  R.W = {L1 / 4, L2 / 2, 2 * L2};
  if (Caches.size() > 2)
    R.W.push_back(Last / 4);
  R.W.push_back(4 * Last);
  binary();
  std::vector<std::string> Args{fmt(O.TargetS, 3)};
  for (double W : R.W)
    Args.push_back(fmt(W, 12));
  std::cerr << "calibrate: overlap: chains of 1/4, 1, 2, 4 multiply-adds per element over 1 "
               "and 2 streams at "
            << R.W.size() << " footprints, " << bytes(R.W.front()) << ".." << bytes(R.W.back())
            << ellipsis() << "\n";
  json J = runChecked("overlap", Args, 900, "overlap", R.ProbeGHz);
  for (const json &K : J.at("overlap")) {
    OverlapResult::Kernel Kn;
    Kn.Streams = K.at("streams").get<int>();
    Kn.Chain = K.at("chain").get<double>();
    const json &Pts = K.at("points");
    if (Pts.size() != R.W.size())
      throw CalibError("overlap: " + std::to_string(Pts.size()) + " footprints, expected " +
                       std::to_string(R.W.size()));
    for (const json &P : Pts) {
      Kn.N.push_back(P.at("n").get<double>());
      Kn.Times.push_back(timesOf(P, O.Reps, "overlap", Samples, Disturbed));
    }
    R.Kernels.push_back(std::move(Kn));
  }
  reportDisturbed("overlap");
  for (size_t J2 = 1; J2 < R.W.size(); ++J2) {
    std::vector<double> Tc, Tm, T;
    R.points(J2, -1, Tc, Tm, T);
    R.Fits.push_back(fitOverlap(Tc, Tm, T));
    std::vector<double> Ps;
    for (int Rep = 0; Rep < O.Reps; ++Rep) {
      R.points(J2, Rep, Tc, Tm, T);
      Ps.push_back(fitOverlap(Tc, Tm, T).P);
    }
    R.PRep.push_back(std::move(Ps));
  }
  return R;
}

void OverlapResult::points(size_t J, int Rep, std::vector<double> &Tc, std::vector<double> &Tm,
                           std::vector<double> &T) const {
  Tc.clear(), Tm.clear(), T.clear();
  auto At = [&](const Kernel &K, size_t I) {
    return Rep >= 0 ? K.Times[I][static_cast<size_t>(Rep)] : stat(K.Times[I], Stat);
  };
  for (const Kernel &K : Kernels) {
    if (K.Chain == 0)
      continue;
    const Kernel *Ref = nullptr;
    for (const Kernel &X : Kernels)
      if (X.Chain == 0 && X.Streams == K.Streams)
        Ref = &X;
    if (!Ref)
      throw CalibError("overlap: no reference kernel over " + std::to_string(K.Streams) +
                       " streams");
    Tc.push_back(At(K, 0) / K.N[0] * K.N[J]);
    Tm.push_back(At(*Ref, J) / Ref->N[J] * K.N[J]);
    T.push_back(At(K, J));
  }
}

ParamList OverlapResult::params() const {
  ParamList P;
  for (size_t I = 0; I < Fits.size(); ++I) {
    const OverlapFit &F = Fits[I];
    P.push_back({memoryCurveKey(I, "working_set", "overlap"),
                 CostEntry::of(W[I + 1], "B", "derived",
                               "footprint of point " + std::to_string(I) +
                                   " of the overlap benchmark (chosen by the benchmark)")});
    P.push_back({memoryCurveKey(I, "exponent", "overlap"),
                 measured(F.P, "1", relSpread(PRep[I]),
                          "segtime calibrate " + Date +
                              ": p of t = (t_core^p + t_mem^p)^(1/p) (predictor/Overlap.h) "
                              "by least squares on ln t over chains of 1/4, 1, 2, 4 dependent "
                              "multiply-adds per element over 1 and 2 streams at this "
                              "footprint; t_core their time per element at " +
                              bytes(W[0]) + " (in L1), t_mem the same streams into 8 "
                              "independent sums; " +
                              LowLevelBench::compileFlags() + ", " +
                              sampling(Stat, Reps, TargetS) + " (core clock probe " +
                              fmt(ProbeGHz, 3) + " GHz); rms residual " + pct(F.RmsRel) +
                              " (max, full overlap: " + pct(F.RmsMax) + "; sum, none: " +
                              pct(F.RmsSum) + ")" + rangeText(PRep[I]))});
  }
  return P;
}

json OverlapResult::toJson() const {
  json Pts = json::array();
  for (size_t I = 0; I < Fits.size(); ++I) {
    std::vector<double> Tc, Tm, T;
    points(I + 1, -1, Tc, Tm, T);
    json Ks = json::array();
    size_t C = 0;
    for (const Kernel &K : Kernels)
      if (K.Chain > 0) {
        Ks.push_back({{"streams", K.Streams}, {"chain", K.Chain}, {"n", K.N[I + 1]},
                      {"t_core_s", Tc[C]}, {"t_mem_s", Tm[C]}, {"measured_s", T[C]},
                      {"residual", Fits[I].Residuals[C]}});
        ++C;
      }
    Pts.push_back({{"working_set_bytes", W[I + 1]}, {"exponent", Fits[I].P},
                   {"exponent_per_rep", PRep[I]}, {"rms_residual", Fits[I].RmsRel},
                   {"rms_residual_max", Fits[I].RmsMax}, {"rms_residual_sum", Fits[I].RmsSum},
                   {"kernels", Ks}});
  }
  return {{"core_clock_probe_ghz", ProbeGHz}, {"in_l1_bytes", W.front()}, {"points", Pts}};
}

void OverlapResult::print(std::ostream &OS) const {
  OS << "\nOverlap of core and memory time, t = (t_core^p + t_mem^p)^(1/p) (" << Stat << " of "
     << Reps << " samples)\n"
     << pad("footprint", 11, true) << pad("p", 8) << pad("spread", 8) << pad("rms resid", 11)
     << pad("max", 8) << pad("sum", 8) << "\n";
  for (size_t I = 0; I < Fits.size(); ++I)
    OS << pad(bytes(W[I + 1]), 11, true) << pad(fmt(Fits[I].P, 3), 8)
       << pad(pct(relSpread(PRep[I])), 8) << pad(pct(Fits[I].RmsRel), 11)
       << pad(pct(Fits[I].RmsMax), 8) << pad(pct(Fits[I].RmsSum), 8) << "\n";
}

// --- plots ---------------------------------------------------------------------------------

namespace {

/// Runs gnuplot (Gnuplot.h) for Dir/Name.png and .svg; CalibError if it fails.
std::vector<std::string> gnuplot(const fs::path &Dir, const std::string &Name,
                                 const std::string &Setup, const std::string &Plot) {
  try {
    return gnuplotImages(Dir.string(), Name, Setup, Plot);
  } catch (const std::runtime_error &E) {
    throw CalibError(E.what());
  }
}

} // namespace

std::vector<std::string> plotLowLevel(const std::string &DirS, const RinfResult *Rinf,
                                      const PolyMemResult *Poly, const CacheResult *Caches) {
  fs::path Dir = fs::absolute(DirS);
  std::error_code EC;
  fs::create_directories(Dir, EC);
  if (EC)
    throw CalibError("--plot: cannot create directory '" + DirS + "': " + EC.message());
  std::vector<std::string> Out;
  // The data files are named by absolute paths in the plot commands.
  if (Rinf) {
    std::ofstream Dat(Dir / "rinf1.dat");
    Dat.precision(8);
    std::string Plot = "plot ";
    for (size_t K = 0; K < Rinf->Kernels.size(); ++K) {
      const auto &Kn = Rinf->Kernels[K];
      Dat << "# " << Kn.K.Name << ": n t_s\n";
      for (size_t I = 0; I < Kn.N.size(); ++I)
        Dat << Kn.N[I] << " " << Kn.T[I] * 1e9 << "\n";
      Dat << "\n\n";
      Plot += (K ? ", \\\n  " : "") + gpString((Dir / "rinf1.dat").string()) + " index " +
              std::to_string(K) + " using 1:2 with points pt 7 ps 0.7 lc " + std::to_string(K + 1) +
              " title " + gpString(Kn.K.Name + " measured") + ", " + fmt(Kn.Fit.T0 * 1e9, 6) +
              " + x * " + fmt(Kn.K.Q / Kn.Fit.RInf * 1e9, 6) + " with lines lc " +
              std::to_string(K + 1) + " title " +
              gpString(Kn.K.Name + " fit: r_∞ = " + fmt(Kn.Fit.RInf / 1e6, 4) + " Mflop/s, n_{1/2} = " +
                      fmt(Kn.Fit.XHalf, 3));
    }
    Plot += "\n";
    Dat.close();
    auto P = gnuplot(Dir, "rinf1",
                     "set title \"RINF1: t = q (n + n_{1/2}) / r_∞ (PARKBENCH-93 eq. 3.1)\"\n"
                     "set xlabel \"vector length n\"\nset ylabel \"time per call (ns)\"\n"
                     "set key left top\nset grid\nset xrange [0:*]\nset yrange [0:*]\n",
                     Plot);
    Out.insert(Out.end(), P.begin(), P.end());
  }
  if (Poly) {
    std::ofstream Dat(Dir / "bandwidth.dat");
    Dat.precision(8);
    std::string Plot = "plot ";
    for (size_t K = 0; K < Poly->Mem.size(); ++K) {
      const MemKernel &M = Poly->Mem[K];
      Dat << "# " << M.Name << ": bytes GB/s\n";
      for (size_t I = 0; I < M.W.size(); ++I)
        Dat << M.W[I] << " " << M.Bw[I] / 1e9 << "\n";
      Dat << "\n\n";
      Plot += (K ? ", \\\n  " : "") + gpString((Dir / "bandwidth.dat").string()) + " index " +
              std::to_string(K) + " using 1:2 with linespoints pt 7 ps 0.6 lw 2 title " +
              gpString(M.Name + " (" + M.What + ")");
    }
    Plot += "\n";
    Dat.close();
    std::string Setup = "set title \"bandwidth against working set (-O2 -march=native)\"\n"
                        "set xlabel \"working set (bytes)\"\nset ylabel \"GB/s loaded + stored\"\n"
                        "set logscale x 2\nset format x \"2^{%L}\"\nset yrange [0:*]\n"
                        "set key right center\nset grid\n";
    for (const CacheInfo &C : Poly->Caches)
      Setup += "set arrow from " + fmt(C.Size, 8) + ", graph 0 to " + fmt(C.Size, 8) +
               ", graph 1 nohead dt 2 lc rgb \"gray40\"\nset label " +
               gpString(C.Name + " " + bytes(C.Size)) + " at " + fmt(C.Size, 8) +
               ", graph 0.97 right offset -0.5,0\n";
    auto P = gnuplot(Dir, "bandwidth", Setup, Plot);
    Out.insert(Out.end(), P.begin(), P.end());
  }
  if (Caches && Caches->Measured) {
    std::ofstream Dat(Dir / "caches.dat");
    Dat.precision(6);
    Dat << "# bytes latency_ns read_GBps\n";
    for (size_t I = 0; I < Caches->W.size(); ++I)
      Dat << Caches->W[I] << " " << Caches->Lat[I] * 1e9 << " " << Caches->Read[I] / 1e9 << "\n";
    Dat.close();
    std::string D = gpString((Dir / "caches.dat").string());
    std::string Setup =
        "set title \"capacity sweep: random pointer chase and read bandwidth\"\n"
        "set xlabel \"working set (bytes)\"\nset ylabel \"latency (ns per dependent load)\"\n"
        "set y2label \"read bandwidth (GB/s)\"\nset logscale x 2\nset logscale y 10\n"
        "set format x \"2^{%L}\"\nset ytics nomirror\nset y2tics\nset y2range [0:*]\n"
        "set key left center\nset grid\n";
    // Detected levels: the effective size (solid), the reported size (dashed).
    double Y = 0.97;
    for (const MeasuredLevel &M : Caches->Levels) {
      if (!M.Knee)
        continue;
      Setup += "set arrow from " + fmt(M.Size, 8) + ", graph 0 to " + fmt(M.Size, 8) +
               ", graph 1 nohead lw 2 lc rgb \"dark-red\"\nset label " +
               gpString(M.Name + " " + bytes(M.Size) + " (" + fmt(M.Latency * 1e9, 3) + " ns)") +
               " at " + fmt(M.Size, 8) + ", graph " + fmt(Y, 3) + " right offset -0.5,0 tc rgb \"dark-red\"\n";
      Y -= 0.05;
    }
    for (const CacheInfo &C : Caches->hierarchy()) {
      const CacheReport *R = Caches->Probe.reported(std::atoi(C.Name.c_str() + 1));
      if (!R || R->Size > Caches->W.back())
        continue;
      Setup += "set arrow from " + fmt(R->Size, 8) + ", graph 0 to " + fmt(R->Size, 8) +
               ", graph 1 nohead dt 2 lc rgb \"gray40\"\nset label " +
               gpString(C.Name + " reported " + bytes(R->Size)) + " at " + fmt(R->Size, 8) +
               ", graph 0.05 left offset 0.5,0 tc rgb \"gray40\"\n";
    }
    std::string Plot = "plot " + D + " using 1:2 axes x1y1 with linespoints pt 7 ps 0.5 lw 2 "
                       "title \"latency (ns)\", \\\n  " + D +
                       " using 1:3 axes x1y2 with linespoints pt 5 ps 0.5 lw 2 "
                       "title \"read bandwidth (GB/s)\"\n";
    auto P = gnuplot(Dir, "caches", Setup, Plot);
    Out.insert(Out.end(), P.begin(), P.end());
  }
  return Out;
}

} // namespace segtime
