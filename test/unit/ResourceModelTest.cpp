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

// A search step (branch.chain.load = 1, docs/models.md ICC step 4d): a
// mispredicted step also waits for its load. Penalty 5 ns, measured
// latency.load 1 ns: P = 0.5 -> 8 x 0.25 + 0.5 x (5 + 1) = 5 ns; P = 0.9 ->
// 2 + 0.1 x 6 = 2.6 ns. A merge step (no chain key): 2 + 0.5 x 5 = 4.5 ns.
// Without latency.load the chain adds nothing: 4.5 ns.
TEST(ICCModel, MispredictionTermSearchStepChain) {
  Machine M = handMachine();
  CostEntry &E = M.Levels[Level::ICC]["any"].Costs["branch.mispredict"];
  E.Value = 5;
  E.Provenance = "measured";
  Node Search = branchStage("Pir_f_9_5");
  Search.Ruvs["ICC:t"].add("branch.chain.load", 1);
  {
    ICCModel I(M, "t", "O2");
    I.setKnownOutcomes({"Pir_f_9_5"});
    EXPECT_DOUBLE_EQ(I.chainLatency(), 0);
    EXPECT_NEAR(evaluate(I.timeWeight()(Search), {{"Pir_f_9_5", 0.5}}), 4.5e-9, 1e-21);
  }
  M.Levels[Level::ICC]["any"].Costs["latency.load"].Value = 1;
  ICCModel I(M, "t", "O2");
  I.setKnownOutcomes({"Pir_f_9_5"});
  EXPECT_NEAR(I.chainLatency(), 1e-9, 1e-21);
  ex T = I.timeWeight()(Search);
  EXPECT_NEAR(evaluate(T, {{"Pir_f_9_5", 0.5}}), 5e-9, 1e-21);
  EXPECT_NEAR(evaluate(T, {{"Pir_f_9_5", 0.9}}), 2.6e-9, 1e-21);
  EXPECT_NEAR(evaluate(I.timeWeight()(branchStage("Pir_f_9_5")), {{"Pir_f_9_5", 0.5}}),
              4.5e-9, 1e-21);
  // The model's estimate not known as an outcome (BPI's guess): no term.
  I.setKnownOutcomes({});
  EXPECT_NEAR(evaluate(I.timeWeight()(Search), {{"Pir_f_9_5", 0.5}}), 2e-9, 1e-21);
}

namespace {

/// handMachine plus an HLLC -O0 vector with the chain latencies (ns):
/// forwarding int 1, fp 1.5; int op 0.25, fp add 0.75, fp mul 1, load 1.25.
Machine chainMachine(bool WithChains = true) {
  Machine M = handMachine();
  CostVector &H = M.Levels[Level::HLLC]["O0"];
  H.Unit = "ns";
  H.Costs["f64.add"].Value = 0.5;
  H.Costs["f64.div"].Value = 4;
  H.Costs["loop"].Value = 1;
  H.Costs["mem.array.read"].Value = 0.5;
  if (WithChains) {
    H.Costs["chain.int.forward"].Value = 1;
    H.Costs["chain.fp.forward"].Value = 1.5;
    H.Costs["chain.int.op"].Value = 0.25;
    H.Costs["chain.fp.add"].Value = 0.75;
    H.Costs["chain.fp.mul"].Value = 1;
    H.Costs["chain.mem.read"].Value = 1.25;
  }
  return M;
}

Ruv counts(std::map<std::string, double> C) {
  Ruv R;
  for (auto &[K, V] : C)
    R.add(K, V);
  return R;
}

/// A loop of trip Trip with the chains Chains (RUV key -> constructs).
Node chainLoop(const std::string &Trip, std::map<std::string, Ruv> Chains) {
  Node L;
  L.Kind = NodeKind::Loop;
  L.Id = "v2";
  L.Trip = Trip;
  L.Ruvs = std::move(Chains);
  return L;
}

const Ruv LocalRW = counts({{"mem.local.read", 1}, {"mem.local.write", 1}});
Ruv with(Ruv R, std::map<std::string, double> C) {
  for (auto &[K, V] : C)
    R.add(K, V);
  return R;
}

} // namespace

