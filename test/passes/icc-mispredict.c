// ICC branch-misprediction term (docs/models.md ICC step 4): a block ending in
// a data-dependent branch that stays a conditional jump in the machine code
// gets the RUV key branch.cond.data and its probability (branch_prob); loop
// latches (exact conditions) and a vectorised loop's latch get neither.
// RUN: %clang -target x86_64-linux-gnu -O2 -march=x86-64-v3 \
// RUN:   -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet -fplugin-arg-segtime-targets=compile \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json --ir | FileCheck %s

// Floyd-Warshall: the relaxation's 'if' is data-dependent and a branch.
void floyd(int n, double *d) {
  for (int k = 0; k < n; k++)
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        if (d[i * n + k] + d[k * n + j] < d[i * n + j])
          d[i * n + j] = d[i * n + k] + d[k * n + j];
}

// A vectorised loop: its latches compare the index with n (exact).
void daxpy(int n, double a, const double *x, double *y) {
  for (int i = 0; i < n; i++)
    y[i] += a * x[i];
}

// CHECK-LABEL: function floyd
// Its default is the min-update idiom's H_N/N (d[i*n+j] is tested once per k).
// CHECK: param Pir_floyd_15_13 default={{.*}} [static: min-update idiom, H_N/N with N = n]
// The vector loop (masked stores: the 'if' became a select) has no term.
// CHECK: ir8 Loop @14 ir-loop {{.*}}[vectorised]
// CHECK-NOT: branch.cond.data
// CHECK: ir12 Loop @14 ir-loop trip=umod(n, 4)
// The scalar remainder loop (of the loop at line 14, by its llvm.loop location)
// and its 'if': still a conditional jump.
// CHECK-NEXT: ir13 Stage @15 <- v11 branch_prob=Pir_floyd_15_13
// CHECK-NEXT: ICC:x86-64-v3: branch=1 branch.cond.data=1 cycles=
// Vector loop latches (exact conditions on i and n) get no term.
// CHECK-LABEL: function daxpy
// CHECK-NOT: branch.cond.data
// CHECK-NOT: branch_prob
