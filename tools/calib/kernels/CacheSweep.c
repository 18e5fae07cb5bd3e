/*===- CacheSweep.c - capacity sweep of the cache hierarchy (whole program) -===*/
/* segtime calibrate: the capacity sweep of the cache hierarchy (embedded in
   segtime at build time, tools/calib/CacheSweepSource.cpp.in; see
   tools/calib/CacheProbe.h and docs/calibrate.md).

   usage: sweep REPS TARGET_S MAXBYTES PER_OCTAVE HUGE PASSES

   For working sets W from 4 KiB to MAXBYTES (PER_OCTAVE points per doubling)
   it times, in one buffer of MAXBYTES:
     - latency: a dependent-load chase (p = *p) through the W / 64 lines of
       the buffer's first W bytes in one random cycle (Sattolo's algorithm),
       one pointer per 64 B line, so that every load waits for the one before
       and no prefetcher can guess the next line (lmbench lat_mem_rd with a
       random stride); s per load;
     - read bandwidth: a sum of the W bytes as 64-bit integers (8 independent
       accumulators, vectorised at -O2 -march=native); bytes / s.
   Each point is REPS samples of at least TARGET_S s (after one untimed pass
   that brings the working set in), taken in PASSES sweeps over all points
   (REPS / PASSES samples per point each). With HUGE = 1 the buffer is 2 MiB aligned
   and madvise(MADV_HUGEPAGE) asks for transparent huge pages, so that TLB
   misses do not show as one more cache level; the output says how many KiB
   the kernel gave as huge pages (AnonHugePages of /proc/self/smaps_rollup).
   The program pins itself to the CPU it starts on and prints one JSON object:
     {"huge_requested": 1, "huge_kib": K, "points": [{"bytes": W,
      "latency_s": [...], "read_Bps": [...]}, ...]} */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define LINE 64

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void pin(void) {
  int cpu = sched_getcpu();
  if (cpu >= 0) {
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(cpu, &s);
    sched_setaffinity(0, sizeof s, &s);
  }
}

static uint64_t Rng = 0x9E3779B97F4A7C15ull;
static uint64_t next(void) { /* xorshift64* */
  Rng ^= Rng >> 12;
  Rng ^= Rng << 25;
  Rng ^= Rng >> 27;
  return Rng * 2685821657736338717ull;
}

/* One random cycle through the first n lines of buf (Sattolo's algorithm on
   the line order: every line visited once per cycle). */
