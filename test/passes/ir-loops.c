// The IR level (IntCC): loops as the optimiser left them, trip counts from
// ScalarEvolution in source names, attribution to source nodes.
// RUN: %clang -target x86_64-linux-gnu -O2 -fno-vectorize -fno-unroll-loops \
// RUN:   -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json --ir | FileCheck %s
// RUN: %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t2.json -c %s -o %t2.o
// RUN: %segtime show %t2.json --ir --function scale | FileCheck %s --check-prefix=VEC

void scale(int n, double *x, double a) {
  for (int i = 0; i < n; i++)
    x[i] *= a;
}

double tri(int n, const double *x) {
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++)
      s += x[j];
  return s;
}

// Without vectorisation or unrolling: one IR loop per source loop, n times.
// CHECK: function scale
// CHECK: IR-level SEG (-O2):
// The zero-trip guard is an exact condition: the loop runs when n > 0.
// CHECK: Loop @11 ir-loop trip=n index=k_scale_ir{{[0-9]+}} freq=cmp_lt(0, n) <- v2
// The triangular inner loop runs k + 1 times in iteration k of the outer one.
// CHECK: function tri
// CHECK: IR-level SEG (-O2):
// CHECK: Loop @17 ir-loop trip=n index=k_tri_[[OUTER:ir[0-9]+]] freq=cmp_lt(0, n) <- v2
// CHECK: Loop @18 ir-loop trip=k_tri_[[OUTER]] + 1 index={{.*}} <- v5

// Vectorised: a vector loop of 1 + idiv(VF*idiv(n, VF) - VF, VF) = idiv(n, VF)
// iterations (0 for n < VF) and a scalar epilogue that runs the remaining
// n - VF*idiv(n, VF) iterations: its start (a phi of 0 and n.vec) is the
// sum over its incoming edges of [edge taken] x value: 0 if n < VF, else
// n.vec (the vector loop ran). The minimum-iterations check and the
// "n is a multiple of VF" test are exact conditions (cmp_lt(a, b) = [a < b]);
// the alias checks between x and itself are decided by ScalarEvolution.
// VEC: IR-level SEG (-O2):
// VEC: Loop @11 ir-loop trip=1 + idiv(-[[VF:[0-9]+]] + [[VF]]*idiv(n, [[VF]]), [[VF]]) index={{.*}} [vectorised] freq=(1 - cmp_lt(n, [[VF]]))*cmp_lt(0, n) <- v2
// VEC: Loop @11 ir-loop trip=n + [[VF]]*(-1 + cmp_lt(n, [[VF]]))*idiv(n, [[VF]]) index={{.*}} freq=(1 - cmp_eq([[VF]]*idiv(n, [[VF]]), n))*(1 - cmp_lt(n, [[VF]]))*cmp_lt(0, n) + cmp_lt(0, n)*cmp_lt(n, [[VF]]) <- v2
