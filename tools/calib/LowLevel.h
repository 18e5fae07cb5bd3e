//===- LowLevel.h - PARKBENCH-93 low-level parts of calibrate ----*- C++ -*-===//
///
/// \file
/// The low-level parts of `segtime calibrate` (PARKBENCH-93 §3.2), each
/// runnable alone (`--level caches`, `tick`, `rinf1`, `poly`, `strided`,
/// `overlap`):
///
///  - caches: the cache hierarchy from every source (CacheProbe.h: sysfs,
///           CPUID, sysconf) and measured by the capacity sweep (latency of
///           a random pointer chase and read bandwidth against working set,
///           CacheSweep.c), each level's effective size from detectLevels;
///  - tick:  TICK1, the timer's resolution (the smallest non-zero difference
///           of successive reads, §3.2.1), and TICK2, a check that the timer
///           counts wall-clock time (a sleep timed by the timer, by
///           CLOCK_REALTIME as the reference "wrist-watch", and by the
///           process CPU-time clock, §3.2.2);
///  - rinf1: (r_inf, n_1/2) of vector loops by least squares on
///           t = q (n + n_1/2) / r_inf (eqs. 3.1-3.2);
///  - strided: the line rate of a 4 KiB-stride walk (StridedResult);
///  - overlap: how far memory transfers hide under a latency-bound core
///           (OverlapResult, predictor/Overlap.h);
///  - poly:  POLY1 (in L1) and POLY2 (arrays 4x the last-level cache):
///           (r̂_inf, f_1/2) of Horner polynomials of order 1..64 (eq. 3.3),
///           and the bandwidth of each cache level and of memory from a
///           load / copy / triad sweep over working sets (plateaus).
///
/// One generated C program (LowLevelSource.h) is compiled at -O2
/// -march=native and run once per part. Each result is a report object:
/// it prints a table (print) and JSON (toJson), and gives the machine-file
/// parameters it measured (params), every one with provenance, spread and a
/// ref naming the benchmark, the fit and the date.
///
/// USAGE:
///   LowLevelBench LB(Dir, {Reps, TargetS, Quick, Stat, Date});
///   TickResult T = LB.runTick();
///   ParamList P = T.params();   // parkbench.TICK1, parkbench.TICK2, ...
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_TOOLS_CALIB_LOWLEVEL_H
#define SEGTIME_TOOLS_CALIB_LOWLEVEL_H

#include "predictor/Machine.h"
#include "predictor/Overlap.h"
#include "predictor/Parkbench.h"
#include "tools/calib/CacheProbe.h"
#include "tools/calib/LowLevelSource.h"
#include "tools/calib/Process.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace segtime {

/// How the low-level parts measure.
struct LowLevelOptions {
  int Reps = 11;          ///< samples per point
  double TargetS = 1e-3;  ///< minimum duration of one sample, s
  bool Quick = false;     ///< fewer timer reads and a shorter sleep (smoke test)
  std::string Stat = "min"; ///< per-point statistic of the samples: min or median
  std::string Date;       ///< YYYY-MM-DD, for the refs
  /// Nominal core clock, GHz (/proc/cpuinfo; 0 if unknown): with the fastest
  /// clock probe of the run, the reference of the slow-phase check.
  double NominalGHz = 0;
  ProbeSeams Seams; ///< where the machine probes read (--sysfs-root, --cpuid-table)
  bool Huge = true; ///< the capacity sweep asks for transparent huge pages
};

/// A calibration part that cannot run on this machine (no cache sizes from
/// any source, one CPU, ...): calibrate reports it with its reason, skips
/// it and measures the rest.
struct PartSkipped : CalibError {
  using CalibError::CalibError;
};

/// One cache level as the benchmarks size their working sets with it.
struct CacheInfo {
  std::string Name;   ///< "L1", "L2", "L3"
  double Size = 0;    ///< B: the measured effective size if there is one, else the reported
  std::string Source; ///< where Size comes from: "measured effective ..." or a report's ref
  double Ways = 0;    ///< associativity (0 if no source reports it)
  double Line = 0;    ///< B per line (0 if no source reports it)
};

/// How a part's samples were taken (for the refs): date, statistic,
/// samples per point and minimum sample duration.
struct Sampled {
  std::string Date, Stat;
  int Reps = 0;
  double TargetS = 0; ///< s
  /// Copies the fields from the options O.
  void stamp(const LowLevelOptions &O) {
    Date = O.Date;
    Stat = O.Stat;
    Reps = O.Reps;
    TargetS = O.TargetS;
  }
};

