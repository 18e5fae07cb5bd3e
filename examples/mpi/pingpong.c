/*
 * pingpong.c -- MPI ping-pong between ranks 0 and 1 (PARKBENCH-93 COMMS1).
 *
 * pingpong(n, reps, buf): reps round trips of n doubles; ranks >= 2 take no
 * part. One round trip is two messages of 8n bytes, so the time is
 * 2 reps t(8n) (docs/mpi.md). Prints the SEGTIME_MEASURED line of rank 0.
 *
 *   OMPI_CC=clang-19 mpicc -O2 -fplugin=build/lib/segtime.so \
 *       -fplugin-arg-segtime-quiet examples/mpi/pingpong.c -o pingpong
 *   mpirun -np 2 ./pingpong 1024 200
 *   build/bin/segtime predict pingpong.seg.json --machine M --function pingpong \
 *       --np 2 -p n=1024 -p reps=200
 */
#include "../segtime_bench.h"

#include <mpi.h>

void pingpong(int n, int reps, double *buf)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int r = 0; r < reps; r++) {
        if (rank == 0) {
            MPI_Send(buf, n, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
            MPI_Recv(buf, n, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Recv(buf, n, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, n, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
        }
    }
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int n = argc > 1 ? atoi(argv[1]) : 1024;
    int reps = argc > 2 ? atoi(argv[2]) : 100;
    if (size < 2 || n < 0 || reps < 1) {
        if (rank == 0)
            fprintf(stderr, "usage: mpirun -np P>=2 pingpong [n doubles] [round trips]\n");
        MPI_Finalize();
        return 1;
    }
    if (rank != 0 && !freopen("/dev/null", "w", stdout)) /* one report: rank 0's */
        return 1;
    double *buf = segtime_alloc(n > 0 ? (size_t)n : 1, sizeof(double));
    for (int i = 0; i < n; i++)
        buf[i] = i;
    /* all ranks start each timed call together */
    SEGTIME_BENCH_SETUP("pingpong", MPI_Barrier(MPI_COMM_WORLD), pingpong(n, reps, buf),
                        SEGTIME_P(n), SEGTIME_P(reps), SEGTIME_PN("p", size));
    free(buf);
    MPI_Finalize();
    return 0;
}
