// Every MPI communication call becomes a Comm node (docs/mpi.md) with its
// message size in bytes (count x datatype size, in source names), peer,
// root and pattern; MPI_Comm_rank/MPI_Comm_size outputs are `rank` and `p`.
// REQUIRES: mpi
// RUN: %clang -target x86_64-linux-gnu -O0 %mpi_cflags -fplugin=%segtime_plugin \
// RUN:   -fplugin-arg-segtime-quiet -fplugin-arg-segtime-out=%t.json -c %s -o %t.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WARN
// RUN: %segtime show %t.json | FileCheck %s
#include <mpi.h>

void calls(int n, double *a, double *b, int *ia, MPI_Datatype dt) {
  int rank, p;
  MPI_Request req[2];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Send(a, n, MPI_DOUBLE, rank + 1, 0, MPI_COMM_WORLD);
  MPI_Recv(b, n, MPI_DOUBLE, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Isend(a, 2 * n, MPI_FLOAT, (rank + 1) % p, 1, MPI_COMM_WORLD, &req[0]);
  MPI_Irecv(b, 2 * n, MPI_FLOAT, (rank + p - 1) % p, 1, MPI_COMM_WORLD, &req[1]);
  MPI_Wait(&req[0], MPI_STATUS_IGNORE);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  MPI_Sendrecv(a, n, MPI_DOUBLE, 1, 2, b, n, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Bcast(a, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Reduce(a, b, n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Allreduce(a, b, n, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Scatter(a, n, MPI_DOUBLE, b, n / p, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Gather(a, n / p, MPI_CHAR, b, n / p, MPI_CHAR, p - 1, MPI_COMM_WORLD);
  MPI_Alltoall(ia, n, MPI_INT, ia, n, MPI_INT, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Send(a, n, dt, 0, 0, MPI_COMM_WORLD);
}

// The unknown datatype: a parameter and a warning naming it.
// WARN: mpi-calls.c:30:3: warning: segtime: message size of MPI_Send unknown: datatype 'dt' is not a predefined MPI datatype; it is parameter B_calls_30
// MPI_Comm_rank/size cost a call each (v1); every communication call is a Comm
// node after the stage that evaluates its arguments. Bytes: MPI_DOUBLE 8,
// MPI_FLOAT 4 (2n floats = 8n B), MPI_INT 4, MPI_LONG 8, MPI_CHAR 1;
// Sendrecv moves max(send, receive); Scatter the receive block n/p.
// CHECK: function calls
// CHECK: param B_calls_30 default=none [none] bytes of MPI_Send (datatype 'dt' is not a predefined MPI datatype)
// CHECK: param p default=none [none] number of MPI processes (give --np P)
// CHECK: v1 Stage @14
// CHECK-NEXT: HLLC: call=2 i32.add=1 mem.local.read=3
// CHECK-NEXT: v2 Comm @16 MPI_Send p2p bytes=8*n peer=rank + 1
// CHECK-NEXT: HLLC: call=1
// CHECK: v4 Comm @17 MPI_Recv p2p bytes=8*n peer=any
// CHECK: v6 Comm @18 MPI_Isend post bytes=8*n peer=imod(rank + 1, p)
// CHECK: v8 Comm @19 MPI_Irecv p2p bytes=8*n peer=imod(p + rank - 1, p)
// CHECK: v9 Comm @20 MPI_Wait wait bytes=0
// CHECK: v10 Comm @21 MPI_Waitall wait bytes=0
// CHECK: v12 Comm @22 MPI_Sendrecv exchange bytes=max(8*n, 4*n) peer=1
// CHECK: v14 Comm @23 MPI_Bcast bcast bytes=8*n root=0
// CHECK: v16 Comm @24 MPI_Reduce reduce bytes=8*n root=0
// CHECK: v18 Comm @25 MPI_Allreduce allreduce bytes=8*n
// CHECK: v20 Comm @26 MPI_Scatter scatter bytes=8*idiv(n, p) root=0
// CHECK: v22 Comm @27 MPI_Gather gather bytes=idiv(n, p) root=p - 1
// CHECK: v24 Comm @28 MPI_Alltoall alltoall bytes=4*n
// CHECK: v25 Comm @29 MPI_Barrier barrier bytes=0
// CHECK: v27 Comm @30 MPI_Send p2p bytes=B_calls_30 peer=0
// CHECK-NOT: Unknown
