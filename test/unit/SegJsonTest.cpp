//===- SegJsonTest.cpp - SEG files: JSON round trip and errors ------------===//
#include "core/ByteImage.h"
#include "core/Seg.h"
#include "TestInputs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>

using namespace segtime;

namespace {

SourceRange at(unsigned Line) {
  SourceRange R;
  R.File = "k.c";
  R.Line = Line;
  R.Col = 3;
  R.EndLine = Line + 1;
  R.EndCol = 7;
  return R;
}

/// A SEG file with every node kind and every optional field.
SegFile sample() {
  SegFile S;
  S.SourceFile = "k.c";
  S.OptLevel = "O2";
  S.Warnings = {"k.c:9: segtime: not characterised: goto"};

  FunctionSeg F;
  F.Name = "f";
  F.Range = at(1);
  F.Params = {"n", "a"};
  F.InMainFile = true;
  F.Parameters.push_back({"N_f_4", "loop", std::nullopt, "none", "k.c:4", "iterations"});
  F.Parameters.push_back({"P_f_5", "branch", 0.5, "static: default 0.5", "k.c:5", "if"});
  Parameter Rec{"Pir_f_6_9", "branch", std::nullopt, "static: min-update idiom, H_N/N with N = n",
                "k.c:6:9", "optimised branch"};
  Rec.DefaultExpr = "(log(n) + 0.5772156649)/n";
  F.Parameters.push_back(Rec);

  Node S1;
  S1.Kind = NodeKind::Stage;
  S1.Id = "v1";
  S1.Range = at(2);
  S1.Ruvs["HLLC"].add("f64.add", 2);
  S1.Ruvs["HLLC"].add("mem.local.read", 3);
  S1.Ruvs["POC"].add("flop", 2);

  Node L;
  L.Kind = NodeKind::Loop;
  L.Id = "v2";
  L.Label = "outer";
  L.Range = at(3);
  L.LoopKind = "for";
  L.Index = "i";
  L.Start = "1";
  L.Step = "2";
  L.StepKind = "mul";
  L.Trip = "ltrip(1, n, 2)";
  L.Chain = "own";
  Node Ctl;
  Ctl.Id = "v3";
  Ctl.Ruvs["HLLC"].add("loop");
  Node W;
  W.Kind = NodeKind::Loop;
  W.Id = "v4";
  W.LoopKind = "while";
  W.Trip = "N_f_4";
  Node Br;
  Br.Kind = NodeKind::Branch;
  Br.Id = "v5";
  Node Then;
  Then.Id = "v6";
  Then.Ruvs["HLLC"].add("i32.add", 0.5);
  Br.Arms.push_back({"then", "P_f_5", {Then}});
  Br.Arms.push_back({"else", "1 - P_f_5", {}});
  W.Body = {Br};
  L.Body = {Ctl, W};

  Node C;
  C.Kind = NodeKind::Call;
  C.Id = "v7";
  C.Callee = "g";
  C.Args = {"2*n", ""};
  C.Ruvs["HLLC"].add("call");

  Node U;
  U.Kind = NodeKind::Unknown;
  U.Id = "v8";
  U.Reason = "goto: unstructured control flow";

  Node Cm;
  Cm.Kind = NodeKind::Comm;
  Cm.Id = "v9";
  Cm.CommOp = "MPI_Bcast";
  Cm.Bytes = "n*8";
  Cm.Pattern = "bcast";
  Cm.Root = "0";
  Cm.Ruvs["HLLC"].add("call");

  F.Body = {S1, L, C, U, Cm};
  S.Functions.push_back(F);

  FunctionSeg G;
  G.Name = "g";
  G.Params = {"m", "p"};
  G.InMainFile = false;
  S.Functions.push_back(G);
  return S;
}

} // namespace

