//===- PredictTest.cpp - predict(): values, defaults and errors -----------===//
#include "predictor/Predict.h"
#include "predictor/Formula.h"
#include "SegFixtures.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace segtime;
using namespace segtime_test;

namespace {

Machine machine() { return unitMachine(4, {{"loop", 1}, {"f64.add", 2}, {"if", 1}}); }

Node stage(const std::string &Id, std::map<std::string, double> Hllc, double Flop) {
  return stageNode(Id, Hllc, Flop);
}

/// f(n): for (i < n) { if (P_f_3) { s += 1.0 } } ; N_g_7 iterations in g.
SegFile file() {
  SegFile S;
  S.OptLevel = "O2";
  FunctionSeg F;
  F.Name = "f";
  F.Params = {"n"};
  F.Parameters.push_back({"P_f_3", "branch", 0.25, "static: default 0.5", "k.c:3", "if"});
  Node L = forLoop("v1", "i", "n", {});
  Node Br;
  Br.Kind = NodeKind::Branch;
  Br.Id = "v3";
  Br.Arms.push_back({"then", "P_f_3", {stage("v4", {{"f64.add", 1}}, 1)}});
  L.Body = {stage("v2", {{"loop", 1}, {"if", 1}}, 0), Br};
  F.Body = {L};
  S.Functions.push_back(F);

  FunctionSeg G;
  G.Name = "g";
  G.Parameters.push_back({"N_g_7", "loop", std::nullopt, "none", "k.c:7", "iterations of the while loop"});
  Node W;
  W.Kind = NodeKind::Loop;
  W.Id = "v1";
  W.LoopKind = "while";
  W.Trip = "N_g_7";
  W.Body = {stage("v2", {{"loop", 1}, {"f64.sqrt", 1}}, 4)};
  Node U;
  U.Kind = NodeKind::Unknown;
  U.Id = "v3";
  U.Range.Line = 9;
  U.Reason = "inline assembly";
  G.Body = {W, U};
  S.Functions.push_back(G);
  return S;
}

} // namespace

// f with n = 8 and the SEG default P_f_3 = 0.25: flop 8 * 0.25 = 2;
// POC 2 / 4e6 s; HLLC 8 * (1 + 1) + 2 * 2 ns = 20 ns.
// The probabilities the misprediction term may use: outcome models (the
// min-update idiom's H_N/N, a merge or search step's estimated 1/2: source
// "static: ..." of an IR-level name), given and measured values; not BPI's
// guesses, nor the AST level's "static: default 0.5".
TEST(Predict, KnownOutcomes) {
  std::map<std::string, Parameter> D;
  auto Add = [&](const std::string &Name, const std::string &Source, const std::string &Expr) {
    Parameter P;
    P.Name = Name;
    P.Kind = "branch";
    P.Source = Source;
    if (Expr.empty())
      P.Default = 0.5;
    P.DefaultExpr = Expr;
    D[Name] = P;
  };
  Add("Pir_f_3_7", "BPI", "");
  Add("Pir_f_4_9", "static: estimated, merge step: P = 1/2", "");
  Add("Pir_f_5_9", "static: min-update idiom, H_N/N with N = n", "1/n");
  Add("P_f_6", "static: default 0.5", "");
  Add("Pir_f_7_2", "BPI", "");
  PredictOptions O;
  O.Values["Pir_f_7_2"] = 0.2;
  std::set<std::string> K = knownOutcomes(O, D);
  EXPECT_EQ(K, (std::set<std::string>{"Pir_f_4_9", "Pir_f_5_9", "Pir_f_7_2"}));
}

