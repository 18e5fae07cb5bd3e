/*
 * cholesky.c -- Cholesky factorisation A = L L^T (UTSA-95 §4.2).
 *
 * Kernel: cholesky(n, a) overwrites the lower triangle of the symmetric
 * positive definite n x n row-major matrix A with L (row-oriented,
 * left-looking):
 *
 *   for j = 0 .. n-1
 *     for i = j .. n-1
 *       s = a[i][j] - sum_{k<j} a[i][k] a[j][k]     (j multiply-subtracts)
 *       a[i][j] = i == j ? sqrt(s) : s / a[j][j]
 *
 * The diagonal is done before the loop over i > j, so no branch depends on
 * the data.  Expected cost: sum_j (n - j) j ~ n^3/6 multiply-subtracts
 * (~ n^3/3 flops), n square roots, n(n-1)/2 divisions.
 * Data: n^2 doubles (n = 1000, UTSA-95 §5.1: 8 MB).  Default n = 400.
 *
 * The timed call is cholesky(n, a); the original matrix is restored into a
 * (untimed, via SEGTIME_BENCH_SETUP) before every call.  main checks
 * max |L L^T - A| on a few entries.
 *
 * Usage: cholesky [n]
 */
#include "../segtime_bench.h"

#include <math.h>
#include <string.h>

SEGTIME_KERNEL void cholesky(int n, double *a)
{
    for (int j = 0; j < n; j++) {
        double s = a[j * n + j];
        for (int k = 0; k < j; k++)
            s -= a[j * n + k] * a[j * n + k];
        double d = sqrt(s);
        a[j * n + j] = d;
        for (int i = j + 1; i < n; i++) {
            double t = a[i * n + j];
            for (int k = 0; k < j; k++)
                t -= a[i * n + k] * a[j * n + k];
            a[i * n + j] = t / d;
        }
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 400;
    if (n < 2)
        n = 400;
    size_t nn = (size_t)n * (size_t)n;
    double *orig = segtime_alloc(nn, sizeof *orig);
    double *a = segtime_alloc(nn, sizeof *a);

    /* Symmetric, diagonally dominant, hence positive definite. */
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++) {
            double v = i == j ? (double)n + 1.0 : (double)((i * 7 + j * 3) % 17) / 17.0 - 0.5;
            orig[(size_t)i * n + j] = orig[(size_t)j * n + i] = v;
        }

    SEGTIME_BENCH_SETUP("cholesky", memcpy(a, orig, nn * sizeof *a), cholesky(n, a), SEGTIME_P(n));

    /* Check (L L^T)[i][j] = A[i][j] for a few entries of the lower triangle. */
    double err = 0.0;
    for (int i = 0; i < n; i += n / 7 + 1)
        for (int j = 0; j <= i; j += n / 5 + 1) {
            double s = 0.0;
            for (int k = 0; k <= j; k++)
                s += a[(size_t)i * n + k] * a[(size_t)j * n + k];
            err = fmax(err, fabs(s - orig[(size_t)i * n + j]));
        }
    printf("max |L L^T - A|: %.3g (%s)\n", err, err < 1e-8 * n ? "ok" : "WRONG");
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += a[(size_t)i * n + i];
    printf("checksum: %.15g\n", sum);
    free(orig);
    free(a);
    return err < 1e-8 * n ? 0 : 1;
}
