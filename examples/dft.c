/*
 * dft.c -- naive discrete Fourier transform.
 *
 * Kernel: dft(n, x, re, im) computes, for k = 0 .. n-1,
 *     re[k] =  sum_t x[t] cos(2 pi k t / n)
 *     im[k] = -sum_t x[t] sin(2 pi k t / n)
 * with a double loop calling cos and sin directly.
 * Expected cost: n^2 inner iterations, each 1 cos + 1 sin, 4 muls + 1 div
 * (angle), 2 muls + 2 adds (accumulate); plus n stores of each output.
 * Default n = 1024 (1048576 cos/sin pairs).
 *
 * Usage: dft [n]
 */
#include "segtime_bench.h"

#include <math.h>

#define TWO_PI 6.283185307179586476925286766559

SEGTIME_KERNEL void dft(int n, const double *x, double *re, double *im)
{
    for (int k = 0; k < n; k++) {
        double sr = 0.0;
        double si = 0.0;
        for (int t = 0; t < n; t++) {
            double ang = TWO_PI * (double)k * (double)t / n;
            sr += x[t] * cos(ang);
            si -= x[t] * sin(ang);
        }
        re[k] = sr;
        im[k] = si;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1024;
    if (n < 1)
        n = 1024;
    double *x = segtime_alloc((size_t)n, sizeof *x);
    double *re = segtime_alloc((size_t)n, sizeof *re);
    double *im = segtime_alloc((size_t)n, sizeof *im);

    /* Deterministic signal: two tones plus a small sawtooth. */
    for (int t = 0; t < n; t++)
        x[t] = sin(TWO_PI * 3.0 * t / n) + 0.5 * cos(TWO_PI * 17.0 * t / n)
               + 0.01 * (double)(t % 10);

    SEGTIME_BENCH("dft", dft(n, x, re, im), SEGTIME_P(n));

    double sum = 0.0;
    for (int k = 0; k < n; k++)
        sum += (fabs(re[k]) + fabs(im[k])) * (double)(k % 31 + 1);
    printf("checksum: %.15g\n", sum);

    free(x);
    free(re);
    free(im);
    return 0;
}