TEST(Predict, ValuesAndDefaults) {
  PredictOptions O;
  O.Functions = {"f"};
  O.Values = {{"n", 8}};
  Prediction P = predict(file(), machine(), O);
  ASSERT_EQ(P.Functions.size(), 1u);
  const FunctionPrediction &F = P.Functions[0];
  EXPECT_EQ(F.Error, "");
  EXPECT_DOUBLE_EQ(F.Levels.at(Level::POC).Counts.at("flop"), 2);
  EXPECT_DOUBLE_EQ(F.Levels.at(Level::POC).TimeS, 0.5e-6);
  EXPECT_DOUBLE_EQ(F.Levels.at(Level::HLLC).TimeS, 20e-9);
  EXPECT_DOUBLE_EQ(F.Levels.at(Level::HLLC).Counts.at("loop"), 8);
  EXPECT_DOUBLE_EQ(F.Levels.at(Level::HLLC).Counts.at("f64.add"), 2);
  ASSERT_EQ(F.Params.size(), 2u);
  std::map<std::string, std::pair<double, std::string>> Got;
  for (const ParamValue &V : F.Params)
    Got[V.Name] = {V.Value, V.Source};
  EXPECT_EQ(Got["n"], std::make_pair(8.0, std::string("user")));
  EXPECT_EQ(Got["P_f_3"], std::make_pair(0.25, std::string("static: default 0.5")));

  json J = P.toJSON();
  EXPECT_EQ(J["machine"], "unit");
  EXPECT_EQ(J["functions"][0]["name"], "f");
  EXPECT_DOUBLE_EQ(J["functions"][0]["levels"]["POC"]["counts"]["flop"].get<double>(), 2);
  EXPECT_TRUE(J["functions"][0]["levels"]["HLLC"].contains("formula"));
  EXPECT_TRUE(J["functions"][0]["levels"]["HLLC"].contains("time_s"));
}

// A user value overrides a SEG default.
TEST(Predict, UserOverridesDefault) {
  PredictOptions O;
  O.Functions = {"f"};
  O.Levels = {Level::POC};
  O.Values = {{"n", 8}, {"P_f_3", 1}};
  Prediction P = predict(file(), machine(), O);
  EXPECT_DOUBLE_EQ(P.Functions[0].Levels.at(Level::POC).Counts.at("flop"), 8);
  EXPECT_EQ(P.Functions[0].Levels.count(Level::HLLC), 0u);
}

// A default that is an expression (the min-update idiom's H_N/N) is
// evaluated with the values of the names it uses; -p and the profile
// override it like a numeric default.
TEST(Predict, ExpressionDefault) {
  SegFile S = file();
  Parameter &P = S.Functions[0].Parameters[0];
  P.Default.reset();
  P.DefaultExpr = "1/n";
  P.Source = "static: test";
  PredictOptions O;
  O.Functions = {"f"};
  O.Levels = {Level::POC};
  O.Values = {{"n", 8}};
  Prediction R = predict(S, machine(), O);
  ASSERT_EQ(R.Functions[0].Error, "");
  EXPECT_DOUBLE_EQ(R.Functions[0].Levels.at(Level::POC).Counts.at("flop"), 1); // 8 * 1/8
  std::map<std::string, std::pair<double, std::string>> Got;
  for (const ParamValue &V : R.Functions[0].Params)
    Got[V.Name] = {V.Value, V.Source};
  EXPECT_EQ(Got["P_f_3"], std::make_pair(0.125, std::string("static: test")));
  O.ProfileValues = {{"P_f_3", 0.5}};
  EXPECT_DOUBLE_EQ(predict(S, machine(), O).Functions[0].Levels.at(Level::POC).Counts.at("flop"), 4);
  O.Values["P_f_3"] = 0.25;
  EXPECT_DOUBLE_EQ(predict(S, machine(), O).Functions[0].Levels.at(Level::POC).Counts.at("flop"), 2);
  // A name the expression needs and nobody gives: a function error naming it.
  P.DefaultExpr = "1/q";
  O.Values.erase("P_f_3");
  O.ProfileValues.clear();
  FunctionPrediction F = predict(S, machine(), O).Functions[0];
  EXPECT_NE(F.Error.find("q (for the default of P_f_3)"), std::string::npos) << F.Error;
}

