//===- MemoryModelTest.cpp - ICC memory term and library calls ------------===//
#include "predictor/Expr.h"
#include "predictor/MemoryModel.h"
#include "MemoryFixtures.h"
#include "predictor/Predict.h"
#include "predictor/ResourceModel.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace segtime;

namespace {

CostEntry entry(double V, const std::string &Unit) {
  return CostEntry::of(V, Unit, "estimated", "test");
}

/// 1 GHz core; L1 1 KiB at 100 GB/s, L2 1 MiB at 50 GB/s, DRAM 10 GB/s;
/// HLLC f64.trig 20 ns at -O2.
Machine machine(bool WithMemory = true) {
  Machine M;
  M.Name = "mem";
  M.Path = "mem.yaml";
  CostVector &I = M.Levels[Level::ICC]["any"];
  I.Unit = "ns";
  I.Costs["cycles"].Value = 1;
  I.Costs["*"].Value = 0;
  CostVector &H = M.Levels[Level::HLLC]["O2"];
  H.Unit = "ns";
  H.Costs["f64.trig"].Value = 20;
  if (WithMemory) {
    M.Params["memory.L1.size"] = entry(1024, "B");
    M.Params["memory.L1.bandwidth"] = entry(100e9, "B/s");
    M.Params["memory.L2.size"] = entry(1 << 20, "B");
    M.Params["memory.L2.bandwidth"] = entry(50e9, "B/s");
    M.Params["memory.DRAM.bandwidth"] = entry(10e9, "B/s");
  }
  return M;
}

/// f(n): one IR loop of n iterations, 2 cycles each; footprint 16 n B,
/// traffic 24 n B; one call to sin per iteration.
SegFile file() {
  SegFile S;
  S.OptLevel = "O2";
  S.Targets["x"] = {{"cpu", "x"}};
  FunctionSeg F;
  F.Name = "f";
  F.Params = {"n"};
  Node L;
  L.Kind = NodeKind::Loop;
  L.Id = "ir1";
  L.Trip = "n";
  L.Footprint = "16*n";
  L.Traffic = "24*n";
  Node B;
  B.Id = "ir2";
  B.Ruvs["ICC:x"].add("cycles", 2);
  B.Ruvs["INTCC"].add("call.sin", 1);
  L.Body.push_back(B);
  F.LevelSegs["IR"].push_back(L);
  F.Body.push_back(Node{});
  S.Functions.push_back(F);
  return S;
}

double iccTime(const Machine &M, double N, std::vector<std::string> *Notes = nullptr) {
  PredictOptions O;
  O.Levels = {Level::ICC};
  O.Values["n"] = N;
  Prediction P = predict(file(), M, O);
  EXPECT_EQ(P.Functions.at(0).Error, "");
  if (Notes)
    *Notes = P.Functions.at(0).Notes;
  return P.Functions.at(0).Levels.at(Level::ICC).TimeS;
}

} // namespace

TEST(MemoryModel, LevelByFootprint) {
  std::string Why;
  auto Mem = MemoryModel::fromMachine(machine(), Why);
  ASSERT_TRUE(Mem) << Why;
  ASSERT_EQ(Mem->levels().size(), 3u);
  EXPECT_EQ(Mem->levelOf(1024).Name, "L1");
  EXPECT_EQ(Mem->levelOf(1025).Name, "L2");
  EXPECT_EQ(Mem->levelOf(4e6).Name, "DRAM");
  // V / B(F): 1000 B from L1 at 100 GB/s = 10 ns; from DRAM at 10 GB/s = 100 ns.
  EXPECT_DOUBLE_EQ(GiNaC::ex_to<GiNaC::numeric>(Mem->time(1000, 512).evalf()).to_double(), 1e-8);
  EXPECT_NEAR(GiNaC::ex_to<GiNaC::numeric>(Mem->time(1000, 2e6).evalf()).to_double(), 1e-7, 1e-20);
  EXPECT_FALSE(MemoryModel::fromMachine(machine(false), Why));
  EXPECT_NE(Why.find("memory.DRAM.bandwidth"), std::string::npos) << Why;
}

TEST(MemoryModel, IccTimeIsMaxOfCoreAndMemory) {
  // Core: n (2 cycles x 1 ns + sin 20 ns) = 22 n ns.
  // n = 10: footprint 160 B (L1): memory 240 B / 100 GB/s = 2.4 ns < 220 ns: core.
  EXPECT_NEAR(iccTime(machine(), 10), 220e-9, 1e-15);
  // n = 1e6: 16 MB in DRAM, 24 MB / 10 GB/s = 2.4 ms < 22 ms: core.
  EXPECT_NEAR(iccTime(machine(), 1e6), 22e-3, 1e-9);
}

TEST(MemoryModel, MemoryBoundNestAndNotes) {
  // Without the library call the core is 2 n ns; at n = 1e6 (DRAM) memory
  // 24e6 / 10e9 = 2.4 ms > 2 ms.
  Machine M = machine();
  M.Levels[Level::HLLC]["O2"].Costs["f64.trig"].Value = 0;
  std::vector<std::string> Notes;
  EXPECT_NEAR(iccTime(M, 1e6, &Notes), 2.4e-3, 1e-12);
  ASSERT_FALSE(Notes.empty());
  EXPECT_NE(Notes[0].find("DRAM"), std::string::npos) << Notes[0];
  // A machine without memory numbers: core only, and a note saying why.
  EXPECT_NEAR(iccTime(machine(false), 1e6, &Notes), 22e-3, 1e-9);
  ASSERT_FALSE(Notes.empty());
  EXPECT_NE(Notes[0].find("not applied"), std::string::npos) << Notes[0];
}

TEST(ICCModel, LibraryCallsCostedFromIccOrHllc) {
  Machine M = machine();
  ICCModel Derived(M, "any", "O2");
  EXPECT_NEAR(*Derived.libraryCallCost("sin"), 20e-9, 1e-18); // HLLC f64.trig
  EXPECT_FALSE(Derived.libraryCallCost("my_function"));
  M.Levels[Level::ICC]["any"].Costs["call.sin"].Value = 15; // measured at the ICC level wins
  ICCModel Own(M, "any", "O2");
  EXPECT_NEAR(*Own.libraryCallCost("sin"), 15e-9, 1e-18);
}

namespace {
Node iccStage(const std::string &Id, double Cycles, double Thr, double Uops) {
  Node S;
  S.Id = Id;
  S.Ruvs["ICC:x"].add("cycles", Cycles);
  S.Ruvs["ICC:x"].add("rthroughput", Thr);
  S.Ruvs["ICC:x"].add("uops", Uops);
  return S;
}
} // namespace

