/* segtime calibrate: the capacity sweep of the cache hierarchy (embedded in
   segtime at build time, tools/calib/CacheSweepSource.cpp.in; see
   tools/calib/CacheProbe.h and docs/calibrate.md).

   usage: sweep REPS TARGET_S MAXBYTES PER_OCTAVE HUGE

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
   that brings the working set in). With HUGE = 1 the buffer is 2 MiB aligned
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

__attribute__((noinline)) static uint64_t readSum(const uint64_t *restrict a, long n) {
  uint64_t s[8] = {0};
  __asm__ volatile("" ::: "memory"); /* not a pure function: every call reads */
  for (long i = 0; i + 7 < n; i += 8)
    for (int k = 0; k < 8; k++) s[k] += a[i + k];
  return s[0] + s[1] + s[2] + s[3] + s[4] + s[5] + s[6] + s[7];
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
  if (argc < 6) {
    fprintf(stderr, "usage: sweep REPS TARGET_S MAXBYTES PER_OCTAVE HUGE\n");
    return 2;
  }
  int reps = atoi(argv[1]), perOctave = atoi(argv[4]), huge = atoi(argv[5]);
  double target = atof(argv[2]), maxb = atof(argv[3]);
  if (reps < 1 || reps > 1000 || !(target > 0) || !(maxb >= 4096) || perOctave < 1) {
    fprintf(stderr, "sweep: bad arguments\n");
    return 2;
  }
  pin();
  size_t align = (size_t)2 << 20, size = ((size_t)maxb + align - 1) / align * align;
  char *buf = aligned_alloc(align, size);
  uint32_t *order = malloc(size / LINE * sizeof *order);
  if (!buf || !order) {
    fprintf(stderr, "sweep: cannot allocate %zu bytes\n", size);
    return 3;
  }
  if (huge) madvise(buf, size, MADV_HUGEPAGE);
  memset(buf, 1, size);
  printf("{\"huge_requested\": %d, \"huge_kib\": %ld, \"points\": [", huge, hugeKib());
  int first = 1;
  for (int i = 0;; i++) {
    long w = (long)(4096 * exp2((double)i / perOctave) + 0.5) / LINE * LINE;
    if (w > (long)maxb) break;
    long n = w / LINE;
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
    printf("%s\n{\"bytes\": %ld, \"latency_s\": [", first ? "" : ",", w);
    first = 0;
    for (int r = 0; r < reps; r++) {
      double t0 = now();
      p = chase(p, steps);
      double t = now() - t0;
      printf("%s%.6e", r ? ", " : "", t / (double)steps);
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
    printf("], \"read_Bps\": [");
    for (int r = 0; r < reps; r++) {
      double t0 = now();
      for (long c = 0; c < calls; c++) Sink += readSum((const uint64_t *)buf, words);
      double t = now() - t0;
      printf("%s%.6e", r ? ", " : "", (double)w * (double)calls / t);
    }
    printf("]}");
    fflush(stdout);
    if (getenv("SWEEP_TRACE")) fprintf(stderr, "%ld %.3f\n", w, now());
  }
  printf("]}\n");
  return 0;
}
