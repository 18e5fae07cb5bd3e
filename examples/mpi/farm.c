/*
 * farm.c -- a processor farm (UBC-91): the master (rank 0) hands out ntasks
 * independent tasks to the p - 1 workers with MPI_Send, round robin, and
 * collects one result per task with MPI_Recv from any worker. A task is a
 * loop of `work` iterations. Needs p >= 2. Prints the SEGTIME_MEASURED line of
 * rank 0.
 *
 *   OMPI_CC=clang-19 mpicc -O2 -fplugin=build/lib/segtime.so \
 *       -fplugin-arg-segtime-quiet examples/mpi/farm.c -o farm
 *   mpirun -np 2 ./farm 200 100000
 *   build/bin/segtime predict farm.seg.json --machine M --function farm \
 *       --np 2 -p ntasks=200 -p work=100000
 */
#include "../segtime_bench.h"

#include <mpi.h>

/* One task: a partial sum of the harmonic series from t + 1. */
static double task(int t, int work)
{
    double s = 0;
    for (int i = 0; i < work; i++)
        s += 1.0 / (double)(t + i + 1);
    return s;
}

void farm(int ntasks, int work, double *results)
{
    int rank, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    if (rank == 0) {
        for (int t = 0; t < ntasks; t++) {
            int msg = t; /* not &t: the loop index stays a counted index */
            MPI_Send(&msg, 1, MPI_INT, 1 + t % (p - 1), 0, MPI_COMM_WORLD);
        }
        for (int t = 0; t < ntasks; t++) {
            double r;
            MPI_Status st;
            MPI_Recv(&r, 1, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            results[st.MPI_TAG] = r;
        }
    } else {
        /* tasks rank - 1, rank - 1 + (p - 1), ... */
        int mine = (ntasks - rank + p - 1) / (p - 1);
        for (int i = 0; i < mine; i++) {
            int t;
            MPI_Recv(&t, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            double r = task(t, work);
            MPI_Send(&r, 1, MPI_DOUBLE, 0, t, MPI_COMM_WORLD);
        }
    }
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int ntasks = argc > 1 ? atoi(argv[1]) : 200;
    int work = argc > 2 ? atoi(argv[2]) : 100000;
    if (size < 2 || ntasks < 1 || work < 0) {
        if (rank == 0)
            fprintf(stderr, "usage: mpirun -np P>=2 farm [tasks] [iterations per task]\n");
        MPI_Finalize();
        return 1;
    }
    if (rank != 0 && !freopen("/dev/null", "w", stdout)) /* one report: rank 0's */
        return 1;
    double *results = segtime_alloc((size_t)ntasks, sizeof(double));
    SEGTIME_BENCH_SETUP("farm", MPI_Barrier(MPI_COMM_WORLD), farm(ntasks, work, results),
                        SEGTIME_P(ntasks), SEGTIME_P(work), SEGTIME_PN("p", size));
    free(results);
    MPI_Finalize();
    return 0;
}
