//===- PredictedSpeedTest.cpp - times of one function on several machines -===//
#include "predictor/PredictedSpeed.h"
#include "SegFixtures.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace segtime;
using namespace segtime_test;

namespace {

/// A machine file: POC at Mflops Mflop/s, HLLC loop and f64.add in ns.
std::string machineFile(const std::string &Name, double Mflops, double Loop, double Add) {
  auto P = std::filesystem::temp_directory_path() /
           ("segtime-predicted-speed-" + std::to_string(::getpid()) + "-" + Name + ".yaml");
  std::ofstream(P) << "schema: segtime.machine/1\nname: " << Name
                   << "\ndescription: \"unit test\"\nlevels:\n"
                      "  POC:\n    variants:\n      any:\n        unit: Mflop/s\n        costs:\n"
                      "          flop: {value: "
                   << Mflops
                   << ", provenance: estimated, ref: \"test\"}\n"
                      "  HLLC:\n    variants:\n      any:\n        unit: ns\n        costs:\n"
                      "          loop: {value: "
                   << Loop << ", provenance: estimated, ref: \"test\"}\n          f64.add: {value: "
                   << Add << ", provenance: estimated, ref: \"test\"}\n";
  return P.string();
}

TEST(PredictedSpeed, MostDetailedCommonLevelAndTimes) {
  std::string A = machineFile("a", 4, 1, 2), B = machineFile("b", 2, 2, 4);
  // No IR-level SEG: HLLC is the most detailed level: n (1 + 2) ns on a.
  auto T = predictFunctionTimes(addLoopFile(), "f", {A, B}, {{"n", 1000}});
  ASSERT_EQ(T.size(), 2u);
  EXPECT_EQ(T[0].Level, Level::HLLC);
  EXPECT_EQ(T[0].Machine, "a");
  EXPECT_NEAR(T[0].TimeS, 3e-6, 1e-15);
  EXPECT_NEAR(T[1].TimeS, 6e-6, 1e-15);
  EXPECT_EQ(T[0].Target, "");
  // POC asked for: 1000 flop at 4 and 2 Mflop/s.
  T = predictFunctionTimes(addLoopFile(), "f", {A, B}, {{"n", 1000}}, Level::POC);
  EXPECT_EQ(T[1].Level, Level::POC);
  EXPECT_NEAR(T[0].TimeS, 250e-6, 1e-12);
  EXPECT_NEAR(T[1].TimeS, 500e-6, 1e-12);
  std::filesystem::remove(A);
  std::filesystem::remove(B);
}

TEST(PredictedSpeed, ErrorsNameMachineAndFunction) {
  std::string A = machineFile("a", 4, 1, 2);
  try {
    predictFunctionTimes(addLoopFile(), "f", {A}, {});
    FAIL() << "no error for a missing n";
  } catch (const std::runtime_error &E) {
    EXPECT_NE(std::string(E.what()).find("machine a: missing parameter value(s) for f: n"),
              std::string::npos)
        << E.what();
  }
  EXPECT_THROW(predictFunctionTimes(addLoopFile(), "g", {A}, {{"n", 1}}), std::runtime_error);
  EXPECT_THROW(predictFunctionTimes(addLoopFile(), "f", {}, {{"n", 1}}), std::runtime_error);
  // A zero time is no speed.
  EXPECT_THROW(predictFunctionTimes(addLoopFile(), "f", {A}, {{"n", 0}}), std::runtime_error);
  std::filesystem::remove(A);
}

TEST(PredictedSpeed, ComparisonRatiosAgainstTheFirstMachine) {
  MachineComparison C;
  for (const std::string &P : {machineFile("a", 4, 1, 2), machineFile("b", 2, 2, 4)}) {
    PredictOptions O;
    O.Values = {{"n", 10}};
    C.Predictions.push_back(predict(addLoopFile(), readMachine(P), O));
    std::filesystem::remove(P);
  }
  json J = C.toJSON();
  ASSERT_EQ(J["machines"].size(), 2u);
  EXPECT_DOUBLE_EQ(J["machines"][0]["ratio_to_first"]["f"]["HLLC"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(J["machines"][1]["ratio_to_first"]["f"]["HLLC"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(J["machines"][1]["ratio_to_first"]["f"]["POC"].get<double>(), 0.5);
  EXPECT_EQ(C.exitStatus(), 0);
  std::ostringstream OS;
  C.printText(OS);
  EXPECT_NE(OS.str().find("HLLC   30 ns                 60 ns (0.5)"), std::string::npos)
      << OS.str();
}

} // namespace
