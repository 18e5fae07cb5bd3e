/*
 * gemv.c -- dense matrix-vector product.
 *
 * Kernel: gemv(m, n, a, x, y) computes y = A x for an m x n row-major
 * double matrix A: for each row i a scalar accumulator sums
 * a[i][j] * x[j] over j = 0 .. n-1, then y[i] is stored.
 * Expected cost: m n multiply-adds (2 m n flops), m n loads of A,
 * m n loads of x (cache-resident), m stores to y.
 * Default m = n = 2000 (8 Mflop, 32 MB of A).
 *
 * Usage: gemv [m] [n]
 */
#include "../examples/segtime_bench.h"

SEGTIME_KERNEL void gemv(int m, int n, const double *a, const double *x, double *y)
{
    for (int i = 0; i < m; i++) {
        double s = 0.0;
        for (int j = 0; j < n; j++)
            s += a[i * n + j] * x[j];
        y[i] = s;
    }
}

int main(int argc, char **argv)
{
    int m = argc > 1 ? atoi(argv[1]) : 2000;
    int n = argc > 2 ? atoi(argv[2]) : m;
    if (m < 1)
        m = 2000;
    if (n < 1)
        n = 2000;
    size_t mn = (size_t)m * (size_t)n;
    double *a = segtime_alloc(mn, sizeof *a);
    double *x = segtime_alloc((size_t)n, sizeof *x);
    double *y = segtime_alloc((size_t)m, sizeof *y);

    /* Deterministic initialisation. */
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            a[i * n + j] = (double)((i * 7 + j * 3) % 17) / 17.0 - 0.5;
    for (int j = 0; j < n; j++)
        x[j] = (double)((j * 5) % 13) / 13.0 - 0.5;

    SEGTIME_BENCH("gemv", gemv(m, n, a, x, y), SEGTIME_P(m), SEGTIME_P(n));

    double sum = 0.0;
    for (int i = 0; i < m; i++)
        sum += y[i] * (double)(i % 31 + 1);
    printf("checksum: %.15g\n", sum);

    free(a);
    free(x);
    free(y);
    return 0;
}
