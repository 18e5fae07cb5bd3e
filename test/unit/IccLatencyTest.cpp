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
#include "IccTestBlocks.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace segtime;
using namespace GiNaC;
using namespace segtime_test;

namespace {

/// The hand machine; with latencies: fp add 0.5 ns (2 cycles), load
/// 1.25 ns (5 cycles).
Machine iccMachine(bool WithLatencies) {
  if (!WithLatencies)
    return handIccMachine();
  return handIccMachine({{"latency.fp.add", 0.5}, {"latency.load", 1.25}});
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
  Ruv B = iccBlock({{"cycles", 3.1}, {"rthroughput", 1}, {"lcd.fp.add", 1}, {"lcd.fp.add.model", 3}});
  EXPECT_DOUBLE_EQ(I.blockCycles(B), 2.1);
  EXPECT_NEAR(num(I.timeWeight()(iccStage(B))), 0.525e-9, 1e-21);
}

// The resource bound wins: R = 4 >= the chain's 3 model cycles; the
// measured 2 cycles change nothing: max(4, 2) = 4 cycles = 1 ns.
TEST(ICCLatency, ThroughputBoundBlockUnchanged) {
  ICCModel I(iccMachine(true), "t", "O2");
  Ruv B = iccBlock({{"cycles", 4}, {"rthroughput", 4}, {"lcd.fp.add", 1}, {"lcd.fp.add.model", 3}});
  EXPECT_DOUBLE_EQ(I.blockCycles(B), 4);
  EXPECT_NEAR(num(I.timeWeight()(iccStage(B))), 1e-9, 1e-21);
  // Not bound, but the measured chain is longer than the block: it binds.
  Ruv Slow = iccBlock({{"cycles", 4}, {"rthroughput", 4.5}, {"lcd.load", 1}, {"lcd.load.model", 4}});
  EXPECT_DOUBLE_EQ(I.blockCycles(Slow), 5);
}

// A pointer chase: load 4 model cycles, 5 measured: max(1, 4 - 4 + 5) = 5.
TEST(ICCLatency, LoadChainLongerThanModel) {
  ICCModel I(iccMachine(true), "t", "O2");
  Ruv B = iccBlock({{"cycles", 4}, {"rthroughput", 1}, {"lcd.load", 1}, {"lcd.load.model", 4}});
  EXPECT_DOUBLE_EQ(I.blockCycles(B), 5);
  EXPECT_NEAR(num(I.timeWeight()(iccStage(B))), 1.25e-9, 1e-21);
}

// Two fp adds (6 model cycles), one fp mul (3, not measured: kept), 1 other
// cycle: L_model = 10, L_meas = 2 x 2 + 3 + 1 = 8; c = 10.5, R = 2:
// max(2, 10.5 - 10 + 8) = 8.5 cycles.
TEST(ICCLatency, MixedChainKeepsUnmeasuredClasses) {
  ICCModel I(iccMachine(true), "t", "O2");
  Ruv B = iccBlock({{"cycles", 10.5},
                 {"rthroughput", 2},
                 {"lcd.fp.add", 2},
                 {"lcd.fp.add.model", 6},
                 {"lcd.fp.mul", 1},
                 {"lcd.fp.mul.model", 3},
                 {"lcd.other.model", 1}});
  EXPECT_DOUBLE_EQ(I.blockCycles(B), 8.5);
  // Only unmeasured classes on the chain: llvm-mca's cycles.
  Ruv Mul = iccBlock({{"cycles", 3}, {"rthroughput", 1}, {"lcd.fp.mul", 1}, {"lcd.fp.mul.model", 3}});
  EXPECT_DOUBLE_EQ(I.blockCycles(Mul), 3);
}

// A machine file without latency entries: the block's cycles, unchanged.
TEST(ICCLatency, NoLatencyEntriesNoChange) {
  ICCModel I(iccMachine(false), "t", "O2");
  EXPECT_TRUE(I.chainLatencies().empty());
  Ruv B = iccBlock({{"cycles", 3.1}, {"rthroughput", 1}, {"lcd.fp.add", 1}, {"lcd.fp.add.model", 3}});
  EXPECT_DOUBLE_EQ(I.blockCycles(B), 3.1);
  EXPECT_NEAR(num(I.timeWeight()(iccStage(B))), 0.775e-9, 1e-21);
}

// --- port classes: measured reciprocal throughputs (docs/models.md "ICC" 4c) --

namespace {
/// 0.25 ns per cycle; FMA 0.5 cycle (0.125 ns) and fp-to-int conversion 1
/// cycle (0.25 ns) per instruction; with Fma4, also the FMA latency 4
/// cycles (1 ns).
Machine portMachine(bool Fma4 = false) {
  Machine M = iccMachine(false);
  CostVector &I = M.Levels[Level::ICC]["any"];
  I.Costs["throughput.fp.fma"].Value = 0.125;
  I.Costs["throughput.fp.cvt"].Value = 0.25;
  if (Fma4)
    I.Costs["latency.fp.fma"].Value = 1;
  return M;
}
} // namespace

TEST(ICCPorts, MeasuredThroughputReplacesTheModelsBound) {
  ICCModel I(portMachine(), "t", "O2");
  EXPECT_DOUBLE_EQ(I.portThroughputs().at("fp.fma"), 0.5);
  EXPECT_DOUBLE_EQ(I.portThroughputs().at("fp.cvt"), 1);
  // Eight scalar FMAs at the model's 1 cycle bind R = 8; without them 2.5:
  // max(2.5, 8 x 0.5) = 4 cycles.
  Ruv B = iccBlock({{"cycles", 8}, {"rthroughput", 8}, {"tp.fp.fma", 8}, {"tp.rest", 2.5}});
  EXPECT_DOUBLE_EQ(I.blockRThroughput(B), 4);
  // At its port bound (c = 8 <= 1.1 R): c - R + R' = 4 cycles = 1 ns.
  EXPECT_DOUBLE_EQ(I.blockCycles(B), 4);
  EXPECT_NEAR(num(I.timeWeight()(iccStage(B))), 1e-9, 1e-21);
  // Shared pipes: six FMAs and four multiplies on the two FMA pipes (R = (6
  // x 2 + 4) / 2 = 8 model cycles, the multiplies' share 2): max(2.83, 2 +
  // 6 x 0.5) = 5 cycles.
  Ruv S = iccBlock({{"cycles", 8.06},
                 {"rthroughput", 8},
                 {"tp.fp.fma", 6},
                 {"tp.rest", 2.83},
                 {"tp.shared", 2}});
  EXPECT_DOUBLE_EQ(I.blockRThroughput(S), 5);
  EXPECT_NEAR(I.blockCycles(S), 8.06 - 8 + 5, 1e-12);
  // The rest binds: 8 conversions at 1 cycle below the rest's 9 cycles.
  Ruv C = iccBlock({{"cycles", 22.4}, {"rthroughput", 22.7}, {"tp.fp.cvt", 8}, {"tp.rest", 9}});
  EXPECT_DOUBLE_EQ(I.blockRThroughput(C), 9);
  EXPECT_NEAR(I.blockCycles(C), 22.4 - 22.7 + 9, 1e-12);
  // A block whose llvm-mca cycles are well above its port bound (an
  // unrecorded chain) keeps them.
  Ruv D = iccBlock({{"cycles", 12}, {"rthroughput", 8}, {"tp.fp.fma", 8}, {"tp.rest", 2.5}});
  EXPECT_DOUBLE_EQ(I.blockCycles(D), 12);
  // A class without an entry: the model's bound.
  Ruv E = iccBlock({{"cycles", 10}, {"rthroughput", 10}, {"tp.fp.div", 2}, {"tp.rest", 4.5}});
  EXPECT_DOUBLE_EQ(I.blockRThroughput(E), 10);
  EXPECT_DOUBLE_EQ(I.blockCycles(E), 10);
}

// Horner's block: a chain of 8 FMAs (32 model cycles, 4 measured each)
// binds it; its ports fall from 8 to max(2, 8 x 0.5) = 4 cycles, its cycles
// stay the chain's: max(4, 32 - 32 + 32) = 32.
TEST(ICCPorts, ChainBoundBlockKeepsItsChain) {
  ICCModel I(portMachine(true), "t", "O2");
  Ruv B = iccBlock({{"cycles", 32},
                 {"rthroughput", 8},
                 {"lcd.fp.fma", 8},
                 {"lcd.fp.fma.model", 32},
                 {"tp.fp.fma", 8},
                 {"tp.rest", 2}});
  EXPECT_DOUBLE_EQ(I.blockRThroughput(B), 4);
  EXPECT_DOUBLE_EQ(I.blockCycles(B), 32);
}

// The composition in the window (ICCModel::window, docs/models.md "ICC" 2c):
// t outer iterations, each a block (1 cycle by resources, 3 micro-ops, one
// pair macro-fused) and an inner loop of 2 iterations of Horner's block
// above (13 micro-ops, one pair fused; chain "own": restarted in each outer
// iteration). Per outer iteration: chain C = 2 x 32 = 64 cycles, U = 2 + 2 x
// 12 = 26 micro-ops, ports R = 1 + 2 x 4 = 9 cycles (the model's: 1 + 2 x 8
// = 17). Window 416 micro-ops: Little's law 64 x 26 / 416 = 4 cycles; the
// p-norm with the ports: sqrt(9^2 + 4^2) cycles per outer iteration, x
// 0.25 ns.
TEST(ICCPorts, RestartedChainsOverlapAtTheMeasuredPorts) {
  ICCModel I(portMachine(true), "t", "O2");
  Node In;
  In.Kind = NodeKind::Loop;
  In.Trip = "2";
  In.Chain = "own";
  Node B;
  B.Kind = NodeKind::Stage;
  B.Id = "b";
  B.Ruvs["ICC:t"] = iccBlock({{"cycles", 32},
                           {"rthroughput", 8},
                           {"uops", 13},
                           {"uops.macro_fused", 1},
                           {"lcd.fp.fma", 8},
                           {"lcd.fp.fma.model", 32},
                           {"tp.fp.fma", 8},
                           {"tp.rest", 2}});
  In.Body.push_back(B);
  Node Out;
  Out.Kind = NodeKind::Loop;
  Out.Trip = "t";
  Node H;
  H.Kind = NodeKind::Stage;
  H.Id = "h";
  H.Ruvs["ICC:t"] = iccBlock({{"cycles", 1}, {"rthroughput", 1}, {"uops", 3}, {"uops.macro_fused", 1}});
  Out.Body.push_back(H);
  Out.Body.push_back(In);
  GiNaC::ex Core = 0.25e-9 * 65 * sym("t");
  double Want = std::hypot(9.0, 4.0) * 0.25e-9;
  EXPECT_NEAR(evaluate(I.overlap(Out, Core, 0, 416), {{"t", 100}}), 100 * Want, 1e-15);
  // Without the throughput entries: the model's ports, 17 cycles.
  ICCModel Old(iccMachine(false), "t", "O2");
  double Chain = 2 * 32.0; // the model's FMA latency: 4 cycles, as measured
  double WantOld = std::hypot(17.0, Chain * 26 / 416) * 0.25e-9;
  EXPECT_NEAR(evaluate(Old.overlap(Out, Core, 0, 416), {{"t", 100}}), 100 * WantOld, 1e-15);
}
