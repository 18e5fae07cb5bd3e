/*
 * backsub.c -- back substitution U x = b, U upper triangular n x n
 * row-major (doubles), row-oriented: x[i] = (b[i] - U[i][i+1..] . x[i+1..])
 * / U[i][i], i = n-1 .. 0 (a triangular inner loop, a downward outer loop).
 * Cost: n (n - 1) / 2 multiply-adds and n divisions. Usage: backsub [n]
 */
#include "valset.h"

SEGTIME_KERNEL void backsub(int n, const double *u, const double *b, double *x)
{
    for (int i = n - 1; i >= 0; i--) {
        double s = b[i];
        for (int j = i + 1; j < n; j++)
            s -= u[i * n + j] * x[j];
        x[i] = s / u[i * n + i];
    }
}

int main(int argc, char **argv)
{
    int n = (int)vs_arg(argc, argv, 1, 2000);
    double *u = vs_dominant(n, 0, 38u);
    double *b = vs_doubles((size_t)n, -0.5, 39u);
    double *x = segtime_alloc((size_t)n, sizeof *x);
    SEGTIME_BENCH("backsub", backsub(n, u, b, x), SEGTIME_P(n));
    vs_checksum(x, (size_t)n);
    free(u);
    free(b);
    free(x);
    return 0;
}
