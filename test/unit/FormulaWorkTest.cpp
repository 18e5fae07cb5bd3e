//===- FormulaWorkTest.cpp - Closed forms of shared DAGs in linear work ---===//
///
/// \file
/// Closed forms share subexpression objects: a loop bound (the memory term's
/// overlap, (t_core^p + t_mem^p)^(1/p)) names the core time twice, and a
/// callee's closed form is bound into every caller. The tests build the
/// growing shape, a chain of functions each of which calls the one below
/// under such a bound, whose expression tree doubles with each level while
/// its DAG grows by a constant, and check that the work (the DAG size of
/// the result) stays linear in the depth.
///
//===----------------------------------------------------------------------===//
#include "predictor/Formula.h"

#include <gtest/gtest.h>

using namespace segtime;
using namespace GiNaC;

namespace {

/// E_{k+1} = max(E_k, 2 E_k + y), E_0 = x + y: a tree of 2^Depth copies of
/// x + y, a DAG of a few objects per level.
ex sharedChain(int Depth) {
  ex E = sym("x") + sym("y");
  for (int K = 0; K < Depth; ++K)
    E = max(E, 2 * E + sym("y"));
  return E;
}

TEST(SubsShared, LinearInTheDagOfADeeplySharedExpression) {
  const int Depth = 60; // a tree of 2^60 leaves: GiNaC's subs would not finish
  ex E = sharedChain(Depth);
  EXPECT_LT(dagSize(E), size_t(10 * Depth));
  ex R = subsShared(E, {{sym("x"), sym("z") + 1}});
  EXPECT_LT(dagSize(R), size_t(10 * Depth));
  EXPECT_TRUE(hasShared(R, sym("z")));
  EXPECT_FALSE(hasShared(R, sym("x")));
  // The same value as GiNaC's subs on a depth it can walk.
  ex Small = sharedChain(6);
  exmap M{{sym("x"), sym("z") + 1}};
  EXPECT_TRUE(subsShared(Small, M).is_equal(Small.subs(M)));
  EXPECT_EQ(evaluate(subsShared(Small, M), {{"z", 2}, {"y", 1}}),
            evaluate(Small.subs(M), {{"z", 2}, {"y", 1}}));
  EXPECT_THROW(subsShared(Small, {{sym("x") + 1, sym("z")}}), std::invalid_argument);
}

Node stage(const std::string &Id) {
  Node N;
  N.Id = Id;
  N.Ruvs["HLLC"].add("x", 1);
  return N;
}

Node call(const std::string &Id, const std::string &Callee, const std::string &Arg) {
  Node N;
  N.Kind = NodeKind::Call;
  N.Id = Id;
  N.Callee = Callee;
  N.Args = {Arg};
  return N;
}

Node loop(const std::string &Id, const std::string &Trip, NodeList Body) {
  Node L;
  L.Kind = NodeKind::Loop;
  L.Id = Id;
  L.Trip = Trip;
  L.Body = std::move(Body);
  return L;
}

/// f0(n): n x stage; f_k(n): 2 x (stage; f_{k-1}(n + 1)).
SegFile chainFile(int Depth) {
  SegFile S;
  FunctionSeg F0;
  F0.Name = "f0";
  F0.Params = {"n"};
  F0.Body = {loop("v1", "n", {stage("v2")})};
  S.Functions.push_back(F0);
  for (int K = 1; K <= Depth; ++K) {
    FunctionSeg F;
    F.Name = "f" + std::to_string(K);
    F.Params = {"n"};
    F.Body = {loop("v1", "2", {stage("v2"), call("v3", "f" + std::to_string(K - 1), "n + 1")})};
    S.Functions.push_back(F);
  }
  return S;
}

TEST(FormulaWork, CallChainUnderASharingLoopBoundStaysLinear) {
  const int Depth = 40;
  SegFile S = chainFile(Depth);
  FormulaBuilder FB(S);
  // The overlap bound's shape: the core time named twice (a max stands for
  // (t_core^p + t_mem^p)^(1/p)), with a memory time in the trip count.
  FB.setLoopBound("t", [](const Node &L, const ex &Core, int) {
    return max(Core, Core + parseExpr(L.Trip) / 1000);
  });
  ex T = FB.closedForm("f" + std::to_string(Depth), countWeight("HLLC", "x"), "t");
  // Depth levels of a few objects each (not 2^Depth).
  EXPECT_LT(dagSize(T), size_t(40 * Depth));
  // f_k(n) = 2 (1 + f_{k-1}(n + 1)) + 2/1000 (max picks the larger), f0(n) = n + n/1000.
  double Want = 1.001 * (10 + Depth);
  for (int K = 1; K <= Depth; ++K)
    Want = 2 * (1 + Want) + 0.002;
  EXPECT_NEAR(evaluate(T, {{"n", 10}}) / Want, 1.0, 1e-9);
}

} // namespace

