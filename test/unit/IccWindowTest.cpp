//===- IccWindowTest.cpp - ICC: the smooth reorder window -----------------===//
///
/// \file
/// ICCModel::smoothWindow / windowTime (docs/models.md "ICC" 2c, the window
/// beyond the retiring iteration) against hand-computed values: per
/// iteration t_cyc x max(R, C x u / (u + W)), u = U / (chains started per
/// iteration), summed over the loop's counter in a triangular nest; the
/// p-norm form without the machine file's "reorder_window".
///
//===----------------------------------------------------------------------===//
#include "predictor/Expr.h"
#include "predictor/ResourceModel.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace segtime;

namespace {

/// 1 ns per cycle; no memory numbers (the window is a core term).
Machine machine() {
  Machine M;
  M.Name = "win";
  M.Path = "win.yaml";
  CostVector &I = M.Levels[Level::ICC]["any"];
  I.Unit = "ns";
  I.Costs["cycles"].Value = 1;
  I.Costs["*"].Value = 0;
  return M;
}

Node iccStage(const std::string &Id, double Cycles, double Thr, double Uops) {
  Node S;
  S.Id = Id;
  S.Ruvs["ICC:x"].add("cycles", Cycles);
  S.Ruvs["ICC:x"].add("rthroughput", Thr);
  S.Ruvs["ICC:x"].add("uops", Uops);
  return S;
}

} // namespace

TEST(ICCModel, SmoothWindowBeyondTheRetiringIteration) {
  // The outer loop of ChainsAcrossLoopsAndTheWindow (per iteration: chains
  // of C = 64 cycles, U = 50 reorder-buffer micro-ops, ports R = 9 cycles)
  // on a machine file with "reorder_window" W: K = 1 + W / U iterations in
  // flight, t = trip x max(R, C x U / (U + W)) cycles (t_cyc = 1 ns).
  Machine M = machine();
  M.Levels[Level::ICC]["any"].Costs["reorder_window"].Value = 150;
  ICCModel Icc(M, "x", "O2");
  ASSERT_TRUE(Icc.retireWindow());
  EXPECT_DOUBLE_EQ(*Icc.retireWindow(), 150);
  Node In;
  In.Kind = NodeKind::Loop;
  In.Trip = "16";
  In.Chain = "own";
  In.Body.push_back(iccStage("b", 4, 0.5, 3));
  Node Out;
  Out.Kind = NodeKind::Loop;
  Out.Trip = "t";
  Out.Body.push_back(iccStage("h", 2, 1, 3));
  Out.Body.back().Ruvs["ICC:x"].add("uops.macro_fused", 1);
  Out.Body.push_back(In);
  GiNaC::ex Core = 66e-9 * sym("t");
  auto At = [](const GiNaC::ex &E, double T) { return evaluate(E, {{"t", T}}); };
  // W = 150: K = 1 + 150 / 50 = 4, chains 64 / 4 = 16 cycles > R = 9.
  EXPECT_NEAR(At(Icc.overlap(Out, Core, 0, 352), 100), 100 * 16e-9, 1e-15);
  // The buffer argument (the scheduling model's) is not used.
  EXPECT_NEAR(At(Icc.overlap(Out, Core, 0, 40), 100), 100 * 16e-9, 1e-15);
  // A window smaller than an iteration still overlaps: W = 25, K = 1.5,
  // 64 / 1.5 = 42.67 cycles (no step at U = W).
  M.Levels[Level::ICC]["any"].Costs["reorder_window"].Value = 25;
  ICCModel Small(M, "x", "O2");
  EXPECT_NEAR(At(Small.overlap(Out, Core, 0, 352), 100), 100 * 64.0 * 50 / 75 * 1e-9, 1e-15);
  // A large window: the ports bind, 9 cycles.
  M.Levels[Level::ICC]["any"].Costs["reorder_window"].Value = 1000;
  ICCModel Large(M, "x", "O2");
  EXPECT_NEAR(At(Large.overlap(Out, Core, 0, 352), 100), 100 * 9e-9, 1e-15);
  // windowTime itself: 3 iterations, C = 100, U = 200, R = 10, W = 200, 2 ns.
  EXPECT_NEAR(evaluate(ICCModel::windowTime(3, 100, 200, 10, 200, 2e-9), {}), 3 * 50 * 2e-9,
              1e-18);
  // A machine file without the entry: the p-norm form as before.
  ICCModel Old(machine(), "x", "O2");
  EXPECT_FALSE(Old.retireWindow());
  EXPECT_NEAR(At(Old.overlap(Out, Core, 0, 352), 100),
              100 * std::hypot(9.0, 64.0 * 50 / 352) * 1e-9, 1e-15);
}

