/*
 * quantize.c -- quantise n floats to signed 8-bit integers with a scale,
 * rounding to nearest and saturating to [-127, 127] (mixed int/float: a
 * multiply, a conversion, two compare-selects and a narrowing store).
 * Cost: n elements, 5 n bytes of traffic. Usage: quantize [n]
 */
#include "valset.h"

SEGTIME_KERNEL void quantize(int n, float scale, const float *x, signed char *q)
{
    for (int i = 0; i < n; i++) {
        int v = (int)(x[i] * scale + (x[i] < 0.0f ? -0.5f : 0.5f));
        v = v > 127 ? 127 : v;
        v = v < -127 ? -127 : v;
        q[i] = (signed char)v;
    }
}

int main(int argc, char **argv)
{
    int n = (int)vs_arg(argc, argv, 1, 2000000);
    float *x = vs_floats((size_t)n, -0.5f, 51u);
    signed char *q = segtime_alloc((size_t)n, sizeof *q);
    SEGTIME_BENCH("quantize", quantize(n, 300.0f, x, q), SEGTIME_P(n));
    long s = 0;
    for (int i = 0; i < n; i++)
        s += q[i] * (long)(i % 31 + 1);
    printf("checksum: %ld\n", s);
    free(x);
    free(q);
    return 0;
}
