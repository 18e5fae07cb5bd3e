/*
 * mergesort.c -- Warwick-94 merge sort example.
 *
 * Sorts 128K (131072) floats with a bottom-up (non-recursive) merge sort.
 *
 * Kernels:
 *   merge(src, dst, lo, mid, hi)  merges the sorted runs src[lo..mid) and
 *       src[mid..hi) into dst[lo..hi) with ONE canonical loop over k; the
 *       body picks the left or right element with an if/else.
 *       Cost: hi - lo iterations, each 1 comparison-branch + 1 copy.
 *   msort(a, tmp, n)  n must be a power of two.  log2(n) passes of width
 *       w = 1, 2, 4, ..., n/2; pass w performs n/(2w) merges of 2w elements,
 *       i.e. n element moves per pass, ping-ponging between a and tmp.
 *       The result is then ALWAYS copied back into a with a canonical loop
 *       over n (a harmless self-copy when the number of passes is even), so
 *       there is no data-dependent branch outside merge().
 *       Expected cost: n log2(n) merge steps + n copies
 *       (131072 * 17 = 2228224 merge steps + 131072 copies).
 *
 * The timed call is msort(a, tmp, n); the unsorted input is restored into
 * a (untimed, via SEGTIME_BENCH_SETUP) before every call.
 * main checks the result against qsort.
 *
 * Usage: mergesort [log2n]   (default 17, i.e. n = 131072)
 */
#include "segtime_bench.h"

#include <string.h>

/* Merge sorted src[lo..mid) and src[mid..hi) into dst[lo..hi). */
void merge(const float *src, float *dst, int lo, int mid, int hi)
{
    int i = lo;
    int j = mid;
    for (int k = lo; k < hi; k++) {
        if (j >= hi || (i < mid && src[i] <= src[j]))
            dst[k] = src[i++];
        else
            dst[k] = src[j++];
    }
}

/* Bottom-up merge sort of a[0..n), n a power of two; tmp holds n floats. */
SEGTIME_KERNEL void msort(float *a, float *tmp, int n)
{
    float *src = a;
    float *dst = tmp;
    for (int w = 1; w < n; w *= 2) {
        for (int lo = 0; lo < n; lo += 2 * w)
            merge(src, dst, lo, lo + w, lo + 2 * w);
        float *t = src;
        src = dst;
        dst = t;
    }
    /* Result is in src; copy back unconditionally (self-copy if src == a). */
    for (int i = 0; i < n; i++)
        a[i] = src[i];
}

static int cmp_float(const void *pa, const void *pb)
{
    float x = *(const float *)pa, y = *(const float *)pb;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int lg = argc > 1 ? atoi(argv[1]) : 17;
    if (lg < 1 || lg > 28)
        lg = 17;
    int n = 1 << lg;

    float *orig = segtime_alloc((size_t)n, sizeof *orig);
    float *a = segtime_alloc((size_t)n, sizeof *a);
    float *tmp = segtime_alloc((size_t)n, sizeof *tmp);
    float *ref = segtime_alloc((size_t)n, sizeof *ref);

    /* Deterministic pseudo-random input (32-bit LCG), values in [0, 1e6). */
    unsigned int state = 12345u;
    for (int i = 0; i < n; i++) {
        state = state * 1664525u + 1013904223u;
        orig[i] = (float)((state >> 8) * (1e6 / 16777216.0));
    }

    SEGTIME_BENCH_SETUP("msort", memcpy(a, orig, (size_t)n * sizeof *a),
                        msort(a, tmp, n), SEGTIME_P(n));

    /* Verify: sorted and identical to qsort of the input. */
    memcpy(ref, orig, (size_t)n * sizeof *ref);
    qsort(ref, (size_t)n, sizeof *ref, cmp_float);
    int ok = 1;
    for (int i = 0; i < n; i++) {
        if (a[i] != ref[i] || (i > 0 && a[i - 1] > a[i])) {
            ok = 0;
            break;
        }
    }
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += a[i] * (double)(i % 97 + 1);
    printf("sorted: %s\n", ok ? "yes" : "NO");
    printf("checksum: %.15g\n", sum);

    free(orig);
    free(a);
    free(tmp);
    free(ref);
    return ok ? 0 : 1;
}
