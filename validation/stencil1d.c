/*
 * stencil1d.c -- 1D 3-point smoothing stencil.
 *
 * Kernel: stencil1d(n, steps, u, v) on arrays u and v of length n that
 * share the same fixed boundary values u[0] = v[0], u[n-1] = v[n-1].
 * Each of the `steps` iterations does two half-steps (ping-pong without
 * copying):
 *     v[i] = 0.25 * (u[i-1] + u[i+1]) + 0.5 * u[i]
 *     u[i] = 0.25 * (v[i-1] + v[i+1]) + 0.5 * v[i]
 * over the interior i = 1 .. n-2, so the result is back in u.
 * Expected cost: 2 * steps * (n-2) point updates, each 2 adds + 2 muls
 * (4 flops), 3 loads and 1 store.  Default n = 100000, steps = 100
 * (20 M updates, 80 Mflop; both arrays, 1.6 MB, stay cache-resident).
 *
 * The timed call is stencil1d(n, steps, u, v); u is reset to the initial
 * values (untimed, via SEGTIME_BENCH_SETUP) before every call so all reps
 * do identical work and the checksum is reproducible.
 *
 * Usage: stencil1d [n] [steps]
 */
#include "../examples/segtime_bench.h"

#include <string.h>

SEGTIME_KERNEL void stencil1d(int n, int steps, double *u, double *v)
{
    for (int t = 0; t < steps; t++) {
        for (int i = 1; i < n - 1; i++)
            v[i] = 0.25 * (u[i - 1] + u[i + 1]) + 0.5 * u[i];
        for (int i = 1; i < n - 1; i++)
            u[i] = 0.25 * (v[i - 1] + v[i + 1]) + 0.5 * v[i];
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    int steps = argc > 2 ? atoi(argv[2]) : 100;
    if (n < 3)
        n = 100000;
    if (steps < 0)
        steps = 100;
    double *u0 = segtime_alloc((size_t)n, sizeof *u0);
    double *u = segtime_alloc((size_t)n, sizeof *u);
    double *v = segtime_alloc((size_t)n, sizeof *v);

    /* Boundary: 1 on the left, 0 on the right; interior: a deterministic
     * pattern in [0, 1). */
    for (int i = 0; i < n; i++)
        u0[i] = (double)((i * 17) % 64) / 64.0;
    u0[0] = 1.0;
    u0[n - 1] = 0.0;
    memcpy(v, u0, (size_t)n * sizeof *v); /* v must carry the same boundary */

    SEGTIME_BENCH_SETUP("stencil1d", memcpy(u, u0, (size_t)n * sizeof *u),
                        stencil1d(n, steps, u, v),
                        SEGTIME_P(n), SEGTIME_P(steps));

    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += u[i] * (double)(i % 31 + 1);
    printf("checksum: %.15g\n", sum);

    free(u0);
    free(u);
    free(v);
    return 0;
}
