/*===- LowLevelTail.c - PARKBENCH-93 low-level program: drivers and main() (after POLY) -===*/

enum { ID_MEM = 10, ID_STRIDED = 20, ID_OVERLAP = 30, ID_POLY = 100, MAXGATHER_ = 64 };
static long *SW;               /* the strided walk's buffer */
static volatile long *Partner; /* strided2: the walk the partner process runs (0 idle, -1 stop) */
/* The walks of mode "strided": kernel 0 the 4 KiB-row load walk (s_walk),
   1..8 s_walk_rows by row (longs) and kind (0 loads, 1 stores, 2 loads and
   stores). */
enum { NWALK = 9, ID_GATHER = ID_STRIDED + NWALK };
/* The gather's index arrays, one per point (by its buffer length n). */
static long GatherN[MAXGATHER_];
static int *GatherIdx[MAXGATHER_];
static int NGather;
static const long WalkRow[NWALK] = {512, 128, 256, 128, 256, 512, 128, 256, 512};
static const int WalkKind[NWALK] = {0, 0, 0, 1, 1, 1, 2, 2, 2};
static void call(int id, long n) {
  switch (id) {
  case ID_STRIDED:
    if (Partner)
      *Partner = n;
    Sink += (double)s_walk(n, SW);
    break;
  case ID_STRIDED + 1: case ID_STRIDED + 2: case ID_STRIDED + 3:
  case ID_STRIDED + 4: case ID_STRIDED + 5: case ID_STRIDED + 6:
  case ID_STRIDED + 7: case ID_STRIDED + 8:
    Sink += (double)s_walk_rows(n, SW, WalkRow[id - ID_STRIDED], WalkKind[id - ID_STRIDED]);
    break;
  case ID_GATHER:
    for (int k = 0; k < NGather; k++)
      if (GatherN[k] == n) {
        Sink += (double)g_gather(n / 8, SW, GatherIdx[k]);
        break;
      }
    break;
  case 0: r_add(n, A, B, C); break;
  case 1: r_mul(n, A, B, C); break;
  case 2: r_triad(n, A, B, C, Scalar); break;
  case 3: Sink += r_dot(n, B, C); break;
  case ID_MEM + 0: Sink += m_load(n, A); break;
  case ID_MEM + 1: m_copy(n, B, A); break;
  case ID_MEM + 2: r_triad(n, A, B, C, Scalar); break;
  default:
    if (id >= ID_OVERLAP && id < ID_OVERLAP + NOK)
      Sink += OKernel[id - ID_OVERLAP](n, A, B, 0.999999);
    else
      Poly[id - ID_POLY](n, B, A); /* y = B, x = A */
    break;
  }
}

static double timeCalls(int id, long n, long r) {
  double t0 = now();
  for (long k = 0; k < r; k++) {
    call(id, n);
    BARRIER();
  }
  return now() - t0;
}

/* Calls per sample so that one sample lasts >= target s (also warms up). */
static long callsFor(int id, long n, double target) {
  long r = 1;
  for (;;) {
    double t = timeCalls(id, n, r);
    if (t >= target)
      return r;
    r = t < target / 16 ? r * 16 : (long)(r * 1.2 * target / t) + 1;
  }
}

/* The points of a part: all are measured together, repetition by
   repetition (rep-major), so that a slow phase of the machine lasting
   seconds spoils a few repetitions of every point rather than every
   repetition of a few points; the minimum statistic then discards it. */
typedef struct {
  int id;
  long n, r;
  int bad;
  double *t;
} point_t;
#define MAXP 1024
static point_t P[MAXP];
static int NP;

static void addPoint(int id, long n) {
  if (NP == MAXP) {
    fprintf(stderr, "park: too many points\n");
    exit(3);
  }
  P[NP].id = id;
  P[NP].n = n;
  NP++;
}

/* Calls per sample for every point (>= target s, or 1 if target is 0), then
   reps samples of each. A sample shorter than 10 ms during which this thread
   lost the CPU (CPU time < 98 % of wall time) is taken again, at most twice;
   "bad" counts the disturbed samples kept (longer ones are kept at once: on
   a busy machine almost every one is preempted, and retrying would triple
   the time). */
/* The core clock now, GHz: a chain of 1.6 M dependent integer adds (one
   cycle each; ~0.5 ms). Taken before every repetition: the caller compares
   it with the machine's clock to see whether a whole part ran in a slow
   phase of a shared VM. */
