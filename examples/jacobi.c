/*
 * jacobi.c -- 2D 5-point Jacobi stencil.
 *
 * Kernel: jacobi(n, steps, u, v) on n x n row-major grids u and v that
 * share the same fixed boundary values.  Each of the `steps` iterations
 * does two half-steps (ping-pong without copying):
 *     v[i][j] = 0.25 * (u[i-1][j] + u[i+1][j] + u[i][j-1] + u[i][j+1])
 *     u[i][j] = 0.25 * (v[i-1][j] + v[i+1][j] + v[i][j-1] + v[i][j+1])
 * over the interior i, j = 1 .. n-2, so the result is back in u.
 * Expected cost: 2 * steps * (n-2)^2 point updates, each 3 adds + 1 mul
 * (4 flops), 4 loads and 1 store.  Default n = 512, steps = 10
 * (5.2 M updates, 20.8 Mflop).
 *
 * The timed call is jacobi(n, steps, u, v); u is reset to the initial
 * grid (untimed, via SEGTIME_BENCH_SETUP) before every call so all reps do
 * identical work and the checksum is reproducible.
 *
 * Usage: jacobi [n] [steps]
 */
#include "segtime_bench.h"

#include <string.h>

SEGTIME_KERNEL void jacobi(int n, int steps, double *u, double *v)
{
    for (int t = 0; t < steps; t++) {
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < n - 1; j++)
                v[i * n + j] = 0.25 * (u[(i - 1) * n + j] + u[(i + 1) * n + j]
                                       + u[i * n + j - 1] + u[i * n + j + 1]);
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < n - 1; j++)
                u[i * n + j] = 0.25 * (v[(i - 1) * n + j] + v[(i + 1) * n + j]
                                       + v[i * n + j - 1] + v[i * n + j + 1]);
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 512;
    int steps = argc > 2 ? atoi(argv[2]) : 10;
    if (n < 3)
        n = 512;
    if (steps < 0)
        steps = 10;
    size_t nn = (size_t)n * (size_t)n;
    double *u0 = segtime_alloc(nn, sizeof *u0);
    double *u = segtime_alloc(nn, sizeof *u);
    double *v = segtime_alloc(nn, sizeof *v);

    /* Boundary: 1 on the top edge, a ramp on the left edge, 0 elsewhere;
     * interior: a deterministic pattern in [0, 1). */
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            double val;
            if (i == 0)
                val = 1.0;
            else if (j == 0)
                val = (double)i / (n - 1);
            else if (i == n - 1 || j == n - 1)
                val = 0.0;
            else
                val = (double)((i * 17 + j * 29) % 64) / 64.0;
            u0[i * n + j] = val;
        }
    }
    memcpy(v, u0, nn * sizeof *v); /* v must carry the same boundary */

    SEGTIME_BENCH_SETUP("jacobi", memcpy(u, u0, nn * sizeof *u),
                        jacobi(n, steps, u, v),
                        SEGTIME_P(n), SEGTIME_P(steps));

    double sum = 0.0;
    for (size_t i = 0; i < nn; i++)
        sum += u[i] * (double)(i % 31 + 1);
    printf("checksum: %.15g\n", sum);

    free(u0);
    free(u);
    free(v);
    return 0;
}
