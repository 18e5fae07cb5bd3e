//===- BenchSource.cpp - C benchmarks for `segtime calibrate` -------------===//
///
/// \file
/// The generator of the calibration program (see BenchSource.h). One Spec
/// per HLLC construct says which locals a benchmark declares and which
/// statement(s) it repeats; the statements of a Spec are used in turn over
/// the Unroll repetitions of the loop body.
///
/// USAGE:
///   std::vector<BenchInfo> B;
///   std::string C = generateBenchSource(16, B);
///
//===----------------------------------------------------------------------===//
#include "tools/calib/BenchSource.h"
#include "tools/calib/TrainingSource.h"

#include "core/Vocabulary.h"

#include <map>
#include <sstream>
#include <stdexcept>

namespace segtime {
namespace {

/// How one benchmark is built.
struct Spec {
  std::string Decls;              ///< locals, declared before the loop
  std::string Setup;              ///< before the loop: barriers that hide initial values
  std::vector<std::string> Reps;  ///< statements used in turn, Unroll in all
  unsigned Unroll = 0;            ///< 0: the global Unroll
};

/// A C type of one HLLC type prefix, its barrier macro and the initial
/// values of the operands y and z (the i64 dividend needs more than 32 bits,
/// so that -O2 code takes its 64-bit division path).
struct CType {
  const char *Key, *C, *Bar, *Y, *Z;
};
const CType Types[] = {{"i32", "int", "B", "12345", "678"},
                       {"i64", "long", "B", "123456789012L", "1009L"},
                       {"f32", "float", "BF", "0.7f", "1.3f"},
                       {"f64", "double", "BF", "0.7", "1.3"}};

std::string decls(const CType &T, bool WithC = false) {
  return std::string(T.C) + " x = 0, y = " + T.Y + ", z = " + T.Z + ";" +
         (WithC ? " int c = 0;" : "");
}

/// Statement "x = EXPR;" plus the barriers that consume x and refresh y.
std::string assign(const CType &T, const std::string &Expr, const char *Dst = "x",
                   const char *DstBar = nullptr, bool RefreshZ = false) {
  std::string S = std::string(Dst) + " = " + Expr + "; " + (DstBar ? DstBar : T.Bar) + "(" +
                  Dst + "); " + T.Bar + "(y);";
  if (RefreshZ)
    S += std::string(" ") + T.Bar + "(z);";
  return S;
}

std::map<std::string, Spec> buildSpecs() {
  std::map<std::string, Spec> M;
  for (const CType &T : Types) {
    std::string K = T.Key;
    bool Int = K[0] == 'i';
    std::string Setup = std::string(T.Bar) + "(y); " + T.Bar + "(z);";
    auto Arith = [&](const std::string &Op, std::vector<std::string> Exprs) {
      Spec S{decls(T), Setup, {}};
      for (const std::string &E : Exprs)
        S.Reps.push_back(assign(T, E));
      M[K + "." + Op] = S;
    };
    Arith("add", {"y + z"});
    Arith("sub", {"y - z"});
    Arith("mul", {"y * z"});
    Arith("div", {"y / z"});
    {
      Spec S{decls(T, true), Setup, {}};
      for (const char *Rel : {"<", "==", ">"})
        S.Reps.push_back(assign(T, std::string("y ") + Rel + " z", "c", "B"));
      M[K + ".cmp"] = S;
    }
    if (Int) {
      Arith("abs", {K == "i32" ? "abs(y)" : "labs(y)"});
      Arith("rem", {"y % z"});
      Arith("shift", {"y << 3", "y >> 2"});
      Arith("bit", {"y & z", "y | z", "y ^ z"});
      continue;
    }
    std::string F = K == "f32" ? "f" : "";
    auto Fn = [&](const std::string &Op, std::vector<std::string> Calls) {
      Spec S{decls(T), Setup, {}};
      for (const std::string &C : Calls)
        S.Reps.push_back(assign(T, C, "x", nullptr, C.find('z') != std::string::npos));
      M[K + "." + Op] = S;
    };
    Fn("abs", {"fabs" + F + "(y)"});
    Fn("sqrt", {"sqrt" + F + "(y)"});
    Fn("exp", {"exp" + F + "(y)"});
    Fn("log", {"log" + F + "(z)"});
    {
      // sin and cos at arguments from the fast path (|x| < pi/4) to ones that
      // need argument reduction, as in sin(2*pi*k*t/n).
      Spec S{std::string(T.C) + " x = 0, y = 0.7" + F + ", z = 1.9" + F + ", u = 4.1" + F +
                 ", v = 313.7" + F + ";",
             "BF(y); BF(z); BF(u); BF(v);",
             {}};
      const char *Args[] = {"y", "z", "u", "v"};
      for (int I = 0; I < 8; ++I) {
        std::string A = Args[I % 4];
        std::string Call = ((I + I / 4) % 2 ? "cos" : "sin") + F + "(" + A + ")";
        S.Reps.push_back("x = " + Call + "; BF(x); BF(" + A + ");");
      }
      M[K + ".trig"] = S;
    }
    Fn("pow", {"pow" + F + "(z, y)"});
    Fn("libm", {"tanh" + F + "(y)", "cbrt" + F + "(z)", "erf" + F + "(y)",
                "hypot" + F + "(y, z)"});
  }
  // Conversions, both directions of each kind in turn. Sources (i, l, f, d)
  // are only read and destinations (j, m, g, e) only written, so no chain of
  // dependences runs through memory at -O0.
  const std::string CvtDecls = "int i = 12345, j = 0; long l = 678, m = 0; "
                               "float f = 0.7f, g = 0; double d = 1.3, e = 0;";
  const std::string CvtSetup = "B(i); B(l); BF(f); BF(d);";
  M["cvt.i2f"] = {CvtDecls, CvtSetup, {"e = i; BF(e); B(i);", "g = l; BF(g); B(l);"}};
  M["cvt.f2i"] = {CvtDecls, CvtSetup, {"j = d; B(j); BF(d);", "m = f; B(m); BF(f);"}};
  M["cvt.f2f"] = {CvtDecls, CvtSetup, {"e = f; BF(e); BF(f);", "g = d; BF(g); BF(d);"}};
  M["cvt.i2i"] = {CvtDecls, CvtSetup, {"m = i; B(m); B(i);", "j = l; B(j); B(l);"}};
  // Control. Branch arms count nothing, so the branch probabilities drop out
  // of the counts; each branch goes the same way every time (predicted).
  M["loop"] = {"", "",
               {"long m = 16; B(m);\n    for (long j = 0; j < m; j++) { B0(); }"}, 1};
  M["if"] = {"int y = 1, z = 2, a = 0, b = 0;", "B(y); B(z);",
             {"if (y < z) { B(a); } else { B(b); } B(y);"}};
  {
    std::string Sw = "switch (y) {";
    for (int C = 0; C < 8; ++C)
      Sw += " case " + std::to_string(C) + ": B(a" + std::to_string(C) + "); break;";
    Sw += " default: B(a8); break; } B(y);";
    M["switch"] = {"int y = 3, a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, "
                   "a7 = 0, a8 = 0;",
                   "B(y);", {Sw}};
  }
  M["call"] = {"", "", {"nop0();"}};
  // Memory references. Global and array accesses are kept by a "memory"
  // clobber; memcpy copies 1024 bytes between two global arrays.
  M["mem.local.read"] = {"int x = 0, y = 12345;", "B(y);", {"x = y; B(x); B(y);"}};
  M["mem.local.write"] = {"int x = 0;", "", {"x = 5; B(x);"}};
  M["mem.global.read"] = {"int x = 0;", "", {"x = g_int; B(x); CLOBBER();"}};
  M["mem.global.write"] = {"", "", {"g_int = 5; CLOBBER();"}};
  M["mem.array.read"] = {"int x = 0, i = 3;", "B(i);", {"x = g_arr[i]; B(x); CLOBBER();"}};
  M["mem.array.write"] = {"int i = 3;", "B(i);", {"g_arr[i] = 5; CLOBBER();"}};
  M["mem.copy.byte"] = {"long n = 1024;", "", {"memcpy(g_dst, g_src, n); CLOBBER();"}};
  return M;
}

/// C identifier part of a construct name: "mem.local.read" -> "mem_local_read".
std::string ident(const std::string &Construct) {
  std::string S = Construct;
  for (char &C : S)
    if (C == '.')
      C = '_';
  return S;
}

/// S on one line, runs of spaces collapsed (for BenchInfo::What).
std::string collapse(const std::string &S) {
  std::string R;
  for (char C : S)
    R += C == '\n' ? ' ' : C;
  size_t P;
  while ((P = R.find("  ")) != std::string::npos)
    R.erase(P, 1);
  return R;
}

const char *Prologue = R"C(/* Generated by `segtime calibrate` (tools/calib/BenchSource.cpp). Do not edit.
 * One benchmark per HLLC construct, a loop baseline and POC kernels; main()
 * times them: ./bench TARGET_SECONDS REPS MASK (MASK bits: 1 HLLC, 2 POC, 4 training).
 * Times are seconds per call, printed as JSON. */
#define _GNU_SOURCE /* sched_getcpu, sched_setaffinity */
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef __OPTIMIZE__
/* Barriers: the asm is empty (the segtime plugin counts nothing for it), but
 * the compiler must assume it reads and changes the operand, or memory. */
#define B(v) __asm__ volatile("" : "+r"(v))
#if defined(__x86_64__) || defined(__i386__)
#define BF(v) __asm__ volatile("" : "+x"(v)) /* SSE register */
#elif defined(__aarch64__)
#define BF(v) __asm__ volatile("" : "+w"(v)) /* SIMD/FP register */
#else
#define BF(v) __asm__ volatile("" : "+r"(v))
#endif
#define B0() __asm__ volatile("")
#define CLOBBER() __asm__ volatile("" ::: "memory")
#else
/* -O0 folds nothing; a "+r" asm would add an uncounted load and store. */
#define B(v)
#define BF(v)
#define B0()
#define CLOBBER()
#endif

int g_int = 12345;
int g_arr[64];
char g_src[1024], g_dst[1024];

#define NV 256
double pa[NV], pb[NV], pc[NV], pcoef[16];

static __attribute__((noinline)) void nop0(void) { B0(); }
)C";

const char *Kernels = R"C(
/* POC kernels (PARKBENCH-93 RINF1 style), in cache: 4 arrays of 256 doubles. */
void poc_dot(long R) {
  for (long r = 0; r < R; r++) {
    double s = 0.0;
    for (int i = 0; i < NV; i++)
      s += pa[i] * pb[i];
    BF(s);
    CLOBBER();
  }
}

void poc_daxpy(long R) {
  double alpha = 1.0e-9;
  BF(alpha);
  for (long r = 0; r < R; r++) {
    for (int i = 0; i < NV; i++)
      pc[i] = pc[i] + alpha * pa[i];
    CLOBBER();
  }
}

void poc_horner(long R) {
  for (long r = 0; r < R; r++) {
    for (int i = 0; i < NV; i++) {
      double x = pa[i], p = pcoef[0];
      for (int k = 1; k < 16; k++)
        p = p * x + pcoef[k];
      pb[i] = p;
    }
    CLOBBER();
  }
}

void poc_rational(long R) {
  for (long r = 0; r < R; r++) {
    for (int i = 0; i < NV; i++)
      pb[i] = (1.5 * pa[i] + 0.5) / (0.25 * pa[i] + 2.0);
    CLOBBER();
  }
}
)C";

