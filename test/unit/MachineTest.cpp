//===- MachineTest.cpp - Machine files: reading, errors, cost vectors -----===//
#include "predictor/Machine.h"
#include "TestInputs.h"

#include <gtest/gtest.h>

using namespace segtime;
using segtime_test::inputPath;

namespace {

/// Reads Name from test/unit/Inputs and returns the MachineFileError text
/// (fails the test if the file is accepted).
std::string readError(const std::string &Name) {
  try {
    readMachine(inputPath(Name));
  } catch (const MachineFileError &E) {
    return E.what();
  } catch (const std::exception &E) {
    ADD_FAILURE() << Name << ": not a MachineFileError: " << E.what();
    return E.what();
  }
  ADD_FAILURE() << Name << ": accepted";
  return "";
}

bool contains(const std::string &S, const std::string &Part) {
  return S.find(Part) != std::string::npos;
}

} // namespace

TEST(ReadMachine, T800) {
  Machine M = readMachine(segtime_test::shippedMachine("t800"));
  EXPECT_EQ(M.Name, "t800");
  EXPECT_FALSE(M.Description.empty());
  ASSERT_TRUE(M.Levels.count(Level::POC));
  ASSERT_TRUE(M.Levels.count(Level::HLLC));

  const CostVector &P = M.vector(Level::POC, "O2");
  EXPECT_EQ(P.Unit, "Mflop/s");
  ASSERT_TRUE(P.Costs.count("flop"));
  EXPECT_DOUBLE_EQ(P.Costs.at("flop").Value, 1.5);
  EXPECT_EQ(P.Costs.at("flop").Provenance, "paper");
  EXPECT_DOUBLE_EQ(P.si("flop"), 1.5e6);

  const CostVector &H = M.vector(Level::HLLC, "O0");
  EXPECT_EQ(H.Unit, "us");
  ASSERT_TRUE(H.Costs.count("f64.sqrt"));
  EXPECT_DOUBLE_EQ(H.Costs.at("f64.sqrt").Value, 9.77);
  EXPECT_EQ(H.Costs.at("f64.sqrt").Provenance, "paper");
  EXPECT_GT(H.Costs.at("f64.sqrt").Line, 0);
  EXPECT_DOUBLE_EQ(H.si("f64.sqrt"), 9.77e-6);
  EXPECT_FALSE(H.Costs.at("f64.sqrt").Ref.empty());
}

TEST(ReadMachine, FindByName) {
  std::string P = findMachine("t800");
  EXPECT_TRUE(contains(P, "t800.yaml")) << P;
  EXPECT_EQ(readMachine(P).Name, "t800");
  auto Known = knownMachines();
  EXPECT_NE(std::find(Known.begin(), Known.end(), "t800"), Known.end());
  try {
    findMachine("no-such-machine");
    FAIL() << "no exception";
  } catch (const std::runtime_error &E) {
    EXPECT_TRUE(contains(E.what(), "no-such-machine")) << E.what();
    EXPECT_TRUE(contains(E.what(), "t800")) << "lists the known machines: " << E.what();
  }
}

TEST(ReadMachine, AllFields) {
  Machine M = readMachine(inputPath("good.yaml"));
  EXPECT_EQ(M.Name, "good");
  EXPECT_EQ(M.Description, "round numbers for unit tests");
  EXPECT_EQ(M.Identity.at("clock_hz"), "1000000000");
  EXPECT_EQ(M.Path, inputPath("good.yaml"));
  const CostVector &O0 = M.vector(Level::HLLC, "O0");
  EXPECT_EQ(O0.Unit, "ns");
  EXPECT_EQ(O0.Costs.at("loop").Provenance, "measured");
  ASSERT_TRUE(O0.Costs.at("loop").Spread.has_value());
  EXPECT_DOUBLE_EQ(*O0.Costs.at("loop").Spread, 0.05);
  EXPECT_FALSE(O0.Costs.at("f64.add").Spread.has_value());
  EXPECT_EQ(O0.Costs.at("loop").Line, 18);
  EXPECT_DOUBLE_EQ(O0.si("loop"), 4e-9);
  const CostVector &O2 = M.vector(Level::HLLC, "O2");
  EXPECT_EQ(O2.Unit, "us");
  EXPECT_DOUBLE_EQ(O2.si("f64.mul"), 3e-9);
  EXPECT_EQ(O2.Costs.at("f64.mul").Ref, "x");
  EXPECT_EQ(O2.Costs.at("f64.add").Provenance, "datasheet");
  EXPECT_EQ(O2.Costs.at("loop").Provenance, "derived");
  EXPECT_THROW(O2.si("f64.div"), std::out_of_range); // absent is never zero
}

