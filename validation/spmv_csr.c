/*
 * spmv_csr.c -- sparse matrix-vector product y = A x, A n x n in CSR format
 * (row pointers, column indices, values; doubles) with nz nonzeros per row
 * at pseudo-random columns: the inner trip count comes from the row
 * pointers and x is read indirectly.
 * Cost: n nz multiply-adds; values and indices streamed (12 n nz bytes),
 * x gathered. Usage: spmv_csr [n] [nz]
 */
#include "valset.h"

SEGTIME_KERNEL void spmv_csr(int n, const int *rowptr, const int *col, const double *val,
                             const double *x, double *y)
{
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int p = rowptr[i]; p < rowptr[i + 1]; p++)
            s += val[p] * x[col[p]];
        y[i] = s;
    }
}

int main(int argc, char **argv)
{
    int n = (int)vs_arg(argc, argv, 1, 200000);
    int nz = (int)vs_arg(argc, argv, 2, 8);
    size_t nnz = (size_t)n * nz;
    int *rowptr = segtime_alloc((size_t)n + 1, sizeof *rowptr);
    for (int i = 0; i <= n; i++)
        rowptr[i] = i * nz;
    int *col = vs_ints(nnz, (unsigned)n, 47u);
    double *val = vs_doubles(nnz, -0.5, 48u);
    double *x = vs_doubles((size_t)n, -0.5, 49u);
    double *y = segtime_alloc((size_t)n, sizeof *y);
    SEGTIME_BENCH("spmv_csr", spmv_csr(n, rowptr, col, val, x, y), SEGTIME_P(n),
                  SEGTIME_P(nz));
    vs_checksum(y, (size_t)n);
    free(rowptr);
    free(col);
    free(val);
    free(x);
    free(y);
    return 0;
}
