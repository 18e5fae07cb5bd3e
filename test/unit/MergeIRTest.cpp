//===- MergeIRTest.cpp - The IR-level SEG merged into the source's --------===//
///
/// \file
/// core/MergeIR.h with the predictor's expression algebra: IR loops matched
/// to source loops, trip counts cross-checked or taken from the source,
/// every node attributed to source, unmatched loops keeping their
/// parameters, the code of an inlined call bound to its arguments.
///
//===----------------------------------------------------------------------===//
#include "core/MergeIR.h"
#include "predictor/ExprText.h"

#include <gtest/gtest.h>

#include <algorithm>

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
  // Two optimised loops for one source loop (vector body and remainder),
  // one loop with no source loop at its line.
  NodeList IR{irLoop("ir1", 3, "N_f_3"), irLoop("ir2", 3, "N_f_3"), irLoop("ir3", 9, "N_f_9")};
  std::vector<Parameter> Ps{param("N_f_3", "loop"), param("N_f_9", "loop"),
                            param("N_f_7", "loop"), param("Pir_f_4_5", "branch")};
  std::vector<std::string> W;
  mergeIR(W, F, IR, Ps, {}, services());
  const NodeList &L = F.LevelSegs.at("IR");
  EXPECT_EQ(L[0].Trip, "N_f_3");
  EXPECT_EQ(L[1].Trip, "N_f_3");
  EXPECT_EQ(L[0].SourceNode, "v1"); // still attributed to the source loop
  EXPECT_EQ(L[2].Trip, "N_f_9");
  EXPECT_EQ(L[2].SourceNode, "");
  EXPECT_TRUE(hasParameter(F, "N_f_3"));
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

TEST(MergeIR, WholeWordsOnly) {
  EXPECT_TRUE(containsWord("2*n + 1", "n"));
  EXPECT_FALSE(containsWord("2*nn + n_1", "n"));
  EXPECT_EQ(replaceWord("n*nn + n", "n", "(m)"), "(m)*nn + (m)");
  EXPECT_EQ(replaceWord("a.n + n", "a.n", "x"), "x + n"); // not a word: std::regex
}

} // namespace
