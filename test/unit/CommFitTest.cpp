//===- CommFitTest.cpp - Hockney, SYNCH1 and LogGP fits on synthetic data -===//
///
/// Known parameters (and the breakpoint of a protocol switch) generate the
/// data; the fits must give them back: exactly (to rounding) without noise,
/// within 1 % with 0.5 % multiplicative noise.
///
//===----------------------------------------------------------------------===//
#include "predictor/CommFit.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace segtime;

namespace {

constexpr double Inf = std::numeric_limits<double>::infinity();

/// COMMS1-like sizes: powers of 2 from 1 B to 4 MiB plus points around
/// 4 KiB, as `segtime comm calibrate` measures them.
std::vector<double> commsSizes() {
  std::vector<double> N;
  for (double S = 1; S <= 4194304; S *= 2)
    N.push_back(S);
  for (double S : {3072.0, 3584.0, 4000.0, 4032.0, 4160.0, 4608.0, 6144.0, 12288.0, 24576.0,
                   49152.0, 98304.0, 196608.0, 393216.0, 786432.0, 1572864.0, 3145728.0})
    N.push_back(S);
  return N;
}

/// The eager/rendezvous switch of Open MPI's shared-memory transport: a
/// cheap start-up up to 4096 B, a jump to a dearer one above.
HockneyModel eagerRendezvous() {
  HockneyModel H;
  H.Segments.push_back({4096, 8e9, 0.3e-6 * 8e9});   // t_0 = 0.3 us, r_inf = 8 GB/s
  H.Segments.push_back({Inf, 5e9, 1.2e-6 * 5e9});    // t_0 = 1.2 us, r_inf = 5 GB/s
  return H;
}

std::vector<double> timesOf(const HockneyModel &H, const std::vector<double> &N,
                            double Noise = 0, unsigned Seed = 1) {
  std::mt19937 Rng(Seed);
  std::normal_distribution<double> D(0, Noise);
  std::vector<double> T;
  for (double X : N)
    T.push_back(H.time(X) * (1 + (Noise > 0 ? D(Rng) : 0)));
  return T;
}

void expectRel(double Got, double Want, double Tol, const char *What) {
  EXPECT_NEAR(Got / Want, 1, Tol) << What << ": got " << Got << ", want " << Want;
}

} // namespace

TEST(CommFit, HockneySingleRangeExact) {
  HockneyModel H;
  H.Segments.push_back({Inf, 1e9, 1000}); // t_0 = 1 us
  std::vector<double> N = commsSizes();
  HockneyFit F = fitHockney(N, timesOf(H, N));
  ASSERT_EQ(F.Model.Segments.size(), 1u);
  expectRel(F.Model.Segments[0].RInf, 1e9, 1e-9, "r_inf");
  expectRel(F.Model.Segments[0].NHalf, 1000, 1e-9, "n_1/2");
  // PARKBENCH-93 eq. 3.7 and 3.10 on the fitted values.
  expectRel(F.Model.Segments[0].t0(), 1e-6, 1e-9, "t_0");
  expectRel(F.Model.Segments[0].pi0(), 1e6, 1e-9, "pi_0");
  EXPECT_LT(F.Residuals.MaxAbsRel, 1e-9);
  EXPECT_EQ(F.Residuals.Rel.size(), N.size());
}

TEST(CommFit, HockneyRelativeWeighting) {
  // Two lines' worth of points: 1 B costs 1 us, 1 MB costs 1 ms + 1 us. A
  // 2 % error on the 1 MB point may not be bought with a large relative
  // error on the small ones: relative weighting keeps both within ~2 %.
  std::vector<double> N = {1, 10, 100, 1e6, 2e6};
  std::vector<double> T = {1e-6, 1.009e-6, 1.099e-6, 1.001e-3 * 1.02, 2.001e-3};
  HockneyFit F = fitHockney(N, T);
  EXPECT_LT(F.Residuals.MaxAbsRel, 0.02);
}

TEST(CommFit, PiecewiseFindsTheProtocolSwitch) {
  std::vector<double> N = commsSizes();
  HockneyModel Want = eagerRendezvous();
  HockneyFit F = fitPiecewiseHockney(N, timesOf(Want, N));
  ASSERT_EQ(F.Model.Segments.size(), 2u);
  EXPECT_EQ(F.Model.Segments[0].UpTo, 4096); // the largest eager size measured
  EXPECT_TRUE(std::isinf(F.Model.Segments[1].UpTo));
  for (int S = 0; S < 2; ++S) {
    expectRel(F.Model.Segments[S].RInf, Want.Segments[S].RInf, 1e-6, "r_inf");
    expectRel(F.Model.Segments[S].t0(), Want.Segments[S].t0(), 1e-6, "t_0");
  }
  EXPECT_LT(F.Residuals.MaxAbsRel, 1e-6);
}

