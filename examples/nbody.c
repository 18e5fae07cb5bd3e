/*
 * nbody.c -- O(n^2) gravitational potential energy.
 *
 * Kernel: nbody_energy(n, x, y, z, m) returns
 *     E = - sum_{i<j} m_i m_j / sqrt(dx^2 + dy^2 + dz^2 + EPS2)
 * (G = 1, Plummer softening EPS2) using a triangular pair loop
 * (for i; for j = i+1).
 * Expected cost: n(n-1)/2 pair interactions, each 3 subs, 3 muls + 3 adds
 * (squared distance incl. softening), 1 sqrt, 1 mul (m_i m_j), 1 division
 * and 1 subtraction (accumulate).  Default n = 2000 (1999000 pairs).
 *
 * Usage: nbody [n]
 */
#include "segtime_bench.h"

#include <math.h>

#define EPS2 1e-6

SEGTIME_KERNEL double nbody_energy(int n, const double *x, const double *y, const double *z,
                    const double *m)
{
    double e = 0.0;
    for (int i = 0; i < n; i++) {
        for (int j = i + 1; j < n; j++) {
            double dx = x[i] - x[j];
            double dy = y[i] - y[j];
            double dz = z[i] - z[j];
            double r = sqrt(dx * dx + dy * dy + dz * dz + EPS2);
            e -= m[i] * m[j] / r;
        }
    }
    return e;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 2000;
    if (n < 2)
        n = 2000;
    double *x = segtime_alloc((size_t)n, sizeof *x);
    double *y = segtime_alloc((size_t)n, sizeof *y);
    double *z = segtime_alloc((size_t)n, sizeof *z);
    double *m = segtime_alloc((size_t)n, sizeof *m);

    /* Deterministic pseudo-random bodies in the unit cube (32-bit LCG). */
    unsigned int state = 2024u;
    for (int i = 0; i < n; i++) {
        state = state * 1664525u + 1013904223u;
        x[i] = (state >> 8) / 16777216.0;
        state = state * 1664525u + 1013904223u;
        y[i] = (state >> 8) / 16777216.0;
        state = state * 1664525u + 1013904223u;
        z[i] = (state >> 8) / 16777216.0;
        m[i] = 1.0 / n * (0.5 + (double)(i % 7) / 7.0);
    }

    SEGTIME_BENCH("nbody_energy",
                  segtime_sink = nbody_energy(n, x, y, z, m), SEGTIME_P(n));

    printf("checksum: %.15g\n", (double)segtime_sink);

    free(x);
    free(y);
    free(z);
    free(m);
    return 0;
}
