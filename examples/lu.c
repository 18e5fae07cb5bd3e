/*
 * lu.c -- in-place LU decomposition without pivoting.
 *
 * Kernel: lu(n, a) overwrites the n x n row-major matrix A with L (strictly
 * below the diagonal, unit diagonal implied) and U (on and above it), so
 * that A = L U.  A is diagonally dominant, so no pivoting is needed.
 *
 *   for k = 0 .. n-1
 *     for i = k+1 .. n-1
 *       a[i][k] /= a[k][k]                         (1 division)
 *       for j = k+1 .. n-1
 *         a[i][j] -= a[i][k] * a[k][j]             (1 mul + 1 sub)
 *
 * Expected cost: sum_k (n-1-k) = n(n-1)/2 divisions and
 * sum_k (n-1-k)^2 = (n-1) n (2n-1) / 6 ~ n^3/3 multiply-subtracts
 * (~ 2n^3/3 flops).  Default n = 320.
 *
 * The timed call is lu(n, a); the original matrix is restored into a
 * (untimed, via SEGTIME_BENCH_SETUP) before every call.  main checks
 * max |L U - A| on a few rows.
 *
 * Usage: lu [n]
 */
#include "segtime_bench.h"

#include <math.h>
#include <string.h>

SEGTIME_KERNEL void lu(int n, double *a)
{
    for (int k = 0; k < n; k++) {
        for (int i = k + 1; i < n; i++) {
            a[i * n + k] /= a[k * n + k];
            for (int j = k + 1; j < n; j++)
                a[i * n + j] -= a[i * n + k] * a[k * n + j];
        }
    }
}

/* Entry (i, j) of L U reconstructed from the packed factorisation. */
static double lu_entry(int n, const double *f, int i, int j)
{
    double s = 0.0;
    int kmax = i < j ? i : j;
    for (int k = 0; k < kmax; k++)
        s += f[i * n + k] * f[k * n + j];
    /* k == kmax term: L has unit diagonal. */
    s += (i <= j) ? f[i * n + j] : f[i * n + j] * f[j * n + j];
    return s;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 320;
    if (n < 1)
        n = 320;
    size_t nn = (size_t)n * (size_t)n;
    double *orig = segtime_alloc(nn, sizeof *orig);
    double *a = segtime_alloc(nn, sizeof *a);

    /* Deterministic, strictly diagonally dominant matrix. */
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            orig[i * n + j] = (double)((i * 13 + j * 7) % 19) / 19.0 - 0.5;
        orig[i * n + i] = (double)n;
    }

    SEGTIME_BENCH_SETUP("lu", memcpy(a, orig, nn * sizeof *a), lu(n, a),
                        SEGTIME_P(n));

    /* Spot-check the residual on a few rows. */
    double err = 0.0;
    for (int i = 0; i < n; i += (n > 8 ? n / 8 : 1))
        for (int j = 0; j < n; j++) {
            double d = fabs(lu_entry(n, a, i, j) - orig[i * n + j]);
            if (d > err)
                err = d;
        }
    printf("max residual |LU - A| (sampled rows): %.3g\n", err);

    double sum = 0.0;
    for (size_t i = 0; i < nn; i++)
        sum += a[i] * (double)(i % 31 + 1);
    printf("checksum: %.15g\n", sum);

    free(orig);
    free(a);
    return err < 1e-8 * n ? 0 : 1;
}
