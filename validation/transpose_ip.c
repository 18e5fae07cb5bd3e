/*
 * transpose_ip.c -- in-place transpose of an n x n row-major float matrix:
 * swap A[i][j] and A[j][i] for j > i (a triangular inner loop, one row and
 * one column walked). Cost: n (n - 1) / 2 swaps, no flops; two calls restore
 * the matrix. Usage: transpose_ip [n]
 */
#include "valset.h"

SEGTIME_KERNEL void transpose_ip(int n, float *a)
{
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            float t = a[i * n + j];
            a[i * n + j] = a[j * n + i];
            a[j * n + i] = t;
        }
}

int main(int argc, char **argv)
{
    int n = (int)vs_arg(argc, argv, 1, 1000);
    size_t nn = (size_t)n * n;
    float *a = vs_floats(nn, 0.0f, 45u);
    SEGTIME_BENCH("transpose_ip", transpose_ip(n, a), SEGTIME_P(n));
    double s = 0.0;
    for (size_t i = 0; i < nn; i++)
        s += a[i] * (double)(i % 31 + 1);
    printf("checksum: %.15g\n", s);
    free(a);
    return 0;
}
