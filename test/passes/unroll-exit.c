// A runtime-unrolled loop (Gauss-Seidel: the in-place update keeps the j
// loop scalar, unrolled by 4 with a remainder loop after it). Code
// generation splits the unrolled loop's exit edge and duplicates the
// remainder test into it: that machine code runs once per execution of the
// loop, with the block the loop exits to, not once per unrolled iteration.
// callgrind counts 25398 instructions at n = 40, steps = 2 (the block
// charged per iteration gave 33606, +32 %).
// RUN: %clang -target x86_64-linux-gnu -march=znver3 -O2 -fplugin=%segtime_plugin \
// RUN:   -fplugin-arg-segtime-quiet -fplugin-arg-segtime-targets=compile \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json --ir --function gs | FileCheck %s
// RUN: %segtime predict %t.json --machine %costvectors/znver3-epyc.yaml --function gs \
// RUN:   --level icc -p n=40 -p steps=2 --json | FileCheck %s --check-prefix=PRED

void gs(int n, int steps, const double *f, double *u) {
  for (int t = 0; t < steps; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        u[i * n + j] = 0.25 * (u[(i - 1) * n + j] + u[(i + 1) * n + j] + u[i * n + j - 1] +
                               u[i * n + j + 1] - f[i * n + j]);
}

// The unrolled body: its own 31 instructions (4 updates, the counter, the
// test); the remainder test after it runs on the loop's exit edge, once per
// execution of the loop (the row that skips the loop has its own copy of
// that test), the exit block its preheader.
// CHECK: Loop @18 ir-loop trip=1 + idiv(-4 + 4*idiv(n - 2, 4), 4)
// CHECK-NEXT: Stage @19
// CHECK: ICC:znver3: {{.*}} instructions=31 {{.*}}
// CHECK: Stage @18 freq=(1 - cmp_lt({{.*}}, 3))
// CHECK: ICC:znver3: {{.*}} instructions=3 {{.*}}
// CHECK: Stage @18
// CHECK: ICC:znver3: {{.*}} instructions=10 {{.*}}
// CHECK: Loop @18 ir-loop trip=umod(-2 + umod(n, 4), 4)

// callgrind's 25398 exactly (25702, +1.2 %, while the row's "fewer than 4
// iterations" side, with the remainder's tests duplicated into it, was
// charged on every row: it now runs as often as its IR edge).
// PRED: "instructions": 25398.0,