TEST(SegJson, RoundTrip) {
  SegFile S = sample();
  json J1 = S.toJSON();
  SegFile Back = SegFile::fromJSON(json::parse(J1.dump()));
  json J2 = Back.toJSON();
  EXPECT_EQ(J1, J2) << J1.dump(1) << "\n---\n" << J2.dump(1);

  // Spot checks of the parsed model.
  ASSERT_EQ(Back.Functions.size(), 2u);
  const FunctionSeg &F = Back.Functions[0];
  EXPECT_EQ(F.Parameters[0].Default, std::nullopt);
  EXPECT_EQ(F.Parameters[1].Default, 0.5);
  EXPECT_EQ(F.Parameters[1].DefaultExpr, "");
  // An expression default is the JSON string "default", not a number.
  EXPECT_EQ(J1["functions"][0]["parameters"][2]["default"], "(log(n) + 0.5772156649)/n");
  EXPECT_EQ(F.Parameters[2].Default, std::nullopt);
  EXPECT_EQ(F.Parameters[2].DefaultExpr, "(log(n) + 0.5772156649)/n");
  EXPECT_TRUE(F.Parameters[2].hasDefault());
  EXPECT_FALSE(F.Parameters[0].hasDefault());
  EXPECT_EQ(F.Parameters[0].defaultText(), "none");
  EXPECT_EQ(F.Parameters[2].defaultText(), "(log(n) + 0.5772156649)/n");
  ASSERT_EQ(F.Body.size(), 5u);
  EXPECT_EQ(F.Body[1].StepKind, "mul");
  EXPECT_EQ(F.Body[1].Chain, "own"); // an IR loop's floating-point recurrence
  EXPECT_EQ(J1["functions"][0]["seg"][1]["chain"], "own");
  EXPECT_EQ(F.Body[2].Chain, "");
  EXPECT_EQ(F.Body[1].Body[1].Body[0].Arms[1].Prob, "1 - P_f_5");
  EXPECT_EQ(F.Body[2].Args, (std::vector<std::string>{"2*n", ""}));
  EXPECT_EQ(F.Body[3].Kind, NodeKind::Unknown);
  EXPECT_EQ(F.Body[3].Reason, "goto: unstructured control flow");
  EXPECT_EQ(F.Body[4].Kind, NodeKind::Comm);
  EXPECT_EQ(F.Body[4].CommOp, "MPI_Bcast");
  EXPECT_EQ(F.Body[4].Bytes, "n*8");
  EXPECT_EQ(F.Body[4].Pattern, "bcast");
  EXPECT_EQ(F.Body[4].Root, "0");
  EXPECT_EQ(F.Body[4].Peer, "");
  EXPECT_EQ(J1["functions"][0]["seg"][4]["op"], "MPI_Bcast");
  EXPECT_EQ(J1["functions"][0]["seg"][4]["bytes"], "n*8");
  EXPECT_EQ(F.Body[0].Ruvs.at("HLLC").get("mem.local.read"), 3);
  EXPECT_EQ(F.Body[0].Range.EndCol, 7u);
  EXPECT_FALSE(Back.Functions[1].InMainFile);
  EXPECT_EQ(Back.find("g"), &Back.Functions[1]);
  EXPECT_EQ(Back.find("h"), nullptr);
  EXPECT_EQ(J1["schema"], "segtime.seg/1");
}

