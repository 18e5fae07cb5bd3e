//===- CompareTest.cpp - compare: statistics, node forms, one run ---------===//
#include "predictor/Compare.h"
#include "predictor/Formula.h"
#include "SegFixtures.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace segtime;
using namespace segtime_test;

namespace {

// |e| = 1, 2, 3, 4: mean 2.5, s = sqrt(5/3) = 1.2909944, t_{0.95,3} = 2.3533634,
// half-width 2.3533634 * 1.2909944 / 2 = 1.5190896; bias (1-2+3-4)/4 = -0.5.
TEST(CompareStats, HandComputed) {
  ErrorStats S = errorStats({1, -2, 3, -4});
  EXPECT_EQ(S.N, 4u);
  EXPECT_DOUBLE_EQ(S.Mean, 2.5);
  EXPECT_NEAR(S.SD, 1.2909944, 1e-7);
  EXPECT_DOUBLE_EQ(S.Min, 1);
  EXPECT_DOUBLE_EQ(S.Max, 4);
  EXPECT_DOUBLE_EQ(S.Bias, -0.5);
  ASSERT_TRUE(S.CILow && S.CIHigh);
  EXPECT_NEAR(*S.CILow, 2.5 - 1.5190896, 1e-6);
  EXPECT_NEAR(*S.CIHigh, 2.5 + 1.5190896, 1e-6);
}

TEST(CompareStats, OneValueHasNoInterval) {
  ErrorStats S = errorStats({-7});
  EXPECT_EQ(S.N, 1u);
  EXPECT_DOUBLE_EQ(S.Mean, 7);
  EXPECT_DOUBLE_EQ(S.SD, 0);
  EXPECT_DOUBLE_EQ(S.Bias, -7);
  EXPECT_FALSE(S.CILow);
}

TEST(CompareStats, BadInput) {
  EXPECT_THROW(errorStats({}), std::invalid_argument);
  EXPECT_THROW(errorStats({1, NAN}), std::invalid_argument);
  EXPECT_THROW(studentT90(0), std::invalid_argument);
}

// t_{0.95, v} (Boost.Math) against the tabulated values (NIST/SEMATECH
// e-Handbook 1.3.6.7.2, 4 decimals) and the normal limit.
TEST(CompareStats, StudentT) {
  EXPECT_NEAR(studentT90(1), 6.3138, 1e-4); // the tables' 4 decimals
  EXPECT_NEAR(studentT90(20), 1.7247, 1e-4);
  EXPECT_NEAR(studentT90(31), 1.6955, 1e-4);
  EXPECT_NEAR(studentT90(40), 1.6839, 1e-4);
  EXPECT_NEAR(studentT90(60), 1.6706, 1e-4);
  EXPECT_NEAR(studentT90(120), 1.6577, 1e-4);
  EXPECT_NEAR(studentT90(1000000), 1.6448536, 1e-5);
}

// Warwick-94 Table 7, HLLC: mean 8.19, s 4.65 over n = 21 (7 processor counts
// x 3 kernels) gives (6.44, 9.94) with t_{0.95,20}; the paper's (6.52, 9.85)
// is the normal quantile 1.645 (half-width 1.669).
TEST(CompareStats, WarwickTable7Interval) {
  double Half = studentT90(20) * 4.65 / std::sqrt(21.0);
  EXPECT_NEAR(8.19 - Half, 6.44, 0.005);
  EXPECT_NEAR(8.19 + Half, 9.94, 0.005);
}

Node stage(const std::string &Id, const std::string &Op, double N, double Flop) {
  return stageNode(Id, {{Op, N}}, Flop);
}

Node loop(const std::string &Id, const std::string &Index, const std::string &Trip,
          unsigned Line, unsigned Col, NodeList Body) {
  Node L = forLoop(Id, Index, Trip, std::move(Body));
  L.Range = {"k.c", Line, Col, Line + 2, 1};
  return L;
}

/// f(n): for (i < n) { [v2: loop] for (j < i) { v4: 1 f64.add, 1 flop } }
///       v5: 10 f64.add, 10 flop
SegFile file() {
  SegFile S;
  S.OptLevel = "O2";
  FunctionSeg F;
  F.Name = "f";
  F.Params = {"n"};
  F.Body = {loop("v1", "i", "n", 2, 3,
                 {stage("v2", "loop", 1, 0),
                  loop("v3", "j", "i", 3, 5, {stage("v4", "f64.add", 1, 1)})}),
            stage("v5", "f64.add", 10, 10)};
  S.Functions.push_back(F);
  return S;
}

std::set<const Node *> subtreeOf(const Node &N) {
  std::set<const Node *> R{&N};
  forEachNode(N.Body, [&](const Node &X) { R.insert(&X); });
  return R;
}

// Flop of the triangular inner loop: sum_{i=0}^{n-1} i = n(n-1)/2; of the
// outer loop the same (v2 has none); of the function + 10.
TEST(CompareNodeForm, TriangularLoop) {
  SegFile S = file();
  FormulaBuilder FB(S);
  const Node &V1 = S.Functions[0].Body[0];
  const Node &V3 = V1.Body[1];
  StageWeight W = countWeight("POC", "flop");
  std::map<std::string, double> N4 = {{"n", 4}};
  EXPECT_DOUBLE_EQ(evaluate(FB.nodeForm("f", subtreeOf(V3), W, "flop", "POC"), N4), 6);
  EXPECT_DOUBLE_EQ(evaluate(FB.nodeForm("f", subtreeOf(V1), W, "flop", "POC"), N4), 6);
  StageWeight Loops = countWeight("HLLC", "loop");
  EXPECT_DOUBLE_EQ(evaluate(FB.nodeForm("f", subtreeOf(V1), Loops, "loop", "POC"), N4), 4);
  EXPECT_DOUBLE_EQ(evaluate(FB.nodeForm("f", {}, W, "flop", "POC"), N4), 0);
  EXPECT_DOUBLE_EQ(evaluate(FB.closedForm("f", W, "flop", "POC"), N4), 16);
  EXPECT_THROW(FB.nodeForm("g", {}, W, "flop", "POC"), std::invalid_argument);
}

Machine machine() { return unitMachine(4, {{"loop", 1}, {"f64.add", 2}}); } // 0.25 us per flop

/// 2 calls of f; outer loop 2 us per call; inner loop untimed; f 5 us per call.
CtFile profile() {
  CtFile Ct;
  Ct.Program = "k";
  CtFunction F;
  F.Name = "f";
  F.Calls = 2;
  F.InclusiveS = 10e-6;
  CtNode Outer;
  Outer.Kind = "loop";
  Outer.Line = 2;
  Outer.Col = 3;
  Outer.Entries = 2;
  Outer.Iterations = 8;
  Outer.InclusiveS = 4e-6;
  CtNode Inner = Outer;
  Inner.Line = 3;
  Inner.Col = 5;
  Inner.Parent = 0;
  Inner.Iterations = 12;
  Inner.Entries = 8;
  Inner.InclusiveS.reset();
  F.Nodes = {Outer, Inner};
  Ct.Functions.push_back(F);
  return Ct;
}

// n = 4: POC v1 = 6 flop x 0.25 us = 1.5 us (CT 2 us: -25%), total 4 us;
// HLLC v1 = 4 x 1 ns + 6 x 2 ns = 16 ns, total 16 + 20 = 36 ns. With
// T_meas = 4 us: e_CT = +25%, e_POC = 0%, resource-model error -25%.
TEST(CompareRun, HandComputed) {
  SegFile S = file();
  CtFile Ct = profile();
  CompareOptions O;
  O.Values["n"] = 4;
  O.MeasuredS = 4e-6;
  CompareRun R = compareRun(S, Ct, machine(), O);
  EXPECT_EQ(R.Function, "f");
  EXPECT_DOUBLE_EQ(R.Calls, 2);
  ASSERT_EQ(R.Rows.size(), 2u);
  EXPECT_EQ(R.Rows[0].Id, "v1");
  EXPECT_EQ(R.Rows[0].Depth, 0);
  EXPECT_EQ(R.Rows[1].Id, "v3");
  EXPECT_EQ(R.Rows[1].Depth, 1);
  ASSERT_TRUE(R.Rows[0].CtS);
  EXPECT_NEAR(*R.Rows[0].CtS, 2e-6, 1e-15);
  EXPECT_FALSE(R.Rows[1].CtS); // innermost loop: counted, not timed
  EXPECT_NEAR(R.Rows[0].LevelS.at(Level::POC), 1.5e-6, 1e-15);
  EXPECT_NEAR(R.Rows[0].LevelS.at(Level::HLLC), 16e-9, 1e-18);
  EXPECT_NEAR(R.Rows[1].LevelS.at(Level::POC), 1.5e-6, 1e-15);
  EXPECT_NEAR(R.Rows[0].errors().at(Level::POC), -25, 1e-9);
  EXPECT_TRUE(R.Rows[1].errors().empty());
  EXPECT_NEAR(R.TotalS.at(Level::POC), 4e-6, 1e-15);
  EXPECT_NEAR(R.TotalS.at(Level::HLLC), 36e-9, 1e-18);
  EXPECT_NEAR(R.CtTotalS, 5e-6, 1e-15);
  EXPECT_NEAR(R.structureErr(), 25, 1e-9);
  EXPECT_NEAR(R.overallErr(Level::POC), 0, 1e-9);
  EXPECT_NEAR(R.resourceErr(Level::POC), -25, 1e-9);

  CompareReport Rep;
  Rep.Runs = {R, R};
  Rep.finish();
  EXPECT_EQ(Rep.Levels, (std::vector<Level>{Level::HLLC, Level::POC}));
  const CompareStat *Nodes = nullptr;
  for (const CompareStat &X : Rep.Stats)
    if (X.Level == Level::POC && X.Scope == "nodes")
      Nodes = &X;
  ASSERT_TRUE(Nodes);
  EXPECT_EQ(Nodes->S.N, 2u);
  EXPECT_NEAR(Nodes->S.Mean, 25, 1e-9);
  EXPECT_NEAR(Nodes->S.Bias, -25, 1e-9);
}

TEST(CompareRun, MissingKernel) {
  SegFile S = file();
  CtFile Ct = profile();
  CompareOptions O;
  O.Function = "g";
  EXPECT_THROW(compareRun(S, Ct, machine(), O), std::runtime_error);
  Ct.Functions.clear();
  O.Function = "";
  EXPECT_THROW(compareRun(S, Ct, machine(), O), std::runtime_error);
}

} // namespace