TEST(ICCModel, OverlapOfIterations) {
  Machine M = machine(false);
  ICCModel Icc(M, "x", "O2");
  // One block, 10 cycles on its own (a dependence chain), 2 by resources,
  // 4 uops; trip t. Core = 10 t ns (t_cyc = 1 ns).
  Node L;
  L.Kind = NodeKind::Loop;
  L.Trip = "t";
  L.Body.push_back(iccStage("b", 10, 2, 4));
  GiNaC::ex Core = 10e-9 * sym("t");
  auto At = [](const GiNaC::ex &E, double T) {
    return evaluate(E, {{"t", T}});
  };
  // At the top level nothing overlaps it.
  EXPECT_NEAR(At(Icc.overlap(L, Core, 0, 352), 8), 80e-9, 1e-18);
  // Nested, 8 iterations (32 uops) fit in the 352-uop window: resource bound 2 t.
  EXPECT_NEAR(At(Icc.overlap(L, Core, 1, 352), 8), 16e-9, 1e-18);
  // 1000 iterations: only W = 352/4 = 88 of them overlap: 10000 - 8 x 88 cycles.
  EXPECT_NEAR(At(Icc.overlap(L, Core, 1, 352), 1000), (10000 - 704) * 1e-9, 1e-15);
  // Two blocks in the body: each costs its resource bound.
  L.Body.push_back(iccStage("c", 6, 1, 2));
  GiNaC::ex Core2 = 16e-9 * sym("t");
  EXPECT_NEAR(At(Icc.overlap(L, Core2, 0, 352), 5), 15e-9, 1e-18);
}

TEST(ICCModel, ChainsAcrossLoopsAndTheWindow) {
  Machine M = machine(false);
  ICCModel Icc(M, "x", "O2");
  auto At = [](const GiNaC::ex &E, double T) { return evaluate(E, {{"t", T}}); };
  // Inner loop: 16 iterations of one block with a floating-point chain (4
  // cycles each, 0.5 by resources, 3 uops).
  Node In;
  In.Kind = NodeKind::Loop;
  In.Trip = "16";
  In.Body.push_back(iccStage("b", 4, 0.5, 3));
  GiNaC::ex CoreIn = GiNaC::ex(64e-9);
  // Its chain starts afresh in each execution ("own"): it overlaps with the
  // next execution (16 x 3 uops fit the window): its resource bound, 8 cycles.
  In.Chain = "own";
  EXPECT_NEAR(evaluate(Icc.overlap(In, CoreIn, 1, 352), {}), 8e-9, 1e-18);
  // A chain that goes on into the next execution is left whole.
  In.Chain = "continued";
  EXPECT_NEAR(evaluate(Icc.overlap(In, CoreIn, 1, 352), {}), 64e-9, 1e-18);
  In.Chain = "own";

  // Outer loop of t independent iterations: a block (2 cycles, 1 by
  // resources, 3 uops of which a macro-fused pair: 2 in the reorder buffer)
  // and the inner loop. Core = t (2 + 64) ns, the iterations back to back
  // (what the builder would pass without the inner loop's own overlap);
  // its own block at its resource bound: C = 65 t. Per iteration: a chain
  // of 16 x 4 = 64 cycles, U = 2 + 16 x 3 = 50 micro-ops, R = 1 + 16 x 0.5
  // = 9 cycles. Little's law: 64 x 50 / 352 = 9.09 cycles; p-norm with the
  // ports' 9: 12.79 cycles.
  Node Out;
  Out.Kind = NodeKind::Loop;
  Out.Trip = "t";
  Out.Body.push_back(iccStage("h", 2, 1, 3));
  Out.Body.back().Ruvs["ICC:x"].add("uops.macro_fused", 1);
  Out.Body.push_back(In);
  GiNaC::ex Core = 66e-9 * sym("t");
  double Want = std::hypot(9.0, 64.0 * 50 / 352) * 1e-9;
  EXPECT_NEAR(At(Icc.overlap(Out, Core, 0, 352), 100), 100 * Want, 1e-15);
  // With a recurrence of its own the iterations are chained: no window.
  Out.Chain = "own";
  EXPECT_NEAR(At(Icc.overlap(Out, Core, 0, 352), 100), 6500e-9, 1e-15);
  // A window of 40 micro-ops, smaller than an iteration: no window; C.
  Out.Chain = "";
  EXPECT_NEAR(At(Icc.overlap(Out, Core, 0, 40), 100), 6500e-9, 1e-15);
}

// --- cache-line memory term (layer conditions) ------------------------------

namespace {
using test::lines;
using test::stream;
const CacheGeometry IceL1{"L1", 49152, 12, 64}; // this machine's L1d: 64 sets
const CacheGeometry IceL2{"L2", 1310720, 20, 64}; // 1024 sets
} // namespace

TEST(CacheLines, SetsAStrideMapsTo) {
  auto Sets = [](double Stride, double N) {
    return evaluate(cache_sets(Stride, N, 64), {});
  };
  EXPECT_EQ(Sets(4096, 64), 1);    // 4 KiB apart: one set of a 64-set L1
  EXPECT_EQ(Sets(4096, 1024), 16); // 16 of the L2's 1024 sets
  EXPECT_EQ(Sets(2048, 64), 2);
  EXPECT_EQ(Sets(4104, 64), 64); // 513 doubles apart: every set
  EXPECT_EQ(Sets(8, 64), 64);
  // Unevaluated until the stride is known, exact once it is.
  GiNaC::ex E = cache_sets(8 * sym("n"), 64, 64);
  EXPECT_FALSE(GiNaC::is_a<GiNaC::numeric>(E));
  EXPECT_EQ(evaluate(E, {{"n", 512}}), 1);
}

TEST(CacheLines, ColumnWalkCostsALinePerAccess) {
  // b[k*512 + j], k inner (4096 B apart), j outer (8 B): the 512 lines of a
  // column map to one L1 set (12 ways) and to 16 L2 sets (320 lines), so no
  // column survives to the next j: one line per access, 512 x 512.
  std::vector<MemStream> B = {stream("b", {{"4096", "512"}, {"8", "512"}})};
  EXPECT_DOUBLE_EQ(lines(B, &IceL1), 512.0 * 512);
  EXPECT_DOUBLE_EQ(lines(B, &IceL2), 512.0 * 512);
  // Distinct lines: the first column's 512 lines, then each next column
  // slides every line by 8 of 64 B: 512 + 511 x 512 x 8/64 = 33216.
  EXPECT_DOUBLE_EQ(lines(B, nullptr), 33216);
  // 513 doubles per row (4104 B): the column spreads over all 64 sets
  // (768 lines) and its 32.8 KiB fit: lines reused, 513 + 511 x 513/8.
  std::vector<MemStream> B513 = {stream("b", {{"4104", "513"}, {"8", "512"}})};
  EXPECT_DOUBLE_EQ(lines(B513, &IceL1), 513 + 511.0 * 513 / 8);
}

