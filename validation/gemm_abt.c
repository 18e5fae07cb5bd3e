/*
 * gemm_abt.c -- BLAS-3 C = A B^T in i-j-k order: C m x n, A m x k,
 * B n x k, row-major doubles; the inner loop is a dot product of a row of A
 * and a row of B (both unit stride). Cost: m n k multiply-adds.
 * Usage: gemm_abt [m] [n] [k]
 */
#include "valset.h"

SEGTIME_KERNEL void gemm_abt(int m, int n, int k, const double *a, const double *b, double *c)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double s = 0.0;
            for (int p = 0; p < k; p++)
                s += a[i * k + p] * b[j * k + p];
            c[i * n + j] = s;
        }
}

int main(int argc, char **argv)
{
    int m = (int)vs_arg(argc, argv, 1, 300);
    int n = (int)vs_arg(argc, argv, 2, m);
    int k = (int)vs_arg(argc, argv, 3, m);
    double *a = vs_doubles((size_t)m * k, -0.5, 27u);
    double *b = vs_doubles((size_t)n * k, -0.5, 28u);
    double *c = segtime_alloc((size_t)m * n, sizeof *c);
    SEGTIME_BENCH("gemm_abt", gemm_abt(m, n, k, a, b, c), SEGTIME_P(m), SEGTIME_P(n),
                  SEGTIME_P(k));
    vs_checksum(c, (size_t)m * n);
    free(a);
    free(b);
    free(c);
    return 0;
}
