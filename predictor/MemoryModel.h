//===- MemoryModel.h - The ICC memory term -----------------------*- C++ -*-===//
///
/// \file
/// The memory term of the out-of-order ICC model (docs/models.md):
/// a loop nest cannot run faster than its data can be moved from the level
/// of the memory hierarchy its working set lives in,
///
///   t_nest = max(t_core, V / B(F)),
///
/// with t_core the scheduling-model time of the nest (cycles x t_cyc), V its
/// traffic (bytes loaded and stored: the address range each load and store
/// sweeps, once), F its footprint (the union of those ranges per base
/// pointer), and B(F) the sustained bandwidth of the smallest level whose
/// size holds F (L1, L2, L3, else DRAM) as measured by `segtime calibrate`
/// (PARKBENCH-93 POLY1/POLY2-style streaming kernels; keys memory.<L>.size,
/// memory.<L>.bandwidth) -- or, when the machine file has the measured
/// bandwidth-versus-working-set curve (memory.curve.NN.working_set,
/// .bandwidth), the bandwidth measured at the working set nearest F. Assumptions: warm caches (the nest's data stays
/// where it fits between executions), no reuse beyond the footprint, the
/// core and the memory transfers overlap fully (the larger one wins), or as
/// far as the measured overlap exponent says (combine, predictor/Overlap.h).
///
/// When the machine file describes the caches (memory.<L>.size, .ways,
/// .line_size) and the nest its reference streams (Node::Streams), the
/// transfer time counts cache lines instead (lineTime): per cache level,
/// the lines each stream brings in follow from layer conditions
/// (Kerncraft's LC model: Hammer et al. 2017; Stengel et al. 2015), and
/// each line costs the inverse sustained bandwidth of the level it comes
/// from.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PREDICTOR_MEMORYMODEL_H
#define SEGTIME_PREDICTOR_MEMORYMODEL_H

#include "core/Seg.h"
#include "predictor/Machine.h"

#include <ginac/ginac.h>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace segtime {

/// Key of field Field ("working_set", "bandwidth") of point Point of a
/// measured bandwidth curve: "memory.<Curve>.NN.Field" (written by `segtime
/// calibrate`, read by MemoryModel::fromMachine). Curves: "curve" (the
/// triad), "strided" and "strided_shared2" (a prefetch-defeating 4 KiB-stride
/// walk, alone and beside a second process).
std::string memoryCurveKey(size_t Point, const std::string &Field,
                           const std::string &Curve = "curve");

/// What a strided walk does at each element it visits: load it (s +=
/// a[r][c]), store it (a[r][c] = r), or load and store it (a[r][c] += r, a
/// read-modify-write).
enum class WalkKind { Load, Store, LoadStore };

/// The curve of a strided walk in the machine file (memory.<name>.NN, `segtime
/// calibrate --level strided`): a column walk over rows of RowBytes (1024,
/// 2048, 4096) that loads ("strided_1k", "strided_2k", "strided"), stores
/// ("strided_store_1k", "strided_store_2k", "strided_store") or loads and
/// stores ("strided_rmw_1k", "strided_rmw_2k", "strided_rmw"), one access per
/// line. Throws std::invalid_argument for another row size.
std::string stridedWalkName(int RowBytes, WalkKind Kind);

/// cache_sets(stride, sets, line): the sets of a cache with `sets` sets of
/// `line`-byte lines that a long run of references `stride` bytes apart
/// maps to, sets x line / max(line, gcd(stride, sets x line)) (a 4 KiB
/// stride in a 64-set cache of 64 B lines uses 1 set); unevaluated until
/// stride is an integer.
DECLARE_FUNCTION_3P(cache_sets)

/// The geometry of one cache level.
struct CacheGeometry {
  std::string Name;  ///< "L1", "L2", "L3"
  double Size = 0;   ///< B
  double Ways = 0;   ///< associativity
  double Line = 64;  ///< B per line
  double sets() const { return Size / (Ways * Line); }
};

