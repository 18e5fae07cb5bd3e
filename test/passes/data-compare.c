// Merge and search steps (docs/models.md ICC step 4 and 4d): a comparison
// of loads whose addresses its own outcome advances gets the estimated
// outcome frequency 1/2 (provenance "static: estimated, ..."), which the
// misprediction term may use; a search step's block also gets
// branch.chain.load. The search loop's branch is a select in the IR that
// x86 code generation makes a branch again (cmov conversion): charged
// because the machine code has the jump. The bound tests of a merge's
// indices are estimated never past the bound. A clip against a threshold
// keeps BPI's guess (no term).
// RUN: %clang -target x86_64-linux-gnu -O2 -march=x86-64-v3 \
// RUN:   -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet -fplugin-arg-segtime-targets=compile \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json --ir | FileCheck %s

void merge(const float *src, float *dst, int lo, int mid, int hi) {
  int i = lo, j = mid;
  for (int k = lo; k < hi; k++) {
    if (j >= hi || (i < mid && src[i] <= src[j]))
      dst[k] = src[i++];
    else
      dst[k] = src[j++];
  }
}

long lower(int n, int q, const int *table, const int *keys) {
  long found = 0;
  for (int t = 0; t < q; t++) {
    int key = keys[t], lo = 0, hi = n;
    while (lo < hi) {
      int mid = lo + (hi - lo) / 2;
      if (table[mid] < key)
        lo = mid + 1;
      else
        hi = mid;
    }
    found += lo;
  }
  return found;
}

int clip(int n, const int *a, int *b, int t) {
  int c = 0;
  for (int i = 0; i < n; i++) {
    if (a[i] > t) {
      b[c] = a[i];
      c++;
    } else
      b[i] = 0;
  }
  return c;
}

// CHECK-LABEL: function merge
// The bound tests of the merge indices: past the bound (j >= hi, i >= mid)
// only once a run is exhausted, estimated 0; both branches go to the side
// not past it (the next test) with probability 1.
// CHECK: param Pir_merge_18_17 default=1.000000 [static: estimated, bound test of a merge index: P(past the bound) = 0
// CHECK: param Pir_merge_18_29 default=1.000000 [static: estimated, bound test of a merge index
// CHECK: param Pir_merge_18_9 default=0.500000 [static: estimated, merge step: P = 1/2, a comparison of two loads through indices its outcome advances
// CHECK-SAME: (a merge step: estimated 1/2 on random input)
// The loop's copies of the comparison: a conditional jump, no load chain;
// the unconditional jump after it ("jae; jmp") on the edge it takes, in the
// loop's steady state.
// CHECK: ir-loop
// CHECK: branch_prob=Pir_merge_18_9
// CHECK-NEXT: ICC:x86-64-v3: branch=1 branch.cond.data=1 cycles=
// CHECK-NEXT: INTCC
// CHECK-NEXT: Stage @18 freq=Pir_merge_18_17*Pir_merge_18_29*Pir_merge_18_9
// CHECK-NEXT: ICC:x86-64-v3: branch=1 cycles=0.5 instructions=1 
// CHECK-LABEL: function lower
// CHECK: param Pir_lower_31_22 default=0.500000 [static: estimated, search step: P = 1/2, a load whose address the outcome steers compared with a loop-invariant key
// CHECK-SAME: a select, charged where the machine code made it a branch]
// CHECK: branch_prob=Pir_lower_31_22
// CHECK-NEXT: ICC:x86-64-v3: {{.*}}branch.chain.load=1 branch.cond.data=1 cycles=
// The machine level's count of selects made into branches is not kept.
// CHECK-NOT: branch.select
// CHECK-LABEL: function clip
// CHECK: param Pir_clip_{{[0-9_]+}} default=0.500000 [BPI]
// CHECK-NOT: static: estimated
// CHECK-NOT: branch.chain.load