/// The cache hierarchy (`--level caches`): every source's report
/// (CacheProbe.h) and, if the sweep ran, the measured curve and levels.
struct CacheResult : Sampled {
  MachineProbe Probe;
  bool Measured = false;   ///< the capacity sweep ran
  int PerOctave = 0;       ///< sweep points per doubling of the working set
  int Passes = 1;          ///< sweeps over all points the samples were split over
  double MaxBytes = 0;     ///< largest working set, B
  std::string MaxWhy;      ///< how MaxBytes was chosen
  bool HugeRequested = false;
  long HugeKib = -1;       ///< KiB of the buffer the kernel backed with huge pages (-1: unknown)
  std::vector<double> W;   ///< working sets, B
  std::vector<std::vector<double>> LatS, ReadBps; ///< [point][rep]: s per load, B/s
  std::vector<double> Lat, Read; ///< per point: the statistic (min latency, max bandwidth with --stat min)
  std::vector<MeasuredLevel> Levels; ///< detectLevels on (W, Lat, Read)
  std::vector<std::string> Warnings; ///< one line per level whose reported and measured sizes differ > 2x

  /// The levels the benchmarks use: every level some source reported or the
  /// sweep measured, the effective size where measured, else the first
  /// report (sysfs, cpuid, sysconf); smallest level first.
  std::vector<CacheInfo> hierarchy() const;
  /// memory.<L>.size (the first report), .size_sysfs / .size_cpuid /
  /// .size_sysconf (each source), .ways, .line_size (datasheet); if
  /// measured, .size_effective (B), .latency (s per dependent load),
  /// .bandwidth_read (B/s), and memory.DRAM.latency / .bandwidth_read.
  ParamList params() const;
  /// Full keys params() owns (replaced when it is written again).
  std::vector<std::string> ownedKeys() const;
  nlohmann::json toJson() const;
  void print(std::ostream &OS) const;
};

/// TICK1 and TICK2 (PARKBENCH-93 §3.2.1-3.2.2).
struct TickResult {
  std::vector<double> Tick1PerRep; ///< s: smallest non-zero difference of successive reads
  double Tick1 = 0;                ///< s: the minimum over repetitions
  double ReadS = 0;                ///< s: median difference = cost of one timer read
  double GetRes = 0;               ///< s: clock_getres(CLOCK_MONOTONIC)
  long Zeros = 0, Calls = 0;       ///< zero differences among the reads (all reps)
  double Sleep = 0;                ///< s: the interval slept for TICK2
  std::vector<double> Timer, Reference, Raw, Cpu; ///< s per rep: the four clocks
  double Tick2 = 0;                ///< s: median interval the timer measured
  double Scale = 0;                ///< median timer / reference ratio
  bool WallClock = false;          ///< the CPU-time clock saw < 10 % of the interval
  bool ScaleOk = false;            ///< |Scale - 1| < 1e-3
  std::string Date;

  ParamList params() const; ///< parkbench.TICK1, .TICK2 (s), .TICK2_scale (1); full dotted keys
  nlohmann::json toJson() const;
  void print(std::ostream &OS) const;
};

/// RINF1 (PARKBENCH-93 §3.2.3): one Hockney fit per kernel.
struct RinfResult : Sampled {
  struct Kernel {
    RinfKernel K;
    std::vector<double> N;                 ///< vector lengths, elements
    std::vector<std::vector<double>> Times; ///< s per call: [point][rep]
    std::vector<double> T;                  ///< s per call, the statistic of Times
    RinfFit Fit;                         ///< on (N, T)
    std::vector<double> RInfRep, NHalfRep;  ///< one fit per repetition (Mflop/s, elements)
  };
  std::vector<Kernel> Kernels;
  double ProbeGHz = 0; ///< fastest core-clock probe during the part (LowLevelBench::runChecked)

  ParamList params() const; ///< parkbench.RINF1.<kernel>.r_inf (Mflop/s), .n_half (elements)
  nlohmann::json toJson() const;
  void print(std::ostream &OS) const;
};

