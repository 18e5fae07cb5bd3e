// A branch on `a && b` that code generation splits into two jumps: the second
// test runs only when the first does not decide, a stage run Pir_..._first times
// (the first test true: estimated 1/2, data; docs/models.md "second tests"). The
// vectorised inner loop's check that x and l overlap (two bounds, and-ed) is a
// jump after the first bound (5 instructions) and a second test of 3; the vector
// loop runs unless the checks find an overlap, (1 - Pov_trsv_col_19_9_c2).
// RUN: %clang -target x86_64-linux-gnu -march=znver4 -mno-avx512f -O2 -fplugin=%segtime_plugin \
// RUN:   -fplugin-arg-segtime-quiet -fplugin-arg-segtime-targets=compile \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json --ir | FileCheck %s

void trsv_col(int n, const double *l, const double *b, double *x)
{
    for (int i = 0; i < n; i++)
        x[i] = b[i];
    for (int j = 0; j < n; j++) {
        double xj = x[j] / l[j * n + j];
        x[j] = xj;
        for (int i = j + 1; i < n; i++)
            x[i] -= l[i * n + j] * xj;
    }
}

// CHECK: IR-level SEG
// CHECK: Loop @16 ir-loop trip=n
// CHECK: Stage @19 freq=cmp_lt((1 + 1*k_trsv_col_ir15), n)
// CHECK-NEXT: ICC:znver4: branch=1 {{.*}}instructions=6 {{.*}}
// CHECK-NEXT: INTCC
// CHECK-NEXT: Stage @19 freq=(1 - cmp_lt(((-1 + n) + -1*k_trsv_col_ir15), 4))
// CHECK-NEXT: ICC:znver4: branch=1 {{.*}}instructions=5 {{.*}}uops.macro_fused=1
// CHECK-NEXT: INTCC
// CHECK-NEXT: Stage @19 freq=((1 - cmp_lt(((-1 + n) + -1*k_trsv_col_ir15), 4))*cmp_lt((1 + 1*k_trsv_col_ir15), n))*Pir_trsv_col_19_9_first
// CHECK-NEXT: ICC:znver4: branch=1 {{.*}}instructions=3 {{.*}}uops.macro_fused=1
// CHECK-NEXT: Stage @19 freq=(1 - Pov_trsv_col_19_9_c2)*
