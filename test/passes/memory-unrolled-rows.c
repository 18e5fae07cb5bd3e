// The unrolled rows of a downward triangular nest (passes/IRMemStream.cpp
// copyKind): back substitution, the outer loop unrolled (by 4 for znver5, by 2 here) at -O2. Row
// i - r of the four starts zext((i - 1 - r) n) elements in, a distance that
// ScalarEvolution leaves as a difference of casts; taken as exact (widened),
// it is r / U of the unrolled loop's step, so each row is a part of the
// footprint of its own (before: the unrolled rows overlapped, one counted).
// RUN: %clang -target x86_64-linux-gnu -O2 -march=icelake-server -fno-vectorize \
// RUN:   -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=compile -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json --ir | FileCheck %s
// RUN: %segtime predict %t.json --machine %inputs/machine-strided.yaml --level icc \
// RUN:   --function backsub -p n=182 2>&1 | FileCheck --check-prefix=BACK %s

// CHECK: function backsub
// CHECK: [unrolled x2]
// n = 182: the strict upper triangle, 8 n (n - 1) / 2 = 131 KB, and b, x
// (1456 B each) and the diagonal: 1.36e5 B (before: one row of the U
// counted; 3.78e4 B with znver5's 4 rows). Lines into L1 (48 KiB): the rows' 2070 and the diagonal's 182
// and b's and x's 23 each, about 2.29e3 (cachegrind, znver5 geometry: 2262).
// BACK: note: memory term, loop nest at line {{[0-9]+}}: footprint 1.36e+05 B, traffic {{.*}} B, lines brought in (layer conditions): L1 2.29e+03, L2 0
void backsub(int n, const double *u, const double *b, double *x) {
  for (int i = n - 1; i >= 0; i--) {
    double s = b[i];
    for (int j = i + 1; j < n; j++)
      s -= u[i * n + j] * x[j];
    x[i] = s / u[i * n + i];
  }
}
