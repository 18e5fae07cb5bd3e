// A kernel inlined into main whose code calls a function of its own file
// with a loop (integrate's simpson and its sum_points, a canonical loop of
// step 2): that loop, inlined through the kernel into main, is the kernel's
// code, not a loop of main around it (its line is outside the kernel's
// source but inside a function the kernel calls), and its count is in the
// kernel's n although main rounds n up to even first (nt += nt % 2:
// ScalarEvolution looks through the rounded value, trunc(nt) + (nt & 1),
// the recorded argument, which is written by its name):
// RUN: %clang -target x86_64-linux-gnu -march=znver4 -mno-avx512f -O2 -fplugin=%segtime_plugin \
// RUN:   -fplugin-arg-segtime-quiet -fplugin-arg-segtime-targets=compile \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json --ir --function simpson | FileCheck %s
// RUN: %segtime predict %t.json --function simpson --level intcc -p n=2000 \
// RUN:   | FileCheck %s --check-prefix=PRED
#include <stdlib.h>

double sum_points(double a, double h, int first, int n)
{
    double s = 0.0;
    for (int i = first; i < n; i += 2)
        s += a + i * h;
    return s;
}

static inline __attribute__((always_inline)) double simpson(double a, double b, int n)
{
    double h = (b - a) / n;
    return h * (4.0 * sum_points(a, h, 1, n) + 2.0 * sum_points(a, h, 2, n));
}

volatile double sink;

int main(int argc, char **argv)
{
    long nt = argc > 1 ? strtol(argv[1], NULL, 10) : 2000;
    if (nt < 2)
        nt = 2;
    if (nt > (1L << 30))
        nt = 1L << 30;
    nt += nt % 2;
    int n = (int)nt;
    for (int r = 0; r < 3; r++)
        sink = simpson(0.0, 1.0, n);
    return 0;
}

// CHECK: IR-level SEG
// CHECK: inlined call 1 at {{.*}}:43:16 (in 'main')
// CHECK: Loop @20 ir-loop trip=1 + idiv(n - 2, 2)
// CHECK: Loop @20 ir-loop trip=1 + idiv(n - 3, 2)
// CHECK-NOT: N_simpson
// PRED: simpson
// PRED-NOT: missing
// PRED: INTCC t = {{.*}}idiv(n - 2, 2){{.*}}idiv(n - 3, 2)