TEST(CacheLines, RowWalkCostsAnEighthOfALine) {
  // a[i*512 + j], j inner: 1 + 511/8 lines per row, rows contiguous:
  // 64.875 + 511 x 4096/64 = 32768.875 lines for 262144 accesses (1/8).
  std::vector<MemStream> A = {stream("a", {{"8", "512"}, {"4096", "512"}})};
  EXPECT_DOUBLE_EQ(lines(A, &IceL1), 32768.875);
  EXPECT_NEAR(lines(A, &IceL1) / (512.0 * 512), 1.0 / 8, 1e-4);
}

TEST(CacheLines, TriangularRowsSumPerRow) {
  // Forward substitution's rows: l[i*64 + j], j < i (j inner, 8 B, i
  // iterations; i outer, 512 B, 64 iterations): row k brings 1 + (k-1)/8
  // lines (none for k = 0), at most the 8 lines of a row stride (the outer
  // loop's layer condition holds: its largest row, 8.75 lines, covers the
  // 512 B stride). Sum over k = 1..63 of 1 + (k-1)/8 is 63 + 1953/8 =
  // 307.125; rows 58..63 are capped at 8: minus 2.625 = 304.5.
  MemStream L = stream("l", {{"8", "k"}, {"512", "64"}});
  L.Loops[1].Index = "k";
  EXPECT_DOUBLE_EQ(lines({L}, nullptr), 304.5);
  // 32 KiB of rows: they fit the 48 KiB L1 (warm: nothing brought in again),
  // not with 256 rows of 2 KiB (512 KiB): each row's 1 + (k-1)/8 lines, sum
  // 255 + 32385/8 = 4303.125, rows 250..255 capped at a row stride's 32
  // lines: minus 2.625.
  EXPECT_DOUBLE_EQ(lines({L}, &IceL1), 0);
  MemStream Big = stream("l", {{"8", "k"}, {"2048", "256"}});
  Big.Loops[1].Index = "k";
  EXPECT_DOUBLE_EQ(lines({Big}, &IceL1), 255 + 32385.0 / 8 - 2.625);
  // The same rows with a count that is not triangular (every row 255 long)
  // are a rectangle that slides: 32.75 + 255 x 32 = 8192.75 lines, twice
  // the triangle's.
  MemStream Rect = stream("l", {{"8", "255"}, {"2048", "256"}});
  EXPECT_DOUBLE_EQ(lines({Rect}, &IceL1), 32.75 + 255 * 32.0);
}

TEST(CacheLines, NeighboursShareLinesAndWarmCachesKeepData) {
  // Three-point stencil a[i-1], a[i], a[i+1] over n = 1e5 (800 kB: not in
  // L1, in L2): one stream, 1 + (n-1)/8 lines into L1, none into L2 (the
  // nest's lines stay there between executions).
  std::vector<MemStream> S = {stream("a", {{"8", "100000"}}, {"-8", "8"})};
  EXPECT_DOUBLE_EQ(lines(S, &IceL1), 1 + 99999.0 / 8);
  EXPECT_DOUBLE_EQ(lines(S, &IceL2), 0);
  // Rows j-1 and j+1 of a 2-D stencil lie 2 iterations of j away: 3 rows of
  // 8 KiB fit L1, so the rows are brought in once, not three times.
  std::vector<MemStream> R = {
      stream("a", {{"8", "1024"}, {"8192", "1000"}}, {"-8192", "8192"})};
  double Once = 1 + 1023.0 / 8 + 999 * 8192.0 / 64;
  EXPECT_DOUBLE_EQ(lines(R, &IceL1), Once);
  // A time-step loop (stride 0) over 2 MB: the data does not fit L1 or L2
  // and is brought in again on each of the 10 steps.
  std::vector<MemStream> T = {stream("u", {{"8", "262144"}, {"0", "10"}})};
  EXPECT_DOUBLE_EQ(lines(T, &IceL2), 10 * (1 + 262143.0 / 8));
}

TEST(CacheLines, TriadPredictsItsOwnBandwidth) {
  // The triad a[i] = b[i] + s c[i] that measures each level's bandwidth:
  // 3 streams, 3 (1 + (n-1)/8) lines; from DRAM (n = 1e6, 24 MB) they cost
  // 64 B / B_DRAM each, i.e. 24 n B / B_DRAM as the bandwidth was measured.
  Machine M = machine();
  for (const char *L : {"L1", "L2"}) {
    M.Params[std::string("memory.") + L + ".ways"] = entry(8, "ways");
    M.Params[std::string("memory.") + L + ".line_size"] = entry(64, "B");
  }
  std::string Why;
  auto Mem = MemoryModel::fromMachine(M, Why);
  ASSERT_TRUE(Mem && Mem->hasCaches()) << Why;
  ASSERT_EQ(Mem->caches().size(), 2u);
  EXPECT_EQ(Mem->sourceBandwidth(2), 10e9);
  auto Triad = [](const std::string &N) {
    return std::vector<MemStream>{stream("a", {{"8", N}}, {}, true), stream("b", {{"8", N}}),
                                  stream("c", {{"8", N}})};
  };
  EXPECT_NEAR(evaluate(Mem->lineTime(Triad("1000000"), 24e6, 24e6), {}),
              64 * 3 * (1 + 999999.0 / 8) / 10e9, 1e-15);
  // n = 1e4 (240 kB) lives in L2: lines from L2 at 50 GB/s, none from DRAM.
  EXPECT_NEAR(evaluate(Mem->lineTime(Triad("10000"), 24e4, 24e4), {}),
              64 * 3 * (1 + 9999.0 / 8) / 50e9, 1e-15);
  // Geometry that cannot be: less than one set.
  M.Params["memory.L1.ways"] = entry(100, "ways");
  EXPECT_THROW(MemoryModel::fromMachine(M, Why), std::runtime_error);
}

