//===- ResourceModelTest.cpp - POC (eq. 6) and HLLC (eq. 4) models --------===//
#include "predictor/Formula.h"
#include "predictor/ResourceModel.h"

#include <gtest/gtest.h>

using namespace segtime;
using namespace GiNaC;

namespace {

Machine handMachine() {
  Machine M;
  M.Name = "hand";
  CostVector &P = M.Levels[Level::POC]["any"];
  P.Unit = "Mflop/s";
  P.Costs["flop"].Value = 2; // R_fpu = 2e6 flop/s
  CostVector &H = M.Levels[Level::HLLC]["O2"];
  H.Unit = "ns";
  H.Costs["f64.add"].Value = 2;
  H.Costs["f64.mul"].Value = 3;
  H.Costs["loop"].Value = 1;
  H.Costs["mem.array.read"].Value = 0.5;
  CostVector &I = M.Levels[Level::ICC]["any"]; // 0.25 ns per cycle (4 GHz); the rest uncosted
  I.Unit = "ns";
  I.Costs["cycles"].Value = 0.25;
  I.Costs["*"].Value = 0;
  return M;
}

Node stage(std::map<std::string, double> Hllc, double Flop) {
  Node N;
  N.Kind = NodeKind::Stage;
  N.Id = "v1";
  for (auto &[K, V] : Hllc)
    N.Ruvs["HLLC"].add(K, V);
  if (Flop)
    N.Ruvs["POC"].add("flop", Flop);
  return N;
}

double num(const ex &E) { return evaluate(E, {}); }

} // namespace

// Warwick-94 eq. 6: t = N_flops / R_fpu = 10 / 2e6 s = 5 us.
TEST(POCModel, Eq6) {
  Machine M = handMachine();
  POCModel P(M, "O2");
  EXPECT_EQ(P.level(), Level::POC);
  EXPECT_DOUBLE_EQ(P.rateFlopPerS(), 2e6);
  Node N = stage({{"f64.add", 4}, {"f64.mul", 6}}, 10);
  EXPECT_DOUBLE_EQ(num(P.timeWeight()(N)), 5e-6);
  // A node without POC counts costs nothing at this level.
  EXPECT_DOUBLE_EQ(num(P.timeWeight()(stage({{"loop", 1}}, 0))), 0);
}

// Warwick-94 eq. 4: t = c^T f = 4*2 + 6*3 + 1*1 + 2*0.5 ns = 28 ns.
TEST(HLLCModel, Eq4) {
  Machine M = handMachine();
  HLLCModel H(M, "O2");
  EXPECT_EQ(H.level(), Level::HLLC);
  Node N = stage({{"f64.add", 4}, {"f64.mul", 6}, {"loop", 1}, {"mem.array.read", 2}}, 10);
  EXPECT_NEAR(num(H.timeWeight()(N)), 28e-9, 1e-21);
}

TEST(HLLCModel, MissingCostNamesConstructAndMachine) {
  Machine M = handMachine();
  HLLCModel H(M, "O2");
  Node N = stage({{"f64.add", 1}, {"f64.sqrt", 1}}, 5);
  try {
    H.timeWeight()(N);
    FAIL() << "no exception";
  } catch (const std::runtime_error &E) {
    std::string W = E.what();
    EXPECT_NE(W.find("f64.sqrt"), std::string::npos) << W;
    EXPECT_NE(W.find("hand"), std::string::npos) << W;
    EXPECT_NE(W.find("HLLC"), std::string::npos) << W;
  }
}

TEST(Models, ConstructionErrors) {
  Machine M = handMachine();
  EXPECT_THROW(HLLCModel(M, "O0"), std::runtime_error); // no O0 variant, no "any"
  Machine NoFlop = M;
  NoFlop.Levels[Level::POC]["any"].Costs.clear();
  EXPECT_THROW(POCModel(NoFlop, "O2"), std::runtime_error);
  Machine Zero = M;
  Zero.Levels[Level::POC]["any"].Costs["flop"].Value = 0;
  EXPECT_THROW(POCModel(Zero, "O2"), std::runtime_error);
  EXPECT_THROW(makeModel(Level::IntCC, M, "O2"), std::runtime_error); // machine has no INTCC
  EXPECT_THROW(makeModel(Level::ICC, M, "O2"), std::invalid_argument);  // ICC needs a target
  EXPECT_THROW(makeModel(Level::CT, M, "O2"), std::invalid_argument);
  EXPECT_EQ(makeModel(Level::POC, M, "O2")->level(), Level::POC);
  EXPECT_EQ(makeModel(Level::HLLC, M, "O2")->level(), Level::HLLC);
}

// Eq. 1 through the formula builder: t(v1) + n*(t(v3) + t(v4)) with the
// models' stage weights, for a hand-built loop.
TEST(Models, ClosedFormOfALoop) {
  SegFile S;
  S.OptLevel = "O2";
  FunctionSeg F;
  F.Name = "f";
  F.Params = {"n"};
  Node Pre = stage({{"mem.array.read", 2}}, 0);
  Node L;
  L.Kind = NodeKind::Loop;
  L.Id = "v2";
  L.LoopKind = "for";
  L.Index = "i";
  L.Start = "0";
  L.Step = "1";
  L.Trip = "n";
  Node Ctl = stage({{"loop", 1}}, 0);
  Ctl.Id = "v3";
  Node Body = stage({{"f64.add", 1}, {"f64.mul", 1}}, 2);
  Body.Id = "v4";
  L.Body = {Ctl, Body};
  F.Body = {Pre, L};
  S.Functions.push_back(F);

  Machine M = handMachine();
  FormulaBuilder FB(S);
  ex H = FB.closedForm("f", HLLCModel(M, "O2").timeWeight(), "h");
  ex P = FB.closedForm("f", POCModel(M, "O2").timeWeight(), "p");
  // HLLC: 2*0.5 + n*(1 + 2 + 3) ns; POC: 2n / 2e6 s.
  EXPECT_NEAR(evaluate(H, {{"n", 10}}), 61e-9, 1e-20);
  EXPECT_NEAR(evaluate(P, {{"n", 10}}), 10e-6, 1e-18);
  ex Flop = FB.closedForm("f", countWeight("POC", "flop"), "flop");
  EXPECT_TRUE(expand(Flop - 2 * sym("n")).is_zero()) << toString(Flop);
}

