// A machine block on the way from a block to the code of a block that
// emitted none (the preheader of a vectorised loop's scalar remainder: the
// vector loop's "fewer than 16 iterations" jump goes straight to the scalar
// loop) runs as often as the IR edge into that empty block, not every time
// its source runs: dger inlined into a loop of main, its rows' test of n.
// RUN: %clang -target x86_64-linux-gnu -march=znver4 -mno-avx512f -O2 -fplugin=%segtime_plugin \
// RUN:   -fplugin-arg-segtime-quiet -fplugin-arg-segtime-targets=compile \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json --ir --function main | FileCheck %s

#include <stdlib.h>

static inline __attribute__((always_inline)) void dger(int m, int n, double alpha, const double *x,
                                                        const double *y, double *a)
{
    for (int i = 0; i < m; i++) {
        double ax = alpha * x[i];
        for (int j = 0; j < n; j++)
            a[i * n + j] += ax * y[j];
    }
}

int main(int argc, char **argv)
{
    int m = argc > 1 ? atoi(argv[1]) : 60;
    int n = argc > 2 ? atoi(argv[2]) : 50;
    double *a = calloc((size_t)m * n, sizeof *a);
    double *x = calloc((size_t)m, sizeof *x);
    double *y = calloc((size_t)n, sizeof *y);
    for (int r = 0; r < argc + 2; r++)
        dger(m, n, 1e-6, x, y, a);
    return (int)a[0];
}

// CHECK: IR-level SEG
// CHECK: Loop @16 ir-loop
// CHECK: [[B:ir[0-9]+]] Stage @18 freq=cmp_lt(0, {{.*}})
// CHECK-NEXT: ICC:znver4: branch=1 {{.*}}instructions=2
// CHECK-NEXT: INTCC:
// CHECK-NEXT: [[B]]e{{ir[0-9]+}} Stage @18 freq=cmp_lt(0, {{.*}})*cmp_lt({{.*}}, 16)
// CHECK-NEXT: ICC:znver4: branch=1 {{.*}}instructions=2
