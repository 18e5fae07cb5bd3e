/*
 * gemm_abt.c -- BLAS-3 C = A B^T in i-j-k order: C m x n, A m x k,
 * B n x k, row-major doubles; the inner loop is a dot product of a row of A
 * and a row of B (both unit stride). Cost: m n k multiply-adds.
 * (The harness scales A by 1e-6, as for the other products.) Usage: gemm_abt [m] [n] [k]
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
    return vs_gemm_main(argc, argv, "gemm_abt", gemm_abt, 300, 27u);
}
