/*===- Library.c - time per call of C library functions at several sizes (whole program) -===*/
/* Usage: library TARGET_S REPS [QUICK]
 * Times each function of core/Library.h (the order and names of
 * libraryFunctions()) at several sizes: REPS samples per size, each of R calls
 * with R doubled until one sample lasts TARGET_S. Compiled at -O2 with
 * -fno-builtin, so that every call is a call into the C library (as a
 * program's call with a size known only at run time is). Prints JSON:
 *   {"functions": [{"name": "memcpy", "points": [{"size": 64, "calls": R,
 *                   "times": [s per call, ...]}, ...]}, ...]}
 * Allocation is timed as programs use it, a block allocated and released
 * again: malloc(n)+free and calloc(1, n)+free pairs ("with_free": the
 * caller subtracts free's time), realloc(malloc(n/2), n)+free less
 * malloc(n/2)+free; sizes from 8 B to 256 KiB, across glibc's mmap
 * threshold (128 KiB, raised to the size of a freed mapped block). The
 * blocks are not touched: the page faults of a first touch belong to the
 * code that touches the memory. free: a batch of 64 blocks of 64 B (their
 * allocation untimed). Buffers of the memory and string functions stay in
 * cache. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#define BATCH 64
#define MAXN 32768
#define MAXALLOC 262144

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
  if (f == 3) { /* free: whole batches, their allocation untimed */
    for (long done = 0; done < r; done += BATCH) {
      for (int i = 0; i < BATCH; i++)
        blocks[i] = malloc(64);
      t0 = now();
      for (int i = 0; i < BATCH; i++)
        free(blocks[i]);
      t += now() - t0;
    }
    return t;
  }
  if (f <= 2) { /* allocation and release pairs */
    t0 = now();
    for (long i = 0; i < r; i++) {
      void *p = f == 0   ? malloc((size_t)n)
                : f == 1 ? calloc(1, (size_t)n)
                         : realloc(malloc((size_t)(n / 2 + 1)), (size_t)n);
      acc += (long)((size_t)p & 0xff);
      free(p);
    }
    t = now() - t0;
    if (f == 2) { /* realloc's own time: less malloc(n/2)+free */
      t0 = now();
      for (long i = 0; i < r; i++) {
        void *p = malloc((size_t)(n / 2 + 1));
        acc += (long)((size_t)p & 0xff);
        free(p);
      }
      t -= now() - t0;
      if (t < 1e-10 * (double)r) /* in place: below what a difference resolves */
        t = 1e-10 * (double)r;
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
  /* sizes, B: the memory and string functions up to 32 KiB, allocations up
     to 256 KiB (past the mmap threshold); QUICK: three of each */
  static const long sizes[] = {8, 64, 512, 4096, MAXN, MAXALLOC},
                    quicks[] = {8, 512, 4096, MAXN, MAXALLOC};
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
    printf("%s{\"name\": \"%s\", \"with_free\": %s, \"points\": [", f ? ", " : "", names[f],
           f <= 1 ? "true" : "false");
    int alloc = f <= 2;
    int np = !sized[f] ? 1 : quick ? 3 : 5 + alloc;
    for (int p = 0; p < np; p++) {
      /* quick: 8, 512, 32768 B; allocations 8, 4096, 262144 B */
      long n = !sized[f] ? 0 : !quick ? sizes[p] : quicks[alloc ? 2 * p : p + (p > 1)];
      long r = f == 3 ? BATCH : 1;
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
