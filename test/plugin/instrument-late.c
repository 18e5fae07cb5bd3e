// instrument=late: the counts of the optimised code (passes/InstrumentLate.cpp),
// in each function's "late" records: every conditional branch of the IR at the
// end of the optimisation pipeline, its copy number among the branches at its
// location, its executions and true edge; a branch on a logical and also its
// first operand's outcome ("first-and"); every loop header's entries and runs.
// Nothing is timed and no source-level node is made; the output is unchanged.
// RUN: %clang -O2 %s -o %t-plain && %t-plain > %t-plain.out
// RUN: %clang -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet -fplugin-arg-segtime-instrument=late \
// RUN:   -fplugin-arg-segtime-out=%t.seg.json %s %segtime_rt -o %t-O2
// RUN: env SEGTIME_CT_FILE=%t-O2.ct.json %t-O2 > %t-O2.out
// RUN: cmp %t-plain.out %t-O2.out
// RUN: FileCheck %s < %t-O2.ct.json
// RUN: %clang -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet -fplugin-arg-segtime-instrument=late \
// RUN:   -fplugin-arg-segtime-out=%t0.seg.json %s %segtime_rt -o %t-O0
// RUN: env SEGTIME_CT_FILE=%t-O0.ct.json %t-O0 > %t-O0.out
// RUN: cmp %t-plain.out %t-O0.out
// RUN: FileCheck %s --check-prefix=O0 < %t-O0.ct.json
#include <stdio.h>

static int Src[8] = {1, 3, 5, 7, 2, 4, 6, 8}, Dst[8];
volatile int Sink;

__attribute__((noinline)) void merge(const int *src, int *dst, int lo, int mid, int hi) {
  int i = lo, j = mid;
  for (int k = lo; k < hi; k++) {
    if (j >= hi || (i < mid && src[i] <= src[j]))
      dst[k] = src[i++];
    else
      dst[k] = src[j++];
  }
}

__attribute__((noinline)) void both(int x, int y) {
  if (x > 2 && y > 4)
    Sink = x;
}

int main(void) {
  for (int r = 0; r < 3; r++)
    merge(Src, Dst, 0, 4, 8);
  for (int k = 0; k < 8; k++)
    printf("%d ", Dst[k]);
  for (int r = 0; r < 10; r++)
    both(r, 10 - r);
  printf("%d\n", Sink);
  return 0;
}

// The merge step runs 3 x 7 times (the 8th element of each merge comes from
// a run already exhausted); the loop's header runs once per iteration.
// CHECK: "name": "merge", {{.*}} "calls": 3
// CHECK: "nodes": [],
// CHECK-NEXT: "late": [
// CHECK-DAG: {"kind": "loop", "file": "{{.*}}instrument-late.c", "line": 26, "col": 17, "copy": 0, "entries": 3, "header_runs": 24}
// CHECK-DAG: {"kind": "branch", {{.*}}"line": 26, "col": 29, "copy": 0, "op": "br", "executions": 24, "arms": [{"label": "true", "count": 21,
// CHECK-DAG: {"kind": "branch", {{.*}}"line": 26, "col": 9, "copy": 0, "op": "br", "executions": 21,
// CHECK: "name": "both", {{.*}} "calls": 10
// x > 2 for r = 3..9; both for r = 3, 4, 5.
// CHECK-DAG: {"kind": "branch", {{.*}}"line": 34, "col": 13, "copy": 0, "op": "br", "executions": 10, "arms": [{"label": "true", "count": 3,
// CHECK-DAG: {"kind": "branch", {{.*}}"line": 34, "col": 13, "copy": 0, "op": "first-and", "executions": 10, "arms": [{"label": "true", "count": 7,

// At -O0 the source's branches, one IR branch each: j >= hi runs 24 times, never true.
// O0: "name": "merge", {{.*}} "calls": 3
// O0: "late": [
// O0-DAG: {"kind": "loop", {{.*}}"line": 25, "col": 3, "copy": 0, "entries": 3, "header_runs": 27}
// O0-DAG: {"kind": "branch", {{.*}}"line": 26, "col": 17, "copy": 0, "op": "br", "executions": 24, "arms": [{"label": "true", "count": 0,
