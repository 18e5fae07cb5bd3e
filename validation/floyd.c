/*
 * floyd.c -- Floyd-Warshall all-pairs shortest paths.
 *
 * Kernel: floyd(n, d) relaxes the n x n row-major distance matrix d in
 * place:
 *
 *   for k = 0 .. n-1
 *     for i = 0 .. n-1
 *       for j = 0 .. n-1
 *         if (d[i][k] + d[k][j] < d[i][j])         (1 add + 1 compare,
 *           d[i][j] = d[i][k] + d[k][j]             data-dependent branch)
 *
 * Expected cost: n^3 add-compares (2 n^3 flops); the conditional store is
 * taken a data-dependent number of times (often early in k, rarely later).
 * Default n = 200 (8 M relaxations).
 *
 * The graph: d[i][i] = 0, a directed ring i -> i+1 (mod n) of weight 1..8,
 * ~20% extra edges of weight 1..50 in a fixed pattern, all other entries
 * 1e9 ("no edge"); the ring makes every pair reachable.  The original
 * matrix is restored into d (untimed, via SEGTIME_BENCH_SETUP) before every
 * call.
 *
 * Usage: floyd [n]
 */
#include "../examples/segtime_bench.h"

#include <string.h>

SEGTIME_KERNEL void floyd(int n, double *d)
{
    for (int k = 0; k < n; k++)
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                if (d[i * n + k] + d[k * n + j] < d[i * n + j])
                    d[i * n + j] = d[i * n + k] + d[k * n + j];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 200;
    if (n < 1)
        n = 200;
    size_t nn = (size_t)n * (size_t)n;
    double *orig = segtime_alloc(nn, sizeof *orig);
    double *d = segtime_alloc(nn, sizeof *d);

    /* Deterministic graph (see banner). */
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            if ((i * 37 + j * 101) % 97 < 20)
                orig[i * n + j] = (double)(1 + (i * 13 + j * 7) % 50);
            else
                orig[i * n + j] = 1e9;
        }
        orig[i * n + (i + 1) % n] = (double)(1 + (i * 3) % 8);
        orig[i * n + i] = 0.0;
    }

    SEGTIME_BENCH_SETUP("floyd", memcpy(d, orig, nn * sizeof *d), floyd(n, d),
                        SEGTIME_P(n));

    double sum = 0.0;
    for (size_t i = 0; i < nn; i++)
        sum += d[i] * (double)(i % 31 + 1);
    printf("checksum: %.15g\n", sum);

    free(orig);
    free(d);
    return 0;
}