TEST(MemoryModel, CurveIsInterpolatedBetweenItsPoints) {
  // 1/B linear in the footprint between measured points, constant outside:
  // 100 GB/s at 1 MB, 50 GB/s at 2 MB; at 1.5 MB 1/B = (1/100 + 1/50)/2 per
  // GB/s: 66.67 GB/s.
  Machine M = machine();
  M.Params[memoryCurveKey(0, "working_set")] = entry(1e6, "B");
  M.Params[memoryCurveKey(0, "bandwidth")] = entry(100e9, "B/s");
  M.Params[memoryCurveKey(1, "working_set")] = entry(2e6, "B");
  M.Params[memoryCurveKey(1, "bandwidth")] = entry(50e9, "B/s");
  std::string Why;
  auto Mem = MemoryModel::fromMachine(M, Why);
  ASSERT_TRUE(Mem) << Why;
  EXPECT_NEAR(Mem->bandwidthAt(1.5e6), 200e9 / 3, 1e3);
  EXPECT_NEAR(evaluate(Mem->time(1e9, 1.5e6), {}), 1.5e-2, 1e-12);
  EXPECT_NEAR(Mem->bandwidthAt(1e5), 100e9, 1e3);  // below the first point
  EXPECT_NEAR(Mem->bandwidthAt(1e9), 50e9, 1e3);   // beyond the last
  EXPECT_NEAR(Mem->bandwidthAt(2e6), 50e9, 1e3);   // at a point: its value
  // A symbolic footprint evaluates to the same.
  EXPECT_NEAR(evaluate(Mem->time(1e9, GiNaC::ex(sym("F"))), {{"F", 1.5e6}}), 1.5e-2, 1e-12);
}

TEST(CacheLines, PageStridedStreamsUseTheStridedRate) {
  // L1 and L2 of this machine (lines that miss L1 are charged by the curve
  // at the footprint), a triad curve of 80 GB/s at 10 kB and 20 GB/s from
  // 2 MB on (interpolated between), and a strided-walk curve of 40 / 8 GB/s
  // (one process) and 30 / 5 GB/s (two), steps at sqrt(1e4 x 2e6) = 1.4e5 B.
  Machine M = machine();
  for (const CacheGeometry &C : {IceL1, IceL2}) {
    std::string P = "memory." + C.Name + ".";
    M.Params[P + "size"] = entry(C.Size, "B");
    M.Params[P + "ways"] = entry(C.Ways, "ways");
    M.Params[P + "line_size"] = entry(C.Line, "B");
  }
  auto Curve = [&](const std::string &Name, double Small, double Large) {
    M.Params[memoryCurveKey(0, "working_set", Name)] = entry(1e4, "B");
    M.Params[memoryCurveKey(0, "bandwidth", Name)] = entry(Small, "B/s");
    M.Params[memoryCurveKey(1, "working_set", Name)] = entry(2e6, "B");
    M.Params[memoryCurveKey(1, "bandwidth", Name)] = entry(Large, "B/s");
  };
  Curve("curve", 80e9, 20e9);
  std::string Why;
  auto Triad = MemoryModel::fromMachine(M, Why);
  ASSERT_TRUE(Triad && Triad->hasCaches()) << Why;
  EXPECT_EQ(Triad->stridedCurve(), nullptr);
  Curve("strided", 40e9, 8e9);
  Curve("strided_shared2", 30e9, 5e9);
  auto Mem = MemoryModel::fromMachine(M, Why);
  ASSERT_TRUE(Mem) << Why;
  EXPECT_EQ(Mem->stridedCurveName(), "strided");

  // Column walk b[k*512 + j] (k inner, 4096 B apart): 512 x 512 lines miss
  // L1 (ColumnWalkCostsALinePerAccess), V = 8 x 512^2 B is less than the
  // bytes of those lines, so L1 adds nothing; footprint 2.1 MB: the second
  // step. 64 x 262144 B = 16777216 B at 8 GB/s = 2.097152 ms (the triad's
  // 20 GB/s would give 0.8388608 ms).
  std::vector<MemStream> Col = {stream("b", {{"4096", "512"}, {"8", "512"}})};
  EXPECT_EQ(evaluate(pageStrided(Col[0]), {}), 1);
  double V = 8.0 * 512 * 512, F = 2.1e6;
  EXPECT_NEAR(evaluate(Mem->lineTime(Col, V, F), {}), 16777216 / 8e9, 1e-12);
  EXPECT_NEAR(evaluate(Triad->lineTime(Col, V, F), {}), 16777216 / 20e9, 1e-12);
  // Two ranks on the node: the two-process curve, 5 GB/s: 3.3554432 ms.
  Mem->setRanksSharing(2);
  EXPECT_EQ(Mem->stridedCurveName(), "strided_shared2");
  EXPECT_NEAR(evaluate(Mem->lineTime(Col, V, F), {}), 16777216 / 5e9, 1e-12);
  Mem->setRanksSharing(1);

  // Row walk a[i*512 + j] (j inner, 8 B): sequential, the triad's rate:
  // 32768.875 lines x 64 B = 2097208 B at 20 GB/s = 0.1048604 ms.
  std::vector<MemStream> Row = {stream("a", {{"8", "512"}, {"4096", "512"}})};
  EXPECT_EQ(evaluate(pageStrided(Row[0]), {}), 0);
  EXPECT_NEAR(evaluate(Mem->lineTime(Row, V, F), {}), 2097208 / 20e9, 1e-12);

  // Both in one nest (loops l0, l1 shared): one iteration of l1 touches
  // 64.875 + 512 lines (36.9 KiB, fits L1), so each stream keeps its count
  // and is charged at its own rate: 0.1048604 + 2.097152 ms.
  std::vector<MemStream> Both = {Row[0], Col[0]};
  std::vector<GiNaC::ex> Each = linesIntoEach(Both, &IceL1);
  ASSERT_EQ(Each.size(), 2u);
  EXPECT_DOUBLE_EQ(evaluate(Each[0], {}), 32768.875);
  EXPECT_DOUBLE_EQ(evaluate(Each[1], {}), 512.0 * 512);
  EXPECT_NEAR(evaluate(Mem->lineTime(Both, 2 * V, F), {}), 2097208 / 20e9 + 16777216 / 8e9,
              1e-12);

  // A symbolic stride (8 n B) decides once n is known: n = 512 is a page,
  // n = 100 (800 B) is not.
  MemStream Sym = stream("b", {{"8*n", "n"}, {"8", "n"}});
  EXPECT_EQ(evaluate(pageStrided(Sym), {{"n", 512}}), 1);
  EXPECT_EQ(evaluate(pageStrided(Sym), {{"n", 100}}), 0);
  // A stream that stands still in its inner loop is judged by the next.
  EXPECT_EQ(evaluate(pageStrided(stream("c", {{"0", "512"}, {"8", "512"}})), {}), 0);

  // A curve point that is not positive is an error, not skipped.
  M.Params[memoryCurveKey(1, "bandwidth", "strided")] = entry(0, "B/s");
  EXPECT_THROW(MemoryModel::fromMachine(M, Why), std::runtime_error);
}

