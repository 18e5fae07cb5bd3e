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
    return vs_gemm_main(argc, argv, "gemm_jki", gemm_jki, 300, 24u);
}
