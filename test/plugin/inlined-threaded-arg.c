// A kernel inlined where its argument's value is split by path: main's
// `n = argc > 1 ? atoi(argv[1]) : 40; if (n < 3) n = 512;` is jump-threaded
// after inlining (the path with the constant 40 skips the test), so the
// value the kernel's code uses is a new phi of the recorded argument value
// and the constant. The phi takes the argument's name at that call: the
// kernel's inlined code is in n and steps, not in main's argc.
// The harness of the examples with the kernel always inlined (as
// scripts/inline_counts.py makes it) and jacobi's default size 40:
// RUN: rm -rf %t.d && mkdir -p %t.d/examples
// RUN: sed 's/^#define SEGTIME_KERNEL .*/#define SEGTIME_KERNEL static inline __attribute__((always_inline))/' \
// RUN:   %S/../../examples/segtime_bench.h > %t.d/examples/segtime_bench.h
// RUN: sed 's/atoi(argv\[1\]) : 512;/atoi(argv[1]) : 40;/' %S/../../examples/jacobi.c \
// RUN:   > %t.d/examples/jacobi.c
// RUN: %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=compile -fplugin-arg-segtime-out=%t.json \
// RUN:   -c %t.d/examples/jacobi.c -o %t.o
// RUN: %segtime show %t.json --ir --function jacobi | FileCheck %s
// RUN: %segtime predict %t.json --machine %inputs/icc-machine.yaml --function jacobi \
// RUN:   --level icc -p n=40 -p steps=2 2>&1 | FileCheck %s --check-prefix=PREDICT

// CHECK: function jacobi
// CHECK: Loop @26 ir-loop trip=steps
// CHECK-NOT: argc

// PREDICT: ICC
// PREDICT-NOT: missing
// PREDICT-NOT: argc
