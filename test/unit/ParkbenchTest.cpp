//===- ParkbenchTest.cpp - PARKBENCH-93 low-level fits on synthetic data --===//
///
/// \file
/// fitHockney (PARKBENCH-93 eq. 3.1), fitPoly (eq. 3.3) and
/// bandwidthPlateaus recover known parameters from synthetic data: exactly
/// (to rounding) without noise, within 1 % with a few per cent of noise.
///
//===----------------------------------------------------------------------===//
#include "predictor/Parkbench.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>

using namespace segtime;

namespace {

/// Deterministic multiplicative noise in [1 - A, 1 + A] (fixed seed).
struct Noise {
  std::mt19937 Gen{12345};
  std::uniform_real_distribution<double> U;
  explicit Noise(double A) : U(1 - A, 1 + A) {}
  double operator()() { return U(Gen); }
};

std::vector<double> lengths() {
  std::vector<double> N;
  for (double X = 1; X <= 4096; X *= 1.5)
    N.push_back(std::round(X));
  return N;
}

} // namespace

TEST(Statistics, MedianAndSpread) {
  EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(median({4, 1, 2, 3}), 2.5);
  EXPECT_DOUBLE_EQ(median({}), 0);
  EXPECT_DOUBLE_EQ(*relSpread({9, 10, 11}), 0.2);
  EXPECT_FALSE(relSpread({1}));
  EXPECT_FALSE(relSpread({-1, -2, 0}));
}

// RINF1, eq. 3.1: t = q (n + n_1/2) / r_inf with r_inf = 2.5 Gflop/s,
// n_1/2 = 37, q = 2.
TEST(FitHockney, ExactRecovery) {
  const double RInf = 2.5e9, NHalf = 37, Q = 2;
  std::vector<double> N = lengths(), T;
  for (double X : N)
    T.push_back(Q * (X + NHalf) / RInf);
  RinfFit F = fitHockney(N, T, Q);
  EXPECT_NEAR(F.RInf / RInf, 1, 1e-9);
  EXPECT_NEAR(F.XHalf / NHalf, 1, 1e-9);
  EXPECT_NEAR(F.T0, Q * NHalf / RInf, 1e-18);
  EXPECT_LT(F.RmsRel, 1e-9);
  ASSERT_EQ(F.Residuals.size(), N.size());
}

// Two points determine the line: n = 100 in 1 us and n = 300 in 2 us give
// b = 5 ns per element, a = 0.5 us: r_inf = q/b = 200 Mflop/s, n_1/2 = 100.
TEST(FitHockney, HandComputedTwoPoints) {
  RinfFit F = fitHockney({100, 300}, {1e-6, 2e-6}, 1);
  EXPECT_NEAR(F.RInf, 2e8, 1e-3);
  EXPECT_NEAR(F.XHalf, 100, 1e-9);
}

TEST(FitHockney, NoisyRecoveryWithinOnePercent) {
  const double RInf = 8e9, NHalf = 120, Q = 1;
  Noise Eps(0.02); // +-2 % per point
  std::vector<double> N, T;
  for (int Rep = 0; Rep < 4; ++Rep)
    for (double X : lengths()) {
      N.push_back(X);
      T.push_back(Q * (X + NHalf) / RInf * Eps());
    }
  RinfFit F = fitHockney(N, T, Q);
  EXPECT_NEAR(F.RInf / RInf, 1, 0.01);
  EXPECT_NEAR(F.XHalf / NHalf, 1, 0.01);
  EXPECT_GT(F.RmsRel, 0.003);
  EXPECT_LT(F.RmsRel, 0.02);
}

TEST(FitHockney, Errors) {
  EXPECT_THROW(fitHockney({1, 2}, {1e-9}, 1), std::invalid_argument);
  EXPECT_THROW(fitHockney({5, 5}, {1e-9, 2e-9}, 1), std::invalid_argument);
  EXPECT_THROW(fitHockney({1, 2}, {1e-9, 0}, 1), std::invalid_argument);
  EXPECT_THROW(fitHockney({1, 2}, {2e-9, 1e-9}, 1), std::invalid_argument); // slope < 0
  EXPECT_THROW(fitHockney({1, 2}, {1e-9, 2e-9}, 0), std::invalid_argument);
}

