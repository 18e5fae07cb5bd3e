//===- IccSplitLoadTest.cpp - ICC: vector loads across a cache line -------===//
///
/// \file
/// The expected share of a vector load's executions that cross a 64-byte
/// line (passes/IccChainsOpcodes.h lineCrossShare, intelOperandBytes,
/// alignedVectorMove) and ICCModel::blockRThroughput / blockCycles with the
/// split loads' RUV keys (passes/IccChains.h addSplitLoads, docs/models.md
/// "ICC" 4f) against hand-computed values; a machine file without
/// "throughput.load.split" predicts as without the keys.
///
//===----------------------------------------------------------------------===//
#include "core/Vocabulary.h"
#include "passes/IccChainsOpcodes.h"
#include "predictor/Formula.h"
#include "predictor/ResourceModel.h"
#include "IccTestBlocks.h"
#include "TestInputs.h"

#include <gtest/gtest.h>

using namespace segtime;
using namespace segtime_test;
using icc::alignedVectorMove;
using icc::intelOperandBytes;
using icc::lineCrossShare;

TEST(ICCSplitLoads, OperandWidthFromIntelSyntax) {
  EXPECT_EQ(intelOperandBytes("vaddps ymm4, ymm4, ymmword ptr [r12 + 4*rax - 4]"), 32u);
  EXPECT_EQ(intelOperandBytes("vmovups xmm0, xmmword ptr [rdi]"), 16u);
  EXPECT_EQ(intelOperandBytes("vmovupd zmm1, zmmword ptr [rsi + 8*rcx + 64]"), 64u);
  EXPECT_EQ(intelOperandBytes("vmovsd xmm0, qword ptr [rax + 8]"), 8u);
  EXPECT_EQ(intelOperandBytes("vbroadcastss ymm3, dword ptr [rip + .LCPI0_0]"), 4u);
  EXPECT_EQ(intelOperandBytes("vaddps zmm0, zmm0, dword ptr [rax]{1to16}"), 4u);
  EXPECT_EQ(intelOperandBytes("vpmovzxbw ymm0, xmmword ptr [rdx]"), 16u);
  EXPECT_EQ(intelOperandBytes("movzx eax, byte ptr [rdi]"), 1u);
  EXPECT_EQ(intelOperandBytes("movzx eax, word ptr [rdi]"), 2u);
  EXPECT_EQ(intelOperandBytes("fld tbyte ptr [rsp]"), 10u);
  // No size keyword: lea, prefetch, registers only.
  EXPECT_EQ(intelOperandBytes("lea rax, [rdi + 8*rsi]"), 0u);
  EXPECT_EQ(intelOperandBytes("prefetcht0 byte ptr"), 0u);
  EXPECT_EQ(intelOperandBytes("vaddps ymm0, ymm1, ymm2"), 0u);
  EXPECT_EQ(intelOperandBytes(""), 0u);
}

TEST(ICCSplitLoads, ShareOverTheAllocatorsAlignment) {
  // 32 B at a multiple of 16 from a 16 B aligned base: positions 0, 16, 32,
  // 48 of the line; only 48 (48..79) crosses.
  EXPECT_DOUBLE_EQ(lineCrossShare(32, 0), 0.25);
  EXPECT_DOUBLE_EQ(lineCrossShare(32, 64), 0.25);
  EXPECT_DOUBLE_EQ(lineCrossShare(32, -16), 0.25);
  // blur9's in[j - 1], in[j + 1] of floats (displacements -8, -4, 0 from
  // the base register): 4, 20, 36, 52 or 8, 24, 40, 56 -> two of four.
  EXPECT_DOUBLE_EQ(lineCrossShare(32, -4), 0.5);
  EXPECT_DOUBLE_EQ(lineCrossShare(32, -8), 0.5);
  EXPECT_DOUBLE_EQ(lineCrossShare(32, 8), 0.5);
  // 16 B: none at multiples of 16, one position in four otherwise.
  EXPECT_DOUBLE_EQ(lineCrossShare(16, 0), 0);
  EXPECT_DOUBLE_EQ(lineCrossShare(16, 8), 0.25);
  // 64 B (AVX-512): every position but 0; any other offset always.
  EXPECT_DOUBLE_EQ(lineCrossShare(64, 0), 0.75);
  EXPECT_DOUBLE_EQ(lineCrossShare(64, 8), 1);
  // Scalars at a multiple of their width never cross.
  EXPECT_DOUBLE_EQ(lineCrossShare(8, 0), 0);
  EXPECT_DOUBLE_EQ(lineCrossShare(8, 24), 0);
  EXPECT_DOUBLE_EQ(lineCrossShare(4, -4), 0);
  // Other base alignments: 4 B (any float): (32 - 4) / 64; 32 B: none at
  // multiples of 32; the line's own alignment: the one position.
  EXPECT_DOUBLE_EQ(lineCrossShare(32, 0, 4), 28.0 / 64);
  EXPECT_DOUBLE_EQ(lineCrossShare(32, 0, 32), 0);
  EXPECT_DOUBLE_EQ(lineCrossShare(32, 36, 64), 1);
  EXPECT_DOUBLE_EQ(lineCrossShare(32, 32, 64), 0);
  EXPECT_DOUBLE_EQ(lineCrossShare(32, 36, 128), 1);
  // Wider than a line; unknown width.
  EXPECT_DOUBLE_EQ(lineCrossShare(128, 0), 1);
  EXPECT_DOUBLE_EQ(lineCrossShare(0, 4), 0);
}

