// A static kernel called once from main is inlined at -O2: its optimised
// code is main's, and the kernel keeps its IR levels (INTCC, ICC) from the
// code of that call, written in its own parameters (the call's arguments
// were atoi results: main has no name for them). The scalar remainder of
// the vectorised inner loop is counted ((n - 2) less the vector part), so
// the 2-D Jacobi sweep needs only n and t; main's copy names them kernel.n
// and kernel.t and is attributed to the call. The objects stay the same.
// RUN: %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=compile -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %clang -target x86_64-linux-gnu -O2 -c %s -o %t-plain.o
// RUN: cmp %t.o %t-plain.o
// RUN: %segtime show %t.json --ir --function kernel | FileCheck %s
// RUN: %segtime show %t.json --ir --function main | FileCheck %s --check-prefix=MAIN
// RUN: %segtime predict %t.json --machine %inputs/icc-machine.yaml --function kernel \
// RUN:   --level icc,intcc -p n=100 -p t=2 --json | FileCheck %s --check-prefix=PRED
#include <stdlib.h>

static void kernel(int n, int t, double *u, double *v) {
  for (int s = 0; s < t; s++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        v[i * n + j] = 0.2 * (u[(i - 1) * n + j] + u[(i + 1) * n + j] + u[i * n + j - 1] +
                              u[i * n + j + 1] + u[i * n + j]);
}

int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  int t = atoi(argv[2]);
  double *u = calloc((size_t)n * n, sizeof *u);
  double *v = calloc((size_t)n * n, sizeof *v);
  kernel(n, t, u, v);
  return (int)v[n + 1];
}

// CHECK: function kernel
// CHECK-NOT: param N_
// CHECK: IR-level SEG (-O2):
// CHECK: Loop @19 ir-loop trip=t {{.*}}<- v2
// CHECK: ICC:
// CHECK: Loop @20 ir-loop trip=n - 2 {{.*}}<- v5
// The vector loop, then the scalar remainder of n - 2:
// CHECK: Loop @0 ir-loop trip=1 + idiv(-4 + 4*idiv(n - 2, 4), 4)
// CHECK: Loop @21 ir-loop trip=n + (-1 + cmp_lt(n - 2, 4))*(1 + 4*idiv(n - 2, 4)) - 1 - cmp_lt(n - 2, 4) {{.*}}<- v8
// CHECK: Stage @22 <- v10
// CHECK-NEXT: ICC:x86-64: {{.*}}instructions=

// MAIN: function main
// MAIN-NOT: param N_main
// MAIN: IR-level SEG (-O2):
// The call's code, attributed to the call (main's v10):
// MAIN: Loop @19 ir-loop trip={{.*}}kernel.t{{.*}} <- v10
// MAIN: Loop @20 ir-loop trip={{.*}}kernel.n{{.*}} <- v10

// PRED: "ICC"
// PRED: "instructions":
// PRED: "INTCC"
// PRED-NOT: "error"
