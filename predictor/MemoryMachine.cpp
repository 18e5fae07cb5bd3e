//===- MemoryMachine.cpp - The memory levels of a machine file ------------===//
///
/// \file
/// MemoryModel::fromMachine and its measured curves (predictor/MemoryModel.h).
///
//===----------------------------------------------------------------------===//
#include "predictor/MemoryModel.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

namespace segtime {

std::optional<MemoryModel> MemoryModel::fromMachine(const Machine &M, std::string &Why) {
  MemoryModel R;
  for (const char *L : {"L1", "L2", "L3"}) {
    std::string P = std::string("memory.") + L + ".";
    // The measured effective size when there is one (a VM's share of a
    // large L3 is a fraction of what sysfs or CPUID report), else the
    // reported size.
    const CostEntry *Eff = M.param(P + "size_effective"), *Rep = M.param(P + "size");
    if (Rep && Rep->Value > 0)
      R.Reported[L] = Rep->Value;
    bool Measured = Eff && Eff->Value > 0;
    // A cache holds no more than its reported size: an effective size
    // measured above it (the L1's 3.57e4 B against 3.28e4 B here: the
    // knee of a latency curve) is taken as the reported one.
    bool Above = Measured && Rep && Rep->Value > 0 && Eff->Value > Rep->Value;
    const CostEntry *S = Measured && !Above ? Eff : Rep, *B = M.param(P + "bandwidth");
    if (S && B && S->Value > 0 && B->Value > 0) {
      R.Levels.push_back({L, S->Value, B->Value});
      R.Used[L] = S->Value;
      char Buf[160];
      if (Above)
        std::snprintf(Buf, sizeof Buf, "%s %.3g B (reported; measured effective %.3g B is above it)",
                      L, S->Value, Eff->Value);
      else if (Measured && Rep && Rep->Value > 0)
        std::snprintf(Buf, sizeof Buf, "%s %.3g B (measured effective; reported %.3g B)", L,
                      S->Value, Rep->Value);
      else
        std::snprintf(Buf, sizeof Buf, "%s %.3g B (%s)", L, S->Value,
                      Measured ? "measured effective" : "reported");
      R.SizeNote += (R.SizeNote.empty() ? "cache sizes: " : ", ") + std::string(Buf);
    }
  }
  for (const char *L : {"L1", "L2", "L3", "DRAM"})
    if (const CostEntry *O = M.param(std::string("memory.") + L + ".transfers_overlap")) {
      if (O->Value != 0 && O->Value != 1)
        throw std::runtime_error("machine '" + M.Name + "': memory." + L +
                                 ".transfers_overlap must be 0 or 1");
      R.OverlapFlags[L] = O->Value;
    }
  if (const CostEntry *Ld = M.param("memory.L1.loads_per_cycle"))
    R.LoadsPerCycle = Ld->Value;
  if (const CostEntry *St = M.param("memory.L1.stores_per_cycle"))
    R.StoresPerCycle = St->Value;
  const CostEntry *D = M.param("memory.DRAM.bandwidth");
  if (!D || D->Value <= 0) {
    Why = "machine '" + M.Name + "' has no memory.DRAM.bandwidth (measure it with `segtime "
          "calibrate`)";
    if (auto It = M.Identity.find("calibration_skipped"); It != M.Identity.end())
      Why += "; its calibration skipped: " + It->second;
    return std::nullopt;
  }
  // Cache geometry for the line model: consecutive levels from L1 that
  // have size, ways, line size and bandwidth.
  for (const Level &L : R.Levels) {
    std::string P = "memory." + L.Name + ".";
    const CostEntry *W = M.param(P + "ways"), *Ln = M.param(P + "line_size");
    if (!W || !Ln || W->Value < 1 || Ln->Value < 1)
      break;
    CacheGeometry G{L.Name, L.Size, W->Value, Ln->Value};
    // A measured effective size is no whole number of sets: whole sets
    // (cache_sets needs them), at least one.
    if (G.sets() >= 1)
      G.Size = std::floor(G.sets()) * G.Ways * G.Line;
    if (G.sets() < 1)
      throw std::runtime_error("machine '" + M.Name + "': " + P + "size " +
                               std::to_string(L.Size) + " B is less than one set of " + P +
                               "ways x " + P + "line_size");
    R.Caches.push_back(G);
    R.SourceBandwidth.push_back(L.Bandwidth);
  }
  if (!R.Caches.empty())
    R.SourceBandwidth.push_back(D->Value);
  // Load-to-use latencies of the caches with geometry and of memory (all or
  // none: the dependent loads of a bisection, MemoryModelBisect.h).
  for (const CacheGeometry &G : R.Caches)
    if (const CostEntry *Lat = M.param("memory." + G.Name + ".latency"); Lat && Lat->Value > 0)
      R.Latency.push_back(Lat->Value);
  if (const CostEntry *Lat = M.param("memory.DRAM.latency"); Lat && Lat->Value > 0)
    R.Latency.push_back(Lat->Value);
  if (R.Caches.empty() || R.Latency.size() != R.Caches.size() + 1)
    R.Latency.clear();
  R.Levels.push_back({"DRAM", std::numeric_limits<double>::infinity(), D->Value});
  // The measured curves, when the file has them: one step per point, the
  // bandwidth of the nearest measured working set (thresholds at the
  // geometric means of neighbouring points), named after the cache level.
  if (auto Steps = R.readCurve(M, "curve", "bandwidth", &R.Points))
    R.Levels = std::move(*Steps);
  if (auto Steps = R.readCurve(M, "strided"))
    R.Strided = std::move(*Steps);
  if (auto Steps = R.readCurve(M, "strided_shared2"))
    R.StridedShared = std::move(*Steps);
  // The store walks by row size, and the read-modify-write walks: each
  // kind used when the file has its three rows (the load walks by row size
  // are recorded, not used: docs/models.md "Strided store walks"). The
  // read-modify-write walks only beside the store walks.
  for (WalkKind K : {WalkKind::Store, WalkKind::LoadStore}) {
    std::map<std::string, std::vector<Level>> Kind;
    for (int Row : {1024, 2048, 4096})
      if (auto Steps = R.readCurve(M, stridedWalkName(Row, K)))
        Kind[stridedWalkName(Row, K)] = std::move(*Steps);
    if (Kind.size() == 3 && (K == WalkKind::Store || !R.Walks.empty()))
      R.Walks.insert(Kind.begin(), Kind.end());
  }
  if (auto Steps = R.readCurve(M, "overlap", "exponent")) {
    for (const Level &L : *Steps)
      if (L.Bandwidth < 1)
        throw std::runtime_error("machine '" + M.Name + "': memory.overlap exponents must be "
                                 ">= 1 (1 = no overlap)");
    R.Overlap = std::move(*Steps);
  }
  return R;
}

std::optional<std::vector<MemoryModel::Level>>
MemoryModel::readCurve(const Machine &M, const std::string &Name, const std::string &Field,
                       std::vector<std::pair<double, double>> *Points) const {
  std::vector<std::pair<double, double>> Curve;
  for (size_t I = 0;; ++I) {
    const CostEntry *W = M.param(memoryCurveKey(I, "working_set", Name));
    const CostEntry *B = M.param(memoryCurveKey(I, Field, Name));
    if (!W || !B)
      break;
    if (!(W->Value > 0 && B->Value > 0))
      throw std::runtime_error("machine '" + M.Name + "': " +
                               memoryCurveKey(I, "working_set", Name) + " and ." + Field +
                               " must be positive");
    Curve.push_back({W->Value, B->Value});
  }
  if (Curve.size() < 2)
    return std::nullopt;
  std::sort(Curve.begin(), Curve.end());
  if (Points)
    *Points = Curve;
  std::vector<Level> Steps;
  for (size_t I = 0; I < Curve.size(); ++I) {
    double Upto = I + 1 < Curve.size() ? std::sqrt(Curve[I].first * Curve[I + 1].first)
                                       : std::numeric_limits<double>::infinity();
    Steps.push_back({levelOf(Curve[I].first).Name, Upto, Curve[I].second});
  }
  return Steps;
}

} // namespace segtime
