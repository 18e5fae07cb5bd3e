// Branches on the MPI rank are resolved for a given rank; without --rank
// every rank is evaluated and the slowest reported. Machine (test/Inputs/
// mpi-machine.yaml): t(n) = (n + 1000 B) / (1 GB/s), barrier 2 us + 1 us
// ceil(log2 p). n = 125 doubles = 1000 B: one message t = 2 us.
// REQUIRES: mpi
// RUN: %clang -target x86_64-linux-gnu -O0 %mpi_cflags -fplugin=%segtime_plugin \
// RUN:   -fplugin-arg-segtime-quiet -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json | FileCheck %s
// RUN: %clang -target x86_64-linux-gnu -O0 %mpi_cflags -fplugin=%segtime_plugin \
// RUN:   -fplugin-arg-segtime-machine=%inputs/mpi-machine.yaml -fplugin-arg-segtime-out=%t.json \
// RUN:   -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=PLUGIN
// RUN: %segtime predict %t.json --machine %inputs/mpi-machine.yaml --level poc --np 4 \
// RUN:   -p n=125 --json | FileCheck %s --check-prefix=SLOWEST
// RUN: %segtime predict %t.json --machine %inputs/mpi-machine.yaml --level poc --np 4 \
// RUN:   --rank 1 -p n=125 --json | FileCheck %s --check-prefix=RANK1
// RUN: %segtime predict %t.json --machine %inputs/mpi-machine.yaml --level poc --np 4 \
// RUN:   -p n=125 | FileCheck %s --check-prefix=TEXT
// RUN: not %segtime predict %t.json --machine %inputs/mpi-machine.yaml --level poc \
// RUN:   -p n=125 2>&1 | FileCheck %s --check-prefix=NOP
// RUN: not %segtime predict %t.json --machine %inputs/tiny.yaml --level poc --np 2 \
// RUN:   -p n=125 2>&1 | FileCheck %s --check-prefix=NOCOMM
// RUN: not %segtime predict %t.json --machine %inputs/mpi-machine.yaml --level poc --np 4 \
// RUN:   --rank 4 -p n=125 2>&1 | FileCheck %s --check-prefix=BADRANK
// RUN: not %segtime predict %t.json --machine %inputs/mpi-machine.yaml --np 0 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BADNP
#include <mpi.h>

void exchange(int n, double *a, double *b) {
  int rank, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (rank == 0) {
    for (int i = 1; i < p; i++)
      MPI_Send(a, n, MPI_DOUBLE, i, 0, MPI_COMM_WORLD);
  } else {
    MPI_Recv(a, n, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Bcast(b, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
}

// `if (rank == 0)` has probability cmp_eq(rank, 0); the loop to p runs p - 1 times.
// CHECK: T_exchange(n, a, b) = t(v1) + cmp_eq(rank, 0)·(t(v3) + (p - 1)·(t(v5) + t(v6) + t(v7) + T_MPI_Send(8*n))) + (-cmp_eq(rank, 0) + 1)·(t(v8) + t(v9) + T_MPI_Recv(8*n)) + t(v10) + t(v11) + T_MPI_Bcast(8*n) + t(v12) + T_MPI_Barrier(0)
// CHECK: arm then p=cmp_eq(rank, 0)
// CHECK: Loop @33 for trip=p - 1 index=i
// CHECK: arm else p=-cmp_eq(rank, 0) + 1

// p = 4, rank 0: 3 sends (6 us) + binomial bcast, 2 rounds (4 us) + barrier
// 2 + 1*2 us = 14 us. Rank 1: 1 receive (2 us) + 4 + 4 = 10 us. POC: no flop.
// SLOWEST: "comm_model": "point-to-point: hockney; barrier: synch1; collectives: TRG-05 (docs/mpi.md)"
// SLOWEST: "comm_formula": "cmp_eq(rank, 0)*p*t_p2p(8*n, p) - 2*cmp_eq(rank, 0)*t_p2p(8*n, p) + t_barrier(p) + t_bcast(8*n, p) + t_p2p(8*n, p)"
// SLOWEST: "comm_s": 1.4e-05
// SLOWEST: "rank": 0
// SLOWEST: "time_s": 1.4e-05
// RANK1: "comm_s": {{1e-05|9.99999999999[0-9]*e-06}}
// RANK1: "rank": 1
// RANK1: "time_s": {{1e-05|9.99999999999[0-9]*e-06}}
// TEXT: communication: point-to-point: hockney; barrier: synch1
// TEXT: parameters: n=125 [user] p=4 [user] rank=0 [the slowest of the p ranks]
// TEXT: comm  t = {{.*}} s (included in every level below)
// TEXT: POC   t =
// TEXT-NEXT: = 14 us   (comm 14 us)   [rank 0]
// NOP: missing parameter value(s) for exchange: p (number of MPI processes (give --np P)
// NOCOMM: exchange communicates (MPI calls) but: machine 'tiny' {{.*}} has no communication model {{.*}}`segtime comm calibrate`
// The plugin prints the communication formula with the compute formulas.
// PLUGIN: segtime: exchange (
// PLUGIN: POC   flop = 0
// PLUGIN-NEXT: COMM  t = cmp_eq(rank, 0)*p*t_p2p(8*n, p) - 2*cmp_eq(rank, 0)*t_p2p(8*n, p) + t_barrier(p) + t_bcast(8*n, p) + t_p2p(8*n, p) s (docs/mpi.md)
// PLUGIN-NEXT: POC   t on mpi-test = 0 s
// BADRANK: error: rank 4 is not one of the ranks 0..3 of p processes
// BADNP: error: --np: '0' is not a positive number of processes
