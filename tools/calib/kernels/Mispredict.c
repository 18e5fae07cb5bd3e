/*===- Mispredict.c - branch-misprediction penalty and replayed branches (whole program) -===*/
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
/* One replayed sequence against its reference: k passes of f over the m
   elements at rep (the same ones every pass) and k passes over the m at
   ref + j * refStride bytes (pass j), interleaved, fastest of 3 each:
   best[0] the reference's seconds, best[1] the replayed ones'. */
typedef long (*pass_fn)(const void *a, long m);
static void replayPair(pass_fn f, const char *rep, const char *ref, long refStride, long m,
                       long k, long *sink, double best[2]) {
  best[0] = best[1] = 1e30;
  for (int p = 0; p < 3; p++)
    for (int w = 0; w < 2; w++) {
      double t0 = now();
      for (long j = 0; j < k; j++) *sink += f(w ? rep : ref + j * refStride, m);
      double t = now() - t0;
      if (t < best[w]) best[w] = t;
    }
}
static long bytePass(const void *a, long m) { return pass(a, m); }
/* Mode "replay": for m = 2^10 .. n bytes, the same m random bytes passed
   over again and again (>= 2^22 branches per timing, fastest of 3) against
   m sorted ones: prints "m extra" lines, extra the ns per branch that the
   random order costs more. A predictor that learns the replayed sequence
   (its history covers the whole pass) pays nothing extra; beyond its
   capacity every other branch mispredicts. */
static void replay(const unsigned char *r, const unsigned char *s, long n, long *sink) {
  for (long m = 1024; m <= n; m *= 2) {
    long k = (1L << 22) / m;
    double best[2];
    replayPair(bytePass, (const char *)r, (const char *)s, 0, m, k, sink, best);
    printf("%ld %.6f\n", m, (best[1] - best[0]) / ((double)k * m) * 1e9);
  }
}
/* Mode "search": binary searches (lower bound, the halving loop of
   validation/bsearch_batch.c; inline asm in one arm keeps each step a
   conditional jump) of random keys in a sorted table of 4096 ints (16 KiB:
   L1). The outcomes of one search are its key's bits, the same global
   history at one node of the search tree for every key: the predictor can
   tell keys apart only by the searches before. Steps counts the steps of
   the last pass. */
enum { TableInts = 4096 };
static int table[TableInts];
static long steps;
__attribute__((noinline)) static long searchPass(const void *v, long m) {
  const int *keys = v;
  long c = 0, s = 0;
  for (long t = 0; t < m; t++) {
    int key = keys[t], lo = 0, hi = TableInts;
    while (lo < hi) {
      int mid = lo + (hi - lo) / 2;
      s++;
      if (table[mid] < key) {
        lo = mid + 1;
        __asm__ volatile("" : "+r"(lo));
      } else
        hi = mid;
    }
    c += lo;
  }
  steps = s;
  return c;
}
/* For outcomes per pass O = 2^11 .. 2^17 (half octaves): K = O / 12 keys
   replayed each pass against fresh keys per pass (the next K of n random
   keys: nothing to learn), >= total steps per timing; per repetition
   prints "outcomes replayed fresh" lines, the steps of the K keys and ns
   per step of each. */
static void searchReplay(int reps, long total, long *sink) {
  for (int i = 0; i < TableInts; i++) table[i] = 3 * i;
  long maxK = (1L << 17) / 12 + 1, n = total / 12 + 2 * maxK;
  int *keys = malloc(n * sizeof *keys);
  unsigned long long x = 0x9E3779B97F4A7C15ull;
  for (long i = 0; i < n; i++) {
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    keys[i] = (int)((x >> 33) % (3u * TableInts));
  }
  for (int r = 0; r < reps; r++)
    for (int h = 22; h <= 34; h++) { /* O = 2^(h/2) */
      long K = (long)((1L << h / 2) * (h % 2 ? 1.41421356 : 1.0) / 12 + 0.5),
           k = total / (12 * K) + 1;
      double best[2];
      replayPair(searchPass, (const char *)keys, (const char *)keys, K * (long)sizeof *keys, K, k,
                 sink, best);
      *sink += searchPass(keys, K); /* the replayed keys' steps */
      double per = 1e9 / ((double)k * steps);
      printf("%ld %.6f %.6f\n", steps, best[1] * per, best[0] * per);
    }
  free(keys);
}
int main(int argc, char **argv) {
  int reps = atoi(argv[1]); long n = atol(argv[2]);
  int replayMode = argc > 3;
  if (replayMode && argv[3][0] == 's') { /* "search": reps, steps per timing */
    long sink = 0;
    searchReplay(reps, n, &sink);
    if (sink == 42) puts("");
    return 0;
  }
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