static double Probe[64];
static int NProbe;
static double probe(void) {
  long x = 1, y = 3;
  double t0 = now();
  for (long i = 0; i < 100000; i++) {
#define ADD x += y; __asm__ volatile("" : "+r"(x));
    ADD ADD ADD ADD ADD ADD ADD ADD ADD ADD ADD ADD ADD ADD ADD ADD
  }
  double g = 1.6e6 / (now() - t0) / 1e9;
  if (x == 0)
    Sink += 1; /* keeps x alive */
  return g;
}

/* Prints "probe_ghz": [...], */
static void printProbes(void) {
  printf("\"probe_ghz\": [");
  for (int k = 0; k < NProbe; k++)
    printf("%s%.4f", k ? ", " : "", Probe[k]);
  printf("], ");
}

static void measureAll(int reps, double target) {
  NProbe = 0;
  for (int i = 0; i < NP; i++) {
    P[i].r = target > 0 ? callsFor(P[i].id, P[i].n, target) : 1;
    P[i].bad = 0;
    P[i].t = malloc((size_t)reps * sizeof(double));
  }
  for (int k = 0; k < reps; k++) {
    if (Partner)
      *Partner = 0; /* the partner idles during the clock probes */
    double g = probe(), g2 = probe(); /* the faster of two: one may be preempted */
    if (NProbe < 64)
      Probe[NProbe++] = g > g2 ? g : g2;
    for (int i = 0; i < NP; i++)
      for (int a = 0; a < 3; a++) {
        double c0 = cpuNow();
        double t = timeCalls(P[i].id, P[i].n, P[i].r);
        double c = cpuNow() - c0;
        P[i].t[k] = t / (double)P[i].r;
        if (c >= 0.98 * t)
          break;
        if (a == 2 || t > 0.01) {
          P[i].bad++;
          break;
        }
      }
  }
}

/* Prints {"n": N, "calls": R, "disturbed": D, "times": [s per call, ...]}. */
static void printPoint(int i, int reps) {
  printf("{\"n\": %ld, \"calls\": %ld, \"disturbed\": %d, \"times\": [", P[i].n, P[i].r, P[i].bad);
  for (int k = 0; k < reps; k++)
    printf("%s%.6e", k ? ", " : "", P[i].t[k]);
  printf("]}");
}

/* Prints the points [from, to) as a JSON array. */
static void printPoints(int from, int to, int reps) {
  printf("[");
  for (int i = from; i < to; i++) {
    printf("%s", i > from ? ", " : "");
    printPoint(i, reps);
  }
  printf("]");
}

