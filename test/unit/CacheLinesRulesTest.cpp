//===- CacheLinesRulesTest.cpp - Layer-condition rules of the memory term -===//
// Lines counted by hand for small nests (docs/models.md "Memory term"):
// shifted runs, per-iteration capacity past inner triangular counters, a
// row's remainder after its vector part, a row unrolled by a line, a sweep
// just over the cache's size.
#include "predictor/Expr.h"
#include "predictor/MemoryModel.h"
#include "MemoryFixtures.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

using namespace segtime;

namespace {
using test::lines;
using test::stream;
} // namespace

TEST(CacheLines, RunsShiftedByWholeRowsDoNotGrow) {
  // A column walk a[(r + t + u) * 64 + c + t] of 16 rows (l0: 512 B down),
  // moved one row down and one double on 4 times (l1: 520 B), that band
  // moved one row down 3 times (l2: 512 B). By hand (the model's average
  // for a column moved by 8 B: 16 x 8 / 64 = 2 new lines): the first column
  // 16 lines, each later one a new row's line and 2 more, 16 + 3 x 3 = 25,
  // in 19 runs of 1 + 3 x 8 / 64 lines (the band is 4 doubles wide); each
  // l2 iteration a new bottom row of the band, one such run: 25 + 2 x 1.375
  // distinct lines (aligned: 25 and 1 line per l2 iteration). Before, l1
  // grew each run by 520 / 64 lines per iteration (as if the column's lines
  // ran on) and l2 charged that run per iteration: 25 + 2 x 25.375.
  MemStream A = stream("a", {{"512", "16"}, {"520", "4"}, {"512", "3"}});
  EXPECT_DOUBLE_EQ(lines({A}, nullptr), 25 + 2 * 1.375);
}

TEST(CacheLines, ATriangleReusedOnceItFitsWithATriangularInnerLoop) {
  // Columns of a matrix with rows 520 B apart: column c walks rows 0 ..
  // 63 - c (l0, 64 - j rows), columns 0 .. 63 - k (l1, 8 B on, counter j),
  // and the whole again 64 times, one column fewer each time (l2, stride 0,
  // counter k). One l2 iteration touches M(k) = 64 + sum_{j=1}^{63-k} (64 -
  // j) / 8 lines (column 0, then the 1/8 line per row each next column
  // slides on). In a 16 KiB cache (256 lines, 4 ways, all 64 sets used) an
  // iteration is touched again from where it fits, M(k) <= 256: those
  // iterations bring nothing in. Before, the reuse test of l2 took its
  // largest iteration (k = 0: 316 lines) for all, because l1's counter j
  // (bound in the sum over j) was taken for one that l2's iteration
  // depends on: every iteration's lines again.
  MemStream A = stream("a", {{"520", "64 - j"}, {"8", "64 - k"}, {"0", "64"}});
  A.Loops[1].Index = "j";
  A.Loops[2].Index = "k";
  const CacheGeometry C{"C", 16384, 4, 64};
  auto M = [](int K) {
    double S = 64;
    for (int J = 1; J <= 63 - K; ++J)
      S += (64 - J) / 8.0;
    return S;
  };
  double Want = M(0), Before = 0;
  for (int K = 0; K < 64; ++K) {
    Before += M(K);
    if (K > 0 && M(K) > 256)
      Want += M(K);
  }
  EXPECT_DOUBLE_EQ(M(0), 316);
  EXPECT_DOUBLE_EQ(lines({A}, &C), Want);
  EXPECT_LT(Want, Before);
}

TEST(CacheLines, ARowsRemainderContinuesItsVectorPartsRun) {
  // 62 doubles of each of 64 rows 4 KiB apart (l1), vectorised: 15
  // iterations of 32 B (l0) and a remainder loop of 2 doubles (r0). By hand:
  // 496 B from a line-aligned row start, 8 lines per row, 512 in all. The
  // model: the vector part 1 + 14 x 32 / 64 = 8 lines per row, the
  // remainder its 16 B on from where the vector part stopped, a quarter
  // line: 8.25 per row. Before, the remainder started a run of its own,
  // 1 + 8 / 64 lines per row: 584.
  MemStream V = stream("a", {{"32", "15"}, {"4096", "64"}});
  V.Size = 32;
  MemStream R = stream("a", {{"8", "2"}, {"4096", "64"}});
  R.Loops[0].Loop = "r0";
  EXPECT_DOUBLE_EQ(lines({V, R}, nullptr), 64 * 8.25);
  EXPECT_NEAR(lines({V, R}, nullptr), 512, 0.05 * 512);
}

