//===- CacheProbe.cpp - The cache hierarchy: reported and measured --------===//
///
/// \file
/// The probes (sysfs, CPUID, sysconf, hypervisor, CPU budget) and the
/// plateau/knee detector of the capacity sweep (see CacheProbe.h).
///
//===----------------------------------------------------------------------===//
#include "tools/calib/CacheProbe.h"

#include "predictor/Stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

#include <sched.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace fs = std::filesystem;

namespace segtime {

namespace {

/// The text of file P without trailing blanks and newlines ("" if unreadable).
std::string readTrimmed(const fs::path &P) {
  std::ifstream In(P);
  if (!In)
    return "";
  std::stringstream S;
  S << In.rdbuf();
  std::string T = S.str();
  while (!T.empty() && (T.back() == '\n' || T.back() == ' ' || T.back() == '\t'))
    T.pop_back();
  return T;
}

std::string hex(uint32_t V) {
  char B[16];
  std::snprintf(B, sizeof B, "0x%x", V);
  return B;
}

std::string regsText(const std::array<uint32_t, 4> &R) {
  return "eax " + hex(R[0]) + " ebx " + hex(R[1]) + " ecx " + hex(R[2]) + " edx " + hex(R[3]);
}

std::string fourCC(uint32_t V) {
  std::string S;
  for (int I = 0; I < 4; ++I) {
    char C = static_cast<char>((V >> (8 * I)) & 0xff);
    if (C)
      S += C;
  }
  return S;
}

} // namespace

ProbeSeams ProbeSeams::fromEnvironment() {
  ProbeSeams S;
  if (const char *R = std::getenv("SEGTIME_SYSFS_ROOT"); R && *R)
    S.SysfsRoot = R;
  if (const char *T = std::getenv("SEGTIME_CPUID_TABLE"); T && *T)
    S.CpuidTable = T;
  return S;
}

// --- CPUID -----------------------------------------------------------------------

bool Cpuid::query(uint32_t Leaf, uint32_t Sub, std::array<uint32_t, 4> &R) const {
  R = {0, 0, 0, 0};
  if (Canned) {
    auto It = Table.find({Leaf, Sub});
    if (It == Table.end())
      It = Table.find({Leaf, 0}); // leaves without subleaves answer every subleaf alike
    if (It == Table.end() || (It->first.second != Sub && (Leaf == 4 || Leaf == 0x8000001D)))
      return false;
    R = It->second;
    return true;
  }
#if defined(__x86_64__) || defined(__i386__)
  // The hypervisor range (0x40000000..) has no maximum in leaf 0 or
  // 0x80000000: its leaf 0x40000000 gives it (callers check the hypervisor bit).
  uint32_t Base = Leaf & 0xf0000000u;
  if (Base != 0x40000000u) {
    uint32_t Max = __get_cpuid_max(Base, nullptr);
    if (Max == 0 || Leaf > Max)
      return false;
  }
  __cpuid_count(Leaf, Sub, R[0], R[1], R[2], R[3]);
  return true;
#else
  (void)Leaf;
  (void)Sub;
  return false;
#endif
}

std::string Cpuid::vendor() const {
  std::array<uint32_t, 4> R;
  if (!query(0, 0, R))
    return "";
  return fourCC(R[1]) + fourCC(R[3]) + fourCC(R[2]);
}

Cpuid parseCpuidTable(const std::string &Text, const std::string &File) {
  std::map<std::pair<uint32_t, uint32_t>, std::array<uint32_t, 4>> T;
  std::istringstream In(Text);
  std::string Line;
  int No = 0;
  while (std::getline(In, Line)) {
    ++No;
    if (auto H = Line.find('#'); H != std::string::npos)
      Line.resize(H);
    std::istringstream L(Line);
    std::vector<uint32_t> V;
    std::string Word;
    while (L >> Word) {
      char *End = nullptr;
      errno = 0;
      unsigned long long X = std::strtoull(Word.c_str(), &End, 0);
      if (!End || *End || errno || X > 0xffffffffull)
        throw std::runtime_error(File + ":" + std::to_string(No) + ": expected a 32-bit number, got '" +
                                 Word + "'");
      V.push_back(static_cast<uint32_t>(X));
    }
    if (V.empty())
      continue;
    if (V.size() != 6)
      throw std::runtime_error(File + ":" + std::to_string(No) +
                               ": expected LEAF SUBLEAF EAX EBX ECX EDX (6 numbers), got " +
                               std::to_string(V.size()));
    T[{V[0], V[1]}] = {V[2], V[3], V[4], V[5]};
  }
  return Cpuid(std::move(T), File);
}

// --- sources ----------------------------------------------------------------------

std::vector<CacheReport> sysfsCaches(const std::string &Root, std::string &Why) {
  fs::path Base = fs::path(Root) / "sys/devices/system/cpu/cpu0/cache";
  std::vector<CacheReport> R;
  std::error_code EC;
  if (!fs::is_directory(Base, EC)) {
    Why = "no directory " + Base.lexically_normal().string();
    return R;
  }
  for (int I = 0; I < 16; ++I) {
    fs::path D = Base / ("index" + std::to_string(I));
    if (!fs::exists(D, EC))
      break;
    std::string Type = readTrimmed(D / "type"), Level = readTrimmed(D / "level"),
                Size = readTrimmed(D / "size");
    if (Type == "Instruction" || Level.empty() || Size.empty())
      continue;
    char *End = nullptr;
    double V = std::strtod(Size.c_str(), &End);
    std::string Suffix = End ? End : "";
    double Mult = Suffix == "K" ? 1024 : Suffix == "M" ? 1048576 : Suffix == "G" ? 1073741824
                  : Suffix.empty()                     ? 1
                                                       : 0;
    int Lv = std::atoi(Level.c_str());
    if (!(V > 0) || Mult == 0 || Lv < 1)
      throw std::runtime_error((D / "size").lexically_normal().string() +
                               ": expected a size such as 48K (and a level >= 1), got '" + Size +
                               "' (level '" + Level + "')");
    auto Count = [&](const char *F) {
      std::string T = readTrimmed(D / F);
      char *E = nullptr;
      double X = T.empty() ? 0 : std::strtod(T.c_str(), &E);
      if (!T.empty() && (!E || *E || !(X >= 0)))
        throw std::runtime_error((D / F).lexically_normal().string() +
                                 ": expected a number, got '" + T + "'");
      return X;
    };
    CacheReport C;
    C.Level = Lv;
    C.Size = V * Mult;
    C.Ways = Count("ways_of_associativity");
    C.Line = Count("coherency_line_size");
    C.Source = "sysfs";
    C.Ref = "sysfs: " + (D / "size").lexically_normal().string() + " (" + Size + ", " + Type + ")";
    char G[96];
    std::snprintf(G, sizeof G, "; ways_of_associativity %g, coherency_line_size %g", C.Ways,
                  C.Line);
    C.Ref += G;
    R.push_back(C);
  }
  if (R.empty())
    Why = "no data or unified cache in " + Base.lexically_normal().string() +
          "/index*/{level,type,size}";
  std::sort(R.begin(), R.end(), [](auto &A, auto &B) { return A.Level < B.Level; });
  return R;
}

namespace {

/// Intel leaf 4 or AMD leaf 0x8000001D: deterministic cache parameters.
std::vector<CacheReport> deterministicLeaf(const Cpuid &C, uint32_t Leaf) {
  std::vector<CacheReport> R;
  for (uint32_t Sub = 0; Sub < 16; ++Sub) {
    std::array<uint32_t, 4> X;
    if (!C.query(Leaf, Sub, X))
      break;
    uint32_t Type = X[0] & 0x1f;
    if (Type == 0)
      break;
    if (Type == 2) // instruction cache
      continue;
    double Line = (X[1] & 0xfff) + 1, Parts = ((X[1] >> 12) & 0x3ff) + 1,
           Ways = ((X[1] >> 22) & 0x3ff) + 1, Sets = double(X[2]) + 1;
    CacheReport Rep;
    Rep.Level = static_cast<int>((X[0] >> 5) & 7);
    Rep.Size = Ways * Parts * Line * Sets;
    Rep.Ways = (X[0] >> 9) & 1 ? Rep.Size / Line : Ways; // fully associative: every line
    Rep.Line = Line;
    Rep.Source = "cpuid";
    char B[160];
    std::snprintf(B, sizeof B, " leaf %s subleaf %u (%s): %g ways x %g partitions x %g B x %g sets",
                  hex(Leaf).c_str(), Sub, Type == 1 ? "data" : "unified", Ways, Parts, Line, Sets);
    Rep.Ref = C.source() + B + " (" + regsText(X) + ")";
    if (Rep.Level >= 1 && Rep.Size > 0)
      R.push_back(Rep);
  }
  return R;
}

/// AMD's associativity code of leaf 0x80000006 (AMD64 APM vol. 3, CPUID
/// Fn8000_0006): 0 if unknown or disabled, -1 if fully associative.
double amdWays(uint32_t Code) {
  static const double W[16] = {0, 1, 2, 3, 4, 6, 8, 0, 16, 0, 32, 48, 64, 96, 128, -1};
  return W[Code & 0xf];
}

} // namespace

std::vector<CacheReport> cpuidCaches(const Cpuid &C, std::string &Why) {
  std::string V = C.vendor();
  if (V.empty()) {
    Why = C.canned() ? C.source() + " has no leaf 0" : "no CPUID (not an x86 processor)";
    return {};
  }
  std::vector<CacheReport> R;
  bool Amd = V == "AuthenticAMD" || V == "HygonGenuine";
  if (!Amd)
    R = deterministicLeaf(C, 4);
  if (R.empty() && Amd)
    R = deterministicLeaf(C, 0x8000001D);
  if (R.empty() && Amd) {
    std::array<uint32_t, 4> X;
    if (C.query(0x80000005, 0, X) && (X[2] >> 24)) {
      CacheReport L1;
      L1.Level = 1;
      L1.Size = double(X[2] >> 24) * 1024;
      double A = (X[2] >> 16) & 0xff;
      L1.Line = X[2] & 0xff;
      L1.Ways = A == 0xff && L1.Line > 0 ? L1.Size / L1.Line : A;
      L1.Source = "cpuid";
      L1.Ref = C.source() + " leaf 0x80000005 ecx " + hex(X[2]) + ": L1d " +
               std::to_string(X[2] >> 24) + " KiB";
      R.push_back(L1);
    }
    if (C.query(0x80000006, 0, X)) {
      // L2 in ECX (KiB in [31:16]), L3 in EDX (512 KiB units in [31:18]);
      // associativity code in [15:12], line size in [7:0].
      auto Legacy = [&](int Level, uint32_t Reg, const char *Name, double Units, double Unit,
                        const std::string &Text) {
        if (Units == 0)
          return;
        CacheReport L;
        L.Level = Level;
        L.Size = Units * Unit;
        L.Line = Reg & 0xff;
        double A = amdWays((Reg >> 12) & 0xf);
        L.Ways = A < 0 && L.Line > 0 ? L.Size / L.Line : std::max(0.0, A);
        L.Source = "cpuid";
        L.Ref = C.source() + " leaf 0x80000006 " + Name + " " + hex(Reg) + ": " + Text;
        R.push_back(L);
      };
      Legacy(2, X[2], "ecx", X[2] >> 16, 1024, "L2 " + std::to_string(X[2] >> 16) + " KiB");
      Legacy(3, X[3], "edx", X[3] >> 18, 512 * 1024,
             "L3 " + std::to_string(X[3] >> 18) + " x 512 KiB");
    }
  }
  if (R.empty())
    Why = C.source() + " (" + V + "): no data cache in leaf " +
          (Amd ? "0x8000001D or 0x80000005/6" : "4");
  std::sort(R.begin(), R.end(), [](auto &A, auto &B) { return A.Level < B.Level; });
  return R;
}

std::vector<CacheReport> sysconfCaches(std::string &Why) {
  std::vector<CacheReport> R;
#if defined(_SC_LEVEL1_DCACHE_SIZE)
  struct Q {
    int Level;
    int Size, Assoc, Line;
    const char *Name;
  };
  const Q Qs[] = {
      {1, _SC_LEVEL1_DCACHE_SIZE, _SC_LEVEL1_DCACHE_ASSOC, _SC_LEVEL1_DCACHE_LINESIZE,
       "_SC_LEVEL1_DCACHE_SIZE"},
      {2, _SC_LEVEL2_CACHE_SIZE, _SC_LEVEL2_CACHE_ASSOC, _SC_LEVEL2_CACHE_LINESIZE,
       "_SC_LEVEL2_CACHE_SIZE"},
      {3, _SC_LEVEL3_CACHE_SIZE, _SC_LEVEL3_CACHE_ASSOC, _SC_LEVEL3_CACHE_LINESIZE,
       "_SC_LEVEL3_CACHE_SIZE"},
      {4, _SC_LEVEL4_CACHE_SIZE, _SC_LEVEL4_CACHE_ASSOC, _SC_LEVEL4_CACHE_LINESIZE,
       "_SC_LEVEL4_CACHE_SIZE"}};
  for (const Q &X : Qs) {
    long S = sysconf(X.Size);
    if (S <= 0)
      continue;
    CacheReport C;
    C.Level = X.Level;
    C.Size = double(S);
    C.Ways = std::max(0L, sysconf(X.Assoc));
    C.Line = std::max(0L, sysconf(X.Line));
    C.Source = "sysconf";
    C.Ref = std::string("sysconf(") + X.Name + ") = " + std::to_string(S) + " (glibc)";
    R.push_back(C);
  }
#endif
  if (R.empty())
    Why = "sysconf(_SC_LEVEL*_CACHE_SIZE) gives no size";
  return R;
}

Virtualisation virtualisation(const Cpuid &C) {
  Virtualisation V;
  V.Source = C.source();
  std::array<uint32_t, 4> X;
  if (!C.query(1, 0, X))
    return V;
  V.Flag = (X[2] >> 31) & 1;
  if (V.Flag && C.query(0x40000000, 0, X) && X[0] >= 0x40000000u)
    V.Vendor = fourCC(X[1]) + fourCC(X[2]) + fourCC(X[3]);
  return V;
}

CpuIdentity cpuIdentity(const Cpuid &C) {
  CpuIdentity I;
  I.Source = C.source();
  I.Vendor = C.vendor();
  std::array<uint32_t, 4> X;
  if (C.query(1, 0, X)) {
    uint32_t A = X[0];
    int Base = (A >> 8) & 0xf, BaseModel = (A >> 4) & 0xf;
    I.Stepping = A & 0xf;
    I.Family = Base == 0xf ? Base + static_cast<int>((A >> 20) & 0xff) : Base;
    I.Model = (Base == 6 || Base == 0xf) ? BaseModel + (static_cast<int>((A >> 16) & 0xf) << 4)
                                         : BaseModel;
  }
  std::string Brand;
  for (uint32_t L = 0x80000002; L <= 0x80000004; ++L) {
    if (!C.query(L, 0, X))
      break;
    for (uint32_t R : X)
      Brand += fourCC(R);
  }
  size_t B = Brand.find_first_not_of(' '), E = Brand.find_last_not_of(' ');
  I.ModelName = B == std::string::npos ? "" : Brand.substr(B, E - B + 1);
  return I;
}

std::string CpuIdentity::llvmCpu() const {
  auto In = [this](std::initializer_list<std::pair<int, int>> Ranges) {
    for (auto [Lo, Hi] : Ranges)
      if (Model >= Lo && Model <= Hi)
        return true;
    return false;
  };
  if (Vendor == "AuthenticAMD") {
    if (Family == 0x17)
      return In({{0x30, 0x3f}, {0x47, 0x47}, {0x60, 0x7f}, {0x84, 0x87}, {0x90, 0xaf}})
                 ? "znver2"
                 : "znver1";
    if (Family == 0x19)
      return In({{0x10, 0x1f}, {0x60, 0x7f}, {0xa0, 0xaf}}) ? "znver4" : "znver3";
    if (Family == 0x1a)
      return "znver5";
  }
  if (Vendor == "GenuineIntel" && Family == 6) {
    if (In({{0x6a, 0x6a}, {0x6c, 0x6c}}))
      return "icelake-server";
    if (In({{0x7d, 0x7e}}))
      return "icelake-client";
    if (In({{0x8c, 0x8d}}))
      return "tigerlake";
    if (In({{0x55, 0x55}}))
      return Stepping >= 5 ? "cascadelake" : "skylake-avx512";
    if (In({{0x8f, 0x8f}}))
      return "sapphirerapids";
    if (In({{0xcf, 0xcf}}))
      return "emeraldrapids";
    if (In({{0xad, 0xae}}))
      return "graniterapids";
    if (In({{0x97, 0x97}, {0x9a, 0x9a}}))
      return "alderlake";
    if (In({{0xb7, 0xb7}, {0xba, 0xba}, {0xbf, 0xbf}}))
      return "raptorlake";
    if (In({{0x4e, 0x4e}, {0x5e, 0x5e}, {0x8e, 0x8e}, {0x9e, 0x9e}}))
      return "skylake";
  }
  return "";
}

std::string CpuIdentity::suggestedName() const {
  // Words of the brand string, lower case; vendor marks and words that do
  // not tell one part from another dropped.
  std::string Lower;
  for (char Ch : ModelName)
    Lower += static_cast<char>(std::tolower(static_cast<unsigned char>(Ch)));
  for (const char *Mark : {"(r)", "(tm)"})
    for (size_t P; (P = Lower.find(Mark)) != std::string::npos;)
      Lower.erase(P, std::strlen(Mark));
  if (size_t At = Lower.find('@'); At != std::string::npos)
    Lower.resize(At); // "@ 2.80GHz"
  std::istringstream Words(Lower);
  std::string W, Slug;
  while (Words >> W) {
    static const char *const Drop[] = {"intel", "amd", "cpu", "processor", "with", "radeon",
                                       "graphics", "genuine"};
    bool Skip = std::find_if(std::begin(Drop), std::end(Drop),
                             [&](const char *D) { return W == D; }) != std::end(Drop);
    // "64-core", "8-core": core counts
    if (W.size() > 5 && W.compare(W.size() - 5, 5, "-core") == 0)
      Skip = true;
    if (Skip)
      continue;
    for (char &Ch : W)
      if (!std::isalnum(static_cast<unsigned char>(Ch)))
        Ch = '-';
    Slug += (Slug.empty() ? "" : "-") + W;
  }
  std::string Cpu = llvmCpu();
  if (Cpu.empty() && Family >= 0) {
    char Buf[64];
    std::string V = Vendor == "AuthenticAMD" ? "amd" : Vendor == "GenuineIntel" ? "intel" : "cpu";
    std::snprintf(Buf, sizeof Buf, "%s-f%x-m%x", V.c_str(), Family, Model);
    Cpu = Buf;
  }
  std::string Name = Cpu.empty() ? Slug : Slug.empty() ? Cpu : Cpu + "-" + Slug;
  // One '-' between words, none at the ends.
  std::string Out;
  for (char Ch : Name)
    if (Ch != '-' || (!Out.empty() && Out.back() != '-'))
      Out += Ch;
  while (!Out.empty() && Out.back() == '-')
    Out.pop_back();
  return Out.empty() ? "unknown-cpu" : Out;
}

int CpuBudget::usable() const {
  int N = Affinity > 0 ? Affinity : 1;
  if (Quota > 0)
    N = std::min(N, std::max(1, static_cast<int>(std::floor(Quota + 1e-9))));
  return N;
}

CpuBudget cpuBudget(const std::string &Root) {
  CpuBudget B;
  cpu_set_t S;
  CPU_ZERO(&S);
  if (sched_getaffinity(0, sizeof S, &S) == 0)
    B.Affinity = CPU_COUNT(&S);
  // The process's cgroup: "0::/path" (v2) or "N:cpu,cpuacct:/path" (v1).
  std::ifstream In("/proc/self/cgroup");
  std::string Line, V2, V1;
  bool HasV1 = false;
  while (std::getline(In, Line)) {
    size_t A = Line.find(':'), Bp = Line.find(':', A + 1);
    if (A == std::string::npos || Bp == std::string::npos)
      continue;
    std::string Ctl = Line.substr(A + 1, Bp - A - 1), Path = Line.substr(Bp + 1);
    if (Ctl.empty())
      V2 = Path;
    std::string C = "," + Ctl + ",";
    if (C.find(",cpu,") != std::string::npos) {
      V1 = Path;
      HasV1 = true;
    }
  }
  fs::path Cg = fs::path(Root) / "sys/fs/cgroup";
  // cgroup v2: the quota of the process's group and of every parent.
  for (fs::path P = Cg / fs::path(V2).relative_path();; P = P.parent_path()) {
    std::string T = readTrimmed(P / "cpu.max");
    double Q = 0, Per = 0;
    char Max[32] = "";
    if (!T.empty() && std::sscanf(T.c_str(), "%31s %lf", Max, &Per) == 2 &&
        std::strcmp(Max, "max") != 0 && (Q = std::atof(Max)) > 0 && Per > 0) {
      double Cpus = Q / Per;
      if (B.Quota == 0 || Cpus < B.Quota) {
        B.Quota = Cpus;
        B.QuotaRef = (P / "cpu.max").lexically_normal().string() + " (" + T + ")";
      }
    }
    if (P == Cg || P.string().size() <= Cg.string().size())
      break;
  }
  if (B.Quota == 0 && HasV1) {
    for (fs::path D : {Cg / "cpu" / fs::path(V1).relative_path(), Cg / "cpu,cpuacct" / fs::path(V1).relative_path()}) {
      std::string Q = readTrimmed(D / "cpu.cfs_quota_us"), P = readTrimmed(D / "cpu.cfs_period_us");
      if (Q.empty() || P.empty())
        continue;
      double Qv = std::atof(Q.c_str()), Pv = std::atof(P.c_str());
      if (Qv > 0 && Pv > 0) {
        B.Quota = Qv / Pv;
        B.QuotaRef = (D / "cpu.cfs_quota_us").lexically_normal().string() + " (" + Q + " / " + P + ")";
      } else {
        B.QuotaRef = "no quota (" + (D / "cpu.cfs_quota_us").lexically_normal().string() + " " + Q + ")";
      }
      break;
    }
  }
  if (B.QuotaRef.empty())
    B.QuotaRef = "no quota (no cpu.max limit or cpu.cfs_quota_us under " +
                 Cg.lexically_normal().string() + ")";
  return B;
}

// --- the probe ------------------------------------------------------------------

std::vector<int> MachineProbe::levels() const {
  std::vector<int> L;
  for (const CacheReport &R : Reports)
    if (std::find(L.begin(), L.end(), R.Level) == L.end())
      L.push_back(R.Level);
  std::sort(L.begin(), L.end());
  return L;
}

std::vector<const CacheReport *> MachineProbe::reports(int Level) const {
  std::vector<const CacheReport *> R;
  for (const CacheReport &C : Reports)
    if (C.Level == Level)
      R.push_back(&C);
  return R;
}

const CacheReport *MachineProbe::reported(int Level) const {
  auto R = reports(Level);
  return R.empty() ? nullptr : R.front();
}

MachineProbe probeMachine(const ProbeSeams &S) {
  MachineProbe P;
  Cpuid C;
  if (!S.CpuidTable.empty()) {
    std::ifstream In(S.CpuidTable);
    if (!In)
      throw std::runtime_error("cannot read the CPUID table '" + S.CpuidTable + "'");
    std::stringstream T;
    T << In.rdbuf();
    C = parseCpuidTable(T.str(), S.CpuidTable);
  }
  auto Add = [&](const char *Name, std::vector<CacheReport> R, const std::string &Why) {
    if (R.empty())
      P.Missing.push_back(std::string(Name) + ": " + Why);
    for (CacheReport &X : R)
      P.Reports.push_back(std::move(X));
  };
  std::string Why;
  auto Sys = sysfsCaches(S.SysfsRoot, Why);
  Add("sysfs", std::move(Sys), Why);
  Why.clear();
  auto Cp = cpuidCaches(C, Why);
  Add("cpuid", std::move(Cp), Why);
  Why.clear();
  if (C.canned()) {
    P.Missing.push_back("sysconf: not consulted with a canned CPUID table (glibc answers from "
                        "the processor's own CPUID)");
  } else {
    auto Sc = sysconfCaches(Why);
    Add("sysconf", std::move(Sc), Why);
  }
  P.Virt = virtualisation(C);
  P.Cpu = cpuIdentity(C);
  P.Cpus = cpuBudget(S.SysfsRoot);
  return P;
}

// --- the detector ----------------------------------------------------------------

std::vector<MeasuredLevel> detectLevels(const std::vector<double> &W, const std::vector<double> &Lat,
                                        const std::vector<double> &Bw, int PerOctave,
                                        size_t Levels, double ReportedMax) {
  size_t N = W.size();
  if (Lat.size() != N || Bw.size() != N)
    throw std::invalid_argument("detectLevels: working sets, latencies and bandwidths differ in "
                                "number");
  if (N < 3)
    throw std::invalid_argument("detectLevels: fewer than 3 points");
  for (size_t I = 0; I < N; ++I)
    if (!(W[I] > 0 && Lat[I] > 0) || (I && !(W[I] > W[I - 1])))
      throw std::invalid_argument("detectLevels: working sets must increase and latencies be "
                                  "positive");
  const double Tol = std::log(1.25);
  size_t MinPts = static_cast<size_t>(std::max(2, PerOctave));
  struct Run {
    size_t A, B; // [A, B)
    double Ref;  // median ln latency
  };
  auto RefOf = [&](size_t A, size_t B) {
    std::vector<double> Y;
    for (size_t I = A; I < B; ++I)
      Y.push_back(std::log(Lat[I]));
    return median(Y);
  };
  // Runs of points within the tolerance of the run's median.
  std::vector<Run> Runs;
  size_t A = 0;
  for (size_t I = 1; I <= N; ++I) {
    bool Joins = I < N && std::fabs(std::log(Lat[I]) - RefOf(A, I)) < Tol &&
                 std::fabs(std::log(Lat[I]) - RefOf(A, I + 1)) < Tol;
    if (Joins)
      continue;
    if (I - A >= MinPts)
      Runs.push_back({A, I, RefOf(A, I)});
    A = I;
  }
  // Neighbouring plateaus within a factor 1.5 merge: one split by an
  // outlier, or a shared L3 whose latency creeps up (13 to 17 ns here);
  // neighbouring levels differ by 3x and more.
  const double MergeTol = std::log(1.5);
  std::vector<Run> Pl;
  for (const Run &R : Runs) {
    if (!Pl.empty() && std::fabs(R.Ref - Pl.back().Ref) < MergeTol) {
      Pl.back().B = R.B;
      Pl.back().Ref = RefOf(Pl.back().A, Pl.back().B);
      continue;
    }
    Pl.push_back(R);
  }
  std::vector<MeasuredLevel> Out;
  if (Pl.empty())
    return Out;
  bool LastIsMemory = Levels == 0 || Pl.size() >= Levels + 1 ||
                      (ReportedMax > 0 && W.back() >= 2 * ReportedMax);
  for (size_t K = 0; K < Pl.size(); ++K) {
    MeasuredLevel M;
    bool Memory = LastIsMemory && K + 1 == Pl.size();
    M.Name = Memory ? "DRAM" : "L" + std::to_string(K + 1);
    std::vector<double> L, B;
    for (size_t I = Pl[K].A; I < Pl[K].B; ++I) {
      L.push_back(Lat[I]);
      B.push_back(Bw[I]);
    }
    M.Latency = median(L);
    M.Bandwidth = median(B);
    M.Lo = W[Pl[K].A];
    M.Hi = W[Pl[K].B - 1];
    M.Points = L.size();
    if (K + 1 < Pl.size()) {
      // The crossing of the geometric mean of the two plateaus' latencies.
      double Mid = (Pl[K].Ref + Pl[K + 1].Ref) / 2;
      size_t I = Pl[K].B - 1;
      while (I + 1 < Pl[K + 1].A + 1 && std::log(Lat[I + 1]) < Mid)
        ++I;
      if (I + 1 >= N) {
        M.Size = W[I];
      } else {
        double Y0 = std::log(Lat[I]), Y1 = std::log(Lat[I + 1]);
        double F = Y1 > Y0 ? std::clamp((Mid - Y0) / (Y1 - Y0), 0.0, 1.0) : 0.5;
        M.Size = std::exp2(std::log2(W[I]) + F * (std::log2(W[I + 1]) - std::log2(W[I])));
      }
      M.Knee = true;
    }
    Out.push_back(M);
  }
  return Out;
}

} // namespace segtime
