/*
 * blur9.c -- 2-D 9-point box filter (3 x 3 mean) over the interior of an
 * n x n single-precision image, out of place.
 * Cost: 9 adds and 1 multiply per interior point; the image read once
 * (three rows in use), the output written once (8 n^2 bytes).
 * Usage: blur9 [n]
 */
#include "valset.h"

SEGTIME_KERNEL void blur9(int n, const float *in, float *out)
{
    for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < n - 1; j++) {
            float s = 0.0f;
            for (int di = -1; di <= 1; di++)
                s += in[(i + di) * n + j - 1] + in[(i + di) * n + j] + in[(i + di) * n + j + 1];
            out[i * n + j] = s * (1.0f / 9.0f);
        }
}

int main(int argc, char **argv)
{
    int n = (int)vs_arg(argc, argv, 1, 1500);
    size_t nn = (size_t)n * n;
    float *in = vs_floats(nn, 0.0f, 35u);
    float *out = vs_floats(nn, 0.0f, 36u);
    SEGTIME_BENCH("blur9", blur9(n, in, out), SEGTIME_P(n));
    double s = 0.0;
    for (size_t i = 0; i < nn; i++)
        s += out[i] * (double)(i % 31 + 1);
    printf("checksum: %.15g\n", s);
    free(in);
    free(out);
    return 0;
}
