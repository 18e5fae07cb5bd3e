//===- MemoryModel.cpp - The ICC memory term ------------------------------===//
#include "predictor/MemoryModel.h"
#include "predictor/Expr.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

using namespace GiNaC;

namespace segtime {

std::string memoryCurveKey(size_t Point, const std::string &Field) {
  char Idx[24];
  std::snprintf(Idx, sizeof Idx, "%02zu", Point);
  return "memory.curve." + std::string(Idx) + "." + Field;
}

std::optional<MemoryModel> MemoryModel::fromMachine(const Machine &M, std::string &Why) {
  MemoryModel R;
  for (const char *L : {"L1", "L2", "L3"}) {
    std::string P = std::string("memory.") + L + ".";
    const CostEntry *S = M.param(P + "size"), *B = M.param(P + "bandwidth");
    if (S && B && S->Value > 0 && B->Value > 0)
      R.Levels.push_back({L, S->Value, B->Value});
  }
  const CostEntry *D = M.param("memory.DRAM.bandwidth");
  if (!D || D->Value <= 0) {
    Why = "machine '" + M.Name + "' has no memory.DRAM.bandwidth (measure it with `segtime "
          "calibrate`)";
    return std::nullopt;
  }
  R.Levels.push_back({"DRAM", std::numeric_limits<double>::infinity(), D->Value});
  // The measured curve, when the file has it: one step per point, the
  // bandwidth of the nearest measured working set (thresholds at the
  // geometric means of neighbouring points), named after the cache level.
  std::vector<std::pair<double, double>> Curve;
  for (size_t I = 0;; ++I) {
    const CostEntry *W = M.param(memoryCurveKey(I, "working_set"));
    const CostEntry *B = M.param(memoryCurveKey(I, "bandwidth"));
    if (!W || !B)
      break;
    if (W->Value > 0 && B->Value > 0)
      Curve.push_back({W->Value, B->Value});
  }
  std::sort(Curve.begin(), Curve.end());
  if (Curve.size() >= 2) {
    std::vector<Level> Steps;
    for (size_t I = 0; I < Curve.size(); ++I) {
      double Upto = I + 1 < Curve.size() ? std::sqrt(Curve[I].first * Curve[I + 1].first)
                                         : std::numeric_limits<double>::infinity();
      Steps.push_back({R.levelOf(Curve[I].first).Name, Upto, Curve[I].second});
    }
    R.Levels = std::move(Steps);
  }
  return R;
}

ex MemoryModel::time(const ex &V, const ex &F) const {
  // 1/B(F) = 1/B_1 + sum_k (1/B_{k+1} - 1/B_k) [size_k < F]
  ex InvB = numeric(1 / Levels.front().Bandwidth);
  for (size_t K = 0; K + 1 < Levels.size(); ++K)
    InvB += numeric(1 / Levels[K + 1].Bandwidth - 1 / Levels[K].Bandwidth) *
            cmp_lt(numeric(Levels[K].Size), F);
  return V * InvB;
}

const MemoryModel::Level &MemoryModel::levelOf(double F) const {
  for (const Level &L : Levels)
    if (F <= L.Size)
      return L;
  return Levels.back();
}

} // namespace segtime