TEST(SegJson, CompactRoundTrip) {
  SegFile S = sample();
  NodeList &IR = S.Functions[0].LevelSegs["IR"] = S.Functions[0].Body;
  IR[0].Freq = "(1 - P_f_5)*P_g_7";
  IR[2].Freq = "(1 - P_f_5)*P_h_9";
  json C = S.toCompactJSON();
  EXPECT_EQ(C["schema"], "segtime.seg/4");
  EXPECT_EQ(SegFile::fromJSON(json::parse(C.dump())).toJSON(), S.toJSON());
  // Shared texts: a repeated name and a product's factors are written once
  // in the file's "strings" and referred to by index (a "where" that is the
  // previous parameter's file and the name's line is left out); ranges and
  // RUVs are arrays under short keys, ids that count on are left out.
  const json &F = C["functions"][0];
  EXPECT_FALSE(F.contains("strings")) << F.dump(); // one table, the file's
  std::vector<std::string> Strings = C.at("strings").get<std::vector<std::string>>();
  for (const char *Piece : {"P_f_5", "(1 - P_f_5)"})
    EXPECT_EQ(std::count(Strings.begin(), Strings.end(), Piece), 1) << Piece << " in " << C.dump();
  EXPECT_TRUE(F["seg"][0]["r"].is_array()) << F["seg"][0].dump();
  EXPECT_FALSE(F["seg"][0].contains("k")); // Stage, the default
  EXPECT_EQ(F["seg"][0]["i"], "v1");
  EXPECT_FALSE(F["seg"][1].contains("i")) << F["seg"][1].dump(); // v2 follows v1
}

// A function with no code of its own refers to its callers' IR nodes: the
// references round-trip through both layouts and the packed image.
TEST(SegJson, InlinedReferencesRoundTrip) {
  SegFile S = sample();
  S.Functions[0].InlinedAt = {{"main", "a.c:7:3", {"ir5", "ir5e7"}},
                              {"main", "a.c:9:3 in a.c:20:1", {"ir9"}}};
  // Schema 4: the file's "inlined" table, no "where" (the reader takes it
  // from the caller's SEG: core/InlinedLevels.h; no caller "main" here).
  json C = S.toCompactJSON();
  EXPECT_FALSE(C["functions"][0].contains("inlined_at"));
  EXPECT_EQ(C["inlined"], json::parse(R"([[0, "main", ["ir5", "ir5e7"], ["ir9"]]])"));
  SegFile Back = SegFile::fromJSON(json::parse(C.dump()));
  ASSERT_EQ(Back.Functions[0].InlinedAt.size(), 2u);
  for (size_t K = 0; K < 2; ++K) {
    EXPECT_EQ(Back.Functions[0].InlinedAt[K].Caller, "main");
    EXPECT_EQ(Back.Functions[0].InlinedAt[K].Nodes, S.Functions[0].InlinedAt[K].Nodes);
    EXPECT_EQ(Back.Functions[0].InlinedAt[K].Where, "");
  }
  EXPECT_EQ(SegFile::fromJSON(S.toJSON()).Functions[0].InlinedAt, S.Functions[0].InlinedAt);
  EXPECT_EQ(unpackFunctionSeg(packFunctionSeg(S.Functions[0])).InlinedAt,
            S.Functions[0].InlinedAt);
}

TEST(SegJson, PackedImageRoundTrip) {
  // Every field, the IR level's too: the image gives the function back as it was.
  FunctionSeg F = sample().Functions[0];
  F.Static = true;
  F.Parameters[1].TakenAt = "5:3";
  F.Parameters[1].OtherAt = "7:1";
  NodeList &IR = F.LevelSegs["IR"] = F.Body;
  IR[0].Freq = "(1 - P_f_5)*P_g_7";
  IR[0].SourceNode = "v1";
  IR[0].BranchProb = "Pir_f_12_9";
  IR[0].Ruvs["INTCC"].set("fadd.double", -0.0);
  IR[1].Footprint = "8*n";
  IR[1].Traffic = "16*n";
  IR[1].MemoryNotes = {"hist: indirect store"};
  MemStream M;
  M.Base = "a";
  M.Load = true;
  M.Size = 8;
  M.Offsets = {"8", "-8"};
  M.Loops = {{"ir7", "8", "n", ""}, {"ir6", "0", "n", "k_f_ir6"}};
  IR[1].Streams = {M};
  std::vector<std::uint8_t> Image = packFunctionSeg(F);
  FunctionSeg Back = unpackFunctionSeg(Image);
  EXPECT_EQ(Back.toJSON(), F.toJSON());
  const Node &B1 = Back.LevelSegs.at("IR")[1];
  EXPECT_EQ(B1.Streams[0].Loops[1].Index, "k_f_ir6");
  EXPECT_TRUE(B1.Streams[0].Load);
  EXPECT_FALSE(B1.Streams[0].Store);
  EXPECT_EQ(Back.Parameters[1].OtherAt, "7:1");
  EXPECT_TRUE(std::signbit(Back.LevelSegs.at("IR")[0].Ruvs.at("INTCC").get("fadd.double")));
  NodeList Nodes = unpackNodes(packNodes(IR));
  ASSERT_EQ(Nodes.size(), IR.size());
  for (size_t I = 0; I < IR.size(); ++I)
    EXPECT_EQ(Nodes[I].toJSON(), IR[I].toJSON());
  // A truncated or padded image is an error, never a partial SEG.
  std::vector<std::uint8_t> Cut(Image.begin(), Image.end() - 3);
  EXPECT_THROW(unpackFunctionSeg(Cut), std::runtime_error);
  Image.push_back(0);
  EXPECT_THROW(unpackFunctionSeg(Image), std::runtime_error);
}

