// A start that continues where the inner walk ended (passes/IRMemInductions.cpp
// continuedStarts): CSR sparse matrix times vector. Row i's loop runs p from
// rowptr[i] to rowptr[i + 1], and rowptr[i + 1] is the next row's start (the
// compiler carries it in a phi of the row loop). val and col then move, per
// row, by the row's length: the row loop's N_<fn>_<line> iterations per
// reach of the inner loop (8*N B of doubles, 4*N B of ints), in the unrolled
// part (which resumes where the remainder stopped: addContinuedResumes) as in
// the remainder. Before, the start was a value the nest does not move:
// 0 B per row, one row's lines for the whole matrix.
// RUN: %clang -target x86_64-linux-gnu -O2 \
// RUN:   -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=compile -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json --ir | FileCheck %s

// CHECK: function spmv
// CHECK: stream val: load 8 B, stride B x trip: 8 x umod([[N:N_spmv_[0-9]+]], [[U:[0-9]+]]) 8*[[N]] x n
// CHECK-DAG: stream col: load 4 B, stride B x trip: 4 x umod([[N]], [[U]]) 4*[[N]] x n
// CHECK-DAG: stream val: load 8 B, stride B x trip: {{[0-9]+}} x idiv([[N]], [[U]]) 8*[[N]] x n, offsets
// CHECK-DAG: stream col: load 4 B, stride B x trip: {{[0-9]+}} x idiv([[N]], [[U]]) 4*[[N]] x n, offsets
void spmv(int n, const int *rowptr, const int *col, const double *val, const double *x,
          double *y) {
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int p = rowptr[i]; p < rowptr[i + 1]; p++)
      s += val[p] * x[col[p]];
    y[i] = s;
  }
}
