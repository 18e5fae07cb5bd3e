// The copies of an inner loop that an unrolled outer loop made, each
// starting less than a line after the previous one, are a pseudo-loop of
// their own ("<unrolled loop>.copies", stride and count of the copies) in
// the reference streams (passes/IRMemStream.cpp streamsOf), so that the line
// model decides by a layer condition whether a copy finds the previous
// copy's lines (predictor/MemoryModel.cpp linesInto).
// RUN: %clang -target x86_64-linux-gnu -O2 -march=znver4 -mno-avx512f \
// RUN:   -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=compile -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json --ir | FileCheck %s
// RUN: %segtime predict %t.json --machine %inputs/machine-strided.yaml --level icc \
// RUN:   --function energy -p n=8192 2>&1 | FileCheck --check-prefix=BIG %s
// RUN: %segtime predict %t.json --machine %inputs/machine-strided.yaml --level icc \
// RUN:   --function energy -p n=512 2>&1 | FileCheck --check-prefix=SMALL %s

// The i loop unrolled by 2: the j loops of the bodies i+1 and i+2 walk x,
// y, z and m one after the other, the second 8 B after the first: a loop
// of 2 copies, 8 B apart, between the j loop and the unrolled i loop.
// CHECK: function energy
// CHECK: ir-loop trip=1 + idiv(-2 + 2*idiv(n, 2), 2) index=[[K:k_energy_ir[0-9]+]] [unrolled x2]
// CHECK: stream x: load 8 B, stride B x trip: 8 x -2*[[K]] + n - 1 8 x 2 16 x 1 + idiv(-2 + 2*idiv(n, 2), 2) {{\[}}[[K]]{{\]}}
// CHECK-NEXT: stream y: load 8 B, stride B x trip: 8 x -2*[[K]] + n - 1 8 x 2 16
// n = 8192: one copy's walk over the four arrays (up to 256 kB) does not fit
// the 48 KiB L1, so each copy brings its lines in again: about n - 2k lines
// per iteration k of the unrolled loop, 1.68e7 in all less the short walks
// at the end that fit (before, as offsets within a line, the copies shared
// every line: half as many).
// BIG: lines brought in (layer conditions): L1 1.62e+07, L2 0;
// n = 512: 16 kB, everything stays in the L1 between calls.
// SMALL: lines brought in (layer conditions): L1 0, L2 0;
#include <math.h>
double energy(int n, const double *x, const double *y, const double *z, const double *m) {
  double e = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      double dx = x[i] - x[j], dy = y[i] - y[j], dz = z[i] - z[j];
      e -= m[i] * m[j] / sqrt(dx * dx + dy * dy + dz * dz + 1e-6);
    }
  return e;
}
