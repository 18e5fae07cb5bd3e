// The vectoriser's runtime alias checks: whether d and s overlap is data (the
// addresses), so the check is an indicator Pov_<fn>_<line>_<col>[_c<k>] of the
// branch (0: the vector loop, 1: the scalar loop; default 0, estimated: the
// checks pass), and the vector and scalar loops' frequencies and trip counts
// depend on it. An instrument=late build counts the check's branch; predict
// takes the indicator's probability from it and gives the mean over its two
// values (the prediction is not linear in it). Here the second call's d lies
// one element past s: callgrind counts 1019 instructions for the two calls of
// scale, 509.5 per call; the static prediction (vector loop) gives 247.
// RUN: %clang -O2 -c %s -o %t-plain.o
// RUN: %clang -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet -fplugin-arg-segtime-targets=compile \
// RUN:   -fplugin-arg-segtime-out=%t.seg.json -c %s -o %t.o 2>/dev/null
// RUN: cmp %t-plain.o %t.o
// RUN: %clang -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet -fplugin-arg-segtime-instrument=late \
// RUN:   %s %segtime_rt -o %t-late 2>/dev/null
// RUN: env SEGTIME_CT_FILE=%t.ct.json %t-late | FileCheck %s --check-prefix=OUT
// RUN: %segtime show %t.seg.json --function scale --ir | FileCheck %s --check-prefix=SEG
// RUN: %segtime predict %t.seg.json --machine %costvectors/znver5-epyc.yaml --function scale --level icc \
// RUN:   -p n=200 2>&1 | FileCheck %s --check-prefix=STATIC
// RUN: %segtime predict %t.seg.json --machine %costvectors/znver5-epyc.yaml --function scale --level icc \
// RUN:   -p n=200 -p Pov_scale_29_3_c1=1 2>&1 | FileCheck %s --check-prefix=SCALAR
// RUN: %segtime predict %t.seg.json --machine %costvectors/znver5-epyc.yaml --function scale --level icc \
// RUN:   -p n=200 --profile %t.ct.json 2>&1 | FileCheck %s --check-prefix=PROF
#include <stdio.h>

static float A[256], B[256];

__attribute__((noinline)) void scale(float *d, const float *s, int n) {
  for (int i = 0; i < n; i++)
    d[i] = 2.0f * s[i];
}

int main(void) {
  for (int i = 0; i < 256; i++)
    A[i] = (float)i;
  scale(B, A, 200);     // apart: the vector loop
  scale(A + 1, A, 200); // d one element past s: an overlap, the scalar loop
  printf("%g %g\n", B[199], A[200]);
  return 0;
}

// OUT: 398 0
// SEG: param Pov_scale_29_3_c1 default=0.000000 [static: estimated, alias check
// SEG: ir-loop {{.*}}[vectorised] freq=(1 - cmp_lt(n, 8))*(1 - Pov_scale_29_3_c1)*cmp_lt(0, n)
// STATIC: Pov_scale_29_3_c1=0 [static: estimated, alias check
// STATIC: (x86-64, 247 instructions,
// SCALAR: (x86-64, 772 instructions,
// PROF: Pov_scale_29_3_c1 = 0.5 (optimised branch {{.*}}alias-check.c:29:3 copy 1: vector loop left out (arm 'true') 1 / 2 executions)
// PROF: (x86-64, 509.5 instructions,