/// POLY1 or POLY2 (PARKBENCH-93 §3.2.4).
struct PolyResult {
  std::string Name;            ///< "POLY1" or "POLY2"
  long N = 0;                  ///< vector length, elements
  std::string Where;           ///< "in L1 (...)", "4x L3 ..."
  std::vector<double> F;       ///< computational intensity = order, flop per memory reference
  std::vector<std::vector<double>> Times; ///< s per evaluation: [order][rep]
  std::vector<double> R;       ///< flop/s per order (from the statistic of Times)
  PolyFit Fit;                 ///< eq. 3.3 on (F, R): the values written
  std::vector<double> RHatRep, FHalfRep; ///< one fit per repetition (Mflop/s, flop/mref)
  double ProbeGHz = 0; ///< fastest core-clock probe during the part
  /// POLY2 only, if not empty: the two-parameter fit put f_1/2 outside the
  /// orders measured (the curve never bends), so r̂_inf was taken from this
  /// result ("POLY1") and only f_1/2 fitted (fitPolyGivenPeak); TwoParam is
  /// the rejected two-parameter fit.
  std::string PeakFrom;
  PolyFit TwoParam;
  std::string TwoParamError; ///< why the two-parameter fit failed, if it did
};

/// One streaming kernel of the memory sweep.
struct MemKernel {
  std::string Name;       ///< load, copy, triad
  std::string What;       ///< the loop
  int BytesPerElement = 0; ///< loaded + stored per element
  std::vector<double> W;  ///< working set, B
  std::vector<std::vector<double>> Times; ///< s per sweep: [point][rep]
  std::vector<double> Bw; ///< B/s per point (statistic of Times)
  std::vector<Plateau> Plateaus;                 ///< per level, from Bw
  std::vector<std::vector<double>> PlateauRep;   ///< [level][rep] B/s, for the spread
};

/// POLY1, POLY2 and the memory hierarchy.
struct PolyMemResult : Sampled {
  std::vector<CacheInfo> Caches;
  PolyResult Poly1, Poly2;
  std::vector<MemKernel> Mem; ///< load, copy, triad (the `bandwidth` of each level)
  double MemProbeGHz = 0;     ///< fastest core-clock probe during the memory sweep

  /// parkbench.POLY1/POLY2.r_inf (Mflop/s) / .f_half (flop/mref);
  /// memory.<level>.bandwidth (B/s, triad) / .bandwidth_load /
  /// .bandwidth_copy (the sizes are CacheResult's).
  ParamList params() const;
  nlohmann::json toJson() const;
  void print(std::ostream &OS) const;
};

/// The line rate of a strided walk that defeats the hardware prefetchers
/// (`--level strided`): rows of 4 KiB, one access per 64 B line, consecutive
/// accesses a row apart (the column walk of a row-major matrix), independent
/// loads, over footprints from a quarter of L2 to 4x the last-level cache;
/// B/s = 64 B x lines / time. Curve "strided" is one process alone;
/// "strided_shared2" the same while a second process on the next CPU walks
/// its own buffer of the same size (two ranks sharing the L3 and memory).
struct StridedResult : Sampled {
  std::vector<MemKernel> Curves; ///< "strided", "strided_shared2" (Bw: B/s of lines)
  std::vector<double> ProbeGHz;  ///< fastest core-clock probe per curve
  std::string SharedSkipped;     ///< why the two-process curve was not measured, if it was not

  /// memory.strided.NN.working_set (B) / .bandwidth (B/s of lines), and the
  /// same under memory.strided_shared2 (memoryCurveKey).
  ParamList params() const;
  nlohmann::json toJson() const;
  void print(std::ostream &OS) const;
};

/// The overlap of core and memory time (`--level overlap`,
/// predictor/Overlap.h): chains of 1/4, 1, 2 and 4 dependent multiply-adds
/// per element over 1 and 2 streams of doubles, and each stream set summed into
/// 8 independent accumulators (the transfer time alone), at an in-L1
/// footprint W[0] (where a chain's time is its core time) and at footprints
/// W[1..] from half the L2 to 4x the last-level cache. Per footprint, the
/// exponent p of t = (t_core^p + t_mem^p)^(1/p) is fitted (fitOverlap) to
/// the eight chains: t_core = the chain's time per element at W[0] x elements,
/// t_mem = the reference's time over the same streams.
struct OverlapResult : Sampled {
  struct Kernel {
    int Streams = 0;
    double Chain = 0; ///< multiply-adds on the chain per element; 0: the reference
    std::vector<double> N;                   ///< elements per footprint
    std::vector<std::vector<double>> Times;  ///< s per call: [footprint][rep]
  };
  std::vector<double> W;       ///< footprints, B (W[0] in L1)
  std::vector<Kernel> Kernels; ///< in the program's order
  std::vector<OverlapFit> Fits;          ///< per footprint W[1..]
  std::vector<std::vector<double>> PRep; ///< per footprint W[1..]: p per repetition
  double ProbeGHz = 0;

