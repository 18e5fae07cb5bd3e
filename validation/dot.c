/*
 * dot.c -- BLAS-1 dot product (a reduction).
 *
 * Kernel: double dot(n, x, y) returns sum_{i=0}^{n-1} x[i] * y[i] with a
 * single scalar accumulator (strict FP order: without -ffast-math the adds
 * form one serial dependency chain).
 * Expected cost: n multiply-adds (2 n flops), 2 n loads (16 n bytes).
 * Default n = 2000000 (4 Mflop, 32 MB read).
 *
 * The timed call is segtime_sink = dot(n, x, y).
 *
 * Usage: dot [n]
 */
#include "../examples/segtime_bench.h"

SEGTIME_KERNEL double dot(int n, const double *x, const double *y)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 2000000;
    if (n < 1)
        n = 2000000;
    double *x = segtime_alloc((size_t)n, sizeof *x);
    double *y = segtime_alloc((size_t)n, sizeof *y);

    /* Deterministic initialisation. */
    for (int i = 0; i < n; i++) {
        x[i] = (double)((i * 7) % 17) / 17.0 - 0.5;
        y[i] = (double)((i * 11) % 13) / 13.0 - 0.5;
    }

    SEGTIME_BENCH("dot", segtime_sink = dot(n, x, y), SEGTIME_P(n));

    printf("checksum: %.15g\n", dot(n, x, y));

    free(x);
    free(y);
    return 0;
}