namespace {
/// A numeric seg_sum whose body compares a floating-point constant (a cache
/// size) with an integer expression of the index: each term in double
/// arithmetic, the same value as the term-by-term sum.
TEST(SumWork, FloatComparisonsInANumericSumTakeTheFastPath) {
  ex K = sym("k");
  ex Body = cmp_lt(numeric(4200634.2230782248), 8 * K * K) * K + cmp_le(numeric(2.5), K);
  ex S = seg_sum(Body, K, 0, 999);
  double Want = 0;
  for (int I = 0; I <= 999; ++I)
    Want += (4200634.2230782248 < 8.0 * I * I ? I : 0) + (2.5 <= I ? 1 : 0);
  EXPECT_EQ(evaluate(S, {}), Want);
  // A comparison too close to call in doubles is left to GiNaC's numbers.
  ex Close = seg_sum(cmp_lt(numeric(0.1) * 3, numeric(3, 10) + K - K), K, 0, 9);
  EXPECT_EQ(evaluate(Close, {}), 10 * evaluate(cmp_lt(numeric(0.1) * 3, numeric(3, 10)), {}));
}
} // namespace

#include "predictor/Predict.h"
#include "SegFixtures.h"

namespace {
using segtime_test::forLoop;
using segtime_test::stageNode;
using segtime_test::unitMachine;

/// leaf(n): n iterations; mid(n): 3 x (stage; leaf(n + 1)); c1..cN(n):
/// stage; mid(2 n) (many callers share a callee, as a library's helpers);
/// r(n) and s(n) call each other (a recursion, cut where it closes).
SegFile sharedCalleeFile(int Callers, const std::string &MidTrip = "3") {
  SegFile S;
  S.OptLevel = "O2";
  auto Fn = [&](const std::string &Name, NodeList Body) {
    FunctionSeg F;
    F.Name = Name;
    F.Params = {"n"};
    F.Body = std::move(Body);
    S.Functions.push_back(F);
  };
  Fn("leaf", {forLoop("v1", "i", "n", {stageNode("v2", {{"f64.add", 1}}, 1)})});
  Fn("mid", {loop("v1", MidTrip,
                  {stageNode("v2", {{"if", 1}}, 0), call("v3", "leaf", "n + 1")})});
  for (int K = 1; K <= Callers; ++K)
    Fn("c" + std::to_string(K), {stageNode("v1", {{"loop", double(K)}}, 0),
                                 call("v2", "mid", "2*n")});
  Fn("r", {stageNode("v1", {{"if", 1}}, 0), call("v2", "s", "n")});
  Fn("s", {stageNode("v1", {{"loop", 1}}, 0), call("v2", "r", "n"), call("v3", "leaf", "n")});
  return S;
}

/// Every level's time and counts of R, in one list (for EXPECT_EQ).
std::vector<double> figures(const Prediction &R) {
  std::vector<double> V;
  for (const FunctionPrediction &F : R.Functions)
    for (auto &[L, LP] : F.Levels) {
      V.push_back(LP.TimeS);
      for (auto &[Op, C] : LP.Counts)
        V.push_back(C);
    }
  return V;
}

// One Predictor over the callers one after another (as the per-site figures
// of inlined functions predict a function per site): the shared callees'
// closed forms are built once, not once per prediction, and every figure is
// the one a prediction of its own gives.
TEST(FormulaWork, CalleesSharedByManyPredictionsAreBuiltOnce) {
  const int Callers = 40;
  SegFile S = sharedCalleeFile(Callers);
  Machine M = unitMachine(4, {{"loop", 1}, {"f64.add", 2}, {"if", 1}});
  PredictOptions O;
  O.Values = {{"n", 5}};
  Predictor P(S, M, O);
  Prediction First = P.predict({"c1"});
  const size_t One = P.formsBuilt(); // c1, mid and leaf under every weight
  ASSERT_GT(One, 0u);
  size_t PerCaller = 0;
  for (int K = 2; K <= Callers; ++K) {
    const std::string C = "c" + std::to_string(K);
    Prediction Shared = P.predict({C});
    if (K == 2)
      PerCaller = P.formsBuilt() - One;
    O.Functions = {C};
    EXPECT_EQ(figures(Shared), figures(predict(S, M, O))) << C;
  }
  // Each further caller builds only its own forms (fewer than the first,
  // which built the callees' too): linear in the callers, with the
  // callees' share once.
  EXPECT_LT(PerCaller, One);
  EXPECT_LE(P.formsBuilt(), One + (Callers - 1) * PerCaller);
  EXPECT_GT(figures(First)[0], 0);
}

// The forms cut at a recursion depend on where the building started: r's
// prediction builds s with the call back to r cut; s's own prediction then
// builds s again (with r's form in it), as a predictor of its own does.
TEST(FormulaWork, FormsCutAtARecursionAreNotKept) {
  SegFile S = sharedCalleeFile(1);
  Machine M = unitMachine(4, {{"loop", 1}, {"f64.add", 2}, {"if", 1}});
  PredictOptions O;
  O.Values = {{"n", 5}};
  Predictor P(S, M, O);
  for (const std::string F : {"r", "s", "r", "c1", "s"}) {
    O.Functions = {F};
    EXPECT_EQ(figures(P.predict({F})), figures(predict(S, M, O))) << F;
  }
}

// The per-site figures predict one function after the other from the same
// start: a prediction told to keep the forms cut at a recursion reuses them
// (nothing is built again), with the figures of a fresh prediction.
TEST(FormulaWork, CutFormsKeptForTheSameStartAreNotBuiltAgain) {
  SegFile S = sharedCalleeFile(1);
  Machine M = unitMachine(4, {{"loop", 1}, {"f64.add", 2}, {"if", 1}});
  PredictOptions O;
  O.Values = {{"n", 5}};
  O.Functions = {"r"};
  Predictor P(S, M, O);
  const std::vector<double> First = figures(P.predict({"r"}));
  const size_t Built = P.formsBuilt();
  P.keepCutForms();
  EXPECT_EQ(figures(P.predict({"r"})), First);
  EXPECT_EQ(P.formsBuilt(), Built);
  // Without it, r's and s's forms (cut where s calls r) are built again.
  EXPECT_EQ(figures(P.predict({"r"})), figures(predict(S, M, O)));
  EXPECT_GT(P.formsBuilt(), Built);
}

// A function whose SEG is swapped for another (an inlined function resolved
// at another call site): its forms and its callers' are built again.
TEST(FormulaWork, ReplacedFunctionAndItsCallersAreBuiltAgain) {
  SegFile S = sharedCalleeFile(2);
  SegFile Other = sharedCalleeFile(2, "7");
  Machine M = unitMachine(4, {{"loop", 1}, {"f64.add", 2}, {"if", 1}});
  PredictOptions O;
  O.Values = {{"n", 5}};
  O.Functions = {"c1"};
  Predictor P(S, M, O);
  const std::vector<double> Before = figures(P.predict({"c1"}));
  std::swap(*std::find_if(S.Functions.begin(), S.Functions.end(),
                          [](const FunctionSeg &F) { return F.Name == "mid"; }),
            Other.Functions[1]);
  P.replaced("mid");
  const std::vector<double> After = figures(P.predict({"c1"}));
  EXPECT_EQ(After, figures(predict(S, M, O)));
  EXPECT_NE(After, Before);
}
} // namespace

