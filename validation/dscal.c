/*
 * dscal.c -- BLAS-1 scal: x[i] = a * x[i], i = 0 .. n-1 (doubles).
 * Cost: n multiplies, n loads, n stores (16 n bytes). The harness restores x
 * before every call (untimed). Usage: dscal [n]
 */
#include "valset.h"

SEGTIME_KERNEL void dscal(int n, double a, double *x)
{
    for (int i = 0; i < n; i++)
        x[i] = a * x[i];
}

int main(int argc, char **argv)
{
    int n = (int)vs_arg(argc, argv, 1, 2000000);
    double *x0 = vs_doubles((size_t)n, -0.5, 11u);
    double *x = segtime_alloc((size_t)n, sizeof *x);
    SEGTIME_BENCH_SETUP("dscal", memcpy(x, x0, (size_t)n * sizeof *x), dscal(n, 1.0001, x),
                        SEGTIME_P(n));
    vs_checksum(x, (size_t)n);
    free(x0);
    free(x);
    return 0;
}
