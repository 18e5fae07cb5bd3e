/*===- BenchMain.c - benchmark program: timers, noise checks and main() (end of bench.c) -===*/

static double clock_s(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Wall-clock seconds of one call; *cpu gets the seconds this thread ran. */
static double time_call(bench_fn fn, long R, double *cpu) {
  double c0 = clock_s(CLOCK_THREAD_CPUTIME_ID), w0 = clock_s(CLOCK_MONOTONIC);
  fn(R);
  double w = clock_s(CLOCK_MONOTONIC) - w0;
  *cpu = clock_s(CLOCK_THREAD_CPUTIME_ID) - c0;
  return w;
}

/* CPU this program is pinned to (-1: not pinned). */
static int my_cpu = -1;

/* Busy clock ticks (user, nice, system, irq, softirq) of every CPU but ours
 * since boot, from /proc/stat; *n gets the number of those CPUs. -1 if
 * /proc/stat cannot be read. */
static long long others_busy(int *n) {
  FILE *f = fopen("/proc/stat", "r");
  if (!f)
    return -1;
  char line[512];
  long long sum = 0;
  *n = 0;
  while (fgets(line, sizeof line, f)) {
    int cpu;
    unsigned long long u, ni, sy, id, io, irq, sirq;
    if (strncmp(line, "cpu", 3) != 0 || line[3] < '0' || line[3] > '9')
      continue;
    if (sscanf(line + 3, "%d %llu %llu %llu %llu %llu %llu %llu", &cpu, &u, &ni, &sy, &id, &io,
               &irq, &sirq) != 8)
      continue;
    if (cpu == my_cpu)
      continue;
    sum += (long long)(u + ni + sy + irq + sirq);
    *n += 1;
  }
  fclose(f);
  return sum;
}

/* A call is disturbed if other processes ran instead of it for more than 2%
 * of its wall time, or kept the other CPUs more than 25% busy meanwhile
 * (they may share this core's execution units or caches). */
static int disturbed(double wall, double cpu, long long busy0, long long busy1, int n) {
  if (cpu < 0.98 * wall)
    return 1;
  if (busy0 < 0 || busy1 < 0 || n == 0 || my_cpu < 0)
    return 0;
  double ticks = wall * (double)sysconf(_SC_CLK_TCK);
  return (double)(busy1 - busy0) > 0.25 * ticks * n;
}

/* One timed call (wall-clock s); *bad set if it was disturbed. */
static double sample(bench_fn fn, long R, int *bad) {
  int n0 = 0, n1 = 0;
  double cpu;
  long long b0 = others_busy(&n0);
  double w = time_call(fn, R, &cpu);
  long long b1 = others_busy(&n1);
  *bad = disturbed(w, cpu, b0, b1, n0 == n1 ? n0 : 0);
  return w;
}

/* About the R for which one call runs target seconds (CPU time, so that a
 * busy machine does not shorten the calls). */
static long pick_R(bench_fn fn, double target) {
  long R = 1;
  for (;;) {
    double cpu, w = time_call(fn, R, &cpu);
    double t = cpu > 0 ? cpu : w;
    if (t >= target / 8 || R >= (1L << 40)) {
      double f = target / (t > 0 ? t : 1e-9);
      long N = (long)((double)R * f) + 1;
      return N < 1 ? 1 : N;
    }
    double grow = t > 0 ? target / (4 * t) : 64;
    if (grow < 2)
      grow = 2;
    if (grow > 64)
      grow = 64;
    R = (long)((double)R * grow) + 1;
  }
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s TARGET_SECONDS REPS MASK\n", argv[0]);
    return 2;
  }
  double target = atof(argv[1]);
  int reps = atoi(argv[2]), mask = atoi(argv[3]);
  int nb = (int)(sizeof benches / sizeof benches[0]);
  if (target <= 0 || reps < 1) {
    fprintf(stderr, "bad arguments\n");
    return 2;
  }
  for (int i = 0; i < NV; i++) {
    pa[i] = 0.5 + 0.05 * (i % 7);
    pb[i] = 1.0 - 0.03 * (i % 5);
    pc[i] = 0.25 * (i % 3);
  }
  for (int k = 0; k < 16; k++)
    pcoef[k] = 1.0 / (k + 1);
  for (int i = 0; i < 1024; i++)
    g_src[i] = (char)i;
  /* Stay on one CPU, so that the activity of the others can be told apart. */
  int here = sched_getcpu();
  cpu_set_t set;
  CPU_ZERO(&set);
  if (here >= 0) {
    CPU_SET(here, &set);
    if (sched_setaffinity(0, sizeof set, &set) == 0)
      my_cpu = here;
  }
  long *Rs = calloc((size_t)nb, sizeof *Rs);
  int *bad = calloc((size_t)nb, sizeof *bad), *retries = calloc((size_t)nb, sizeof *retries);
  double *t = calloc((size_t)nb * (size_t)reps, sizeof *t);
  if (!Rs || !bad || !retries || !t)
    return 3;
  long active = 0;
  for (int b = 0; b < nb; b++)
    if (benches[b].kind & mask) {
      Rs[b] = pick_R(benches[b].fn, target);
      active++;
    }
  /* Repetition k of every benchmark, then k+1: drifts hit all alike. A call
   * disturbed by other processes is repeated, within a budget of twice the
   * number of samples; a disturbed call kept is counted in "disturbed". */
  long budget = 2 * active * reps;
  for (int k = 0; k < reps; k++)
    for (int b = 0; b < nb; b++) {
      if (!(benches[b].kind & mask))
        continue;
      int dist;
      double w = sample(benches[b].fn, Rs[b], &dist);
      while (dist && budget > 0) {
        budget--;
        retries[b]++;
        w = sample(benches[b].fn, Rs[b], &dist);
      }
      bad[b] += dist;
      t[b * reps + k] = w;
    }
  printf("{\"target_s\": %.6g, \"reps\": %d, \"benchmarks\": [", target, reps);
  int first = 1;
  for (int b = 0; b < nb; b++) {
    if (!(benches[b].kind & mask))
      continue;
    printf("%s\n {\"name\": \"%s\", \"R\": %ld, \"disturbed\": %d, \"retries\": %d, "
           "\"times\": [",
           first ? "" : ",", benches[b].name, Rs[b], bad[b], retries[b]);
    first = 0;
    for (int k = 0; k < reps; k++)
      printf("%s%.9e", k ? ", " : "", t[b * reps + k]);
    printf("]}");
  }
  printf("\n]}\n");
  return 0;
}
