//===- CtRuntimeTest.cpp - CT runtime: overhead corrections ---------------===//
///
/// \file
/// Registers a hand-made node table with the CT runtime (runtime/ct_runtime.c),
/// fills its counters with chosen tick counts and checks the times written
/// against the formulas of runtime/segtime_ct.h, computed by hand here from
/// the overheads the runtime measured and reports in the file's "timer".
///
/// The program: f is directly recursive, called once from outside (3
/// activations: f -> f -> f); each activation calls g (not recursive) once.
/// Ticks: f's outermost activation 10000, its nodes' exclusive ticks 6600
/// (f), 400 (the 2 calls f -> f), 3000 (the 3 calls to g, g's time
/// included), which add up to 10000 as the instrumented code guarantees.
///
/// A second module: h's timed loop calls k 10 times through a call timed by
/// k's own pair (SEGTIME_CT_CALLEE_TIMED: no pair at the call site, its
/// ticks are k's); k has a timed loop.
///
/// A third: p's timed loop calls s 16 times the same way; s skips its pair
/// after short calls (SEGTIME_CT_SAMPLED): 4 pairs ran, the other 12 calls
/// were given a timed call's ticks. The runtime writes its file once per
/// process, so both modules are registered and written once for all tests.
///
//===----------------------------------------------------------------------===//
#include "core/Ct.h"
#include "segtime_ct.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <unistd.h>

using namespace segtime;

