/*
 * ep.c -- embarrassingly parallel kernel in the style of NAS EP (UTSA-95 §4.2).
 *
 * Kernel: ep(m, q) draws m pairs (x, y) uniform in (-1, 1) from a 46-bit
 * linear congruential generator (multiplier 5^13, as NAS EP), keeps a pair
 * when t = x^2 + y^2 <= 1 (probability pi/4), turns it into two Gaussian
 * deviates X = x sqrt(-2 ln t / t), Y = y sqrt(-2 ln t / t) (Marsaglia's
 * polar method) and counts max(|X|, |Y|) into the ten annuli q[0..9].
 * Returns the sum of the deviates.
 * Expected cost: m iterations of 2 generator steps (integer multiply and
 * mask), 2 multiply-adds and a compare; pi/4 of them also a log, a
 * division, a square root and the binning.  Data: the 10 counters only.
 * Default m = 2^21 (UTSA-95 §5.1: EP with 2^21 iterations).
 *
 * Usage: ep [log2m]
 */
#include "../segtime_bench.h"

#include <math.h>
#include <string.h>

#define EP_MASK ((1ULL << 46) - 1)
#define EP_MULT 1220703125ULL /* 5^13 */

SEGTIME_KERNEL double ep(int m, long *q)
{
    unsigned long long s = 271828183ULL;
    double sum = 0.0;
    for (int i = 0; i < m; i++) {
        s = (s * EP_MULT) & EP_MASK;
        double x = 2.0 * (double)s / (double)(1ULL << 46) - 1.0;
        s = (s * EP_MULT) & EP_MASK;
        double y = 2.0 * (double)s / (double)(1ULL << 46) - 1.0;
        double t = x * x + y * y;
        if (t <= 1.0 && t > 0.0) {
            double f = sqrt(-2.0 * log(t) / t);
            double gx = fabs(x * f), gy = fabs(y * f);
            int l = (int)(gx > gy ? gx : gy);
            q[l < 9 ? l : 9]++;
            sum += x * f + y * f;
        }
    }
    return sum;
}

int main(int argc, char **argv)
{
    int lg = argc > 1 ? atoi(argv[1]) : 21;
    if (lg < 1 || lg > 30)
        lg = 21;
    int m = 1 << lg;
    long q[10];

    SEGTIME_BENCH_SETUP("ep", memset(q, 0, sizeof q), segtime_sink = ep(m, q), SEGTIME_P(m));

    long accepted = 0;
    for (int l = 0; l < 10; l++)
        accepted += q[l];
    printf("accepted: %ld of %d (%.4f, pi/4 = 0.7854)\n", accepted, m, (double)accepted / m);
    printf("checksum: %.15g\n", (double)segtime_sink);
    return 0;
}
