/*===- Latency.c - latencies of the instruction classes of loop-carried chains (whole program) -===*/
/* Compiled at -O2. Each kernel is a chain of 16 dependent operations per loop
   iteration (an empty asm statement after each keeps the value in a register
   and stops the compiler from folding or reordering the chain), so the loop
   runs at one operation per latency of the class. Per repetition, the
   fastest of 3 passes of each kernel, divided by the fastest of 3 passes of
   a chain of dependent integer adds of the same length (1 cycle each, the
   core clock's probe): latencies in core cycles, free of the clock's phase.
   Prints one line per repetition, in this order (-1: not measured here):
     fp.add   x = x + y         (double)
     fp.mul   x = x * y         (double)
     fp.fma   x = fma(x, y, z)  (double; x86-64 with FMA3, AArch64)
     fp.div   x = x / y         (double)
     int.mul  x = x * y         (64-bit integer)
     load     p = *p            (pointer chase within one 64 B line: L1 hit,
                                 load-to-use latency)
   then, on the same line, the reciprocal throughputs (cycles per operation
   of 16 independent operations per iteration: each reads registers that an
   empty asm statement "changes" and writes a fresh value, so the core
   issues them as fast as its ports allow) of
     fp.add, fp.mul, fp.fma, fp.div, int.mul (as above)
     fp.cvt   i = (int)x         (double and float to 32-bit integer, 8 each)
     store.masked  vmaskmovps ymm to L1, three columns by mask: all eight
                   lanes, every other lane, none (x86-64 with AVX)
     load.split    vmovups from L1 that cross a 64 B line, three columns:
                   ymm at 36 B into the line, xmm at 56 B, and (the
                   reference) ymm at the line's start (x86-64 with AVX)
   then the reorder window: a loop whose iterations each restart a chain of
   32 dependent FMAs (s = x, then s = fma(s, y, z) 32 times: 128 cycles at
   4) with P independent 1-micro-op integer operations (lea) between its
   steps, P = 96 and 192, printed as time per iteration / 16. With K
   iterations in flight, time per iteration = chain / K (Little's law), and
   K = window / micro-ops per iteration: the time grows by chain x 96 /
   window from P = 96 to 192 (-1 without FMA).
   Usage: latency REPS N (N iterations of 16 operations). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
#define R16(S) S S S S S S S S S S S S S S S S
#define KEEP(v, c) __asm__ volatile("" : "+" c(v));
__attribute__((noinline)) static long chain_add(long n, long y) {
  long x = 1;
  for (long i = 0; i < n; i++) { R16(x += y; KEEP(x, "r")) }
  return x;
}
__attribute__((noinline)) static double chain_fadd(long n, double y) {
  double x = 1;
  for (long i = 0; i < n; i++) { R16(x = x + y; KEEP(x, "x")) }
  return x;
}
__attribute__((noinline)) static double chain_fmul(long n, double y) {
  double x = 1;
  for (long i = 0; i < n; i++) { R16(x = x * y; KEEP(x, "x")) }
  return x;
}
#if defined(__x86_64__)
#define HAVE_FMA 1
__attribute__((noinline, target("fma"))) static double chain_fma(long n, double y, double z) {
  double x = 1;
  for (long i = 0; i < n; i++) { R16(x = __builtin_fma(x, y, z); KEEP(x, "x")) }
  return x;
}
static int fma_ok(void) { return __builtin_cpu_supports("fma"); }
#elif defined(__aarch64__)
#define HAVE_FMA 1
__attribute__((noinline)) static double chain_fma(long n, double y, double z) {
  double x = 1;
  for (long i = 0; i < n; i++) { R16(x = __builtin_fma(x, y, z); KEEP(x, "w")) }
  return x;
}
static int fma_ok(void) { return 1; }
#else
#define HAVE_FMA 0
static double chain_fma(long n, double y, double z) { (void)n; (void)y; return z; }
static int fma_ok(void) { return 0; }
#endif
__attribute__((noinline)) static double chain_fdiv(long n, double y) {
  double x = 1;
  for (long i = 0; i < n; i++) { R16(x = x / y; KEEP(x, "x")) }
  return x;
}
__attribute__((noinline)) static long chain_imul(long n, long y) {
  long x = 1;
  for (long i = 0; i < n; i++) { R16(x = x * y; KEEP(x, "r")) }
  return x;
}
__attribute__((noinline)) static long chain_load(long n, void **p) {
  for (long i = 0; i < n; i++) { R16(p = (void **)*p; KEEP(p, "r")) }
  return (long)p;
}
/* Independent operations: the inputs pass through an empty asm statement
   before each one (so it is computed again), the result through one after. */
