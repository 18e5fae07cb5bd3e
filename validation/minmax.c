/*
 * minmax.c -- the smallest and largest of n doubles, one pass (two
 * compare-select reductions). Cost: 2 n compares, n loads (8 n bytes).
 * Returns max - min. Usage: minmax [n]
 */
#include "valset.h"

SEGTIME_KERNEL double minmax(int n, const double *x)
{
    double lo = x[0], hi = x[0];
    for (int i = 1; i < n; i++) {
        lo = x[i] < lo ? x[i] : lo;
        hi = x[i] > hi ? x[i] : hi;
    }
    return hi - lo;
}

int main(int argc, char **argv)
{
    int n = (int)vs_arg(argc, argv, 1, 2000000);
    double *x = vs_doubles((size_t)n, -0.5, 42u);
    SEGTIME_BENCH("minmax", segtime_sink = minmax(n, x), SEGTIME_P(n));
    printf("checksum: %.15g\n", (double)segtime_sink);
    free(x);
    return 0;
}
