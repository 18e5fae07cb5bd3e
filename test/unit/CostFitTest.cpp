//===- CostFitTest.cpp - Weighted NNLS and the group-multiplier fit --------===//
///
/// \file
/// relativeNnls and fitGroupMultipliers (predictor/CostFit.h) on small
/// systems solved by hand: exact recovery, the one-group weighted solution
/// s = sum a_i / sum a_i^2 (a_i = G_i / t_i) with its leave-one-out errors,
/// the active-set rule, an undetermined group, and the key groups.
///
//===----------------------------------------------------------------------===//
#include "predictor/CostFit.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

using namespace segtime;

TEST(CostFit, RecoversExactMultipliers) {
  // t = 2 G_0 + 0.5 G_1 exactly (seconds).
  DenseRows G{{1e-3, 0}, {0, 1e-3}, {1e-3, 1e-3}};
  std::vector<double> T{2e-3, 0.5e-3, 2.5e-3};
  GroupFit F = fitGroupMultipliers(G, T, {"fp", "int"});
  ASSERT_EQ(F.S.size(), 2u);
  EXPECT_NEAR(F.S[0], 2.0, 1e-12);
  EXPECT_NEAR(F.S[1], 0.5, 1e-12);
  for (size_t I = 0; I < 3; ++I) {
    EXPECT_NEAR(F.Rel[I], 0, 1e-12);
    EXPECT_NEAR(F.LooRel[I], 0, 1e-12); // every two rows still determine s
  }
  // With the construct costs alone (s = 1): (1 - 2)/2, (1 - 0.5)/0.5, (2 - 2.5)/2.5.
  EXPECT_NEAR(F.Rel0[0], -0.5, 1e-12);
  EXPECT_NEAR(F.Rel0[1], 1.0, 1e-12);
  EXPECT_NEAR(F.Rel0[2], -0.2, 1e-12);
  EXPECT_TRUE(F.Determined[0] && F.Determined[1]);
  EXPECT_FALSE(F.Fixed[0] || F.Fixed[1]);
}

TEST(CostFit, OneGroupWeightedSolutionAndLeaveOneOut) {
  // a = G/t = (1, 2): s = (1 + 2) / (1 + 4) = 0.6; residuals 0.6 - 1, 1.2 - 1.
  DenseRows G{{1}, {2}};
  std::vector<double> T{1, 1};
  // Two repetitions: t = (1, 1) and (2, 2) give s = 0.6 and 1.2.
  DenseRows ByRep{{1, 1}, {2, 2}};
  GroupFit F = fitGroupMultipliers(G, T, {"fp"}, ByRep);
  EXPECT_NEAR(F.S[0], 0.6, 1e-12);
  EXPECT_NEAR(F.Rel[0], -0.4, 1e-12);
  EXPECT_NEAR(F.Rel[1], 0.2, 1e-12);
  EXPECT_NEAR(F.RmsRel, std::sqrt((0.16 + 0.04) / 2), 1e-12);
  // Leave out kernel 0: s = 1/2 predicts 0.5 (-50 %); leave out 1: s = 1 predicts 2 (+100 %).
  EXPECT_NEAR(F.LooRel[0], -0.5, 1e-12);
  EXPECT_NEAR(F.LooRel[1], 1.0, 1e-12);
  EXPECT_NEAR(F.MedianAbsLoo, 0.75, 1e-12);
  // spread (max - min) / median of (0.6, 1.2) = 0.6 / 0.9.
  ASSERT_TRUE(F.Spread[0].has_value());
  EXPECT_NEAR(*F.Spread[0], 0.6 / 0.9, 1e-12);
}

TEST(CostFit, NegativeMultiplierFixedAtZero) {
  // Unconstrained: s0 + s1 = 1, s0 = 2, so s1 = -1. Fixed at 0, s0 refits on
  // a = (1, 1/2): s0 = 1.5 / 1.25 = 1.2.
  DenseRows G{{1, 1}, {1, 0}};
  std::vector<double> T{1, 2};
  GroupFit F = fitGroupMultipliers(G, T, {"fp", "int"});
  EXPECT_TRUE(F.Fixed[1]);
  EXPECT_EQ(F.S[1], 0.0);
  EXPECT_NEAR(F.LsS[1], -1.0, 1e-9);
  EXPECT_NEAR(F.S[0], 1.2, 1e-12);
  EXPECT_FALSE(F.Spread[1].has_value());
}

