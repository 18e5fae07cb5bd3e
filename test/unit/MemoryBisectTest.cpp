//===- MemoryBisectTest.cpp - Cache lines of a batch of binary searches ---===//
///
/// \file
/// The bisection rule of the ICC memory term (predictor/MemoryModelBisect.h;
/// docs/models.md "Bisections") against hand-computed line counts, and its
/// place in linesInto and the ECM terms.
///
//===----------------------------------------------------------------------===//
#include "predictor/Expr.h"
#include "predictor/MemoryModel.h"
#include "predictor/MemoryModelBisect.h"
#include "MemoryFixtures.h"

#include <gtest/gtest.h>

using namespace segtime;
using segtime::test::stream;

namespace {

/// bisect_lines evaluated.
double bl(double Bytes, double K, double CacheLines) {
  return evaluate(bisect_lines(Bytes, K, CacheLines, 64), {});
}

/// A bisection of T 4-byte elements by Copies searches per iteration of
/// an enclosing loop of Outer iterations, Steps per search.
MemStream table(const std::string &T, const std::string &Outer, int Copies = 1,
                const std::string &Steps = "11") {
  MemStream S;
  S.Base = "table";
  S.Load = true;
  S.Size = 4;
  S.Offsets.assign(Copies - 1, "0");
  S.Loops = {{"ir4.bisect", "4", T, ""}, {"ir6", "0", Steps, ""}, {"ir4", "0", Outer, ""}};
  return S;
}

} // namespace

TEST(MemoryBisect, DistinctLinesOfTheLevels) {
  // 1024 ints = 64 lines: levels 0 .. log2(64) = 6 touch new lines, 7 levels.
  // One search: one line per level.
  EXPECT_NEAR(bl(4096, 1, 0), 7, 1e-12);
  // Two searches: level l holds 2^l (1 - (1 - 2^-l)^2) = 2 - 2^-l lines
  // (l = 0: 1), 1 + 1.5 + 1.75 + 1.875 + 1.9375 + 1.96875 + 1.984375.
  EXPECT_NEAR(bl(4096, 2, 0), 12.015625, 1e-12);
  // 64 ints = 4 lines, 3 levels: 1 + 1.5 + 1.75 = 4.25, at most the table's 4.
  EXPECT_NEAR(bl(256, 2, 0), 4, 1e-12);
  // A table within one line: one level, one line.
  EXPECT_NEAR(bl(40, 5, 0), 1, 1e-12);
  EXPECT_NEAR(bl(4096, 0, 0), 0, 1e-12);
}

TEST(MemoryBisect, LinesIntoACacheOnReplay) {
  // All 12.02 lines of two searches fit 16 lines: nothing comes in again.
  EXPECT_NEAR(bl(4096, 2, 16), 0, 1e-12);
  // A cache of 7 lines, 7 levels: D(1) = 7, so N_C = 1 search fills it and
  // each search misses level l with probability (1 - 2^-l)^1: 16 searches x
  // (0 + 1/2 + 3/4 + 7/8 + 15/16 + 31/32 + 63/64) = 16 x 5.015625.
  EXPECT_NEAR(bl(4096, 16, 7), 80.25, 1e-6);
  // More searches, the same share per search (N_C does not depend on K).
  EXPECT_NEAR(bl(4096, 32, 7), 160.5, 1e-6);
  // Symbolic arguments stay unevaluated until they are numbers.
  GiNaC::ex E = bisect_lines(4 * sym("n"), 16, 7, 64);
  EXPECT_FALSE(GiNaC::is_a<GiNaC::numeric>(E));
  EXPECT_NEAR(evaluate(E, {{"n", 1024}}), 80.25, 1e-6);
}

TEST(MemoryBisect, StreamsInLinesInto) {
  // 4 copies of a search per iteration, 4 iterations: 16 searches of 1024
  // ints; the search loop's 11 steps are no searches.
  MemStream T = table("n", "4", 4);
  ASSERT_TRUE(bisection(T));
  CacheGeometry C7{"L1", 7 * 64, 7, 64};
  EXPECT_NEAR(evaluate(bisectionLines(T, &C7), {{"n", 1024}}), 80.25, 1e-6);
  EXPECT_NEAR(evaluate(bisectionLines(T, nullptr), {{"n", 1024}}), bl(4096, 16, 0), 1e-9);
  // Beside a stream of 64 doubles (stride 8 B): linesInto adds the two;
  // the other stream keeps the count it has alone.
  MemStream Keys = stream("keys", {{"8", "64"}});
  ASSERT_FALSE(bisection(Keys));
  double KeysAlone = evaluate(linesInto({Keys}, nullptr), {});
  std::vector<MemStream> S{Keys, T};
  EXPECT_NEAR(evaluate(linesInto(S, nullptr), {{"n", 1024}}), KeysAlone + bl(4096, 16, 0),
              1e-9);
  std::vector<GiNaC::ex> Each = linesIntoEach(S, nullptr);
  ASSERT_EQ(Each.size(), 2u);
  EXPECT_NEAR(evaluate(Each[0], {}), KeysAlone, 1e-12);
  EXPECT_EQ(withoutBisections(S).size(), 1u);
  EXPECT_THROW(bisectionLines(Keys, nullptr), std::invalid_argument);
}

