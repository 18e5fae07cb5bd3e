/*
 * edge.c -- edge detection on a grey-level image (UTSA-95 §4.2, "EF").
 *
 * Kernel: edge(n, img, out) applies the 3 x 3 Sobel operators to the
 * interior of the n x n row-major float image img and writes the gradient
 * magnitude |G_x| + |G_y| to out (the border is left as it is).
 * Expected cost: (n - 2)^2 pixels, each 8 loads of neighbours, 10 adds or
 * subtracts, 4 multiplications by 2, 2 absolute values, 1 store.
 * Data: 2 n^2 floats (8 n^2 B; n = 1500, UTSA-95 §5.1: 18 MB; Table 1
 * sizes under 16 MB: n <= 1400).  Default n = 1000 (8 MB).
 *
 * Usage: edge [n]
 */
#include "../segtime_bench.h"

#include <math.h>

SEGTIME_KERNEL void edge(int n, const float *img, float *out)
{
    for (int i = 1; i < n - 1; i++) {
        for (int j = 1; j < n - 1; j++) {
            const float *u = img + (i - 1) * n + j, *c = img + i * n + j, *d = img + (i + 1) * n + j;
            float gx = (u[1] + 2.0f * c[1] + d[1]) - (u[-1] + 2.0f * c[-1] + d[-1]);
            float gy = (d[-1] + 2.0f * d[0] + d[1]) - (u[-1] + 2.0f * u[0] + u[1]);
            out[i * n + j] = fabsf(gx) + fabsf(gy);
        }
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    if (n < 3)
        n = 1000;
    size_t nn = (size_t)n * (size_t)n;
    float *img = segtime_alloc(nn, sizeof *img);
    float *out = segtime_alloc(nn, sizeof *out);

    /* Deterministic image: a bright disc on a gradient, with some texture. */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double di = i - n / 2.0, dj = j - n / 3.0;
            img[(size_t)i * n + j] = (float)((di * di + dj * dj < n * n / 16.0 ? 200 : 0) +
                                             (i + j) % 50 + ((i * 7 + j * 13) % 11));
            out[(size_t)i * n + j] = 0.0f;
        }

    SEGTIME_BENCH("edge", edge(n, img, out), SEGTIME_P(n));

    double sum = 0.0;
    for (size_t i = 0; i < nn; i++)
        sum += out[i] * (double)(i % 29 + 1);
    printf("checksum: %.15g\n", sum);
    free(img);
    free(out);
    return 0;
}
