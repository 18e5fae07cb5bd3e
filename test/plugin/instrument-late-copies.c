// Each copy of an optimised branch its own measured rate: the analysis compile
// with ir-copies names copy k >= 1 of a branch Pir_<fn>_<line>_<col>_c<k>
// (defaulting to the shared parameter: the static prediction and the object
// code do not change), and `segtime predict --profile` takes each copy's rate
// from the instrument=late record of the same location and copy. The merge
// loop unrolled twice: its merge step's two copies see the runs differently
// (copy 1 never takes the left run's element here, copy 2 in 24 of 28).
// RUN: %clang -O2 -c %s -o %t-plain.o
// RUN: %clang -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet -fplugin-arg-segtime-targets=compile \
// RUN:   -fplugin-arg-segtime-out=%t0.seg.json -c %s -o %t0.o 2>/dev/null
// RUN: %clang -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet -fplugin-arg-segtime-targets=compile \
// RUN:   -fplugin-arg-segtime-ir-copies -fplugin-arg-segtime-out=%t.seg.json -c %s -o %t.o 2>/dev/null
// RUN: cmp %t-plain.o %t0.o
// RUN: cmp %t-plain.o %t.o
// RUN: %clang -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet -fplugin-arg-segtime-instrument=late \
// RUN:   -fplugin-arg-segtime-out=%tl.seg.json %s %segtime_rt -o %t-late 2>/dev/null
// RUN: env SEGTIME_CT_FILE=%t.ct.json %t-late | FileCheck %s --check-prefix=OUT
// RUN: %segtime show %t.seg.json --function merge --ir | FileCheck %s --check-prefix=SEG
// RUN: %segtime show %t0.seg.json --function merge --ir | FileCheck %s --check-prefix=SHARED
// RUN: (%segtime predict %t0.seg.json --machine %costvectors/znver5-epyc.yaml --function merge --level icc \
// RUN:    -p lo=0 -p mid=32 -p hi=64 && \
// RUN:  %segtime predict %t.seg.json --machine %costvectors/znver5-epyc.yaml --function merge --level icc \
// RUN:    -p lo=0 -p mid=32 -p hi=64) 2>&1 | FileCheck %s --check-prefix=SAME
// RUN: %segtime predict %t.seg.json --machine %costvectors/znver5-epyc.yaml --function merge --level icc \
// RUN:   -p lo=0 -p mid=32 -p hi=64 --profile %t.ct.json 2>&1 | FileCheck %s --check-prefix=PROF
#include <stdio.h>

static int Src[64], Dst[64];

__attribute__((noinline)) void merge(const int *src, int *dst, int lo, int mid, int hi) {
  int i = lo, j = mid;
#pragma clang loop unroll_count(2)
  for (int k = lo; k < hi; k++) {
    if (j >= hi || (i < mid && src[i] <= src[j]))
      dst[k] = src[i++];
    else
      dst[k] = src[j++];
  }
}

int main(void) {
  for (int k = 0; k < 32; k++) {
    Src[k] = 2 * k;
    Src[32 + k] = k < 24 ? 2 * k + 1 : 1000 + k;
  }
  merge(Src, Dst, 0, 32, 64);
  printf("%d %d\n", Dst[0], Dst[63]);
  return 0;
}

// OUT: 0 1031
// SEG: param Pir_merge_34_9 default=0.5
// SEG: param Pir_merge_34_9_c1 default=Pir_merge_34_9
// SEG: param Pir_merge_34_9_c2 default=Pir_merge_34_9
// SEG: branch_prob=Pir_merge_34_9_c1
// SEG: branch_prob=Pir_merge_34_9_c2
// SHARED-NOT: _c1
// SAME: , [[N:[0-9]+]] instructions,
// SAME: , [[N]] instructions,
// PROF-DAG: Pir_merge_34_9_c1 = 0 (optimised branch {{.*}}instrument-late-copies.c:34:9 copy 1: arm 'true' 0 / 28 executions)
// PROF-DAG: Pir_merge_34_9_c2 = 0.857143 (optimised branch {{.*}}:34:9 copy 2: arm 'true' 24 / 28 executions)
