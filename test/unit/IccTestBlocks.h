//===- IccTestBlocks.h - Hand-made ICC machines and blocks ------*- C++ -*-===//
///
/// \file
/// What the ICC unit tests share: a hand-made machine file at 0.25 ns per
/// cycle (4 GHz) with the ICC costs a test names, a block's RUV from its
/// counts, a stage node that carries it, and the block's time in s by the
/// model's time weight.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_TEST_UNIT_ICCTESTBLOCKS_H
#define SEGTIME_TEST_UNIT_ICCTESTBLOCKS_H

#include "core/Vocabulary.h"
#include "predictor/Formula.h"
#include "predictor/ResourceModel.h"

#include <map>
#include <string>

namespace segtime_test {

/// A machine "hand" whose ICC "any" cost vector is in ns: 0.25 ns per cycle,
/// every other key 0 ("*"), and Costs (key -> ns) on top.
inline segtime::Machine handIccMachine(const std::map<std::string, double> &Costs = {}) {
  segtime::Machine M;
  M.Name = "hand";
  segtime::CostVector &I = M.Levels[segtime::Level::ICC]["any"];
  I.Unit = "ns";
  I.Costs["cycles"].Value = 0.25;
  I.Costs["*"].Value = 0;
  for (const auto &[K, V] : Costs)
    I.Costs[K].Value = V;
  return M;
}

/// A block's ICC RUV from its counts (key -> count per execution).
inline segtime::Ruv iccBlock(const std::map<std::string, double> &Counts) {
  segtime::Ruv R;
  for (const auto &[K, V] : Counts)
    R.add(K, V);
  return R;
}

/// A stage node "ir1" carrying R as its ICC RUV of target "t".
inline segtime::Node iccStage(const segtime::Ruv &R) {
  segtime::Node N;
  N.Kind = segtime::NodeKind::Stage;
  N.Id = "ir1";
  N.Ruvs["ICC:t"] = R;
  return N;
}

/// The time in s of one execution of block B under model I.
inline double iccSeconds(const segtime::ICCModel &I, const segtime::Ruv &B) {
  return segtime::evaluate(I.timeWeight()(iccStage(B)), {});
}

/// Counts C less the keys that start with Prefix.
inline std::map<std::string, double> withoutKeys(std::map<std::string, double> C,
                                                 const std::string &Prefix) {
  for (auto It = C.begin(); It != C.end();)
    It = It->first.rfind(Prefix, 0) == 0 ? C.erase(It) : std::next(It);
  return C;
}

} // namespace segtime_test

#endif
