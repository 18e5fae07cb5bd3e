//===- MemoryWalkTest.cpp - Strided store walks in the ECM terms ----------===//
///
/// \file
/// MemoryModel's walk curves by row size and kind (memory.strided_1k ..
/// memory.strided_store, `segtime calibrate --level strided`): which streams
/// they price (walkClasses) and the T_L1L2 term of a column store walk,
/// against lines and times computed by hand (docs/models.md "Strided store
/// walks").
///
//===----------------------------------------------------------------------===//
#include "MemoryFixtures.h"

#include "predictor/Machine.h"

#include <gtest/gtest.h>

using namespace segtime;
using namespace segtime::test;

namespace {

CostEntry entry(double V, const std::string &Unit) {
  return CostEntry::of(V, Unit, "estimated", "test");
}

/// L1 48 KiB 12-way (64 sets), L2 1 MiB 16-way (1024 sets), 64 B lines; L1
/// 100 GB/s, L2 50 GB/s, DRAM 10 GB/s; the 4 KiB load walk at 40 / 8 GB/s
/// and, with Walks, the walks by row size at 16 GB/s (1e4 B) / 8 GB/s (2e6
/// B), a step at sqrt(1e4 x 2e6) = 1.41e5 B, except the 2 and 4 KiB store
/// walks' 12 and 11 GB/s at 1e4 B (to tell the classes apart); with Rmw
/// also the read-modify-write walks at 20 / 14 / 9 GB/s (1, 2, 4 KiB rows;
/// 1e4 B) and 6 GB/s (2e6 B).
Machine machine(bool Walks, bool Rmw = false) {
  Machine M;
  M.Name = "walks";
  M.Path = "walks.yaml";
  auto P = [&](const std::string &K, double V, const char *U) { M.Params[K] = entry(V, U); };
  P("memory.L1.size", 49152, "B");
  P("memory.L1.ways", 12, "ways");
  P("memory.L1.line_size", 64, "B");
  P("memory.L1.bandwidth", 100e9, "B/s");
  P("memory.L2.size", 1 << 20, "B");
  P("memory.L2.ways", 16, "ways");
  P("memory.L2.line_size", 64, "B");
  P("memory.L2.bandwidth", 50e9, "B/s");
  P("memory.DRAM.bandwidth", 10e9, "B/s");
  auto Curve = [&](const std::string &Name, double Small, double Large) {
    P(memoryCurveKey(0, "working_set", Name), 1e4, "B");
    P(memoryCurveKey(0, "bandwidth", Name), Small, "B/s");
    P(memoryCurveKey(1, "working_set", Name), 2e6, "B");
    P(memoryCurveKey(1, "bandwidth", Name), Large, "B/s");
  };
  Curve("strided", 40e9, 8e9);
  if (Walks)
    for (int Row : {1024, 2048, 4096})
      for (bool Store : {false, true})
        if (Row != 4096 || Store)
          Curve(stridedWalkName(Row, Store ? WalkKind::Store : WalkKind::Load),
                !Store || Row == 1024 ? 16e9 : Row == 2048 ? 12e9 : 11e9, 8e9);
  if (Rmw)
    for (int Row : {1024, 2048, 4096})
      Curve(stridedWalkName(Row, WalkKind::LoadStore), Row == 1024 ? 20e9 : Row == 2048 ? 14e9 : 9e9,
            6e9);
  return M;
}

/// b[j*128 + i] of a 128 x 128 transpose (j inner, 1 KiB apart; i outer).
MemStream column(bool Store, bool Load, const std::string &Stride = "1024") {
  MemStream S = stream("b", {{Stride, "128"}, {"8", "128"}}, {}, Store);
  S.Load = Load;
  return S;
}

} // namespace

TEST(StridedWalk, CurveNames) {
  EXPECT_EQ(stridedWalkName(1024, WalkKind::Load), "strided_1k");
  EXPECT_EQ(stridedWalkName(2048, WalkKind::Store), "strided_store_2k");
  EXPECT_EQ(stridedWalkName(4096, WalkKind::Load), "strided");
  EXPECT_EQ(stridedWalkName(4096, WalkKind::Store), "strided_store");
  EXPECT_EQ(stridedWalkName(1024, WalkKind::LoadStore), "strided_rmw_1k");
  EXPECT_EQ(stridedWalkName(4096, WalkKind::LoadStore), "strided_rmw");
  EXPECT_THROW(stridedWalkName(512, WalkKind::Store), std::invalid_argument);
}

