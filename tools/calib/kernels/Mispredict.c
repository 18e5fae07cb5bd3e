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
int main(int argc, char **argv) {
  int reps = atoi(argv[1]); long n = atol(argv[2]);
  unsigned char *r = malloc(n), *s = malloc(n);
  unsigned long long x = 88172645463325252ull; /* xorshift64 */
  for (long i = 0; i < n; i++) {
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    r[i] = s[i] = (unsigned char)(x >> 56);
  }
  qsort(s, n, 1, cmp);
  long sink = 0;
  for (int k = 0; k < reps; k++) {
    double ts = fastest(s, n, 3, &sink), tr = fastest(r, n, 3, &sink);
    printf("%.6f\n", (tr - ts) / (0.5 * n) * 1e9);
  }
  if (sink == 42) puts("");
  return 0;
}