const char *Main = R"C(
static double clock_s(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Wall-clock seconds of one call; *cpu gets the seconds this thread ran. */
static double time_call(bench_fn fn, long R, double *cpu) {
  double c0 = clock_s(CLOCK_THREAD_CPUTIME_ID), w0 = clock_s(CLOCK_MONOTONIC);
  fn(R);
  double w = clock_s(CLOCK_MONOTONIC) - w0;
  *cpu = clock_s(CLOCK_THREAD_CPUTIME_ID) - c0;
  return w;
}

/* CPU this program is pinned to (-1: not pinned). */
static int my_cpu = -1;

/* Busy clock ticks (user, nice, system, irq, softirq) of every CPU but ours
 * since boot, from /proc/stat; *n gets the number of those CPUs. -1 if
 * /proc/stat cannot be read. */
static long long others_busy(int *n) {
  FILE *f = fopen("/proc/stat", "r");
  if (!f)
    return -1;
  char line[512];
  long long sum = 0;
  *n = 0;
  while (fgets(line, sizeof line, f)) {
    int cpu;
    unsigned long long u, ni, sy, id, io, irq, sirq;
    if (strncmp(line, "cpu", 3) != 0 || line[3] < '0' || line[3] > '9')
      continue;
    if (sscanf(line + 3, "%d %llu %llu %llu %llu %llu %llu %llu", &cpu, &u, &ni, &sy, &id, &io,
               &irq, &sirq) != 8)
      continue;
    if (cpu == my_cpu)
      continue;
    sum += (long long)(u + ni + sy + irq + sirq);
    *n += 1;
  }
  fclose(f);
  return sum;
}

/* A call is disturbed if other processes ran instead of it for more than 2%
 * of its wall time, or kept the other CPUs more than 25% busy meanwhile
 * (they may share this core's execution units or caches). */
static int disturbed(double wall, double cpu, long long busy0, long long busy1, int n) {
  if (cpu < 0.98 * wall)
    return 1;
  if (busy0 < 0 || busy1 < 0 || n == 0 || my_cpu < 0)
    return 0;
  double ticks = wall * (double)sysconf(_SC_CLK_TCK);
  return (double)(busy1 - busy0) > 0.25 * ticks * n;
}

/* One timed call (wall-clock s); *bad set if it was disturbed. */
static double sample(bench_fn fn, long R, int *bad) {
  int n0 = 0, n1 = 0;
  double cpu;
  long long b0 = others_busy(&n0);
  double w = time_call(fn, R, &cpu);
  long long b1 = others_busy(&n1);
  *bad = disturbed(w, cpu, b0, b1, n0 == n1 ? n0 : 0);
  return w;
}

/* About the R for which one call runs target seconds (CPU time, so that a
 * busy machine does not shorten the calls). */
static long pick_R(bench_fn fn, double target) {
  long R = 1;
  for (;;) {
    double cpu, w = time_call(fn, R, &cpu);
    double t = cpu > 0 ? cpu : w;
    if (t >= target / 8 || R >= (1L << 40)) {
      double f = target / (t > 0 ? t : 1e-9);
      long N = (long)((double)R * f) + 1;
      return N < 1 ? 1 : N;
    }
    double grow = t > 0 ? target / (4 * t) : 64;
    if (grow < 2)
      grow = 2;
    if (grow > 64)
      grow = 64;
    R = (long)((double)R * grow) + 1;
  }
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s TARGET_SECONDS REPS MASK\n", argv[0]);
    return 2;
  }
  double target = atof(argv[1]);
  int reps = atoi(argv[2]), mask = atoi(argv[3]);
  int nb = (int)(sizeof benches / sizeof benches[0]);
  if (target <= 0 || reps < 1) {
    fprintf(stderr, "bad arguments\n");
    return 2;
  }
  for (int i = 0; i < NV; i++) {
    pa[i] = 0.5 + 0.05 * (i % 7);
    pb[i] = 1.0 - 0.03 * (i % 5);
    pc[i] = 0.25 * (i % 3);
  }
  for (int k = 0; k < 16; k++)
    pcoef[k] = 1.0 / (k + 1);
  for (int i = 0; i < 1024; i++)
    g_src[i] = (char)i;
  /* Stay on one CPU, so that the activity of the others can be told apart. */
  int here = sched_getcpu();
  cpu_set_t set;
  CPU_ZERO(&set);
  if (here >= 0) {
    CPU_SET(here, &set);
    if (sched_setaffinity(0, sizeof set, &set) == 0)
      my_cpu = here;
  }
  long *Rs = calloc((size_t)nb, sizeof *Rs);
  int *bad = calloc((size_t)nb, sizeof *bad), *retries = calloc((size_t)nb, sizeof *retries);
  double *t = calloc((size_t)nb * (size_t)reps, sizeof *t);
  if (!Rs || !bad || !retries || !t)
    return 3;
  long active = 0;
  for (int b = 0; b < nb; b++)
    if (benches[b].kind & mask) {
      Rs[b] = pick_R(benches[b].fn, target);
      active++;
    }
  /* Repetition k of every benchmark, then k+1: drifts hit all alike. A call
   * disturbed by other processes is repeated, within a budget of twice the
   * number of samples; a disturbed call kept is counted in "disturbed". */
  long budget = 2 * active * reps;
  for (int k = 0; k < reps; k++)
    for (int b = 0; b < nb; b++) {
      if (!(benches[b].kind & mask))
        continue;
      int dist;
      double w = sample(benches[b].fn, Rs[b], &dist);
      while (dist && budget > 0) {
        budget--;
        retries[b]++;
        w = sample(benches[b].fn, Rs[b], &dist);
      }
      bad[b] += dist;
      t[b * reps + k] = w;
    }
  printf("{\"target_s\": %.6g, \"reps\": %d, \"benchmarks\": [", target, reps);
  int first = 1;
  for (int b = 0; b < nb; b++) {
    if (!(benches[b].kind & mask))
      continue;
    printf("%s\n {\"name\": \"%s\", \"R\": %ld, \"disturbed\": %d, \"retries\": %d, "
           "\"times\": [",
           first ? "" : ",", benches[b].name, Rs[b], bad[b], retries[b]);
    first = 0;
    for (int k = 0; k < reps; k++)
      printf("%s%.9e", k ? ", " : "", t[b * reps + k]);
    printf("]}");
  }
  printf("\n]}\n");
  return 0;
}
)C";

} // namespace

