/*
 * trmv.c -- BLAS-2 triangular matrix-vector product y = U x, U the upper
 * triangle of an n x n row-major matrix (doubles): a triangular inner loop
 * j = i .. n-1. Cost: n (n + 1) / 2 multiply-adds; the upper half of the
 * matrix read once. Usage: trmv [n]
 */
#include "valset.h"

SEGTIME_KERNEL void trmv(int n, const double *u, const double *x, double *y)
{
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int j = i; j < n; j++)
            s += u[i * n + j] * x[j];
        y[i] = s;
    }
}

int main(int argc, char **argv)
{
    int n = (int)vs_arg(argc, argv, 1, 2000);
    double *u = vs_doubles((size_t)n * n, -0.5, 19u);
    double *x = vs_doubles((size_t)n, -0.5, 20u);
    double *y = segtime_alloc((size_t)n, sizeof *y);
    SEGTIME_BENCH("trmv", trmv(n, u, x, y), SEGTIME_P(n));
    vs_checksum(y, (size_t)n);
    free(u);
    free(x);
    free(y);
    return 0;
}