// A default naming a parameter whose own default is an expression (a
// branch copy's default, the shared parameter, whose default is H_N/N),
// used nowhere else: resolved first; -p on the shared name reaches it.
TEST(Predict, DefaultOfADefault) {
  SegFile S = file();
  S.Functions[0].Parameters[0].Name = "P_f_3_c1";
  S.Functions[0].Parameters[0].Default.reset();
  S.Functions[0].Parameters[0].DefaultExpr = "1 - P_f_3";
  S.Functions[0].Body[0].Body[1].Arms[0].Prob = "P_f_3_c1";
  Parameter Shared{"P_f_3", "branch", std::nullopt, "static: test", "k.c:3", "if"};
  Shared.DefaultExpr = "2/n";
  S.Functions[0].Parameters.push_back(Shared);
  PredictOptions O;
  O.Functions = {"f"};
  O.Levels = {Level::POC};
  O.Values = {{"n", 8}};
  FunctionPrediction F = predict(S, machine(), O).Functions[0];
  ASSERT_EQ(F.Error, "");
  EXPECT_DOUBLE_EQ(F.Levels.at(Level::POC).Counts.at("flop"), 6); // 8 * (1 - 2/8)
  O.Values["P_f_3"] = 0.5;
  EXPECT_DOUBLE_EQ(predict(S, machine(), O).Functions[0].Levels.at(Level::POC).Counts.at("flop"),
                   4);
  // The shared default needs a value nobody gives: named in the error.
  O.Values = {{"n", 8}};
  S.Functions[0].Parameters[1].DefaultExpr = "2/q";
  F = predict(S, machine(), O).Functions[0];
  EXPECT_NE(F.Error.find("q (for the default of P_f_3)"), std::string::npos) << F.Error;
}

// defaultValue: a number, an expression, none, and an expression missing a value.
TEST(Predict, DefaultValue) {
  Parameter P{"P", "branch", 0.5, "BPI", "", ""};
  EXPECT_EQ(defaultValue(P, {}), 0.5);
  P.Default.reset();
  EXPECT_EQ(defaultValue(P, {}), std::nullopt);
  P.DefaultExpr = "2/n";
  EXPECT_DOUBLE_EQ(*defaultValue(P, {{"n", 8}}), 0.25);
  EXPECT_THROW(defaultValue(P, {}), std::runtime_error);
}

TEST(Predict, MissingParameterIsAFunctionError) {
  PredictOptions O;
  O.Functions = {"f"};
  Prediction P = predict(file(), machine(), O);
  const FunctionPrediction &F = P.Functions[0];
  EXPECT_NE(F.Error.find("n"), std::string::npos) << F.Error;
  EXPECT_NE(F.Error.find("-p"), std::string::npos) << F.Error;
  // What is known is listed too.
  EXPECT_NE(F.Error.find("P_f_3=0.25"), std::string::npos) << F.Error;
  EXPECT_TRUE(F.Levels.empty());

  PredictOptions OG;
  OG.Functions = {"g"};
  OG.Levels = {Level::POC};
  Prediction PG = predict(file(), machine(), OG);
  const std::string &E = PG.Functions[0].Error;
  EXPECT_NE(E.find("N_g_7"), std::string::npos) << E;
  EXPECT_NE(E.find("k.c:7"), std::string::npos) << "says where: " << E;
  EXPECT_NE(E.find("iterations of the while loop"), std::string::npos) << E;
}

// A cost the machine lacks fails the function that needs it (and names it),
// not the whole prediction: exit status 2.
TEST(Predict, MissingHllcCostFailsTheFunction) {
  PredictOptions O;
  O.Functions = {"g", "f"};
  O.Values = {{"N_g_7", 3}, {"n", 2}};
  Prediction R = predict(file(), machine(), O);
  const FunctionPrediction &G = R.Functions[0];
  EXPECT_TRUE(G.Failed);
  EXPECT_NE(G.Error.find("g ("), std::string::npos) << G.Error;
  EXPECT_NE(G.Error.find("f64.sqrt"), std::string::npos) << G.Error;
  EXPECT_NE(G.Error.find("unit"), std::string::npos) << G.Error;
  EXPECT_TRUE(G.Levels.empty());
  EXPECT_EQ(R.exitStatus(), 2);
  EXPECT_EQ(R.toJSON()["incomplete"][0]["status"], "error");
  // POC alone is fine: 3 * 4 flop.
  O.Levels = {Level::POC};
  Prediction P = predict(file(), machine(), O);
  EXPECT_DOUBLE_EQ(P.Functions[0].Levels.at(Level::POC).Counts.at("flop"), 12);
  // The Unknown node is listed as not costed.
  ASSERT_EQ(P.Functions[0].Unresolved.size(), 1u);
  EXPECT_NE(P.Functions[0].Unresolved[0].find("inline assembly"), std::string::npos);
}

TEST(Predict, UnknownFunctionAndLevelThrow) {
  PredictOptions O;
  O.Functions = {"nosuch"};
  try {
    predict(file(), machine(), O);
    FAIL() << "no exception";
  } catch (const std::runtime_error &E) {
    std::string W = E.what();
    EXPECT_NE(W.find("nosuch"), std::string::npos) << W;
    EXPECT_NE(W.find("f, g"), std::string::npos) << "lists the functions: " << W;
  }
  PredictOptions L;
  L.Levels = {Level::ICC};
  EXPECT_ANY_THROW(predict(file(), machine(), L));
}