/// Lines that the reference streams S of one loop nest bring into cache C
/// per execution of the nest, by layer conditions (Stengel et al. 2015
/// §III; Hammer et al. 2017, Kerncraft's LC model), or, with C null, the
/// distinct lines they touch (the footprint in lines).
///
/// Per stream, loops are taken innermost first with M lines in R runs of
/// E contiguous lines touched by one iteration of the loop (one reference:
/// M = R = E = 1). A loop of N iterations whose stride s is at most a run
/// (s <= E x line: the next iteration touches the same or the adjacent
/// lines, s = 0 the same) reuses them if its layer condition holds: the
/// lines all streams touch in one of its iterations fit in the cache
/// (capacity) and this stream's lines fit in the ways of the sets its
/// runs map to (cache_sets of the stride between runs); then M' = M +
/// (N - 1) R s / line, else M' = N M (every iteration brings its lines in
/// again). Other references of a stream (Offsets) share its lines if they
/// are within a line, or lie whole iterations of one of its loops ahead
/// and that many iterations' lines fit; else they count as a stream of
/// their own. Across executions of the nest (warm caches) nothing is
/// brought in if the nest's distinct lines fit the cache.
/// With WriteBacks, the lines of streams that store count twice (brought
/// in, write-allocate, and written back).
///
/// Triangular nests (a MemStream::Step with an Index: an inner trip depends
/// on that loop's counter) sum per iteration (exact for polynomial trips,
/// numerically otherwise) and test the layer conditions with their largest
/// iteration; for the warm-cache test their distinct lines are at most
/// Footprint / line when Footprint (B, Node::Footprint) is given, and the
/// sets test is left out: the per-iteration sums count lines again that a
/// later iteration touches again (LU's shrinking trailing submatrices all
/// lie in one matrix).
GiNaC::ex linesInto(const std::vector<MemStream> &S, const CacheGeometry *C,
                    bool WriteBacks = false, const GiNaC::ex *Footprint = nullptr);
/// linesInto per stream, in the order of S (their sum is linesInto).
std::vector<GiNaC::ex> linesIntoEach(const std::vector<MemStream> &S, const CacheGeometry *C,
                                     bool WriteBacks = false,
                                     const GiNaC::ex *Footprint = nullptr);

/// The reuse working set (B) of the lines that streams S bring into a
/// cache of Size bytes again within one execution of their nest: the bytes
/// all streams touch in one iteration of the innermost loop whose
/// iteration does not fit Size (the loop whose layer condition fails: the
/// lines are touched again after that many bytes), Footprint if every
/// loop's iteration fits. gemm i-k-j (C[i][j] += A[i][k] B[k][j], 1000 x
/// 1100 x 1200, L2 512 KiB): one k iteration touches a row of B and C
/// (17.6 KB), one i iteration all of B (10.6 MB), so W = 10.6 MB.
GiNaC::ex reuseWorkingSet(const std::vector<MemStream> &S, double Size, double Line,
                          const GiNaC::ex &Footprint);

/// Bytes within which the hardware prefetchers work: they do not cross a
/// 4 KiB page (Intel 64 and IA-32 Architectures Optimization Reference
/// Manual, "Data Prefetching": the L2 streamer and the L1 IP-stride
/// prefetcher stay within a 4 KiB page).
constexpr double PrefetchPage = 4096;

/// [M is a page-strided stream]: 1 if the stride of its innermost loop that
/// moves it (the first non-zero Step stride) is at least PrefetchPage bytes,
/// so that every reference is in another 4 KiB page and no prefetcher
/// follows it (the column walk of a row-major matrix with rows >= 4 KiB); 0
/// if it is smaller or the stream never moves. Unevaluated (cmp_le) while the
/// stride is symbolic (8*n).
GiNaC::ex pageStrided(const MemStream &M);

/// The row distance of M's walk (B): the distance between the lines its
/// innermost moving loop visits one after the other. With a numeric stride
/// S and numeric offsets, the references of one iteration (offset 0 and
/// Offsets) are grouped into runs within Line bytes of their first, and the
/// distance is the smallest gap between consecutive runs, the last run to
/// the next iteration's first (S less their span) included: a column walk
/// unrolled u times (stride u x r, offsets r, 2r, ..., (u-1) r) has r, as a
/// walk of one reference per row r apart does. Otherwise (a symbolic stride
/// or offset) |S|; 0 if M never moves.
GiNaC::ex walkRowDistance(const MemStream &M, double Line = 64);

