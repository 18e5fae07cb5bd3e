/*
 * trisolve.c -- forward substitution L x = b.
 *
 * Kernel: trisolve(n, l, b, x) solves L x = b for an n x n row-major
 * lower-triangular double matrix L (only the lower triangle, diagonal
 * included, is read):
 *
 *   for i = 0 .. n-1
 *     s = b[i]
 *     for j = 0 .. i-1
 *       s -= l[i][j] * x[j]                        (1 mul + 1 sub)
 *     x[i] = s / l[i][i]                           (1 division)
 *
 * Expected cost: n divisions and sum_i i = n(n-1)/2 multiply-subtracts
 * (~ n^2 flops), ~ n^2/2 loads of L.  Default n = 3000
 * (4.5 M multiply-subtracts, 36 MB of L read).
 *
 * L is diagonally dominant (l[i][i] = n, off-diagonal entries in
 * [-0.5, 0.5)), so the solve is well conditioned.  main reports the
 * residual max |L x - b| and exits non-zero only if it is not small.
 *
 * Usage: trisolve [n]
 */
#include "../examples/segtime_bench.h"

#include <math.h>

SEGTIME_KERNEL void trisolve(int n, const double *l, const double *b, double *x)
{
    for (int i = 0; i < n; i++) {
        double s = b[i];
        for (int j = 0; j < i; j++)
            s -= l[i * n + j] * x[j];
        x[i] = s / l[i * n + i];
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 3000;
    if (n < 1)
        n = 3000;
    size_t nn = (size_t)n * (size_t)n;
    double *l = segtime_alloc(nn, sizeof *l);
    double *b = segtime_alloc((size_t)n, sizeof *b);
    double *x = segtime_alloc((size_t)n, sizeof *x);

    /* Deterministic, diagonally dominant lower-triangular matrix. */
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            l[i * n + j] = j < i ? (double)((i * 13 + j * 7) % 19) / 19.0 - 0.5
                                 : 0.0;
        l[i * n + i] = (double)n;
        b[i] = (double)((i * 5) % 11) - 5.0;
    }

    SEGTIME_BENCH("trisolve", trisolve(n, l, b, x), SEGTIME_P(n));

    /* Residual max |L x - b|. */
    double err = 0.0;
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int j = 0; j <= i; j++)
            s += l[i * n + j] * x[j];
        double d = fabs(s - b[i]);
        if (d > err)
            err = d;
    }
    printf("max residual |L x - b|: %.3g\n", err);

    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += x[i] * (double)(i % 31 + 1);
    printf("checksum: %.15g\n", sum);

    free(l);
    free(b);
    free(x);
    return err < 1e-8 * n ? 0 : 1;
}