TEST(SegJson, PackedParametersRoundTripInsideAnotherImage) {
  // The parameters in an image of another structure (the IR SEGs waiting
  // for code generation): every field back, the bytes after them untouched.
  std::vector<Parameter> Ps = sample().Functions[0].Parameters;
  Ps[0].DefaultExpr = "(log(n) + 1)/(n)";
  Ps[1].Default = -0.0;
  Ps[1].TakenAt = "5:3";
  ByteWriter W;
  W.str("before");
  packParameters(W, Ps);
  W.str("after");
  ByteReader R{W.Out};
  EXPECT_EQ(R.str(), "before");
  std::vector<Parameter> Back = unpackParameters(R);
  ASSERT_EQ(Back.size(), Ps.size());
  for (size_t I = 0; I < Ps.size(); ++I)
    EXPECT_EQ(Back[I].toJSON(), Ps[I].toJSON());
  EXPECT_TRUE(Back[1].Default && std::signbit(*Back[1].Default));
  EXPECT_EQ(R.str(), "after");
  std::vector<std::uint8_t> Cut(W.Out.begin(), W.Out.begin() + 10);
  ByteReader RC{Cut};
  RC.str();
  EXPECT_THROW(unpackParameters(RC), std::runtime_error);
}

TEST(SegJson, CompactBadIndexNamesFunctionAndTable) {
  json C = sample().toCompactJSON();
  C["strings"] = json::array(); // the indices point nowhere
  try {
    SegFile::fromJSON(C);
    FAIL() << "no exception";
  } catch (const std::runtime_error &E) {
    std::string What = E.what();
    for (const char *Part : {"/functions/0", "function 'f'", "the file's \"strings\"", "0 entries"})
      EXPECT_NE(What.find(Part), std::string::npos) << What;
  }
  C = sample().toCompactJSON();
  C["functions"][0]["strings"] = json::array(); // schema 2's table in schema 3
  EXPECT_THROW(SegFile::fromJSON(C), std::runtime_error);
}

// Texts and RUVs are shared across functions and with the warnings: a
// second function identical to the first adds nothing to "strings" and
// "ruvs"; a warning's file name is written once.
TEST(SegJson, CompactTablesAcrossFunctions) {
  SegFile S = sample();
  S.Functions.resize(1);
  S.Warnings = {"k.c:3: segtime: not characterised: call to external function 'malloc'",
                "k.c:9: segtime: not characterised: call to external function 'free'"};
  json One = S.toCompactJSON();
  S.Functions.push_back(S.Functions[0]);
  S.Functions[1].Name = "f2";
  json Two = S.toCompactJSON();
  EXPECT_EQ(Two["strings"], One["strings"]);
  EXPECT_EQ(Two["ruvs"], One["ruvs"]);
  json First = One["functions"][0], Second = Two["functions"][1];
  First.erase("name");
  Second.erase("name");
  EXPECT_EQ(Second, First); // the same indices
  EXPECT_EQ(SegFile::fromJSON(json::parse(Two.dump())).toJSON(), S.toJSON());
  EXPECT_TRUE(Two["warnings"][1].is_array()) << Two["warnings"].dump();
}