// The memory term of HLLC and INTCC (docs/models.md "Memory term of HLLC and
// INTCC"): f's source loop v1 is the IR loop ir1 (source_node v1) with a
// footprint and traffic of 8n B. Machine: DRAM 1 GB/s, no overlap curve
// (combine = max), no caches (time = traffic / bandwidth). n = 8:
// memory 64 B / 1e9 B/s = 64 ns per call.
//  - HLLC: constructs 20 ns (as above) against 64 ns -> 64 ns;
//  - INTCC: 8 x 1 ns fadd = 8 ns against 64 ns -> 64 ns;
//  - n = 8 with a bandwidth of 1e12 B/s: the memory time (0.064 ns) is
//    below both, so HLLC 20 ns and INTCC 8 ns as without the term.
TEST(Predict, HllcAndIntccTakeTheIRNestsMemoryTerm) {
  SegFile S = file();
  FunctionSeg &F = S.Functions[0];
  Node L = forLoop("ir1", "k", "n", {});
  L.LoopKind = "";
  L.SourceNode = "v1";
  L.Footprint = "8*n";
  L.Traffic = "8*n";
  Node St;
  St.Id = "ir2";
  St.Ruvs["INTCC"].add("fadd.double", 1);
  L.Body = {St};
  F.LevelSegs["IR"] = {L};
  for (double Bw : {1e9, 1e12}) {
    Machine M = machine();
    M.Levels[Level::IntCC]["any"].Unit = "ns";
    M.Levels[Level::IntCC]["any"].Costs["fadd.double"].Value = 1;
    M.Params["memory.DRAM.bandwidth"] = CostEntry::of(Bw, "B/s", "estimated", "test");
    PredictOptions O;
    O.Functions = {"f"};
    O.Levels = {Level::HLLC, Level::IntCC, Level::POC};
    O.Values = {{"n", 8}};
    Prediction P = predict(S, M, O);
    ASSERT_EQ(P.Functions[0].Error, "");
    const auto &Lv = P.Functions[0].Levels;
    EXPECT_NEAR(Lv.at(Level::HLLC).TimeS, Bw == 1e9 ? 64e-9 : 20e-9, 1e-18) << Bw;
    EXPECT_NEAR(Lv.at(Level::IntCC).TimeS, Bw == 1e9 ? 64e-9 : 8e-9, 1e-18) << Bw;
    EXPECT_DOUBLE_EQ(Lv.at(Level::POC).TimeS, 0.5e-6); // POC has no memory term
    // The nest's memory note is printed for HLLC and INTCC too (no ICC here).
    const auto &Notes = P.Functions[0].Notes;
    EXPECT_TRUE(std::any_of(Notes.begin(), Notes.end(), [](const std::string &N) {
      return N.rfind("memory term, loop nest at line ", 0) == 0;
    }));
  }
}

namespace {
/// k(n) { if (n == 0) a(); else b(); }: the IR level's blocks take the exact
/// condition cmp_eq(n, 0), which the source SEG does not declare; both arms
/// cost the same INTCC time (one 'call' each), so the time's closed form
/// has n with a coefficient that is 0 in value.
SegFile irCondition() {
  SegFile S;
  S.OptLevel = "O2";
  FunctionSeg K;
  K.Name = "k";
  K.Params = {"n"};
  K.Range.File = "k.c";
  K.Range.Line = 1;
  K.Body = {stage("v1", {{"if", 1}}, 0)};
  Node A = stage("ir2", {}, 0), B = stage("ir3", {}, 0);
  A.Ruvs["INTCC"].add("call.a", 1);
  B.Ruvs["INTCC"].add("call.b", 1);
  A.Freq = "cmp_eq(n, 0)";
  B.Freq = "1 - cmp_eq(n, 0)";
  A.Range.Line = B.Range.Line = 1;
  K.LevelSegs["IR"] = {A, B};
  S.Functions.push_back(K);
  return S;
}
Machine intccMachine() {
  Machine M = machine();
  CostVector &I = M.Levels[Level::IntCC]["any"];
  I.Unit = "ns";
  I.Costs["*"].Value = 3;
  return M;
}
} // namespace