// Chain latency per iteration (docs/models.md "HLLC at -O0"), by hand:
//   s += a[i]      (f64): fp forward 1.5 + fp add 0.75          = 2.25 ns
//   i++            (i32): int forward 1 + int op 0.25           = 1.25 ns
//   x = x*c + d    (f64): 1.5 + fp mul 1 + fp add 0.75          = 3.25 ns
//   p = p->next    (i64): 1 + one load on the chain 1.25        = 2.25 ns
//   k = k*3        (i64): 1 + int mul 3 x 0.25 (estimated)      = 1.75 ns
//   x = x/c        (f64): 1.5 + the f64.div construct cost 4    = 5.5 ns
//   x = x + c; x = x + d (two updates: two round trips): 2 x 1.5 + 2 x 0.75 = 4.5 ns
TEST(HLLCModel, ChainLatencyByHand) {
  Machine M = chainMachine();
  HLLCModel H(M, "O0");
  ASSERT_TRUE(H.hasChainCosts());
  EXPECT_NEAR(H.chainLatency("chain.f64:s", with(LocalRW, {{"f64.add", 1}})), 2.25e-9, 1e-21);
  EXPECT_NEAR(H.chainLatency("chain.i32:i", with(LocalRW, {{"i32.add", 1}})), 1.25e-9, 1e-21);
  EXPECT_NEAR(H.chainLatency("chain.f64:x", with(LocalRW, {{"f64.mul", 1}, {"f64.add", 1}})),
              3.25e-9, 1e-21);
  EXPECT_NEAR(H.chainLatency("chain.i64:p", with(LocalRW, {{"mem.array.read", 1}})), 2.25e-9,
              1e-21);
  EXPECT_NEAR(H.chainLatency("chain.i64:k", with(LocalRW, {{"i64.mul", 1}})), 1.75e-9, 1e-21);
  EXPECT_NEAR(H.chainLatency("chain.f64:x", with(LocalRW, {{"f64.div", 1}})), 5.5e-9, 1e-21);
  Ruv Two = counts({{"mem.local.read", 2}, {"mem.local.write", 2}, {"f64.add", 2}});
  EXPECT_NEAR(H.chainLatency("chain.f64:x", Two), 4.5e-9, 1e-21);
}

// The composition: one execution of a loop costs max(Core, trip x the longest
// chain); s += a[i] with i++: longest 2.25 ns. n = 100: a core of 10 ns is
// raised to 225 ns; a core of 1 us (a heavy body) stays.
TEST(HLLCModel, ChainBoundIsMaxOfCoreAndTripTimesLongestChain) {
  Machine M = chainMachine();
  HLLCModel H(M, "O0");
  Node L = chainLoop("n", {{"chain.f64:s", with(LocalRW, {{"f64.add", 1}})},
                           {"chain.i32:i", with(LocalRW, {{"i32.add", 1}})}});
  EXPECT_NEAR(H.loopChainLatency(L), 2.25e-9, 1e-21);
  EXPECT_NEAR(evaluate(H.chainBound(L, numeric(10e-9)), {{"n", 100}}), 225e-9, 1e-18);
  EXPECT_NEAR(evaluate(H.chainBound(L, numeric(1e-6)), {{"n", 100}}), 1e-6, 1e-18);
  // Symbolic core: the larger term per value of n.
  ex Core = numeric(5, 1000000000) + sym("n") * numeric(1, 1000000000); // 5 + n ns
  EXPECT_NEAR(evaluate(H.chainBound(L, Core), {{"n", 2}}), 7e-9, 1e-18);
  EXPECT_NEAR(evaluate(H.chainBound(L, Core), {{"n", 100}}), 225e-9, 1e-18);
  // A body whose cost is a number: trip x max(body, chain), no max left in
  // the formula (1 ns per iteration -> 2.25 ns per iteration).
  ex Per = H.chainBound(L, sym("n") * numeric(1, 1000000000));
  EXPECT_NEAR(evaluate(Per, {{"n", 10}}), 22.5e-9, 1e-18) << Per;
  EXPECT_TRUE(is_a<mul>(Per)) << Per; // n x a number: no max
  ex Heavy = H.chainBound(L, sym("n") * numeric(3, 1000000000));
  EXPECT_NEAR(evaluate(Heavy, {{"n", 10}}), 30e-9, 1e-18) << Heavy;
  EXPECT_EQ(freeSymbols(Heavy), std::set<std::string>{"n"}) << Heavy;
  // With an inner loop and a symbolic body: the core (the inner loop bounds it).
  Node Outer = L;
  Node Inner = chainLoop("m", {});
  Outer.Body.push_back(Inner);
  EXPECT_TRUE(H.chainBound(Outer, Core).is_equal(Core));
  // A loop without chains keeps its core.
  Node None = chainLoop("n", {});
  EXPECT_TRUE(H.chainBound(None, Core).is_equal(Core));
}

