/*
 * main.c -- a program of three files, the shape of a benchmark suite: sizes
 * fixed by macros, the kernels in another file (kernel.c), the timer that
 * flushes the caches before each timed run in a third (util.c).
 *
 * Kernels: a 2-D five-point Jacobi sweep (STEPS sweeps of an N x N grid) and
 * a matrix-vector product (N x N), each run REPS times between
 * timer_start() and timer_stop(). `segtime link` joins the three SEG files;
 * `segtime predict prog.seg.json --function main` needs no -p: every size
 * is bound through the calls (docs/cli.md "Programs of several files").
 *
 * Usage: multifile            (no arguments; prints a checksum and the time)
 */
#include <stdio.h>
#include <stdlib.h>

#include "multifile.h"

#define N 120
#define STEPS 4
#define REPS 3

/* Same name as kernel.c's static init: each file's own (segtime link keeps
 * them apart). */
static void init(int n, double *a, double scale)
{
    for (int i = 0; i < n * n; i++)
        a[i] = (double)(i % 17) * scale;
}

int main(int argc, char **argv)
{
    (void)argv;
    /* (small sizes: allocation failures not checked, so that the whole run
     * is one path: an early return would make the rest a branch arm) */
    double *u = calloc((size_t)N * N, sizeof *u);
    double *v = calloc((size_t)N * N, sizeof *v);
    double *x = calloc(N, sizeof *x);
    double *y = calloc(N, sizeof *y);
    init(N, u, 0.25);
    fill_vector(N, x);

    double total = 0;
    for (int r = 0; r < REPS; r++) {
        timer_start();
        jacobi_sweeps(N, STEPS, u, v);
        gemv(N, u, x, y);
        total += timer_stop();
    }
    printf("checksum %.6f (argc %d), %.3f ms\n", y[N / 2] + v[N + 1], argc, total * 1e3);
    free(u);
    free(v);
    free(x);
    free(y);
    return 0;
}
