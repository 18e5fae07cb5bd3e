/*
 * bsearch_batch.c -- q binary searches in a sorted table of n ints (lower
 * bound: the first index whose value is >= the key). The halving loop runs
 * while the interval is not empty: about log2(n) + 1 data-dependent
 * iterations per key, each a load whose address depends on the previous
 * compare. Returns the sum of the indices found.
 * Usage: bsearch_batch [n] [q]
 */
#include "valset.h"

SEGTIME_KERNEL long bsearch_batch(int n, int q, const int *table, const int *keys)
{
    long found = 0;
    for (int t = 0; t < q; t++) {
        int key = keys[t], lo = 0, hi = n;
        while (lo < hi) {
            int mid = lo + (hi - lo) / 2;
            if (table[mid] < key)
                lo = mid + 1;
            else
                hi = mid;
        }
        found += lo;
    }
    return found;
}

int main(int argc, char **argv)
{
    int n = (int)vs_arg(argc, argv, 1, 1000000);
    int q = (int)vs_arg(argc, argv, 2, 200000);
    int *table = segtime_alloc((size_t)n, sizeof *table);
    for (int i = 0; i < n; i++)
        table[i] = 3 * i;
    int *keys = vs_ints((size_t)q, 3u * (unsigned)n, 46u);
    SEGTIME_BENCH("bsearch_batch", segtime_sink = (double)bsearch_batch(n, q, table, keys),
                  SEGTIME_P(n), SEGTIME_P(q));
    printf("checksum: %.15g\n", (double)segtime_sink);
    free(table);
    free(keys);
    return 0;
}
