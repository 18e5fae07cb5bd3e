//===- IccMaskedStoreTest.cpp - ICC: masked stores at a measured throughput ===//
///
/// \file
/// The masked-move classes by opcode name (passes/IccChainsOpcodes.h) and
/// ICCModel::blockRThroughput with the masked stores' RUV keys
/// (passes/IccChains.h addMaskedStores, docs/models.md "ICC" 4c) against
/// hand-computed values; a machine file without "throughput.store.masked"
/// predicts as without the keys.
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
using icc::MaskedMove;
using icc::maskedMove;

TEST(ICCMaskedMoves, VexMaskedStoresAndLoads) {
  for (const char *Store : {"VMASKMOVPSmr", "VMASKMOVPSYmr", "VMASKMOVPDmr", "VMASKMOVPDYmr",
                            "VPMASKMOVDmr", "VPMASKMOVDYmr", "VPMASKMOVQmr", "VPMASKMOVQYmr"})
    EXPECT_EQ(maskedMove(Store), MaskedMove::Store) << Store;
  for (const char *Load : {"VMASKMOVPSrm", "VMASKMOVPSYrm", "VMASKMOVPDrm", "VMASKMOVPDYrm",
                           "VPMASKMOVDrm", "VPMASKMOVDYrm", "VPMASKMOVQrm", "VPMASKMOVQYrm"})
    EXPECT_EQ(maskedMove(Load), MaskedMove::Load) << Load;
}

TEST(ICCMaskedMoves, OtherMovesAreNotMasked) {
  // Non-temporal byte-masked stores, AVX-512 masked moves ({k}: one
  // micro-op in the model), ordinary moves, AArch64 and truncated names.
  for (const char *Other :
       {"MASKMOVDQU", "MASKMOVDQU64", "VMASKMOVDQU", "VMASKMOVDQU64", "VMOVUPSZmrk",
        "VMOVDQU32Z256mrk", "VMOVUPSZrmkz", "VMOVAPSYmr", "VMOVUPSYrm", "VPMOVMSKBYrr",
        "VMOVMSKPSYrr", "ST1Fourv4s", "VMASKMOV", "VPMASKMOV", "VMASKMOVPS", "VPMASKMOVDYmrk",
        "VMASKMOVPSYmrr", ""})
    EXPECT_EQ(maskedMove(Other), MaskedMove::None) << Other;
}

namespace {

/// The hand machine with the FMA class at 0.5 cycle; with Masked, also
/// masked stores at 0.5 cycle (0.125 ns).
Machine maskedMachine(bool Masked) {
  std::map<std::string, double> C{{"throughput.fp.fma", 0.125}};
  if (Masked)
    C["throughput.store.masked"] = 0.125;
  return handIccMachine(C);
}

/// TSVC's vif at -O2 -march=znver5 -mno-avx512f as the plugin records it:
/// eight vmaskmovps ymm (12 model cycles of the store unit each) bind R = 96;
/// without them 4.5 cycles.
const std::map<std::string, double> Vif{{"cycles", 96.02},
                                        {"rthroughput", 96},
                                        {"uops", 355},
                                        {"tp.store.masked", 8},
                                        {"tp.store.masked.rest", 4.5},
                                        {"tp.store.masked.shared", 0}};

} // namespace

TEST(ICCMaskedStores, MeasuredThroughputReplacesTheModelsBound) {
  ICCModel I(maskedMachine(true), "t", "O2");
  EXPECT_DOUBLE_EQ(I.portThroughputs().at("store.masked"), 0.5);
  // max(4.5, 0 + 8 x 0.5) = 4.5 cycles; at its port bound: 96.02 - 96 + 4.5.
  Ruv B = iccBlock(Vif);
  EXPECT_DOUBLE_EQ(I.blockRThroughput(B), 4.5);
  EXPECT_NEAR(I.blockCycles(B), 4.52, 1e-12);
  EXPECT_NEAR(iccSeconds(I, B), 4.52 * 0.25e-9, 1e-21);
  // Ordinary stores on the same unit: 6 cycles of it, + 16 masked x 0.5.
  Ruv S = iccBlock({{"cycles", 200},
                 {"rthroughput", 198},
                 {"tp.store.masked", 16},
                 {"tp.store.masked.rest", 6},
                 {"tp.store.masked.shared", 6}});
  EXPECT_DOUBLE_EQ(I.blockRThroughput(S), 14);
  // Together with a port class: the lower of the two corrected bounds.
  Ruv F = iccBlock({{"cycles", 96},
                 {"rthroughput", 96},
                 {"tp.fp.fma", 8},
                 {"tp.rest", 90},
                 {"tp.store.masked", 8},
                 {"tp.store.masked.rest", 10},
                 {"tp.store.masked.shared", 0}});
  EXPECT_DOUBLE_EQ(I.blockRThroughput(F), 10);
}

TEST(ICCMaskedStores, WithoutTheEntryAsBefore) {
  // The hand machine without the entry: the keys change nothing.
  ICCModel I(maskedMachine(false), "t", "O2");
  EXPECT_EQ(I.portThroughputs().count("store.masked"), 0u);
  Ruv B = iccBlock(Vif), Plain = iccBlock(withoutKeys(Vif, "tp.store.masked"));
  EXPECT_DOUBLE_EQ(I.blockRThroughput(B), 96);
  EXPECT_DOUBLE_EQ(I.blockCycles(B), 96.02);
  EXPECT_DOUBLE_EQ(iccSeconds(I, B), iccSeconds(I, Plain));
  Ruv F = iccBlock({{"cycles", 8}, {"rthroughput", 8}, {"tp.fp.fma", 8}, {"tp.rest", 2.5},
                 {"tp.store.masked", 2}, {"tp.store.masked.rest", 7}});
  EXPECT_DOUBLE_EQ(I.blockRThroughput(F), 4);
  // The shipped EPYC5 file without its entry: as the same block without
  // the keys, and as the shipped files that never had it.
  Machine M = readMachine(segtime_test::shippedMachine("znver5-epyc"));
  for (auto &[Name, V] : M.Levels[Level::ICC])
    V.Costs.erase("throughput.store.masked");
  ICCModel E(M, "t", "O2");
  EXPECT_EQ(E.portThroughputs().count("store.masked"), 0u);
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