// A value given with -p binds the name at every level: the IR level's
// condition cmp_eq(n, 0) takes n = 10 (b() runs), although the source SEG
// has no parameter n and the time does not depend on it.
TEST(Predict, ValueBindsTheIRLevelCondition) {
  PredictOptions O;
  O.Levels = {Level::HLLC, Level::IntCC};
  O.Values = {{"n", 10}};
  Prediction R = predict(irCondition(), intccMachine(), O);
  const FunctionPrediction &F = R.Functions[0];
  ASSERT_EQ(F.Error, "");
  EXPECT_DOUBLE_EQ(F.Levels.at(Level::IntCC).TimeS, 3e-9);
  EXPECT_EQ(F.Levels.at(Level::IntCC).Counts.count("call.a"), 0u);
  EXPECT_DOUBLE_EQ(F.Levels.at(Level::IntCC).Counts.at("call.b"), 1);
  EXPECT_EQ(R.exitStatus(), 0);
  EXPECT_TRUE(R.UnusedValues.empty());
}

// Without n the level needs it whether or not the floating-point
// coefficients cancel: an optional level is left out with a note, a level
// asked for makes the function incomplete, listed with where n is used.
TEST(Predict, IRLevelConditionNeedsItsName) {
  PredictOptions O;
  O.Levels = {Level::HLLC, Level::IntCC};
  O.Optional = {Level::IntCC};
  Prediction R = predict(irCondition(), intccMachine(), O);
  const FunctionPrediction &F = R.Functions[0];
  EXPECT_EQ(F.Error, "");
  EXPECT_EQ(F.Levels.count(Level::IntCC), 0u);
  ASSERT_EQ(F.Missing.size(), 1u);
  EXPECT_EQ(F.Missing[0].Levels, std::vector<Level>{Level::IntCC});
  EXPECT_EQ(R.exitStatus(), 0);

  O.Optional.clear();
  R = predict(irCondition(), intccMachine(), O);
  const FunctionPrediction &G = R.Functions[0];
  EXPECT_FALSE(G.Failed);
  ASSERT_EQ(G.Missing.size(), 1u);
  EXPECT_EQ(G.Missing[0].Name, "n");
  EXPECT_EQ(G.Missing[0].Where, "k.c:1");
  EXPECT_NE(G.Missing[0].Meaning.find("parameter of k"), std::string::npos) << G.Missing[0].Meaning;
  EXPECT_NE(G.Missing[0].Meaning.find("IR-level"), std::string::npos) << G.Missing[0].Meaning;
  EXPECT_EQ(R.exitStatus(), 1);
  json J = R.toJSON();
  EXPECT_EQ(J["exit_status"], 1);
  ASSERT_EQ(J["incomplete"].size(), 1u);
  EXPECT_EQ(J["incomplete"][0]["name"], "k");
  EXPECT_EQ(J["incomplete"][0]["missing"][0]["name"], "n");
  EXPECT_EQ(J["functions"][0]["status"], "incomplete");
}

// FormulaBuilder::dependsOn reads the names from the structure: the arms'
// equal costs cancel n out of the closed form, not out of the set.
TEST(Predict, DependsOnIsStructural) {
  SegFile S = irCondition();
  FormulaBuilder FB(S);
  StageWeight W = [](const Node &N) -> GiNaC::ex { return N.Ruvs.count("INTCC") ? 3 : 0; };
  EXPECT_TRUE(freeSymbols(FB.closedForm("k", W, "w", "INTCC")).empty());
  EXPECT_EQ(FB.dependsOn("k", W, "w", "INTCC"), std::set<std::string>{"n"});
  StageWeight Zero = [](const Node &) -> GiNaC::ex { return 0; };
  EXPECT_TRUE(FB.dependsOn("k", Zero, "zero", "INTCC").empty());
}