namespace {
/// gemm i-k-j, C[i][j] += A[i][k] B[k][j] (C ni x nj, A ni x nk, B nk x nj):
/// loops j (l0), k (l1), i (l2), innermost first.
std::vector<MemStream> gemmIkj(int Ni, int Nj, int Nk) {
  std::string I = std::to_string(Ni), J = std::to_string(Nj), K = std::to_string(Nk);
  std::string RowB = std::to_string(8 * Nj), RowA = std::to_string(8 * Nk);
  return {stream("a", {{"0", J}, {"8", K}, {RowA, I}}),
          stream("b", {{"8", J}, {RowB, K}, {"0", I}}),
          stream("c", {{"8", J}, {"0", K}, {RowB, I}}, {}, true)};
}
} // namespace

TEST(CacheLines, GemmIkjStreamsBOncePerI) {
  // ni = 4, nj = nk = 64: B is 32 KiB (512 lines), a row of A or C 8 lines.
  // By hand, into a 4 KiB L1: a k iteration touches a row of B and of C and
  // one A element (17 lines, fit): C's row stays across k, B's rows slide;
  // an i iteration touches all of B (does not fit): B again per i. Lines:
  // B 4 x 512 + C 4 x 8 + A 4 x 8 = 2112. The model counts each run from
  // an unaligned start (1 + 63/8 lines per row of 64 doubles, +1/8 line).
  // C's row, touched in every k iteration, is kept across i as well (one k
  // iteration lies between its uses, reuseLoop): its rows slide, 1 + 63/8
  // + 3 x 8 lines: 2119.875, +0.4 %.
  std::vector<MemStream> G = gemmIkj(4, 64, 64);
  const CacheGeometry L1{"L1", 4096, 4, 64};
  EXPECT_NEAR(lines(G, &L1), 2112, 0.01 * 2112);
  EXPECT_DOUBLE_EQ(lines(G, &L1),
                   4 * (1 + 63.0 / 8 + 63 * 8) + 4 * (1 + 63.0 / 8) + (1 + 63.0 / 8 + 3 * 8));
  // A 32 KiB L2 (B alone fills it): the same lines; a 64 KiB one holds the
  // footprint (36 KiB): warm caches bring nothing in.
  const CacheGeometry L2{"L2", 32768, 8, 64}, Big{"L2", 65536, 8, 64};
  EXPECT_NEAR(lines(G, &L2), 2112, 0.01 * 2112);
  EXPECT_DOUBLE_EQ(lines(G, &Big), 0);
  // The size, 1000 x 1100 x 1200 into a 512 KiB L2: B (10.6 MB)
  // once per i, 1000 x 1200 x 1100 / 8 = 1.65e8 lines, plus A and C.
  std::vector<MemStream> Big3 = gemmIkj(1000, 1100, 1200);
  const CacheGeometry Zen3L2{"L2", 524288, 8, 64};
  EXPECT_NEAR(lines(Big3, &Zen3L2), 1.65e8 + 2 * 1000 * 1200 / 8.0 + 1000 * 1100 / 8.0,
              0.01 * 1.65e8);
}

TEST(CacheLines, AWindowShiftedByOneRowBringsOneRowIn) {
  // 2-D convolution img[(i + p) n + j + q], n = 128, k = 5 (124 x 124
  // outputs): loops q (l0), p (l1, a row down), j (l2), i (l3, a row down).
  // By hand: one i iteration touches 5 rows of 129 doubles (5 KB, fits a
  // 32 KiB L1), and the next i iteration shares 4 of them: the first
  // iteration brings 5 rows in, each later one 1 row, 128 rows of ~16.1
  // lines: 2064 + 64 lines (a row of 129 doubles from an unaligned start:
  // 1 + 128 / 8 = 17 lines; the model: 1.5 + 123 / 8 = 16.9 per row). Before,
  // every iteration was charged 5 rows' shift (R s / line): 9924 lines.
  std::vector<MemStream> Img = {
      stream("img", {{"8", "5"}, {"1024", "5"}, {"8", "124"}, {"1024", "124"}})};
  const CacheGeometry L1{"L1", 32768, 8, 64};
  double Row = 1 + 4.0 / 8 + 123.0 / 8;
  EXPECT_DOUBLE_EQ(lines(Img, &L1), 5 * Row + 123 * Row);
  EXPECT_NEAR(lines(Img, &L1), 128 * 17, 0.01 * 128 * 17);
  // Two rows down per iteration (a stride-2 window): 2 new rows each.
  std::vector<MemStream> Two = {
      stream("img", {{"8", "5"}, {"1024", "5"}, {"8", "124"}, {"2048", "62"}})};
  EXPECT_DOUBLE_EQ(lines(Two, &L1), 5 * Row + 61 * 2 * Row);
}

TEST(CacheLines, TheFootprintBoundsLinesThatStreamsShare) {
  // A Jacobi step, v = f(u) then u = f(v), 2 steps, n = 128 (u and v 128 KiB
  // each, 256 KiB in all): four streams, two per array. Into a 512 KiB L2
  // the step's lines fit, so warm caches bring nothing in; summed per
  // stream the step touched 512 KiB (each array twice) and the layer
  // condition of the step loop failed.
  std::vector<MemStream> S = {stream("u", {{"8", "16384"}, {"0", "2"}}),
                              stream("v", {{"8", "16384"}, {"0", "2"}}, {}, true),
                              stream("v", {{"8", "16384"}, {"0", "2"}}),
                              stream("u", {{"8", "16384"}, {"0", "2"}}, {}, true)};
  const CacheGeometry L2{"L2", 524288, 8, 64};
  GiNaC::ex F = 2 * 131072;
  EXPECT_DOUBLE_EQ(evaluate(linesInto(S, &L2, false, &F), {}), 0);
  // Without the footprint the streams' sum (4 x 2048.875 lines = 8195.5,
  // 3.5 lines over the 8192 the L2 holds) exceeds the L2: the second step
  // brings in again the lines of the sets that overflow (lruFit: 3.5 x 9
  // of them), 8195.5 + 31.5. (Before the set-overflow share: every stream
  // again, 2 x 8195.5.)
  EXPECT_DOUBLE_EQ(lines(S, &L2), 4 * (1 + 16383.0 / 8) + 3.5 * 9);
  // Into a 32 KiB L1 nothing fits: by hand, 2 steps x 2 sweeps x (u + v)
  // 2048 lines = 16384 (the model: 1/8 line more per stream and step).
  const CacheGeometry L1{"L1", 32768, 8, 64};
  EXPECT_DOUBLE_EQ(evaluate(linesInto(S, &L1, false, &F), {}), 4 * 2 * (1 + 16383.0 / 8));
}

