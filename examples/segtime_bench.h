/*
 * segtime_bench.h -- minimal timing harness for the segtime example kernels.
 *
 * Header-only, C99, depends only on libc (POSIX clock_gettime).  Include it
 * FIRST in a translation unit (it defines _POSIX_C_SOURCE if unset).
 *
 * Each benchmarked kernel call is run once untimed (warm-up) and then R
 * timed times, R taken from the environment variable SEGTIME_REPS (default
 * 7, values < 1 fall back to the default).  Exactly one line is printed to
 * stdout, valid JSON after the "SEGTIME_MEASURED " prefix:
 *
 *   SEGTIME_MEASURED {"function": "matmul", "params": {"n": 256},
 *                     "median_s": 0.0123, "min_s": 0.012, "max_s": 0.0131,
 *                     "reps": 7}                      (on a single line)
 *
 * Usage:
 *   SEGTIME_BENCH("matmul", matmul(n, a, b, c), SEGTIME_P(n));
 *   SEGTIME_BENCH("jacobi", jacobi(n, steps, u, v),
 *                 SEGTIME_P(n), SEGTIME_P(steps));
 *   SEGTIME_BENCH_SETUP("lu", memcpy(a, orig, bytes),    <- untimed, run
 *                       lu(n, a), SEGTIME_P(n));            before every call
 *   SEGTIME_BENCH("simpson", segtime_sink = simpson(0.0, 100.0, nt),
 *                 SEGTIME_PN("n", nt));                  <- explicit name
 *
 * SEGTIME_P(x) records parameter "x" with the value of variable x;
 * SEGTIME_PN("name", expr) records an arbitrary name/value.  Values are
 * printed with %.17g (integers print exactly).  Names and the function name
 * are printed verbatim, so they must not contain '"' or '\\'.
 * Assign a value-returning kernel's result to segtime_sink (volatile) so the
 * optimiser cannot drop the call.
 */
#ifndef SEGTIME_BENCH_H
#define SEGTIME_BENCH_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* The timed kernel stays a function of its own, so the code that runs is the
 * code segtime characterised as that function: inlined into main, the
 * compiler would specialise it (e.g. drop the vectoriser's alias checks
 * between arrays it sees come from malloc). "weak" also keeps the compiler
 * from inferring properties of the body at the call site (a read-only
 * kernel's repeated calls would be hoisted out of the timing loop). */
#define SEGTIME_KERNEL __attribute__((noinline, weak))

#define SEGTIME_DEFAULT_REPS 7

/* One scalar kernel parameter, for the "params" object. */
typedef struct {
    const char *name;
    double value;
} segtime_param;

#define SEGTIME_P(x) { #x, (double)(x) }
#define SEGTIME_PN(name, x) { (name), (double)(x) }

/* Sink for results of value-returning kernels. */
static volatile double segtime_sink;

/* Monotonic wall-clock time in seconds. */
/* malloc(count * size) that exits with a message instead of returning NULL. */
static inline void *segtime_alloc(size_t count, size_t size)
{
    void *p = malloc(count * size);
    if (!p) {
        fprintf(stderr, "out of memory (%zu x %zu bytes)\n", count, size);
        exit(1);
    }
    return p;
}

static double segtime_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Number of timed repetitions: $SEGTIME_REPS, default 7. */
static int segtime_reps(void)
{
    const char *s = getenv("SEGTIME_REPS");
    char *end;
    long r;
    if (s == NULL || *s == '\0')
        return SEGTIME_DEFAULT_REPS;
    r = strtol(s, &end, 10);
    if (*end != '\0' || r < 1 || r > 1000000)
        return SEGTIME_DEFAULT_REPS;
    return (int)r;
}

static int segtime_cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

/* Sort samples[0..count-1] in place and return median, min and max. */
static void segtime_stats(double *samples, int count,
                          double *median, double *min, double *max)
{
    qsort(samples, (size_t)count, sizeof *samples, segtime_cmp_double);
    *min = samples[0];
    *max = samples[count - 1];
    if (count % 2)
        *median = samples[count / 2];
    else
        *median = 0.5 * (samples[count / 2 - 1] + samples[count / 2]);
}

/* Print the single SEGTIME_MEASURED line (sorts samples). */
static void segtime_report(const char *function, const segtime_param *params,
                           int nparams, double *samples, int reps)
{
    double med, mn, mx;
    int i;
    segtime_stats(samples, reps, &med, &mn, &mx);
    printf("SEGTIME_MEASURED {\"function\": \"%s\", \"params\": {", function);
    for (i = 0; i < nparams; i++)
        printf("%s\"%s\": %.17g", i ? ", " : "", params[i].name,
               params[i].value);
    printf("}, \"median_s\": %.9g, \"min_s\": %.9g, \"max_s\": %.9g, "
           "\"reps\": %d}\n", med, mn, mx, reps);
    fflush(stdout);
}

static double *segtime_alloc_samples(int reps)
{
    double *s = (double *)malloc((size_t)reps * sizeof *s);
    if (s == NULL) {
        fprintf(stderr, "segtime_bench: out of memory\n");
        exit(1);
    }
    return s;
}

/*
 * Time `call` (an expression; void is fine).  `setup` is evaluated untimed
 * before the warm-up and before every timed call (e.g. restore the input).
 * The variadic arguments are SEGTIME_P / SEGTIME_PN parameter records.
 */
#define SEGTIME_BENCH_SETUP(function, setup, call, ...)                      \
    do {                                                                     \
        const segtime_param segtime_params_[] = { __VA_ARGS__ };             \
        int segtime_reps_ = segtime_reps();                                  \
        double *segtime_s_ = segtime_alloc_samples(segtime_reps_);           \
        int segtime_r_;                                                      \
        (void)(setup);                                                       \
        (void)(call); /* warm-up, not timed */                               \
        for (segtime_r_ = 0; segtime_r_ < segtime_reps_; segtime_r_++) {     \
            double segtime_t0_;                                              \
            (void)(setup);                                                   \
            segtime_t0_ = segtime_now();                                     \
            (void)(call);                                                    \
            segtime_s_[segtime_r_] = segtime_now() - segtime_t0_;            \
        }                                                                    \
        segtime_report((function), segtime_params_,                          \
                       (int)(sizeof segtime_params_ / sizeof segtime_params_[0]), \
                       segtime_s_, segtime_reps_);                           \
        free(segtime_s_);                                                    \
    } while (0)

/* Time `call` with no per-call setup. */
#define SEGTIME_BENCH(function, call, ...) \
    SEGTIME_BENCH_SETUP(function, 0, call, __VA_ARGS__)

#endif /* SEGTIME_BENCH_H */
