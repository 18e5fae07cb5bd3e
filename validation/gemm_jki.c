/*
 * gemm_jki.c -- BLAS-3 C += A B in j-k-i loop order: C m x n, A m x k,
 * B k x n, row-major doubles. The inner loop walks a column of A and of C
 * (stride k and n doubles: one cache line per access for large sizes).
 * Cost: m n k multiply-adds. C accumulates from call to call (A scaled by
 * 1e-6). Usage: gemm_jki [m] [n] [k]
 */
#include "valset.h"

SEGTIME_KERNEL void gemm_jki(int m, int n, int k, const double *a, const double *b, double *c)
{
    for (int j = 0; j < n; j++)
        for (int p = 0; p < k; p++) {
            double bpj = b[p * n + j];
            for (int i = 0; i < m; i++)
                c[i * n + j] += a[i * k + p] * bpj;
        }
}

int main(int argc, char **argv)
{
    int m = (int)vs_arg(argc, argv, 1, 300);
    int n = (int)vs_arg(argc, argv, 2, m);
    int k = (int)vs_arg(argc, argv, 3, m);
    double *a = vs_doubles((size_t)m * k, -0.5, 24u);
    double *b = vs_doubles((size_t)k * n, -0.5, 25u);
    double *c = vs_doubles((size_t)m * n, -0.5, 26u);
    for (size_t i = 0; i < (size_t)m * k; i++)
        a[i] *= 1e-6;
    SEGTIME_BENCH("gemm_jki", gemm_jki(m, n, k, a, b, c), SEGTIME_P(m), SEGTIME_P(n),
                  SEGTIME_P(k));
    vs_checksum(c, (size_t)m * n);
    free(a);
    free(b);
    free(c);
    return 0;
}