TEST(ICCModel, SmoothWindowSumsTriangularNestsAndCountsIndependentChains) {
  Machine M = machine();
  M.Levels[Level::ICC]["any"].Costs["reorder_window"].Value = 150;
  ICCModel Icc(M, "x", "O2");
  auto Inner = [](const std::string &Trip, const std::string &Chain) {
    Node In;
    In.Kind = NodeKind::Loop;
    In.Trip = Trip;
    In.Chain = Chain;
    In.Body.push_back(iccStage("b", 4, 0.5, 3));
    return In;
  };
  // A triangular nest: iteration k of the outer loop (counter k_o) runs an
  // inner chain of k steps (4 cycles, 0.5 by ports, 3 micro-ops each) after
  // a block of 2 reorder-buffer micro-ops (1 cycle by ports). Per
  // iteration: C = 4k, U = 2 + 3k, R = 1 + 0.5k; summed over k = 0..t-1.
  Node Tri;
  Tri.Kind = NodeKind::Loop;
  Tri.Trip = "t";
  Tri.Index = "k_o";
  Tri.Body.push_back(iccStage("h", 2, 1, 3));
  Tri.Body.back().Ruvs["ICC:x"].add("uops.macro_fused", 1);
  Tri.Body.push_back(Inner("k_o", "own"));
  double Want = 0;
  for (int K = 0; K < 10; ++K) {
    double U = 2 + 3.0 * K;
    Want += std::max(1 + 0.5 * K, 4.0 * K * U / (U + 150));
  }
  GiNaC::ex Core = 5e-9 * sym("t"); // not used: the window replaces it
  EXPECT_NEAR(evaluate(Icc.overlap(Tri, Core, 0, 352), {{"t", 10}}), Want * 1e-9, 1e-15);
  // Without the entry the p-norm form gives up on the counter: Core less
  // rule (a)'s saving on the block, (2 - 1) cycles per iteration.
  ICCModel Old(machine(), "x", "O2");
  EXPECT_NEAR(evaluate(Old.overlap(Tri, Core, 0, 352), {{"t", 10}}), 40e-9, 1e-18);

  // Two independent chains per iteration (two sibling loops, each its own
  // chain of 16 steps): C = 128 cycles, U = 2 + 96 = 98, so each chain
  // spans 49 micro-ops: 128 x 49 / (49 + 150) = 31.52 cycles > R = 17.
  Node Two;
  Two.Kind = NodeKind::Loop;
  Two.Trip = "t";
  Two.Body.push_back(Tri.Body[0]);
  Two.Body.push_back(Inner("16", "own"));
  Two.Body.push_back(Inner("16", "own"));
  EXPECT_NEAR(evaluate(Icc.overlap(Two, Core, 0, 352), {{"t", 100}}),
              100 * 128.0 * 49 / 199 * 1e-9, 1e-15);
  // The second chain continues the first (a remainder loop): one chain of
  // 98 micro-ops: 128 x 98 / 248 = 50.58 cycles.
  Two.Body[2].Chain = "continued";
  EXPECT_NEAR(evaluate(Icc.overlap(Two, Core, 0, 352), {{"t", 100}}),
              100 * 128.0 * 98 / 248 * 1e-9, 1e-15);
}
