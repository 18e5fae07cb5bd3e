/*
 * stencil3d7.c -- 3-D 7-point Jacobi sweep over the interior of an n^3
 * grid of doubles, out of place: v = (sum of the 6 neighbours + u) / 7.
 * Cost: 7 adds and a multiply per interior point; u read, v written
 * (16 n^3 bytes; two planes of u reused while they fit a cache).
 * Usage: stencil3d7 [n]
 */
#include "valset.h"

SEGTIME_KERNEL void stencil3d7(int n, const double *u, double *v)
{
    int p = n * n;
    for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < n - 1; j++)
            for (int k = 1; k < n - 1; k++) {
                int c = i * p + j * n + k;
                v[c] = (u[c] + u[c - p] + u[c + p] + u[c - n] + u[c + n] + u[c - 1] +
                        u[c + 1]) * (1.0 / 7.0);
            }
}

int main(int argc, char **argv)
{
    int n = (int)vs_arg(argc, argv, 1, 100);
    size_t nn = (size_t)n * n * n;
    double *u = vs_doubles(nn, 0.0, 31u);
    double *v = vs_doubles(nn, 0.0, 32u);
    SEGTIME_BENCH("stencil3d7", stencil3d7(n, u, v), SEGTIME_P(n));
    vs_checksum(v, nn);
    free(u);
    free(v);
    return 0;
}
