/*
 * histogram.c -- integer histogram.
 *
 * Kernel: histogram(n, nbins, data, hist) clears the nbins counters and
 * then counts the n values data[i] (each in [0, nbins)):
 *
 *   for b = 0 .. nbins-1
 *     hist[b] = 0                                  (nbins stores)
 *   for i = 0 .. n-1
 *     hist[data[i]]++                              (1 load, 1 indirect
 *                                                   load-add-store)
 *
 * Expected cost: nbins stores + n indirect increments (no flops); the
 * increments serialise through memory when consecutive values repeat.
 * Default n = 4000000, nbins = 256.
 *
 * data is filled by a fixed 32-bit LCG (values (r >> 8) % nbins), so runs
 * are deterministic.  main checks that the counts sum to n.
 *
 * Usage: histogram [n] [nbins]
 */
#include "../examples/segtime_bench.h"

SEGTIME_KERNEL void histogram(int n, int nbins, const int *data, int *hist)
{
    for (int b = 0; b < nbins; b++)
        hist[b] = 0;
    for (int i = 0; i < n; i++)
        hist[data[i]]++;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 4000000;
    int nbins = argc > 2 ? atoi(argv[2]) : 256;
    if (n < 1)
        n = 4000000;
    if (nbins < 1)
        nbins = 256;
    int *data = segtime_alloc((size_t)n, sizeof *data);
    int *hist = segtime_alloc((size_t)nbins, sizeof *hist);

    /* Deterministic pseudo-random data in [0, nbins). */
    unsigned int r = 12345u;
    for (int i = 0; i < n; i++) {
        r = r * 1664525u + 1013904223u;
        data[i] = (int)((r >> 8) % (unsigned int)nbins);
    }

    SEGTIME_BENCH("histogram", histogram(n, nbins, data, hist),
                  SEGTIME_P(n), SEGTIME_P(nbins));

    long total = 0;
    double sum = 0.0;
    for (int b = 0; b < nbins; b++) {
        total += hist[b];
        sum += (double)hist[b] * (double)(b % 31 + 1);
    }
    printf("checksum: %.15g\n", sum);

    free(data);
    free(hist);
    return total == n ? 0 : 1;
}
