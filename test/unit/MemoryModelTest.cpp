//===- MemoryModelTest.cpp - ICC memory term and library calls ------------===//
#include "predictor/Expr.h"
#include "predictor/MemoryModel.h"
#include "predictor/Predict.h"
#include "predictor/ResourceModel.h"

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
  CostVector &I = M.Levels["ICC"]["any"];
  I.Unit = "ns";
  I.Costs["cycles"].Value = 1;
  I.Costs["*"].Value = 0;
  CostVector &H = M.Levels["HLLC"]["O2"];
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
  O.Levels = {"ICC"};
  O.Values["n"] = N;
  Prediction P = predict(file(), M, O);
  EXPECT_EQ(P.Functions.at(0).Error, "");
  if (Notes)
    *Notes = P.Functions.at(0).Notes;
  return P.Functions.at(0).Levels.at("ICC").TimeS;
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
  M.Levels["HLLC"]["O2"].Costs["f64.trig"].Value = 0;
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
  M.Levels["ICC"]["any"].Costs["call.sin"].Value = 15; // measured at the ICC level wins
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
