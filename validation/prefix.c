/*
 * prefix.c -- inclusive prefix sum (scan) of floats.
 *
 * Kernel: prefix(n, x, y) sets y[i] = x[0] + x[1] + ... + x[i] for
 * i = 0 .. n-1 with a single running float accumulator (one pass; the adds
 * form one serial dependency chain).
 * Expected cost: n adds (n flops), n loads and n stores (8 n bytes).
 * Default n = 4000000 (4 Mflop, 32 MB of traffic).
 *
 * Usage: prefix [n]
 */
#include "../examples/segtime_bench.h"

SEGTIME_KERNEL void prefix(int n, const float *x, float *y)
{
    float s = 0.0f;
    for (int i = 0; i < n; i++) {
        s += x[i];
        y[i] = s;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 4000000;
    if (n < 1)
        n = 4000000;
    float *x = segtime_alloc((size_t)n, sizeof *x);
    float *y = segtime_alloc((size_t)n, sizeof *y);

    /* Deterministic initialisation: multiples of 1/16 in [-0.5, 0.5] with
     * zero mean over each period of 17, so the running sum stays bounded
     * and every partial sum is exact in float. */
    for (int i = 0; i < n; i++)
        x[i] = (float)((i * 7) % 17 - 8) / 16.0f;

    SEGTIME_BENCH("prefix", prefix(n, x, y), SEGTIME_P(n));

    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += (double)y[i] * (double)(i % 31 + 1);
    printf("checksum: %.15g\n", sum);

    free(x);
    free(y);
    return 0;
}