TEST(StridedWalk, OnlyStoreStreamsAreWalked) {
  std::string Why;
  auto Mem = MemoryModel::fromMachine(machine(true), Why);
  ASSERT_TRUE(Mem) << Why;
  EXPECT_TRUE(Mem->hasWalkCurves());
  // A store stream 1 KiB apart: the 1 KiB store walk (class 1-2 KiB).
  auto C = Mem->walkClasses(column(true, false));
  ASSERT_EQ(C.size(), 1u);
  EXPECT_EQ(evaluate(C[0].In, {}), 1);
  EXPECT_DOUBLE_EQ(evaluate(Mem->walkTime(*C[0].Curve, 1, 1e4), {}), 1 / 16e9);
  // 4 KiB apart: the 4 KiB store walk.
  auto C4 = Mem->walkClasses(column(true, false, "4096"));
  ASSERT_EQ(C4.size(), 1u);
  EXPECT_DOUBLE_EQ(evaluate(Mem->walkTime(*C4[0].Curve, 1, 1e4), {}), 1 / 11e9);
  // Loads alone are left to the prefetched rates and the page-strided rule.
  EXPECT_TRUE(Mem->walkClasses(column(false, true)).empty());
  // Load and store, 1 KiB apart: its loads are 4 KiB-aliased with its own
  // stores: walked; 1032 B apart they are not.
  EXPECT_EQ(Mem->walkClasses(column(true, true)).size(), 1u);
  EXPECT_TRUE(Mem->walkClasses(column(true, true, "1032")).empty());
  // An unrolled run of stores (40 of 32 B per 1280 B iteration) is no walk;
  // one store per 1280 B is.
  MemStream Run = stream("a", {{"1280", "100"}}, {}, true);
  Run.Size = 32;
  for (int K = 1; K < 40; ++K)
    Run.Offsets.push_back(std::to_string(32 * K));
  EXPECT_TRUE(Mem->walkClasses(Run).empty());
  Run.Offsets.clear();
  EXPECT_EQ(Mem->walkClasses(Run).size(), 1u);
  // A store stream less than 1 KiB apart is prefetched: not walked.
  EXPECT_TRUE(Mem->walkClasses(column(true, false, "512")).empty());
  // A symbolic stride picks its class once known: 8 n = 2048 and 8192 B.
  auto Sym = Mem->walkClasses(column(true, false, "8*n"));
  ASSERT_EQ(Sym.size(), 3u);
  double In2k = 0, In4k = 0;
  for (const auto &W : Sym) {
    In2k += evaluate(W.In, {{"n", 256}});
    In4k += evaluate(W.In, {{"n", 1024}});
  }
  EXPECT_EQ(In2k, 1);
  EXPECT_EQ(In4k, 1);
  // Without the walk curves in the file nothing is walked.
  auto Old = MemoryModel::fromMachine(machine(false), Why);
  ASSERT_TRUE(Old) << Why;
  EXPECT_FALSE(Old->hasWalkCurves());
  EXPECT_TRUE(Old->walkClasses(column(true, false)).empty());
}

