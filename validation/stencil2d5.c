/*
 * stencil2d5.c -- 2-D 5-point Laplacian, one out-of-place sweep over the
 * interior of an ny x nx grid of doubles: v = c0 u[i][j] + c1 (4 neighbours).
 * Cost: 5 multiply-adds per interior point; u read, v written (16 nx ny
 * bytes; the three rows of u in use stay cached while they fit).
 * Usage: stencil2d5 [ny] [nx]
 */
#include "valset.h"

SEGTIME_KERNEL void stencil2d5(int ny, int nx, const double *u, double *v)
{
    for (int i = 1; i < ny - 1; i++)
        for (int j = 1; j < nx - 1; j++)
            v[i * nx + j] = -0.8 * u[i * nx + j] +
                            0.2 * (u[(i - 1) * nx + j] + u[(i + 1) * nx + j] +
                                   u[i * nx + j - 1] + u[i * nx + j + 1]);
}

int main(int argc, char **argv)
{
    int ny = (int)vs_arg(argc, argv, 1, 1000);
    int nx = (int)vs_arg(argc, argv, 2, ny);
    double *u = vs_doubles((size_t)ny * nx, 0.0, 29u);
    double *v = vs_doubles((size_t)ny * nx, 0.0, 30u);
    SEGTIME_BENCH("stencil2d5", stencil2d5(ny, nx, u, v), SEGTIME_P(ny), SEGTIME_P(nx));
    vs_checksum(v, (size_t)ny * nx);
    free(u);
    free(v);
    return 0;
}