static double *alignedArray(long n, long stagger) {
  /* (C11: the size of aligned_alloc is a multiple of the alignment) */
  double *p = aligned_alloc(64, ((size_t)(n + 64) * sizeof(double) + 64 * 8 + 63) / 64 * 64);
  if (!p) {
    fprintf(stderr, "park: cannot allocate %ld doubles\n", n);
    exit(3);
  }
  p += 8 * stagger; /* 64 B x stagger */
  for (long i = 0; i < n + 8; i++) p[i] = 0.5 + 1e-3 * (double)(i % 97);
  return p;
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

static int cmp64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* The command line of a mode: park MODE REPS [ARG3 [ARG4 ...]]. */
typedef struct {
  const char *mode;
  int reps;
  double arg3, arg4; /* argv[3], argv[4] as numbers (0 if absent) */
  int argc;
  char **argv;
} args_t;

/* Mode "tick1": PARKBENCH-93 §3.2.1 */
static int runTick1(const args_t *a) {
  int reps = a->reps;
  double arg3 = a->arg3;
  long calls = (long)arg3;
  int64_t *d = malloc((size_t)calls * sizeof *d);
  struct timespec res;
  clock_getres(CLOCK_MONOTONIC, &res);
  printf("{\"getres_s\": %.6e, \"tick1\": [", (double)res.tv_sec + 1e-9 * (double)res.tv_nsec);
  for (int k = 0; k < reps; k++) {
    int64_t prev = nsOf(CLOCK_MONOTONIC);
    for (long i = 0; i < calls; i++) {
      int64_t t = nsOf(CLOCK_MONOTONIC);
      d[i] = t - prev;
      prev = t;
    }
    long zeros = 0;
    int64_t mn = INT64_MAX;
    for (long i = 0; i < calls; i++)
      if (d[i] == 0)
        zeros++;
      else if (d[i] < mn)
        mn = d[i];
    qsort(d, (size_t)calls, sizeof *d, cmp64);
    printf("%s{\"min_nonzero_s\": %.6e, \"median_s\": %.6e, \"zeros\": %ld, \"calls\": %ld}",
           k ? ", " : "", 1e-9 * (double)mn, 1e-9 * (double)d[calls / 2], zeros, calls);
  }
  printf("]}\n");
  return 0;
}

/* Mode "tick2": PARKBENCH-93 §3.2.2 */
static int runTick2(const args_t *a) {
  int reps = a->reps;
  double arg3 = a->arg3;
  double s = arg3;
  struct timespec req = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
  const clockid_t ids[] = {CLOCK_MONOTONIC, CLOCK_REALTIME, CLOCK_MONOTONIC_RAW,
                           CLOCK_PROCESS_CPUTIME_ID};
  printf("{\"sleep_s\": %.6f, \"tick2\": [", s);
  for (int k = 0; k < reps; k++) {
    int64_t t0[4], t1[4];
    for (int c = 0; c < 4; c++) t0[c] = nsOf(ids[c]);
    nanosleep(&req, NULL);
    for (int c = 0; c < 4; c++) t1[c] = nsOf(ids[c]);
    printf("%s{\"timer_s\": %.9f, \"realtime_s\": %.9f, \"raw_s\": %.9f, \"cpu_s\": %.9f}",
           k ? ", " : "", 1e-9 * (double)(t1[0] - t0[0]), 1e-9 * (double)(t1[1] - t0[1]),
           1e-9 * (double)(t1[2] - t0[2]), 1e-9 * (double)(t1[3] - t0[3]));
  }
  printf("]}\n");
  return 0;
}

/* Mode "rinf1": PARKBENCH-93 §3.2.3: lengths 1..NMAX */
static int runRinf1(const args_t *a) {
  int reps = a->reps;
  double arg3 = a->arg3;
  double arg4 = a->arg4;
  long nmax = (long)arg4;
  A = alignedArray(nmax, 0);
  B = alignedArray(nmax, 3);
  C = alignedArray(nmax, 7);
  int start[5];
  for (int id = 0; id < 4; id++) {
    start[id] = NP;
    for (double x = 1; x <= nmax; x = x * 1.25 + 1)
      addPoint(id, (long)x);
  }
  start[4] = NP;
  measureAll(reps, arg3);
  printf("{");
  printProbes();
  printf("\"rinf1\": [");
  for (int id = 0; id < 4; id++) {
    printf("%s{\"kernel\": %d, \"points\": ", id ? ", " : "", id);
    printPoints(start[id], start[id + 1], reps);
    printf("}");
  }
  printf("]}\n");
  return 0;
}

/* Mode "poly1" || "poly2": §3.2.4 */
static int runPoly(const args_t *a) {
  const char *mode = a->mode;
  int reps = a->reps;
  double arg3 = a->arg3;
  double arg4 = a->arg4;
  int in = !strcmp(mode, "poly1");
  long n = (long)(in ? arg4 : arg3);
  A = alignedArray(n, 0);
  B = alignedArray(n, 3);
  for (int k = 0; k < NPOLY; k++)
    addPoint(ID_POLY + k, n);
  /* POLY2: one evaluation per sample; the arrays are several times the
     last-level cache, so each sweep finds them in memory. */
  measureAll(reps, in ? arg3 : 0);
  printf("{");
  printProbes();
  printf("\"%s\": [", mode);
  for (int k = 0; k < NPOLY; k++) {
    printf("%s{\"order\": %d, \"point\": ", k ? ", " : "", PolyOrder[k]);
    printPoint(k, reps);
    printf("}");
  }
  printf("]}\n");
  return 0;
}

/* Mode "mem": bandwidth against working set */
static int runMem(const args_t *a) {
  int reps = a->reps;
  double arg3 = a->arg3;
  double arg4 = a->arg4;
  double target = arg3, maxb = arg4;
  A = alignedArray((long)(maxb / 8), 0);
  B = alignedArray((long)(maxb / 16), 3);
  C = alignedArray((long)(maxb / 24), 7);
  const int per[] = {8, 16, 24}; /* bytes loaded + stored per element */
  int start[4];
  for (int k = 0; k < 3; k++) {
    start[k] = NP;
    for (double w = 4096; w <= maxb * 1.0001; w *= 1.189207115) /* 2^(1/4) */
      addPoint(ID_MEM + k, ((long)(w / per[k]) + 7) / 8 * 8);
  }
  start[3] = NP;
  measureAll(reps, target);
  printf("{");
  printProbes();
  printf("\"mem\": [");
  for (int k = 0; k < 3; k++) {
    printf("%s{\"kernel\": %d, \"bytes_per_element\": %d, \"points\": ", k ? ", " : "", k,
           per[k]);
    printPoints(start[k], start[k + 1], reps);
    printf("}");
  }
  printf("]}\n");
  return 0;
}

/* Mode "strided" || "strided2": line rate of a strided walk */
static int runStrided(const args_t *a) {
  const char *mode = a->mode;
  int reps = a->reps;
  double arg3 = a->arg3;
  double arg4 = a->arg4;
  int argc = a->argc;
  char **argv = a->argv;
  double target = arg3, minb = arg4, maxb = argc > 5 ? atof(argv[5]) : 0;
  if (minb < 4096 || maxb < minb) {
    fprintf(stderr, "park: strided: need 4096 <= MIN <= MAX bytes\n");
    return 2;
  }
  long nmax = ((long)(maxb / 8) + ROW - 1) / ROW * ROW;
  pid_t child = 0;
  if (!strcmp(mode, "strided2")) {
    /* A second process on the next CPU walks its own buffer of the same
       size whenever the measuring one does (shared L3 and DRAM). */
    Partner = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (Partner == MAP_FAILED) {
      fprintf(stderr, "park: strided2: mmap failed\n");
      return 3;
    }
    *Partner = 0;
    fflush(stdout);
    child = fork();
    if (child < 0) {
      fprintf(stderr, "park: strided2: fork failed\n");
      return 3;
    }
    if (child == 0) {
      long ncpu = sysconf(_SC_NPROCESSORS_ONLN), cpu = sched_getcpu();
      if (ncpu > 1 && cpu >= 0) {
        cpu_set_t s;
        CPU_ZERO(&s);
        CPU_SET((int)((cpu + 1) % ncpu), &s);
        sched_setaffinity(0, sizeof s, &s);
      }
      long *mine = aligned_alloc(4096, ((size_t)nmax * sizeof(long) + 4095) / 4096 * 4096);
      if (!mine)
        _exit(3);
      for (long i = 0; i < nmax; i++) mine[i] = i;
      long s = 0;
      for (;;) {
        long n = *Partner;
        if (n < 0)
          break;
        if (n > 0)
          s += s_walk(n, mine);
        else
          __asm__ volatile("pause");
      }
      _exit((int)(s & 1) * 0);
    }
  }
  SW = aligned_alloc(4096, ((size_t)nmax * sizeof(long) + 4095) / 4096 * 4096);
  if (!SW) {
    fprintf(stderr, "park: cannot allocate %ld longs\n", nmax);
    return 3;
  }
  for (long i = 0; i < nmax; i++) SW[i] = i;
  /* strided2 measures the 4 KiB load walk only (kernel 0); one process
     also the walks by row and kind and the gather (kernel NWALK). */
  int kernels = Partner ? 1 : NWALK + 1, start[NWALK + 2];
  for (int k = 0; k < kernels; k++) {
    start[k] = NP;
    for (double w = minb; w <= maxb * 1.0001; w *= 1.414213562) { /* 2^(1/2) */
      long n = ((long)(w / 8) + ROW - 1) / ROW * ROW;
      if (k == NWALK) {
        if (NGather == MAXGATHER_)
          break;
        /* a random permutation of the n / 8 lines (Fisher-Yates, xorshift64) */
        long lines = n / 8;
        int *idx = malloc((size_t)lines * sizeof *idx);
        if (!idx) {
          fprintf(stderr, "park: cannot allocate %ld ints\n", lines);
          return 3;
        }
        for (long i = 0; i < lines; i++) idx[i] = (int)i;
        unsigned long x = 0x9E3779B97F4A7C15UL ^ (unsigned long)lines;
        for (long i = lines - 1; i > 0; i--) {
          x ^= x << 13, x ^= x >> 7, x ^= x << 17;
          long j = (long)(x % (unsigned long)(i + 1));
          int t = idx[i];
          idx[i] = idx[j];
          idx[j] = t;
        }
        for (long i = 0; i < lines; i++) idx[i] *= 8;
        GatherN[NGather] = n;
        GatherIdx[NGather++] = idx;
      }
      addPoint(ID_STRIDED + k, n);
    }
  }
  start[kernels] = NP;
  measureAll(reps, target);
  if (Partner) {
    *Partner = -1;
    waitpid(child, NULL, 0);
  }
  printf("{");
  printProbes();
  printf("\"%s\": [", mode);
  for (int k = 0; k < kernels; k++) {
    if (k == NWALK)
      printf(", {\"kernel\": %d, \"bytes_per_element\": 8, \"gather\": 1, \"points\": ", k);
    else
      printf("%s{\"kernel\": %d, \"bytes_per_element\": 8, \"row_bytes\": %ld, "
             "\"load\": %d, \"store\": %d, \"points\": ",
             k ? ", " : "", k, WalkRow[k] * 8, WalkKind[k] != 1, WalkKind[k] != 0);
    printPoints(start[k], start[k + 1], reps);
    printf("}");
  }
  printf("]}\n");
  return 0;
}

/* Mode "phase": the phase probe: s per point, fastest of REPS */
static int runPhase(const args_t *a) {
  int reps = a->reps;
  static double x[2000], y[2000], c[17];
  for (int i = 0; i < 2000; i++) x[i] = 0.5 + 1e-4 * i;
  for (int j = 0; j <= 16; j++) c[j] = 0.9 - 0.01 * j;
  double best = 1e30;
  ph_horner(2000, x, c, y);
  for (int k = 0; k < reps; k++) {
    double t0 = now();
    ph_horner(2000, x, c, y);
    double t = now() - t0;
    if (t < best) best = t;
    Sink += y[k % 2000];
  }
  printf("{\"phase_s_per_point\": %.6e}\n", best / 2000);
  return 0;
}

/* Mode "overlap": core/memory overlap: OKernel at footprints */
static int runOverlap(const args_t *a) {
  int reps = a->reps;
  double arg3 = a->arg3;
  int argc = a->argc;
  char **argv = a->argv;
  double target = arg3;
  int nw = argc - 4;
  if (nw < 1) {
    fprintf(stderr, "park: overlap: need TARGET_S and at least one footprint in bytes\n");
    return 2;
  }
  double maxb = 0;
  for (int j = 0; j < nw; j++)
    if (atof(argv[4 + j]) > maxb)
      maxb = atof(argv[4 + j]);
  A = alignedArray((long)(maxb / 8), 0);
  B = alignedArray((long)(maxb / 8), 3);
  for (int k = 0; k < NOK; k++)
    for (int j = 0; j < nw; j++) /* n: the kernel's own footprint is the size */
      addPoint(ID_OVERLAP + k, ((long)(atof(argv[4 + j]) / (8.0 * OStreams[k])) + 7) / 8 * 8);
  measureAll(reps, target);
  printf("{");
  printProbes();
  printf("\"overlap\": [");
  for (int k = 0; k < NOK; k++) {
    printf("%s{\"kernel\": %d, \"streams\": %d, \"chain\": %g, \"bytes_per_element\": %d, "
           "\"points\": ", k ? ", " : "", k, OStreams[k], OChain[k], 8 * OStreams[k]);
    printPoints(k * nw, (k + 1) * nw, reps);
    printf("}");
  }
  printf("]}\n");
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: park tick1|tick2|rinf1|poly1|poly2|mem|strided|strided2|overlap|phase REPS ...\n");
    return 2;
  }
  const char *mode = argv[1];
  int reps = atoi(argv[2]);
  double arg3 = argc > 3 ? atof(argv[3]) : 0, arg4 = argc > 4 ? atof(argv[4]) : 0;
  const args_t a = {mode, reps, arg3, arg4, argc, argv};
  pin();
  if (!strcmp(mode, "tick1"))
    return runTick1(&a);
  if (!strcmp(mode, "tick2"))
    return runTick2(&a);
  if (!strcmp(mode, "rinf1"))
    return runRinf1(&a);
  if (!strcmp(mode, "poly1") || !strcmp(mode, "poly2"))
    return runPoly(&a);
  if (!strcmp(mode, "mem"))
    return runMem(&a);
  if (!strcmp(mode, "strided") || !strcmp(mode, "strided2"))
    return runStrided(&a);
  if (!strcmp(mode, "phase"))
    return runPhase(&a);
  if (!strcmp(mode, "overlap"))
    return runOverlap(&a);
  fprintf(stderr, "park: unknown mode '%s'\n", mode);
  return 2;
}