TEST(CommFit, PiecewiseThreeRangesWithNoise) {
  // Eager up to 4096 B, rendezvous, and a slower range once messages leave
  // the cache (above 1 MiB); 0.5 % multiplicative noise, 3 samples per size.
  HockneyModel Want = eagerRendezvous();
  Want.Segments[1].UpTo = 1048576;
  Want.Segments.push_back({Inf, 2.5e9, 100e-6 * 2.5e9}); // t_0 = 100 us, r_inf = 2.5 GB/s
  std::vector<double> N;
  for (int R = 0; R < 3; ++R)
    for (double X : commsSizes())
      N.push_back(X);
  HockneyFit F = fitPiecewiseHockney(N, timesOf(Want, N, 0.005, 42));
  ASSERT_EQ(F.Model.Segments.size(), 3u);
  EXPECT_EQ(F.Model.Segments[0].UpTo, 4096);
  EXPECT_EQ(F.Model.Segments[1].UpTo, 1048576);
  for (int S = 0; S < 3; ++S)
    expectRel(F.Model.Segments[S].RInf, Want.Segments[S].RInf, 0.01, "r_inf");
  expectRel(F.Model.Segments[0].t0(), Want.Segments[0].t0(), 0.01, "t_0");
  expectRel(F.Model.Segments[1].t0(), Want.Segments[1].t0(), 0.01, "t_0");
  // The last range's t_0 (100 us) is an extrapolation from n >= 1.5 MiB,
  // where it is 6 % of the time: 0.5 % noise moves it by a few %. The times
  // it predicts over the range are what matters, and are within 1 %.
  expectRel(F.Model.Segments[2].t0(), Want.Segments[2].t0(), 0.05, "t_0");
  for (double N : {1572864.0, 2097152.0, 3145728.0, 4194304.0})
    expectRel(F.Model.time(N), Want.time(N), 0.01, "t(n), last range");
  EXPECT_LT(F.Residuals.MaxAbsRel, 0.03);
  EXPECT_EQ(F.Residuals.Rel.size(), N.size());
}

TEST(CommFit, PiecewiseContinuousTransitionAtTheCrossing) {
  // A cache-like transition: 10 GB/s with t_0 = 1 us, then 2 GB/s with
  // t_0 = -31 us; the lines cross at n = 80000 B, between the measured sizes
  // 65536 and 98304. The breakpoint is the crossing, not 65536.
  HockneyModel Want;
  Want.Segments.push_back({80000, 1e10, 1e-6 * 1e10});
  Want.Segments.push_back({Inf, 2e9, -31e-6 * 2e9});
  std::vector<double> N = commsSizes();
  HockneyFit F = fitPiecewiseHockney(N, timesOf(Want, N));
  ASSERT_EQ(F.Model.Segments.size(), 2u);
  expectRel(F.Model.Segments[0].UpTo, 80000, 1e-6, "breakpoint");
  expectRel(F.Model.Segments[1].t0(), -31e-6, 1e-6, "t_0 (negative: far from n = 0)");
  EXPECT_NEAR(F.Model.time(80000) / F.Model.time(80001), 1, 1e-4); // continuous
}

TEST(CommFit, PiecewiseKeepsOneRangeForALine) {
  // A single straight line with 0.5 % noise: the information criterion must
  // not split it.
  HockneyModel H;
  H.Segments.push_back({Inf, 3e9, 3000});
  std::vector<double> N = commsSizes();
  HockneyFit F = fitPiecewiseHockney(N, timesOf(H, N, 0.005, 7));
  ASSERT_EQ(F.Model.Segments.size(), 1u);
  expectRel(F.Model.Segments[0].RInf, 3e9, 0.01, "r_inf");
  expectRel(F.Model.Segments[0].t0(), 1e-6, 0.01, "t_0");
}

TEST(CommFit, PiecewiseRespectsMaxSegments) {
  HockneyModel Want = eagerRendezvous();
  std::vector<double> N = commsSizes();
  PiecewiseOptions O;
  O.MaxSegments = 1;
  HockneyFit F = fitPiecewiseHockney(N, timesOf(Want, N), O);
  EXPECT_EQ(F.Model.Segments.size(), 1u);
  EXPECT_GT(F.Residuals.MaxAbsRel, 0.1); // one line cannot follow the jump
}

