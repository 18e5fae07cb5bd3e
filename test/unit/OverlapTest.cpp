//===- OverlapTest.cpp - core/memory overlap model and its fit -------------===//
#include "predictor/Expr.h"
#include "predictor/MemoryModel.h"
#include "predictor/Overlap.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace segtime;

namespace {
double num(const GiNaC::ex &E) { return GiNaC::ex_to<GiNaC::numeric>(E.evalf()).to_double(); }
} // namespace

TEST(Overlap, PNormByHand) {
  // p = 1: the sum; p = 2: sqrt(3^2 + 4^2) = 5; large p: the max.
  EXPECT_DOUBLE_EQ(overlapTime(3.0, 4.0, 1), 7.0);
  EXPECT_NEAR(overlapTime(3.0, 4.0, 2), 5.0, 1e-12);
  EXPECT_NEAR(overlapTime(3.0, 4.0, 60), 4.0, 1e-6);
  // The Ice Lake case of the docs: 4 and 4.5 cycles per element, p = 2.5:
  // (4^2.5 + 4.5^2.5)^0.4 = (32 + 42.957)^0.4 = 74.957^0.4 = 5.622.
  EXPECT_NEAR(overlapTime(4.0, 4.5, 2.5), std::pow(32 + std::pow(4.5, 2.5), 0.4), 1e-12);
  EXPECT_NEAR(overlapTime(4.0, 4.5, 2.5), 5.622, 1e-3);
  // No overflow with tiny times and large p.
  EXPECT_NEAR(overlapTime(2e-9, 1e-9, 50), 2e-9, 1e-15);
  EXPECT_DOUBLE_EQ(overlapTime(0.0, 0.0, 3), 0.0);
  // The expression evaluates to the same; at the largest exponent it is max.
  EXPECT_NEAR(num(overlapTime(GiNaC::ex(3), GiNaC::ex(4), 2)), 5.0, 1e-12);
  EXPECT_NEAR(num(overlapTime(GiNaC::ex(3), GiNaC::ex(4), MaxOverlapExponent)), 4.0, 0);
  // A symbolic p-norm prints (the printer's term order must not ask a real
  // power for its degree) and evaluates.
  GiNaC::ex E = overlapTime(parseExpr("n"), parseExpr("2*n + 1"), 2.1) + parseExpr("n^2");
  EXPECT_NO_THROW(toString(E));
  EXPECT_NEAR(evaluate(E, {{"n", 1}}), 1 + overlapTime(1.0, 3.0, 2.1), 1e-12);
}

TEST(Overlap, FitRecoversAKnownExponent) {
  // Synthetic points from p = 2.5 over core/memory ratios 0.25..4.
  std::vector<double> Tc, Tm, T;
  for (double C : {1.0, 2.0, 4.0, 8.0, 16.0})
    for (double M : {2.0, 4.5}) {
      Tc.push_back(C * 1e-3);
      Tm.push_back(M * 1e-3);
      T.push_back(overlapTime(C, M, 2.5) * 1e-3);
    }
  OverlapFit F = fitOverlap(Tc, Tm, T);
  EXPECT_NEAR(F.P, 2.5, 0.025); // within 1 %
  EXPECT_LT(F.RmsRel, 1e-6);
  EXPECT_GT(F.RmsMax, 0.01);
  EXPECT_GT(F.RmsSum, 0.1);
  ASSERT_EQ(F.Residuals.size(), T.size());
  // Full overlap measured: the fit goes to the bound (max).
  std::vector<double> Max;
  for (size_t I = 0; I < T.size(); ++I)
    Max.push_back(std::max(Tc[I], Tm[I]));
  EXPECT_NEAR(fitOverlap(Tc, Tm, Max).P, MaxOverlapExponent, 1e-6);
  // No overlap measured: the sum, p = 1.
  std::vector<double> Sum;
  for (size_t I = 0; I < T.size(); ++I)
    Sum.push_back(Tc[I] + Tm[I]);
  EXPECT_NEAR(fitOverlap(Tc, Tm, Sum).P, 1.0, 1e-6);
}

TEST(Overlap, FitRejectsBadInput) {
  EXPECT_THROW(fitOverlap({}, {}, {}), std::invalid_argument);
  EXPECT_THROW(fitOverlap({1}, {1, 2}, {1}), std::invalid_argument);
  EXPECT_THROW(fitOverlap({1}, {0}, {1}), std::invalid_argument);
}

TEST(Overlap, MemoryModelCombinesByFootprint) {
  Machine M;
  M.Name = "ovl";
  auto E = [](double V, const char *U) { return CostEntry::of(V, U, "estimated", "test"); };
  M.Params["memory.DRAM.bandwidth"] = E(10e9, "B/s");
  std::string Why;
  auto Plain = MemoryModel::fromMachine(M, Why);
  ASSERT_TRUE(Plain) << Why;
  // Without an overlap curve: max, and no exponent.
  EXPECT_DOUBLE_EQ(num(Plain->combine(3, 4, 1e6)), 4.0);
  EXPECT_FALSE(Plain->overlapExponent(1e6));
  // Two points: p = 8 at 1 MB, p = 2 at 100 MB (step at sqrt(1e6 * 1e8) = 1e7).
  M.Params[memoryCurveKey(0, "working_set", "overlap")] = E(1e6, "B");
  M.Params[memoryCurveKey(0, "exponent", "overlap")] = E(8, "1");
  M.Params[memoryCurveKey(1, "working_set", "overlap")] = E(1e8, "B");
  M.Params[memoryCurveKey(1, "exponent", "overlap")] = E(2, "1");
  auto Mem = MemoryModel::fromMachine(M, Why);
  ASSERT_TRUE(Mem) << Why;
  EXPECT_DOUBLE_EQ(*Mem->overlapExponent(5e6), 8);
  EXPECT_DOUBLE_EQ(*Mem->overlapExponent(2e7), 2);
  EXPECT_NEAR(num(Mem->combine(3, 4, 2e7)), 5.0, 1e-12);
  EXPECT_NEAR(num(Mem->combine(3, 4, 5e6)), overlapTime(3.0, 4.0, 8), 1e-12);
  // A symbolic footprint selects the step when it is evaluated.
  GiNaC::ex F = parseExpr("16*n");
  GiNaC::ex T = Mem->combine(3, 4, F);
  EXPECT_NEAR(evaluate(T, {{"n", 2e6}}), 5.0, 1e-12);           // 32 MB: p = 2
  EXPECT_NEAR(evaluate(T, {{"n", 1e5}}), overlapTime(3.0, 4.0, 8), 1e-12); // 1.6 MB
  // An exponent below 1 is an error that names the key.
  M.Params[memoryCurveKey(1, "exponent", "overlap")] = E(0.5, "1");
  EXPECT_THROW(MemoryModel::fromMachine(M, Why), std::runtime_error);
}