static void makeCycle(char *buf, uint32_t *order, long n) {
  for (long i = 0; i < n; i++) order[i] = (uint32_t)i;
  for (long i = n - 1; i > 0; i--) {
    long j = (long)(next() % (uint64_t)i);
    uint32_t t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  for (long i = 0; i < n; i++)
    *(void **)(buf + (size_t)order[i] * LINE) = buf + (size_t)order[(i + 1) % n] * LINE;
}

__attribute__((noinline)) static void *chase(void *p, long steps) {
  void **q = (void **)p;
  for (long i = 0; i < steps; i += 8) {
    q = (void **)*q; q = (void **)*q; q = (void **)*q; q = (void **)*q;
    q = (void **)*q; q = (void **)*q; q = (void **)*q; q = (void **)*q;
  }
  return q;
}

/* 4 independent accumulators of 32 B vectors (AVX2 with -march=native; the
   compiler splits them on narrower machines): 128 B per iteration, so that
   the loads, not the adds, limit the rate. */
typedef uint64_t V4 __attribute__((vector_size(32)));
__attribute__((noinline)) static uint64_t readSum(const uint64_t *restrict a, long n) {
  V4 s0 = {0}, s1 = {0}, s2 = {0}, s3 = {0};
  __asm__ volatile("" ::: "memory"); /* not a pure function: every call reads */
  for (long i = 0; i + 15 < n; i += 16) {
    s0 += *(const V4 *)(a + i);
    s1 += *(const V4 *)(a + i + 4);
    s2 += *(const V4 *)(a + i + 8);
    s3 += *(const V4 *)(a + i + 12);
  }
  V4 s = s0 + s1 + s2 + s3;
  return s[0] + s[1] + s[2] + s[3];
}

static volatile uint64_t Sink;

static long hugeKib(void) {
  FILE *f = fopen("/proc/self/smaps_rollup", "r");
  char line[256];
  long kib = -1;
  if (!f) return -1;
  while (fgets(line, sizeof line, f))
    if (!strncmp(line, "AnonHugePages:", 14)) kib = atol(line + 14);
  fclose(f);
  return kib;
}

int main(int argc, char **argv) {
  if (argc < 7) {
    fprintf(stderr, "usage: sweep REPS TARGET_S MAXBYTES PER_OCTAVE HUGE PASSES\n");
    return 2;
  }
  int reps = atoi(argv[1]), perOctave = atoi(argv[4]), huge = atoi(argv[5]),
      passes = atoi(argv[6]);
  double target = atof(argv[2]), maxb = atof(argv[3]);
  if (reps < 1 || reps > 1000 || !(target > 0) || !(maxb >= 4096) || perOctave < 1 ||
      passes < 1 || passes > reps) {
    fprintf(stderr, "sweep: bad arguments\n");
    return 2;
  }
  pin();
  size_t align = (size_t)2 << 20, size = ((size_t)maxb + align - 1) / align * align;
  char *buf = aligned_alloc(align, size);
  uint32_t *order = malloc(size / LINE * sizeof *order);
  int np = 0;
  while ((long)(4096 * exp2((double)np / perOctave) + 0.5) / LINE * LINE <= (long)maxb) np++;
  double *lat = calloc((size_t)np * reps, sizeof *lat), *bw = calloc((size_t)np * reps, sizeof *bw);
  if (!buf || !order || !lat || !bw) {
    fprintf(stderr, "sweep: cannot allocate %zu bytes\n", size);
    return 3;
  }
  if (huge) madvise(buf, size, MADV_HUGEPAGE);
  memset(buf, 1, size);
  long hugeK = hugeKib();
  /* The repetitions are split over PASSES sweeps, so that a slow phase of a
     shared machine (seconds) spoils some samples of a point, not all. */
  for (int pass = 0, r0 = 0; pass < passes; pass++) {
    int r1 = r0 + (reps - r0) / (passes - pass);
    for (int i = 0; i < np; i++) {
      long w = (long)(4096 * exp2((double)i / perOctave) + 0.5) / LINE * LINE, n = w / LINE;
      makeCycle(buf, order, n);
      /* bring the working set in (at most 2^20 lines: a set that large is
         beyond every cache, and the pass would cost 0.1 s per point) */
      void *p = chase(buf, ((n < (1L << 20) ? n : (1L << 20)) + 7) / 8 * 8);
      long steps = 1024;
      for (;;) { /* steps for one sample of >= target */
        double t0 = now();
        p = chase(p, steps);
        if (now() - t0 >= target || steps > (1L << 40)) break;
        steps *= 2;
      }
      for (int r = r0; r < r1; r++) {
        double t0 = now();
        p = chase(p, steps);
        lat[i * reps + r] = (now() - t0) / (double)steps;
      }
      Sink += (uint64_t)(uintptr_t)p;
      long words = w / 8, calls = 1;
      Sink += readSum((const uint64_t *)buf, words);
      for (;;) {
        double t0 = now();
        for (long c = 0; c < calls; c++) Sink += readSum((const uint64_t *)buf, words);
        if (now() - t0 >= target || calls > (1L << 40)) break;
        calls *= 2;
      }
      for (int r = r0; r < r1; r++) {
        double t0 = now();
        for (long c = 0; c < calls; c++) Sink += readSum((const uint64_t *)buf, words);
        bw[i * reps + r] = (double)w * (double)calls / (now() - t0);
      }
    }
    r0 = r1;
  }
  printf("{\"huge_requested\": %d, \"huge_kib\": %ld, \"points\": [", huge, hugeK);
  for (int i = 0; i < np; i++) {
    long w = (long)(4096 * exp2((double)i / perOctave) + 0.5) / LINE * LINE;
    printf("%s\n{\"bytes\": %ld, \"latency_s\": [", i ? "," : "", w);
    for (int r = 0; r < reps; r++) printf("%s%.6e", r ? ", " : "", lat[i * reps + r]);
    printf("], \"read_Bps\": [");
    for (int r = 0; r < reps; r++) printf("%s%.6e", r ? ", " : "", bw[i * reps + r]);
    printf("]}");
  }
  printf("]}\n");
  return 0;
}
