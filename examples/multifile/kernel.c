/*
 * kernel.c -- the kernels of the multifile example: a five-point Jacobi
 * sweep of an n x n grid (steps times, 5 flop per interior point, 4 adds and
 * a multiply) and y = A x for an n x n matrix (2 n^2 flop).
 */
#include "multifile.h"

/* Same name as main.c's static init. */
static void init(int n, double *x)
{
    for (int i = 0; i < n; i++)
        x[i] = 1.0 / (double)(i + 1);
}

void fill_vector(int n, double *x)
{
    init(n, x);
}

static void sweep(int n, const double *a, double *b)
{
    for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < n - 1; j++)
            b[i * n + j] = 0.2 * (a[i * n + j] + a[(i - 1) * n + j] + a[(i + 1) * n + j] +
                                  a[i * n + j - 1] + a[i * n + j + 1]);
}

void jacobi_sweeps(int n, int steps, double *u, double *v)
{
    for (int s = 0; s < steps; s++) {
        sweep(n, u, v);
        sweep(n, v, u);
    }
}

void gemv(int n, const double *a, const double *x, double *y)
{
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int j = 0; j < n; j++)
            s += a[i * n + j] * x[j];
        y[i] = s;
    }
}