namespace {
/// A branch of probability Prob around one stage.
Node branch(const std::string &Id, const std::string &Prob, NodeList Body) {
  Node B;
  B.Kind = NodeKind::Branch;
  B.Id = Id;
  B.Arms.push_back({"then", Prob, std::move(Body)});
  return B;
}

/// big(n, p): a loop of Width branches, each with a probability of its own and
/// a loop of a trip count of its own (a form of a few nodes per branch,
/// factored: the printf of a library); mid_k(n): Sites calls to big, half at
/// the arguments n + j, half at n (the same binding), then mid_{k-1}(n + 1);
/// top(n) = mid_Depth(n).
SegFile largeCalleeFile(int Width, int Sites, int Depth) {
  SegFile S;
  FunctionSeg Big;
  Big.Name = "big";
  Big.Params = {"n", "p"}; // (p: a pointer no call binds, not in the form)
  NodeList Arms;
  for (int I = 0; I < Width; ++I) {
    std::string K = std::to_string(I);
    Arms.push_back(branch("b" + K, "P_" + K,
                          {stage("s" + K), loop("l" + K, "N_" + K + " + n", {stage("t" + K)})}));
  }
  Big.Body = {loop("v1", "n", std::move(Arms))};
  S.Functions.push_back(Big);
  for (int K = 0; K <= Depth; ++K) {
    FunctionSeg F;
    F.Name = "mid" + std::to_string(K);
    F.Params = {"n"};
    for (int J = 0; J < Sites; ++J)
      F.Body.push_back(call("c" + std::to_string(J), "big",
                            J % 2 ? "n" : "n + " + std::to_string(J)));
    if (K > 0)
      F.Body.push_back(call("d", "mid" + std::to_string(K - 1), "n + 1"));
    S.Functions.push_back(F);
  }
  return S;
}

std::map<std::string, double> largeCalleeValues(int Width) {
  std::map<std::string, double> V{{"n", 7}};
  for (int I = 0; I < Width; ++I) {
    V["P_" + std::to_string(I)] = 0.5 / (I + 1);
    V["N_" + std::to_string(I)] = I % 5;
  }
  return V;
}

// One function calls a large callee many times, and a chain of such
// functions calls the one below: the callee's form is kept behind its calls
// (evaluated once the values are known), so a caller's form holds its own
// calls only, and the same binding is substituted once. The value is the
// one of the forms substituted in full.
TEST(FormulaWork, LargeCalleesCalledManyTimesAreKeptAsCalls) {
  const int Width = 60, Sites = 40, Depth = 6;
  SegFile S = largeCalleeFile(Width, Sites, Depth);
  const std::map<std::string, double> V = largeCalleeValues(Width);
  const std::string Top = "mid" + std::to_string(Depth);
  FormulaBuilder Kept(S);
  Kept.setMaxCalleeNodes(100);
  ex T = Kept.closedForm(Top, countWeight("HLLC", "x"), "t");
  ASSERT_GT(dagSize(Kept.closedForm("big", countWeight("HLLC", "x"), "t")), size_t(100));
  // Each caller: its Sites calls (Sites / 2 distinct bindings) and the
  // call below, not (Depth + 1) * Sites copies of big's form.
  EXPECT_LT(dagSize(T), size_t(20 * Sites * (Depth + 1)));
  EXPECT_TRUE(keptCalls(T).count("big"));
  EXPECT_EQ(Kept.formsBuilt(), size_t(Depth + 2));
  EXPECT_NE(toString(T).find("T_big(n)"), std::string::npos);
  // The same value as the forms substituted in full (a smaller depth, which
  // substitutes Sites * Depth copies).
  FormulaBuilder Full(S);
  Full.setMaxCalleeNodes(0);
  const std::string Mid = "mid2";
  double Want = evaluate(Full.closedForm(Mid, countWeight("HLLC", "x"), "t"), V);
  EXPECT_NEAR(evaluate(Kept.closedForm(Mid, countWeight("HLLC", "x"), "t"), V) / Want, 1, 1e-12);
  // Substituted in full, a binding met again is the one bound form.
  // (big at n, n + 2, ..., n + Sites - 2, the same in each mid: Sites / 2;
  // mid1's and mid2's call below)
  EXPECT_EQ(Full.bindingsMade(), size_t(Sites / 2 + 2));
  EXPECT_GT(evaluate(T, V), Want);
}
} // namespace

