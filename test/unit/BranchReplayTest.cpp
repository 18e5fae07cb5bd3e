//===- BranchReplayTest.cpp - ICC: replayed data-dependent branches -------===//
///
/// \file
/// The share of the misprediction term left when a call runs again on the
/// same data (docs/models.md "branch mispredictions", unlearnedShare) and
/// ICCModel's learnable weights, against hand-computed values.
///
//===----------------------------------------------------------------------===//
#include "predictor/Expr.h"
#include "predictor/ResourceModel.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace segtime;

namespace {

/// 1 ns per cycle, a 10 ns misprediction, half point H = 32768 outcomes.
Machine machine(bool Replay) {
  Machine M;
  M.Name = "bp";
  M.Path = "bp.yaml";
  CostVector &I = M.Levels[Level::ICC]["any"];
  I.Unit = "ns";
  I.Costs["cycles"].Value = 1;
  I.Costs["*"].Value = 0;
  I.Costs["branch.mispredict"].Value = 10;
  if (Replay)
    I.Costs["branch.replay_half"].Value = 32768;
  return M;
}

Node branchStage(double Count, const std::string &Prob) {
  Node S;
  S.Id = "b";
  S.Ruvs["ICC:x"].add("cycles", 4);
  S.Ruvs["ICC:x"].add("branch.cond.data", Count);
  S.BranchProb = Prob;
  return S;
}

} // namespace

TEST(BranchReplay, UnlearnedShareIsARampOfOneOctave) {
  // f(M) = min(1, max(0, log2(M / H) + 1/2)), H = 32768.
  auto F = [](double M) { return evaluate(unlearnedShare(GiNaC::numeric(M), 32768), {}); };
  EXPECT_DOUBLE_EQ(F(0), 0);
  EXPECT_DOUBLE_EQ(F(16384), 0);            // log2 = -1: learned
  EXPECT_NEAR(F(32768), 0.5, 1e-12);        // the half point
  EXPECT_NEAR(F(32768 * std::sqrt(2.0)), 1, 1e-12);
  EXPECT_DOUBLE_EQ(F(1 << 20), 1);          // far beyond: every misprediction
  EXPECT_NEAR(F(40000), std::log2(40000.0 / 32768) + 0.5, 1e-12);
  // Symbolic M evaluates to the same.
  EXPECT_NEAR(evaluate(unlearnedShare(GiNaC::ex(sym("M")), 32768), {{"M", 32768}}), 0.5, 1e-12);
}

TEST(BranchReplay, LearnableWeightsOfTheMispredictionTerm) {
  ICCModel With(machine(true), "x", "O2"), Without(machine(false), "x", "O2");
  ASSERT_TRUE(With.replayHalf());
  EXPECT_DOUBLE_EQ(*With.replayHalf(), 32768);
  EXPECT_FALSE(Without.replayHalf());
  // Two data-dependent branches of P = 1/2 per execution: 2 x 1/2 x 10 ns
  // of mispredictions, 2 hard outcomes; P = 0.1: 2 x 0.1 x 10 ns, 0.4.
  Node Half = branchStage(2, "0.5"), Rare = branchStage(2, "0.1");
  StageWeight T = With.learnableWeight(), O = With.learnableOutcomes();
  ASSERT_TRUE(T && O);
  EXPECT_NEAR(evaluate(T(Half), {}), 10e-9, 1e-18);
  EXPECT_NEAR(evaluate(O(Half), {}), 2, 1e-12);
  EXPECT_NEAR(evaluate(T(Rare), {}), 2e-9, 1e-18);
  EXPECT_NEAR(evaluate(O(Rare), {}), 0.4, 1e-12);
  // The whole stage time includes the learnable part (4 ns of cycles + 10).
  EXPECT_NEAR(evaluate(With.timeWeight()(Half), {}), 14e-9, 1e-18);
  // A search step (its outcome steers a load: branch.chain.load) is learned
  // too, with the latency its chain exposes: 2 x 1/2 x (10 + 3) ns, 2
  // hard outcomes (the memory term counts a bisection's lines).
  Machine MC = machine(true);
  MC.Levels[Level::ICC]["any"].Costs["latency.load"].Value = 3;
  ICCModel WithChain(MC, "x", "O2");
  Node Search = branchStage(2, "0.5");
  Search.Ruvs["ICC:x"].add("branch.chain.load", 2);
  EXPECT_NEAR(evaluate(WithChain.learnableWeight()(Search), {}), 13e-9, 1e-18);
  EXPECT_NEAR(evaluate(WithChain.learnableOutcomes()(Search), {}), 2, 1e-12);
  EXPECT_NEAR(evaluate(T(Search), {}), 10e-9, 1e-18); // (no latency.load: no chain)
  // A branch whose probability is a static guess (a free symbol, not a
  // measured outcome) is charged nothing, so nothing is learnable.
  Node Guess = branchStage(2, "Pir_f_1_2");
  EXPECT_TRUE(evaluate(T(Guess), {{"Pir_f_1_2", 0.5}}) == 0);
  EXPECT_TRUE(evaluate(O(Guess), {{"Pir_f_1_2", 0.5}}) == 0);
}