// Each malformed file: a MachineFileError "FILE:LINE:COL: message".
TEST(ReadMachine, YamlSyntaxError) {
  std::string E = readError("syntax.yaml"); // the stray ']' is at 9:45
  EXPECT_TRUE(contains(E, "syntax.yaml:9:45:")) << E;
  EXPECT_TRUE(contains(E, "YAML syntax error")) << E;
}

TEST(ReadMachine, BareNumberWithoutProvenance) {
  std::string E = readError("bare-number.yaml"); // '1.5' is at 9:17
  EXPECT_TRUE(contains(E, "bare-number.yaml:9:17:")) << E;
  EXPECT_TRUE(contains(E, "provenance")) << E;
}

TEST(ReadMachine, UnknownProvenance) {
  std::string E = readError("bad-provenance.yaml"); // 'guessed' is at 9:42
  EXPECT_TRUE(contains(E, "bad-provenance.yaml:9:42:")) << E;
  EXPECT_TRUE(contains(E, "measured")) << "lists the allowed provenances: " << E;
}

TEST(ReadMachine, MissingUnit) {
  std::string E = readError("missing-unit.yaml"); // variant O2's body starts at 7:9
  EXPECT_TRUE(contains(E, "missing-unit.yaml:7:9:")) << E;
  EXPECT_TRUE(contains(E, "unit")) << E;
  EXPECT_TRUE(contains(E, "O2")) << E;
}

TEST(ReadMachine, UnknownLevel) {
  std::string E = readError("unknown-level.yaml"); // 'GPU' is at 10:3
  EXPECT_TRUE(contains(E, "unknown-level.yaml:10:3:")) << E;
  EXPECT_TRUE(contains(E, "GPU")) << E;
}

TEST(ReadMachine, UnknownUnit) {
  std::string E = readError("unknown-unit.yaml"); // 'furlongs' is at 7:15
  EXPECT_TRUE(contains(E, "unknown-unit.yaml:7:15:")) << E;
  EXPECT_TRUE(contains(E, "furlongs")) << E;
}

TEST(ReadMachine, MissingFile) {
  try {
    readMachine(inputPath("does-not-exist.yaml"));
    FAIL() << "no exception";
  } catch (const MachineFileError &E) {
    EXPECT_TRUE(contains(E.what(), "does-not-exist.yaml")) << E.what();
  }
}

TEST(MachineVector, VariantFallbackAndErrors) {
  Machine M;
  M.Name = "handmade";
  M.Levels[Level::HLLC]["O0"].Unit = "ns";
  M.Levels[Level::HLLC]["O3"].Unit = "ns";
  M.Levels[Level::POC]["any"].Unit = "Mflop/s";
  EXPECT_EQ(&M.vector(Level::HLLC, "O0"), &M.Levels[Level::HLLC]["O0"]);
  EXPECT_EQ(&M.vector(Level::POC, "O2"), &M.Levels[Level::POC]["any"]); // "any" serves every -O
  try {
    M.vector(Level::HLLC, "O2");
    FAIL() << "no exception";
  } catch (const std::runtime_error &E) {
    std::string W = E.what();
    EXPECT_TRUE(contains(W, "handmade")) << W;
    EXPECT_TRUE(contains(W, "O2")) << W;
    EXPECT_TRUE(contains(W, "O0")) << "names the variants: " << W;
    EXPECT_TRUE(contains(W, "O3")) << "names the variants: " << W;
  }
  try {
    M.vector(Level::ICC, "O2");
    FAIL() << "no exception";
  } catch (const std::runtime_error &E) {
    std::string W = E.what();
    EXPECT_TRUE(contains(W, "ICC")) << W;
    EXPECT_TRUE(contains(W, "HLLC")) << "names the levels it has: " << W;
  }
}