namespace {
/// mergesort with msort and merge inlined into main: a loop over the merge
/// width w = 2^k (a geometric index), around a loop over the runs whose trip
/// count n / (2 w) depends on it, around the merge of min(2 w, n - 2 w lo)
/// elements. The outer sum's body holds the inner sum: both are compiled
/// into double operations once, and no term is substituted into GiNaC.
TEST(SumWork, NestedSumOverAGeometricIndexIsCompiledOnce) {
  const int Levels = 10, N = 1024;
  ex K = sym("k_ms_w"), J = sym("k_ms_lo");
  ex W = pow(ex(numeric(2.0)), K);
  ex Inner = seg_sum(min(2 * W, N - 2 * W * J), J, 0, idiv(N, 2 * W) - 1);
  resetSumWork();
  ex Outer = seg_sum(Inner + 1, K, 0, Levels - 1);
  EXPECT_EQ(evaluate(Outer, {}), double(Levels * N + Levels));
  const SumWork &Work = sumWork();
  EXPECT_EQ(Work.Substituted, 0u);
  EXPECT_EQ(Work.Sums, 1u);
  EXPECT_EQ(Work.Compiled, 1u);
  // (each level's runs once: n / 2 + n / 4 + ... + 1, and the outer terms)
  EXPECT_LE(Work.Terms, size_t(N + Levels));
  // The same sum with a body the program does not cover (a held ltrip)
  // falls back to GiNaC term by term, with the same value.
  ex Held = seg_sum(Inner + ltrip(sym("m"), 8, 2), K, 0, Levels - 1);
  EXPECT_EQ(evaluate(Held, {{"m", 1}}), double(Levels * N + Levels * 3));
}

/// s(n) and r(n) call each other; s has a loop of N_s_9 iterations (no
/// default) and, in a branch of probability P_s_3 (default 0.5), an f64.mul
/// (and, with Div, a loop of N_s_12 iterations of f64.div). Predicting s
/// first (incomplete: N_s_9) keeps r's dependencies cut at the call back
/// to s; r's counts are then built in full, with s's names in them.
SegFile recursionFile(bool Div) {
  SegFile S;
  S.OptLevel = "O2";
  FunctionSeg Sf;
  Sf.Name = "s";
  Sf.Params = {"n"};
  Sf.Parameters.push_back({"N_s_9", "loop", std::nullopt, "none", "k.c:9", "iterations"});
  Sf.Parameters.push_back({"P_s_3", "branch", 0.5, "static: default 0.5", "k.c:3", "if"});
  Node Mul = stage("v3");
  Mul.Ruvs["HLLC"] = {};
  Mul.Ruvs["HLLC"].add("f64.mul", 1);
  Node Add = stage("v2");
  Add.Ruvs["HLLC"] = {};
  Add.Ruvs["HLLC"].add("f64.add", 1);
  Sf.Body = {loop("v1", "N_s_9", {Add}), branch("v4", "P_s_3", {Mul}), call("v5", "r", "n")};
  if (Div) {
    Sf.Parameters.push_back({"N_s_12", "loop", std::nullopt, "none", "k.c:12", "iterations"});
    Node D = stage("v7");
    D.Ruvs["HLLC"] = {};
    D.Ruvs["HLLC"].add("f64.div", 1);
    Sf.Body.push_back(branch("v8", "P_s_3", {loop("v6", "N_s_12", {D})}));
  }
  S.Functions.push_back(Sf);
  FunctionSeg R;
  R.Name = "r";
  R.Params = {"n"};
  R.Body = {Add, call("v2", "s", "n")};
  S.Functions.push_back(R);
  return S;
}

// A name of a function reached through a recursive call that the caller's
// dependencies did not list takes its default (a branch probability), with
// a note; one without a default is a value missing, not a failure.
TEST(Predict, NamesReachedThroughARecursionTakeTheirDefaults) {
  Machine M = unitMachine(4, {{"f64.add", 1}, {"f64.mul", 2}, {"f64.div", 3}});
  PredictOptions O;
  O.Levels = {Level::HLLC};
  Prediction P = predict(recursionFile(false), M, O);
  ASSERT_EQ(P.Functions.size(), 2u);
  EXPECT_NE(P.Functions[0].Error.find("N_s_9"), std::string::npos);
  const FunctionPrediction &R = P.Functions[1];
  EXPECT_TRUE(R.Error.empty()) << R.Error;
  ASSERT_TRUE(R.Levels.count(Level::HLLC));
  EXPECT_EQ(R.Levels.at(Level::HLLC).Counts.at("f64.mul"), 0.5);
  bool Noted = false;
  for (const std::string &N : R.Notes)
    Noted |= N.find("recursive call") != std::string::npos && N.find("P_s_3") != std::string::npos;
  EXPECT_TRUE(Noted);

  // N_s_12 has no default: r is incomplete (exit status 1), not failed.
  Prediction Q = predict(recursionFile(true), M, O);
  const FunctionPrediction &R2 = Q.Functions[1];
  EXPECT_FALSE(R2.Failed) << R2.Error;
  EXPECT_NE(R2.Error.find("missing parameter value(s) for r: N_s_12"), std::string::npos)
      << R2.Error;
  EXPECT_TRUE(R2.Levels.empty());
  EXPECT_EQ(Q.exitStatus(), 1);
  // A default level lacking it is left out with a note.
  O.Optional = {Level::HLLC};
  Prediction Opt = predict(recursionFile(true), M, O);
  const FunctionPrediction &R3 = Opt.Functions[1];
  EXPECT_FALSE(R3.Failed);
  EXPECT_FALSE(R3.Levels.count(Level::HLLC));
  bool Left = false;
  for (const std::string &N : R3.Notes)
    Left |= N == "HLLC not predicted: no value for N_s_12";
  EXPECT_TRUE(Left);
}
} // namespace
