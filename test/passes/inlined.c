// A static kernel called once from main is inlined at -O2: its optimised
// code is main's, and the kernel keeps its IR levels (INTCC, ICC) from the
// code of that call, written in its own parameters (the call's arguments
// were atoi results: main has no name for them). The scalar remainder of
// the vectorised inner loop is counted ((n - 2) less the vector part), so
// the 2-D Jacobi sweep needs only n and t. In main the code is attributed to
// the call and its kernel.n and kernel.t are bound to the call's arguments,
// argv1 and argv2, as the source level binds the call: main needs only them.
// The kernel's level refers to main's nodes (argv1, argv2 back to n, t).
// With no-inlined main is the same and kernel has no IR level.
// The objects stay the same.
// RUN: %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=compile -fplugin-arg-segtime-inlined \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=compile -fplugin-arg-segtime-no-inlined \
// RUN:   -fplugin-arg-segtime-out=%t-off.json -c %s -o %t-off.o
// RUN: %clang -target x86_64-linux-gnu -O2 -c %s -o %t-plain.o
// RUN: cmp %t.o %t-plain.o
// RUN: cmp %t-off.o %t-plain.o
// RUN: %segtime show %t-off.json --json --function main > %t-off.txt
// RUN: %segtime show %t.json --json --function main | diff - %t-off.txt
// RUN: %segtime show %t-off.json --ir --function kernel | FileCheck %s --check-prefix=OFF
// RUN: %segtime predict %t.json --machine %inputs/icc-machine.yaml --function main \
// RUN:   --level icc,intcc -p argv1=100 -p argv2=2 --json | FileCheck %s --check-prefix=PRED
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
// CHECK-NEXT: inlined call 1 at {{.*}}inlined.c:45:3 (in 'main'): its nodes ir{{[0-9]+}}
// CHECK: Loop @33 ir-loop trip=t {{.*}}<- v2
// CHECK: ICC:
// CHECK: Loop @34 ir-loop trip=n - 2 {{.*}}<- v5
// The vector loop, then the scalar remainder of n - 2:
// CHECK: Loop @0 ir-loop trip=1 + idiv(-4 + 4*idiv(n - 2, 4), 4)
// CHECK: Loop @35 ir-loop trip=n + (-1 + cmp_lt(n - 2, 4))*(1 + 4*idiv(n - 2, 4)) - 1 - cmp_lt(n - 2, 4) {{.*}}<- v8
// CHECK: Stage @36 <- v10
// CHECK-NEXT: ICC:x86-64: {{.*}}instructions=

// MAIN: function main
// MAIN-NOT: param N_main
// MAIN: IR-level SEG (-O2):
// The call's code, attributed to the call (main's v10), in main's names:
// MAIN-NOT: kernel.
// MAIN: Loop @33 ir-loop trip=argv2 {{.*}}<- v10
// MAIN-NOT: kernel.
// MAIN: Loop @34 ir-loop trip=argv1 - 2 {{.*}}<- v10
// MAIN-NOT: kernel.

// OFF: function kernel
// OFF-NOT: IR-level SEG

// PRED: "ICC"
// PRED: "instructions":
// PRED: "INTCC"
// PRED-NOT: "error"

// main's prediction is the same with and without the option, at every level:
// the functions with no code of their own are predicted apart.
// RUN: %segtime predict %t-off.json --machine %inputs/icc-machine.yaml --function main \
// RUN:   --level all -p argv1=100 -p argv2=2 --json > %t-main-off.json
// RUN: %segtime predict %t.json --machine %inputs/icc-machine.yaml --function main \
// RUN:   --level all -p argv1=100 -p argv2=2 --json > %t-main-on.json
// RUN: diff %t-main-off.json %t-main-on.json
// RUN: %segtime predict %t.json --machine %inputs/icc-machine.yaml --level all \
// RUN:   -p argv1=100 -p argv2=2 -p n=100 -p t=2 --json | FileCheck %s --check-prefix=BOTH
// BOTH: "name": "kernel"
// BOTH: "INTCC"
// BOTH: "name": "main"
