/*
 * valset.h -- data and argument helpers shared by the harnesses of the
 * validation kernels (validation/manifest.json).
 *
 * Header-only, C99; include it instead of segtime_bench.h.  Every array is
 * filled by a fixed 32-bit LCG, so runs are deterministic and no harness
 * repeats its own initialisation loop.
 */
#ifndef SEGTIME_VALSET_H
#define SEGTIME_VALSET_H

#include "../examples/segtime_bench.h"

#include <math.h>
#include <string.h>

/* argv[i] as a positive integer, def when absent or < 1. */
static inline long vs_arg(int argc, char **argv, int i, long def)
{
    long v = argc > i ? strtol(argv[i], NULL, 10) : def;
    return v >= 1 ? v : def;
}

static inline unsigned vs_next(unsigned *r)
{
    *r = *r * 1664525u + 1013904223u;
    return *r >> 8;
}

/* n doubles in [lo, lo + 1), from seed. */
static inline double *vs_doubles(size_t n, double lo, unsigned seed)
{
    double *a = segtime_alloc(n, sizeof *a);
    for (size_t i = 0; i < n; i++)
        a[i] = lo + (double)(vs_next(&seed) % 4096u) / 4096.0;
    return a;
}

/* n floats in [lo, lo + 1), from seed. */
static inline float *vs_floats(size_t n, float lo, unsigned seed)
{
    float *a = segtime_alloc(n, sizeof *a);
    for (size_t i = 0; i < n; i++)
        a[i] = lo + (float)(vs_next(&seed) % 4096u) / 4096.0f;
    return a;
}

/* n ints in [0, range), from seed. */
static inline int *vs_ints(size_t n, unsigned range, unsigned seed)
{
    int *a = segtime_alloc(n, sizeof *a);
    for (size_t i = 0; i < n; i++)
        a[i] = (int)(vs_next(&seed) % range);
    return a;
}

/* An n x n row-major matrix, diagonally dominant (symmetric positive
 * definite when sym): safe for factorisations and triangular solves. */
static inline double *vs_dominant(int n, int sym, unsigned seed)
{
    double *a = vs_doubles((size_t)n * n, 0.0, seed);
    for (int i = 0; i < n; i++) {
        if (sym)
            for (int j = 0; j < i; j++)
                a[(size_t)i * n + j] = a[(size_t)j * n + i];
        a[(size_t)i * n + i] += n;
    }
    return a;
}

/* Prints "checksum: S" of n doubles, weighted so that order matters. */
static inline void vs_checksum(const double *a, size_t n)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++)
        s += a[i] * (double)(i % 31 + 1);
    printf("checksum: %.15g\n", s);
}

/* A matrix-product kernel C (m x n) from A (m x k) and B (k x n or n x k). */
typedef void (*vs_gemm_fn)(int m, int n, int k, const double *a, const double *b, double *c);

/* The harness of the matrix-product kernels: argv m [n] [k] (default
 * square, m = def), A scaled by 1e-6 so that C, when the kernel accumulates
 * into it, stays finite over the calls; prints the checksum of C. */
static inline int vs_gemm_main(int argc, char **argv, const char *name, vs_gemm_fn fn, int def,
                               unsigned seed)
{
    int m = (int)vs_arg(argc, argv, 1, def);
    int n = (int)vs_arg(argc, argv, 2, m);
    int k = (int)vs_arg(argc, argv, 3, m);
    double *a = vs_doubles((size_t)m * k, -0.5, seed);
    double *b = vs_doubles((size_t)k * n, -0.5, seed + 1);
    double *c = vs_doubles((size_t)m * n, -0.5, seed + 2);
    for (size_t i = 0; i < (size_t)m * k; i++)
        a[i] *= 1e-6;
    SEGTIME_BENCH(name, fn(m, n, k, a, b, c), SEGTIME_P(m), SEGTIME_P(n), SEGTIME_P(k));
    vs_checksum(c, (size_t)m * n);
    free(a);
    free(b);
    free(c);
    return 0;
}

#endif /* SEGTIME_VALSET_H */
