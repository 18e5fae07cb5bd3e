// The ICC memory term of triangular nests and of indirect references
// (passes/IRSeg.cpp memoryOf, spanOf; predictor/MemoryModel.cpp linesInto).
// RUN: %clang -target x86_64-linux-gnu -O2 -march=icelake-server -fno-vectorize \
// RUN:   -fno-unroll-loops -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=compile -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json --ir | FileCheck %s
// RUN: %segtime predict %t.json --machine %inputs/machine-strided.yaml --level icc \
// RUN:   --function trisolve -p n=200 2>&1 | FileCheck --check-prefix=TRI %s
// RUN: %segtime predict %t.json --machine %inputs/machine-strided.yaml --level icc \
// RUN:   --function histogram -p n=200 2>&1 | FileCheck --check-prefix=HIST %s
// RUN: %segtime predict %t.json --machine %inputs/machine-strided.yaml --level icc \
// RUN:   --function histogram_global -p n=200 2>&1 | FileCheck --check-prefix=GLOB %s

// Forward substitution: the inner loop runs i times (its count is the outer
// loop's counter k), so the rows of l are a triangle: the exact sum
// sum_k 8 k = 4 n (n - 1) B, not the 8 n^2 B rectangle of the address range.
// The diagonal l[i*n + i] touches one line per row (64 n B, under the
// triangle's bytes); x and b 8 n B each.
// CHECK: function trisolve
// CHECK: Loop @{{[0-9]+}} ir-loop trip=n index=[[K:k_trisolve_ir[0-9]+]]
// CHECK-NEXT: memory: footprint={{.*}}seg_sum(max(0, 8*[[K]]), [[K]], 0, n - 1){{.*}} B traffic=
// CHECK-NEXT: stream b: load 8 B, stride B x trip: 8 x n
// CHECK-NEXT: stream l: load 8 B, stride B x trip: 8 x [[K]] 8*n x n {{\[}}[[K]]{{\]}}
// CHECK-NEXT: stream x: load 8 B, stride B x trip: 8 x [[K]] 0 x n {{\[}}[[K]]{{\]}}
// CHECK-NEXT: stream l: load 8 B, stride B x trip: 8*n + 8 x n
// CHECK-NEXT: stream x: store 8 B, stride B x trip: 8 x n
// n = 200: footprint 4*200*199 + 1600 + 1600 = 162400 B; traffic adds the
// load of x (8 (n - 1)) to the store's 8 n: 164 B short of 164 KB.
// Lines into L1 (48 KiB: the triangle does not fit): row k > 0 brings
// 1 + (k - 1) / 8 lines, at most the 25 of a row stride (sum 2659), b and the
// store of x 25.875 each, the diagonal one per row (200): 2910.75. Not
// counted: the loads of x grow by a line every 8 rows (25 lines).
// TRI: note: memory term, loop nest at line {{[0-9]+}}: footprint 1.62e+05 B, traffic 1.64e+05 B, lines brought in (layer conditions): L1 2.91e+03, L2 0;
void trisolve(int n, const double *l, const double *b, double *x) {
  for (int i = 0; i < n; i++) {
    double s = b[i];
    for (int j = 0; j < i; j++)
      s -= l[i * n + j] * x[j];
    x[i] = s / l[i * n + i];
  }
}

// An indirect reference to an object whose size the code does not give (a
// pointer argument) is an estimated object of one element per iteration
// (4 n B), with a note; the affine stream of data stays (4 n B): footprint
// 1600 B, traffic 800 + 2 x 800 B at n = 200.
// CHECK: function histogram
// CHECK: Loop @{{[0-9]+}} ir-loop trip=n
// CHECK-NEXT: memory: footprint=8*n B traffic=12*n B
// CHECK-NEXT: stream data: load 4 B, stride B x trip: 4 x n
// CHECK-NEXT: stream hist: load store 4 B, stride B x trip: 64 x 1/16*n 0 x n
// CHECK-NEXT: memory note: estimated: hist: indirect load, object size not in the code
// CHECK-NEXT: memory note: estimated: hist: indirect store, object size not in the code
// HIST: note: memory term, loop nest at line {{[0-9]+}}: estimated: hist: indirect load, object size not in the code
// HIST: note: memory term, loop nest at line {{[0-9]+}}: footprint 1.6e+03 B, traffic 2.4e+03 B
void histogram(int n, const int *data, int *hist) {
  for (int i = 0; i < n; i++)
    hist[data[i]]++;
}

// A global array's size bounds it: 1024 B once in the footprint, once per
// load and store in the traffic (800 + 1024 B, 800 + 2048 B at n = 200).
// CHECK: function histogram_global
// CHECK: Loop @{{[0-9]+}} ir-loop trip=n
// CHECK-NEXT: memory: footprint=4*n + 1024 B traffic=4*n + 2048 B
// CHECK-NEXT: stream data: load 4 B, stride B x trip: 4 x n
// The increments are a stream of the array's 16 lines (an estimate).
// CHECK-NEXT: stream bins: load store 4 B, stride B x trip: 64 x 16 0 x n
// CHECK-NEXT: memory note: estimated: bins: indirect load, its object's 1024 B taken as a stream touched once per execution of the nest
// GLOB: note: memory term, loop nest at line {{[0-9]+}}: footprint 1.82e+03 B, traffic 2.85e+03 B
int bins[256];
void histogram_global(int n, const int *data) {
  for (int i = 0; i < n; i++)
    bins[data[i]]++;
}

// Doolittle LU: the rows of the trailing submatrix shrink with k (counts n - 1 - k):
// the bytes touched are the matrix, 8 n^2 B, not the sum over k of the
// submatrices (about 8 n^3 / 3 B) nor twice the matrix.
// CHECK: function lu
// CHECK: Loop @{{[0-9]+}} ir-loop trip=n index=[[KL:k_lu_ir[0-9]+]]
// CHECK-NEXT: memory: footprint={{.*}}seg_sum{{.*}} B traffic=
// LUNOTE: note: memory term, loop nest at line {{[0-9]+}}: footprint 8e+04 B, traffic 1.6e+05 B
// RUN: %segtime predict %t.json --machine %inputs/machine-strided.yaml --level icc \
// RUN:   --function lu -p n=100 2>&1 | FileCheck --check-prefix=LUNOTE %s
// Vectorised, the remainder loop of row k starts where the vector loop
// stopped (a phi): its count depends on k through the phi, and the nest
// keeps its memory term, with the same footprint.
// RUN: %clang -target x86_64-linux-gnu -O2 -march=icelake-server -fplugin=%segtime_plugin \
// RUN:   -fplugin-arg-segtime-quiet -fplugin-arg-segtime-targets=compile \
// RUN:   -fplugin-arg-segtime-out=%t.vec.json -c %s -o %t.vec.o
// RUN: %segtime predict %t.vec.json --machine %inputs/machine-strided.yaml --level icc \
// RUN:   --function lu -p n=100 2>&1 | FileCheck --check-prefix=LUNOTE %s
void lu(int n, double *a) {
  for (int k = 0; k < n; k++)
    for (int i = k + 1; i < n; i++) {
      a[i * n + k] /= a[k * n + k];
      for (int j = k + 1; j < n; j++)
        a[i * n + j] -= a[i * n + k] * a[k * n + j];
    }
}
