// Component timing of a merge loop (examples/mergesort.c's merge): the
// three branches of `j >= hi || (i < mid && s[i] <= s[j])` keep one counter
// each (their executions follow from the loop's iterations and the arm
// before them, Instrument.cpp ExecSource), and the counts are still exact
// at -O0 and -O2; the call to merge is timed by merge's own pair
// (no pair at the call site) and the output is unchanged.
// RUN: %clang -O0 %s -o %t-plain && %t-plain > %t-plain.out
// RUN: %clang -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet -fplugin-arg-segtime-instrument \
// RUN:   -fplugin-arg-segtime-out=%t.seg.json %s %segtime_rt -o %t-O0
// RUN: env SEGTIME_CT_FILE=%t-O0.ct.json %t-O0 > %t-O0.out
// RUN: cmp %t-plain.out %t-O0.out
// RUN: FileCheck %s < %t-O0.ct.json
// RUN: %clang -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet -fplugin-arg-segtime-instrument \
// RUN:   -fplugin-arg-segtime-out=%t2.seg.json %s %segtime_rt -o %t-O2
// RUN: env SEGTIME_CT_FILE=%t-O2.ct.json %t-O2 > %t-O2.out
// RUN: cmp %t-plain.out %t-O2.out
// RUN: FileCheck %s < %t-O2.ct.json
#include <stdio.h>

static int Src[8] = {1, 3, 5, 7, 2, 4, 6, 8}, Dst[8];

void merge(const int *src, int *dst, int lo, int mid, int hi) {
  int i = lo, j = mid;
  for (int k = lo; k < hi; k++) {
    if (j >= hi || (i < mid && src[i] <= src[j]))
      dst[k] = src[i++];
    else
      dst[k] = src[j++];
  }
}

int main(void) {
  for (int r = 0; r < 3; r++)
    merge(Src, Dst, 0, 4, 8);
  for (int k = 0; k < 8; k++)
    printf("%d ", Dst[k]);
  printf("\n");
  return 0;
}

// Per merge: 8 iterations; j >= hi never true (j reaches 8 after the last
// step); i < mid on the other 8: true 7 times (i = 4 at k = 7); s[i] <= s[j]
// on those 7: 1<=2, 3<=2, 3<=4, 5<=4, 5<=6, 7<=6, 7<=8: true 4 times.
// CHECK-LABEL: {"name": "merge", {{.*}} "calls": 3,
// CHECK: {"kind": "loop", {{.*}} "line": 24, {{.*}} "entries": 3, "iterations": 24}
// CHECK-NEXT: {"kind": "branch", {{.*}} "line": 25, {{.*}} "executions": 24, "arms": [{"label": "true", "count": 0, {{.*}}}, {"label": "false", "count": 24,
// CHECK-NEXT: {"kind": "branch", {{.*}} "line": 25, {{.*}} "executions": 24, "arms": [{"label": "true", "count": 21, {{.*}}}, {"label": "false", "count": 3,
// CHECK-NEXT: {"kind": "branch", {{.*}} "line": 25, {{.*}} "executions": 21, "arms": [{"label": "true", "count": 12, {{.*}}}, {"label": "false", "count": 9,
// CHECK-LABEL: {"name": "main", {{.*}} "calls": 1,
// CHECK: {"kind": "call", {{.*}} "callee": "merge", "count": 3, "inclusive_s": {{[0-9.e+-]+}}