TEST(BranchReplay, HalfPointIsTheLastCrossingFromBelow) {
  // log-linear between the two points around the crossing: 0.25 at 2^14,
  // 0.75 at 2^15 -> 2^14.5; points a half octave apart likewise.
  EXPECT_NEAR(replayHalfPoint({{8192, 0}, {16384, 0.25}, {32768, 0.75}, {65536, 1}}),
              16384 * std::sqrt(2.0), 1e-6);
  EXPECT_NEAR(replayHalfPoint({{16384, 0}, {16384 * std::sqrt(2.0), 1}}),
              16384 * std::pow(2.0, 0.25), 1e-6);
  // A noisy short pass above 1/2 below the crossing does not count: the
  // scan comes down from the longest pass.
  EXPECT_NEAR(replayHalfPoint({{2048, 0.8}, {4096, 0}, {8192, 0.5}, {16384, 1}}), 8192, 1e-9);
  // Exactly 1/2 at a point: that point.
  EXPECT_NEAR(replayHalfPoint({{1024, 0}, {2048, 0.5}, {4096, 1}}), 2048, 1e-9);
  // No crossing: the longest pass still learned, or no point learned.
  EXPECT_EQ(replayHalfPoint({{1024, 0}, {2048, 0.1}, {4096, 0.4}}), 0);
  EXPECT_EQ(replayHalfPoint({{1024, 0.6}, {2048, 0.9}}), 0);
  EXPECT_EQ(replayHalfPoint({{1024, 1}}), 0);
}

TEST(BranchReplay, SearchStepsWeighByTheirOwnHalfPoint) {
  // H = 32768, H_s = 8192: a search step counts 4 of the bytes' outcomes,
  // so a call of search steps alone has the share f(O, H_s).
  Machine MS = machine(true);
  MS.Levels[Level::ICC]["any"].Costs["branch.replay_half_search"].Value = 8192;
  ICCModel Search(MS, "x", "O2"), Bytes(machine(true), "x", "O2");
  Node Step = branchStage(2, "0.5"), Byte = branchStage(2, "0.5");
  Step.Ruvs["ICC:x"].add("branch.chain.load", 2);
  EXPECT_NEAR(evaluate(Search.learnableOutcomes()(Step), {}), 8, 1e-12);
  EXPECT_NEAR(evaluate(Search.learnableOutcomes()(Byte), {}), 2, 1e-12); // H for the rest
  EXPECT_NEAR(evaluate(Bytes.learnableOutcomes()(Step), {}), 2, 1e-12);  // no entry: as before
  // 1 of 2 branches a search step: 1 + 4.
  Node Mixed = branchStage(2, "0.5");
  Mixed.Ruvs["ICC:x"].add("branch.chain.load", 1);
  EXPECT_NEAR(evaluate(Search.learnableOutcomes()(Mixed), {}), 5, 1e-12);
  // 8192 steps a call: 32768 weighted outcomes, the share at H: 1/2.
  EXPECT_NEAR(evaluate(unlearnedShare(GiNaC::numeric(8192 * 32768 / 8192), 32768), {}), 0.5,
              1e-12);
}
