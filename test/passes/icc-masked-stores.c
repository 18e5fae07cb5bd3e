// Masked vector stores of loop blocks (passes/IccChains.cpp addMaskedStores,
// docs/models.md "ICC" 4c): an if-converted store at AVX2 (-mno-avx512f)
// becomes vmaskmovps, which LLVM 19's Zen 4 model (znver4, znver5) prices as
// a microcoded sequence (42 micro-ops, 12 cycles of the store unit per ymm
// store): it binds the block, and the plugin records the masked stores, the
// bound without them (one micro-op each) and the other instructions' share
// of the store unit. Masked loads (vmaskmovps from memory: one micro-op in
// the model) are no masked store, and a select of the stored value (a
// masked load, a blend and an ordinary store) has none. The loop's vector
// load of b (vmovups at a multiple of 16 bytes) crosses a line in an
// expected quarter of its executions (tp.load.split, docs/models.md "ICC"
// 4f); the masked stores' microcode is not in the load pipes' share.
// RUN: %clang -target x86_64-linux-gnu -march=znver4 -mno-avx512f -O2 -fno-unroll-loops \
// RUN:   -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=znver4 \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json --ir --function select_store | FileCheck --check-prefix=STORE %s
// RUN: %segtime show %t.json --ir --function masked_copy | FileCheck --check-prefix=COPY %s
// RUN: %segtime show %t.json --ir --function blend | FileCheck --check-prefix=BLEND %s

void select_store(int n, const float *restrict b, float *restrict a) {
  for (int i = 0; i < n; i++)
    if (b[i] > 0.f)
      a[i] = b[i];
}
// STORE: Loop @[[#@LINE-3]] ir-loop {{.*}}[vectorised]
// STORE: ICC:znver4: branch=1 cycles=12 instructions=6 mem.load=2 mem.store=1 rthroughput=12 tp.load.split=0.25 tp.load.split.shared=0.375 tp.store.masked=1 tp.store.masked.rest=1 tp.store.masked.shared=0 uops=47

void masked_copy(int n, const int *restrict c, const float *restrict b, float *restrict a) {
  for (int i = 0; i < n; i++)
    if (c[i])
      a[i] = b[i] * 2.f;
}
// COPY: Loop @[[#@LINE-3]] ir-loop {{.*}}[vectorised]
// COPY: ICC:znver4: {{.*}}mem.load=3 mem.store=1 rthroughput=12 tp.load.split=0.25 tp.load.split.shared=0.875 tp.store.masked=1 tp.store.masked.rest=1.33333 tp.store.masked.shared=0 uops=49

void blend(int n, const float *restrict b, float *restrict a) {
  for (int i = 0; i < n; i++)
    a[i] = b[i] > 0.f ? b[i] : a[i];
}
// BLEND: Loop @[[#@LINE-2]] ir-loop {{.*}}[vectorised]
// BLEND-NOT: tp.store.masked
