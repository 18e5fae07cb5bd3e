// A data-dependent loop (a CSR row: rowptr[i] .. rowptr[i+1]) that the
// runtime unroller splits into a remainder loop and a loop unrolled by 4:
// neither count is in source names, both are in the source loop's
// iteration count N (the one parameter): umod(N, 4) remainder iterations,
// idiv(N, 4) unrolled ones, each part entered when it runs at least once.
// (Each part given the full N counted every row's work twice: the held-out
// spmv_csr was +496 % instructions.)
// RUN: %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin \
// RUN:   -fplugin-arg-segtime-quiet -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json --ir | FileCheck %s
// RUN: %segtime predict %t.json --machine %costvectors/t800.yaml --function spmv --level intcc \
// RUN:   -p n=10 -p N_spmv_18=7 --json | FileCheck %s --check-prefix=PRED

void spmv(int n, const int *rowptr, const int *col, const double *val, const double *x,
          double *y) {
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int p = rowptr[i]; p < rowptr[i + 1]; p++)
      s += val[p] * x[col[p]];
    y[i] = s;
  }
}

// CHECK: param N_spmv_18
// CHECK-NOT: param N_
// CHECK: IR-level SEG (-O2):
// CHECK: Loop @18 ir-loop trip=umod(N_spmv_18, 4) {{.*}}freq=cmp_lt(0, umod(N_spmv_18, 4))
// CHECK: Loop @18 ir-loop trip=idiv(N_spmv_18, 4) {{.*}}freq=cmp_lt(0, idiv(N_spmv_18, 4))

// 10 rows of 7: 70 multiply-adds (3 + 4 per row; the unrolled loop does 4
// per iteration).
// PRED: "call.llvm.fmuladd.f64": 70.0,
// PRED: "load.f64": 140.0,
