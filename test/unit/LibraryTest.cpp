//===- LibraryTest.cpp - Library-call table, fit and weight ----------------===//
///
/// \file
/// The library functions (core/Library.h): aliases and size arguments; the
/// fit t = per_call + per_B n (fitCallCost, predictor/CostFit.h) on exact
/// and noisy points and its errors; the library stage weight
/// (libraryWeight, predictor/Formula.h) of a call node.
///
//===----------------------------------------------------------------------===//
#include "core/Library.h"
#include "predictor/CostFit.h"
#include "predictor/Expr.h"
#include "predictor/Formula.h"

#include <gtest/gtest.h>

#include <stdexcept>

using namespace segtime;

TEST(Library, TableAliasesAndSizes) {
  ASSERT_NE(libraryFunction("printf"), nullptr);
  EXPECT_EQ(libraryFunction("printf")->Name, "snprintf");
  EXPECT_EQ(libraryFunction("malloc")->Name, "malloc");
  EXPECT_TRUE(libraryFunction("malloc")->Sized);
  EXPECT_FALSE(libraryFunction("free")->Sized);
  EXPECT_EQ(libraryFunction("external"), nullptr);
  EXPECT_EQ(librarySizeArgs("calloc"), (std::vector<unsigned>{0, 1}));
  EXPECT_EQ(librarySizeArgs("memcpy"), (std::vector<unsigned>{2}));
  std::vector<unsigned> Strings;
  EXPECT_TRUE(librarySizeArgs("strcmp", &Strings).empty());
  EXPECT_EQ(Strings, (std::vector<unsigned>{0, 1}));
  EXPECT_EQ(libraryKey(*libraryFunction("memcpy"), "per_B"), "library.memcpy.per_B");
  // In the optimised code: sqrt is the square-root instruction, not a call.
  EXPECT_TRUE(libraryCallInIR("sin"));
  EXPECT_TRUE(libraryCallInIR("memcpy"));
  EXPECT_TRUE(libraryCallInIR("printf"));
  EXPECT_FALSE(libraryCallInIR("sqrt"));
  EXPECT_FALSE(libraryCallInIR("puts"));
  // Every sized function says what its size is.
  for (const LibraryFunction &F : libraryFunctions())
    EXPECT_EQ(F.Sized, !F.Size.empty()) << F.Name;
}

TEST(Library, FitRecoversExactLine) {
  // t = 20 ns + 0.05 ns/B * n exactly.
  std::vector<double> N{8, 64, 512, 4096, 32768}, T;
  for (double X : N)
    T.push_back(20e-9 + 0.05e-9 * X);
  CallCostFit F = fitCallCost(N, T);
  EXPECT_NEAR(F.PerCall, 20e-9, 1e-15);
  EXPECT_NEAR(F.PerB, 0.05e-9, 1e-17);
  EXPECT_LT(F.RmsRel, 1e-9);
  EXPECT_LT(F.MaxRel, 1e-9);
}

TEST(Library, FitIsRelative) {
  // A 10 % error at the largest size does not move the per-call cost of the
  // small ones by more than a few percent (plain least squares would
  // follow the largest times).
  std::vector<double> N{8, 64, 512, 4096, 32768}, T;
  for (double X : N)
    T.push_back(20e-9 + 0.05e-9 * X);
  T.back() *= 1.1;
  CallCostFit F = fitCallCost(N, T);
  EXPECT_NEAR(F.PerCall, 20e-9, 1e-9);
  EXPECT_GT(F.MaxRel, 0.01);
}

TEST(Library, FitNonNegative) {
  // Times that fall with size: the per-byte cost is held at 0, not negative.
  CallCostFit F = fitCallCost({8, 512, 4096}, {30e-9, 25e-9, 20e-9});
  EXPECT_EQ(F.PerB, 0);
  EXPECT_GT(F.PerCall, 20e-9);
  EXPECT_LT(F.PerCall, 30e-9);
}

TEST(Library, FitErrors) {
  EXPECT_THROW(fitCallCost({8, 8}, {1e-9, 2e-9}), std::runtime_error);  // one size
  EXPECT_THROW(fitCallCost({8, 64}, {1e-9}), std::runtime_error);       // lengths
  EXPECT_THROW(fitCallCost({8, 64}, {1e-9, 0}), std::runtime_error);    // a time <= 0
}

TEST(Library, WeightOfACall) {
  Node N;
  N.Kind = NodeKind::Call;
  N.Callee = "memcpy";
  N.Bytes = "8*n";
  std::map<std::string, double> Costs{{"library.memcpy.per_call", 10e-9},
                                      {"library.memcpy.per_B", 0.1e-9}};
  GiNaC::ex T = libraryWeight(Costs)(N);
  EXPECT_NEAR(evaluate(T, {{"n", 100}}), 10e-9 + 80e-9, 1e-18);
  // A function the machine lacks costs nothing here (the builder reports it).
  N.Callee = "strlen";
  EXPECT_TRUE(libraryWeight(Costs)(N).is_zero());
  // Not a call.
  N.Kind = NodeKind::Stage;
  N.Callee = "memcpy";
  EXPECT_TRUE(libraryWeight(Costs)(N).is_zero());
}
