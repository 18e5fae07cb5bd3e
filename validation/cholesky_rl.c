/*
 * cholesky_rl.c -- right-looking (outer-product) Cholesky factorisation
 * A = L L^T of an n x n symmetric positive definite row-major matrix, in
 * place in the lower triangle (doubles): for each column k, a square root,
 * n-k-1 divisions and the rank-1 update of the trailing lower triangle.
 * Cost: about n^3 / 6 multiply-adds. The harness restores A before every
 * call (untimed). Usage: cholesky_rl [n]
 */
#include "valset.h"

SEGTIME_KERNEL void cholesky_rl(int n, double *a)
{
    for (int k = 0; k < n; k++) {
        double d = sqrt(a[k * n + k]);
        a[k * n + k] = d;
        for (int i = k + 1; i < n; i++)
            a[i * n + k] /= d;
        for (int j = k + 1; j < n; j++) {
            double ljk = a[j * n + k];
            for (int i = j; i < n; i++)
                a[i * n + j] -= a[i * n + k] * ljk;
        }
    }
}

int main(int argc, char **argv)
{
    int n = (int)vs_arg(argc, argv, 1, 300);
    size_t nn = (size_t)n * n;
    double *a0 = vs_dominant(n, 1, 37u);
    double *a = segtime_alloc(nn, sizeof *a);
    SEGTIME_BENCH_SETUP("cholesky_rl", memcpy(a, a0, nn * sizeof *a), cholesky_rl(n, a),
                        SEGTIME_P(n));
    vs_checksum(a, nn);
    free(a0);
    free(a);
    return 0;
}