// INTCC's open vocabulary: exact entry, then "<opcode>.*", then "*".
TEST(CostVectorModel, WildcardLookup) {
  Machine M;
  M.Name = "w";
  CostVector &V = M.Levels[Level::IntCC]["O2"];
  V.Unit = "ns";
  V.Costs["fadd.f64"].Value = 1;
  V.Costs["fadd.*"].Value = 2;
  V.Costs["*"].Value = 5;
  CostVectorModel C(M, Level::IntCC, "O2");
  EXPECT_DOUBLE_EQ(C.cost("fadd.f64"), 1e-9);
  EXPECT_DOUBLE_EQ(C.cost("fadd.v4f64"), 2e-9);
  EXPECT_DOUBLE_EQ(C.cost("load.i32"), 5e-9);
  M.Levels[Level::IntCC]["O2"].Costs.erase("*");
  CostVectorModel D(M, Level::IntCC, "O2");
  try {
    D.cost("load.i32");
    FAIL() << "no throw";
  } catch (const std::runtime_error &E) {
    EXPECT_NE(std::string(E.what()).find("'load.i32'"), std::string::npos);
    EXPECT_NE(std::string(E.what()).find("INTCC"), std::string::npos);
  }
}

namespace {
Node branchStage(const std::string &Prob) {
  Node N;
  N.Kind = NodeKind::Stage;
  N.Id = "ir3";
  N.Ruvs["ICC:t"].add("cycles", 8);
  N.Ruvs["ICC:t"].add("branch.cond.data", 1);
  N.BranchProb = Prob;
  return N;
}
} // namespace

// Misprediction term: count x min(P, 1 - P) x penalty. With the machine
// file's measured penalty of 5 ns (20 cycles): P = 0.5 -> 8 x 0.25 + 0.5 x 5
// = 4.5 ns; P = 0.9 and P = 0.1 -> 2 + 0.1 x 5 = 2.5 ns (symmetric).
TEST(ICCModel, MispredictionTermMeasuredPenalty) {
  Machine M = handMachine();
  CostEntry &E = M.Levels[Level::ICC]["any"].Costs["branch.mispredict"];
  E.Value = 5;
  E.Provenance = "measured";
  E.Ref = "hand";
  ICCModel I(M, "t", "O2");
  EXPECT_DOUBLE_EQ(I.mispredictPenalty(), 5e-9);
  EXPECT_EQ(I.mispredictProvenance(), "measured: hand");
  EXPECT_NEAR(num(I.timeWeight()(branchStage("0.5"))), 4.5e-9, 1e-21);
  EXPECT_NEAR(num(I.timeWeight()(branchStage("0.9"))), 2.5e-9, 1e-21);
  EXPECT_NEAR(num(I.timeWeight()(branchStage("1 - 0.9"))), 2.5e-9, 1e-21);
  // Symbolic probability, neither measured nor given (BPI's guess is its
  // default): no term, the block's cycles alone.
  EXPECT_NEAR(evaluate(I.timeWeight()(branchStage("Pir_f_3_7")), {{"Pir_f_3_7", 0.5}}),
              2e-9, 1e-21);
  // Measured (predict --profile) or given (-p): the formula keeps it.
  I.setKnownOutcomes({"Pir_f_3_7"});
  ex T = I.timeWeight()(branchStage("Pir_f_3_7"));
  EXPECT_NEAR(evaluate(T, {{"Pir_f_3_7", 0.5}}), 4.5e-9, 1e-21);
  EXPECT_NEAR(evaluate(T, {{"Pir_f_3_7", 1}}), 2e-9, 1e-21);
  // A block without the key (a vectorised latch) gets no term.
  Node Latch = branchStage("");
  Latch.Ruvs["ICC:t"] = Ruv();
  Latch.Ruvs["ICC:t"].add("cycles", 8);
  EXPECT_NEAR(num(I.timeWeight()(Latch)), 2e-9, 1e-21);
  // The key without a probability is an error, not a silent zero.
  EXPECT_THROW(num(I.timeWeight()(branchStage(""))), std::runtime_error);
}

// No measured penalty: the datasheet's 17 cycles x 0.25 ns = 4.25 ns; P = 0.5
// -> 8 x 0.25 + 0.5 x 4.25 = 4.125 ns.
TEST(ICCModel, MispredictionTermDatasheetFallback) {
  ICCModel I(handMachine(), "t", "O2");
  EXPECT_DOUBLE_EQ(I.mispredictPenalty(), 4.25e-9);
  EXPECT_EQ(I.mispredictProvenance().rfind("datasheet", 0), 0u);
  EXPECT_NEAR(num(I.timeWeight()(branchStage("0.5"))), 4.125e-9, 1e-21);
}