TEST(CommFit, BadInputIsAnError) {
  EXPECT_THROW(fitHockney({1, 2}, {1e-6}), std::invalid_argument);
  EXPECT_THROW(fitHockney({1}, {1e-6}), std::invalid_argument);
  EXPECT_THROW(fitHockney({1, 2}, {1e-6, 0}), std::invalid_argument);
  EXPECT_THROW(fitHockney({8, 8, 8}, {1e-6, 1e-6, 1e-6}), std::invalid_argument);
  // Times falling with the size: no r_inf > 0.
  EXPECT_THROW(fitHockney({1, 2, 3}, {3e-6, 2e-6, 1e-6}), std::invalid_argument);
  EXPECT_THROW(fitPiecewiseHockney({1, 2}, {1e-6, 2e-6}), std::invalid_argument);
  EXPECT_THROW(fitBarrier({2, 2}, {1e-6, 1e-6}), std::invalid_argument);
  EXPECT_THROW(fitBarrier({0, 2}, {1e-6, 1e-6}), std::invalid_argument);
  EXPECT_THROW(fitLogGP({PrttPoint{}}, 2), std::invalid_argument);
}

TEST(CommFit, BarrierSynch1) {
  // t(p) = 50 ns + 300 ns ceil(log2 p).
  std::vector<int> P = {1, 2, 3, 4, 8};
  std::vector<double> T = {50e-9, 350e-9, 650e-9, 650e-9, 950e-9};
  BarrierFit F = fitBarrier(P, T);
  expectRel(F.Model.T0, 50e-9, 1e-9, "t_b0");
  expectRel(F.Model.T1, 300e-9, 1e-9, "t_b1");
  EXPECT_LT(F.Residuals.MaxAbsRel, 1e-9);
  // Two points (p = 1, 2, the default run on 2 cores) determine it exactly.
  BarrierFit Two = fitBarrier({1, 2}, {50e-9, 350e-9});
  expectRel(Two.Model.T1, 300e-9, 1e-9, "t_b1");
}

TEST(CommFit, LogGPFromPrtt) {
  // PRTT of a known LogGP network (Hoefler, Lichei, Rehm 2007):
  //   PRTT(1,0,s) = 2 (L + 2o + (s-1)G)
  //   PRTT(n,0,s) = PRTT(1,0,s) + (n-1)(g + (s-1)G)
  //   PRTT(n,d,s) = PRTT(1,0,s) + (n-1)(o + d)         (d >= PRTT(1,0,s))
  const double L = 200e-9, O = 100e-9, Gap = 150e-9, G = 1e-10, N = 16;
  std::vector<PrttPoint> Pts;
  for (double S : {1.0, 1024.0, 65536.0, 1048576.0, 4194304.0}) {
    PrttPoint X;
    X.S = S;
    X.N = N;
    X.Prtt1 = 2 * (L + 2 * O + (S - 1) * G);
    X.D = X.Prtt1;
    X.PrttN = X.Prtt1 + (N - 1) * (Gap + (S - 1) * G);
    X.PrttD = X.Prtt1 + (N - 1) * (O + X.D);
    Pts.push_back(X);
  }
  LogGPFit F = fitLogGP(Pts, 2);
  expectRel(F.Model.L, L, 1e-6, "L");
  expectRel(F.Model.O, O, 1e-6, "o");
  expectRel(F.Model.Gap, Gap, 1e-6, "g");
  expectRel(F.Model.G, G, 1e-6, "G");
  EXPECT_EQ(F.Model.P, 2);
  EXPECT_LT(F.Residuals.MaxAbsRel, 1e-6); // o + (s-1)G + L + o = PRTT(1,0,s)/2
  EXPECT_EQ(F.Overheads.size(), 5u);

  // Consistent with the Hockney model of the same network: t_0 = L + 2o - G,
  // r_inf = 1/G.
  HockneyModel H;
  H.Segments.push_back({Inf, 1 / G, (L + 2 * O - G) / G});
  LogGPConsistency C = checkConsistency(F.Model, H);
  EXPECT_NEAR(C.StartupDiff, 0, 1e-6);
  EXPECT_NEAR(C.ByteTimeDiff, 0, 1e-6);
  EXPECT_TRUE(C.GapOk);
}
