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
    default: sink += chain_load(n, cells); break;
    }
    double t = now() - t0;
    if (k == 4) t *= 4;
    if (t < b) b = t;
  }
  return b;
}
int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 5;
  long n = argc > 2 ? atol(argv[2]) : 2000000;
  for (int i = 0; i < 8; i++) cells[i] = &cells[(i + 1) % 8];
  for (int r = 0; r < reps; r++) {
    for (int k = 0; k <= 6; k++)
      printf("%s%.5f", k ? " " : "", k == 3 && !(HAVE_FMA && fma_ok()) ? -1.0 : best(k, n) / (16.0 * n) * 1e9);
    printf("\n");
  }
  return 0;
}