TEST(ICCSplitLoads, AlignedMovesNeverCross) {
  for (const char *Aligned : {"VMOVAPSYrm", "VMOVAPDrm", "MOVAPSrm", "VMOVDQAYrm",
                              "VMOVDQA64Z256rm", "VMOVNTDQAYrm", "MOVNTDQArm"})
    EXPECT_TRUE(alignedVectorMove(Aligned)) << Aligned;
  for (const char *Other : {"VMOVUPSYrm", "VMOVUPDrm", "VMOVDQUYrm", "VADDPSYrm",
                            "VFMADD231PDYm", "VBROADCASTSSYrm", "LDRQui", ""})
    EXPECT_FALSE(alignedVectorMove(Other)) << Other;
}

namespace {

/// The hand machine; with Split, a crossing load at 1 cycle (0.25 ns: Zen
/// 5, two load-pipe slots of two).
Machine splitMachine(bool Split) {
  std::map<std::string, double> C{{"throughput.fp.fma", 0.125}};
  if (Split)
    C["throughput.load.split"] = 0.25;
  return handIccMachine(C);
}

/// blur9's vector loop (-O2 -march=znver5 -mno-avx512f) as the plugin
/// records it: 9 ymm loads (3 at displacement 0: 1/4 each; 6 at -8, -4:
/// 1/2 each) and a store on the model's two FP load pipes, R = 10 / 2 = 5.
/// Crossing loads s = 3.75; the rest of the pipes (10 - 3.75) / 2.
const std::map<std::string, double> Blur9{{"cycles", 5.25},
                                          {"rthroughput", 5},
                                          {"uops", 17},
                                          {"tp.load.split", 3.75},
                                          {"tp.load.split.shared", 3.125}};

} // namespace

TEST(ICCSplitLoads, MeasuredCostRaisesTheLoadPipesBound) {
  ICCModel I(splitMachine(true), "t", "O2");
  EXPECT_DOUBLE_EQ(I.portThroughputs().at("load.split"), 1);
  // 3.125 + 3.75 x 1 = 6.875 cycles; at its port bound: 5.25 - 5 + 6.875.
  Ruv B = iccBlock(Blur9);
  EXPECT_DOUBLE_EQ(I.blockRThroughput(B), 6.875);
  EXPECT_NEAR(I.blockCycles(B), 7.125, 1e-12);
  EXPECT_NEAR(iccSeconds(I, B), 7.125 * 0.25e-9, 1e-21);
  // Bound elsewhere (8 FMAs on two pipes, R = 4 from the FMA class at 0.5
  // cycle each): the loads' 1 + 2 x 1 = 3 cycles change nothing.
  Ruv F = iccBlock({{"cycles", 8},
                 {"rthroughput", 8},
                 {"tp.fp.fma", 8},
                 {"tp.rest", 3},
                 {"tp.shared", 0},
                 {"tp.load.split", 2},
                 {"tp.load.split.shared", 1}});
  EXPECT_DOUBLE_EQ(I.blockRThroughput(F), 4);
  EXPECT_DOUBLE_EQ(I.blockCycles(F), 4);
  // A block above its port bound (a latency the chains do not class):
  // no faster than the corrected bound, c' = max(c, R') = 9.
  Ruv L = iccBlock({{"cycles", 7}, {"rthroughput", 5}, {"tp.load.split", 6},
                 {"tp.load.split.shared", 3}});
  EXPECT_DOUBLE_EQ(I.blockRThroughput(L), 9);
  EXPECT_DOUBLE_EQ(I.blockCycles(L), 9);
  Ruv Slow = iccBlock({{"cycles", 12}, {"rthroughput", 5}, {"tp.load.split", 6},
                    {"tp.load.split.shared", 3}});
  EXPECT_DOUBLE_EQ(I.blockCycles(Slow), 12);
}

TEST(ICCSplitLoads, WithoutTheEntryAsBefore) {
  ICCModel I(splitMachine(false), "t", "O2");
  EXPECT_EQ(I.portThroughputs().count("load.split"), 0u);
  Ruv B = iccBlock(Blur9), Plain = iccBlock(withoutKeys(Blur9, "tp.load.split"));
  EXPECT_DOUBLE_EQ(I.blockRThroughput(B), 5);
  EXPECT_DOUBLE_EQ(I.blockCycles(B), 5.25);
  EXPECT_DOUBLE_EQ(iccSeconds(I, B), iccSeconds(I, Plain));
  // The shipped EPYC5 file without its entry: as the same block without
  // the keys; the files that never had it alike.
  Machine M = readMachine(segtime_test::shippedMachine("znver5-epyc"));
  for (auto &[Name, V] : M.Levels[Level::ICC])
    V.Costs.erase("throughput.load.split");
  ICCModel E(M, "t", "O2");
  EXPECT_EQ(E.portThroughputs().count("load.split"), 0u);
  EXPECT_DOUBLE_EQ(iccSeconds(E, B), iccSeconds(E, Plain));
  for (auto [File, Target] : {std::pair<const char *, const char *>{"znver5", "znver5"},
                               {"znver4", "znver4"},
                               {"znver3-epyc", "t"},
                               {"icelake-server", "icelake-server"}}) {
    ICCModel O(readMachine(segtime_test::shippedMachine(File)), Target, "O2");
    auto Key = ruvKey(Level::ICC, Target);
    Node S = iccStage(B), P = iccStage(Plain);
    S.Ruvs = {{Key, B}};
    P.Ruvs = {{Key, Plain}};
    EXPECT_DOUBLE_EQ(evaluate(O.timeWeight()(S), {}), evaluate(O.timeWeight()(P), {})) << File;
    EXPECT_GT(evaluate(O.timeWeight()(S), {}), 0) << File;
  }
}