// POLY1/POLY2, eq. 3.3: r = r_hat / (1 + f_1/2 / f), r_hat = 20 Gflop/s,
// f_1/2 = 1.7 flop per memory reference, f = 1..10 (Horner orders).
TEST(FitPoly, ExactRecovery) {
  const double RHat = 2e10, FHalf = 1.7;
  std::vector<double> F, R;
  for (int K = 1; K <= 10; ++K) {
    F.push_back(K);
    R.push_back(RHat / (1 + FHalf / K));
  }
  PolyFit P = fitPoly(F, R);
  EXPECT_NEAR(P.RHatInf / RHat, 1, 1e-9);
  EXPECT_NEAR(P.FHalf / FHalf, 1, 1e-9);
  EXPECT_LT(P.RmsRel, 1e-9);
}

// Hand-computed: f = 1 gives 1 Gflop/s, f = 3 gives 1.5 Gflop/s. Time per
// reference f/r: 1 ns and 2 ns, slope 0.5 ns: r_hat = 2 Gflop/s, f_1/2 = 1.
TEST(FitPoly, HandComputed) {
  PolyFit P = fitPoly({1, 3}, {1e9, 1.5e9});
  EXPECT_NEAR(P.RHatInf, 2e9, 1e-3);
  EXPECT_NEAR(P.FHalf, 1, 1e-12);
}

TEST(FitPoly, NoisyRecoveryWithinOnePercent) {
  const double RHat = 1.2e10, FHalf = 0.6;
  Noise Eps(0.01);
  std::vector<double> F, R;
  for (int Rep = 0; Rep < 11; ++Rep)
    for (int K = 1; K <= 10; ++K) {
      F.push_back(K);
      R.push_back(RHat / (1 + FHalf / K) * Eps());
    }
  PolyFit P = fitPoly(F, R);
  EXPECT_NEAR(P.RHatInf / RHat, 1, 0.01);
  EXPECT_NEAR(P.FHalf / FHalf, 1, 0.01);
}

// Memory-bound over the orders measured (f_1/2 = 40 >> 16): with r_hat known
// the one-parameter fit recovers f_1/2, exactly and within 1 % with noise.
TEST(FitPolyGivenPeak, Recovery) {
  const double RHat = 5.4e10, FHalf = 40;
  std::vector<double> F, R, Rn;
  Noise Eps(0.01);
  for (int K : {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 16})
    for (int Rep = 0; Rep < 5; ++Rep) {
      F.push_back(K);
      R.push_back(RHat / (1 + FHalf / K));
      Rn.push_back(R.back() * Eps());
    }
  PolyFit P = fitPolyGivenPeak(F, R, RHat);
  EXPECT_NEAR(P.FHalf / FHalf, 1, 1e-9);
  EXPECT_DOUBLE_EQ(P.RHatInf, RHat);
  EXPECT_LT(P.RmsRel, 1e-9);
  EXPECT_NEAR(fitPolyGivenPeak(F, Rn, RHat).FHalf / FHalf, 1, 0.01);
  // Hand-computed: r_hat = 2, f = 1 at r = 0.5: tau = 2, f_1/2 = 2*2 - 1 = 3.
  EXPECT_NEAR(fitPolyGivenPeak({1}, {0.5}, 2).FHalf, 3, 1e-12);
  EXPECT_THROW(fitPolyGivenPeak({1}, {1}, 0), std::invalid_argument);
  EXPECT_THROW(fitPolyGivenPeak({}, {}, 1), std::invalid_argument);
}

TEST(FitPoly, Errors) {
  EXPECT_THROW(fitPoly({1, 2}, {1e9}), std::invalid_argument);
  EXPECT_THROW(fitPoly({0, 2}, {1e9, 2e9}), std::invalid_argument);
  EXPECT_THROW(fitPoly({1, 2}, {1e9, -2e9}), std::invalid_argument);
  // Rate growing faster than f (memory-bound, noise): no r_hat_inf.
  try {
    fitPoly({1, 2, 4}, {1e9, 2.2e9, 4.8e9});
    ADD_FAILURE() << "a falling time per reference accepted";
  } catch (const std::invalid_argument &E) {
    EXPECT_NE(std::string(E.what()).find("memory-bound"), std::string::npos) << E.what();
  }
}

