/*
 * daxpy.c -- BLAS-1 daxpy.
 *
 * Kernel: daxpy(n, a, x, y) computes y[i] += a * x[i] for i = 0 .. n-1
 * (double precision, unit stride).
 * Expected cost: n multiply-adds (2 n flops), 2 n loads and n stores
 * (24 n bytes of traffic: memory-bound for large n).
 * Default n = 2000000 (4 Mflop, 48 MB of traffic).
 *
 * The timed call is daxpy(n, a, x, y); y is restored to its initial values
 * (untimed, via SEGTIME_BENCH_SETUP) before every call so all reps do
 * identical work and the checksum is reproducible.  The double scalar a
 * is not a size and is not reported in the params.
 *
 * Usage: daxpy [n]
 */
#include "../examples/segtime_bench.h"

#include <string.h>

SEGTIME_KERNEL void daxpy(int n, double a, const double *x, double *y)
{
    for (int i = 0; i < n; i++)
        y[i] += a * x[i];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 2000000;
    if (n < 1)
        n = 2000000;
    double a = 0.75;
    double *x = segtime_alloc((size_t)n, sizeof *x);
    double *y0 = segtime_alloc((size_t)n, sizeof *y0);
    double *y = segtime_alloc((size_t)n, sizeof *y);

    /* Deterministic initialisation. */
    for (int i = 0; i < n; i++) {
        x[i] = (double)((i * 7) % 17) / 17.0 - 0.5;
        y0[i] = (double)((i * 5) % 13) / 13.0 - 0.5;
    }

    SEGTIME_BENCH_SETUP("daxpy", memcpy(y, y0, (size_t)n * sizeof *y),
                        daxpy(n, a, x, y), SEGTIME_P(n));

    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += y[i] * (double)(i % 31 + 1);
    printf("checksum: %.15g\n", sum);

    free(x);
    free(y0);
    free(y);
    return 0;
}
