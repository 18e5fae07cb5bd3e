//===- CommModelsTest.cpp - Hockney, Parsytec, LogGP, barrier models ------===//
#include "predictor/CommModels.h"

#include <gtest/gtest.h>

using namespace segtime;

namespace {

HockneyModel twoRanges() {
  HockneyModel H;
  // Eager range: r_inf = 2 GB/s, n_1/2 = 1000 B -> t_0 = 0.5 us.
  H.Segments.push_back({4096, 2e9, 1000});
  // Rendezvous range: r_inf = 5 GB/s, n_1/2 = 10000 B -> t_0 = 2 us.
  H.Segments.push_back({std::numeric_limits<double>::infinity(), 5e9, 10000});
  return H;
}

} // namespace

TEST(Hockney, TimeT0Pi0ByHand) {
  HockneyModel H = twoRanges();
  // PARKBENCH-93 eq. 3.4: t = (n + n_1/2)/r_inf.
  EXPECT_DOUBLE_EQ(H.time(1000), 2000 / 2e9);    // 1 us
  EXPECT_DOUBLE_EQ(H.time(4096), 5096 / 2e9);    // last size of range 0
  EXPECT_DOUBLE_EQ(H.time(4097), 14097 / 5e9);   // protocol switch
  // eq. 3.7 t_0 = n_1/2 / r_inf; eq. 3.10 pi_0 = r_inf / n_1/2.
  EXPECT_DOUBLE_EQ(H.Segments[0].t0(), 0.5e-6);
  EXPECT_DOUBLE_EQ(H.Segments[0].pi0(), 2e6);
  EXPECT_DOUBLE_EQ(H.Segments[1].t0(), 2e-6);
  // eq. 3.5: at n = n_1/2 the rate is half of r_inf.
  EXPECT_DOUBLE_EQ(H.rate(1000), 1e9);
}

TEST(Hockney, MachineRoundTrip) {
  HockneyModel H = twoRanges();
  Machine M;
  M.Name = "m";
  for (auto &[K, E] : H.toParams("hockney", "measured", "test"))
    M.Params["comm." + K] = E;
  EXPECT_DOUBLE_EQ(M.paramValue("comm.hockney.0.t0"), 0.5e-6);
  EXPECT_EQ(M.param("comm.hockney.0.t0")->Provenance, "derived");
  EXPECT_EQ(M.param("comm.hockney.1.upto"), nullptr); // the last range is open
  HockneyModel R = HockneyModel::fromMachine(M);
  ASSERT_EQ(R.Segments.size(), 2u);
  EXPECT_DOUBLE_EQ(R.time(100), H.time(100));
  EXPECT_DOUBLE_EQ(R.time(1 << 20), H.time(1 << 20));
  EXPECT_EQ(PointToPoint::fromMachine(M).Name, "hockney");
}

TEST(Hockney, MissingModelNamesTheCommand) {
  Machine M;
  M.Name = "empty";
  M.Path = "empty.yaml";
  try {
    PointToPoint::fromMachine(M);
    FAIL() << "no exception";
  } catch (const std::runtime_error &E) {
    EXPECT_NE(std::string(E.what()).find("segtime comm calibrate"), std::string::npos) << E.what();
  }
}

TEST(Parsytec, Eq5ShortAndLongMessages) {
  // alpha 10 us, beta 5 us, tau 1 us/B (1 MB/s), header 8 B, packet 64 B, alpha2 3 us.
  ParsytecModel P{10e-6, 5e-6, 1e-6, 8, 64, 3e-6};
  // l = 32 <= p, d = 2: 10 + 2 (5 + (32 + 8)) = 100 us.
  EXPECT_NEAR(P.time(32, 2), 100e-6, 1e-15);
  // l = 64 = p, d = 1: 10 + (5 + 72) = 87 us.
  EXPECT_NEAR(P.time(64, 1), 87e-6, 1e-15);
  // l = 256 > p, d = 3: 10 + 3 (5 + 64) + (4 - 1)(3 + 5 + 64) = 10 + 207 + 216 = 433 us.
  EXPECT_NEAR(P.time(256, 3), 433e-6, 1e-15);
}

TEST(LogGP, MessageStreamAndConsistency) {
  LogGPModel L;
  L.L = 1e-6;
  L.O = 0.25e-6;
  L.Gap = 0.4e-6;
  L.G = 0.5e-9; // 2 GB/s
  // o + (n-1) G + L + o
  EXPECT_DOUBLE_EQ(L.time(1), 1.5e-6);
  EXPECT_DOUBLE_EQ(L.time(1001), 1.5e-6 + 1000 * 0.5e-9);
  // 4 one-byte messages: sender limited by g = 0.4 us.
  EXPECT_DOUBLE_EQ(L.stream(1, 4), 3 * 0.4e-6 + 1.5e-6);
  HockneyModel H;
  H.Segments.push_back({std::numeric_limits<double>::infinity(), 2e9, 3000}); // t_0 = 1.5 us
  LogGPConsistency C = checkConsistency(L, H);
  EXPECT_NEAR(C.StartupDiff, (1.5e-6 - 0.5e-9 - 1.5e-6) / 1.5e-6, 1e-12);
  EXPECT_NEAR(C.ByteTimeDiff, 0, 1e-12);
  EXPECT_TRUE(C.GapOk);
  L.Gap = 3e-6;
  EXPECT_FALSE(checkConsistency(L, H).GapOk);
}

TEST(Barrier, Synch1LogP) {
  BarrierModel B{1e-6, 0.5e-6};
  EXPECT_DOUBLE_EQ(B.time(1), 1e-6);
  EXPECT_DOUBLE_EQ(B.time(2), 1.5e-6);
  EXPECT_DOUBLE_EQ(B.time(4), 2e-6);
  EXPECT_DOUBLE_EQ(B.time(5), 2.5e-6); // ceil(log2 5) = 3
  EXPECT_DOUBLE_EQ(B.rate(4), 5e5);
}
