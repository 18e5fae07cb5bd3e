//===- MemoryModel.h - The ICC memory term -----------------------*- C++ -*-===//
///
/// \file
/// The memory term of the out-of-order ICC model (issue 3, docs/models.md):
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
/// core and the memory transfers overlap fully (the larger one wins).
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PREDICTOR_MEMORYMODEL_H
#define SEGTIME_PREDICTOR_MEMORYMODEL_H

#include "predictor/Machine.h"

#include <ginac/ginac.h>
#include <optional>
#include <string>
#include <vector>

namespace segtime {

/// Key of field Field ("working_set", "bandwidth") of point Point of the
/// measured bandwidth curve: "memory.curve.NN.Field" (written by `segtime
/// calibrate`, read by MemoryModel::fromMachine).
std::string memoryCurveKey(size_t Point, const std::string &Field);

class MemoryModel {
public:
  struct Level {
    std::string Name;     ///< "L1", "L2", "L3", "DRAM"
    double Size = 0;      ///< B (infinity for DRAM)
    double Bandwidth = 0; ///< B/s, bytes loaded + stored per second
  };
  /// The memory levels of M (memory.L1 .. L3 size and bandwidth, and
  /// memory.DRAM.bandwidth; cache levels without both numbers are skipped).
  /// Returns nullopt and sets Why if M has no DRAM bandwidth.
  static std::optional<MemoryModel> fromMachine(const Machine &M, std::string &Why);
  /// V / B(F) in seconds, as an expression (cmp_lt(size, F) selects the
  /// level; numeric when V and F are).
  GiNaC::ex time(const GiNaC::ex &Traffic, const GiNaC::ex &Footprint) const;
  /// The level a footprint of F bytes lives in.
  const Level &levelOf(double F) const;
  const std::vector<Level> &levels() const { return Levels; }

private:
  std::vector<Level> Levels; ///< by increasing size, DRAM last
};

} // namespace segtime

#endif
