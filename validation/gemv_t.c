/*
 * gemv_t.c -- BLAS-2 transposed matrix-vector product y = A^T x, A m x n
 * row-major (doubles): row i of A scaled by x[i] is added to y, so the inner
 * loop walks A and y with unit stride.
 * Cost: m n multiply-adds; A read once (8 m n bytes), y (8 n bytes) reused
 * m times. Usage: gemv_t [m] [n]
 */
#include "valset.h"

SEGTIME_KERNEL void gemv_t(int m, int n, const double *a, const double *x, double *y)
{
    for (int j = 0; j < n; j++)
        y[j] = 0.0;
    for (int i = 0; i < m; i++) {
        double xi = x[i];
        for (int j = 0; j < n; j++)
            y[j] += a[i * n + j] * xi;
    }
}

int main(int argc, char **argv)
{
    int m = (int)vs_arg(argc, argv, 1, 2000);
    int n = (int)vs_arg(argc, argv, 2, m);
    double *a = vs_doubles((size_t)m * n, -0.5, 14u);
    double *x = vs_doubles((size_t)m, -0.5, 15u);
    double *y = segtime_alloc((size_t)n, sizeof *y);
    SEGTIME_BENCH("gemv_t", gemv_t(m, n, a, x, y), SEGTIME_P(m), SEGTIME_P(n));
    vs_checksum(y, (size_t)n);
    free(a);
    free(x);
    free(y);
    return 0;
}
