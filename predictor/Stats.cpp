//===- Stats.cpp - Statistics of repeated measurements --------------------===//
#include "predictor/Stats.h"

#include <algorithm>

namespace segtime {

double median(std::vector<double> V) {
  if (V.empty())
    return 0;
  std::sort(V.begin(), V.end());
  size_t N = V.size();
  return N % 2 ? V[N / 2] : 0.5 * (V[N / 2 - 1] + V[N / 2]);
}

std::optional<double> relSpread(const std::vector<double> &V) {
  if (V.size() < 2)
    return std::nullopt;
  double M = median(V);
  if (!(M > 0))
    return std::nullopt;
  auto [Lo, Hi] = std::minmax_element(V.begin(), V.end());
  return (*Hi - *Lo) / M;
}

} // namespace segtime