/// One contribution of the Execution-Cache-Memory (ECM) model of a loop
/// nest (Treibig & Hager 2010; Stengel, Treibig, Hager & Wellein 2015;
/// Hofmann et al. 2020): seconds per execution of the nest.
struct EcmTerm {
  std::string Name;   ///< "T_nOL", "T_L1L2", "T_L2L3", "T_L3Mem"
  std::string Bound;  ///< the level it stands for: "L1", "L2", "L3", "memory"
  GiNaC::ex Time;     ///< s per execution of the nest
  GiNaC::ex Lines;    ///< cache lines moved for it (0 for T_nOL)
  bool Overlaps = false; ///< overlaps with the core (else serialises with the other nOL terms)
  /// a chain of dependent loads (a bisection's table, MemoryModelBisect.h):
  /// adds to the nest's time after the core and the other terms combine
  bool Chain = false;
};

class MemoryModel {
public:
  struct Level {
    std::string Name;     ///< "L1", "L2", "L3", "DRAM"
    double Size = 0;      ///< B (infinity for DRAM)
    double Bandwidth = 0; ///< B/s, bytes loaded + stored per second
  };
  /// The memory levels of M (memory.L1 .. L3 size and bandwidth, and
  /// memory.DRAM.bandwidth; cache levels without both numbers are skipped).
  /// A level's size is memory.<L>.size_effective (measured by `segtime
  /// calibrate --level caches`) when present, else memory.<L>.size (the
  /// reported one); for the line model it is rounded down to whole sets.
  /// Returns nullopt and sets Why if M has no DRAM bandwidth (naming the
  /// calibration parts the machine file says were skipped).
  static std::optional<MemoryModel> fromMachine(const Machine &M, std::string &Why);
  /// V / B(F) in seconds, as an expression (numeric when V and F are).
  /// With the measured curve (memory.curve.NN), 1/B is interpolated
  /// linearly in F between its points (constant beyond them): the curve
  /// falls steeply where F passes a cache's size (here 1.05-1.76 MiB: 90 to
  /// 37 GB/s), and the nearest point's step was off by up to 40 % there
  /// (stencil1d, n = 1e5: F = 1.6 MB, step 52.4 GB/s, interpolated 44.8).
  /// Without the curve, cmp_lt(size, F) selects the level's bandwidth.
  GiNaC::ex time(const GiNaC::ex &Traffic, const GiNaC::ex &Footprint) const;
  /// B(F) in B/s, the bandwidth time() charges at footprint F (B).
  double bandwidthAt(double F) const;
  /// The level a footprint of F bytes lives in.
  const Level &levelOf(double F) const;
  const std::vector<Level> &levels() const { return Levels; }
  /// "cache sizes: L1 3.55e+04 B (measured effective; reported 3.28e+04 B),
  /// L2 ... (reported)": which size each cache level uses ("" if none).
  const std::string &sizeNote() const { return SizeNote; }

