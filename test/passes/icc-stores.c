// Scalar FP stores off the FP load pipes (passes/IccBlockCoster.cpp
// storeOffLoadPipes, docs/models.md "ICC" 4e). LLVM 19 schedules znver5 with
// the Zen 4 model, which gives every FP store a cycle of the two FP load
// pipes (Zn4FP45) besides its store pipe (Zn4FPSt): a loop of two FP loads
// and one store came out at 1.5 cycles per iteration. For znver5 a store of
// at most 8 bytes (vmovsd) keeps the store pipe only: 1 cycle (the store
// pipe and the two loads on the two load pipes). Vector stores (the
// vectorised loop's vmovupd) and znver4 keep the model's cycles.
// RUN: %clang -target x86_64-linux-gnu -march=znver5 -O2 -fno-unroll-loops \
// RUN:   -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=znver5 \
// RUN:   -fplugin-arg-segtime-out=%t.5.json -c %s -o %t.5.o
// RUN: %segtime show %t.5.json --ir --function colupdate | FileCheck --check-prefix=ZEN5 %s
// RUN: %clang -target x86_64-linux-gnu -march=znver4 -O2 -fno-unroll-loops \
// RUN:   -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=znver4 \
// RUN:   -fplugin-arg-segtime-out=%t.4.json -c %s -o %t.4.o
// RUN: %segtime show %t.4.json --ir --function colupdate | FileCheck --check-prefix=ZEN4 %s

void colupdate(int n, int ld, double a, const double *x, double *y) {
  for (int i = 0; i < n; i++)
    y[i * ld] += a * x[i * ld];
}
// The vectorised version (ld = 1): vmovupd stores, the model's cycles.
// ZEN5: Loop @[[#@LINE-4]] ir-loop {{.*}}[vectorised]
// ZEN5: ICC:znver5: branch=1 cycles=1.5 instructions=6 mem.load=2 mem.store=1 rthroughput=1.5 uops=6
// The scalar loop (any ld): vmovsd stores.
// ZEN5: Loop @[[#@LINE-7]] ir-loop
// ZEN5: ICC:znver5: branch=1 cycles=1 instructions=6 mem.load=2 mem.store=1 rthroughput=1 uops=6
// ZEN4: Loop @[[#@LINE-9]] ir-loop {{.*}}[vectorised]
// ZEN4: ICC:znver4: branch=1 cycles=1.5 instructions=6 mem.load=2 mem.store=1 rthroughput=1.5 uops=6
// ZEN4: Loop @[[#@LINE-11]] ir-loop
// ZEN4: ICC:znver4: branch=1 cycles=1.5 instructions=6 mem.load=2 mem.store=1 rthroughput=1.5 tp.fp.fma=1
