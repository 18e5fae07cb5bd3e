//===- CollectivesTest.cpp - MPI operation times against hand values ------===//
#include "predictor/Collectives.h"
#include "predictor/Expr.h"

#include <gtest/gtest.h>

using namespace segtime;

namespace {

/// t(n) = 1 us + n / (1 GB/s): Hockney with t_0 = 1 us, r_inf = 1e9 B/s.
CollectiveModel linear() {
  CollectiveModel C;
  C.P2P = [](double N) { return 1e-6 + N * 1e-9; };
  C.P2PName = "test";
  return C;
}

} // namespace

TEST(Collectives, PointToPointAndLocal) {
  CollectiveModel C = linear();
  EXPECT_DOUBLE_EQ(C.time("p2p", 1000, 2), 2e-6);
  EXPECT_DOUBLE_EQ(C.time("p2p", 1000, 64), 2e-6); // independent of p
  EXPECT_DOUBLE_EQ(C.time("exchange", 1000, 2), 2e-6);
  EXPECT_DOUBLE_EQ(C.time("post", 1000, 2), 0);
  EXPECT_DOUBLE_EQ(C.time("wait", 0, 2), 0);
}

TEST(Collectives, BinomialTreeBcastReduce) {
  CollectiveModel C = linear();
  // ceil(log2 p) rounds of t(1000) = 2 us.
  EXPECT_DOUBLE_EQ(C.time("bcast", 1000, 1), 0);
  EXPECT_DOUBLE_EQ(C.time("bcast", 1000, 2), 2e-6);
  EXPECT_DOUBLE_EQ(C.time("bcast", 1000, 4), 4e-6);
  EXPECT_DOUBLE_EQ(C.time("bcast", 1000, 5), 6e-6);
  EXPECT_DOUBLE_EQ(C.time("reduce", 1000, 8), 6e-6);
}

TEST(Collectives, Allreduce) {
  CollectiveModel C = linear();
  // Recursive doubling (n <= 2048 B): log2 p t(n).
  EXPECT_DOUBLE_EQ(C.time("allreduce", 1000, 4), 4e-6);
  // p = 6: p' = 4, 2 rounds + fold-in and fold-out steps = 4 t(1000).
  EXPECT_DOUBLE_EQ(C.time("allreduce", 1000, 6), 8e-6);
  // Rabenseifner (n > 2048 B), p = 4: 2 (t(4096) + t(2048)).
  EXPECT_NEAR(C.time("allreduce", 8192, 4), 2 * ((1e-6 + 4.096e-6) + (1e-6 + 2.048e-6)), 1e-18);
}

TEST(Collectives, ScatterGatherAllgatherAlltoall) {
  CollectiveModel C = linear();
  // Binomial scatter, p = 4: root sends 2 blocks, then 1: t(2000) + t(1000).
  EXPECT_DOUBLE_EQ(C.time("scatter", 1000, 4), 3e-6 + 2e-6);
  // p = 3: subtrees of 1 and 1 block: 2 t(1000).
  EXPECT_DOUBLE_EQ(C.time("gather", 1000, 3), 4e-6);
  EXPECT_DOUBLE_EQ(C.time("scatter", 1000, 2), 2e-6);
  // Recursive doubling allgather, p = 4: t(1000) + t(2000).
  EXPECT_DOUBLE_EQ(C.time("allgather", 1000, 4), 5e-6);
  // Pairwise exchange: (p - 1) t(n).
  EXPECT_DOUBLE_EQ(C.time("alltoall", 1000, 4), 6e-6);
}

TEST(Collectives, Barrier) {
  CollectiveModel C = linear();
  // No SYNCH1 numbers: dissemination estimate ceil(log2 p) t(0).
  EXPECT_DOUBLE_EQ(C.time("barrier", 0, 4), 2e-6);
  C.Barrier = BarrierModel{2e-6, 1e-6};
  // SYNCH1: t_b0 + t_b1 ceil(log2 p).
  EXPECT_DOUBLE_EQ(C.time("barrier", 0, 4), 4e-6);
  EXPECT_DOUBLE_EQ(C.time("barrier", 0, 1), 2e-6);
}

TEST(Collectives, Errors) {
  CollectiveModel C = linear();
  EXPECT_THROW(C.time("teleport", 8, 2), std::invalid_argument);
  EXPECT_THROW(C.time("bcast", -1, 2), std::invalid_argument);
  EXPECT_THROW(C.time("bcast", 8, 0), std::invalid_argument);
  EXPECT_THROW(CollectiveModel::algorithm("teleport"), std::invalid_argument);
  EXPECT_THROW(commTerm("teleport", 8, 2), std::invalid_argument);
  EXPECT_EQ(CollectiveModel::patterns().size(), 12u);
}

TEST(Collectives, FormulaTermsEvaluateUnderAScope) {
  CollectiveModel C = linear();
  GiNaC::ex T = 2 * commTerm("p2p", 8 * sym("n"), sym("p")) +
                commTerm("bcast", 8 * sym("n"), sym("p")) + commTerm("post", 8, sym("p"));
  EXPECT_EQ(toString(T), "2*t_p2p(8*n, p) + t_bcast(8*n, p)");
  // Without a model the terms stay symbolic.
  EXPECT_THROW(evaluate(T, {{"n", 125}, {"p", 4}}), std::runtime_error);
  CommModelScope Scope(C);
  // 2 t(1000) + 2 t(1000) = 8 us.
  EXPECT_DOUBLE_EQ(evaluate(T, {{"n", 125}, {"p", 4}}), 8e-6);
  EXPECT_THROW(evaluate(T, {{"n", 125}, {"p", 2.5}}), std::invalid_argument);
  // A term with constant bytes, built before any model was installed,
  // evaluates once p is given.
  GiNaC::ex Const = commTerm("p2p", 1000, sym("p"));
  EXPECT_DOUBLE_EQ(evaluate(Const, {{"p", 2}}), 2e-6);
}

TEST(Collectives, FromMachine) {
  Machine M;
  M.Name = "m";
  M.Path = "m.yaml";
  EXPECT_THROW(CollectiveModel::fromMachine(M), std::runtime_error);
  auto Put = [&](const std::string &K, double V) { M.Params[K].Value = V; };
  Put("comm.hockney.0.upto", std::numeric_limits<double>::infinity());
  Put("comm.hockney.0.r_inf", 1e9);
  Put("comm.hockney.0.n_half", 1000);
  CollectiveModel C = CollectiveModel::fromMachine(M);
  EXPECT_FALSE(C.Barrier);
  EXPECT_DOUBLE_EQ(C.time("p2p", 1000, 2), 2e-6);
  Put("comm.synch1.t0", 3e-6);
  Put("comm.synch1.t1", 1e-6);
  C = CollectiveModel::fromMachine(M);
  ASSERT_TRUE(C.Barrier);
  EXPECT_DOUBLE_EQ(C.time("barrier", 0, 2), 4e-6);
  EXPECT_NE(C.describe().find("hockney"), std::string::npos);
}
