// A loop the runtime unroller splits once its kernel is inlined (cholesky's
// outer loop, unrolled by 2 with its bound known to be main's n): plain
// ScalarEvolution has no count for the unrolled part, its predicated
// analysis has one with nothing to assume; that count is exact and is the
// loop's trip, not an uncounted N_cholesky_rl_13.
// (The unroller's choice depends on the CPU: znver4, as -march=native on
// the EPYC machines.) The validation harness with the kernel always inlined (as
// scripts/inline_counts.py makes it) and the default size 48:
// RUN: rm -rf %t.d && mkdir -p %t.d/examples %t.d/validation
// RUN: sed 's/^#define SEGTIME_KERNEL .*/#define SEGTIME_KERNEL static inline __attribute__((always_inline))/' \
// RUN:   %S/../../examples/segtime_bench.h > %t.d/examples/segtime_bench.h
// RUN: cp %S/../../validation/valset.h %t.d/validation/valset.h
// RUN: sed 's/vs_arg(argc, argv, 1, 300)/vs_arg(argc, argv, 1, 48)/' \
// RUN:   %S/../../validation/cholesky_rl.c > %t.d/validation/cholesky_rl.c
// RUN: %clang -target x86_64-linux-gnu -march=znver4 -mno-avx512f -O2 -fplugin=%segtime_plugin \
// RUN:   -fplugin-arg-segtime-quiet -fplugin-arg-segtime-targets=compile \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %t.d/validation/cholesky_rl.c -o %t.o
// RUN: %segtime show %t.json --ir --function cholesky_rl | FileCheck %s
// The odd remainder iteration after the unrolled loop (the loops at lines
// 16, 18, 20 once more) starts where the unrolled counter left off: its
// counts use that counter's exit value, not the unrolled loop's iteration
// number, and the timed call (site 2) is predicted with n alone:
// RUN: %segtime show %t.json --ir --function main | FileCheck %s --check-prefix=REM
// RUN: %segtime predict %t.json --function cholesky_rl --level intcc -p n=48 --site 2 \
// RUN:   | FileCheck %s --check-prefix=SITE

// CHECK: function cholesky_rl
// CHECK: Loop @13 ir-loop trip=1 + idiv(n - 2 - umod(n, 2), 2)
// CHECK-NOT: N_cholesky_rl_13

// REM: ir-loop trip=1 + idiv(cholesky_rl.n - 2 - umod(cholesky_rl.n, 2), 2) index=[[K:k_main_ir[0-9]+]]
// REM: Loop @16 ir-loop trip=cholesky_rl.n + (-1 + cmp_eq(cholesky_rl.n, 1))*(2*idiv(cholesky_rl.n - 2 - umod(cholesky_rl.n, 2), 2) + 3)
// SITE: cholesky_rl
// SITE-NOT: missing
// SITE: INTCC t =
