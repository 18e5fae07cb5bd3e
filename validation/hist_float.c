/*
 * hist_float.c -- histogram of n floats in [0, 1) into nbins counters
 * (mixed int/float: the bin is (int)(x * nbins), clamped to the last bin;
 * the increment is an indirect load-add-store).
 * Usage: hist_float [n] [nbins]
 */
#include "valset.h"

SEGTIME_KERNEL void hist_float(int n, int nbins, const float *x, int *count)
{
    for (int b = 0; b < nbins; b++)
        count[b] = 0;
    float scale = (float)nbins;
    for (int i = 0; i < n; i++) {
        int b = (int)(x[i] * scale);
        count[b < nbins ? b : nbins - 1]++;
    }
}

int main(int argc, char **argv)
{
    int n = (int)vs_arg(argc, argv, 1, 2000000);
    int nbins = (int)vs_arg(argc, argv, 2, 1000);
    float *x = vs_floats((size_t)n, 0.0f, 50u);
    int *count = segtime_alloc((size_t)nbins, sizeof *count);
    SEGTIME_BENCH("hist_float", hist_float(n, nbins, x, count), SEGTIME_P(n), SEGTIME_P(nbins));
    long total = 0;
    for (int b = 0; b < nbins; b++)
        total += count[b] * (long)(b % 31 + 1);
    printf("checksum: %ld\n", total);
    free(x);
    free(count);
    return 0;
}