  /// True if the machine file gives the caches' geometry (memory.<L>.ways
  /// and .line_size besides .size) and every level's bandwidth, so that
  /// lineTime applies.
  bool hasCaches() const { return !Caches.empty(); }
  const std::vector<CacheGeometry> &caches() const { return Caches; }
  /// Bandwidth (B/s) of the level lines come from: 0 = L1, ..., caches()
  /// .size() = DRAM (memory.<L>.bandwidth, the triad's plateau).
  double sourceBandwidth(size_t Level) const { return SourceBandwidth.at(Level); }
  /// Load-to-use latencies (s) of the caches() and then of memory
  /// (memory.<L>.latency, `segtime calibrate --level caches`); empty unless
  /// the machine file has every one of them.
  const std::vector<double> &latencies() const { return Latency; }
  /// Transfer time of one execution of a nest with streams S, traffic V
  /// (B) and footprint F (B), in seconds. Lines_k = linesInto(S, cache k)
  /// for the caches but the last; bytes served by L1, max(0, V - line x
  /// Lines_1), cost 1/B_L1 each, a line that misses cache k and hits k+1
  /// line/B_{k+1}, and a line that misses the last of them line/B(F), the
  /// measured curve at the footprint (the last-level cache's share on a VM
  /// is smaller than sysfs says: here the triad's bandwidth falls between
  /// 24 and 192 MiB, the L3 is 48 MiB). With L1, L2, L3:
  ///   t = max(0, V - l Lines_1)/B_1 + l max(0, Lines_1 - Lines_2)/B_2 + l Lines_2/B(F).
  ///
  /// Lines_k is the larger of the lines brought in and 3/4 of the lines
  /// moved (brought in + written back: linesInto with WriteBacks). The
  /// triad that measures B_k counts 24 B per element: its 3 lines in per 8
  /// elements, which are also 3/4 of its 4 lines moved, so a triad predicts
  /// itself at every level. Calibrate's other kernels (local.yaml, B/s of
  /// their own bytes): copy (2 in, 3 moved) is predicted 11 % slower than
  /// the triad, measured 2-14 % slower at L2, L3, DRAM; load (1 in, 1
  /// moved) predicted the triad's rate, measured 4-14 % slower. A
  /// read-modify-write stream (daxpy y += a x: 2 in, 3 moved) is charged
  /// its write-backs (daxpy n = 2e6: 2.04 ms, 1.82 ms without them;
  /// measured 2.62 ms on a quiet machine).
  ///
  /// With a strided curve in the machine file (memory.strided, `segtime
  /// calibrate --level strided`), the last term splits: the lines of
  /// page-strided streams (pageStrided) cost line / Bs(F), Bs the strided
  /// walk's line rate at the footprint (the curve's nearest point, as for
  /// the triad), the other streams' lines line / B(F). A walk whose every
  /// access is in another page gets no prefetch: each line costs the
  /// latency over the misses the core keeps in flight, plus a TLB lookup,
  /// which the triad's prefetched rate does not include. With ranksSharing
  /// >= 2 the two-process curve (memory.strided_shared2) is used if present.
  GiNaC::ex lineTime(const std::vector<MemStream> &S, const GiNaC::ex &Traffic,
                     const GiNaC::ex &Footprint) const;

