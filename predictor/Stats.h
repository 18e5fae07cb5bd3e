//===- Stats.h - Statistics of repeated measurements -------------*- C++ -*-===//
///
/// \file
/// The median and relative spread every measured number of segtime carries
/// (calibration, communication benchmarks; costvectors/README.md).
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PREDICTOR_STATS_H
#define SEGTIME_PREDICTOR_STATS_H

#include <optional>
#include <vector>

namespace segtime {

/// Median of V (mean of the two middle values for an even count); 0 if empty.
double median(std::vector<double> V);

/// Relative spread (max - min) / median of V, or nothing if V has fewer than
/// two values or its median is not positive.
std::optional<double> relSpread(const std::vector<double> &V);

} // namespace segtime

#endif
