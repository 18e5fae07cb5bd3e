// Vector loads across a cache line (passes/IccChains.cpp addSplitLoads,
// splitLoadShare; docs/models.md "ICC" 4f). A 32-byte load at displacement d
// from a base taken 16-byte aligned crosses a 64-byte line in 1/4 of its
// executions when d is a multiple of 16, else in 1/2. The 3-point filter's
// vector loop loads in[j + 1 ..] (vmovups at displacement 8) and
// in[j - 1 ..] (folded into vaddps at displacement 0; in[j ..] comes from
// the two by shuffles): s = 1/2 + 1/4 = 0.75 expected crossing loads per
// iteration; the shared cycles are the rest of the loads' on the model's
// FP load pipes, (2 - 0.75) / 2, the store left out. A 16-byte vector at multiples
// of 16 never crosses (the SSE loop: no key), nor does a scalar loop.
// RUN: %clang -target x86_64-linux-gnu -march=znver5 -mno-avx512f -O2 -fno-unroll-loops \
// RUN:   -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=znver5 \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json --ir --function box3 | FileCheck --check-prefix=BOX %s
// RUN: %segtime show %t.json --ir --function scalar3 | FileCheck --check-prefix=SCALAR %s
// RUN: %clang -target x86_64-linux-gnu -march=x86-64 -O2 -fno-unroll-loops \
// RUN:   -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=znver5 \
// RUN:   -fplugin-arg-segtime-out=%t.sse.json -c %s -o %t.sse.o
// RUN: %segtime show %t.sse.json --ir --function scale | FileCheck --check-prefix=SSE %s

void box3(int n, const float *restrict in, float *restrict out) {
  for (int j = 1; j < n - 1; j++)
    out[j] = in[j - 1] + in[j] + in[j + 1];
}
// BOX: Loop @[[#@LINE-3]] ir-loop {{.*}}[vectorised]
// BOX: ICC:znver5: {{.*}}mem.load=2 mem.store=1 {{.*}}tp.load.split=0.75 tp.load.split.shared=0.625 uops=

void scalar3(int n, const double *restrict in, double *restrict out) {
#pragma clang loop vectorize(disable)
  for (int j = 1; j < n - 1; j++)
    out[j] = in[j - 1] + in[j] + in[j + 1];
}
// SCALAR: Loop @[[#@LINE-3]] ir-loop
// SCALAR-NOT: tp.load.split

void scale(int n, const float *restrict in, float *restrict out) {
  for (int i = 0; i < n; i++)
    out[i] = 2.f * in[i];
}
// SSE: Loop @[[#@LINE-3]] ir-loop {{.*}}[vectorised]
// SSE-NOT: tp.load.split