namespace {

void registerRecursive() {
  const int Rec = SEGTIME_CT_RECURSIVE, Reent = SEGTIME_CT_REENTRANT;
  // {kind, parent, line, col, end_line, end_col, base, narms, flags, reserved, name, file, labels}
  static const segtime_ct_node Nodes[] = {
      {SEGTIME_CT_FUNCTION, -1, 1, 0, 0, 0, 0, 0, Rec | Reent, 0, "f", "t.c", ""},
      {SEGTIME_CT_CALL, 0, 2, 3, 0, 0, 5, 0, Rec | Reent, 0, "f", "t.c", ""},
      {SEGTIME_CT_CALL, 0, 3, 3, 0, 0, 10, 0, Rec, 0, "g", "t.c", ""},
      {SEGTIME_CT_FUNCTION, -1, 5, 0, 0, 0, 15, 0, 0, 0, "g", "t.c", ""},
  };
  static segtime_ct_module M = {SEGTIME_CT_ABI, 4, 19, 0, Nodes, "t.c", nullptr, nullptr};
  __segtime_ct_register(&M);
  uint64_t *C = __segtime_ct_thread_block(&M);
  // f: count, outermost ticks, outermost activations, -, exclusive ticks
  C[0] = 3, C[1] = 10000, C[2] = 1, C[4] = 6600;
  // call f -> f: 2 calls, the outermost one 8000 ticks
  C[5] = 2, C[6] = 8000, C[7] = 1, C[9] = 400;
  // call g: 3 calls, 3000 ticks (not reentrant: every call adds to slot 1)
  C[10] = 3, C[11] = 3000, C[14] = 3000;
  // g: 3 calls, 2900 ticks
  C[15] = 3, C[16] = 2900;
}

void registerCalleeTimed() {
  // {kind, parent, line, col, end_line, end_col, base, narms, flags, reserved, name, file, labels}
  static const segtime_ct_node Nodes[] = {
      {SEGTIME_CT_FUNCTION, -1, 1, 0, 0, 0, 0, 0, 0, 0, "h", "u.c", ""},
      {SEGTIME_CT_LOOP, 0, 2, 3, 3, 3, 4, 0, 0, 0, "", "u.c", ""},
      {SEGTIME_CT_CALL, 1, 3, 5, 0, 0, 8, 0, SEGTIME_CT_CALLEE_TIMED, 0, "k", "u.c", ""},
      {SEGTIME_CT_FUNCTION, -1, 6, 0, 0, 0, 12, 0, 0, 0, "k", "u.c", ""},
      {SEGTIME_CT_LOOP, 3, 7, 3, 8, 3, 16, 0, 0, 0, "", "u.c", ""},
  };
  static segtime_ct_module M = {SEGTIME_CT_ABI, 5, 20, 0, Nodes, "u.c", nullptr, nullptr};
  __segtime_ct_register(&M);
  uint64_t *C = __segtime_ct_thread_block(&M);
  C[0] = 1, C[1] = 50000;            // h: 1 call
  C[4] = 1, C[5] = 49000, C[7] = 10; // its loop: 1 entry, 10 iterations
  C[8] = 10, C[9] = 30000;           // the call: 10 calls, k's pairs' ticks
  C[12] = 10, C[13] = 30000;         // k: the same 10 pairs
  C[16] = 10, C[17] = 20000, C[19] = 100;
}

void registerSampled() {
  // {kind, parent, line, col, end_line, end_col, base, narms, flags, reserved, name, file, labels}
  static const segtime_ct_node Nodes[] = {
      {SEGTIME_CT_FUNCTION, -1, 1, 0, 0, 0, 0, 0, 0, 0, "p", "v.c", ""},
      {SEGTIME_CT_LOOP, 0, 2, 3, 3, 3, 4, 0, 0, 0, "", "v.c", ""},
      {SEGTIME_CT_CALL, 1, 3, 5, 0, 0, 8, 0, SEGTIME_CT_CALLEE_TIMED, 0, "s", "v.c", ""},
      {SEGTIME_CT_FUNCTION, -1, 6, 0, 0, 0, 12, 0, SEGTIME_CT_SAMPLED, 0, "s", "v.c", ""},
  };
  static segtime_ct_module M = {SEGTIME_CT_ABI, 4, 17, 0, Nodes, "v.c", nullptr, nullptr};
  __segtime_ct_register(&M);
  uint64_t *C = __segtime_ct_thread_block(&M);
  C[0] = 1, C[1] = 20000;            // p: 1 call
  C[4] = 1, C[5] = 19000, C[7] = 16; // its loop: 1 entry, 16 iterations
  C[8] = 16, C[9] = 16000;           // the call: 16 calls, timed or imputed ticks
  C[12] = 16, C[13] = 16000, C[14] = 4; // s: 16 calls, 4 pairs run
}

class CtRuntime : public testing::Test {
protected:
  static void SetUpTestSuite() {
    registerRecursive();
    registerCalleeTimed();
    registerSampled();
    std::string Path = testing::TempDir() + "ct-runtime-" + std::to_string(getpid()) + ".json";
    setenv("SEGTIME_CT_FILE", Path.c_str(), 1);
    ASSERT_EQ(__segtime_ct_write(), 0);
    std::ifstream In(Path);
    Ct = new CtFile(CtFile::fromJSON(json::parse(In)));
    std::remove(Path.c_str());
  }
  static const CtFunction &function(const std::string &Name) {
    for (const CtFunction &F : Ct->Functions)
      if (F.Name == Name)
        return F;
    throw std::runtime_error("no function " + Name);
  }
  static CtFile *Ct;
};
CtFile *CtRuntime::Ct = nullptr;

// The measured overheads (runtime measure_overheads: minima over rounds at
// start-up and exit): a call's pair is a function's; a nested pair (two reads
// and counter updates) costs more than the gap between two reads; a pair
// costs tens of ticks, not thousands (a preempted round would).
TEST_F(CtRuntime, MeasuredOverheads) {
  ASSERT_TRUE(Ct);
  const double Hz = Ct->Timer.Hz, PO = Ct->Timer.PairOverheadS * Hz;
  const auto &N = Ct->Timer.NestedPairS;
  EXPECT_EQ(N.at("call"), N.at("function"));
  for (const char *K : {"function", "loop", "recursive"}) {
    EXPECT_GT(N.at(K) * Hz, PO) << K;
    EXPECT_LT(N.at(K) * Hz, 1000) << K;
  }
  EXPECT_GT(PO, 0);
}

TEST_F(CtRuntime, RecursiveExclusiveAndInclusive) {
  ASSERT_TRUE(Ct);

  // Overheads in ticks, as the runtime measured them (printed to 4 digits).
  const double Hz = Ct->Timer.Hz, PO = Ct->Timer.PairOverheadS * Hz,
               NCrec = Ct->Timer.NestedPairS.at("recursive") * Hz,
               NC = Ct->Timer.NestedPairS.at("function") * Hz;
  ASSERT_GT(PO, 0);
  ASSERT_GT(NCrec, 0);
  const double Tol = 2e-3 * (NCrec + NC + PO) * 8 / Hz; // the printed digits
  ASSERT_EQ(Ct->Functions.size(), 6u); // f, g, h, k, p, s
  const CtFunction &G = function("g"), &F = function("f");
  ASSERT_EQ(F.Nodes.size(), 2u);

  // g: its 3 pairs' overhead, nothing nested.
  EXPECT_NEAR(G.InclusiveS, (2900 - 3 * PO) / Hz, Tol);
  // f's cycle: pairs f 3 + call f 2 + call g 3 at NCrec, g's 3 at NC; one
  // entry. Inside the outermost activation: all but its own pair.
  const double Over = 8 * NCrec + 3 * NC - NCrec;
  EXPECT_NEAR(F.InclusiveS, (10000 - PO - Over) / Hz, Tol);
  // Exclusive: own pair reads per activation; (NCrec - PO) per timed child
  // pair; a call into the cycle also the callee's (NCrec - PO); a call to g
  // g's whole overhead per call (NC).
  EXPECT_NEAR(F.ExclusiveS, (6600 - 3 * PO - 5 * (NCrec - PO)) / Hz, Tol);
  EXPECT_NEAR(*F.Nodes[0].ExclusiveS, (400 - 2 * PO - 2 * (NCrec - PO)) / Hz, Tol);
  EXPECT_NEAR(*F.Nodes[1].ExclusiveS, (3000 - 3 * PO - 3 * NC) / Hz, Tol);
  // They add up to f's inclusive time (telescoping).
  EXPECT_NEAR(F.ExclusiveS + *F.Nodes[0].ExclusiveS + *F.Nodes[1].ExclusiveS, F.InclusiveS, Tol);
  // The reentrant call site: its outermost ticks less the cycle's overhead
  // per tick (Over / 10000 cycle ticks) times its 8000 ticks.
  EXPECT_NEAR(*F.Nodes[0].InclusiveS, (8000 - PO - Over * 0.8) / Hz, Tol);
  // The call to g (not reentrant): its pairs and g's.
  EXPECT_NEAR(*F.Nodes[1].InclusiveS, (3000 - 3 * PO - 3 * NC) / Hz, Tol);
}

TEST_F(CtRuntime, CallTimedByItsCallee) {
  ASSERT_TRUE(Ct);
  const double Hz = Ct->Timer.Hz, PO = Ct->Timer.PairOverheadS * Hz,
               NF = Ct->Timer.NestedPairS.at("function") * Hz,
               NL = Ct->Timer.NestedPairS.at("loop") * Hz;
  const double Tol = 2e-3 * (NF + NL + PO) * 25 / Hz; // the printed digits
  const CtFunction &H = function("h"), &K = function("k");
  ASSERT_EQ(H.Nodes.size(), 2u);
  ASSERT_EQ(K.Nodes.size(), 1u);
  // k: its 10 pairs' reads and its loop's 10 nested pairs.
  const double KIncl = 30000 - 10 * PO - 10 * NL;
  EXPECT_NEAR(K.InclusiveS, KIncl / Hz, Tol);
  EXPECT_NEAR(*K.Nodes[0].InclusiveS, (20000 - 10 * PO) / Hz, Tol);
  // The call has the same ticks and the same correction as k: k's pair's
  // reads and what is nested in it, not k's pair as a nested pair.
  EXPECT_NEAR(*H.Nodes[1].InclusiveS, KIncl / Hz, Tol);
  // h's loop holds 10 of k's pairs (and their nested loops), but no pair of
  // the call's own; h holds its loop's pair too.
  const double LIncl = 49000 - PO - 10 * (NF + NL);
  EXPECT_NEAR(*H.Nodes[0].InclusiveS, LIncl / Hz, Tol);
  EXPECT_NEAR(H.InclusiveS, (50000 - PO - NL - 10 * (NF + NL)) / Hz, Tol);
  EXPECT_NEAR(*H.Nodes[0].ExclusiveS, (LIncl - KIncl) / Hz, Tol);
}

// A function that skipped its pair after short calls: its ticks (timed and
// imputed) hold one pair's reads per call; only the 4 pairs that ran cost
// its caller's loop anything.
TEST_F(CtRuntime, SkippedPairsAfterShortCalls) {
  ASSERT_TRUE(Ct);
  const double Hz = Ct->Timer.Hz, PO = Ct->Timer.PairOverheadS * Hz,
               NF = Ct->Timer.NestedPairS.at("function") * Hz,
               NL = Ct->Timer.NestedPairS.at("loop") * Hz;
  const double Tol = 2e-3 * (NF + NL + PO) * 25 / Hz; // the printed digits
  const CtFunction &P = function("p"), &S = function("s");
  EXPECT_EQ(S.Calls, 16u);
  ASSERT_TRUE(S.TimedCalls);
  EXPECT_EQ(*S.TimedCalls, 4u);
  EXPECT_FALSE(P.TimedCalls); // every call timed
  EXPECT_NEAR(S.InclusiveS, (16000 - 16 * PO) / Hz, Tol);
  EXPECT_NEAR(*P.Nodes[1].InclusiveS, (16000 - 16 * PO) / Hz, Tol);
  EXPECT_NEAR(*P.Nodes[0].InclusiveS, (19000 - PO - 4 * NF) / Hz, Tol);
  EXPECT_NEAR(P.InclusiveS, (20000 - PO - NL - 4 * NF) / Hz, Tol);
}

} // namespace