// Restarted chains (docs/models.md "HLLC at -O0: restarted chains"): a
// chain whose scalar starts afresh in each iteration of the enclosing loop
// (restart = 1) overlaps with the next executions' chains in the window
// T_w = chain.window = 20 ns: per iteration it costs chain x min(1, Core / T_w),
// Core the constructs' time of one execution. By hand, s += a[i] restarted
// (2.25 ns per iteration), 1 ns of constructs per iteration:
//   trip 16: Core 16 ns, share 0.8, chain 1.8 ns > 1 ns   -> 16 x 1.8 = 28.8 ns
//   trip 8:  Core 8 ns, share 0.4, chain 0.9 ns < 1 ns    -> 8 x 1   = 8 ns
//   trip 32: Core 32 ns >= T_w, share 1, chain 2.25 ns    -> 32 x 2.25 = 72 ns
//   trip 8 with a carried (not restarted) chain of 1.25 ns: max(1.25, 0.9)
//                                                         -> 8 x 1.25 = 10 ns
//   without chain.window: no overlap                      -> 16 x 2.25 = 36 ns
TEST(HLLCModel, RestartedChainsOverlapInTheWindow) {
  Machine M = chainMachine();
  M.Levels[Level::HLLC]["O0"].Costs["chain.window"].Value = 20;
  HLLCModel H(M, "O0");
  EXPECT_NEAR(H.chainWindow(), 20e-9, 1e-21);
  Ruv S = with(LocalRW, {{"f64.add", 1}, {"restart", 1}});
  // the mark is not a construct: the latency is s += a[i]'s
  EXPECT_NEAR(H.chainLatency("chain.f64:s", S), 2.25e-9, 1e-21);
  auto Time = [&](const std::string &Trip, std::map<std::string, Ruv> Chains, double N) {
    Node L = chainLoop(Trip, std::move(Chains));
    return evaluate(H.chainBound(L, sym(Trip) * numeric(1, 1000000000)), {{Trip, N}});
  };
  EXPECT_NEAR(Time("m", {{"chain.f64:s", S}}, 16), 28.8e-9, 1e-18);
  EXPECT_NEAR(Time("m", {{"chain.f64:s", S}}, 8), 8e-9, 1e-18);
  EXPECT_NEAR(Time("m", {{"chain.f64:s", S}}, 32), 72e-9, 1e-18);
  EXPECT_NEAR(Time("m", {{"chain.f64:s", S}, {"chain.i32:i", with(LocalRW, {{"i32.add", 1}})}},
                   8),
              10e-9, 1e-18);
  // A numeric trip: the same numbers, and a number.
  Node L16 = chainLoop("16", {{"chain.f64:s", S}});
  ex T16 = H.chainBound(L16, numeric(16, 1000000000));
  ASSERT_TRUE(is_a<numeric>(T16)) << T16;
  EXPECT_NEAR(ex_to<numeric>(T16).to_double(), 28.8e-9, 1e-18);
  // Symbolic trip, one formula for every trip: the three regimes.
  Node Ln = chainLoop("n", {{"chain.f64:s", S}});
  ex Tn = H.chainBound(Ln, sym("n") * numeric(1, 1000000000));
  EXPECT_NEAR(evaluate(Tn, {{"n", 4}}), 4e-9, 1e-18) << Tn;
  EXPECT_NEAR(evaluate(Tn, {{"n", 16}}), 28.8e-9, 1e-18) << Tn;
  EXPECT_NEAR(evaluate(Tn, {{"n", 100}}), 225e-9, 1e-18) << Tn;
  // Without the window entry restarted chains do not overlap.
  Machine M0 = chainMachine();
  HLLCModel Old(M0, "O0");
  EXPECT_DOUBLE_EQ(Old.chainWindow(), 0);
  EXPECT_NEAR(evaluate(Old.chainBound(L16, numeric(16, 1000000000)), {}), 36e-9, 1e-18);
}

// A machine without the chain latencies: no chain term.
TEST(HLLCModel, NoChainCostsNoChainTerm) {
  Machine M = chainMachine(false);
  HLLCModel H(M, "O0");
  EXPECT_FALSE(H.hasChainCosts());
  Node L = chainLoop("n", {{"chain.f64:s", with(LocalRW, {{"f64.add", 1}})}});
  EXPECT_DOUBLE_EQ(H.loopChainLatency(L), 0);
  ex Core = numeric(10, 1000000000);
  EXPECT_TRUE(H.chainBound(L, Core).is_equal(Core));
  EXPECT_TRUE(HLLCModel::isChainKey("chain.f64:s"));
  EXPECT_FALSE(HLLCModel::isChainKey("HLLC"));
}