TEST(StridedWalk, ColumnStoresFromL2CostTheStoreWalk) {
  // The store column of a 128 x 128 transpose of doubles, footprint 128 KiB:
  // the 128 lines of a column fall in cache_sets(1024, 64, 64) = 4 L1 sets
  // (48 lines): every one of the 16384 stores brings a line into L1. In L2
  // they fall in 64 sets (1024 lines) and the 128 KiB footprint stays there
  // from call to call (warm caches): no line comes into L2. So all 16384
  // come from L2, each at the store walk's 16 GB/s (footprint 131072 B <
  // 1.41e5 B): 64 x 16384 / 16e9 s = 65.536 us. Without the walk curves: In = 16384, Moved = 32768 (their
  // write-backs), max(16384, 3/4 x 32768) = 24576 lines at L2's 50 GB/s =
  // 31.457 us.
  std::string Why;
  auto Walk = MemoryModel::fromMachine(machine(true), Why);
  auto Old = MemoryModel::fromMachine(machine(false), Why);
  ASSERT_TRUE(Walk && Old) << Why;
  for (auto *M : {&*Walk, &*Old})
    M->setTarget("znver5");
  std::vector<MemStream> S = {column(true, false)};
  GiNaC::ex F = 131072.0;
  auto T = Walk->ecmTerms(S, 131072.0, F, 0);
  ASSERT_EQ(T[1].Name, "T_L1L2");
  EXPECT_DOUBLE_EQ(evaluate(T[1].Lines, {}), 24576);
  EXPECT_NEAR(evaluate(T[1].Time, {}), 64 * 16384 / 16e9, 1e-15);
  auto O = Old->ecmTerms(S, 131072.0, F, 0);
  EXPECT_NEAR(evaluate(O[1].Time, {}), 64 * 24576 / 50e9, 1e-15);
  // A row of loads beside it (a[i*128 + j], 8 B apart, 2048.875 lines: a run
  // of 1024 B starts anywhere in a line) keeps the
  // L2 bandwidth: + 64 x 2048 / 50e9 s; the footprint, 256 KiB, is past the
  // walk curve's step: 8 GB/s.
  S.push_back(stream("a", {{"8", "128"}, {"1024", "128"}}));
  auto B = Walk->ecmTerms(S, 262144.0, GiNaC::ex(262144.0), 0);
  double Want = 64 * 2048.875 / 50e9 + 64 * 16384 / 8e9;
  EXPECT_NEAR(evaluate(B[1].Time, {}), Want, 1e-12 * Want);
}

TEST(StridedWalk, RowDistanceOfAnUnrolledColumn) {
  // One reference per row: the stride.
  EXPECT_EQ(evaluate(walkRowDistance(column(true, false)), {}), 1024);
  // A column of floats unrolled 15 times (TSVC s231's aa[j][i], j inner):
  // stride 15 x 1 KiB, offsets 1 .. 14 KiB: rows 1 KiB apart.
  MemStream U = stream("aa", {{"15360", "17"}, {"4", "256"}}, {}, true);
  U.Size = 4;
  for (int K = 1; K < 15; ++K)
    U.Offsets.push_back(std::to_string(1024 * K));
  EXPECT_EQ(evaluate(walkRowDistance(U), {}), 1024);
  // Its load of the element before (bb[j][i-1] beside bb[j][i], s233):
  // references within a line of each other are one run.
  MemStream R = stream("bb", {{"5120", "51"}, {"4", "255"}}, {}, true);
  R.Load = true;
  R.Size = 4;
  R.Offsets = {"4", "1024", "1028", "2048", "2052", "3072", "3076", "4096", "4100"};
  EXPECT_EQ(evaluate(walkRowDistance(R), {}), 1024);
  // Offsets below the first reference (a walk up the column) count alike.
  MemStream Up = stream("c", {{"8192", "8"}, {"8", "64"}}, {"-2048", "-4096", "-6144"}, true);
  EXPECT_EQ(evaluate(walkRowDistance(Up), {}), 2048);
  // A symbolic stride or offset: the stride.
  EXPECT_EQ(evaluate(walkRowDistance(column(true, false, "8*n")), {{"n", 300}}), 2400);
  MemStream Sym = stream("d", {{"4096", "8"}}, {"8*n"}, true);
  EXPECT_EQ(evaluate(walkRowDistance(Sym), {}), 4096);
  // A stream that never moves.
  EXPECT_EQ(evaluate(walkRowDistance(stream("e", {{"0", "8"}})), {}), 0);
}