TEST(CacheLines, ARowUnrolledByALineIsOneRun) {
  // 16 rows of 64 doubles 520 B apart (l1), each walked by a loop unrolled
  // by 8 (l0: 64 B per iteration, 8 loads 8 B apart), the rows moved one row
  // and one double on 3 times (l2, 528 B). By hand: a row is a run of 8
  // lines, 128 lines; each l2 iteration a new row's 8 lines and 16 x 8 /
  // 64 = 2 more where the rows slide across a line: 128 + 2 x 10.
  MemStream A = stream("a", {{"64", "8"}, {"520", "16"}, {"528", "3"}},
                       {"8", "16", "24", "32", "40", "48", "56"});
  EXPECT_DOUBLE_EQ(lines({A}, nullptr), 128 + 2 * 10);
}

TEST(CacheLines, ASweepJustOverTheCacheReloadsOnlyItsOverflowingSets) {
  // 10 lines walked densely (64 B loads 64 B apart, l0) and swept 5 times
  // (l1: stride 0) through an LRU cache of 4 sets x 2 ways of 64 B. By hand:
  // line l maps to set l mod 4; sets 0 and 1 hold 3 lines each (0, 4, 8 and
  // 1, 5, 9), more than their 2 ways, so a cyclic sweep misses all 6 every
  // time; sets 2 and 3 hold 2 lines each and keep them. 10 lines in the
  // first sweep, 6 in each later one: 10 + 4 x 6 = 34. Before (nothing kept
  // once the 10 lines exceed the 8 the cache holds): 50.
  const CacheGeometry C{"C", 512, 2, 64};
  auto Sweep = [](const std::string &Lines, const std::string &Outer) {
    MemStream A = stream("a", {{"64", Lines}, {Outer, "5"}});
    A.Size = 64;
    return A;
  };
  EXPECT_DOUBLE_EQ(lines({Sweep("10", "0")}, &C), 10 + 4 * 6);
  // 8 lines fit (warm caches: none again); 12 or more overflow every set:
  // each sweep brings all in again.
  EXPECT_DOUBLE_EQ(lines({Sweep("8", "0")}, &C), 0);
  EXPECT_DOUBLE_EQ(lines({Sweep("12", "0")}, &C), 5 * 12);
  // Moved on by a double per l1 iteration (a walk shifted by 8 B), its old
  // lines stay in the sets as new ones come: the set-overflow share is not
  // taken, each iteration's 10 lines come in again.
  EXPECT_DOUBLE_EQ(lines({Sweep("10", "8")}, &C), 5 * 10);
}

TEST(CacheLines, TheElementBeforeAShiftedColumnWalkAddsNoLines) {
  // A column walk a[(t + 1 + r) * 65 + t] of 16 rows (l0: 520 B down), moved
  // one row down and one double on 4 times (l1: 528 B), and the element just
  // above it, a[t * 65 + t] (the diagonal of a solve by columns: l1 only).
  // By hand: the walk 16 + 3 x (1 new row + 16 x 8 / 64) = 25 lines; the
  // diagonal element of iteration t is in row t, which the walk of
  // iteration t - 1 touched a double before it: no line of its own (but
  // where that double crosses a line, which the model leaves out). Before,
  // 4 more (a line per iteration).
  MemStream Col = stream("a", {{"520", "16"}, {"528", "4"}});
  MemStream Diag = stream("a", {{"528", "4"}});
  Diag.Loops[0].Loop = "l1";
  EXPECT_DOUBLE_EQ(lines({Col}, nullptr), 25);
  EXPECT_DOUBLE_EQ(lines({Col, Diag}, nullptr), 25);
}

TEST(CacheLines, AnIndexedObjectInATriangularNestSumsItsAccesses) {
  // for i < 64: for j < i + 1: ... x[idx[..]]: x an indexed object of 32 KiB
  // (512 lines) whose inner loop runs k + 1 times in iteration k of the
  // outer (its counter k). Accesses: sum_{k=0}^{63} (k + 1) = 2080, not a
  // product that leaves k free. Distinct lines: min(2080, 512) = 512; into
  // an 8 KiB cache the 2080 - 512 others miss with 1 - 8192 / 32768.
  MemStream X = stream("x", {{"64", "512"}, {"0", "k + 1"}, {"0", "64"}});
  X.Loops[0].Loop = "l1.object";
  X.Loops[1].Loop = "l1";
  X.Loops[2].Loop = "l2";
  X.Loops[2].Index = "k";
  EXPECT_TRUE(freeSymbols(linesInto({X}, nullptr)).empty());
  EXPECT_DOUBLE_EQ(lines({X}, nullptr), 512);
  const CacheGeometry Small{"L1", 8192, 8, 64};
  EXPECT_DOUBLE_EQ(lines({X}, &Small), 512 + (2080 - 512) * (1 - 8192.0 / 32768));
}