TEST(MemoryModel, OneCacheSizeForTheLineModelAndEcm) {
  // A measured effective size serves both the line model and the ECM split
  // of L3 and memory; one measured above the reported size is not used.
  Machine M = machine();
  auto P = [&](const std::string &K, double V, const std::string &U) {
    M.Params[K] = entry(V, U);
  };
  P("memory.L1.size", 32768, "B");
  P("memory.L1.size_effective", 35685, "B");
  P("memory.L1.ways", 8, "ways");
  P("memory.L1.line_size", 64, "B");
  P("memory.L2.size", 524288, "B");
  P("memory.L2.ways", 8, "ways");
  P("memory.L2.line_size", 64, "B");
  P("memory.L3.size", 33554432, "B");
  P("memory.L3.size_effective", 6 << 20, "B");
  P("memory.L3.bandwidth", 30e9, "B/s");
  P("memory.L3.ways", 16, "ways");
  P("memory.L3.line_size", 64, "B");
  std::string Why;
  auto Mem = MemoryModel::fromMachine(M, Why);
  ASSERT_TRUE(Mem) << Why;
  EXPECT_DOUBLE_EQ(Mem->sizeOf("L1"), 32768);
  EXPECT_DOUBLE_EQ(Mem->caches().front().Size, 32768);
  EXPECT_DOUBLE_EQ(Mem->sizeOf("L3"), 6 << 20);
  EXPECT_DOUBLE_EQ(Mem->reportedSize("L3"), 33554432);
  EXPECT_NE(Mem->sizeNote().find("measured effective 3.57e+04 B is above it"),
            std::string::npos);
  // gemm i-k-j, 200 x 1100 x 1200: B (10.6 MB) again per i does not fit the
  // effective 6 MiB L3: its lines come from memory (they fit the reported
  // 32 MiB, which put them in T_L2L3 before).
  std::vector<MemStream> G = gemmIkj(200, 1100, 1200);
  GiNaC::ex F = 8.0 * (200 * 1100 + 200 * 1200 + 1200 * 1100);
  std::vector<EcmTerm> T = Mem->ecmTerms(G, 0, F, 0);
  ASSERT_EQ(T.size(), 4u);
  EXPECT_EQ(T[3].Name, "T_L3Mem");
  EXPECT_DOUBLE_EQ(evaluate(T[2].Lines, {}), 0);
  EXPECT_NEAR(evaluate(T[3].Lines, {}), 200 * 1200 * 1100 / 8.0, 0.02 * 200 * 1200 * 1100 / 8.0);
}

TEST(CacheLines, ReuseWorkingSetIsTheFirstLoopThatDoesNotFit) {
  // gemm i-k-j, ni = 4, nj = nk = 64, a 4 KiB cache: the k iteration (17
  // lines, 1.1 kB) fits, the i iteration (all of B, 32 KiB + rows) does
  // not: B's lines are touched again after ~33 kB.
  std::vector<MemStream> G = gemmIkj(4, 64, 64);
  double F = 8.0 * (4 * 64 + 64 * 64 + 4 * 64);
  double W = evaluate(reuseWorkingSet(G, 4096, 64, F), {});
  EXPECT_GT(W, 32768);
  EXPECT_LT(W, 36000);
  // Every iteration fits a 1 MiB cache: the footprint.
  EXPECT_DOUBLE_EQ(evaluate(reuseWorkingSet(G, 1 << 20, 64, F), {}), F);
}

TEST(MemoryModel, EcmTriadPredictsItsOwnBandwidthWithAndWithoutOverlap) {
  // machine(): L1 100 GB/s, L2 50 GB/s, DRAM 10 GB/s; a triad of 1e6
  // elements from DRAM moves L = 3 (1 + 999999/8) lines into L1 and L2.
  // Intel-like: T_nOL (its bytes at the L1 rate) + T_L1L2 (1/50 - 1/100
  // per byte) + T_L3Mem (1/10 - 1/50) = the whole path, l L / 10 GB/s.
  // Zen: every cache transfer overlaps, memory's costs 1/10: the same.
  Machine M = machine();
  for (const char *L : {"L1", "L2"}) {
    M.Params[std::string("memory.") + L + ".ways"] = entry(8, "ways");
    M.Params[std::string("memory.") + L + ".line_size"] = entry(64, "B");
  }
  std::string Why;
  auto Mem = MemoryModel::fromMachine(M, Why);
  ASSERT_TRUE(Mem) << Why;
  std::vector<MemStream> Triad = {stream("a", {{"8", "1000000"}}, {}, true),
                                  stream("b", {{"8", "1000000"}}),
                                  stream("c", {{"8", "1000000"}})};
  double L = 3 * (1 + 999999.0 / 8), Want = 64 * L / 10e9;
  for (const char *Target : {"skylake", "znver3"}) {
    Mem->setTarget(Target);
    auto T = Mem->ecmTerms(Triad, 24e6, 24e6, GiNaC::numeric(64 * L / 100e9));
    ASSERT_EQ(T.size(), 4u);
    EXPECT_EQ(T[0].Name, "T_nOL");
    EXPECT_EQ(T[3].Name, "T_L3Mem");
    EXPECT_NEAR(evaluate(T[1].Lines, {}), L, 1e-6);
    EXPECT_NEAR(evaluate(T[3].Lines, {}), L, 1e-6); // no L3 in the file: from memory
    EXPECT_NEAR(evaluate(MemoryModel::ecmCombine(0, T), {}), Want, 1e-9 * Want) << Target;
  }
  std::string Where;
  Mem->setTarget("znver3");
  EXPECT_TRUE(Mem->transfersOverlap("L2", &Where));
  EXPECT_FALSE(Mem->transfersOverlap("DRAM"));
  EXPECT_NE(Where.find("Zen"), std::string::npos);
  Mem->setTarget("icelake-server");
  EXPECT_FALSE(Mem->transfersOverlap("L2"));
  // The machine file's switch wins; values other than 0 and 1 are refused.
  M.Params["memory.L2.transfers_overlap"] = entry(1, "");
  Mem = MemoryModel::fromMachine(M, Why);
  EXPECT_TRUE(Mem->transfersOverlap("L2", &Where));
  EXPECT_NE(Where.find("machine file"), std::string::npos);
  M.Params["memory.L2.transfers_overlap"] = entry(2, "");
  EXPECT_THROW(MemoryModel::fromMachine(M, Why), std::runtime_error);
}