// A schema-2 file (tables per function, meanings in the vocabulary) is
// still read.
TEST(SegJson, ReadsSchema2) {
  json V2 = json::parse(R"({"functions":[{"name":"f","params":["n"],"parameters":[["P_f_3",0,0.5,1,[0,":3"],3]],"range":[1,1,5,1,2],"ruvs":[[5,1]],"seg":[{"i":"v1","r":[1,3],"u":[4,0]},{"i":"v2","r":[2,3],"u":[4,0]}],"strings":["k.c"]}],"opt_level":"O2","schema":"segtime.seg/2","source":"k.c","vocabulary":["branch","static","k.c","why","HLLC","i32.add"],"warnings":["k.c:2: w"]})");
  SegFile S = SegFile::fromJSON(V2);
  ASSERT_EQ(S.Functions.size(), 1u);
  EXPECT_EQ(S.Functions[0].Parameters[0].Where, "k.c:3");
  EXPECT_EQ(S.Functions[0].Parameters[0].Meaning, "why");
  EXPECT_EQ(S.Functions[0].Body[1].Ruvs.at("HLLC").get("i32.add"), 1);
  EXPECT_EQ(S.Warnings, std::vector<std::string>{"k.c:2: w"});
}

TEST(SegJson, ReadWrittenFile) {
  std::string Path = ::testing::TempDir() + "segtime-roundtrip.seg.json";
  for (bool Compact : {false, true}) {
    {
      std::ofstream Out(Path);
      Out << (Compact ? sample().toCompactJSON().dump() : sample().toJSON().dump(1));
    }
    EXPECT_EQ(SegFile::read(Path).toJSON(), sample().toJSON());
  }
}

TEST(SegJson, UnknownVersionNamesFileAndVersions) {
  std::string Path = ::testing::TempDir() + "segtime-v9.seg.json";
  {
    std::ofstream Out(Path);
    Out << "{\"schema\": \"segtime.seg/9\", \"functions\": []}";
  }
  try {
    SegFile::read(Path);
    FAIL() << "no exception";
  } catch (const std::runtime_error &E) {
    std::string What = E.what();
    for (const char *Part : {"segtime-v9.seg.json", "segtime.seg/4", "segtime.seg/3", "segtime.seg/2", "segtime.seg/1",
                             "segtime.seg/9"})
      EXPECT_NE(What.find(Part), std::string::npos) << What;
  }
}

/// The writer's text, function by function, is the whole document's dump.
static std::string streamed(const SegFile &S) {
  std::string Text;
  SegFileWriter W([&](const std::string &Piece) { Text += Piece; });
  for (const FunctionSeg &F : S.Functions)
    W.add(F);
  W.finish(S);
  return Text;
}

TEST(SegJson, StreamedSameBytes) {
  SegFile S = sample();
  S.Targets["znver5"] = {{"triple", "x86_64-unknown-linux-gnu"}, {"cpu", "znver5"}};
  S.Functions[0].LevelSegs["IR"] = S.Functions[0].Body;
  EXPECT_EQ(streamed(S), S.toCompactJSON().dump() + "\n");
  S.Targets.clear(); // no "targets" key
  EXPECT_EQ(streamed(S), S.toCompactJSON().dump() + "\n");
  S.Functions.resize(1);
  EXPECT_EQ(streamed(S), S.toCompactJSON().dump() + "\n");
  S.Functions.clear(); // "functions": []
  S.Warnings.clear();
  EXPECT_EQ(streamed(S), S.toCompactJSON().dump() + "\n");
}

