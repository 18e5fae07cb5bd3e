//===- MergeIRTest.cpp - The IR-level SEG merged into the source's --------===//
///
/// \file
/// core/MergeIR.h with the predictor's expression algebra: IR loops matched
/// to source loops, trip counts cross-checked or taken from the source,
/// every node attributed to source, unmatched loops keeping their
/// parameters, the code of an inlined call bound to its arguments; the IR
/// level of an inlined function from the references to its calls' code.
///
//===----------------------------------------------------------------------===//
#include "core/InlinedLevels.h"
#include "core/MergeIR.h"
#include "predictor/ExprText.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

using namespace segtime;

namespace {

SourceRange at(unsigned Line, unsigned Col, unsigned EndLine, unsigned EndCol) {
  SourceRange R;
  R.File = "a.c";
  R.Line = Line;
  R.Col = Col;
  R.EndLine = EndLine;
  R.EndCol = EndCol;
  return R;
}

Node node(NodeKind K, const std::string &Id, SourceRange R) {
  Node N;
  N.Kind = K;
  N.Id = Id;
  N.Range = R;
  return N;
}

/// for (i = Start; i < ...; ++i) at Line, counted Trip times.
Node sourceLoop(const std::string &Id, unsigned Line, unsigned EndLine, const std::string &Index,
                const std::string &Start, const std::string &Trip) {
  Node L = node(NodeKind::Loop, Id, at(Line, 3, EndLine, 3));
  L.LoopKind = "for";
  L.Index = Index;
  L.Start = Start;
  L.Step = "1";
  L.Trip = Trip;
  return L;
}

Node irLoop(const std::string &Id, unsigned Line, const std::string &Trip,
            const std::string &Index = "") {
  Node L = node(NodeKind::Loop, Id, at(Line, 3, 0, 0));
  L.Trip = Trip;
  L.Index = Index;
  return L;
}

Parameter param(const std::string &Name, const std::string &Kind) {
  Parameter P;
  P.Name = Name;
  P.Kind = Kind;
  return P;
}

/// f(n): for (i = 0; i < n; ++i) { stage at line 4 }
FunctionSeg oneLoop() {
  FunctionSeg F;
  F.Name = "f";
  Node L = sourceLoop("v1", 3, 5, "i", "0", "n");
  L.Body.push_back(node(NodeKind::Stage, "v2", at(4, 5, 4, 20)));
  F.Body.push_back(L);
  return F;
}

MergeIRServices services(const std::map<std::string, std::string> &SourceNames = {}) {
  static std::map<std::string, std::string> Names;
  Names = SourceNames;
  MergeIRServices S;
  S.SourceNames = &Names;
  S.ParamName = [](const std::string &, unsigned K) { return K == 0 ? "n" : "arg1"; };
  S.Simplify = simplifyExprText;
  S.SameValue = sameValue;
  S.ValueRatio = valueRatio;
  return S;
}

bool hasParameter(const FunctionSeg &F, const std::string &Name) {
  return std::any_of(F.Parameters.begin(), F.Parameters.end(),
                     [&](const Parameter &P) { return P.Name == Name; });
}

TEST(MergeIR, LoopMatchedToItsSourceLoopAndNodesAttributed) {
  FunctionSeg F = oneLoop();
  NodeList IR{irLoop("ir1", 3, "n - 0")};
  IR[0].Body.push_back(node(NodeKind::Stage, "b2", at(4, 7, 0, 0)));
  IR.push_back(node(NodeKind::Stage, "b9", at(0, 0, 0, 0))); // no location
  std::vector<std::string> W;
  mergeIR(W, F, IR, {}, {}, services());
  const NodeList &L = F.LevelSegs.at("IR");
  ASSERT_EQ(L.size(), 2u);
  EXPECT_EQ(L[0].SourceNode, "v1");
  EXPECT_EQ(L[0].Trip, "n"); // simplified
  EXPECT_EQ(L[0].Label, "");
  EXPECT_EQ(L[0].Body[0].SourceNode, "v2");
  EXPECT_EQ(L[1].SourceNode, ""); // line 0: attributed to nothing
  EXPECT_TRUE(W.empty());
}

TEST(MergeIR, UnrolledLoopIsLabelled) {
  FunctionSeg F = oneLoop();
  std::vector<std::string> W;
  mergeIR(W, F, {irLoop("ir1", 3, "idiv(n, 4)")}, {}, {}, services());
  EXPECT_EQ(F.LevelSegs.at("IR")[0].Label, "unrolled x4");
  EXPECT_TRUE(W.empty());
}

TEST(MergeIR, DisagreeingTripCountsWarn) {
  FunctionSeg F = oneLoop();
  std::vector<std::string> W;
  mergeIR(W, F, {irLoop("ir1", 3, "n - 1")}, {}, {}, services());
  ASSERT_EQ(W.size(), 1u);
  EXPECT_EQ(W[0], "f:3: segtime: trip counts disagree: source loop v1 runs n times, "
                  "ScalarEvolution says " +
                      simplifyExprText("n - 1") + " for optimised loop ir1");
  EXPECT_EQ(F.LevelSegs.at("IR")[0].Label, "");
}

TEST(MergeIR, UncountedLoopTakesTheSourceCountAlsoInItsMemoryTerm) {
  FunctionSeg F = oneLoop();
  NodeList IR{irLoop("ir1", 3, "N_f_3")};
  IR[0].Footprint = "8*N_f_3";
  IR[0].Traffic = "8*N_f_3";
  std::vector<std::string> W;
  mergeIR(W, F, IR, {param("N_f_3", "loop")}, {}, services());
  const Node &L = F.LevelSegs.at("IR")[0];
  EXPECT_EQ(L.Trip, "n");
  EXPECT_EQ(L.Footprint, "8*(n)");
  EXPECT_FALSE(hasParameter(F, "N_f_3")); // no longer used
  EXPECT_TRUE(W.empty());
}

TEST(MergeIR, UnmatchedLoopsKeepTheirParameters) {
  FunctionSeg F = oneLoop();
  // Two optimised loops for one source loop (the copies of an unrolled
  // enclosing loop, or an unrolled loop's parts: idiv and umod of the
  // iterations per reach), one loop with no source loop at its line. The
  // parameter N_f_3 is the iterations per reach of the source loop: each
  // takes the source count.
  NodeList IR{irLoop("ir1", 3, "N_f_3"), irLoop("ir2", 3, "umod(N_f_3, 4)"),
              irLoop("ir3", 9, "N_f_9")};
  std::vector<Parameter> Ps{param("N_f_3", "loop"), param("N_f_9", "loop"),
                            param("N_f_7", "loop"), param("Pir_f_4_5", "branch")};
  std::vector<std::string> W;
  mergeIR(W, F, IR, Ps, {}, services());
  const NodeList &L = F.LevelSegs.at("IR");
  EXPECT_EQ(L[0].Trip, "n");
  EXPECT_EQ(L[1].Trip, simplifyExprText("umod((n), 4)"));
  EXPECT_EQ(L[0].SourceNode, "v1"); // still attributed to the source loop
  EXPECT_EQ(L[2].Trip, "N_f_9");
  EXPECT_EQ(L[2].SourceNode, "");
  EXPECT_FALSE(hasParameter(F, "N_f_3"));
  EXPECT_TRUE(hasParameter(F, "N_f_9"));
  EXPECT_FALSE(hasParameter(F, "N_f_7"));    // made but not used
  EXPECT_TRUE(hasParameter(F, "Pir_f_4_5")); // branch probabilities always
}

TEST(MergeIR, CountKnownPerOuterIterationDropsTheMemoryTerm) {
  // for (i = 0; i < n; ++i) for (j = i; j < n; ++j): the inner count is
  // n - i, in the IR's names n - k (k: the outer IR loop's iteration).
  FunctionSeg F;
  F.Name = "f";
  Node Outer = sourceLoop("v1", 3, 6, "i", "0", "n");
  Outer.Body.push_back(sourceLoop("v2", 4, 5, "j", "i", "n - i"));
  F.Body.push_back(Outer);
  NodeList IR{irLoop("ir1", 3, "n", "k_ir1")};
  IR[0].Body.push_back(irLoop("ir2", 4, "N_f_4"));
  IR[0].Footprint = "8*N_f_4*n";
  std::vector<std::string> W;
  mergeIR(W, F, IR, {param("N_f_4", "loop")}, {}, services());
  const Node &L = F.LevelSegs.at("IR")[0];
  EXPECT_EQ(L.Body[0].Trip, simplifyExprText("n - ((0) + (1)*k_ir1)"));
  EXPECT_EQ(L.Body[0].SourceNode, "v2");
  EXPECT_EQ(L.Footprint, "");
  ASSERT_EQ(L.MemoryNotes.size(), 1u);
  EXPECT_NE(L.MemoryNotes[0].find("the trip count of the loop at line 4 is known only per "
                                  "iteration of an enclosing loop"),
            std::string::npos);
}

TEST(MergeIR, InlinedCodeIsBoundToTheCallsArguments) {
  FunctionSeg F;
  F.Name = "f";
  Node Call = node(NodeKind::Call, "v3", at(7, 3, 7, 12));
  Call.Callee = "kernel";
  Call.Args = {"m"};
  F.Body.push_back(Call);
  // kernel's loop, inlined at a.c:7:3, and the edge stage after it.
  NodeList IR{irLoop("ir5", 20, "kernel.n"), node(NodeKind::Stage, "ir5e7", at(21, 1, 0, 0))};
  IR[1].Freq = "kernel.n + 1";
  InlinedSite Site;
  Site.Callee = "_Z6kerneli";
  Site.Where = "a.c:7:3";
  Site.Line = 7;
  Site.Col = 3;
  Site.Nodes = {"ir5"};
  std::vector<std::string> W;
  mergeIR(W, F, IR, {}, {Site}, services({{"_Z6kerneli", "kernel"}}));
  const NodeList &L = F.LevelSegs.at("IR");
  EXPECT_EQ(L[0].SourceNode, "v3");
  EXPECT_EQ(L[0].Trip, "m");
  EXPECT_EQ(L[1].Freq, "m + 1");
}

/// main(m, t): kernel(m, t) at a.c:7:3 and kernel(2*m, t) at a.c:9:3, both
/// inlined: main's IR level has the two calls' loops (in main's names, as
/// mergeIR bound them: the first site's n is m, the second's is 2*m; t left
/// as kernel.t) and kernel refers to them.
SegFile inlinedProgram() {
  FunctionSeg Main;
  Main.Name = "main";
  Main.Params = {"m", "t"};
  for (auto [Id, Line, Arg] : {std::tuple{"v3", 7u, "m"}, std::tuple{"v4", 9u, "2*m"}}) {
    Node Call = node(NodeKind::Call, Id, at(Line, 3, Line, 12));
    Call.Callee = "kernel";
    Call.Args = {Arg, ""};
    Main.Body.push_back(Call);
  }
  NodeList IR{node(NodeKind::Stage, "ir1", at(6, 3, 0, 0)), irLoop("ir5", 20, "m*kernel.t"),
              node(NodeKind::Stage, "ir5e7", at(20, 1, 0, 0)), irLoop("ir9", 20, "2*m*kernel.t")};
  IR[1].SourceNode = IR[2].SourceNode = "v3";
  IR[2].Freq = "Pir_main_20_3";
  IR[3].SourceNode = "v4";
  Main.LevelSegs["IR"] = IR;
  Main.Parameters.push_back(param("Pir_main_20_3", "branch"));
  FunctionSeg Kernel;
  Kernel.Name = "kernel";
  Kernel.Params = {"n", "t"};
  Kernel.Range = at(19, 1, 23, 1);
  Kernel.Body.push_back(sourceLoop("v1", 20, 22, "i", "0", "n*t"));
  Kernel.InlinedAt = {{"main", "a.c:7:3", {"ir5", "ir5e7"}}, {"main", "a.c:9:3", {"ir9"}}};
  SegFile S;
  S.Functions = {Main, Kernel};
  return S;
}

TEST(ResolveInlined, EachSiteInTheCalleesNames) {
  SegFile S = inlinedProgram();
  std::vector<std::string> W;
  resolveInlinedLevels(S, services(), 1, W);
  const FunctionSeg &K = *S.find("kernel");
  const NodeList &L = K.LevelSegs.at("IR");
  ASSERT_EQ(L.size(), 2u);
  EXPECT_EQ(L[0].Id, "ir5");
  EXPECT_EQ(L[0].Trip, "n*t"); // m back to n, kernel.t to t
  EXPECT_EQ(L[0].SourceNode, "v1"); // kernel's own source loop
  EXPECT_EQ(L[1].Freq, "Pir_main_20_3");
  EXPECT_TRUE(hasParameter(K, "Pir_main_20_3")); // the caller's, with its default
  // The second site passed 2*m: its code stays in main's value.
  SegFile S2 = inlinedProgram();
  resolveInlinedLevels(S2, services(), 2, W);
  const NodeList &L2 = S2.find("kernel")->LevelSegs.at("IR");
  ASSERT_EQ(L2.size(), 1u);
  EXPECT_EQ(L2[0].Trip, "2*m*t");
  // mergeIR cross-checks it with kernel's source loop (n*t).
  ASSERT_EQ(W.size(), 1u);
  EXPECT_NE(W[0].find("trip counts disagree"), std::string::npos) << W[0];
  // The caller is as it was.
  EXPECT_EQ(S2.find("main")->LevelSegs.at("IR")[3].Trip, "2*m*kernel.t");
}

// A caller's parameter whose default is in the callee's names (a
// data-dependent branch's probability in kernel.t, written where the code
// was inlined): in the callee's level it is a parameter of its own, named
// for the callee, its default in the callee's names; the caller keeps its
// own parameter with its default as it was.
TEST(ResolveInlined, DefaultInTheCalleesNamesIsTheCallees) {
  SegFile S = inlinedProgram();
  Parameter P = param("Pir_main_20_3", "branch");
  P.DefaultExpr = "1/max(kernel.t, 1)";
  S.Functions[0].Parameters = {P};
  std::vector<std::string> W;
  resolveInlinedLevels(S, services(), 1, W);
  const FunctionSeg &K = *S.find("kernel");
  const NodeList &L = K.LevelSegs.at("IR");
  ASSERT_EQ(L.size(), 2u);
  EXPECT_EQ(L[1].Freq, "Pir_kernel_20_3");
  EXPECT_FALSE(hasParameter(K, "Pir_main_20_3"));
  auto Own = std::find_if(K.Parameters.begin(), K.Parameters.end(),
                          [](const Parameter &Q) { return Q.Name == "Pir_kernel_20_3"; });
  ASSERT_NE(Own, K.Parameters.end());
  EXPECT_EQ(Own->DefaultExpr, "1/max(t, 1)");
  EXPECT_EQ(S.find("main")->Parameters[0].DefaultExpr, "1/max(kernel.t, 1)");
  EXPECT_EQ(S.find("main")->LevelSegs.at("IR")[2].Freq, "Pir_main_20_3");
}

// A branch copy's parameter (ir-copies), named by the code, whose default
// is the shared parameter, named by nothing else, whose default is in the
// callee's names: both are the callee's, the copy's default the callee's
// shared one.
TEST(ResolveInlined, CopyDefaultingToADefaultInTheCalleesNames) {
  SegFile S = inlinedProgram();
  Parameter P = param("Pir_main_20_3", "branch");
  P.DefaultExpr = "1/max(kernel.t, 1)";
  Parameter C = param("Pir_main_20_3_c1", "branch");
  C.DefaultExpr = "Pir_main_20_3";
  S.Functions[0].Parameters = {P, C};
  S.Functions[0].LevelSegs.at("IR")[2].Freq = "Pir_main_20_3_c1";
  std::vector<std::string> W;
  resolveInlinedLevels(S, services(), 1, W);
  const FunctionSeg &K = *S.find("kernel");
  const NodeList &L = K.LevelSegs.at("IR");
  ASSERT_EQ(L.size(), 2u);
  EXPECT_EQ(L[1].Freq, "Pir_kernel_20_3_c1");
  auto Find = [&](const std::string &Name) {
    auto It = std::find_if(K.Parameters.begin(), K.Parameters.end(),
                           [&](const Parameter &Q) { return Q.Name == Name; });
    return It == K.Parameters.end() ? nullptr : &*It;
  };
  ASSERT_TRUE(Find("Pir_kernel_20_3_c1"));
  EXPECT_EQ(Find("Pir_kernel_20_3_c1")->DefaultExpr, "Pir_kernel_20_3");
  ASSERT_TRUE(Find("Pir_kernel_20_3"));
  EXPECT_EQ(Find("Pir_kernel_20_3")->DefaultExpr, "1/max(t, 1)");
  EXPECT_FALSE(Find("Pir_main_20_3_c1"));
}

TEST(ResolveInlined, AllSitesOneAfterTheOther) {
  SegFile S = inlinedProgram();
  std::vector<std::string> W;
  resolveInlinedLevels(S, services(), 0, W);
  const NodeList &L = S.find("kernel")->LevelSegs.at("IR");
  ASSERT_EQ(L.size(), 3u);
  EXPECT_EQ(L[0].Id, "c1_ir5");
  EXPECT_EQ(L[1].Id, "c1_ir5e7");
  EXPECT_EQ(L[2].Id, "c2_ir9");
  // Resolving again (another site) replaces the level.
  resolveInlinedLevels(S, services(), 2, W);
  EXPECT_EQ(S.find("kernel")->LevelSegs.at("IR").size(), 1u);
}

// One function's copy resolved against a file that is only read: the same
// level as resolving the whole file at that site, and the file unchanged.
TEST(ResolveInlined, OneFunctionFromACopy) {
  const SegFile S = inlinedProgram();
  for (unsigned Site : {0u, 1u, 2u}) {
    SegFile Whole = inlinedProgram();
    std::vector<std::string> WW, W1;
    resolveInlinedLevels(Whole, services(), Site, WW);
    FunctionSeg K = *S.find("kernel");
    resolveInlinedLevel(S, K, services(), Site, W1);
    EXPECT_EQ(K.toJSON(), Whole.find("kernel")->toJSON()) << "site " << Site;
    EXPECT_EQ(W1, WW);
  }
  EXPECT_EQ(S.find("kernel")->LevelSegs.count("IR"), 0u);
  EXPECT_EQ(S.toJSON(), inlinedProgram().toJSON());
  // A function with no references is left as it is.
  FunctionSeg Main = *S.find("main");
  std::vector<std::string> W;
  resolveInlinedLevel(S, Main, services(), 1, W);
  EXPECT_EQ(Main.toJSON(), S.find("main")->toJSON());
  EXPECT_TRUE(W.empty());
}

TEST(ResolveInlined, MissingCodeIsLeftOutWithAWarning) {
  SegFile S = inlinedProgram();
  S.Functions[1].InlinedAt[0].Nodes.push_back("ir77");
  S.Functions[1].InlinedAt[1].Caller = "gone";
  std::vector<std::string> W;
  resolveInlinedLevels(S, services(), 0, W);
  ASSERT_EQ(W.size(), 2u);
  EXPECT_NE(W[0].find("its nodes are not all in the IR level of 'main'"), std::string::npos)
      << W[0];
  EXPECT_NE(W[1].find("no function 'gone'"), std::string::npos) << W[1];
  EXPECT_EQ(S.find("kernel")->LevelSegs.count("IR"), 0u);
}

// A loop of main that the plugin counted as the call's code (most of its
// instructions are kernel's): kernel's level takes only kernel's code in it,
// and the site runs in one loop of main.
TEST(ResolveInlined, CallersLoopAroundTheCall) {
  SegFile S = inlinedProgram();
  Node Reps = irLoop("ir30", 8, "N_main_8");
  Reps.Body = {node(NodeKind::Stage, "ir31", at(8, 3, 0, 0)), irLoop("ir32", 20, "kernel.n")};
  S.Functions[0].LevelSegs["IR"].push_back(Reps);
  S.Functions[1].InlinedAt = {{"main", "a.c:8:5", {"ir30"}}};
  std::vector<std::string> W;
  resolveInlinedLevels(S, services(), 0, W);
  const NodeList &L = S.find("kernel")->LevelSegs.at("IR");
  ASSERT_EQ(L.size(), 1u);
  EXPECT_EQ(L[0].Id, "ir32");
  EXPECT_EQ(L[0].Trip, "n");
  EXPECT_EQ(inlinedCallerLoops(S, *S.find("kernel"), S.find("kernel")->InlinedAt[0]), 1u);
  EXPECT_EQ(inlinedCallerLoops(inlinedProgram(), *S.find("kernel"),
                               inlinedProgram().Functions[1].InlinedAt[0]),
            0u);
}

// A loop of a function kernel calls (its line outside kernel's source,
// inside the callee's: helper's loop inlined through kernel into main) is
// kernel's code, not a loop of main around the call; a harness loop of main
// around it still is main's.
TEST(ResolveInlined, CalleesLoopIsTheKernelsCode) {
  SegFile S = inlinedProgram();
  FunctionSeg Helper;
  Helper.Name = "helper";
  Helper.Params = {"n"};
  Helper.Range = at(30, 1, 34, 1);
  Helper.Body.push_back(sourceLoop("v1", 31, 33, "i", "0", "n"));
  Node Call = node(NodeKind::Call, "v2", at(21, 5, 21, 20));
  Call.Callee = "helper";
  Call.Args = {"n"};
  S.Functions[1].Body.push_back(Call);
  S.Functions.push_back(Helper);
  Node Reps = irLoop("ir30", 8, "N_main_8");
  Node Inner = irLoop("ir32", 31, "kernel.n");
  Inner.Body = {node(NodeKind::Stage, "ir33", at(32, 5, 0, 0))};
  Reps.Body = {node(NodeKind::Stage, "ir31", at(8, 3, 0, 0)), Inner};
  S.Functions[0].LevelSegs["IR"].push_back(Reps);
  S.Functions[1].InlinedAt = {{"main", "a.c:8:5", {"ir30"}}, {"main", "a.c:8:5", {"ir32"}}};
  std::vector<std::string> W;
  resolveInlinedLevels(S, services(), 2, W);
  const NodeList &L = S.find("kernel")->LevelSegs.at("IR");
  ASSERT_EQ(L.size(), 1u) << (W.empty() ? "" : W[0]);
  EXPECT_EQ(L[0].Id, "ir32");
  EXPECT_EQ(L[0].Trip, "n");
  ASSERT_EQ(L[0].Body.size(), 1u);
  EXPECT_TRUE(W.empty());
  // The harness loop is main's: the first site takes the loop inside it.
  resolveInlinedLevels(S, services(), 1, W);
  const NodeList &L1 = S.find("kernel")->LevelSegs.at("IR");
  ASSERT_EQ(L1.size(), 1u);
  EXPECT_EQ(L1[0].Id, "ir32");
  EXPECT_EQ(inlinedCallerLoops(S, *S.find("kernel"), S.find("kernel")->InlinedAt[0]), 1u);
  EXPECT_EQ(inlinedCallerLoops(S, *S.find("kernel"), S.find("kernel")->InlinedAt[1]), 1u);
}

// Schema 4 writes the references as runs of sibling nodes in the file's
// "inlined" table, the callers by index, and no "where": the reader takes
// the nodes back from the callers' IR levels and the location from the
// source node of the code's first node (the call).
TEST(InlinedRefs, RunsOfSiblingsRoundTrip) {
  SegFile S = inlinedProgram();
  const NodeList &IR = S.Functions[0].LevelSegs.at("IR");
  json Runs = inlinedSiteRuns(IR, {"ir5", "ir5e7", "ir9"});
  EXPECT_EQ(Runs, json::parse(R"([5, -2])"));
  EXPECT_EQ(inlinedSiteNodes(IR, Runs), (std::vector<std::string>{"ir5", "ir5e7", "ir9"}));
  EXPECT_EQ(inlinedSiteRuns(IR, {"ir1", "ir5e7"}), json::parse(R"([1, "ir5e7"])"));
  EXPECT_EQ(inlinedSiteRuns(IR, {"ir77"}), json::parse("[77]")); // not in IR: alone
  EXPECT_THROW(inlinedSiteNodes(IR, json::parse("[5, -3]")), std::runtime_error);
  EXPECT_THROW(inlinedSiteNodes(IR, json::parse("[-1]")), std::runtime_error);
  EXPECT_THROW(inlinedSiteNodes(IR, json::parse("[5, 1.5]")), std::runtime_error);

  for (InlinedRef &R : S.Functions[1].InlinedAt)
    R.Runs = inlinedSiteRuns(IR, R.Nodes);
  json J = S.toCompactJSON();
  EXPECT_EQ(J.at("inlined"), json::parse(R"([[1, 0, [5, -1], [9]]])"));
  EXPECT_FALSE(J.at("functions")[1].contains("inlined_at"));
  SegFile Back = SegFile::fromJSON(J);
  EXPECT_EQ(Back.Functions[1].InlinedAt, S.Functions[1].InlinedAt); // where: main's calls
  // References the plugin did not encode are written node by node.
  SegFile Plain = inlinedProgram();
  json P = Plain.toCompactJSON();
  EXPECT_EQ(P.at("inlined"), json::parse(R"([[1, 0, ["ir5", "ir5e7"], ["ir9"]]])"));
  EXPECT_EQ(SegFile::fromJSON(P).Functions[1].InlinedAt, Plain.Functions[1].InlinedAt);
  // A malformed entry is named.
  P["inlined"][0][2] = json::parse("[5, -9]");
  try {
    SegFile::fromJSON(P);
    FAIL() << "a run past the caller's nodes was accepted";
  } catch (const std::runtime_error &E) {
    EXPECT_NE(std::string(E.what()).find("SEG file at /inlined/0: kernel's call in 'main'"),
              std::string::npos)
        << E.what();
  }
}

TEST(MergeIR, WholeWordsOnly) {
  EXPECT_TRUE(containsWord("2*n + 1", "n"));
  EXPECT_FALSE(containsWord("2*nn + n_1", "n"));
  EXPECT_EQ(replaceWord("n*nn + n", "n", "(m)"), "(m)*nn + (m)");
  EXPECT_EQ(replaceWord("a.n + n", "a.n", "x"), "x + n"); // not a word: std::regex
}

} // namespace
