/* ct_overhead.c - a tiny timed function called CALLS times per kernel call:
 * the in-situ cost of CT's timer pair (scripts/ct_overhead.py).
 * tiny(a, n) is timed (its loop bound is a parameter, so not a "small"
 * function) and its call in kernel() is timed by tiny's own pair. Prints
 * a[0] to stdout and "min_ticks <t>" (the fastest of REPS kernel calls,
 * rdtsc) to stderr.
 * Usage: ct_overhead [n] [reps]   (defaults 8, 31) */
#include <stdio.h>
#include <stdlib.h>
#include <x86intrin.h>

#define CALLS 100000
static float A[64];

__attribute__((noinline)) void tiny(float *a, int n) {
  for (int i = 0; i < n; i++)
    a[i] = a[i] * 0.5f + 1.0f;
}

__attribute__((noinline)) void kernel(float *a, int n) {
  for (int c = 0; c < CALLS; c++)
    tiny(a, n);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 8, reps = argc > 2 ? atoi(argv[2]) : 31;
  if (n < 0 || n > 64 || reps < 1) {
    fprintf(stderr, "usage: ct_overhead [n in 0..64] [reps >= 1]\n");
    return 2;
  }
  unsigned long long best = ~0ull;
  for (int r = 0; r < reps; r++) {
    unsigned long long t0 = __rdtsc();
    kernel(A, n);
    unsigned long long d = __rdtsc() - t0;
    if (d < best)
      best = d;
  }
  fprintf(stderr, "min_ticks %llu\n", best);
  printf("%g\n", A[0]);
  return 0;
}
