/*
 * integrate.c -- Warwick-94 numerical integration example.
 *
 * Integrates the fifth-order polynomial
 *     p(x) = c0 + c1 x + c2 x^2 + c3 x^3 + c4 x^4 + c5 x^5
 * over [0, 100] with the composite Simpson rule.
 *
 * Kernel: double simpson(double a, double b, int n), n even intervals.
 *   The n+1 points are evaluated with an inner canonical loop over the
 *   6 coefficients (k = 0..5) in poly().  Odd and even interior points are
 *   summed by sum_points(a, h, first, n), one canonical loop with step 2
 *   called with first = 1 (weight 4) and first = 2 (weight 2), so no parity
 *   `if` is needed; the end points go through poly() too.
 *   Expected cost: (n-1) interior evaluations = n/2 (odd) + (n/2 - 1) (even),
 *   each 6 x (1 mul + 1 add + 1 mul) = 18 flops plus 2 flops for x, plus two
 *   poly() calls and O(1) combination work  =>  ~ 20 n flops.
 *
 * Driver (main only, not a kernel): integrate(a, b, eps) doubles n from 2
 * until |S_2n - S_n| <= eps |S_2n| (eps = 1e-10) and prints the converged n.
 * The converged n is small (512 for these coefficients, a few microseconds),
 * so the timed call uses a larger n by default to get a measurable time.
 *
 * Usage: integrate [n_timed] [eps]
 *   n_timed  intervals for the timed simpson() call (default 1048576;
 *            0 = use the n the driver converged to; rounded up to even)
 *   eps      relative convergence tolerance of the driver (default 1e-10)
 */
#include "segtime_bench.h"

#include <math.h>

/* Polynomial coefficients c0..c5. */
const double coef[6] = { 3.0, -1.5, 0.75, 0.02, -0.004, 0.0003 };

/* p(x) by accumulating powers of x. */
double poly(double x)
{
    double s = 0.0;
    double p = 1.0;
    for (int k = 0; k <= 5; k++) {
        s += coef[k] * p;
        p *= x;
    }
    return s;
}

/* Composite Simpson rule on [a, b] with n (even) intervals. */
/* Sum of p(a + i*h) over i = first, first + 2, ... < n: the odd points
 * (first = 1, weight 4) or the even interior points (first = 2, weight 2).
 * A canonical loop, so its trip count idiv(n - first + 1, 2) is exact. */
double sum_points(double a, double h, int first, int n)
{
    double sum = 0.0;
    for (int i = first; i < n; i += 2)
        sum += poly(a + i * h);
    return sum;
}

SEGTIME_KERNEL double simpson(double a, double b, int n)
{
    double h = (b - a) / n;
    return h / 3.0 * (poly(a) + poly(b) + 4.0 * sum_points(a, h, 1, n) +
                      2.0 * sum_points(a, h, 2, n));
}

/* Driver: double n until the relative change is <= eps. */
static double integrate(double a, double b, double eps, int *n_out)
{
    int n = 2;
    double s = simpson(a, b, n);
    double s2 = s;
    while (n < (1 << 29)) {
        s2 = simpson(a, b, 2 * n);
        n *= 2;
        if (fabs(s2 - s) <= eps * fabs(s2))
            break;
        s = s2;
    }
    *n_out = n;
    return s2;
}

/* Exact integral of p over [a, b]. */
static double exact(double a, double b)
{
    double r = 0.0;
    for (int k = 0; k <= 5; k++)
        r += coef[k] * (pow(b, k + 1) - pow(a, k + 1)) / (k + 1);
    return r;
}

int main(int argc, char **argv)
{
    const double a = 0.0, b = 100.0;
    long nt = argc > 1 ? strtol(argv[1], NULL, 10) : 1048576;
    double eps = argc > 2 ? strtod(argv[2], NULL) : 1e-10;
    int n_conv;
    double s_conv = integrate(a, b, eps, &n_conv);
    double ex = exact(a, b);

    printf("converged: n = %d, S = %.15g, exact = %.15g, rel.err = %.3g\n",
           n_conv, s_conv, ex, fabs(s_conv - ex) / fabs(ex));

    if (nt <= 0)
        nt = n_conv;
    if (nt < 2)
        nt = 2;
    if (nt > (1L << 30))
        nt = 1L << 30;
    nt += nt % 2;
    int n = (int)nt;

    SEGTIME_BENCH("simpson", segtime_sink = simpson(a, b, n), SEGTIME_P(n));

    printf("checksum: %.15g\n", (double)segtime_sink);
    return 0;
}