// A whole file: every function that can be predicted is; the others are
// listed with what they lack, and the exit status says so.
TEST(Predict, WholeFileKeepsGoing) {
  PredictOptions O;
  O.Levels = {Level::POC};
  O.Values = {{"n", 4}};
  Prediction R = predict(file(), machine(), O);
  ASSERT_EQ(R.Functions.size(), 2u);
  EXPECT_EQ(R.Functions[0].Error, "");
  EXPECT_DOUBLE_EQ(R.Functions[0].Levels.at(Level::POC).Counts.at("flop"), 1); // 4 * 0.25
  EXPECT_FALSE(R.Functions[1].Failed);
  ASSERT_EQ(R.Functions[1].Missing.size(), 1u);
  EXPECT_EQ(R.Functions[1].Missing[0].Name, "N_g_7");
  EXPECT_EQ(R.Functions[1].Missing[0].Where, "k.c:7");
  EXPECT_EQ(R.exitStatus(), 1);
  std::ostringstream OS;
  R.printText(OS);
  EXPECT_NE(OS.str().find("incomplete: 1 of 2 functions"), std::string::npos) << OS.str();
  EXPECT_NE(OS.str().find("  g (:0): N_g_7 (iterations of the while loop, k.c:7)"),
            std::string::npos)
      << OS.str();
}

// -p values outside their domain are refused, naming the parameter.
TEST(Predict, ValuesOutsideTheirDomain) {
  auto Refused = [](std::map<std::string, double> V) -> std::string {
    PredictOptions O;
    O.Values = std::move(V);
    try {
      checkValues(file(), O);
    } catch (const std::runtime_error &E) {
      return E.what();
    }
    return "";
  };
  EXPECT_NE(Refused({{"n", -5}}).find("parameter 'n' is a size"), std::string::npos);
  EXPECT_NE(Refused({{"n", std::nan("")}}).find("expected a finite number"), std::string::npos);
  EXPECT_NE(Refused({{"P_f_3", 1.5}}).find("in [0, 1]"), std::string::npos);
  EXPECT_NE(Refused({{"N_g_7", -1}}).find("number of iterations"), std::string::npos);
  EXPECT_NE(Refused({{"p", 0}}).find("number of processes"), std::string::npos);
  EXPECT_EQ(Refused({{"n", 0}, {"P_f_3", 1}, {"N_g_7", 0}}), "");
}

// A trip count n - 2 at n = 1 runs 0 times: max(0, n - 2), with a note;
// never a negative time or count.
TEST(Predict, NegativeTripCountIsZero) {
  SegFile S = file();
  S.Functions[0].Body[0].Trip = "n - 2";
  S.Functions[0].Body[0].Range.File = "k.c";
  S.Functions[0].Body[0].Range.Line = 2;
  PredictOptions O;
  O.Functions = {"f"};
  O.Values = {{"n", 1}};
  Prediction P = predict(S, machine(), O);
  const FunctionPrediction &F = P.Functions.at(0);
  EXPECT_EQ(F.Error, "");
  EXPECT_DOUBLE_EQ(F.Levels.at(Level::POC).Counts.at("flop"), 0);
  EXPECT_DOUBLE_EQ(F.Levels.at(Level::HLLC).TimeS, 0);
  ASSERT_FALSE(F.Notes.empty());
  EXPECT_EQ(F.Notes[0], "loop at k.c:2 (v1): trip count n - 2 = -1 < 0 at n=1, taken as 0");
  // At n = 10 the same file: 8 iterations, no clamp in the formula.
  O.Values = {{"n", 10}};
  Prediction Q = predict(S, machine(), O);
  EXPECT_DOUBLE_EQ(Q.Functions.at(0).Levels.at(Level::POC).Counts.at("flop"), 2);
  EXPECT_EQ(Q.Functions.at(0).Levels.at(Level::POC).Formula.Formula.find("max"), std::string::npos);
}

// The clamp itself: max(0, trip) evaluates to 0 below 0 and to the trip
// count above.
TEST(Formula, ClampTrips) {
  SegFile S = file();
  S.Functions[0].Body[0].Trip = "n - 2";
  FormulaBuilder FB(S);
  FB.setClampTrips(true);
  GiNaC::ex E = FB.closedForm("f", countWeight("POC", "flop"), "flop");
  EXPECT_DOUBLE_EQ(evaluate(E, {{"n", 1}, {"P_f_3", 1}}), 0);
  EXPECT_DOUBLE_EQ(evaluate(E, {{"n", 5}, {"P_f_3", 1}}), 3);
  FB.setClampTrips(false);
  GiNaC::ex U = FB.closedForm("f", countWeight("POC", "flop"), "flop");
  EXPECT_DOUBLE_EQ(evaluate(U, {{"n", 1}, {"P_f_3", 1}}), -1);
}
