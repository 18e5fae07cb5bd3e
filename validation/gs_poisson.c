/*
 * gs_poisson.c -- Gauss-Seidel relaxation of the 2-D Poisson problem,
 * in place, `steps` lexicographic sweeps over the interior of an n x n grid
 * of doubles with right-hand side f: each point uses the already updated
 * west and north neighbours (a loop-carried dependence along j).
 * Cost: 5 adds and 1 multiply per point and sweep; the harness restores u
 * before every call (untimed). Usage: gs_poisson [n] [steps]
 */
#include "valset.h"

SEGTIME_KERNEL void gs_poisson(int n, int steps, const double *f, double *u)
{
    for (int t = 0; t < steps; t++)
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < n - 1; j++)
                u[i * n + j] = 0.25 * (u[(i - 1) * n + j] + u[(i + 1) * n + j] +
                                       u[i * n + j - 1] + u[i * n + j + 1] - f[i * n + j]);
}

int main(int argc, char **argv)
{
    int n = (int)vs_arg(argc, argv, 1, 500);
    int steps = (int)vs_arg(argc, argv, 2, 2);
    size_t nn = (size_t)n * n;
    double *f = vs_doubles(nn, -0.5, 33u);
    double *u0 = vs_doubles(nn, 0.0, 34u);
    double *u = segtime_alloc(nn, sizeof *u);
    SEGTIME_BENCH_SETUP("gs_poisson", memcpy(u, u0, nn * sizeof *u), gs_poisson(n, steps, f, u),
                        SEGTIME_P(n), SEGTIME_P(steps));
    vs_checksum(u, nn);
    free(f);
    free(u0);
    free(u);
    return 0;
}
