/*
 * dasum.c -- BLAS-1 asum: sum |x[i]| (doubles).
 * Cost: n absolute values and adds, n loads (8 n bytes). Usage: dasum [n]
 */
#include "valset.h"

SEGTIME_KERNEL double dasum(int n, const double *x)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += fabs(x[i]);
    return s;
}

int main(int argc, char **argv)
{
    int n = (int)vs_arg(argc, argv, 1, 2000000);
    double *x = vs_doubles((size_t)n, -0.5, 13u);
    SEGTIME_BENCH("dasum", segtime_sink = dasum(n, x), SEGTIME_P(n));
    printf("checksum: %.15g\n", (double)segtime_sink);
    free(x);
    return 0;
}