namespace {

/// A synthetic bandwidth curve: plateaus of Bw[k] for the levels Sizes,
/// geometric working sets from 4 KiB to 1 GiB (factor sqrt 2), a smooth
/// transition of a factor 2 around each size.
void curve(const std::vector<double> &Sizes, const std::vector<double> &Bw,
           std::vector<double> &W, std::vector<double> &B, double NoiseAmp) {
  Noise Eps(NoiseAmp);
  for (double X = 4096; X <= (1 << 30); X *= std::sqrt(2.0)) {
    // log-linear interpolation between plateaus over [S/sqrt2, S*sqrt2]
    double LogB = std::log(Bw.back());
    for (size_t K = Sizes.size(); K-- > 0;) {
      double Lo = Sizes[K] / std::sqrt(2.0), Hi = Sizes[K] * std::sqrt(2.0);
      if (X <= Lo)
        LogB = std::log(Bw[K]);
      else if (X < Hi) {
        double U = std::log(X / Lo) / std::log(Hi / Lo);
        LogB = (1 - U) * std::log(Bw[K]) + U * LogB;
      }
    }
    W.push_back(X);
    B.push_back(std::exp(LogB) * Eps());
  }
}

} // namespace

TEST(BandwidthPlateaus, ExactRecovery) {
  std::vector<double> Sizes{48 << 10, 1280 << 10, 48 << 20};
  std::vector<double> Bw{2.0e11, 9.0e10, 4.5e10, 1.2e10};
  std::vector<double> W, B;
  curve(Sizes, Bw, W, B, 0);
  auto P = bandwidthPlateaus(W, B, {{"L1", Sizes[0]}, {"L2", Sizes[1]}, {"L3", Sizes[2]},
                                    {"DRAM", 0}});
  ASSERT_EQ(P.size(), 4u);
  for (size_t K = 0; K < 4; ++K) {
    EXPECT_NEAR(P[K].Bandwidth / Bw[K], 1, 1e-12) << P[K].Level;
    EXPECT_GE(P[K].Points.size(), 2u) << P[K].Level;
    EXPECT_LT(P[K].Flatness, 1e-12) << P[K].Level;
  }
  EXPECT_EQ(P[0].Level, "L1");
  EXPECT_DOUBLE_EQ(P[1].Lo, 2.0 * (48 << 10));
  EXPECT_DOUBLE_EQ(P[1].Hi, 640 << 10);
  EXPECT_EQ(P[3].Level, "DRAM");
  EXPECT_DOUBLE_EQ(P[3].Lo, 4.0 * (48 << 20));
}

TEST(BandwidthPlateaus, NoisyRecoveryWithinOnePercent) {
  std::vector<double> Sizes{32 << 10, 512 << 10, 32 << 20};
  std::vector<double> Bw{1.5e11, 7.0e10, 3.0e10, 8.0e9};
  std::vector<double> W, B;
  curve(Sizes, Bw, W, B, 0.01);
  auto P = bandwidthPlateaus(W, B, {{"L1", Sizes[0]}, {"L2", Sizes[1]}, {"L3", Sizes[2]},
                                    {"DRAM", 0}});
  for (size_t K = 0; K < 4; ++K)
    EXPECT_NEAR(P[K].Bandwidth / Bw[K], 1, 0.01) << P[K].Level;
}

// Levels within a factor 4 of each other: the window widens to [S_(k-1), S_k].
TEST(BandwidthPlateaus, CloseLevelsWiden) {
  std::vector<double> W{4096, 8192, 12288, 16384, 1 << 20};
  std::vector<double> B{100, 100, 50, 50, 10};
  auto P = bandwidthPlateaus(W, B, {{"L1", 8192}, {"L2", 16384}, {"DRAM", 0}});
  EXPECT_DOUBLE_EQ(P[1].Lo, 8192);
  EXPECT_DOUBLE_EQ(P[1].Bandwidth, 50);
  EXPECT_DOUBLE_EQ(P[2].Bandwidth, 10);
}

TEST(BandwidthPlateaus, Errors) {
  EXPECT_THROW(bandwidthPlateaus({1, 2}, {1}, {{"DRAM", 0}}), std::invalid_argument);
  EXPECT_THROW(bandwidthPlateaus({4096}, {1}, {{"L1", 4096}}), std::invalid_argument);
  EXPECT_THROW(bandwidthPlateaus({4096}, {1}, {{"L1", 8192}, {"L2", 4096}, {"DRAM", 0}}),
               std::invalid_argument);
  try {
    bandwidthPlateaus({4096, 8192}, {1, 1}, {{"L1", 16384}, {"DRAM", 0}});
    ADD_FAILURE() << "no DRAM point accepted";
  } catch (const std::invalid_argument &E) {
    EXPECT_NE(std::string(E.what()).find("DRAM"), std::string::npos) << E.what();
  }
}
