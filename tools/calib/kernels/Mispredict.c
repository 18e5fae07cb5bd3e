/*===- Mispredict.c - branch-misprediction penalty, random vs sorted bytes (whole program) -===*/
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
static int cmp(const void *x, const void *y) { return *(const unsigned char *)x - *(const unsigned char *)y; }
__attribute__((noinline)) static long pass(const unsigned char *a, long n) {
  long c = 0;
  for (long i = 0; i < n; i++)
    if (a[i] < 128) {
      c += a[i];
      __asm__ volatile("" : "+r"(c));
    }
  return c;
}
static double fastest(const unsigned char *a, long n, int passes, long *sink) {
  double best = 1e30;
  for (int p = 0; p < passes; p++) {
    double t0 = now();
    *sink += pass(a, n);
    double t = now() - t0;
    if (t < best) best = t;
  }
  return best;
}
/* Mode "replay": for m = 2^10 .. n bytes, the same m random bytes passed
   over again and again (>= 2^22 branches per timing, fastest of 3) against
   m sorted ones: prints "m extra" lines, extra the ns per branch that the
   random order costs more. A predictor that learns the replayed sequence
   (its history covers the whole pass) pays nothing extra; beyond its
   capacity every other branch mispredicts. */
static void replay(const unsigned char *r, const unsigned char *s, long n, long *sink) {
  for (long m = 1024; m <= n; m *= 2) {
    long k = (1L << 22) / m;
    double best[2] = {1e30, 1e30};
    for (int p = 0; p < 3; p++)
      for (int w = 0; w < 2; w++) {
        double t0 = now();
        for (long j = 0; j < k; j++) *sink += pass(w ? r : s, m);
        double t = now() - t0;
        if (t < best[w]) best[w] = t;
      }
    printf("%ld %.6f\n", m, (best[1] - best[0]) / ((double)k * m) * 1e9);
  }
}
int main(int argc, char **argv) {
  int reps = atoi(argv[1]); long n = atol(argv[2]);
  int replayMode = argc > 3;
  unsigned char *r = malloc(n), *s = malloc(n);
  unsigned long long x = 88172645463325252ull; /* xorshift64 */
  for (long i = 0; i < n; i++) {
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    r[i] = s[i] = (unsigned char)(x >> 56);
  }
  qsort(s, n, 1, cmp);
  long sink = 0;
  if (replayMode) {
    /* the reference: the sorted bytes (their prefixes: a branch always
       taken, or taken then not once) */
    replay(r, s, n, &sink);
    if (sink == 42) puts("");
    return 0;
  }
  for (int k = 0; k < reps; k++) {
    double ts = fastest(s, n, 3, &sink), tr = fastest(r, n, 3, &sink);
    printf("%.6f\n", (tr - ts) / (0.5 * n) * 1e9);
  }
  if (sink == 42) puts("");
  return 0;
}
