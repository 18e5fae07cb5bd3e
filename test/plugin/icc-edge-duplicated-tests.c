// A machine block of code generation's own with two successors on one side
// of its block's conditional jump (gs_poisson's row: the unrolled loop's
// "fewer than 8 iterations" side, with the remainder's tests duplicated
// into it) runs as often as the IR edge that side takes, not on every
// row: the row's own block keeps its 6 instructions, the 4 of that side go
// on the edge with its frequency (n - 3 < 7).
// RUN: %clang -target x86_64-linux-gnu -march=znver4 -mno-avx512f -O2 -fplugin=%segtime_plugin \
// RUN:   -fplugin-arg-segtime-quiet -fplugin-arg-segtime-targets=compile \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json --ir | FileCheck %s

void gs_poisson(int n, int steps, const double *f, double *u)
{
    for (int t = 0; t < steps; t++)
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < n - 1; j++)
                u[i * n + j] = 0.25 * (u[(i - 1) * n + j] + u[(i + 1) * n + j] +
                                       u[i * n + j - 1] + u[i * n + j + 1] - f[i * n + j]);
}

// CHECK: IR-level SEG
// CHECK: Loop @15 ir-loop trip=n - 2
// CHECK-NEXT: [[B:ir[0-9]+]] Stage @15
// CHECK-NEXT: ICC:znver4: branch=1 {{.*}}instructions=6 {{.*}}
// CHECK-NEXT: INTCC:
// CHECK-NEXT: [[B]]e{{ir[0-9]+}} Stage @15 freq=cmp_lt((-2 + (-1 + n)), 7)
// CHECK-NEXT: ICC:znver4: branch=2 {{.*}}instructions=4 {{.*}}