TEST(MemoryModel, EcmRuleMaxOfOverlappingAndSumOfTheRest) {
  std::vector<EcmTerm> T = {{"T_nOL", "L1", GiNaC::numeric(2), 0, false},
                            {"T_L1L2", "L2", GiNaC::numeric(3), 0, false},
                            {"T_L2L3", "L3", GiNaC::numeric(4), 0, true}};
  EXPECT_DOUBLE_EQ(evaluate(MemoryModel::ecmCombine(GiNaC::numeric(1), T), {}), 5); // 2 + 3
  EXPECT_DOUBLE_EQ(evaluate(MemoryModel::ecmCombine(GiNaC::numeric(6), T), {}), 6); // core
  T[1].Overlaps = true;
  EXPECT_DOUBLE_EQ(evaluate(MemoryModel::ecmCombine(GiNaC::numeric(1), T), {}), 4);
}

TEST(CacheLines, ANestWithoutReferencesMovesNoLines) {
  // Simpson's rule, a DFT of sin/cos terms: no stream, footprint 0; the
  // ECM terms carry no lines (the nest is bound by its core time).
  EXPECT_DOUBLE_EQ(lines({}, &IceL1), 0);
  EXPECT_DOUBLE_EQ(lines({}, &IceL2), 0);
}

TEST(CacheLines, FivePointStencilRowsMoveWithTheRowLoop) {
  // stencil2d5 at 128 x 128 as the vectorised nest records it: u read as
  // 32 B vectors, 15 per row (64 B apart), at offsets in rows i-1, i, i+1
  // and j +- 1; v written at row i. The row loop moves both by 1024 B (its
  // counter is a phi that the pass makes an induction). By hand: the three
  // rows of u (3 KiB) stay in L1 from one row to the next, so each row of
  // u comes in once: rows 0..126 (the last vector reaches column 120+7),
  // 16 lines each but the first vector of row 0 starts 1 KiB before row 1;
  // v's 126 rows 16 lines each. The L2 holds everything (warm): none.
  std::vector<MemStream> S = {
      stream("u", {{"64", "15"}, {"1024", "126"}},
             {"32", "-1024", "-992", "1024", "1056", "-8", "24", "8", "40"}),
      stream("v", {{"64", "15"}, {"1024", "126"}}, {"32"}, /*Store=*/true)};
  S[0].Size = S[1].Size = 32;
  // The layer conditions count a row's run by its bytes (15 vectors of
  // 64 B and the offsets' 40 B: about 15.1 lines), not the 16 lines it
  // straddles when it starts mid-line: 3811.5, 6 % under the hand count
  // (within the 10 % that the validation asks of a nest).
  double U = 128 * 16.0, V = 126 * 16.0;
  EXPECT_NEAR(lines(S, &IceL1), U + V, 0.10 * (U + V));
  EXPECT_DOUBLE_EQ(lines(S, &IceL1), 3811.5);
  EXPECT_DOUBLE_EQ(lines(S, &IceL2), 0);
  // Before, the row loop's stride was 0: one row's lines, which fit, and a
  // warm cache brings nothing in (cachegrind: 4065 lines).
  std::vector<MemStream> Flat = S;
  Flat[0].Loops[1].Stride = Flat[1].Loops[1].Stride = "0";
  EXPECT_DOUBLE_EQ(lines(Flat, &IceL1), 0);
}

TEST(CacheLines, AnIndexedObjectIsTouchedOnce) {
  // hist[data[i]]++ over n = 65280 ints with 256 bins (1 KiB, cleared by a
  // memset): data brings its first line and 4 / 64 of a line per further
  // i, 1 + 65279 / 16 = 4080.9375 lines; the bins, an estimated stream of
  // the object's 16 lines touched once (a pseudo-loop of 16 steps of 64 B)
  // and again on every i (stride 0), come in once: 4096.9375 distinct
  // lines. Into L1 (the nest runs again: warm) the bins are the stride-0
  // stream that the last i touched, and they fit: kept, only data's lines
  // (cachegrind, per call: 4083).
  MemStream D = stream("data", {{"4", "65280"}});
  D.Size = 4;
  MemStream H = stream("hist", {{"64", "16"}, {"0", "65280"}}, {}, /*Store=*/true);
  H.Load = true;
  H.Size = 4;
  H.Loops[0].Loop = "l0.object";
  H.Loops[1].Loop = "l0";
  D.Loops[0].Loop = "l0";
  EXPECT_DOUBLE_EQ(lines({D, H}, nullptr), 1 + 65279.0 / 16 + 16);
  EXPECT_DOUBLE_EQ(lines({D, H}, &IceL1), 1 + 65279.0 / 16);
}

TEST(CacheLines, ARandomlyIndexedObjectLargerThanTheCacheMissesOnMostAccesses) {
  // y[i] += a x[idx[i]] without y: idx, 4096 ints (4 B steps), and x, an
  // indexed object of 32 KiB (512 lines) estimated by the pass, into an
  // 8 KiB cache of 16 sets. By hand: idx brings 1 + 4095 / 16 lines; x's
  // first 512 accesses bring its 512 lines at most, and each of the other
  // 3584 misses with the probability that its line is not among the 8 KiB
  // the cache holds of x: 1 - 8192 / 32768. Before, x's 512 lines counted
  // once per i (2.1e6 lines), and idx a line per access (one i iteration
  // touched all of x).
  MemStream D = stream("idx", {{"4", "4096"}});
  D.Size = 4;
  MemStream X = stream("x", {{"64", "512"}, {"0", "4096"}});
  X.Loops[0].Loop = "l0.object";
  X.Loops[1].Loop = D.Loops[0].Loop = "l0";
  const CacheGeometry Small{"L1", 8192, 8, 64};
  double Idx = 1 + 4095.0 / 16;
  EXPECT_DOUBLE_EQ(lines({D, X}, &Small), Idx + 512 + 3584 * (1 - 8192.0 / 32768));
  // Distinct lines: idx's and x's 512 (at most one per access).
  EXPECT_DOUBLE_EQ(lines({D, X}, nullptr), Idx + 512);
  // Eight references per iteration (a gather vectorised by 8: offsets
  // "0"): 8 x 512 accesses over the same 512 lines.
  X.Loops[1].Trip = "512";
  X.Offsets.assign(7, "0");
  D.Loops[0].Trip = "512";
  D.Loops[0].Stride = "32";
  double Idx8 = 1 + 511.0 / 2;
  EXPECT_DOUBLE_EQ(lines({D, X}, &Small), Idx8 + 512 + 3584 * (1 - 8192.0 / 32768));
}