std::string generateBenchSource(unsigned Unroll, std::vector<BenchInfo> &Benches) {
  static const std::map<std::string, Spec> Specs = buildSpecs();
  Benches.clear();
  std::ostringstream OS;
  OS << Prologue;
  auto Emit = [&](const std::string &Name, const std::string &Comment, const Spec &S) {
    OS << "\n/* " << Comment << " */\nvoid " << Name << "(long R) {\n";
    if (!S.Decls.empty())
      OS << "  " << S.Decls << "\n";
    if (!S.Setup.empty())
      OS << "  " << S.Setup << "\n";
    OS << "  for (long r = 0; r < R; r++) {\n";
    unsigned U = S.Unroll ? S.Unroll : Unroll;
    for (unsigned I = 0; I < U; ++I)
      OS << "    " << S.Reps[I % S.Reps.size()] << "\n";
    OS << "  }\n}\n";
  };
  // Baseline: the loop alone (Saavedra-Barrera's loop-overhead benchmark).
  Spec Base{"", "", {"B0();"}, 1};
  Emit("bench_baseline", "baseline: loop overhead alone", Base);
  Benches.push_back({"bench_baseline", "loop", false, "for (...) { }"});
  for (const Construct &C : hllcVocabulary()) {
    auto It = Specs.find(C.Name);
    if (It == Specs.end())
      throw std::logic_error("calibrate: no benchmark for HLLC construct '" + C.Name + "'");
    std::string Fn = "bench_" + ident(C.Name);
    Emit(Fn, C.Name + ": " + C.Description, It->second);
    std::string What;
    for (const std::string &R : It->second.Reps)
      What += (What.empty() ? "" : " | ") + collapse(R);
    Benches.push_back({Fn, C.Name, false, What});
  }
  OS << Kernels;
  for (const char *K : {"poc_dot", "poc_daxpy", "poc_horner", "poc_rational"})
    Benches.push_back({K, "", true, K});
  OS << trainingSource();
  for (const BenchInfo &B : trainingBenches())
    Benches.push_back(B);
  OS << "\ntypedef void (*bench_fn)(long);\nstatic const struct {\n  const char *name;\n"
        "  bench_fn fn;\n  int kind;\n} benches[] = {\n";
  for (const BenchInfo &B : Benches)
    OS << "    {\"" << B.Function << "\", " << B.Function << ", "
       << (B.Poc ? MaskPoc : B.Train ? MaskTrain : MaskHllc) << "},\n";
  OS << "};\n" << Main;
  return OS.str();
}

} // namespace segtime