#define TP(T, expr, c, cin) { T r_ = (expr); KEEP(r_, c) KEEP(y, cin) }
__attribute__((noinline)) static double tp_fadd(long n, double y, double z) {
  double acc = 0;
  for (long i = 0; i < n; i++) { R16(TP(double, y + z, "x", "x")) KEEP(acc, "x") }
  return acc;
}
__attribute__((noinline)) static double tp_fmul(long n, double y, double z) {
  double acc = 0;
  for (long i = 0; i < n; i++) { R16(TP(double, y * z, "x", "x")) KEEP(acc, "x") }
  return acc;
}
#if defined(__x86_64__)
__attribute__((noinline, target("fma"))) static double tp_fma(long n, double y, double z) {
  double acc = 0;
  for (long i = 0; i < n; i++) { R16(TP(double, __builtin_fma(y, z, y), "x", "x")) KEEP(acc, "x") }
  return acc;
}
#elif defined(__aarch64__)
__attribute__((noinline)) static double tp_fma(long n, double y, double z) {
  double acc = 0;
  for (long i = 0; i < n; i++) { R16(TP(double, __builtin_fma(y, z, y), "w", "w")) KEEP(acc, "w") }
  return acc;
}
#else
static double tp_fma(long n, double y, double z) { (void)n; (void)y; return z; }
#endif
__attribute__((noinline)) static double tp_fdiv(long n, double y, double z) {
  double acc = 0;
  for (long i = 0; i < n; i++) { R16(TP(double, y / z, "x", "x")) KEEP(acc, "x") }
  return acc;
}
__attribute__((noinline)) static long tp_imul(long n, long y, long z) {
  long acc = 0;
  for (long i = 0; i < n; i++) { R16(TP(long, y * z, "r", "r")) KEEP(acc, "r") }
  return acc;
}
__attribute__((noinline)) static long tp_cvt(long n, double y, float f) {
  long acc = 0;
  for (long i = 0; i < n; i++) {
    R16(
      { int r_ = (int)y; KEEP(r_, "r") KEEP(y, "x") }
      { int s_ = (int)f; KEEP(s_, "r") KEEP(f, "x") }
    )
  }
  return acc;
}
/* Masked vector stores (vmaskmovps ymm, AVX): 16 independent ones per
   iteration to 16 distinct 32 B slots of one 512 B buffer (in L1), the data
   register "changed" by an empty asm statement after each; the mask passes
   through one before the loop, so that the compiler neither drops an empty
   mask's store nor makes a full mask's an ordinary store. */
#if defined(__x86_64__)
#include <immintrin.h>
#define HAVE_MASKSTORE 1
static float mbuf[16 * 8] __attribute__((aligned(64)));
#define MS(j) _mm256_maskstore_ps(mbuf + 8 * (j), m, v); KEEP(v, "x")
__attribute__((noinline, target("avx"))) static double tp_maskstore(long n, int pattern) {
  __m256i m = pattern == 0   ? _mm256_set1_epi32(-1)
              : pattern == 1 ? _mm256_setr_epi32(-1, 0, -1, 0, -1, 0, -1, 0)
                             : _mm256_setzero_si256();
  __m256 v = _mm256_set1_ps(1.0f);
  KEEP(m, "x")
  for (long i = 0; i < n; i++) {
    MS(0) MS(1) MS(2) MS(3) MS(4) MS(5) MS(6) MS(7)
    MS(8) MS(9) MS(10) MS(11) MS(12) MS(13) MS(14) MS(15)
  }
  return mbuf[0];
}
static int maskstore_ok(void) { return __builtin_cpu_supports("avx"); }
#else
#define HAVE_MASKSTORE 0
static double tp_maskstore(long n, int pattern) { (void)n; return pattern; }
static int maskstore_ok(void) { return 0; }
#endif
/* Vector loads across a line (vmovups, AVX): 16 independent ones per
   iteration, one in each of 16 consecutive 64 B lines of a 1088 B buffer
   (in L1), each into its own register (inline asm: the compiler neither
   hoists nor merges them); Where 0: ymm at byte 36 of each line (bytes
   36..67: two lines), 1: xmm at byte 56 (56..71), 2: ymm at byte 0 (one
   line, the reference). */
#if defined(__x86_64__)
#define HAVE_SPLITLOAD 1
static char lbuf[17 * 64] __attribute__((aligned(64)));
#define LD(w, off, k) "vmovups " #off "+" #k "*64(%0), %%" w #k "\n\t"
#define LD16(w, off) LD(w, off, 0) LD(w, off, 1) LD(w, off, 2) LD(w, off, 3) LD(w, off, 4) \
  LD(w, off, 5) LD(w, off, 6) LD(w, off, 7) LD(w, off, 8) LD(w, off, 9) LD(w, off, 10)     \
  LD(w, off, 11) LD(w, off, 12) LD(w, off, 13) LD(w, off, 14) LD(w, off, 15)
