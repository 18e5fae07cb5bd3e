/*
 * dger.c -- BLAS-2 rank-1 update A += alpha x y^T, A m x n row-major
 * (doubles). Cost: m n multiply-adds; A read and written once (16 m n
 * bytes). The update accumulates from call to call (growth 1e-6 per call:
 * the values stay finite). Usage: dger [m] [n]
 */
#include "valset.h"

SEGTIME_KERNEL void dger(int m, int n, double alpha, const double *x, const double *y, double *a)
{
    for (int i = 0; i < m; i++) {
        double ax = alpha * x[i];
        for (int j = 0; j < n; j++)
            a[i * n + j] += ax * y[j];
    }
}

int main(int argc, char **argv)
{
    int m = (int)vs_arg(argc, argv, 1, 2000);
    int n = (int)vs_arg(argc, argv, 2, m);
    double *a = vs_doubles((size_t)m * n, -0.5, 16u);
    double *x = vs_doubles((size_t)m, -0.5, 17u);
    double *y = vs_doubles((size_t)n, -0.5, 18u);
    SEGTIME_BENCH("dger", dger(m, n, 1e-6, x, y, a), SEGTIME_P(m), SEGTIME_P(n));
    vs_checksum(a, (size_t)m * n);
    free(a);
    free(x);
    free(y);
    return 0;
}
