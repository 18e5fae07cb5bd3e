/*
 * poly.c -- Horner evaluation of a polynomial at many points.
 *
 * Kernel: polyeval(n, d, c, x, y) sets, for i = 0 .. n-1,
 *     y[i] = c[0] + c[1] x[i] + ... + c[d] x[i]^d
 * by Horner's rule, with the inner loop over the degree:
 *
 *   for i = 0 .. n-1
 *     s = c[d]
 *     for j = 1 .. d
 *       s = s * x[i] + c[d-j]                      (1 mul + 1 add)
 *     y[i] = s
 *
 * Expected cost: n d multiply-adds (2 n d flops); each point is a serial
 * chain of d mul-add pairs (chains of different points can overlap).
 * Default n = 1000000, d = 16 (16 M mul-adds).
 *
 * Usage: poly [n] [d]
 */
#include "../examples/segtime_bench.h"

SEGTIME_KERNEL void polyeval(int n, int d, const double *c, const double *x, double *y)
{
    for (int i = 0; i < n; i++) {
        double s = c[d];
        for (int j = 1; j <= d; j++)
            s = s * x[i] + c[d - j];
        y[i] = s;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000000;
    int d = argc > 2 ? atoi(argv[2]) : 16;
    if (n < 1)
        n = 1000000;
    if (d < 0)
        d = 16;
    double *c = segtime_alloc((size_t)d + 1, sizeof *c);
    double *x = segtime_alloc((size_t)n, sizeof *x);
    double *y = segtime_alloc((size_t)n, sizeof *y);

    /* Deterministic initialisation: points in [-1, 1), coefficients in
     * [-0.5, 0.5) scaled down with the degree. */
    for (int j = 0; j <= d; j++)
        c[j] = ((double)((j * 5) % 13) / 13.0 - 0.5) / (double)(j + 1);
    for (int i = 0; i < n; i++)
        x[i] = (double)((i * 7) % 101) / 50.5 - 1.0;

    SEGTIME_BENCH("polyeval", polyeval(n, d, c, x, y),
                  SEGTIME_P(n), SEGTIME_P(d));

    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += y[i] * (double)(i % 31 + 1);
    printf("checksum: %.15g\n", sum);

    free(c);
    free(x);
    free(y);
    return 0;
}