#define LDCLOBBER "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", \
  "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15"
__attribute__((noinline, target("avx"))) static double tp_splitload(long n, int where) {
  const char *p = lbuf;
  KEEP(p, "r")
  for (long i = 0; i < n; i++) {
    if (where == 0)
      __asm__ volatile(LD16("ymm", 36) :: "r"(p) : LDCLOBBER);
    else if (where == 1)
      __asm__ volatile(LD16("xmm", 56) :: "r"(p) : LDCLOBBER);
    else
      __asm__ volatile(LD16("ymm", 0) :: "r"(p) : LDCLOBBER);
  }
  return lbuf[0];
}
static int splitload_ok(void) { return __builtin_cpu_supports("avx"); }
#else
#define HAVE_SPLITLOAD 0
static double tp_splitload(long n, int where) { (void)n; return where; }
static int splitload_ok(void) { return 0; }
#endif
/* One step of the restarted chain and its P independent leas. */
#define LEA(v) { long r_ = v + w; KEEP(r_, "r") KEEP(v, "r") }
#define STEP3 s = __builtin_fma(s, y, z); KEEP(s, "x") LEA(a) LEA(b) LEA(c)
#define STEP6 STEP3 LEA(d) LEA(e) LEA(f)
#if defined(__x86_64__)
#define WIN_ATTR __attribute__((noinline, target("fma")))
#else
#define WIN_ATTR __attribute__((noinline))
#endif
WIN_ATTR static double window3(long n, double x, double y, double z, long w) {
  long a = 1, b = 2, c = 3;
  double acc = 0;
  for (long i = 0; i < n; i++) {
    double s = x;
    R16(STEP3) R16(STEP3)
    acc = s; KEEP(acc, "x") KEEP(x, "x")
  }
  return acc + (double)(a + b + c);
}
WIN_ATTR static double window6(long n, double x, double y, double z, long w) {
  long a = 1, b = 2, c = 3, d = 4, e = 5, f = 6;
  double acc = 0;
  for (long i = 0; i < n; i++) {
    double s = x;
    R16(STEP6) R16(STEP6)
    acc = s; KEEP(acc, "x") KEEP(x, "x")
  }
  return acc + (double)(a + b + c + d + e + f);
}
static volatile double sink;
static volatile long one = 1;
static volatile double fone = 1.0, fzero = 0.0;
static void *cells[8] __attribute__((aligned(64)));
static double best(int k, long n) {
  double b = 1e30;
  for (int r = 0; r < 3; r++) {
    double t0 = now();
    switch (k) {
    case 0: sink += chain_add(n, one); break;
    case 1: sink += chain_fadd(n, fzero); break;
    case 2: sink += chain_fmul(n, fone); break;
    case 3: sink += chain_fma(n, fone, fzero); break;
    case 4: sink += chain_fdiv(n / 4, fone); break; /* a quarter: ~13 cycles each */
    case 5: sink += chain_imul(n, one); break;
    case 6: sink += chain_load(n, cells); break;
    case 7: sink += tp_fadd(n, fone, fzero); break;
    case 8: sink += tp_fmul(n, fone, fone); break;
    case 9: sink += tp_fma(n, fone, fzero); break;
    case 10: sink += tp_fdiv(n / 4, fone, fone); break;
    case 11: sink += tp_imul(n, one, one); break;
    case 12: sink += tp_cvt(n / 2, fone, (float)fone); break; /* 32 conversions each */
    case 13: case 14: case 15: sink += tp_maskstore(n, k - 13); break;
    case 16: case 17: case 18: sink += tp_splitload(n, k - 16); break;
    case 19: sink += window3(n / 4, fone, fone, fzero, one); break;
    default: sink += window6(n / 4, fone, fone, fzero, one); break;
    }
    double t = now() - t0;
    if (k == 4 || k == 10 || k >= 19) t *= 4;
    if (k == 12) t *= 2;
    if (t < b) b = t;
  }
  return b;
}
int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 5;
  long n = argc > 2 ? atol(argv[2]) : 2000000;
  for (int i = 0; i < 8; i++) cells[i] = &cells[(i + 1) % 8];
  for (int r = 0; r < reps; r++) {
    for (int k = 0; k <= 20; k++) {
      int fma = k == 3 || k == 9 || k >= 19, masked = k >= 13 && k <= 15;
      int split = k >= 16 && k <= 18;
      int skip = (fma && !(HAVE_FMA && fma_ok())) || (masked && !(HAVE_MASKSTORE && maskstore_ok())) ||
                 (split && !(HAVE_SPLITLOAD && splitload_ok()));
      printf("%s%.5f", k ? " " : "", skip ? -1.0 : best(k, n) / (16.0 * n) * 1e9);
    }
    printf("\n");
  }
  return 0;
}
