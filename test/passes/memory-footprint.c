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

// An indirect address (x[idx[i]], x of a size the code does not give) is
// an estimated object: one element per access, at most one per iteration
// of the outermost loop (8 n B), touched at random (a stream of its 64 B
// lines, stride 0 in i), with a note; the affine stream of idx stays (more
// in memory-triangular.c).
// CHECK: function gather
// CHECK: Loop @{{[0-9]+}} ir-loop
// CHECK-NEXT: memory: footprint=12*n B traffic=12*n B
// CHECK-NEXT: stream idx: load 4 B, stride B x trip: 4 x n
// CHECK-NEXT: stream x: load 8 B, stride B x trip: 64 x 1/8*n 0 x n
// CHECK-NEXT: memory note: estimated: x: indirect load, object size not in the code: one element per access, at most one per reference and iteration of the outermost loop, 8*min({{.*}}) B taken as a stream touched once per execution of the nest
// CHECK: function
double gather(int n, const int *idx, const double *x) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[idx[i]];
  return s;
}
void end(void) {}

// Reference streams for the cache-line model (MemStream): byte stride and
// trip per loop, innermost first. The inner k loop walks b by columns
// (8 n bytes apart) and a by rows (8 bytes); the j loop moves b and c by 8
// bytes and leaves a where it is.
// CHECK: function matmul_ijk
// CHECK: Loop @{{[0-9]+}} ir-loop trip=n
// CHECK: stream a: load 8 B, stride B x trip: 8 x n 0 x n 8*n x n
// CHECK-NEXT: stream b: load 8 B, stride B x trip: 8*n x n 8 x n 0 x n
// CHECK-NEXT: stream c: store 8 B, stride B x trip: 8 x n 8*n x n
void matmul_ijk(int n, const double *a, const double *b, double *c) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double s = 0;
      for (int k = 0; k < n; k++)
        s += a[i * n + k] * b[k * n + j];
      c[i * n + j] = s;
    }
}

// Neighbours of one base with the same strides are one stream; their
// offsets from the first reference are kept.
// CHECK: function stencil3
// CHECK: stream u: load 8 B, stride B x trip: 8 x n - 2, offsets {{-?[0-9]+}} {{-?[0-9]+}}
void stencil3(int n, const double *u, double *v) {
  for (int i = 1; i < n - 1; i++)
    v[i] = u[i - 1] + u[i] + u[i + 1];
}
