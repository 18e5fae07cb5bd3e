/*
 * dnrm2.c -- BLAS-1 nrm2: sqrt(sum x[i]^2) (doubles, one accumulation).
 * Cost: n multiply-adds, n loads (8 n bytes), one square root.
 * Usage: dnrm2 [n]
 */
#include "valset.h"

SEGTIME_KERNEL double dnrm2(int n, const double *x)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += x[i] * x[i];
    return sqrt(s);
}

int main(int argc, char **argv)
{
    int n = (int)vs_arg(argc, argv, 1, 2000000);
    double *x = vs_doubles((size_t)n, -0.5, 12u);
    SEGTIME_BENCH("dnrm2", segtime_sink = dnrm2(n, x), SEGTIME_P(n));
    printf("checksum: %.15g\n", (double)segtime_sink);
    free(x);
    return 0;
}
