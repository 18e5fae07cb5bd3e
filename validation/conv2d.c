/*
 * conv2d.c -- 2D convolution (correlation form), valid region only.
 *
 * Kernel: conv2d(n, k, img, ker, out) slides a k x k row-major kernel over
 * an n x n row-major image; the output is the (n-k+1) x (n-k+1) valid
 * region, row-major with row length n-k+1:
 *
 *   for i = 0 .. n-k
 *     for j = 0 .. n-k
 *       s = 0
 *       for p = 0 .. k-1
 *         for q = 0 .. k-1
 *           s += img[i+p][j+q] * ker[p][q]          (1 mul + 1 add)
 *       out[i][j] = s
 *
 * Expected cost: (n-k+1)^2 k^2 multiply-adds (2 (n-k+1)^2 k^2 flops),
 * (n-k+1)^2 stores.  Default n = 512, k = 5
 * (508^2 * 25 = 6.45 M multiply-adds, 12.9 Mflop).
 *
 * Usage: conv2d [n] [k]      (1 <= k <= n)
 */
#include "../examples/segtime_bench.h"

SEGTIME_KERNEL void conv2d(int n, int k, const double *img, const double *ker, double *out)
{
    for (int i = 0; i <= n - k; i++) {
        for (int j = 0; j <= n - k; j++) {
            double s = 0.0;
            for (int p = 0; p < k; p++)
                for (int q = 0; q < k; q++)
                    s += img[(i + p) * n + j + q] * ker[p * k + q];
            out[i * (n - k + 1) + j] = s;
        }
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 512;
    int k = argc > 2 ? atoi(argv[2]) : 5;
    if (n < 1)
        n = 512;
    if (k < 1 || k > n)
        k = n < 5 ? n : 5;
    int m = n - k + 1;
    size_t nn = (size_t)n * (size_t)n;
    size_t mm = (size_t)m * (size_t)m;
    double *img = segtime_alloc(nn, sizeof *img);
    double *ker = segtime_alloc((size_t)k * (size_t)k, sizeof *ker);
    double *out = segtime_alloc(mm, sizeof *out);

    /* Deterministic initialisation. */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            img[i * n + j] = (double)((i * 7 + j * 3) % 17) / 17.0 - 0.5;
    for (int p = 0; p < k; p++)
        for (int q = 0; q < k; q++)
            ker[p * k + q] = (double)((p * 5 + q * 11) % 13) / 13.0 - 0.5;

    SEGTIME_BENCH("conv2d", conv2d(n, k, img, ker, out),
                  SEGTIME_P(n), SEGTIME_P(k));

    double sum = 0.0;
    for (size_t i = 0; i < mm; i++)
        sum += out[i] * (double)(i % 31 + 1);
    printf("checksum: %.15g\n", sum);

    free(img);
    free(ker);
    free(out);
    return 0;
}
