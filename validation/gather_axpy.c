/*
 * gather_axpy.c -- indexed axpy y[i] += a * x[idx[i]], idx pseudo-random in
 * [0, n) (doubles): y and idx streamed, x gathered (one line per access once
 * x exceeds the caches). Cost: n multiply-adds. y accumulates from call to
 * call (a = 1e-6). Usage: gather_axpy [n]
 */
#include "valset.h"

SEGTIME_KERNEL void gather_axpy(int n, double a, const int *idx, const double *x, double *y)
{
    for (int i = 0; i < n; i++)
        y[i] += a * x[idx[i]];
}

int main(int argc, char **argv)
{
    int n = (int)vs_arg(argc, argv, 1, 2000000);
    int *idx = vs_ints((size_t)n, (unsigned)n, 52u);
    double *x = vs_doubles((size_t)n, -0.5, 53u);
    double *y = vs_doubles((size_t)n, -0.5, 54u);
    SEGTIME_BENCH("gather_axpy", gather_axpy(n, 1e-6, idx, x, y), SEGTIME_P(n));
    vs_checksum(y, (size_t)n);
    free(idx);
    free(x);
    free(y);
    return 0;
}
