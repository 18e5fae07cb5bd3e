//===- CtTest.cpp - CT JSON round trip, SEG matching, profile values -----===//
#include "core/Ct.h"

#include <gtest/gtest.h>

#include <map>

using namespace segtime;

namespace {

CtFile sample() {
  CtFile C;
  C.Program = "prog";
  C.Timer = {"rdtsc", 2.8e9, "measured", 1 / 2.8e9, 8.6e-9, {{"loop", 3.4e-8}}};
  C.WallS = 0.5;
  CtFunction F;
  F.Name = "f";
  F.File = "k.c";
  F.Line = 3;
  F.Calls = 2;
  F.InclusiveS = 0.25;
  F.ExclusiveS = 0.05;
  F.RawInclusiveS = 0.26;
  CtNode L;
  L.Kind = "loop";
  L.File = "k.c";
  L.Line = 5;
  L.Col = 3;
  L.Entries = 2;
  L.Iterations = 30;
  L.InclusiveS = 0.2;
  L.ExclusiveS = 0.2;
  CtNode B;
  B.Kind = "branch";
  B.File = "k.c";
  B.Line = 6;
  B.Col = 9;
  B.Parent = 0;
  B.Op = "br";
  B.Executions = 30;
  B.Arms = {{"true", 12, 7, 7}, {"false", 18, 8, 5}};
  F.Nodes = {L, B};
  C.Functions = {F};
  return C;
}

/// f: v1 stage, v2 loop at 5:3 with trip N_f_5, inside v4 branch at 6:5..7:20
/// whose then arm (v5) starts at 7:7.
SegFile seg() {
  SegFile S;
  FunctionSeg F;
  F.Name = "f";
  F.Parameters = {{"N_f_5", "loop", std::nullopt, "none", "k.c:5", "iterations"},
                  {"P_f_6", "branch", 0.5, "static: default 0.5", "k.c:6", "if"}};
  Node Loop;
  Loop.Kind = NodeKind::Loop;
  Loop.Id = "v2";
  Loop.Range = {"k.c", 5, 3, 8, 3};
  Loop.Trip = "N_f_5";
  Node Br;
  Br.Kind = NodeKind::Branch;
  Br.Id = "v4";
  Br.Range = {"k.c", 6, 5, 7, 20};
  Node Then;
  Then.Id = "v5";
  Then.Range = {"k.c", 7, 7, 7, 20};
  Br.Arms.push_back({"then", "P_f_6", {Then}});
  Loop.Body.push_back(Br);
  F.Body.push_back(Loop);
  S.Functions.push_back(F);
  return S;
}

TEST(Ct, JsonRoundTrip) {
  CtFile C = sample();
  json J = C.toJSON();
  EXPECT_EQ(J["schema"], "segtime.ct/1");
  CtFile D = CtFile::fromJSON(J);
  EXPECT_EQ(D.toJSON(), J);
  ASSERT_EQ(D.Functions.size(), 1u);
  EXPECT_EQ(D.Functions[0].Nodes[1].Arms[1].Count, 18u);
  EXPECT_FALSE(D.Functions[0].Nodes[1].InclusiveS); // branches are not timed
  EXPECT_DOUBLE_EQ(*D.Functions[0].Nodes[0].ExclusiveS, 0.2);
  EXPECT_DOUBLE_EQ(D.Timer.NestedPairS["loop"], 3.4e-8);
}

/// profileParameters(C, S) by name.
static std::map<std::string, double> profileMap(const CtFile &C, const SegFile &S) {
  std::map<std::string, double> Got;
  for (const ProfileValue &V : profileParameters(C, S))
    Got[V.Name] = V.Value;
  return Got;
}

/// An instrument=late two-arm record (operation Op: "br", "first-and",
/// "first-or") of k.c:Line:9, copy Copy: Exec executions, True of them on
/// the true arm, whose target is TrueAt (the false arm's FalseAt).
static CtNode lateRecord(const char *Op, unsigned Line, int Copy, uint64_t Exec, uint64_t True,
                         std::pair<unsigned, unsigned> TrueAt = {0, 0},
                         std::pair<unsigned, unsigned> FalseAt = {0, 0}) {
  CtNode N;
  N.Kind = "branch";
  N.File = "k.c";
  N.Line = Line;
  N.Col = 9;
  N.Copy = Copy;
  N.Op = Op;
  N.Executions = Exec;
  N.Arms = {{"true", True, TrueAt.first, TrueAt.second},
            {"false", Exec - True, FalseAt.first, FalseAt.second}};
  return N;
}

TEST(Ct, LateRecordsRoundTripAndAreOptional) {
  CtFile C = sample();
  CtNode B = lateRecord("br", 6, 1, 20, 5, {7, 7}, {8, 5});
  CtNode L;
  L.Kind = "loop";
  L.File = "k.c";
  L.Line = 5;
  L.Col = 3;
  L.Copy = 0;
  L.Entries = 2;
  L.HeaderRuns = 32;
  C.Functions[0].Late = {L, B};
  json J = C.toJSON();
  EXPECT_FALSE(J["functions"][0]["late"][0].contains("parent"));
  EXPECT_EQ(J["functions"][0]["late"][0]["header_runs"], 32);
  CtFile D = CtFile::fromJSON(J);
  EXPECT_EQ(D.toJSON(), J);
  ASSERT_EQ(D.Functions[0].Late.size(), 2u);
  EXPECT_EQ(D.Functions[0].Late[1].Copy, 1);
  EXPECT_EQ(D.Functions[0].Late[0].HeaderRuns, 32u);
  // A file without them (every CT file before instrument=late) reads as before.
  EXPECT_FALSE(sample().toJSON()["functions"][0].contains("late"));
  EXPECT_TRUE(CtFile::fromJSON(sample().toJSON()).Functions[0].Late.empty());
  // A late record must say which copy it is.
  J["functions"][0]["late"][1].erase("copy");
  EXPECT_THROW(CtFile::fromJSON(J), std::runtime_error);
}

TEST(Ct, BadInputNamesTheProblem) {
  EXPECT_THROW(CtFile::fromJSON(json{{"schema", "segtime.seg/1"}}), std::runtime_error);
  json J = sample().toJSON();
  J["functions"][0]["nodes"][0].erase("iterations");
  try {
    CtFile::fromJSON(J);
    FAIL() << "no error";
  } catch (const std::runtime_error &E) {
    EXPECT_NE(std::string(E.what()).find("function 'f': node 0: missing \"iterations\""),
              std::string::npos)
        << E.what();
  }
  J = sample().toJSON();
  J["functions"][0]["nodes"][1]["kind"] = "stage";
  EXPECT_THROW(CtFile::fromJSON(J), std::runtime_error);
  EXPECT_THROW(CtFile::read("/nonexistent/x.ct.json"), std::runtime_error);
}

TEST(Ct, MatchAndProfile) {
  CtFile C = sample();
  SegFile S = seg();
  EXPECT_EQ(matchSeg(C, S), 2);
  EXPECT_EQ(C.Functions[0].Nodes[0].SegId, "v2");
  EXPECT_EQ(C.Functions[0].Nodes[1].SegId, "v4");
  EXPECT_EQ(C.toJSON()["functions"][0]["nodes"][0]["seg_id"], "v2");
  std::vector<ProfileValue> V = profileParameters(C, S);
  ASSERT_EQ(V.size(), 2u);
  EXPECT_EQ(V[0].Name, "N_f_5");
  EXPECT_DOUBLE_EQ(V[0].Value, 15.0); // 30 iterations / 2 entries
  EXPECT_EQ(V[1].Name, "P_f_6");
  EXPECT_DOUBLE_EQ(V[1].Value, 0.4); // 12 of 30, the arm starting at 7:7
}

/// An IR branch probability of the branch at 6:9 (sample()'s record: arm
/// 'true' 12 of 30 to 7:7, 'false' 18 to 8:5).
Parameter irBranch(const std::string &Taken, const std::string &Other) {
  Parameter P{"Pir_f_6_9", "branch", 0.5, "BPI", "dir/k.c:6:9", "optimised branch"};
  P.TakenAt = Taken;
  P.OtherAt = Other;
  return P;
}

double irValue(const Parameter &P) {
  SegFile S = seg();
  S.Functions[0].Parameters = {P};
  for (const ProfileValue &V : profileParameters(sample(), S))
    if (V.Name == P.Name)
      return V.Value;
  return -1; // no value
}

TEST(Ct, IrBranchFromTheRecordAtItsLocation) {
  // The first successor starts at 7:9 (the 'true' arm's target 7:7 is
  // nearer than 8:5), the other at 8:3: 12 of 30.
  EXPECT_DOUBLE_EQ(irValue(irBranch("7:9", "8:3")), 0.4);
  // Successors swapped (an inverted branch): the 'false' arm, 18 of 30.
  EXPECT_DOUBLE_EQ(irValue(irBranch("8:3", "7:9")), 0.6);
  // Both successors equally near to both arms: no value, BPI's stays.
  EXPECT_EQ(irValue(irBranch("7:7", "7:7")), -1);
  // No record at the location.
  Parameter Elsewhere = irBranch("7:9", "8:3");
  Elsewhere.Where = "k.c:12:9";
  EXPECT_EQ(irValue(Elsewhere), -1);
}

TEST(Ct, LateRecordOfTheSameCopyWinsOverTheSourceRecord) {
  // The IR SEG's copy 1 of the branch at 6:9 (ir-copies), in its own
  // orientation, and the shared parameter (copy 0's).
  Parameter C1{"Pir_f_6_9_c1", "branch", std::nullopt, "BPI", "dir/k.c:6:9", "copy 1"};
  C1.DefaultExpr = "Pir_f_6_9";
  C1.TakenAt = "8:3";
  C1.OtherAt = "7:9";
  Parameter C0 = irBranch("7:9", "8:3");
  SegFile S = seg();
  S.Functions[0].Parameters = {C0, C1};
  CtFile C = sample();
  // Copy 0 (true to 7:7: 3 of 10), copy 1 (successors swapped: true to
  // 8:5, 19 of 20), and the first operand of a logical and (not a "br").
  CtNode First = lateRecord("first-and", 6, 0, 10, 9);
  C.Functions[0].Late = {lateRecord("br", 6, 0, 10, 3, {7, 7}, {8, 5}),
                         lateRecord("br", 6, 1, 20, 19, {8, 5}, {7, 7}), First};
  std::map<std::string, double> Got = profileMap(C, S);
  EXPECT_DOUBLE_EQ(Got["Pir_f_6_9"], 0.3);     // copy 0's own rate, not the source's 0.4
  EXPECT_DOUBLE_EQ(Got["Pir_f_6_9_c1"], 0.95); // copy 1: its first successor, its true arm
  // Without late records the source record gives every copy its mean.
  C.Functions[0].Late.clear();
  Got = profileMap(C, S);
  EXPECT_DOUBLE_EQ(Got["Pir_f_6_9"], 0.4);
  EXPECT_DOUBLE_EQ(Got["Pir_f_6_9_c1"], 0.6);
}

TEST(Ct, FirstTestOfASplitBranchFromItsLateRecordsSummedOverCopies) {
  // The probability that the first test of a branch on a logical and/or is
  // true (icc::secondTestProbability): the instrument=late "first-or"
  // records at its location, copies summed (3 of 10 and 9 of 20), not the
  // "br" record at the same place nor another location's.
  Parameter P{"Pir_f_6_9_first", "branch", 0.5, "static: estimated, split branch",
              "dir/k.c:6:9", "first test"};
  SegFile S = seg();
  S.Functions[0].Parameters = {P};
  CtFile C = sample();
  C.Functions[0].Late = {lateRecord("br", 6, 0, 10, 10), lateRecord("first-or", 6, 0, 10, 3),
                         lateRecord("first-or", 6, 1, 20, 9), lateRecord("first-or", 7, 0, 50, 50)};
  std::map<std::string, double> Got = profileMap(C, S);
  EXPECT_DOUBLE_EQ(Got.at("Pir_f_6_9_first"), 0.4);
  // No late record: no value (the source's branch record is not about it).
  C.Functions[0].Late.clear();
  Got = profileMap(C, S);
  EXPECT_FALSE(Got.count("Pir_f_6_9_first"));
}

TEST(Ct, AliasCheckFromTheArmOfItsCopyThatLeavesTheVectorLoopOut) {
  // An alias-check indicator of copy 1 of the branch at 6:9 whose false arm
  // leaves the vector loop out (TakenAt "false"): 3 of that copy's 12
  // executions; copy 0's record and the source's are not about it.
  Parameter P{"Pov_f_6_9_c1", "branch", 0.0, "static: estimated, alias check", "dir/k.c:6:9",
              "alias check"};
  P.TakenAt = "false";
  P.OtherAt = "true";
  SegFile S = seg();
  S.Functions[0].Parameters = {P};
  CtFile C = sample();
  C.Functions[0].Late = {lateRecord("br", 6, 0, 10, 1, {7, 7}, {8, 5}),
                         lateRecord("br", 6, 1, 12, 9, {7, 7}, {8, 5})};
  std::map<std::string, double> Got = profileMap(C, S);
  EXPECT_DOUBLE_EQ(Got.at("Pov_f_6_9_c1"), 0.25);
  // No late record: no value (the source's record at 6:9 is another branch).
  C.Functions[0].Late.clear();
  Got = profileMap(C, S);
  EXPECT_FALSE(Got.count("Pov_f_6_9_c1"));
}

TEST(Ct, IrSelectFromTheTrueArmOfTheRecordAtItsLocation) {
  // A select made into a jump: the probability that its condition is true
  // (no successors), from the 'true' arm of the record at its location.
  Parameter P{"Pir_f_6_9", "branch", 0.5, "static: estimated, select made a branch",
              "dir/k.c:6:9", "select"};
  EXPECT_DOUBLE_EQ(irValue(P), 0.4); // 12 of 30
  // The same location inlined elsewhere: the records are summed.
  SegFile S = seg();
  S.Functions[0].Parameters = {P};
  CtFile C = sample();
  CtFunction G = C.Functions[0];
  G.Name = "g";
  G.Nodes[1].Executions = 10;
  G.Nodes[1].Arms[0].Count = 8;
  G.Nodes[1].Arms[1].Count = 2;
  C.Functions.push_back(G);
  double Got = -1;
  for (const ProfileValue &V : profileParameters(C, S))
    if (V.Name == P.Name)
      Got = V.Value;
  EXPECT_DOUBLE_EQ(Got, 0.5); // (12 + 8) / (30 + 10)
  // No record at the location: the estimated 1/2 stays.
  P.Where = "dir/k.c:6:10";
  EXPECT_EQ(irValue(P), -1);
}

TEST(Ct, NoValueForNodesNeverRun) {
  CtFile C = sample();
  C.Functions[0].Nodes[0].Entries = 0;
  C.Functions[0].Nodes[0].Iterations = 0;
  C.Functions[0].Nodes[1].Executions = 0;
  SegFile S = seg();
  matchSeg(C, S);
  EXPECT_TRUE(profileParameters(C, S).empty());
}

} // namespace