  /// The data terms of the ECM model of one execution of a nest with
  /// streams S, traffic V (B), footprint F (B) and load/store time NOL (s,
  /// T_nOL: the nest's loads and stores on the core's load/store ports):
  /// T_nOL, then per pair of levels the lines moved between them (lines
  /// into cache k: max(In_k, 3/4 Moved_k), as lineTime) over their
  /// bandwidth. T_L1L2 carries the lines into L1 at the L2 bandwidth; the
  /// lines into L2 come from L3 or memory: the compulsory ones (at most the
  /// nest's distinct lines) at the measured curve's bandwidth at F, the
  /// others (re-fetched because a layer condition fails for L2) at the
  /// curve's bandwidth at their reuse working set W (reuseWorkingSet); each
  /// is T_L2L3 if its working set fits the L3 size the memory term uses
  /// (sizeOf: the measured effective one when there is one), else T_L3Mem.
  /// A term that does not overlap (transfersOverlap) costs the increment of
  /// its inverse bandwidth over the previous non-overlapping level's (the
  /// measured bandwidth of level k is the time of the whole path from k to
  /// the registers), an overlapping one its level's whole inverse
  /// bandwidth; so that a triad predicts the calibrated bandwidth of its
  /// level in both cases. Bisection streams (MemoryModelBisect.h), when
  /// the machine file has the latencies(), are left out of these terms and
  /// add a last one, "T_chain" (Chain): their lines at the latency of the
  /// level that serves them (bisectionChainTime); without the latencies
  /// their lines are priced as the other streams' are.
  std::vector<EcmTerm> ecmTerms(const std::vector<MemStream> &S, const GiNaC::ex &Traffic,
                                const GiNaC::ex &Footprint, const GiNaC::ex &NOL) const;
  /// The ECM rule over the core time Core (T_OL, s) and Terms: T =
  /// max(T_OL, overlapping terms, sum of the non-overlapping terms)
  /// (Stengel et al. 2015 eq. 1, Kerncraft's ECM model), plus the Chain
  /// terms (dependent loads wait after the rest).
  static GiNaC::ex ecmCombine(const GiNaC::ex &Core, const std::vector<EcmTerm> &Terms);
  /// The data side of the ECM rule: max(overlapping terms, sum of the
  /// others) (s).
  static GiNaC::ex ecmData(const std::vector<EcmTerm> &Terms);
  /// The nest's time: the core time Core (T_OL) and ecmData(Terms)
  /// combined as combine() does, by the overlap exponent p that `segtime
  /// calibrate --level overlap` measured at footprint F: (T_OL^p +
  /// T_data^p)^(1/p); the ECM max (p -> infinity) without the curve. The
  /// measured exponent (2.0-2.6 on the machines here: a core busy with a
  /// chain of FMAs issues the loads behind it late) is the overlap of core
  /// and transfers this machine showed, where the ECM model assumes it full.
  /// Chain terms add to the combined time.
  GiNaC::ex ecmTime(const GiNaC::ex &Core, const std::vector<EcmTerm> &Terms,
                    const GiNaC::ex &F) const;
  /// Do the transfers of level L ("L1": T_nOL, "L2": T_L1L2, "L3": T_L2L3,
  /// "DRAM": T_L3Mem) overlap with the core and each other? The machine
  /// file's memory.<L>.transfers_overlap (0 or 1) if present, else by the
  /// ICC target (setTarget): AMD Zen (znver*) overlaps L1, L2 and L3
  /// transfers, not memory's (Kerncraft's Zen and Zen 2 machine files;
  /// Hofmann et al. 2020); any other (Intel-like) overlaps none (Stengel et
  /// al. 2015). Where says which ("machine file", "datasheet: ...").
  bool transfersOverlap(const std::string &L, std::string *Where = nullptr) const;
  /// The ICC target ("znver3", "skylake") for transfersOverlap's default.
  void setTarget(const std::string &T) { Target = T; }
  /// Reported size of cache level L (memory.<L>.size; else the size used); 0 if none.
  double reportedSize(const std::string &L) const;
  /// Size (B) of cache level L that the memory term and the ECM terms use:
  /// memory.<L>.size_effective when measured (and not above the reported
  /// size), else memory.<L>.size; 0 if the level has none. sizeNote() says
  /// which.
  double sizeOf(const std::string &L) const;
  /// Load and store micro-ops the core issues per cycle (memory.L1.loads_per_cycle,
  /// .stores_per_cycle; else datasheet: AMD Zen 3, 3 and 2, Software
  /// Optimization Guide for AMD Family 19h, §2.12; Intel Skylake and later,
  /// 2 and 1, Intel Optimization Reference Manual §2.2).
  std::pair<double, double> loadStorePorts() const;

