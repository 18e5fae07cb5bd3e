// The ICC memory term's inputs: footprint and traffic of each outermost IR
// loop nest (passes/IRSeg.cpp memoryOf), in source names.
// RUN: %clang -target x86_64-linux-gnu -O2 -fno-vectorize -fno-unroll-loops \
// RUN:   -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json --ir | FileCheck %s

// x and y: 8 n bytes each; traffic: load x, load y, store y.
// CHECK: function daxpy
// CHECK: Loop @{{[0-9]+}} ir-loop trip=n
// CHECK-NEXT: memory: footprint=16*n B traffic=24*n B
void daxpy(int n, double a, const double *x, double *y) {
  for (int i = 0; i < n; i++)
    y[i] += a * x[i];
}

// The time loop moves no address: each step streams u and v again.
// CHECK: function sweep
// CHECK: Loop @{{[0-9]+}} ir-loop trip=steps
// CHECK-NEXT: memory: footprint=16*n B traffic=24*n*steps B
void sweep(int n, int steps, const double *u, double *v) {
  for (int t = 0; t < steps; t++)
    for (int i = 0; i < n; i++)
      v[i] = 0.5 * (v[i] + u[i]);
}

// Row-major matrix-vector product: a is m x n (8 m n bytes), x 8 n, y 8 m.
// CHECK: function gemv
// CHECK: Loop @{{[0-9]+}} ir-loop trip=m
// (8 (m-1) n + 8 n for a, 8 n for x, 8 m for y)
// CHECK-NEXT: memory: footprint=8*(m - 1)*n + 16*n + 8*m B
void gemv(int m, int n, const double *a, const double *x, double *y) {
  for (int i = 0; i < m; i++) {
    double s = 0;
    for (int j = 0; j < n; j++)
      s += a[i * n + j] * x[j];
    y[i] = s;
  }
}

// An address that is not affine (indirect) leaves the nest without a memory term.
// CHECK: function gather
// CHECK: Loop @{{[0-9]+}} ir-loop
// CHECK-NOT: memory:
// CHECK: function
double gather(int n, const int *idx, const double *x) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[idx[i]];
  return s;
}
void end(void) {}