TEST(CacheLines, AVectorisedColumnWalkIsRerolledAndSlidesOneRowDown) {
  // l[(i + j) * 128 + j] for j < 120 columns (l1: one row and 8 B on,
  // 1032 B) and i < 124 rows (l0), the rows vectorised by 4: 31 iterations
  // of 4 rows (4096 B) with the other three loads at offsets 1024, 2048,
  // 3072. By hand: the first column brings its 124 lines; each later
  // column lies one row down and 8 B on: one new row's line, and every
  // 8th column 124 new lines (124 x 8 / 64 = 15.5 per column on average):
  // 124 + 119 x 16.5 distinct lines. In the 1.25 MiB L2 a column (124
  // lines 1 KiB apart: 64 sets of 20 ways) fits, and so does the whole
  // walk (warm: none). Before, the four lanes were four streams of 31
  // lines per column that no loop reuses: 4 x 31 x 120 = 14880 lines.
  MemStream L = stream("l", {{"4096", "31"}, {"1032", "120"}}, {"1024", "2048", "3072"});
  EXPECT_DOUBLE_EQ(lines({L}, nullptr), 124 + 119 * 16.5);
  EXPECT_DOUBLE_EQ(lines({L}, &IceL2), 0);
  // In the L1 (1 KiB apart: 4 of its 64 sets, 48 lines) a column does not
  // fit its sets: every column brings its 124 lines.
  EXPECT_DOUBLE_EQ(lines({L}, &IceL1), 120 * 124);
}

TEST(CacheLines, ATriangularColumnWalkReusesItsLinesOnceItFits) {
  // Forward substitution by columns: l[i*256 + k] for i > k (l0: a row,
  // 2048 B, down; 255 - k rows) and k < 255 (l1: one row down and 8 B on,
  // 2056 B; its counter k), into a cache of one set of 128 lines. By hand:
  // column 0 brings its 255 lines; a later column lies one row down and a
  // double on and is one row shorter: it ends in the same last row, so its
  // lines are the previous column's but the first, except every 8th
  // column, whose lines are all new: (255 - k) / 8 lines on average, once a
  // column fits (255 - k <= 128 lines, k >= 127); before that every column
  // brings its 255 - k lines again: 255 + sum_{k=1}^{126} (255 - k) +
  // sum_{k=127}^{254} (255 - k) / 8 = 255 + 24129 + 1032 (before: a new row
  // per shifted column, as for a window moved down, 128 more).
  MemStream L = stream("l", {{"2048", "255 - k"}, {"2056", "255"}});
  L.Loops[1].Index = "k";
  const CacheGeometry OneSet{"C", 8192, 128, 64};
  EXPECT_DOUBLE_EQ(lines({L}, &OneSet), 255 + 24129 + 1032);
  // The same column vectorised by 4 rows (the lanes at offsets 1, 2, 3
  // rows, re-rolled) with a remainder loop (r0) for the last (255 - k) mod
  // 4 rows: versions of one walk, the same lines.
  MemStream V = stream("l", {{"8192", "idiv(255 - k, 4)"}, {"2056", "255"}},
                       {"2048", "4096", "6144"});
  V.Loops[1].Index = "k";
  MemStream R = stream("l", {{"2048", "255 - k - 4*idiv(255 - k, 4)"}, {"2056", "255"}});
  R.Loops[0].Loop = "r0";
  R.Loops[1].Index = "k";
  EXPECT_NEAR(lines({V, R}, &OneSet), 255 + 24129 + 1032, 1e-6);
}

TEST(CacheLines, AColumnTouchedInEveryInnerIterationStaysAcrossTheOuterLoop) {
  // gemm j-p-i, C[i][j] += A[i][p] B[p][j] with 64 rows of 65 doubles
  // (520 B): c[i*65 + j] (l0: i, 520 B; l1: p, 0; l2: j, 8 B) and
  // a[i*65 + p] (l0: i; l1: p, 8 B; l2: j, 0), into 64 sets of 8 ways
  // (32 KiB). One p iteration touches a column of each, 128 lines (8 KiB):
  // it fits, so the column of C stays while p runs, and across j as well:
  // between its last use in one j and its first in the next lies one p
  // iteration, not the whole j iteration (A's 520 lines and C's column,
  // 40 KiB, which do not fit). By hand: C 64 + 64 x 64 x 8/64 = 576 lines;
  // A 64 + 64 x 64 x 8/64 = 576 lines per j, brought in again by each of
  // the 65 j: 37440. Before, C's column counted again per j: 65 x 64.
  const CacheGeometry L1{"L1", 32768, 8, 64};
  MemStream C = stream("c", {{"520", "64"}, {"0", "65"}, {"8", "65"}}, {}, true);
  MemStream A = stream("a", {{"520", "64"}, {"8", "65"}, {"0", "65"}});
  EXPECT_DOUBLE_EQ(lines({C, A}, &L1), 576 + 65 * 576.0);
}

TEST(CacheLines, AnElementOfTheRowTheInnerLoopWalksAddsNoLines) {
  // Floyd-Warshall, 64 x 64 doubles (512 B rows), into 4 KiB (16 sets of 4
  // ways): d[i*64 + j] (l0: j, 8 B; l1: i, 512 B; l2: k, 0), row k (l0; l1,
  // 0; l2, 512 B) and d[i*64 + k] (l1: i, 512 B; l2: k, 8 B). By hand (LRU):
  // per k the rows i bring 1 + 63/8 lines, then 8 per row (the matrix does
  // not fit: nothing stays across k), among them d[i][k]'s; row k stays
  // while i runs and continues row k-1, whose last line is still there:
  // 64 x 512.875 + 512.875. Before, d[i][k] added a line per access.
  const CacheGeometry C{"C", 4096, 4, 64};
  MemStream Row = stream("d", {{"8", "64"}, {"512", "64"}, {"0", "64"}}, {}, true);
  MemStream RowK = stream("d", {{"8", "64"}, {"0", "64"}, {"512", "64"}});
  MemStream Elem = stream("d", {{"512", "64"}, {"8", "64"}});
  Row.Load = true;
  Elem.Loops[0].Loop = "l1", Elem.Loops[1].Loop = "l2";
  EXPECT_DOUBLE_EQ(lines({Row, RowK, Elem}, &C), 65 * 512.875);
  MemStream Col = stream("d", {{"512", "64"}, {"8", "64"}, {"0", "64"}}, {}, true), Ld = Row;
  Ld.Store = false;
  EXPECT_DOUBLE_EQ(evaluate(linesIntoEach({Col, Elem}, &C)[1], {}), 64 * 64);
  Elem.Store = true;
  EXPECT_DOUBLE_EQ(evaluate(linesIntoEach({Ld, Elem}, &C)[1], {}), 64 * 64);
}
