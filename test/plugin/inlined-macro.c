// A kernel inlined at a call that shares its location with other calls of
// functions of the file: a benchmark macro's timer calls around the kernel's
// call all carry the macro's location. Each callee's arguments are kept
// apart, so the kernel's inlined code is written in its own parameter (n),
// not left uncounted or named after the timer's parameter.
// RUN: %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=compile -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json --ir --function scale | FileCheck %s
// RUN: %segtime predict %t.json --machine %inputs/icc-machine.yaml --function scale \
// RUN:   --level icc -p n=100 | FileCheck %s --check-prefix=PREDICT
#include <stdlib.h>

__attribute__((noinline)) int stamp(int r) { return r * 3 + 1; }

static void scale(int n, double *x) {
  for (int i = 0; i < n; i++)
    x[i] *= 2.0;
}

#define BENCH(call, r) do { sink += stamp(r); call; sink += stamp(r + 1); } while (0)

volatile int sink;

int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  int r = atoi(argv[2]);
  double *x = calloc((size_t)n, sizeof *x);
  BENCH(scale(n, x), r);
  return (int)x[1];
}

// CHECK: function scale
// CHECK: Loop @16 ir-loop trip=1 + idiv(n - 4 - umod(n, 4), 4) index={{.*}} [vectorised]
// CHECK: Loop @16 ir-loop trip=umod(n, 4)
// CHECK-NOT: stamp.
// CHECK-NOT: N_

// PREDICT: ICC
// PREDICT-NOT: missing
