//===- CacheProbe.h - The cache hierarchy: reported and measured -*- C++ -*-===//
///
/// \file
/// The data caches of this machine from every source there is, each kept
/// with its provenance (docs/calibrate.md "Cache hierarchy"):
///
///  - sysfs: /sys/devices/system/cpu/cpu0/cache/index*/{level,type,size,
///    ways_of_associativity,coherency_line_size};
///  - CPUID: Intel leaf 4, AMD leaf 0x8000001D (deterministic cache
///    parameters: ways x partitions x line x sets), else AMD leaves
///    0x80000005 (L1d) and 0x80000006 (L2, L3);
///  - sysconf(_SC_LEVEL1_DCACHE_SIZE, ...) (glibc, itself from CPUID);
///  - measurement: the capacity sweep (CacheSweep.c: dependent-load latency
///    of a random pointer chase and read bandwidth against working set) and
///    detectLevels, which finds each level's plateau and the working set
///    where the latency leaves it: the level's effective size.
///
/// A VM or a container often sees no sysfs cache directory, or a CPUID that
/// reports the host's whole last-level cache (508 MiB on one microVM, of
/// which the guest gets a few MiB): the machine file keeps every answer side
/// by side (memory.<L>.size_sysfs, size_cpuid, size_sysconf, size_effective)
/// and the memory model uses the effective size when it was measured.
///
/// Seams for tests (ProbeSeams): a root directory under which the sysfs and
/// cgroup files are read, and a canned CPUID table (parseCpuidTable). With a
/// canned table sysconf is not consulted (glibc would answer from the real
/// CPUID).
///
/// Also here: whether the machine is virtualised (CPUID leaf 1 ECX bit 31,
/// vendor string of leaf 0x40000000) and how many CPUs the process may use
/// (sched_getaffinity, cgroup cpu.max / cpu.cfs_quota_us).
///
/// USAGE:
///   ProbeSeams S{"/", ""};
///   MachineProbe P = probeMachine(S);
///   std::vector<MeasuredLevel> L = detectLevels(W, Latency, Bandwidth, 4);
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_TOOLS_CALIB_CACHEPROBE_H
#define SEGTIME_TOOLS_CALIB_CACHEPROBE_H

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace segtime {

/// Where the machine probes read (the test seam).
struct ProbeSeams {
  std::string SysfsRoot = "/"; ///< sysfs and cgroup files are read below this root
  std::string CpuidTable;      ///< a canned CPUID table file; empty: the CPU's own CPUID
  /// The seams from SEGTIME_SYSFS_ROOT and SEGTIME_CPUID_TABLE (unset: the defaults).
  static ProbeSeams fromEnvironment();
};

/// CPUID answers: the CPU's own, or a canned table (leaf, subleaf) ->
/// {eax, ebx, ecx, edx}; leaves not in the table answer nothing.
class Cpuid {
public:
  /// The CPU's own CPUID (none on a machine that is not x86).
  Cpuid() = default;
  /// A canned table, from the text of a table file (parseCpuidTable).
  explicit Cpuid(std::map<std::pair<uint32_t, uint32_t>, std::array<uint32_t, 4>> Table,
                 std::string Name)
      : Canned(true), Table(std::move(Table)), Name(std::move(Name)) {}
  /// The registers of Leaf/Sub, or false if the leaf is beyond the maximum
  /// leaf of its range (leaf 0 or 0x80000000) or not in the table.
  bool query(uint32_t Leaf, uint32_t Sub, std::array<uint32_t, 4> &R) const;
  bool canned() const { return Canned; }
  /// "CPUID" or "CPUID table FILE", for the refs.
  std::string source() const { return Canned ? "CPUID table " + Name : "CPUID"; }
  /// "GenuineIntel", "AuthenticAMD", ... (leaf 0), or "".
  std::string vendor() const;

private:
  bool Canned = false;
  std::map<std::pair<uint32_t, uint32_t>, std::array<uint32_t, 4>> Table;
  std::string Name;
};

/// Parses a CPUID table: one line per leaf, "LEAF SUBLEAF EAX EBX ECX EDX"
/// (numbers in C notation, 0x.. for hex), '#' starts a comment. Throws
/// std::runtime_error naming File and the line on anything else.
Cpuid parseCpuidTable(const std::string &Text, const std::string &File);

/// One data or unified cache level as one source reports it.
struct CacheReport {
  int Level = 0;      ///< 1, 2, 3, ...
  double Size = 0;    ///< B
  double Ways = 0;    ///< associativity (0: not reported; fully associative: lines)
  double Line = 0;    ///< B per line (0: not reported)
  std::string Source; ///< "sysfs", "cpuid", "sysconf"
  std::string Ref;    ///< what was read: path and text, leaf and registers, name
};

/// The caches sysfs reports below Root (cpu0/cache/index*), smallest level
/// first; empty with Why set if there are none. Throws std::runtime_error
/// on a file that holds something else than expected.
std::vector<CacheReport> sysfsCaches(const std::string &Root, std::string &Why);
/// The caches CPUID reports (leaf 4 or 0x8000001D, else 0x80000005/6);
/// empty with Why set if none.
std::vector<CacheReport> cpuidCaches(const Cpuid &C, std::string &Why);
/// The caches sysconf reports (_SC_LEVEL1_DCACHE_SIZE, _SC_LEVEL2_CACHE_SIZE,
/// _SC_LEVEL3_CACHE_SIZE, _SC_LEVEL4_CACHE_SIZE); empty with Why set if none.
std::vector<CacheReport> sysconfCaches(std::string &Why);

/// Whether the machine runs under a hypervisor.
struct Virtualisation {
  bool Flag = false;  ///< CPUID leaf 1 ECX bit 31
  std::string Vendor; ///< leaf 0x40000000 EBX ECX EDX ("KVMKVMKVM"), if any
  std::string Source; ///< Cpuid::source()
};
Virtualisation virtualisation(const Cpuid &C);

/// The processor as CPUID reports it (Intel SDM vol. 2A and AMD APM vol. 3,
/// CPUID leaf 1: the display family is the base family plus the extended
/// family when the base is 0xF; the display model adds the extended model
/// x 16 for families 6 and 0xF).
struct CpuIdentity {
  std::string Vendor;    ///< leaf 0: "GenuineIntel", "AuthenticAMD", ... ("" if none)
  int Family = -1;       ///< display family (-1: no leaf 1)
  int Model = -1;        ///< display model
  int Stepping = -1;     ///< stepping id
  std::string ModelName; ///< brand string, leaves 0x80000002-4, spaces trimmed
  std::string Source;    ///< Cpuid::source()
  /// The LLVM CPU name of this family and model (the ICC target key the
  /// plugin uses: znver4, icelake-server, ...), following the families of
  /// LLVM 19's sys::getHostCPUName; "" for a CPU the table does not know.
  std::string llvmCpu() const;
  /// A machine file name from the identity: "<llvm cpu>-<model name>", e.g.
  /// "znver3-epyc-7763" for "AMD EPYC 7763 64-Core Processor"; vendor marks,
  /// "CPU", "Processor", core counts and clock dropped, lower case, one '-'
  /// between words; the vendor and family/model in hex when the CPU is not
  /// in the table. Never empty ("unknown-cpu").
  std::string suggestedName() const;
};
CpuIdentity cpuIdentity(const Cpuid &C);

/// The CPUs this process may use.
struct CpuBudget {
  int Affinity = 0;   ///< CPUs in sched_getaffinity's mask (0: unknown)
  double Quota = 0;   ///< CPUs the cgroup's quota allows (quota / period; 0: no quota)
  std::string QuotaRef; ///< the file and its text, or why there is none
  /// CPUs usable at once: the affinity, at most the quota (rounded down, >= 1).
  int usable() const;
};
/// Reads /proc/self/cgroup, then cpu.max (cgroup v2) or cpu.cfs_quota_us /
/// cpu.cfs_period_us (v1) below Root/sys/fs/cgroup.
CpuBudget cpuBudget(const std::string &Root);

/// One level of the measured hierarchy (detectLevels).
struct MeasuredLevel {
  std::string Name;     ///< "L1", "L2", ..., "DRAM"
  double Size = 0;      ///< effective size, B: where the latency leaves the plateau (0: DRAM, or no knee)
  bool Knee = false;    ///< Size was found (false for DRAM and for a level the sweep never left)
  double Latency = 0;   ///< s per dependent load: median over the plateau
  double Bandwidth = 0; ///< B/s read: median over the plateau
  double Lo = 0, Hi = 0; ///< the plateau: first and last working set, B
  size_t Points = 0;    ///< points on the plateau
};

/// The plateaus of a latency-versus-working-set curve and the knees between
/// them. W (B, increasing), Lat (s per load) and Bw (B/s) per point;
/// PerOctave points per doubling of W. A plateau is a run of at least
/// max(2, PerOctave) consecutive points (one octave) within a factor 1.25
/// of the run's median latency; neighbouring plateaus within a factor 1.5
/// are merged (an outlier, or a shared cache whose latency creeps up). Level k's effective size is the working set at which the
/// latency crosses the geometric mean of plateau k's and plateau k+1's
/// latency (interpolated linearly in log W between the two points around
/// the crossing): for a cache with a sharp edge, its size. The plateaus are
/// named L1, L2, ... in order; the last is DRAM if Levels + 1 plateaus were
/// found, if Levels is 0, or if the sweep reached twice ReportedMax (B);
/// else it is a cache level whose end the sweep did not reach (Knee false).
/// Throws std::invalid_argument if the vectors differ in length or hold
/// fewer than 3 points.
std::vector<MeasuredLevel> detectLevels(const std::vector<double> &W,
                                        const std::vector<double> &Lat,
                                        const std::vector<double> &Bw, int PerOctave,
                                        size_t Levels = 0, double ReportedMax = 0);

/// Everything the probes found.
struct MachineProbe {
  std::vector<CacheReport> Reports; ///< every source's levels (sysfs, cpuid, sysconf order)
  std::vector<std::string> Missing; ///< per source that gave nothing: "sysfs: why"
  Virtualisation Virt;
  CpuIdentity Cpu; ///< vendor, family, model, stepping, brand string
  CpuBudget Cpus;
  /// The levels any source reported, 1, 2, ... (the union).
  std::vector<int> levels() const;
  /// The first report of level L in source order (sysfs, cpuid, sysconf), or null.
  const CacheReport *reported(int Level) const;
  /// Every report of level L, in source order.
  std::vector<const CacheReport *> reports(int Level) const;
};

/// Runs every probe through the seams S. Throws std::runtime_error on an
/// unreadable CPUID table or a malformed sysfs file.
MachineProbe probeMachine(const ProbeSeams &S);

} // namespace segtime

#endif
