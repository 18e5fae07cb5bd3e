// The 2-D five-point Jacobi sweep as a kernel of its own at -O2 (plain and
// AVX2): the vectorised j loop, its minimum-iteration and alias checks,
// and the scalar remainder of (n - 2) by the vector width and unroll factor
// (umod for the narrow remainder counter) are all counted, so the kernel
// needs only n and t. ICC instructions equal callgrind's for the kernel
// (44483 at n = 50, t = 3 plain; 17999 with -march=znver3).
// RUN: %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=compile -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json --ir --function kernel | FileCheck %s
// RUN: %segtime predict %t.json --machine %costvectors/znver3-epyc.yaml --function kernel \
// RUN:   --level icc -p n=50 -p t=3 --json | FileCheck %s --check-prefix=PLAIN
// RUN: %clang -target x86_64-linux-gnu -O2 -march=znver3 -fplugin=%segtime_plugin \
// RUN:   -fplugin-arg-segtime-quiet -fplugin-arg-segtime-targets=compile \
// RUN:   -fplugin-arg-segtime-out=%t-avx.json -c %s -o %t-avx.o
// RUN: %segtime show %t-avx.json --ir --function kernel | FileCheck %s --check-prefix=AVX
// RUN: %segtime predict %t-avx.json --machine %costvectors/znver3-epyc.yaml --function kernel \
// RUN:   --level icc -p n=50 -p t=3 --json | FileCheck %s --check-prefix=AVXPRED

void kernel(int n, int t, double *u, double *v) {
  for (int s = 0; s < t; s++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        v[i * n + j] = 0.2 * (u[(i - 1) * n + j] + u[(i + 1) * n + j] + u[i * n + j - 1] +
                              u[i * n + j + 1] + u[i * n + j]);
}

// CHECK-NOT: param N_
// CHECK: param Pov_kernel_22_7 default=0.000000 [static: estimated, alias check
// CHECK: IR-level SEG (-O2):
// The row loop around the vectorised j loop is not itself vectorised.
// CHECK: Loop @21 ir-loop trip=n - 2 index=k_kernel_ir{{[0-9]+}} freq=
// The vector loop (4 x 2 lanes, from the minimum-iteration check's exact
// condition, unless the alias checks find u and v overlapping: the
// indicator Pov_kernel_22_7, estimated 0), then the scalar remainder: all
// n - 2 if a check fails.
// CHECK: Loop @0 ir-loop trip=1 + idiv(-4 + 4*idiv(n - 2, 4), 4) {{.*}}freq=(1 - cmp_lt((-1 + (-1 + n)), 4))*(1 - Pov_kernel_22_7)
// CHECK: Loop @22 ir-loop trip=(-1 + cmp_lt(n - 2, 4))*(Pov_kernel_22_7 - 1) - (-1 + cmp_lt(n - 2, 4))*(1 + 4*idiv(n - 2, 4))*(Pov_kernel_22_7 - 1) + n - 2 
// PLAIN: "instructions": 44483.0,

// AVX-NOT: param N_
// AVX: IR-level SEG (-O2):
// AVX: Loop @22 ir-loop trip=umod(
// AVXPRED: "instructions": 17999.0,