TEST(CostFit, UndeterminedGroupKeepsOne) {
  // Group 1 carries 0.05 % of kernel 0 and nothing of kernel 1: it keeps
  // s = 1 and its time moves to the right-hand side (2.001 - 0.001 = 2).
  DenseRows G{{1, 0.001}, {2, 0}};
  std::vector<double> T{2.001, 4};
  GroupFit F = fitGroupMultipliers(G, T, {"fp", "int"});
  EXPECT_TRUE(F.Determined[0]);
  EXPECT_FALSE(F.Determined[1]);
  EXPECT_EQ(F.S[1], 1.0);
  EXPECT_NEAR(F.S[0], 2.0, 1e-12);
}

TEST(CostFit, BadInputIsAnError) {
  EXPECT_THROW(fitGroupMultipliers({{1}}, {1}, {"fp"}), std::runtime_error); // one kernel
  EXPECT_THROW(fitGroupMultipliers({{1}, {1}}, {1}, {"fp"}), std::runtime_error);
  EXPECT_THROW(fitGroupMultipliers({{1}, {1, 2}}, {1, 1}, {"fp"}), std::runtime_error);
  EXPECT_THROW(fitGroupMultipliers({{1}, {1}}, {1, 0}, {"fp"}), std::runtime_error);
  try {
    relativeNnls({{1, 0}, {2, 0}}, {1, 2}, {"f64.add", "f64.div"});
    FAIL() << "a column of zeros must be an error";
  } catch (const std::runtime_error &E) {
    EXPECT_NE(std::string(E.what()).find("f64.div"), std::string::npos) << E.what();
  }
}

TEST(CostFit, RelativeNnlsMatchesHandSolution) {
  // One column, a = A/t = (1, 2): x = 3/5, as for the group fit.
  NonNegativeLs R = relativeNnls({{1}, {2}}, {1, 1}, {"x"});
  EXPECT_NEAR(R.X[0], 0.6, 1e-12);
  EXPECT_FALSE(R.Fixed[0]);
}

TEST(CostFit, Groups) {
  EXPECT_EQ(costGroups(Level::HLLC).size(), 6u);
  EXPECT_EQ(costGroups(Level::IntCC).size(), 7u);
  EXPECT_THROW(costGroups(Level::POC), std::invalid_argument);
  EXPECT_THROW(costGroup(Level::ICC, "cycles"), std::invalid_argument);
  const std::pair<const char *, const char *> Hllc[] = {
      {"f64.add", "fp"},   {"f32.cmp", "fp"},       {"f64.div", "div"},
      {"i32.rem", "div"},  {"f32.sqrt", "div"},     {"f64.trig", "math"},
      {"f32.libm", "math"}, {"i64.mul", "int"},     {"cvt.i2f", "int"},
      {"mem.array.read", "mem"}, {"mem.copy.byte", "mem"}, {"loop", "control"},
      {"call", "control"}, {"switch", "control"}};
  for (auto [K, G] : Hllc)
    EXPECT_EQ(costGroup(Level::HLLC, K), G) << K;
  const std::pair<const char *, const char *> Intcc[] = {
      {"fadd.*", "fp"},        {"call.llvm.fmuladd.f64", "fp"}, {"sitofp.*", "fp"},
      {"fdiv.*", "div"},       {"srem.*", "div"},               {"call.sqrt", "div"},
      {"call.llvm.sqrt.f64", "div"}, {"call.exp", "math"},      {"call.sinf", "math"},
      {"getelementptr.*", "int"}, {"icmp.*", "int"},            {"call.llvm.abs.i32", "int"},
      {"load.*", "load"},      {"store.*", "store"},            {"br", "other"},
      {"phi.*", "other"},      {"*", "other"},                  {"call.nop0", "other"},
      {"call.llvm.memcpy.ptr", "other"}};
  for (auto [K, G] : Intcc)
    EXPECT_EQ(costGroup(Level::IntCC, K), G) << K;
}

TEST(CostFit, MathGroupIsHeldAtOne) {
  // t = 2 G_fp + 1 G_math: with math held at 1 its time moves to the
  // right-hand side and fp alone is fitted (exactly 2); a free math group
  // would be fitted too, but library calls are timed directly.
  DenseRows G{{1e-3, 1e-3}, {2e-3, 0.5e-3}, {1e-3, 3e-3}};
  std::vector<double> T{3e-3, 4.5e-3, 5e-3};
  GroupFit F = fitGroupMultipliers(G, T, {"fp", "math"});
  EXPECT_TRUE(heldAtOne("math"));
  EXPECT_FALSE(heldAtOne("fp"));
  EXPECT_NEAR(F.S[0], 2.0, 1e-12);
  EXPECT_DOUBLE_EQ(F.S[1], 1.0);
  EXPECT_FALSE(F.Determined[1]);
  for (double R : F.Rel)
    EXPECT_NEAR(R, 0, 1e-12);
}
