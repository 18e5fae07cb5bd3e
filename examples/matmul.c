/*
 * matmul.c -- Warwick-94 matrix multiply example.
 *
 * Kernel: matmul(n, a, b, c) computes C = A * B for n x n row-major double
 * matrices with the classic i-j-k loop order and a scalar accumulator.
 * Expected cost: n^3 multiply-adds (2 n^3 flops), n^2 stores to c.
 * Default n = 256 (33.5 Mflop).
 *
 * Usage: matmul [n]
 */
#include "segtime_bench.h"

SEGTIME_KERNEL void matmul(int n, const double *a, const double *b, double *c)
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            double s = 0.0;
            for (int k = 0; k < n; k++)
                s += a[i * n + k] * b[k * n + j];
            c[i * n + j] = s;
        }
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 256;
    if (n < 1)
        n = 256;
    size_t nn = (size_t)n * (size_t)n;
    double *a = segtime_alloc(nn, sizeof *a);
    double *b = segtime_alloc(nn, sizeof *b);
    double *c = segtime_alloc(nn, sizeof *c);

    /* Deterministic initialisation. */
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            a[i * n + j] = (double)((i * 7 + j * 3) % 17) / 17.0 - 0.5;
            b[i * n + j] = (double)((i * 5 + j * 11) % 13) / 13.0 - 0.5;
        }
    }

    SEGTIME_BENCH("matmul", matmul(n, a, b, c), SEGTIME_P(n));

    double sum = 0.0;
    for (size_t i = 0; i < nn; i++)
        sum += c[i] * (double)(i % 31 + 1);
    printf("checksum: %.15g\n", sum);

    free(a);
    free(b);
    free(c);
    return 0;
}
