/*===- Library.c - time per call of C library functions at several sizes (whole program) -===*/
/* Usage: library TARGET_S REPS [QUICK]
 * Times each function of core/Library.h (the order and names of
 * libraryFunctions()) at several sizes: REPS samples per size, each of R calls
 * with R doubled until one sample lasts TARGET_S. Compiled at -O2 with
 * -fno-builtin, so that every call is a call into the C library (as a
 * program's call with a size known only at run time is). Prints JSON:
 *   {"functions": [{"name": "memcpy", "points": [{"size": 64, "calls": R,
 *                   "times": [s per call, ...]}, ...]}, ...]}
 * Allocation functions run in batches of 64 blocks of up to 4 KiB (the
 * heap stays far below glibc's mmap threshold) and only the calls measured
 * are timed (the blocks' release, or their allocation for free, is not).
 * Buffers of the memory and string functions stay in cache. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#define BATCH 64
#define MAXN 32768

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static volatile double sinkd;
static volatile long sinkl;
static char *bufa, *bufb;
static void *blocks[BATCH];
static double xs[1024];

static const char *names[] = {"malloc", "calloc", "realloc", "free",   "memcpy",
                              "memmove", "memset", "memcmp",  "strlen", "strcmp",
                              "strcpy", "snprintf", "sin",    "cos",    "exp",
                              "log",    "sqrt",   "pow",     "clock_gettime", "gettimeofday"};
static const int sized[] = {1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0};
#define NFUN ((int)(sizeof names / sizeof *names))

/* Seconds that r calls of function f at size n take (the calls timed only). */
static double run(int f, long n, long r) {
  double t = 0, t0;
  long acc = 0;
  double s = 0;
  if (f <= 3) { /* allocation: whole batches */
    for (long done = 0; done < r; done += BATCH) {
      if (f == 2 || f == 3)
        for (int i = 0; i < BATCH; i++)
          blocks[i] = malloc(f == 2 ? (size_t)(n / 2 + 1) : 64);
      t0 = now();
      switch (f) {
      case 0: for (int i = 0; i < BATCH; i++) blocks[i] = malloc((size_t)n); break;
      case 1: for (int i = 0; i < BATCH; i++) blocks[i] = calloc(1, (size_t)n); break;
      case 2: for (int i = 0; i < BATCH; i++) blocks[i] = realloc(blocks[i], (size_t)n); break;
      case 3: for (int i = 0; i < BATCH; i++) free(blocks[i]); break;
      }
      t += now() - t0;
      if (f != 3) {
        for (int i = 0; i < BATCH; i++)
          acc += (long)((size_t)blocks[i] & 0xff);
        for (int i = 0; i < BATCH; i++)
          free(blocks[i]);
      }
    }
    sinkl = acc;
    return t;
  }
  if (f >= 7 && f <= 10) { /* equal buffers, strings of n bytes */
    memset(bufa, 'a', (size_t)n);
    memset(bufb, 'a', (size_t)n);
    bufa[n] = bufb[n] = 0;
  }
  char out[64];
  struct timespec ts;
  struct timeval tv;
  t0 = now();
  for (long i = 0; i < r; i++) {
    double x = xs[i & 1023];
    switch (f) {
    case 4: memcpy(bufb, bufa, (size_t)n); acc += bufb[i & 7]; break;
    case 5: memmove(bufb + (i & 1), bufb, (size_t)n); acc += bufb[i & 7]; break;
    case 6: memset(bufb, (int)(i & 0x7f), (size_t)n); acc += bufb[0]; break;
    case 7: acc += memcmp(bufa, bufb, (size_t)n); break;
    case 8: acc += (long)strlen(bufa); break;
    case 9: acc += strcmp(bufa, bufb); break;
    case 10: strcpy(bufb, bufa); acc += bufb[i & 7]; break;
    case 11: acc += snprintf(out, sizeof out, "%.15g", x + (double)i * 1e-7); break;
    case 12: s += sin(x); break;
    case 13: s += cos(x); break;
    case 14: s += exp(x); break;
    case 15: s += log(x); break;
    case 16: s += sqrt(x); break;
    case 17: s += pow(x, 1.7); break;
    case 18: clock_gettime(CLOCK_MONOTONIC, &ts); acc += ts.tv_nsec; break;
    case 19: gettimeofday(&tv, NULL); acc += tv.tv_usec; break;
    }
  }
  t = now() - t0;
  sinkl = acc;
  sinkd = s;
  return t;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: library TARGET_S REPS [QUICK]\n");
    return 2;
  }
  double target = atof(argv[1]);
  int reps = atoi(argv[2]);
  int quick = argc > 3 && atoi(argv[3]);
  /* sizes, B: allocations up to 4 KiB, the others up to 32 KiB; QUICK: three */
  static const long sizes[] = {8, 64, 512, 4096, MAXN}, quicks[] = {8, 512, 4096, MAXN};
  bufa = aligned_alloc(64, 2 * MAXN);
  bufb = aligned_alloc(64, 2 * MAXN);
  if (!bufa || !bufb || reps < 1) {
    fprintf(stderr, "library: no memory, or REPS < 1\n");
    return 1;
  }
  memset(bufa, 'a', 2 * MAXN);
  memset(bufb, 'a', 2 * MAXN);
  for (int i = 0; i < 1024; i++)
    xs[i] = 0.1 + i * (9.9 / 1024);
  printf("{\"functions\": [");
  for (int f = 0; f < NFUN; f++) {
    printf("%s{\"name\": \"%s\", \"points\": [", f ? ", " : "", names[f]);
    int alloc = f <= 2;
    int np = !sized[f] ? 1 : quick ? 3 : 5 - alloc;
    for (int p = 0; p < np; p++) {
      long n = !sized[f] ? 0 : quick ? quicks[p + (!alloc && p > 1)] : sizes[p];
      long r = f <= 3 ? BATCH : 1;
      run(f, n, r); /* warm-up */
      while (run(f, n, r) < target && r < (1L << 40))
        r *= 2;
      printf("%s{\"size\": %ld, \"calls\": %ld, \"times\": [", p ? ", " : "", n, r);
      for (int k = 0; k < reps; k++)
        printf("%s%.6e", k ? ", " : "", run(f, n, r) / (double)r);
      printf("]}");
    }
    printf("]}");
    fflush(stdout);
  }
  printf("]}\n");
  return 0;
}
