//===- IccLatencyTest.cpp - ICC: loop-carried chains at measured latencies ===//
///
/// \file
/// ICCModel::blockCycles (docs/models.md "ICC", loop-carried chains) against
/// hand-computed values: cycles' = max(R, c - L_model + L_meas) when the
/// chain binds the block (L_model >= R), else max(c, L_meas); c without
/// latency entries in the machine file.
///
//===----------------------------------------------------------------------===//
#include "predictor/Formula.h"
#include "predictor/ResourceModel.h"

#include <gtest/gtest.h>

using namespace segtime;
using namespace GiNaC;

namespace {

/// 0.25 ns per cycle (4 GHz); with latencies: fp add 0.5 ns (2 cycles),
/// load 1.25 ns (5 cycles).
Machine iccMachine(bool WithLatencies) {
  Machine M;
  M.Name = "hand";
  CostVector &I = M.Levels[Level::ICC]["any"];
  I.Unit = "ns";
  I.Costs["cycles"].Value = 0.25;
  I.Costs["*"].Value = 0;
  if (WithLatencies) {
    I.Costs["latency.fp.add"].Value = 0.5;
    I.Costs["latency.load"].Value = 1.25;
  }
  return M;
}

Ruv block(std::map<std::string, double> Counts) {
  Ruv R;
  for (auto &[K, V] : Counts)
    R.add(K, V);
  return R;
}

Node stageOf(const Ruv &R) {
  Node N;
  N.Kind = NodeKind::Stage;
  N.Id = "ir1";
  N.Ruvs["ICC:t"] = R;
  return N;
}

double num(const ex &E) { return evaluate(E, {}); }

} // namespace

TEST(ICCLatency, MeasuredLatenciesInCycles) {
  ICCModel I(iccMachine(true), "t", "O2");
  EXPECT_DOUBLE_EQ(I.chainLatencies().at("fp.add"), 2);
  EXPECT_DOUBLE_EQ(I.chainLatencies().at("load"), 5);
  EXPECT_EQ(I.chainLatencies().count("fp.mul"), 0u);
}

// s += a[i]: one fp add of 3 model cycles binds the block (R = 1 < 3):
// max(1, 3.1 - 3 + 2) = 2.1 cycles = 0.525 ns.
TEST(ICCLatency, LatencyBoundBlockTakesMeasuredLatency) {
  ICCModel I(iccMachine(true), "t", "O2");
  Ruv B = block({{"cycles", 3.1}, {"rthroughput", 1}, {"lcd.fp.add", 1}, {"lcd.fp.add.model", 3}});
  EXPECT_DOUBLE_EQ(I.blockCycles(B), 2.1);
  EXPECT_NEAR(num(I.timeWeight()(stageOf(B))), 0.525e-9, 1e-21);
}

// The resource bound wins: R = 4 >= the chain's 3 model cycles; the
// measured 2 cycles change nothing: max(4, 2) = 4 cycles = 1 ns.
TEST(ICCLatency, ThroughputBoundBlockUnchanged) {
  ICCModel I(iccMachine(true), "t", "O2");
  Ruv B = block({{"cycles", 4}, {"rthroughput", 4}, {"lcd.fp.add", 1}, {"lcd.fp.add.model", 3}});
  EXPECT_DOUBLE_EQ(I.blockCycles(B), 4);
  EXPECT_NEAR(num(I.timeWeight()(stageOf(B))), 1e-9, 1e-21);
  // Not bound, but the measured chain is longer than the block: it binds.
  Ruv Slow = block({{"cycles", 4}, {"rthroughput", 4.5}, {"lcd.load", 1}, {"lcd.load.model", 4}});
  EXPECT_DOUBLE_EQ(I.blockCycles(Slow), 5);
}

// A pointer chase: load 4 model cycles, 5 measured: max(1, 4 - 4 + 5) = 5.
TEST(ICCLatency, LoadChainLongerThanModel) {
  ICCModel I(iccMachine(true), "t", "O2");
  Ruv B = block({{"cycles", 4}, {"rthroughput", 1}, {"lcd.load", 1}, {"lcd.load.model", 4}});
  EXPECT_DOUBLE_EQ(I.blockCycles(B), 5);
  EXPECT_NEAR(num(I.timeWeight()(stageOf(B))), 1.25e-9, 1e-21);
}

// Two fp adds (6 model cycles), one fp mul (3, not measured: kept), 1 other
// cycle: L_model = 10, L_meas = 2 x 2 + 3 + 1 = 8; c = 10.5, R = 2:
// max(2, 10.5 - 10 + 8) = 8.5 cycles.
TEST(ICCLatency, MixedChainKeepsUnmeasuredClasses) {
  ICCModel I(iccMachine(true), "t", "O2");
  Ruv B = block({{"cycles", 10.5},
                 {"rthroughput", 2},
                 {"lcd.fp.add", 2},
                 {"lcd.fp.add.model", 6},
                 {"lcd.fp.mul", 1},
                 {"lcd.fp.mul.model", 3},
                 {"lcd.other.model", 1}});
  EXPECT_DOUBLE_EQ(I.blockCycles(B), 8.5);
  // Only unmeasured classes on the chain: llvm-mca's cycles.
  Ruv Mul = block({{"cycles", 3}, {"rthroughput", 1}, {"lcd.fp.mul", 1}, {"lcd.fp.mul.model", 3}});
  EXPECT_DOUBLE_EQ(I.blockCycles(Mul), 3);
}

// A machine file without latency entries: the block's cycles, unchanged.
TEST(ICCLatency, NoLatencyEntriesNoChange) {
  ICCModel I(iccMachine(false), "t", "O2");
  EXPECT_TRUE(I.chainLatencies().empty());
  Ruv B = block({{"cycles", 3.1}, {"rthroughput", 1}, {"lcd.fp.add", 1}, {"lcd.fp.add.model", 3}});
  EXPECT_DOUBLE_EQ(I.blockCycles(B), 3.1);
  EXPECT_NEAR(num(I.timeWeight()(stageOf(B))), 0.775e-9, 1e-21);
}
