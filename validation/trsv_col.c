/*
 * trsv_col.c -- forward substitution L x = b, L lower triangular n x n
 * row-major (doubles), column-oriented: once x[j] is known, column j of L
 * below the diagonal is subtracted from the remaining right-hand side
 * (an axpy walking a column: stride n). Cost: n (n - 1) / 2 multiply-adds,
 * n divisions. Usage: trsv_col [n]
 */
#include "valset.h"

SEGTIME_KERNEL void trsv_col(int n, const double *l, const double *b, double *x)
{
    for (int i = 0; i < n; i++)
        x[i] = b[i];
    for (int j = 0; j < n; j++) {
        double xj = x[j] / l[j * n + j];
        x[j] = xj;
        for (int i = j + 1; i < n; i++)
            x[i] -= l[i * n + j] * xj;
    }
}

int main(int argc, char **argv)
{
    int n = (int)vs_arg(argc, argv, 1, 2000);
    double *l = vs_dominant(n, 0, 40u);
    double *b = vs_doubles((size_t)n, -0.5, 41u);
    double *x = segtime_alloc((size_t)n, sizeof *x);
    SEGTIME_BENCH("trsv_col", trsv_col(n, l, b, x), SEGTIME_P(n));
    vs_checksum(x, (size_t)n);
    free(l);
    free(b);
    free(x);
    return 0;
}
