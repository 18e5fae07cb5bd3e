/*
 * matmul_bcast.c -- row-distributed matrix multiply C = A B (n x n doubles).
 *
 * The root scatters the rows of A (n/p rows each), broadcasts B, every rank
 * multiplies its rows, and the root gathers the rows of C. n must be a
 * multiple of p. Prints the SEGTIME_MEASURED line of rank 0.
 *
 *   OMPI_CC=clang-19 mpicc -O2 -fplugin=build/lib/segtime.so \
 *       -fplugin-arg-segtime-quiet examples/mpi/matmul_bcast.c -o matmul_bcast
 *   mpirun -np 2 ./matmul_bcast 256
 *   build/bin/segtime predict matmul_bcast.seg.json --machine M \
 *       --function matmul_mpi --np 2 -p n=256
 */
#include "../segtime_bench.h"

#include <mpi.h>

void matmul_mpi(int n, const double *a, double *b, double *c, double *la, double *lc)
{
    int rank, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    int rows = n / p;
    MPI_Scatter(a, rows * n, MPI_DOUBLE, la, rows * n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Bcast(b, n * n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int k = 0; k < n; k++)
                s += la[i * n + k] * b[k * n + j];
            lc[i * n + j] = s;
        }
    MPI_Gather(lc, rows * n, MPI_DOUBLE, c, rows * n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int n = argc > 1 ? atoi(argv[1]) : 256;
    if (n < 1 || n % size) {
        if (rank == 0)
            fprintf(stderr, "usage: mpirun -np P matmul_bcast [n, a multiple of P]\n");
        MPI_Finalize();
        return 1;
    }
    if (rank != 0 && !freopen("/dev/null", "w", stdout)) /* one report: rank 0's */
        return 1;
    size_t nn = (size_t)n * n, local = nn / size;
    double *a = segtime_alloc(nn, sizeof(double)), *b = segtime_alloc(nn, sizeof(double));
    double *c = segtime_alloc(nn, sizeof(double));
    double *la = segtime_alloc(local, sizeof(double)), *lc = segtime_alloc(local, sizeof(double));
    for (size_t i = 0; i < nn; i++) {
        a[i] = (double)(i % 17) / 17.0;
        b[i] = (double)(i % 13) / 13.0;
    }
    SEGTIME_BENCH_SETUP("matmul_mpi", MPI_Barrier(MPI_COMM_WORLD), matmul_mpi(n, a, b, c, la, lc),
                        SEGTIME_P(n), SEGTIME_PN("p", size));
    free(a), free(b), free(c), free(la), free(lc);
    MPI_Finalize();
    return 0;
}
