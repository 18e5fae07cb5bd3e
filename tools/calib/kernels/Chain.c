/*===- Chain.c - loop-carried chains through a stack variable at -O0 (whole program) -===*/
/* Compiled at -O0: every scalar below lives in its stack slot, so each loop
   iteration is a chain load -> operations -> store -> (store-to-load
   forwarding) -> load. The counter i is such a chain too (one integer add),
   never longer than the chain under test. Per repetition, the fastest of 3
   passes of each loop; prints per repetition the ns per iteration of
     int1  x = x + c        (long: forwarding + 1 integer add)
     int2  x = x + c + c    (forwarding + 2 integer adds)
     fadd1 x = x + c        (double: forwarding + 1 fp add)
     fadd2 x = x + c + c    (forwarding + 2 fp adds)
     fmul1 x = x * c        (forwarding + 1 fp mul)
     load1 p = *p           (pointer: forwarding + 1 load of another cell)
   then, for m = 4, 8, 16, 32, a short inner loop of m iterations run n/m
   times whose chain restarts in every execution, and the same loop without
   the chain (the window of restarted chains, chain.window):
     rchainM  { double x = 0; for (j < m) x = x + c; t = x; }
     rfreeM   { double x = 0; for (j < m) x = y + c; t = x; }  (y is not stored:
              the same instructions, no chain) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
__attribute__((noinline)) static long int1(long n, long c) { long x = 0; for (long i = 0; i < n; i++) x = x + c; return x; }
__attribute__((noinline)) static long int2(long n, long c) { long x = 0; for (long i = 0; i < n; i++) x = x + c + c; return x; }
__attribute__((noinline)) static double fadd1(long n, double c) { double x = 0; for (long i = 0; i < n; i++) x = x + c; return x; }
__attribute__((noinline)) static double fadd2(long n, double c) { double x = 0; for (long i = 0; i < n; i++) x = x + c + c; return x; }
__attribute__((noinline)) static double fmul1(long n, double c) { double x = 1; for (long i = 0; i < n; i++) x = x * c; return x; }
__attribute__((noinline)) static long load1(long n) {
  void *cell = &cell; /* a cell that points to itself: p = *p stays &cell */
  void **p = (void **)&cell;
  for (long i = 0; i < n; i++) p = (void **)*p;
  return (long)(p != (void **)&cell);
}
__attribute__((noinline)) static double rchain(long n, long m, double c) {
  double t = 0;
  for (long i = 0; i < n; i += m) { double x = 0; for (long j = 0; j < m; j++) x = x + c; t = x; }
  return t;
}
__attribute__((noinline)) static double rfree(long n, long m, double c) {
  double t = 0, y = 1;
  for (long i = 0; i < n; i += m) { double x = 0; for (long j = 0; j < m; j++) x = y + c; t = x; }
  return t;
}
static volatile double sink;
static double best(int k, long n) {
  double b = 1e30;
  for (int r = 0; r < 3; r++) {
    double t0 = now();
    switch (k) {
    case 0: sink += int1(n, 3); break;
    case 1: sink += int2(n, 3); break;
    case 2: sink += fadd1(n, 1.0); break;
    case 3: sink += fadd2(n, 1.0); break;
    case 4: sink += fmul1(n, 0.9999999); break;
    case 5: sink += load1(n); break;
    default: /* 6.. : rchain4 rfree4 rchain8 rfree8 .. rchain32 rfree32 */
      if ((k - 6) % 2 == 0)
        sink += rchain(n, 4L << ((k - 6) / 2), 1.0);
      else
        sink += rfree(n, 4L << ((k - 6) / 2), 1.0);
      break;
    }
    double t = now() - t0;
    if (t < b) b = t;
  }
  return b / n * 1e9;
}
int main(int argc, char **argv) {
  int reps = atoi(argv[1]); long n = atol(argv[2]);
  for (int k = 0; k < reps; k++) {
    for (int j = 0; j < 14; j++)
      printf("%s%.6f", j ? " " : "", best(j, n));
    printf("\n");
  }
  return 0;
}