TEST(CostVector, Units) {
  CostVector V;
  V.Costs["x"].Value = 2;
  for (auto [U, F] : std::vector<std::pair<std::string, double>>{
           {"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}, {"Mflop/s", 1e6}}) {
    V.Unit = U;
    EXPECT_DOUBLE_EQ(V.si("x"), 2 * F) << U;
  }
  EXPECT_THROW(V.si("y"), std::out_of_range);
}

TEST(MachineParams, ReadNestedSections) {
  Machine M = readMachine(inputPath("good.yaml"));
  ASSERT_NE(M.param("memory.L1.bandwidth"), nullptr);
  EXPECT_DOUBLE_EQ(M.paramValue("memory.L1.bandwidth"), 100e9);
  EXPECT_EQ(M.param("memory.L1.bandwidth")->Unit, "B/s");
  EXPECT_DOUBLE_EQ(*M.param("memory.L1.bandwidth")->Spread, 0.02);
  EXPECT_EQ(M.param("memory.L1.size")->Provenance, "datasheet");
  EXPECT_DOUBLE_EQ(M.paramValue("parkbench.TICK1"), 2e-8);
  EXPECT_EQ(M.paramKeys("memory.L1."),
            (std::vector<std::string>{"memory.L1.bandwidth", "memory.L1.size"}));
  try {
    M.paramValue("comm.hockney.r_inf");
    FAIL() << "no exception";
  } catch (const std::runtime_error &E) {
    EXPECT_TRUE(contains(E.what(), "comm.hockney.r_inf")) << E.what();
    EXPECT_TRUE(contains(E.what(), "segtime comm calibrate")) << E.what();
  }
}

TEST(MachineParams, EntryWithoutUnit) {
  std::string E = readError("param-no-unit.yaml");
  EXPECT_TRUE(contains(E, "param-no-unit.yaml:6:")) << E;
  EXPECT_TRUE(contains(E, "comm.hockney.r_inf")) << E;
  EXPECT_TRUE(contains(E, "unit")) << E;
}

TEST(MachineParams, WriteAndSpliceSections) {
  CostEntry A;
  A.Value = 1.5e-6;
  A.Unit = "s";
  A.Provenance = "measured";
  A.Spread = 0.1;
  A.Ref = "COMMS1 \"ping-pong\"";
  CostEntry B = A;
  B.Value = 4096;
  B.Unit = "B";
  B.Spread.reset();
  B.Ref.clear();
  std::string S = paramsSectionYaml("comm", {{"hockney.0.t0", A}, {"hockney.0.upto", B},
                                             {"hockney.1.t0", A}, {"loggp.L", A}},
                                    {"fitted by test"});
  EXPECT_EQ(S, "# fitted by test\n"
               "comm:\n"
               "  hockney:\n"
               "    0:\n"
               "      t0: {value: 1.5e-06, unit: \"s\", provenance: measured, spread: 0.100, "
               "ref: \"COMMS1 \\\"ping-pong\\\"\"}\n"
               "      upto: {value: 4096.00, unit: \"B\", provenance: measured}\n"
               "    1:\n"
               "      t0: {value: 1.5e-06, unit: \"s\", provenance: measured, spread: 0.100, "
               "ref: \"COMMS1 \\\"ping-pong\\\"\"}\n"
               "  loggp:\n"
               "    L: {value: 1.5e-06, unit: \"s\", provenance: measured, spread: 0.100, "
               "ref: \"COMMS1 \\\"ping-pong\\\"\"}\n");
  std::string File = "schema: x\n# old comm\ncomm:\n  a: 1\n# next\nname: y\n";
  EXPECT_EQ(spliceSection(File, "comm", "comm:\n  b: 2\n"),
            "schema: x\ncomm:\n  b: 2\n# next\nname: y\n");
  EXPECT_EQ(spliceSection("schema: x\n", "memory", "memory:\n  c: 3\n"),
            "schema: x\nmemory:\n  c: 3\n");
}
