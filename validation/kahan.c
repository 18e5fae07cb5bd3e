/*
 * kahan.c -- compensated (Kahan) summation of n floats: four dependent
 * adds/subtracts per element on the loop-carried chain (the compiler may not
 * reassociate them). Cost: 4 n flops, n loads (4 n bytes): latency-bound.
 * Usage: kahan [n]
 */
#include "valset.h"

SEGTIME_KERNEL float kahan(int n, const float *x)
{
    float s = 0.0f, c = 0.0f;
    for (int i = 0; i < n; i++) {
        float y = x[i] - c;
        float t = s + y;
        c = (t - s) - y;
        s = t;
    }
    return s;
}

int main(int argc, char **argv)
{
    int n = (int)vs_arg(argc, argv, 1, 2000000);
    float *x = vs_floats((size_t)n, 0.0f, 43u);
    SEGTIME_BENCH("kahan", segtime_sink = kahan(n, x), SEGTIME_P(n));
    printf("checksum: %.15g\n", (double)segtime_sink);
    free(x);
    return 0;
}