TEST(StridedWalk, UnrolledColumnsTakeTheClassOfTheirRows) {
  std::string Why;
  auto Mem = MemoryModel::fromMachine(machine(true), Why);
  ASSERT_TRUE(Mem) << Why;
  // Stride 15 KiB, rows 1 KiB apart: the 1 KiB store walk (16 GB/s), not
  // the 4 KiB one (11 GB/s) its stride alone would pick.
  MemStream U = stream("aa", {{"15360", "17"}, {"4", "256"}}, {}, true);
  U.Size = 4;
  for (int K = 1; K < 15; ++K)
    U.Offsets.push_back(std::to_string(1024 * K));
  auto C = Mem->walkClasses(U);
  ASSERT_EQ(C.size(), 1u);
  EXPECT_EQ(C[0].Name, "strided_store_1k");
  EXPECT_DOUBLE_EQ(evaluate(Mem->walkTime(*C[0].Curve, 1, 1e4), {}), 1 / 16e9);
  // Loading and storing, rows 1 KiB apart under a 5 KiB stride: walked.
  MemStream R = stream("bb", {{"5120", "51"}, {"4", "255"}}, {}, true);
  R.Load = true;
  R.Size = 4;
  R.Offsets = {"4", "1024", "1028", "2048", "2052", "3072", "3076", "4096", "4100"};
  ASSERT_EQ(Mem->walkClasses(R).size(), 1u);
  EXPECT_EQ(Mem->walkClasses(R)[0].Name, "strided_store_1k");
  // Rows 1032 B apart under a stride of 5 x 1032 B: not 4 KiB-aliased.
  R.Loops[0].Stride = "5160";
  R.Offsets = {"1032", "2064", "3096", "4128"};
  EXPECT_TRUE(Mem->walkClasses(R).empty());
}

TEST(StridedWalk, LoadAndStoreColumnsCostTheReadModifyWriteWalk) {
  std::string Why;
  auto Rmw = MemoryModel::fromMachine(machine(true, true), Why);
  ASSERT_TRUE(Rmw) << Why;
  EXPECT_TRUE(Rmw->hasRmwWalkCurves());
  // Load and store, 1 KiB apart: the 1 KiB read-modify-write walk (20 GB/s).
  auto C = Rmw->walkClasses(column(true, true));
  ASSERT_EQ(C.size(), 1u);
  EXPECT_EQ(C[0].Name, "strided_rmw_1k");
  EXPECT_DOUBLE_EQ(evaluate(Rmw->walkTime(*C[0].Curve, 1, 1e4), {}), 1 / 20e9);
  // 4 KiB apart: the 4 KiB one (9 GB/s); 1032 B apart: no walk.
  auto C4 = Rmw->walkClasses(column(true, true, "4096"));
  ASSERT_EQ(C4.size(), 1u);
  EXPECT_EQ(C4[0].Name, "strided_rmw");
  EXPECT_TRUE(Rmw->walkClasses(column(true, true, "1032")).empty());
  // A stream that only stores keeps the store walk.
  auto S = Rmw->walkClasses(column(true, false));
  ASSERT_EQ(S.size(), 1u);
  EXPECT_EQ(S[0].Name, "strided_store_1k");
  // Without the read-modify-write walks: the store walk, as before.
  auto Old = MemoryModel::fromMachine(machine(true), Why);
  ASSERT_TRUE(Old) << Why;
  EXPECT_FALSE(Old->hasRmwWalkCurves());
  ASSERT_EQ(Old->walkClasses(column(true, true)).size(), 1u);
  EXPECT_EQ(Old->walkClasses(column(true, true))[0].Name, "strided_store_1k");
  // The read-modify-write walks alone (no store walks): nothing is walked.
  Machine M = machine(false, true);
  auto Alone = MemoryModel::fromMachine(M, Why);
  ASSERT_TRUE(Alone) << Why;
  EXPECT_FALSE(Alone->hasWalkCurves());
  EXPECT_FALSE(Alone->hasRmwWalkCurves());
  EXPECT_TRUE(Alone->walkClasses(column(true, true)).empty());
}

TEST(StridedWalk, ReadModifyWriteColumnFromL2) {
  // The column of a 128 x 128 in-place transpose of doubles, loaded and
  // stored (a[j*128 + i], j inner), footprint 128 KiB: as in
  // ColumnStoresFromL2CostTheStoreWalk, 16384 lines come into L1 from L2,
  // each at the read-modify-write walk's 20 GB/s: 64 x 16384 / 20e9 s.
  std::string Why;
  auto Rmw = MemoryModel::fromMachine(machine(true, true), Why);
  ASSERT_TRUE(Rmw) << Why;
  Rmw->setTarget("znver5");
  std::vector<MemStream> S = {column(true, true)};
  auto T = Rmw->ecmTerms(S, 131072.0, GiNaC::ex(131072.0), 0);
  ASSERT_EQ(T[1].Name, "T_L1L2");
  EXPECT_NEAR(evaluate(T[1].Time, {}), 64 * 16384 / 20e9, 1e-15);
}
