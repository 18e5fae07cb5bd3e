//===- CacheProbeTest.cpp - Cache probes, seams and the knee detector -----===//
///
/// \file
/// The machine probes of tools/calib/CacheProbe.h read through their seams
/// (a sysfs root, a canned CPUID table): machines this suite does not run
/// on (a microVM whose CPUID reports the host's 508 MiB L3 and no sysfs
/// cache directory, an Intel machine on bare metal), and the plateau/knee
/// detector on synthetic and recorded latency curves.
///
//===----------------------------------------------------------------------===//
#include "TestInputs.h"
#include "predictor/MemoryModel.h"
#include "tools/calib/CacheProbe.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

using namespace segtime;
namespace fs = std::filesystem;

namespace {

/// test/Inputs/cpuid/NAME (the lit tests use the same tables).
Cpuid table(const std::string &Name) {
  std::string P = segtime_test::inputPath("../../Inputs/cpuid/" + Name);
  std::ifstream In(P);
  EXPECT_TRUE(In.good()) << P;
  std::stringstream S;
  S << In.rdbuf();
  return parseCpuidTable(S.str(), P);
}

TEST(CacheProbe, MicroVmCpuidLegacyAmdLeaves) {
  Cpuid C = table("microvm-amd.cpuid");
  EXPECT_EQ(C.vendor(), "AuthenticAMD");
  std::string Why;
  auto R = cpuidCaches(C, Why);
  ASSERT_EQ(R.size(), 3u) << Why;
  EXPECT_EQ(R[0].Level, 1);
  EXPECT_EQ(R[0].Size, 48 * 1024);
  EXPECT_EQ(R[0].Ways, 12);
  EXPECT_EQ(R[0].Line, 64);
  EXPECT_EQ(R[1].Size, 1024 * 1024);
  EXPECT_EQ(R[1].Ways, 8);
  EXPECT_EQ(R[2].Size, 508.0 * 1024 * 1024);
  EXPECT_EQ(R[2].Ways, 16);
  EXPECT_NE(R[2].Ref.find("leaf 0x80000006"), std::string::npos) << R[2].Ref;
  Virtualisation V = virtualisation(C);
  EXPECT_TRUE(V.Flag);
  EXPECT_EQ(V.Vendor, "KVMKVMKVM");
}

TEST(CacheProbe, IntelLeaf4) {
  Cpuid C = table("intel-bare.cpuid");
  std::string Why;
  auto R = cpuidCaches(C, Why);
  ASSERT_EQ(R.size(), 3u) << Why; // the instruction cache left out
  EXPECT_EQ(R[0].Size, 48 * 1024);
  EXPECT_EQ(R[1].Size, 1.25 * 1024 * 1024);
  EXPECT_EQ(R[1].Ways, 10);
  EXPECT_EQ(R[2].Size, 30.0 * 1024 * 1024);
  EXPECT_FALSE(virtualisation(C).Flag);
}

TEST(CacheProbe, NoCacheLeaves) {
  Cpuid C = table("no-caches.cpuid");
  std::string Why;
  EXPECT_TRUE(cpuidCaches(C, Why).empty());
  EXPECT_NE(Why.find("no data cache"), std::string::npos) << Why;
}

TEST(CacheProbe, TableErrorsNameFileAndLine) {
  try {
    parseCpuidTable("0 0 1 2 3 4\n0x1 0 zz 0 0 0\n", "t.cpuid");
    FAIL() << "no error";
  } catch (const std::runtime_error &E) {
    EXPECT_NE(std::string(E.what()).find("t.cpuid:2: expected a 32-bit number, got 'zz'"),
              std::string::npos)
        << E.what();
  }
  EXPECT_THROW(parseCpuidTable("1 2 3\n", "t.cpuid"), std::runtime_error);
}

TEST(CacheProbe, SysfsRootSeam) {
  fs::path Root = fs::temp_directory_path() / ("segtime-sysfs-" + std::to_string(::getpid()));
  fs::remove_all(Root);
  std::string Why;
  EXPECT_TRUE(sysfsCaches(Root.string(), Why).empty());
  EXPECT_NE(Why.find("no directory"), std::string::npos) << Why;
  auto Index = [&](int I, const char *Level, const char *Type, const char *Size) {
    fs::path D = Root / "sys/devices/system/cpu/cpu0/cache" / ("index" + std::to_string(I));
    fs::create_directories(D);
    std::ofstream(D / "level") << Level << "\n";
    std::ofstream(D / "type") << Type << "\n";
    std::ofstream(D / "size") << Size << "\n";
    std::ofstream(D / "ways_of_associativity") << "8\n";
    std::ofstream(D / "coherency_line_size") << "64\n";
  };
  Index(0, "1", "Data", "32K");
  Index(1, "1", "Instruction", "32K");
  Index(2, "2", "Unified", "512K");
  auto R = sysfsCaches(Root.string(), Why);
  ASSERT_EQ(R.size(), 2u);
  EXPECT_EQ(R[0].Size, 32768);
  EXPECT_EQ(R[1].Size, 524288);
  EXPECT_EQ(R[1].Ways, 8);
  Index(3, "3", "Unified", "lots");
  EXPECT_THROW(sysfsCaches(Root.string(), Why), std::runtime_error);
  fs::remove_all(Root);
}

/// A latency curve 4 KiB .. Max, PerOctave points per doubling, from
/// (size, latency) steps: the latency of the first step whose size holds W.
void curve(const std::vector<std::pair<double, double>> &Steps, double Max, int PerOctave,
           std::vector<double> &W, std::vector<double> &Lat, std::vector<double> &Bw) {
  W.clear(), Lat.clear(), Bw.clear();
  for (int I = 0;; ++I) {
    double X = 4096 * std::exp2(double(I) / PerOctave);
    if (X > Max * 1.0001)
      break;
    double L = Steps.back().second;
    for (auto [S, V] : Steps)
      if (X <= S) {
        L = V;
        break;
      }
    W.push_back(X);
    Lat.push_back(L);
    Bw.push_back(64 / L);
  }
}

TEST(CacheProbe, DetectorSharpEdges) {
  std::vector<double> W, Lat, Bw;
  const double K = 1024, M = 1024 * 1024;
  curve({{32 * K, 1.2e-9}, {512 * K, 4e-9}, {8 * M, 15e-9}, {1e30, 120e-9}}, 256 * M, 4, W, Lat,
        Bw);
  auto L = detectLevels(W, Lat, Bw, 4, 3, 8 * M);
  ASSERT_EQ(L.size(), 4u);
  EXPECT_EQ(L[0].Name, "L1");
  EXPECT_EQ(L[3].Name, "DRAM");
  EXPECT_FALSE(L[3].Knee);
  // The crossing lies between the last point inside and the first outside.
  EXPECT_GE(L[0].Size, 32 * K);
  EXPECT_LE(L[0].Size, 32 * K * 1.19);
  EXPECT_GE(L[1].Size, 512 * K);
  EXPECT_LE(L[1].Size, 512 * K * 1.19);
  EXPECT_GE(L[2].Size, 8 * M);
  EXPECT_LE(L[2].Size, 8 * M * 1.19);
  EXPECT_DOUBLE_EQ(L[1].Latency, 4e-9);
  EXPECT_DOUBLE_EQ(L[3].Latency, 120e-9);
}

TEST(CacheProbe, DetectorMicroVm) {
  // The microVM of the README's example: 1.6 ns to 32 KiB, 5-7 ns from 64 to
  // 512 KiB, 14 ns at 1 MiB, 34-53 ns at 2-4 MiB, 200+ ns from 8 MiB; CPUID
  // says L1d 48 KiB, L2 1 MiB, L3 508 MiB.
  const double K = 1024, M = 1024 * 1024;
  std::vector<double> W, Lat, Bw;
  curve({{32 * K, 1.6e-9},
         {64 * K, 3e-9},
         {128 * K, 5e-9},
         {256 * K, 6e-9},
         {512 * K, 7e-9},
         {1 * M, 14e-9},
         {2 * M, 34e-9},
         {3 * M, 40e-9},
         {4 * M, 53e-9},
         {6 * M, 120e-9},
         {1e30, 210e-9}},
        256 * M, 4, W, Lat, Bw);
  auto L = detectLevels(W, Lat, Bw, 4, 3, 508 * M);
  ASSERT_GE(L.size(), 3u);
  EXPECT_EQ(L.back().Name, "DRAM");
  // The last cache before DRAM: a few MiB, nowhere near 508 MiB.
  const MeasuredLevel &Last = L[L.size() - 2];
  EXPECT_TRUE(Last.Knee);
  EXPECT_GT(Last.Size, 2 * M);
  EXPECT_LT(Last.Size, 8 * M);
  EXPECT_NEAR(L.back().Latency, 210e-9, 1e-12);
}

TEST(CacheProbe, DetectorOutlierDoesNotSplitPlateau) {
  std::vector<double> W, Lat, Bw;
  const double K = 1024, M = 1024 * 1024;
  curve({{32 * K, 1.2e-9}, {1e30, 100e-9}}, 64 * M, 4, W, Lat, Bw);
  Lat[30] *= 2; // one slow sample in the DRAM plateau
  auto L = detectLevels(W, Lat, Bw, 4, 1, 32 * K);
  ASSERT_EQ(L.size(), 2u);
  EXPECT_EQ(L[1].Name, "DRAM");
  EXPECT_THROW(detectLevels({1, 2}, {1, 2}, {1, 2}, 4), std::invalid_argument);
}

TEST(CacheProbe, CpuBudgetUsable) {
  CpuBudget B;
  B.Affinity = 4;
  EXPECT_EQ(B.usable(), 4);
  B.Quota = 1.5;
  EXPECT_EQ(B.usable(), 1);
  B.Quota = 0.5;
  EXPECT_EQ(B.usable(), 1);
  CpuBudget Real = cpuBudget("/");
  EXPECT_GE(Real.Affinity, 1);
  EXPECT_FALSE(Real.QuotaRef.empty());
}

TEST(CacheProbe, MemoryModelUsesEffectiveSize) {
  Machine Mc;
  Mc.Name = "vm";
  auto E = [](double V, const char *U, const char *P) { return CostEntry::of(V, U, P, "test"); };
  Mc.Params["memory.L1.size"] = E(32768, "B", "datasheet");
  Mc.Params["memory.L1.bandwidth"] = E(100e9, "B/s", "measured");
  Mc.Params["memory.L3.size"] = E(508.0 * 1048576, "B", "datasheet");
  Mc.Params["memory.L3.size_effective"] = E(4.4 * 1048576, "B", "measured");
  Mc.Params["memory.L3.ways"] = E(16, "ways", "datasheet");
  Mc.Params["memory.L3.line_size"] = E(64, "B", "datasheet");
  Mc.Params["memory.L3.bandwidth"] = E(40e9, "B/s", "measured");
  Mc.Params["memory.DRAM.bandwidth"] = E(10e9, "B/s", "measured");
  std::string Why;
  auto Mem = MemoryModel::fromMachine(Mc, Why);
  ASSERT_TRUE(Mem) << Why;
  // A 64 MiB footprint is in DRAM, not "in L3" as the reported 508 MiB says.
  EXPECT_EQ(Mem->levelOf(64.0 * 1048576).Name, "DRAM");
  EXPECT_EQ(Mem->levelOf(2.0 * 1048576).Name, "L3");
  EXPECT_NE(Mem->sizeNote().find("L3 4.61e+06 B (measured effective; reported 5.33e+08 B)"),
            std::string::npos)
      << Mem->sizeNote();
  EXPECT_NE(Mem->sizeNote().find("L1 3.28e+04 B (reported)"), std::string::npos)
      << Mem->sizeNote();
  // Without DRAM bandwidth the reason names the parts calibrate skipped.
  Mc.Params.erase("memory.DRAM.bandwidth");
  Mc.Identity["calibration_skipped"] = "poly (no cache sizes)";
  EXPECT_FALSE(MemoryModel::fromMachine(Mc, Why));
  EXPECT_NE(Why.find("its calibration skipped: poly (no cache sizes)"), std::string::npos) << Why;
}

// The identity calibrate records and the file name it suggests: display
// family and model from leaf 1 (Intel SDM / AMD APM), the LLVM CPU name.
TEST(CacheProbe, CpuIdentityFromLeafOne) {
  CpuIdentity Zen5 = cpuIdentity(table("microvm-amd.cpuid")); // eax 0x00b00f21
  EXPECT_EQ(Zen5.Vendor, "AuthenticAMD");
  EXPECT_EQ(Zen5.Family, 26); // 0xF + extended family 0x0B
  EXPECT_EQ(Zen5.Model, 2);
  EXPECT_EQ(Zen5.Stepping, 1);
  EXPECT_EQ(Zen5.ModelName, ""); // the table has no brand-string leaves
  EXPECT_EQ(Zen5.llvmCpu(), "znver5");
  EXPECT_EQ(Zen5.suggestedName(), "znver5");
  CpuIdentity Icx = cpuIdentity(table("intel-bare.cpuid")); // eax 0x000606a6
  EXPECT_EQ(Icx.Vendor, "GenuineIntel");
  EXPECT_EQ(Icx.Family, 6);
  EXPECT_EQ(Icx.Model, 0x6a); // 0xA + extended model 6 x 16
  EXPECT_EQ(Icx.Stepping, 6);
  EXPECT_EQ(Icx.llvmCpu(), "icelake-server");
}

TEST(CacheProbe, SuggestedMachineFileName) {
  CpuIdentity I;
  I.Vendor = "AuthenticAMD";
  I.Family = 0x19;
  I.Model = 0x01;
  I.ModelName = "AMD EPYC 7763 64-Core Processor";
  EXPECT_EQ(I.suggestedName(), "znver3-epyc-7763");
  I.Model = 0x11;
  I.ModelName = "AMD EPYC 9B14 96-Core Processor";
  EXPECT_EQ(I.suggestedName(), "znver4-epyc-9b14");
  I.Vendor = "GenuineIntel";
  I.Family = 6;
  I.Model = 0x6a;
  I.ModelName = "Intel(R) Xeon(R) Platinum 8370C CPU @ 2.80GHz";
  EXPECT_EQ(I.suggestedName(), "icelake-server-xeon-platinum-8370c");
  // A CPU the table does not know: vendor, family and model in hex.
  I.Vendor = "CentaurHauls";
  I.Family = 7;
  I.Model = 0x3b;
  I.ModelName = "  ZHAOXIN KaiXian KX-U6780A@2.7GHz  ";
  EXPECT_EQ(I.llvmCpu(), "");
  EXPECT_EQ(I.suggestedName(), "cpu-f7-m3b-zhaoxin-kaixian-kx-u6780a");
  EXPECT_EQ(CpuIdentity().suggestedName(), "unknown-cpu");
}

} // namespace
