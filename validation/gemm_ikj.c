/*
 * gemm_ikj.c -- BLAS-3 C += A B in i-k-j loop order: C m x n, A m x k,
 * B k x n, row-major doubles. The inner loop scales row p of B by A[i][p]
 * into row i of C (unit stride). Cost: m n k multiply-adds.
 * C accumulates from call to call (A is scaled by 1e-6: finite values).
 * Usage: gemm_ikj [m] [n] [k]
 */
#include "valset.h"

SEGTIME_KERNEL void gemm_ikj(int m, int n, int k, const double *a, const double *b, double *c)
{
    for (int i = 0; i < m; i++)
        for (int p = 0; p < k; p++) {
            double aip = a[i * k + p];
            for (int j = 0; j < n; j++)
                c[i * n + j] += aip * b[p * n + j];
        }
}

int main(int argc, char **argv)
{
    return vs_gemm_main(argc, argv, "gemm_ikj", gemm_ikj, 400, 21u);
}
