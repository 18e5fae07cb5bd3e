/*
 * transpose_rect.c -- out-of-place transpose B = A^T, A m x n row-major
 * doubles (B n x m): A read by rows, B written by columns (stride m).
 * Cost: m n loads and stores, no flops. Usage: transpose_rect [m] [n]
 */
#include "valset.h"

SEGTIME_KERNEL void transpose_rect(int m, int n, const double *a, double *b)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            b[j * m + i] = a[i * n + j];
}

int main(int argc, char **argv)
{
    int m = (int)vs_arg(argc, argv, 1, 1000);
    int n = (int)vs_arg(argc, argv, 2, m);
    double *a = vs_doubles((size_t)m * n, -0.5, 44u);
    double *b = segtime_alloc((size_t)m * n, sizeof *b);
    SEGTIME_BENCH("transpose_rect", transpose_rect(m, n, a, b), SEGTIME_P(m), SEGTIME_P(n));
    vs_checksum(b, (size_t)m * n);
    free(a);
    free(b);
    return 0;
}