/// toCompactText writes the function's text straight from the SEG: it must
/// be what nlohmann-json's dump() writes of it (keys sorted, its escapes and
/// number format), and read back as the same function.
TEST(SegJson, CompactTextIsDumpForm) {
  SegFile S = sample();
  FunctionSeg &F = S.Functions[0];
  F.LevelSegs["IR"] = F.Body;
  F.Name = "q\"uote\\back\bbell\fform\nline\x01 caf\xc3\xa9";
  F.Body.front().Ruvs["HLLC"].add("add", 0.1);
  F.Body.front().Ruvs["HLLC"].add("mul", -3);
  F.Parameters.front().Default = 0.25;
  F.Static = true;
  F.InMainFile = false;
  for (SegVocabulary *V : {static_cast<SegVocabulary *>(nullptr), new SegVocabulary}) {
    std::string Text = F.toCompactText(V, 0);
    EXPECT_EQ(json::parse(Text).dump(), Text);
    delete V;
  }
  SegFile Back = SegFile::fromJSON(S.toCompactJSON());
  EXPECT_EQ(Back.Functions[0].toJSON(), F.toJSON());
}

TEST(SegJson, Errors) {
  EXPECT_THROW(SegFile::fromJSON(json::parse("{\"functions\": []}")), std::runtime_error);
  EXPECT_THROW(SegFile::fromJSON(json::parse("[1, 2]")), std::runtime_error);
  json Bad = sample().toJSON();
  Bad["functions"][0]["seg"][0]["kind"] = "Teleport";
  try {
    SegFile::fromJSON(Bad);
    FAIL() << "no exception";
  } catch (const std::exception &E) {
    EXPECT_NE(std::string(E.what()).find("Teleport"), std::string::npos) << E.what();
  }
  try {
    SegFile::read(segtime_test::inputPath("no-such.seg.json"));
    FAIL() << "no exception";
  } catch (const std::runtime_error &E) {
    EXPECT_NE(std::string(E.what()).find("no-such.seg.json"), std::string::npos) << E.what();
  }
}

TEST(Ruv, AddAndGet) {
  Ruv R;
  R.add("f64.add");
  R.add("f64.add", 2);
  Ruv O;
  O.add("loop");
  O.add("f64.add", 0.5);
  R.add(O);
  EXPECT_EQ(R.get("f64.add"), 3.5);
  EXPECT_EQ(R.get("loop"), 1);
  EXPECT_EQ(R.get("absent"), 0);
  EXPECT_FALSE(R.empty());
  EXPECT_TRUE(Ruv().empty());
}

// A malformed document: the error names the JSON path, function and node.
TEST(SegJson, ShapeErrorsNameThePath) {
  json J = json::parse(R"({"schema": "segtime.seg/1", "functions": [
    {"name": "f", "seg": [{"id": "v1", "kind": "Stage"},
                          {"id": "v2", "kind": "Loop", "trip": 5, "body": []}]}]})");
  try {
    SegFile::fromJSON(J);
    FAIL() << "no exception";
  } catch (const std::runtime_error &E) {
    EXPECT_STREQ(E.what(), "SEG file at /functions/0/seg/1 (function f, node v2): \"trip\" must "
                           "be a string, got number 5");
  }
  J["functions"][0]["seg"][1]["trip"] = "n";
  J["functions"][0]["seg"][0]["ruv"] = {{"HLLC", {{"loop", -1}}}};
  try {
    SegFile::fromJSON(J);
    FAIL() << "no exception";
  } catch (const std::runtime_error &E) {
    EXPECT_NE(std::string(E.what()).find("/functions/0/seg/0/ruv/HLLC (function f, node v1): "
                                         "count of 'loop' must be a number >= 0"),
              std::string::npos)
        << E.what();
  }
  J["functions"][0]["seg"][0]["ruv"] = {{"HLLC", {{"loop", 1}}}};
  EXPECT_EQ(SegFile::fromJSON(J).Functions.at(0).Body.size(), 2u);
}
