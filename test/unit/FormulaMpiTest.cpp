//===- FormulaMpiTest.cpp - Comm nodes and rank branches in formulas ------===//
#include "predictor/Collectives.h"
#include "predictor/Formula.h"

#include <gtest/gtest.h>

using namespace segtime;

namespace {

Node stage(const std::string &Id, const std::string &Key, double X) {
  Node N;
  N.Id = Id;
  N.Ruvs[Key].add("x", X);
  return N;
}

Node comm(const std::string &Id, const std::string &Pattern, const std::string &Bytes) {
  Node N;
  N.Kind = NodeKind::Comm;
  N.Id = Id;
  N.CommOp = "MPI_" + Pattern;
  N.Pattern = Pattern;
  N.Bytes = Bytes;
  N.Ruvs["HLLC"].add("call");
  return N;
}

/// f(n): if (rank == 0) { x; reps x Send(8n) } else { 10 x; Recv(8n) }; Bcast(8n).
/// IR-level SEG: the two arms as blocks with BranchProbabilityInfo's
/// frequencies 0.375 / 0.625, linked to the source stages.
SegFile file() {
  FunctionSeg F;
  F.Name = "f";
  F.Params = {"n"};
  Node L;
  L.Kind = NodeKind::Loop;
  L.Id = "v3";
  L.Trip = "reps";
  L.Body = {comm("v4", "p2p", "8*n")};
  Node Br;
  Br.Kind = NodeKind::Branch;
  Br.Id = "v1";
  Br.Arms.push_back({"then", "cmp_eq(rank, 0)", {stage("v2", "HLLC", 1), L}});
  Br.Arms.push_back({"else", "1 - cmp_eq(rank, 0)", {stage("v5", "HLLC", 10), comm("v6", "p2p", "8*n")}});
  F.Body = {Br, comm("v7", "bcast", "8*n")};
  Node I1 = stage("ir1", "INTCC", 1), I2 = stage("ir2", "INTCC", 10);
  I1.Freq = "0.375";
  I1.SourceNode = "v2";
  I2.Freq = "0.625";
  I2.SourceNode = "v5";
  F.LevelSegs["IR"] = {I1, I2};
  SegFile S;
  S.Functions.push_back(F);
  return S;
}

} // namespace

TEST(FormulaMpi, CommWeightIsTheCommunicationFormula) {
  SegFile S = file();
  FormulaBuilder FB(S);
  GiNaC::ex C = FB.closedForm("f", commWeight(), "comm");
  CollectiveModel M;
  M.P2P = [](double N) { return 1e-6 + N * 1e-9; }; // t(1000 B) = 2 us
  CommModelScope Scope(M);
  // rank 0: reps = 3 sends (6 us) + bcast at p = 4, 2 rounds (4 us).
  EXPECT_NEAR(evaluate(C, {{"n", 125}, {"p", 4}, {"rank", 0}, {"reps", 3}}), 10e-6, 1e-15);
  // rank 2: one receive (2 us) + bcast (4 us).
  EXPECT_NEAR(evaluate(C, {{"n", 125}, {"p", 4}, {"rank", 2}, {"reps", 3}}), 6e-6, 1e-15);
  // Compute weights ignore the comm part; the comm weight ignores RUVs.
  GiNaC::ex H = FB.closedForm("f", countWeight("HLLC", "x"), "hllc:x");
  EXPECT_DOUBLE_EQ(evaluate(H, {{"rank", 0}}), 1);
  EXPECT_DOUBLE_EQ(evaluate(H, {{"rank", 1}}), 10);
  EXPECT_EQ(FB.structural("f"),
            "T_f(n) = cmp_eq(rank, 0)·(t(v2) + reps·(t(v4) + T_MPI_p2p(8*n))) + "
            "(1 - cmp_eq(rank, 0))·(t(v5) + t(v6) + T_MPI_p2p(8*n)) + t(v7) + T_MPI_bcast(8*n)");
}

TEST(FormulaMpi, IRBlocksInRankArmsTakeTheRankProbability) {
  SegFile S = file();
  FormulaBuilder FB(S);
  // Without the source arms' probabilities the IR level would give
  // 0.375 * 1 + 0.625 * 10 for every rank.
  GiNaC::ex E = FB.closedForm("f", countWeight("INTCC", "x"), "intcc:x", "INTCC");
  EXPECT_DOUBLE_EQ(evaluate(E, {{"rank", 0}}), 1);
  EXPECT_DOUBLE_EQ(evaluate(E, {{"rank", 3}}), 10);
}