  /// The points of footprint J >= 1 (statistic of the samples, or
  /// repetition Rep if >= 0): core, memory and measured times, s.
  void points(size_t J, int Rep, std::vector<double> &Tc, std::vector<double> &Tm,
              std::vector<double> &T) const;
  /// memory.overlap.NN.working_set (B) and .exponent (1) for W[1..].
  ParamList params() const;
  nlohmann::json toJson() const;
  void print(std::ostream &OS) const;
};

/// Compiles the low-level program once (in Dir) and runs its parts.
class LowLevelBench {
public:
  LowLevelBench(std::filesystem::path Dir, LowLevelOptions O) : Dir(std::move(Dir)), O(std::move(O)) {}
  /// Each run* throws CalibError naming the part on a failed compile or run,
  /// PartSkipped if the machine gives the part nothing to run on.
  /// runCaches probes the caches and runs the capacity sweep.
  CacheResult runCaches();
  /// The hierarchy so far (the probes alone until runCaches ran).
  const CacheResult &cacheResult();
  /// The caches for part Part: cacheResult().hierarchy(), after running the
  /// sweep if no source reports a size. Throws PartSkipped if there are
  /// still none.
  std::vector<CacheInfo> caches(const std::string &Part);
  /// The last-level cache size that places the out-of-cache working sets
  /// (POLY2, memory sweep, strided, overlap: 4-8x it): the larger of the
  /// reported and the measured size, at most 32 MiB (a CPUID that reports
  /// a host's 508 MiB must not ask for 4 GiB arrays).
  double lastLevelExtent(const std::string &Part);
  TickResult runTick();
  RinfResult runRinf1();
  PolyMemResult runPoly();
  /// With Shared, also the two-process curve.
  StridedResult runStrided(bool Shared = true);
  OverlapResult runOverlap();
  /// Waits, at most MaxWaitS s (20 s: with nine parts and levels calibrate
  /// stays under 5 minutes), until the phase probe (Horner's rule with
  /// loads, in L1: `park phase`) is within 25 % of the fastest value seen,
  /// saying so on stderr; the VM's slow phases slow code with loads down to
  /// half speed while the core-clock probe of runChecked does not notice.
  /// Called before each part and each level's benchmark run. Returns the
  /// probe's last value (s per point).
  double waitForFastPhase(const std::string &Before, double MaxWaitS = 20);
  /// The compiler command line used (for the machine file's comments).
  static std::string compileFlags() { return "-O2 -march=native -fno-builtin"; }

private:
  std::string binary();
  /// Runs `park Part REPS Args...` (REPS: Reps, or the options' if 0) and
  /// parses its JSON; throws CalibError naming Part.
  nlohmann::json run(const std::string &Part, const std::vector<std::string> &Args,
                     double TimeoutS, int Reps = 0);
  /// run(), guarded against the slow phases of a shared VM (the whole machine
  /// 1.5-2x slower for tens of seconds, longer than a part): if the fastest
  /// core-clock probe of the run is below 80 % of the reference (the fastest
  /// probe so far, or the nominal clock), the part is run again, at most
  /// twice, and the attempt with the fastest probe is kept (a warning if even
  /// that one is slow). Sets ProbeGHz to its probe.
  nlohmann::json runChecked(const std::string &Part, const std::vector<std::string> &Args,
                            double TimeoutS, const std::string &Name, double &ProbeGHz);
  /// Prints how many samples of Part lost the CPU; resets the counts.
  void reportDisturbed(const std::string &Part);
  std::filesystem::path Dir;
  LowLevelOptions O;
  std::string Bin;
  int Samples = 0, Disturbed = 0;
  double BestGHz = 0; ///< fastest clock probe of all parts so far
  double BestPhase = 0; ///< fastest phase probe so far, s per point (0: none yet)
  double phaseProbe();
  std::optional<CacheResult> Hier; ///< the probes, and the sweep once it ran
};

/// Writes gnuplot plots (PNG and SVG, with their .dat and .gp) of the RINF1
/// fits, of bandwidth against working set and of the capacity sweep
/// (caches: latency and read bandwidth against working set, the detected
/// levels and the reported sizes marked) into Dir; returns the image
/// paths. Any result may be null. Throws CalibError if gnuplot fails.
std::vector<std::string> plotLowLevel(const std::string &Dir, const RinfResult *Rinf,
                                      const PolyMemResult *Poly,
                                      const CacheResult *Caches = nullptr);

} // namespace segtime

#endif
