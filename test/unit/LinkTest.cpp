//===- LinkTest.cpp - segtime link and parameters bound through calls -----===//
#include "core/Link.h"
#include "predictor/Formula.h"
#include "predictor/Predict.h"
#include "SegFixtures.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace segtime;
using namespace segtime_test;

namespace {

Machine machine() { return unitMachine(1, {{"loop", 1}, {"call", 0}}); }

Node stage(const std::string &Id, double Flop) {
  Node N;
  N.Id = Id;
  N.Ruvs["POC"].add("flop", Flop);
  N.Ruvs["HLLC"].add("loop", 1);
  return N;
}

Node loop(const std::string &Id, const std::string &Trip, NodeList Body) {
  Node L = forLoop(Id, "", Trip, std::move(Body));
  L.Start = L.Step = "";
  return L;
}

Node call(NodeKind K, const std::string &Callee, std::vector<std::string> Args, unsigned Line,
          const std::string &File) {
  Node C;
  C.Kind = K;
  C.Id = "v" + std::to_string(Line);
  C.Callee = Callee;
  C.Args = std::move(Args);
  C.Range.File = File;
  C.Range.Line = Line;
  if (K == NodeKind::Unknown)
    C.Reason = "call to external function '" + Callee + "' (no body in this translation unit)";
  else
    C.Ruvs["HLLC"].add("call");
  return C;
}

FunctionSeg function(const std::string &Name, std::vector<std::string> Params, NodeList Body,
                     bool Static = false) {
  FunctionSeg F;
  F.Name = Name;
  F.Params = std::move(Params);
  F.Body = std::move(Body);
  F.Static = Static;
  return F;
}

/// a.c: main(argc) calls kernel(100, 3) (in b.c), its own static init(10),
/// and printf; b.c: kernel(n, t) = t * n flop, calls its own static init(n);
/// both define a static init(m) of m flop.
std::vector<SegFile> program() {
  SegFile A, B;
  A.SourceFile = "a.c";
  A.OptLevel = "O2";
  B.SourceFile = "b.c";
  B.OptLevel = "O2";
  A.Functions.push_back(function("init", {"m"}, {loop("v1", "m", {stage("v2", 1)})}, true));
  A.Functions.push_back(function(
      "main", {"argc", "argv"},
      {call(NodeKind::Unknown, "kernel", {"100", "3"}, 5, "a.c"),
       call(NodeKind::Call, "init", {"10"}, 6, "a.c"),
       call(NodeKind::Unknown, "printf", {"", "argc"}, 7, "a.c"),
       loop("v8", "argc", {stage("v9", 1)})}));
  B.Functions.push_back(function("init", {"m"}, {loop("v1", "m", {stage("v2", 2)})}, true));
  B.Functions.push_back(function(
      "kernel", {"n", "t"},
      {loop("v1", "t", {loop("v2", "n", {stage("v3", 1)})}),
       call(NodeKind::Call, "init", {"n"}, 4, "b.c")}));
  return {A, B};
}

TEST(Link, ResolvesCallsAcrossFilesAndKeepsStaticsApart) {
  LinkReport R;
  SegFile L = linkSegFiles(program(), {"a.seg.json", "b.seg.json"}, R);
  EXPECT_EQ(L.SourceFile, "a.c, b.c");
  ASSERT_EQ(L.Functions.size(), 4u);
  EXPECT_TRUE(L.find("init@a.c") && L.find("init@b.c") && L.find("main") && L.find("kernel"));
  EXPECT_FALSE(L.find("init"));
  EXPECT_EQ(R.Resolved, 1u);
  EXPECT_EQ(R.Renamed.size(), 2u);
  // main's call to kernel is a Call now; its own init is init@a.c
  const FunctionSeg &Main = *L.find("main");
  EXPECT_EQ(Main.Body[0].Kind, NodeKind::Call);
  EXPECT_EQ(Main.Body[0].Callee, "kernel");
  EXPECT_TRUE(Main.Body[0].Reason.empty());
  EXPECT_EQ(Main.Body[0].Ruvs.at("HLLC").get("call"), 1);
  EXPECT_EQ(Main.Body[1].Callee, "init@a.c");
  EXPECT_EQ(L.find("kernel")->Body[1].Callee, "init@b.c");
  // printf: no unit defines it
  EXPECT_EQ(Main.Body[2].Kind, NodeKind::Unknown);
  ASSERT_EQ(R.Unresolved.size(), 1u);
  EXPECT_EQ(R.Unresolved[0].Callee, "printf");
  EXPECT_EQ(R.Unresolved[0].Calls, 1u);
  EXPECT_EQ(R.Unresolved[0].First, "a.c:7");
  EXPECT_TRUE(R.Warnings.empty());
}

TEST(Link, SecondExternalDefinitionIsAWarning) {
  std::vector<SegFile> U = program();
  U[1].Functions.push_back(function("main", {}, {}));
  LinkReport R;
  SegFile L = linkSegFiles(U, {"a.seg.json", "b.seg.json"}, R);
  ASSERT_EQ(R.Warnings.size(), 1u);
  EXPECT_NE(R.Warnings[0].find("both define 'main'"), std::string::npos);
  EXPECT_EQ(std::count_if(L.Functions.begin(), L.Functions.end(),
                          [](const FunctionSeg &F) { return F.Name == "main"; }),
            1);
  EXPECT_EQ(L.find("main")->Params.size(), 2u); // the first is kept
}

TEST(Link, RecursiveCallOfItsOwnUnitStaysUnknown) {
  std::vector<SegFile> U = program();
  Node Rec = call(NodeKind::Unknown, "kernel", {"n", "t"}, 9, "b.c");
  Rec.Reason = "recursive call to 'kernel'";
  U[1].Functions[1].Body.push_back(Rec);
  LinkReport R;
  SegFile L = linkSegFiles(U, {}, R);
  EXPECT_EQ(L.find("kernel")->Body.back().Kind, NodeKind::Unknown);
}

TEST(Link, NoUnitsIsAnError) {
  LinkReport R;
  EXPECT_THROW(linkSegFiles({}, {}, R), std::runtime_error);
}

TEST(Link, RoundTripsThroughTheWriterAndReader) {
  LinkReport R;
  SegFile L = linkSegFiles(program(), {}, R);
  SegFile Back = SegFile::fromJSON(L.toCompactJSON());
  ASSERT_TRUE(Back.find("init@b.c"));
  EXPECT_TRUE(Back.find("init@b.c")->Static);
  const Node &P = Back.find("main")->Body[2];
  EXPECT_EQ(P.Kind, NodeKind::Unknown);
  EXPECT_EQ(P.Callee, "printf");
  EXPECT_EQ(P.Args, (std::vector<std::string>{"", "argc"}));
}

TEST(BoundThroughCalls, MainNeedsNoValuesAndListsThem) {
  LinkReport R;
  SegFile L = linkSegFiles(program(), {}, R);
  PredictOptions O;
  O.Functions = {"main"};
  O.Levels = {Level::POC};
  Prediction P = predict(L, machine(), O);
  ASSERT_EQ(P.Functions.size(), 1u);
  const FunctionPrediction &F = P.Functions[0];
  ASSERT_TRUE(F.Error.empty()) << F.Error;
  // kernel: 3*100 flop + init@b.c(100): 2*100; init@a.c(10): 10; argc = 1: 1
  EXPECT_DOUBLE_EQ(F.Levels.at(Level::POC).Counts.at("flop"), 300 + 200 + 10 + 1);
  auto Argc = std::find_if(F.Params.begin(), F.Params.end(),
                           [](const ParamValue &V) { return V.Name == "argc"; });
  ASSERT_NE(Argc, F.Params.end());
  EXPECT_EQ(Argc->Value, 1);
  EXPECT_EQ(Argc->Source.rfind("assumed", 0), 0u);
  // every bound parameter, with its call site; nested ones in main's names
  std::map<std::string, BoundValue> B;
  for (const BoundValue &V : F.Bound)
    B[V.Name + "@" + V.Where] = V;
  ASSERT_TRUE(B.count("kernel.n@a.c:5"));
  EXPECT_EQ(B["kernel.n@a.c:5"].Expr, "100");
  EXPECT_EQ(*B["kernel.n@a.c:5"].Value, 100);
  ASSERT_TRUE(B.count("init@b.c.m@b.c:4"));
  EXPECT_EQ(*B["init@b.c.m@b.c:4"].Value, 100);
  ASSERT_TRUE(B.count("init@a.c.m@a.c:6"));
  EXPECT_EQ(*B["init@a.c.m@a.c:6"].Value, 10);
  // what is not costed: printf
  EXPECT_EQ(F.Costed.NotCosted, 1u);
  EXPECT_EQ(F.Costed.NoSeg, (std::set<std::string>{"printf"}));
  EXPECT_EQ(F.Costed.Functions.size(), 4u);
}

TEST(BoundThroughCalls, ArgcGivenWins) {
  LinkReport R;
  SegFile L = linkSegFiles(program(), {}, R);
  PredictOptions O;
  O.Functions = {"main"};
  O.Levels = {Level::POC};
  O.Values["argc"] = 4;
  Prediction P = predict(L, machine(), O);
  ASSERT_TRUE(P.Functions[0].Error.empty());
  EXPECT_DOUBLE_EQ(P.Functions[0].Levels.at(Level::POC).Counts.at("flop"), 514);
}

TEST(BoundThroughCalls, UnlinkedCalleeIsNotCostedAndSaysSo) {
  std::vector<SegFile> U = program();
  PredictOptions O;
  O.Functions = {"main"};
  O.Levels = {Level::POC};
  Prediction P = predict(U[0], machine(), O);
  const FunctionPrediction &F = P.Functions[0];
  ASSERT_TRUE(F.Error.empty());
  EXPECT_DOUBLE_EQ(F.Levels.at(Level::POC).Counts.at("flop"), 11);
  EXPECT_EQ(F.Costed.NotCosted, 2u);
  EXPECT_EQ(F.Costed.NoSeg, (std::set<std::string>{"kernel", "printf"}));
}

// The one binder: a call binds the callee's parameters whose arguments are
// expressions in the caller's names, in parameter order.
TEST(CallBinder, BindsArgumentsInCallerNames) {
  Node C = call(NodeKind::Call, "kernel", {"2*m", "", "argv1", "x"}, 7, "main.c");
  std::vector<CallBinding> B = callBindings(C, {"n", "t", "s"});
  ASSERT_EQ(B.size(), 2u); // t: no expression; x: beyond the parameters (varargs)
  EXPECT_EQ(B[0].Param, "n");
  EXPECT_EQ(B[0].Arg, "2*m");
  EXPECT_EQ(B[1].Param, "s");
  EXPECT_EQ(B[1].Arg, "argv1");
  EXPECT_TRUE(callBindings(call(NodeKind::Call, "f", {}, 1, "a.c"), {"n"}).empty());
}

// The code of an inlined call names the callee's parameters as the caller's
// formulas do ("kernel.n"); bound, it is in the caller's names.
TEST(CallBinder, InlinedCodeTakesTheCallArguments) {
  std::vector<CallBinding> B{{"n", "argv1"}, {"s", "2*m"}};
  EXPECT_EQ(bindCalleeNames("1 + idiv(kernel.n - 2, 2)", "kernel", B), "1 + idiv(argv1 - 2, 2)");
  EXPECT_EQ(bindCalleeNames("kernel.s*kernel.n", "kernel", B), "(2*m)*argv1");
  // Unbound parameters, other callees and longer names stay.
  EXPECT_EQ(bindCalleeNames("kernel.t + kernel.nn + xkernel.n + o.kernel.n + other.n", "kernel", B),
            "kernel.t + kernel.nn + xkernel.n + o.kernel.n + other.n");
  // A callee's own copy: its parameters bound to themselves.
  EXPECT_EQ(bindCalleeNames("cmp_lt(0, kernel.t)*kernel.n", "kernel", {{"n", "n"}, {"t", "t"}}),
            "cmp_lt(0, t)*n");
}

// The inverse for names: the code of an inlined call, in its caller's names,
// back in the callee's where the caller passed a plain name; all at once.
TEST(CallBinder, CallerNamesBackToTheCalleesParameters) {
  std::vector<CallBinding> B{{"n", "m"}, {"m", "n"}, {"s", "2*m"}, {"t", "16"}};
  EXPECT_EQ(unbindCallerNames("i*m + n", B), "i*n + m");
  // An expression or a number passed is the caller's value: it stays.
  EXPECT_EQ(unbindCallerNames("(2*m) + 16", B), "(2*n) + 16");
  // Whole names only: longer names, other callees' names and numbers stay.
  EXPECT_EQ(unbindCallerNames("mm + m_1 + k.m + 1e3 + m", B), "mm + m_1 + k.m + 1e3 + n");
  // The first binding of a name wins.
  EXPECT_EQ(unbindCallerNames("x", {{"a", "x"}, {"b", "x"}}), "a");
  EXPECT_EQ(unbindCallerNames("x + 1", {}), "x + 1");
}

// Linking renames a static caller its inlined callees refer to.
TEST(Link, InlinedReferencesFollowARenamedCaller) {
  std::vector<SegFile> Units = program();
  for (SegFile &U : Units)
    for (FunctionSeg &F : U.Functions)
      if (F.Static) {
        FunctionSeg K = function("kernel_of_" + F.Name + std::to_string(&U - &Units[0]), {"n"}, {});
        K.Static = true;
        K.InlinedAt.push_back({F.Name, "a.c:3:5", {"ir1"}});
        U.Functions.push_back(K);
        break;
      }
  LinkReport R;
  SegFile L = linkSegFiles(Units, {"a", "b"}, R);
  unsigned Seen = 0;
  for (const FunctionSeg &F : L.Functions)
    for (const InlinedRef &Ref : F.InlinedAt) {
      ++Seen;
      EXPECT_NE(L.find(Ref.Caller), nullptr) << Ref.Caller;
      EXPECT_NE(Ref.Caller.find('@'), std::string::npos) << Ref.Caller;
    }
  EXPECT_GT(Seen, 0u);
}

// The predictor binds a callee's formula with the same binder: a parameter
// the call does not bind is "callee.param", never the caller's symbol.
TEST(CallBinder, FormulaSubstitution) {
  FunctionSeg K;
  K.Name = "kernel";
  K.Params = {"n", "t"};
  GiNaC::exmap M = callSubstitution(call(NodeKind::Call, "kernel", {"2*m", ""}, 7, "main.c"), K);
  GiNaC::ex E = parseExpr("n*t + t").subs(M);
  EXPECT_TRUE(E.is_equal(parseExpr("2*m*kernel.t + kernel.t"))) << E;
}

} // namespace
