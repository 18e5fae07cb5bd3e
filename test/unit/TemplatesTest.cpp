//===- TemplatesTest.cpp - UBC-91 farm/D&C and UTSA-95 heterogeneous NOW --===//
///
/// \file
/// Every expectation is a number computed by hand from the papers' formulas;
/// the computation is in the comment next to it. Times in ms in the comments
/// are seconds in the code.
///
//===----------------------------------------------------------------------===//
#include "predictor/Templates.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

using namespace segtime;

namespace {

constexpr double Ms = 1e-3;

FarmParams farm(unsigned K, unsigned N, double Te, double BetaE, double BetaF, std::uint64_t M,
                double Transfer = 0) {
  FarmParams P;
  P.Arity = K;
  P.Levels = N;
  P.TaskTime = Te;
  P.BetaE = BetaE;
  P.BetaF = BetaF;
  P.TransferTime = Transfer;
  P.Tasks = M;
  return P;
}

//===----------------------------------------------------------------------===//
// Processor farm (UBC-91 §3.2)
//===----------------------------------------------------------------------===//

// Binary tree, N = 3, T_e = 10 ms, β_e = 1 ms, β_f = 2 ms, T_τ = 0.5 ms, M = 1000.
TEST(TemplatesFarm, BinaryTreeClosedFormEqualsRecurrence) {
  FarmParams P = farm(2, 3, 10 * Ms, 1 * Ms, 2 * Ms, 1000, 0.5 * Ms);
  // T_e + β_e = 11 ms, T_e + β_e − β_f = 9 ms, c = 1/11 ms = 1000/11 /s.
  // (d): S_1 = c, S_2 = 2·c·9/11 + c = 29/11·c, S_3 = 2·S_2·9/11 + c = 643/121·c
  //      = 643000/1331 = 483.0954 tasks/s.
  std::vector<double> S = farmLevelThroughputs(P);
  ASSERT_EQ(S.size(), 3u);
  EXPECT_NEAR(S[0], 1000.0 / 11, 1e-9);
  EXPECT_NEAR(S[1], 29000.0 / 121, 1e-9);
  EXPECT_NEAR(S[2], 643000.0 / 1331, 1e-9);
  // (e)/(f): a = 2·9/11 = 18/11, S_3 = (1 − a^3)/(11 ms − 2·9 ms)
  //        = (1 − 5832/1331)/(−0.007) = (4501/1331)/0.007 = 643000/1331.
  EXPECT_NEAR(farmThroughputClosedForm(P), 643000.0 / 1331, 1e-9);

  FarmResult R = analyzeFarm(P);
  EXPECT_DOUBLE_EQ(R.Processors, 7); // 1 + 2 + 4
  EXPECT_NEAR(R.A, 18.0 / 11, 1e-12);
  EXPECT_NEAR(R.Throughput, 643000.0 / 1331, 1e-9);
  EXPECT_EQ(R.Limit, ThroughputLimit::SteadyState); // 2·β_f·S_2 = 0.004·239.7 < 1
  // f_i = 2^{N−i}(S_i − 2S_{i−1})/S_N, in units of c with S_3 = 643/121:
  //   f_1 = 4·1·121/643 = 484/643, f_2 = 2·(29/11 − 2)·121/643 = 154/643,
  //   f_3 = (643/121 − 58/11)·121/643 = 5/643;  484 + 154 + 5 = 643.
  ASSERT_EQ(R.Fractions.size(), 3u);
  EXPECT_NEAR(R.Fractions[0], 484.0 / 643, 1e-12);
  EXPECT_NEAR(R.Fractions[1], 154.0 / 643, 1e-12);
  EXPECT_NEAR(R.Fractions[2], 5.0 / 643, 1e-12);
  // The paper's closed form 2^{N−i}(2a^{i−1} − a^i − 1)/(1 − a^N), i = 1:
  //   4(2 − 18/11 − 1)/(−4501/1331) = 4·7·121/4501 = 3388/4501 = 484/643.
  std::vector<double> FC = farmFractionsClosedForm(P);
  for (unsigned I = 0; I < 3; ++I)
    EXPECT_NEAR(FC[I], R.Fractions[I], 1e-12) << "level " << I + 1;
  // Start-up: (N − 1)(2T_τ + β_f) + T_e + β_e = 2·(1 + 2) + 11 = 17 ms.
  EXPECT_NEAR(R.Startup, 17 * Ms, 1e-15);
  // (g): T = 0.017 + 999/S_3 = 0.017 + 999·1331/643000 = 2.0849145 s.
  EXPECT_NEAR(R.Time, 0.017 + 999.0 * 1331 / 643000, 1e-12);
  // SP = M T_e / T = 10 s / 2.0849145 s = 4.796360.
  EXPECT_NEAR(R.Speedup, 4.796360, 1e-6);
  // Corrected closed form: 10·(1 − a^3) / [999·(11 − 18) ms + 0.017·(1 − a^3)]
  // = the same number.
  EXPECT_NEAR(R.SpeedupClosedForm, R.Speedup, 1e-12);
  // The closed form as printed in UBC-91 (no (M − 1) on k(T_e + β_e − β_f)):
  //   10·(−3.381667)/(999·0.011 − 0.018 + 0.017·(−3.381667)) = −3.0986: wrong.
  double OneMinusA3 = 1 - std::pow(18.0 / 11, 3);
  double Printed = 1000 * 0.010 * OneMinusA3 / (999 * 0.011 - 2 * 0.009 + R.Startup * OneMinusA3);
  EXPECT_NEAR(Printed, -3.0986, 1e-4);
  EXPECT_EQ(R.Efficiency, R.Speedup / 7);
}

// Ternary tree, N = 3, T_e = 10 ms, β_e = β_f = 0.5 ms, M = 500.
TEST(TemplatesFarm, TernaryTreeClosedFormEqualsRecurrence) {
  FarmParams P = farm(3, 3, 10 * Ms, 0.5 * Ms, 0.5 * Ms, 500);
  // T_e + β_e = 10.5 ms, c = 2000/21 /s, q = (10.5 − 0.5)/10.5 = 20/21, a = 3q = 20/7.
  // (d): S_1 = c, S_2 = 3·c·20/21 + c = 27/7·c, S_3 = 3·(27/7)·(20/21)·c + c = 589/49·c
  //      = 1178000/1029 = 1144.8008 tasks/s.
  // (f): (1 − (20/7)^3)/(10.5 − 3·10) ms = (7657/343)/0.0195 = 1178000/1029.
  EXPECT_NEAR(farmLevelThroughputs(P).back(), 1178000.0 / 1029, 1e-9);
  EXPECT_NEAR(farmThroughputClosedForm(P), 1178000.0 / 1029, 1e-9);
  FarmResult R = analyzeFarm(P);
  EXPECT_DOUBLE_EQ(R.Processors, 13);               // 1 + 3 + 9
  EXPECT_EQ(R.Limit, ThroughputLimit::SteadyState); // 3·β_f·S_2 = 0.0015·367.3 < 1
  // f_1 = 9·1/(589/49) = 441/589, f_2 = 3(27/7 − 3)·49/589 = 126/589,
  // f_3 = (589/49 − 81/7)·49/589 = 22/589.
  EXPECT_NEAR(R.Fractions[0], 441.0 / 589, 1e-12);
  EXPECT_NEAR(R.Fractions[1], 126.0 / 589, 1e-12);
  EXPECT_NEAR(R.Fractions[2], 22.0 / 589, 1e-12);
  std::vector<double> FC = farmFractionsClosedForm(P);
  for (unsigned I = 0; I < 3; ++I)
    EXPECT_NEAR(FC[I], R.Fractions[I], 1e-12);
  // Start-up: 2·(0 + 0.5) + 10.5 = 11.5 ms; T = 0.0115 + 499·1029/1178000
  // = 0.4473837 s; SP = 500·0.010/T = 11.176089.
  EXPECT_NEAR(R.Startup, 11.5 * Ms, 1e-15);
  EXPECT_NEAR(R.Time, 0.0115 + 499.0 * 1029 / 1178000, 1e-12);
  EXPECT_NEAR(R.Speedup, 11.176089, 1e-6);
  EXPECT_NEAR(R.SpeedupClosedForm, R.Speedup, 1e-12);
}

TEST(TemplatesFarm, LinearChain) {
  // k = 1, N = 4, T_e = 10 ms, β_e = 1 ms, β_f = 2 ms: a = 9/11,
  // S_4 = (1 − a^4)/β_f = (1 − 6561/14641)/0.002 = 4040000/14641 = 275.937.
  FarmParams P = farm(1, 4, 10 * Ms, 1 * Ms, 2 * Ms, 100);
  EXPECT_NEAR(farmThroughputClosedForm(P), 4040000.0 / 14641, 1e-9);
  EXPECT_NEAR(farmLevelThroughputs(P).back(), 4040000.0 / 14641, 1e-9);
  EXPECT_DOUBLE_EQ(analyzeFarm(P).Processors, 4);
  // β_f = 0: a = 1 and S_N = N/(T_e + β_e) = 4/0.011 = 363.64; equal fractions 1/4.
  FarmParams Q = farm(1, 4, 10 * Ms, 1 * Ms, 0, 100);
  EXPECT_NEAR(farmThroughputClosedForm(Q), 4 / 0.011, 1e-9);
  FarmResult R = analyzeFarm(Q);
  EXPECT_NEAR(R.Throughput, 4 / 0.011, 1e-9);
  for (double F : farmFractionsClosedForm(Q))
    EXPECT_NEAR(F, 0.25, 1e-12);
  // Speedup of one processor: M T_e / (T_e + β_e + (M − 1)(T_e + β_e)) = 10/11.
  FarmParams One = farm(1, 1, 10 * Ms, 1 * Ms, 2 * Ms, 100);
  EXPECT_NEAR(analyzeFarm(One).Speedup, 10.0 / 11, 1e-12);
}

TEST(TemplatesFarm, ForwardingLimitWhenTheSteadyStateDoesNotExist) {
  // Binary, N = 3, T_e = 3 ms, β_e = 1 ms, β_f = 2 ms: a = 2·2/4 = 1, so (f)
  // is its limit S_3 = 3/(T_e + β_e) = 750; (d): 250, 500, 750.
  FarmParams P = farm(2, 3, 3 * Ms, 1 * Ms, 2 * Ms, 1000);
  EXPECT_NEAR(farmThroughputClosedForm(P), 750, 1e-9);
  FarmResult R = analyzeFarm(P);
  EXPECT_NEAR(R.ThroughputRecurrence, 750, 1e-9);
  // Steady-state fractions: f_3 = (S_3 − 2S_2)/S_3 = (750 − 1000)/750 = −1/3,
  // f_1 = 4·250/750 = 4/3; closed-form limit 2^{3−i}(2 − i)/3 gives the same.
  EXPECT_NEAR(R.SteadyFractions[2], -1.0 / 3, 1e-12);
  EXPECT_NEAR(R.SteadyFractions[0], 4.0 / 3, 1e-12);
  std::vector<double> FC = farmFractionsClosedForm(P);
  EXPECT_NEAR(FC[0], 4.0 / 3, 1e-12);
  EXPECT_NEAR(FC[1], 0, 1e-12);
  EXPECT_NEAR(FC[2], -1.0 / 3, 1e-12);
  // The root would have to forward 2·S_2 = 1000 tasks/s but can forward only
  // 1/β_f = 500: it forwards 500, executes none; each level-2 processor gets
  // 250 and forwards all (children accept up to 2·250); leaves get 125 each.
  EXPECT_EQ(R.Limit, ThroughputLimit::Forwarding);
  EXPECT_NEAR(R.Throughput, 500, 1e-9);
  EXPECT_NEAR(R.Fractions[0], 1, 1e-12);
  EXPECT_NEAR(R.Fractions[1], 0, 1e-12);
  EXPECT_NEAR(R.Fractions[2], 0, 1e-12);

  // Ternary, T_e = 10 ms, β_e = 1 ms, β_f = 3 ms: paper S_3 = c(1 + a + a^2),
  // a = 24/11: (1000/11)(961/121) = 961000/1331 = 722.0; but 3·S_2·β_f =
  // 3·289.26·0.003 = 2.6 > 1, so the throughput is 1/β_f = 333.33.
  FarmResult T = analyzeFarm(farm(3, 3, 10 * Ms, 1 * Ms, 3 * Ms, 1000));
  EXPECT_NEAR(T.ThroughputRecurrence, 961000.0 / 1331, 1e-9);
  EXPECT_NEAR(T.Throughput, 1000.0 / 3, 1e-9);
  EXPECT_EQ(T.Limit, ThroughputLimit::Forwarding);
  EXPECT_LT(T.SteadyFractions[2], 0);
}

TEST(TemplatesFarm, TransferLimit) {
  // The binary example with T_τ = 5 ms: 1/(T_τ + β_e) = 1/6 ms = 166.67 < 483.1.
  FarmResult R = analyzeFarm(farm(2, 3, 10 * Ms, 1 * Ms, 2 * Ms, 1000, 5 * Ms));
  EXPECT_EQ(R.Limit, ThroughputLimit::Transfer);
  EXPECT_NEAR(R.Throughput, 1000.0 / 6, 1e-9);
  // Start-up 2·(10 + 2) + 11 = 35 ms; T = 0.035 + 999·0.006 = 6.029 s;
  // SP = 10/6.029 = 1.658650.
  EXPECT_NEAR(R.Time, 6.029, 1e-12);
  EXPECT_NEAR(R.Speedup, 10 / 6.029, 1e-12);
  // Forwarding first: the leaves (4 × 90.9 tasks/s) absorb all 166.67.
  EXPECT_NEAR(R.Fractions[0], 1, 1e-12);
}

TEST(TemplatesFarm, PeakOperatingPoint) {
  // Chain, T_e = 9 ms, β_e = 1 ms, β_f = 5 ms: a = 1 − β_f/(T_e + β_e) = 1/2,
  // S_N = (1 − 2^−N)/β_f. With M = 10^6 the start-up (< 0.1 s against ~2500 s)
  // is negligible, so SP_{N+1}/SP_N = (1 − 2^−(N+1))/(1 − 2^−N):
  //   N = 5: (63/64)/(31/32) = 63/62 = 1.0161 >= 1.01;
  //   N = 6: (127/128)/(63/64) = 127/126 = 1.0079 < 1.01  -> peak at N = 6,
  //   SP_6 = T_e (1 − 1/64)/β_f = 1.8·63/64 = 1.771875.
  FarmParams P = farm(1, 1, 9 * Ms, 1 * Ms, 5 * Ms, 1000000);
  PeakPoint Peak = farmPeak(P, 0.01, 64);
  EXPECT_TRUE(Peak.Found);
  EXPECT_EQ(Peak.Levels, 6u);
  EXPECT_DOUBLE_EQ(Peak.Processors, 6);
  EXPECT_NEAR(Peak.Speedup, 1.771875, 1e-4);
  // Threshold 2%: N = 4 gives 31/30 = 1.033, N = 5 gives 1.0161 < 1.02 -> 5.
  EXPECT_EQ(farmPeak(P, 0.02, 64).Levels, 5u);
  // Not reached within 3 levels.
  PeakPoint Short = farmPeak(P, 0.01, 3);
  EXPECT_FALSE(Short.Found);
  EXPECT_EQ(Short.Levels, 3u);
  std::vector<double> Curve = farmSpeedupCurve(P, 8);
  ASSERT_EQ(Curve.size(), 8u);
  EXPECT_NEAR(Curve[5], Peak.Speedup, 1e-15);
}

TEST(TemplatesFarm, Granularity) {
  // Chain N = 2, T_e = β_e = β_f = 1 ms, M = 1000.
  //  g = 1: a = (2 − 1)/2, S_2 = (1 − 1/4)/0.001 = 750; start-up 1 + 2 = 3 ms;
  //         T = 0.003 + 999/750 = 1.335 s; SP = 1/1.335 = 0.749064.
  //  g = 4: T_e' = 4 ms, M' = 250, a = 4/5, S_2 = (1 − 16/25)/0.001 = 360;
  //         start-up 1 + 5 = 6 ms; T = 0.006 + 249/360 = 0.697667 s;
  //         SP = (1000 × 1 ms)/T = 1.433349.
  FarmParams P = farm(1, 2, 1 * Ms, 1 * Ms, 1 * Ms, 1000);
  std::vector<GranularityRow> Rows = farmGranularity(P, {1, 4}, 2);
  ASSERT_EQ(Rows.size(), 2u);
  EXPECT_NEAR(Rows[0].Speedup[1], 1 / 1.335, 1e-12);
  EXPECT_NEAR(Rows[1].TaskTime, 4 * Ms, 1e-15);
  EXPECT_NEAR(Rows[1].Speedup[1], 1 / (0.006 + 249.0 / 360), 1e-12);
  EXPECT_EQ(farmPacked(P, 3).Tasks, 334u); // ceil(1000/3)
}

//===----------------------------------------------------------------------===//
// Divide and conquer (UBC-91 §3.3)
//===----------------------------------------------------------------------===//

TEST(TemplatesDC, RecurrenceStartupSpeedup) {
  // Binary, N = 3, whole task 40 ms: T_e(1..3) = 10, 20, 40 ms; T_s = T_j = 1 ms,
  // β_e = 1 ms, β_f = 2 ms, T_τ = 0.5 ms, M = 100.
  DCParams P = dcUniform(2, 3, 40 * Ms, 1 * Ms, 1 * Ms, 0.5 * Ms, 1 * Ms, 2 * Ms, 100);
  EXPECT_NEAR(P.TaskTime[0], 10 * Ms, 1e-15);
  // (j): S_1 = 1/11 ms = 1000/11;
  //      S_2 = S_1 (21 − 4)/21 + 1/21 ms = (17000 + 11000)/231 = 28000/231 = 121.21;
  //      S_3 = S_2 (41 − 4)/41 + 1/41 ms = (1036000 + 231000)/9471 = 1267000/9471
  //          = 133.777 tasks/s.
  std::vector<double> S = dcLevelThroughputs(P);
  EXPECT_NEAR(S[0], 1000.0 / 11, 1e-9);
  EXPECT_NEAR(S[1], 28000.0 / 231, 1e-9);
  EXPECT_NEAR(S[2], 1267000.0 / 9471, 1e-9);
  // (k): t_max = 2 ms, S_max = 1/(2 + 2) ms = 250 > S_3: the steady state holds.
  EXPECT_NEAR(dcSMax(P), 250, 1e-9);
  DCResult R = analyzeDC(P);
  EXPECT_EQ(R.Limit, ThroughputLimit::SteadyState);
  EXPECT_NEAR(R.Throughput, 1267000.0 / 9471, 1e-9);
  EXPECT_NEAR(R.ThroughputPaperRule, R.Throughput, 1e-9);
  // f_i = (S_i − S_{i−1})/S_3: f_1 = 9471/13937 = 0.679558, f_2 = 287/1267,
  // f_3 = 119/1267 (9471 + 3157 + 1309 = 13937).
  EXPECT_NEAR(R.Fractions[0], 9471.0 / 13937, 1e-12);
  EXPECT_NEAR(R.Fractions[1], 287.0 / 1267, 1e-12);
  EXPECT_NEAR(R.Fractions[2], 119.0 / 1267, 1e-12);
  // Start-up: Σ_{i=2,3} (2·0.5 + 1 + 1 + 2) + T_e(1) + β_e = 10 + 11 = 21 ms.
  EXPECT_NEAR(R.Startup, 21 * Ms, 1e-15);
  // T = 0.021 + 99·9471/1267000 = 0.761038 s; SP = 100·40 ms/T = 5.255975.
  EXPECT_NEAR(R.Time, 0.021 + 99.0 * 9471 / 1267000, 1e-12);
  EXPECT_NEAR(R.Speedup, 4 / (0.021 + 99.0 * 9471 / 1267000), 1e-12);
  EXPECT_NEAR(R.Speedup, 5.255975, 1e-6);
  EXPECT_DOUBLE_EQ(R.Processors, 7);
}

TEST(TemplatesDC, SMaxBinds) {
  // As above with T_s = T_j = 5 ms: S_max = 1/(10 + 2) ms = 83.333 tasks/s,
  // and S_1 = 90.909 >= S_max, so UBC-91's rule gives S_max (inner levels only
  // split). (j) alone: S_2 = (1000/11)(9/21) + 1000/21 = 20000/231 = 86.58,
  // S_3 = (20000/231)(29/41) + 1000/41 = 811000/9471 = 85.63 > S_max.
  DCParams P = dcUniform(2, 3, 40 * Ms, 5 * Ms, 5 * Ms, 0, 1 * Ms, 2 * Ms, 100);
  DCResult R = analyzeDC(P);
  EXPECT_NEAR(R.SMax, 1000.0 / 12, 1e-9);
  EXPECT_NEAR(R.ThroughputRecurrence, 811000.0 / 9471, 1e-9);
  EXPECT_NEAR(R.ThroughputPaperRule, 1000.0 / 12, 1e-9);
  EXPECT_NEAR(R.Throughput, 1000.0 / 12, 1e-9);
  EXPECT_EQ(R.Limit, ThroughputLimit::Forwarding);
  EXPECT_LT(R.SteadyFractions[1], 0);    // f_2 = (S_2 − S_1)/S_3 < 0
  EXPECT_NEAR(R.Fractions[0], 1, 1e-12); // the leaves execute everything
  EXPECT_NEAR(R.Fractions[2], 0, 1e-12);
}

TEST(TemplatesDC, LevelWiseLimitEqualsThePaperRuleForUniformCosts) {
  // Equal T_s + T_j on every level and T_e(i) = T_e/2^{N−i}: UBC-91's rule
  // (S_N if S_1 < S_max, else S_max) and the level-wise limit give one value.
  for (unsigned N = 1; N <= 6; ++N)
    for (double Te : {1 * Ms, 10 * Ms, 100 * Ms})
      for (double Ts : {0.0, 1 * Ms, 5 * Ms})
        for (double BetaF : {0.0, 2 * Ms}) {
          DCResult R = analyzeDC(dcUniform(2, N, Te, Ts, Ts, 0, 1 * Ms, BetaF, 100));
          EXPECT_NEAR(R.Throughput, R.ThroughputPaperRule, 1e-9 * R.Throughput)
              << "N=" << N << " T_e=" << Te << " T_s=T_j=" << Ts << " beta_f=" << BetaF;
        }
}

TEST(TemplatesDC, SingleLevelAndPeak) {
  // N = 1: S_1 = 1/(T_e + β_e), no S_max, start-up T_e + β_e, SP = M T_e / (M (T_e + β_e)).
  DCResult R = analyzeDC(dcUniform(2, 1, 10 * Ms, 1 * Ms, 1 * Ms, 0, 1 * Ms, 2 * Ms, 10));
  EXPECT_NEAR(R.Throughput, 1000.0 / 11, 1e-9);
  EXPECT_TRUE(std::isinf(R.SMax));
  EXPECT_NEAR(R.Speedup, 10.0 / 11, 1e-12);
  // Peak of the first example (speedup rises to N = 5 then falls: more levels
  // add start-up while S_N approaches S_max = 250).
  PeakPoint Peak = dcPeak(2, 40 * Ms, 1 * Ms, 1 * Ms, 0.5 * Ms, 1 * Ms, 2 * Ms, 100);
  std::vector<double> C =
      dcSpeedupCurve(2, 40 * Ms, 1 * Ms, 1 * Ms, 0.5 * Ms, 1 * Ms, 2 * Ms, 100, Peak.Levels + 1);
  EXPECT_TRUE(Peak.Found);
  EXPECT_LT(C[Peak.Levels], 1.01 * C[Peak.Levels - 1]);
  EXPECT_GE(C[Peak.Levels - 1], 1.01 * C[Peak.Levels - 2]);
}

//===----------------------------------------------------------------------===//
// General framework (UBC-91 §3.1)
//===----------------------------------------------------------------------===//

TEST(TemplatesFramework, IrregularTreeByHand) {
  // Root 0 with children 1 and 2; 3 is a child of 2. T_e = 10, β_e = 1, β_f = 2 ms.
  // With t = T/M in ms: leaves 11 f_1 = t, 11 f_3 = t; node 2: 11 f_2 + 2 f_3 = t;
  // root: 11 f_0 + 2(f_1 + f_2 + f_3) = t. So f_1 = f_3 = t/11, f_2 = 9t/121,
  // f_0 = (t − 2·31t/121)/11 = 59t/1331; Σ f = 400t/1331 = 1 -> t = 3.3275 ms,
  // throughput 400000/1331 = 300.53 tasks/s; f = (59, 121, 99, 121)/400.
  FrameworkSolution S = solveFramework(farmOnTree({-1, 0, 0, 2}, {10 * Ms}, 1 * Ms, 2 * Ms));
  EXPECT_TRUE(S.Feasible);
  EXPECT_NEAR(S.TimePerTask, 1.331 / 400, 1e-15);
  EXPECT_NEAR(S.Throughput, 400000.0 / 1331, 1e-9);
  EXPECT_NEAR(S.Fractions[0], 59.0 / 400, 1e-12);
  EXPECT_NEAR(S.Fractions[1], 121.0 / 400, 1e-12);
  EXPECT_NEAR(S.Fractions[2], 99.0 / 400, 1e-12);
  EXPECT_NEAR(S.Fractions[3], 121.0 / 400, 1e-12);
  EXPECT_NEAR(S.Forwarded[0], 341.0 / 400, 1e-12); // f_1 + f_2 + f_3
  // The tree farm: start-up 2·(0 + 2) + 11 = 15 ms, SP = 10 s/(0.015 + 999·0.0033275).
  TreeFarmParams P;
  P.Parent = {-1, 0, 0, 2};
  P.TaskTime = {10 * Ms};
  P.BetaE = 1 * Ms;
  P.BetaF = 2 * Ms;
  P.Tasks = 1000;
  TreeFarmResult R = analyzeFarmOnTree(P);
  EXPECT_EQ(R.Depth, 2u);
  EXPECT_NEAR(R.Throughput, 400000.0 / 1331, 1e-9);
  EXPECT_NEAR(R.Startup, 15 * Ms, 1e-15);
  EXPECT_NEAR(R.Speedup, 10 / (0.015 + 999 * 1.331 / 400), 1e-9); // = 2.994754
}

TEST(TemplatesFramework, BalancedTreesReproduceTheRecurrences) {
  // Binary farm of the first test as 7 explicit processors: T/M = 1/S_3 and the
  // per-processor fractions are f_i / 2^{N−i}.
  std::vector<int> Parent = balancedTreeParents(2, 3);
  ASSERT_EQ(Parent.size(), 7u);
  EXPECT_EQ(treeDepth(Parent), 2u);
  FrameworkSolution S = solveFramework(farmOnTree(Parent, {10 * Ms}, 1 * Ms, 2 * Ms));
  EXPECT_NEAR(S.Throughput, 643000.0 / 1331, 1e-8);
  EXPECT_NEAR(S.Fractions[0], 5.0 / 643, 1e-12);       // root, level 3
  EXPECT_NEAR(S.Fractions[1], 154.0 / 643 / 2, 1e-12); // level 2
  EXPECT_NEAR(S.Fractions[6], 484.0 / 643 / 4, 1e-12); // a leaf
  // analyzeFarmOnTree equals analyzeFarm, also off the steady state.
  for (double BetaF : {2 * Ms, 3 * Ms}) {
    FarmResult F = analyzeFarm(farm(3, 3, 10 * Ms, 1 * Ms, BetaF, 1000, 0.5 * Ms));
    TreeFarmParams P;
    P.Parent = balancedTreeParents(3, 3);
    P.TaskTime = {10 * Ms};
    P.BetaE = 1 * Ms;
    P.BetaF = BetaF;
    P.TransferTime = 0.5 * Ms;
    P.Tasks = 1000;
    TreeFarmResult T = analyzeFarmOnTree(P);
    EXPECT_NEAR(T.Throughput, F.Throughput, 1e-9);
    EXPECT_EQ(T.Limit, F.Limit);
    EXPECT_NEAR(T.Fractions[0], F.Fractions[2], 1e-12);
    EXPECT_NEAR(T.Startup, F.Startup, 1e-15);
    EXPECT_NEAR(T.Speedup, F.Speedup, 1e-9);
    EXPECT_EQ(T.Framework.Feasible, F.Limit == ThroughputLimit::SteadyState);
  }
  // D&C by levels: the §3.1 system gives S_3 = 1267000/9471 of (j).
  DCParams D = dcUniform(2, 3, 40 * Ms, 1 * Ms, 1 * Ms, 0.5 * Ms, 1 * Ms, 2 * Ms, 100);
  FrameworkSolution DS = solveFramework(dcLevelSystem(D));
  EXPECT_NEAR(DS.Throughput, 1267000.0 / 9471, 1e-8);
  EXPECT_NEAR(DS.Fractions[0], 9471.0 / 13937, 1e-12);
  EXPECT_NEAR(DS.Fractions[2], 119.0 / 1267, 1e-12);
}

//===----------------------------------------------------------------------===//
// Heterogeneous networks of workstations (UTSA-95)
//===----------------------------------------------------------------------===//

TEST(TemplatesHetero, PaperHeterogeneityExample) {
  // UTSA-95 §3.1.1: 100 workstations, the fastest of weight 1, 99 of 0.5:
  // H = 99·(1 − 0.5)/100 = 0.495 (the paper rounds to 0.5). Doubling the
  // fastest: 99 of 0.25, H = 99·0.75/100 = 0.7425 (paper: 0.75).
  std::vector<double> Speeds(100, 1.0);
  Speeds[0] = 2;
  std::vector<double> W = powerWeightsFromSpeeds(Speeds);
  EXPECT_DOUBLE_EQ(W[0], 1);
  EXPECT_DOUBLE_EQ(W[1], 0.5);
  EXPECT_NEAR(heterogeneity(W), 0.495, 1e-12);
  Speeds[0] = 4;
  EXPECT_NEAR(heterogeneity(powerWeightsFromSpeeds(Speeds)), 0.7425, 1e-12);
  // Eq. 2, from times: 10, 20, 40 s -> W = 1, 0.5, 0.25; H = 1.25/3.
  std::vector<double> WT = powerWeightsFromTimes({10, 20, 40});
  EXPECT_DOUBLE_EQ(WT[1], 0.5);
  EXPECT_DOUBLE_EQ(WT[2], 0.25);
  EXPECT_NEAR(heterogeneity(WT), 1.25 / 3, 1e-12);
}

TEST(TemplatesHetero, DedicatedBalanced) {
  // Speeds 2, 1, 1, |A| = 2, work in proportion to speed: |A_j| = 1, 0.5, 0.5,
  // every machine computes 0.5 s, T(A,HN) = 0.5 s. W = 1, 0.5, 0.5, H = 1/3;
  // P_deg = 1.5/0.5 = 3 (eq. 5); SP = (2/2)/0.5 = 2 = P_deg(1 − H) = 3·2/3 (eq. 6);
  // E = SP/ΣW = 2/2 = 1 (eq. 14).
  HeteroParams P;
  P.Speeds = {2, 1, 1};
  P.Size = 2;
  HeteroResult R = analyzeHetero(P);
  EXPECT_NEAR(R.Heterogeneity, 1.0 / 3, 1e-12);
  EXPECT_NEAR(R.ParallelTime, 0.5, 1e-12);
  EXPECT_NEAR(R.ParallelismDegree, 3, 1e-12);
  EXPECT_NEAR(R.Speedup, 2, 1e-12);
  EXPECT_NEAR(R.SpeedupProperty1, 2, 1e-12);
  EXPECT_NEAR(R.Efficiency, 1, 1e-12);
  EXPECT_NEAR(dedicatedEfficiency(R.Speedup, R.Weights), 1, 1e-12);
  EXPECT_NEAR(R.DeltaA, 1, 1e-12);
  EXPECT_NEAR(R.LatencyUnit, 0, 1e-12);
}

TEST(TemplatesHetero, OwnerUtilisationByHand) {
  // Two workstations, S = 2, 1 (W = 1, 0.5), U = 0.5, 0, |A| = 2, balanced by
  // available power (1 − U)S = 1, 1: |A_j| = 1, 1; T_eff = 0.5 s, 1 s.
  // Workstation 2 also communicates 0.5 s.
  // Wall times: 0.5/(1 − 0.5) = 1 s and (1 + 0.5)/1 = 1.5 s -> T(A,HN) = 1.5 s.
  // Owner times U_j T = 0.75, 0 s. Single-machine (nondedicated) times
  // 2/(2·0.5) = 2 s, 2/1 = 2 s.
  // Eq. 10: E = (1·0.5 + 0.5·1)/((1.5 − 0.75)·1 + 1.5·0.5) = 1/1.5 = 2/3.
  // Definition 1: SP = 2/1.5 = 4/3. Eq. 11: Δ_A = (2/2)/2 = 0.5.
  // Eq. 12: E = SP Δ_A / Σ(1 − U)W = (4/3)(0.5)/(0.5 + 0.5) = 2/3 (= eq. 10).
  // Eq. 13: E = 1 at SP = 1/0.5 = 2.
  // Eq. 5: P_deg = (0.5 + 1)/1.5 = 1; H = 0.25; eq. 6: P_deg(1 − H) = 0.75.
  // overhead(j) = T − T_owner − T_eff = 1.5 − 0.75 − 0.5 = 0.25, 1.5 − 0 − 1 = 0.5;
  // eq. 15: L_ave = 0.25·1 + 0.5·0.5 = 0.5 s; eq. 16: L = 0.5/1.5 = 1/3 s.
  HeteroParams P;
  P.Speeds = {2, 1};
  P.OwnerUtil = {0.5, 0};
  P.CommTime = {0, 0.5};
  P.Size = 2;
  HeteroResult R = analyzeHetero(P);
  EXPECT_NEAR(R.ParallelTime, 1.5, 1e-12);
  EXPECT_NEAR(R.Efficiency, 2.0 / 3, 1e-12);
  EXPECT_NEAR(R.EfficiencyProperty2, 2.0 / 3, 1e-12);
  EXPECT_NEAR(R.Speedup, 4.0 / 3, 1e-12);
  EXPECT_NEAR(R.DeltaA, 0.5, 1e-12);
  EXPECT_NEAR(R.LinearSpeedup, 2, 1e-12);
  EXPECT_NEAR(R.ParallelismDegree, 1, 1e-12);
  EXPECT_NEAR(R.SpeedupProperty1, 0.75, 1e-12);
  EXPECT_NEAR(R.Overheads[0], 0.25, 1e-12);
  EXPECT_NEAR(R.Overheads[1], 0.5, 1e-12);
  EXPECT_NEAR(R.AverageOverheadLatency, 0.5, 1e-12);
  EXPECT_NEAR(R.LatencyUnit, 1.0 / 3, 1e-12);
  // Without communication the same network is fully efficient: T = 1 s,
  // E = 1/((1 − 0.5)·1 + 1·0.5) = 1, SP = 2/1 = 2 = the eq. 13 linear speedup.
  P.CommTime.clear();
  HeteroResult Q = analyzeHetero(P);
  EXPECT_NEAR(Q.Efficiency, 1, 1e-12);
  EXPECT_NEAR(Q.Speedup, 2, 1e-12);
  // Eq. 12 directly: 2·0.5/(0.5·1 + 1·0.5) = 1.
  EXPECT_NEAR(heteroEfficiencyFromSpeedup(2, 0.5, {0.5, 0}, {1, 0.5}), 1, 1e-12);
  // Eq. 17: latency units 1/3 s (HN_1) and 0.5 s (HN_2) -> scale = 2/3.
  EXPECT_NEAR(heteroScalability(1.0 / 3, 0.5), 2.0 / 3, 1e-12);
}

//===----------------------------------------------------------------------===//
// Invalid input
//===----------------------------------------------------------------------===//

TEST(TemplatesErrors, InvalidInputThrows) {
  EXPECT_THROW(analyzeFarm(farm(0, 3, 1, 0, 0, 1)), std::invalid_argument);     // k < 1
  EXPECT_THROW(analyzeFarm(farm(2, 0, 1, 0, 0, 1)), std::invalid_argument);     // N < 1
  EXPECT_THROW(analyzeFarm(farm(2, 3, -1, 0, 0, 1)), std::invalid_argument);    // T_e < 0
  EXPECT_THROW(analyzeFarm(farm(2, 3, 0, 0, 0, 1)), std::invalid_argument);     // T_e = 0
  EXPECT_THROW(analyzeFarm(farm(2, 3, 1, -1, 0, 1)), std::invalid_argument);    // β_e < 0
  EXPECT_THROW(analyzeFarm(farm(2, 3, 1, 0, -1, 1)), std::invalid_argument);    // β_f < 0
  EXPECT_THROW(analyzeFarm(farm(2, 3, 1, 0, 0, 1, -1)), std::invalid_argument); // T_τ < 0
  EXPECT_THROW(analyzeFarm(farm(2, 3, 1, 0, 0, 0)), std::invalid_argument);     // M < 1
  EXPECT_THROW(analyzeFarm(farm(2, 3, std::nan(""), 0, 0, 1)), std::invalid_argument);
  EXPECT_THROW(farmPeak(farm(2, 3, 1, 0, 0, 1), -0.1), std::invalid_argument);
  EXPECT_THROW(farmPacked(farm(2, 3, 1, 0, 0, 1), 0), std::invalid_argument);
  try {
    analyzeFarm(farm(0, 3, 1, 0, 0, 1));
  } catch (const std::invalid_argument &E) {
    EXPECT_NE(std::string(E.what()).find("arity k must be >= 1"), std::string::npos);
  }

  DCParams D = dcUniform(2, 3, 1, 0, 0, 0, 0, 0, 1);
  D.TaskTime.pop_back();
  EXPECT_THROW(analyzeDC(D), std::invalid_argument); // one T_e per level
  D = dcUniform(2, 3, 1, 0, 0, 0, 0, 0, 1);
  D.SplitTime[1] = -1;
  EXPECT_THROW(analyzeDC(D), std::invalid_argument);
  EXPECT_THROW(dcUniform(2, 3, -1, 0, 0, 0, 0, 0, 1), std::invalid_argument);

  EXPECT_THROW(treeDepth({}), std::invalid_argument);
  EXPECT_THROW(treeDepth({-1, -1}), std::invalid_argument);   // two roots
  EXPECT_THROW(treeDepth({-1, 2, 1}), std::invalid_argument); // cycle 1 <-> 2
  EXPECT_THROW(treeDepth({-1, 5}), std::invalid_argument);
  FrameworkSystem Bad;
  Bad.ExecCost = {1, 1};
  Bad.ForwardCost = {0};
  Bad.Forward = {{0, 0}, {0, 0}};
  EXPECT_THROW(solveFramework(Bad), std::invalid_argument);

  EXPECT_THROW(powerWeightsFromSpeeds({}), std::invalid_argument); // empty speed list
  EXPECT_THROW(powerWeightsFromSpeeds({1, 0}), std::invalid_argument);
  EXPECT_THROW(powerWeightsFromTimes({1, -2}), std::invalid_argument);
  EXPECT_THROW(heterogeneity({1, 1.5}), std::invalid_argument);
  EXPECT_THROW(heterogeneity({}), std::invalid_argument);
  EXPECT_THROW(heteroSpeedupProperty1(2, 1), std::invalid_argument);
  EXPECT_THROW(workloadFactor(2, 1), std::invalid_argument); // Δ_A > 1
  HeteroParams H;
  H.Speeds = {1, 2};
  H.Size = 1;
  H.OwnerUtil = {1, 0}; // U must be < 1
  EXPECT_THROW(analyzeHetero(H), std::invalid_argument);
  H.OwnerUtil = {0.1};
  EXPECT_THROW(analyzeHetero(H), std::invalid_argument);
  H.OwnerUtil.clear();
  H.Size = 0;
  EXPECT_THROW(analyzeHetero(H), std::invalid_argument);
}

} // namespace
