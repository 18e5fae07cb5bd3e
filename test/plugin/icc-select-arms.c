// Selects that code generation makes into branches: each side runs on
// some of the block's executions, not on all (docs/models.md, ICC "select
// arms"), a stage of its own run with the select's named probability that its
// condition is true (estimated 1/2). bsearch's lo = mid + 1 / hi = mid (a
// search step's select) become two tails of the loop, 3 instructions each.
// The clamp of a histogram's bin (b < nbins ? b : nbins - 1), made into a
// jump over a move by x86's cmov conversion: the move runs when it is false.
// RUN: %clang -target x86_64-linux-gnu -march=znver4 -mno-avx512f -O2 -fplugin=%segtime_plugin \
// RUN:   -fplugin-arg-segtime-quiet -fplugin-arg-segtime-targets=compile \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json --ir | FileCheck %s

long bsearch_batch(int n, int q, const int *table, const int *keys)
{
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

void clamp_hist(int n, int nbins, const float *x, int *count)
{
    float scale = (float)nbins;
    for (int i = 0; i < n; i++) {
        int b = (int)(x[i] * scale);
        count[b < nbins ? b : nbins - 1]++;
    }
}

// CHECK: function bsearch_batch
// CHECK: IR-level SEG
// CHECK: Loop @18 ir-loop
// CHECK-NEXT: Stage @19 <- v7 branch_prob=[[P:Pir_bsearch_batch_20_[0-9]+]]
// CHECK-NEXT: ICC:znver4: branch=1 {{.*}}instructions=10 {{.*}}uops.macro_fused=1
// CHECK: Stage @19 freq=(1 - [[P]]) <- v7
// CHECK-NEXT: ICC:znver4: branch=1 {{.*}}instructions=3 {{.*}}uops.macro_fused=1
// CHECK: Stage @19 freq=[[P]] <- v7
// CHECK-NEXT: ICC:znver4: branch=1 {{.*}}instructions=3 {{.*}}uops.macro_fused=1
// CHECK: function clamp_hist
// CHECK: param Pir_clamp_hist_35_15 default=0.500000 [static: estimated, select made a branch
// CHECK: IR-level SEG
// CHECK: Loop @33 ir-loop trip=umod(n, 8)
// CHECK: Stage @34
// CHECK-NEXT: ICC:znver4: branch=2 {{.*}}instructions=9 {{.*}}uops=10
// CHECK: Stage @34 freq=(1 - Pir_clamp_hist_35_15)
// CHECK-NEXT: ICC:znver4: branch=1 {{.*}}instructions=2 {{.*}}uops=2