TEST(MemoryBisect, DependentLoadsAtTheLatencyOfTheirLevel) {
  // L1 of 7 lines, L2 of 1 MiB: the 80.25 lines into L1 per call come
  // from L2 (nothing misses it: the batch's lines fit), 3 ns each.
  std::vector<CacheGeometry> Caches{{"L1", 7 * 64, 7, 64}, {"L2", 1 << 20, 16, 64}};
  std::vector<MemStream> S{table("1024", "4", 4)};
  EXPECT_NEAR(evaluate(bisectionChainTime(S, Caches, {1e-9, 3e-9, 100e-9}), {}), 80.25 * 3e-9,
              1e-15);
  // An L2 of 7 lines too: the same lines miss it and wait for memory.
  Caches[1] = {"L2", 7 * 64, 7, 64};
  EXPECT_NEAR(evaluate(bisectionChainTime(S, Caches, {1e-9, 3e-9, 100e-9}), {}), 80.25 * 100e-9,
              1e-13);
  EXPECT_THROW(bisectionChainTime(S, Caches, {1e-9}), std::invalid_argument);
  // The ECM rule adds a chain term after the others combine.
  std::vector<EcmTerm> Terms{{"T_nOL", "L1", 1, 0, false},
                             {"T_L1L2", "L2", 2, 0, true},
                             {"T_chain", "latency", 5, 0, false, true}};
  EXPECT_NEAR(evaluate(MemoryModel::ecmCombine(3, Terms), {}), 3 + 5, 1e-12);
  EXPECT_NEAR(evaluate(MemoryModel::ecmData(Terms), {}), 2 + 5, 1e-12);
}

TEST(MemoryBisect, ProbesPlacedInTheirSets) {
  auto bsl = [](double N, double K, double Sets, double Ways) {
    return evaluate(bisect_set_lines(N, 4, K, Sets, Ways, 64), {});
  };
  // One set is the whole cache: the rule above.
  EXPECT_NEAR(bsl(1024, 16, 1, 7), bl(4096, 16, 7), 1e-9);
  // 1024 ints (64 lines): levels 0-3 probe lines 32, 16, 48, 8, ..., all
  // in set 0 of 4; two searches occupy 1 + 1.5 + 1.75 + 1.875 = 6.1 of its
  // lines: 8 ways keep them, 4 do not.
  EXPECT_NEAR(bsl(1024, 2, 4, 8), 0, 1e-12);
  EXPECT_GT(bsl(1024, 2, 4, 4), 0);
  // 2^20 ints (65536 lines) and 1024 searches: their 9.2k distinct lines
  // fit a 1 MiB cache as a whole, but the probes of the upper levels lie
  // 2^(20-l) ints apart, in few of its 1024 sets of 16 ways: they miss.
  EXPECT_NEAR(bl(4 << 20, 1024, 16384), 0, 1e-12);
  double Conflicts = bsl(1 << 20, 1024, 1024, 16);
  EXPECT_GT(Conflicts, 500);
  EXPECT_LT(Conflicts, 1024 * 21);
  // The same table in a cache of one set of 16384 ways: no conflicts.
  EXPECT_NEAR(bsl(1 << 20, 1024, 1, 16384), 0, 1e-12);
  // Symbolic sizes stay unevaluated; streams of an L1 or L2 of several sets
  // take the set rule, others (an L3, one set) the whole cache's.
  EXPECT_FALSE(GiNaC::is_a<GiNaC::numeric>(bisect_set_lines(sym("n"), 4, 1024, 1024, 16, 64)));
  MemStream T = table("n", "256", 4);
  CacheGeometry L2{"L2", 1 << 20, 16, 64}, L3{"L3", 1 << 20, 16, 64};
  EXPECT_NEAR(evaluate(bisectionLines(T, &L2), {{"n", 1 << 20}}), Conflicts, 1e-6);
  EXPECT_NEAR(evaluate(bisectionLines(T, &L3), {{"n", 1 << 20}}), 0, 1e-12);
}