  /// V / Bs(F) in seconds: V bytes of lines of page-strided streams at the
  /// strided walk's measured rate at footprint F (the shared curve when
  /// ranksSharing() >= 2 and the file has one); the triad's time(V, F) if
  /// the machine file has no strided curve.
  GiNaC::ex stridedTime(const GiNaC::ex &V, const GiNaC::ex &F) const;
  /// The strided curve in use (null: none in the machine file).
  const std::vector<Level> *stridedCurve() const;
  /// The strided curve's step a footprint of F bytes falls in (the rate
  /// stridedTime charges at F); nullptr without a strided curve.
  const Level *stridedLevelOf(double F) const;
  /// Its name: "strided", "strided_shared2", or "" (none).
  std::string stridedCurveName() const;
  /// One class of a strided store stream's walk: In is 1 when the stream's
  /// row distance (walkRowDistance) falls in the class (cmp_le/cmp_lt,
  /// unevaluated while symbolic), Curve the walk that prices its lines (s
  /// per B at a footprint: walkTime; its rate includes the line's read for
  /// ownership and its write-back), Name that curve's (stridedWalkName).
  struct WalkClass {
    GiNaC::ex In;
    const std::vector<Level> *Curve;
    std::string Name;
  };
  /// The walk classes of stream M (docs/models.md "Strided store walks"),
  /// with the store walks in the machine file (stridedWalkName) and one
  /// process: a stream that only stores, from a 1 KiB row distance on, or
  /// one that loads and stores with a row distance that is a multiple of 1
  /// KiB; per class of the row distance 1-2 KiB, 2-4 KiB, >= 4 KiB the walk
  /// of that row size: the store walk for a stream that only stores, the
  /// read-modify-write walk (WalkKind::LoadStore) for one that loads and
  /// stores when the file has those three curves, else the store walk.
  /// Empty otherwise (loads alone, an unrolled run that covers its stride,
  /// a stream that never moves).
  std::vector<WalkClass> walkClasses(const MemStream &M) const;
  /// V / B_walk(F) in seconds: V bytes at walk curve C's rate at footprint
  /// F (the curve's nearest point).
  GiNaC::ex walkTime(const std::vector<Level> &C, const GiNaC::ex &V,
                     const GiNaC::ex &F) const;
  /// Whether the machine file has the three store walks (1, 2, 4 KiB rows).
  bool hasWalkCurves() const { return Walks.count(stridedWalkName(4096, WalkKind::Store)) > 0; }
  /// Whether it also has the three read-modify-write walks.
  bool hasRmwWalkCurves() const {
    return hasWalkCurves() && Walks.count(stridedWalkName(4096, WalkKind::LoadStore)) > 0;
  }
  /// The loop nest's time from its core time Core and transfer time Mem (s)
  /// at footprint F (B): overlapTime(Core, Mem, p(F)) (predictor/Overlap.h),
  /// p the exponent of the measured overlap curve memory.overlap.NN at the
  /// point nearest F (steps as for the bandwidth curve, selected with
  /// cmp_lt while F is symbolic); max(Core, Mem) (full overlap) if the
  /// machine file has no overlap curve.
  GiNaC::ex combine(const GiNaC::ex &Core, const GiNaC::ex &Mem, const GiNaC::ex &F) const;
  /// The overlap exponent at footprint F; nullopt without an overlap curve.
  std::optional<double> overlapExponent(double F) const;

  /// Processes of the program that share one socket's L3 and memory (MPI
  /// ranks on one node; 1 by default): >= 2 selects memory.strided_shared2.
  void setRanksSharing(double R) { Ranks = R; }
  double ranksSharing() const { return Ranks; }

private:
  /// The steps of measured curve memory.<Name>.NN (nullopt if it has fewer
  /// than 2 points); throws on a non-positive value.
  /// Field is the curve's value ("bandwidth"; "exponent" for the overlap
  /// curve, which the steps' Bandwidth member then holds).
  /// Points, if given, receives the curve's (working set B, value) pairs
  /// by increasing working set.
  std::optional<std::vector<Level>> readCurve(const Machine &M, const std::string &Name,
                                              const std::string &Field = "bandwidth",
                                              std::vector<std::pair<double, double>> *Points =
                                                  nullptr) const;
  std::map<std::string, double> Reported; ///< memory.<L>.size
  std::map<std::string, double> Used;     ///< sizeOf
  std::map<std::string, double> OverlapFlags; ///< memory.<L>.transfers_overlap
  double LoadsPerCycle = 0, StoresPerCycle = 0; ///< memory.L1.*_per_cycle (0: none)
  std::string Target;
  std::vector<Level> Strided, StridedShared; ///< steps of memory.strided(_shared2)
  /// steps of the store and read-modify-write walks by name
  /// (stridedWalkName); each kind only when the file has all three rows
  std::map<std::string, std::vector<Level>> Walks;
  std::vector<Level> Overlap; ///< steps of memory.overlap (Bandwidth = exponent p)
  double Ranks = 1;
  std::vector<Level> Levels; ///< by increasing size, DRAM last
  std::string SizeNote;      ///< sizeNote()
  /// memory.curve's points (working set B, bandwidth B/s), increasing;
  /// empty without the curve
  std::vector<std::pair<double, double>> Points;
  std::vector<CacheGeometry> Caches;   ///< L1, L2, L3 with geometry
  std::vector<double> SourceBandwidth; ///< per cache, then DRAM (B/s)
  std::vector<double> Latency;         ///< latencies()
};

} // namespace segtime

#endif
