// Port-bound classes of loop blocks (passes/IccChains.cpp addPortClass,
// docs/models.md "ICC" 4c): the class of instructions whose scheduling-model
// resource cycles bind the block's reciprocal throughput, the bound without
// them and the other instructions' share of the class's resource. LLVM 19's Zen 4 model (znver4, znver5) gives a scalar FMA
// one cycle of one of its two FMA pipes (the cores issue two per cycle) and
// cvttss2si 2.5 cycles: Horner's loop (one load-op FMA per iteration) and a
// float-to-int conversion loop are bound by them; a sum's loop (its fp adds
// at 0.5 cycle) by nothing of a class, nor a vectorised loop (packed forms
// are not classed: the calibration measures scalar ones).
// RUN: %clang -target x86_64-linux-gnu -march=znver4 -O2 -fno-unroll-loops \
// RUN:   -fno-vectorize -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=znver4 \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json --ir --function horner | FileCheck --check-prefix=HORNER %s
// RUN: %segtime show %t.json --ir --function quantise | FileCheck --check-prefix=CVT %s
// RUN: %segtime show %t.json --ir --function sum | FileCheck --check-prefix=SUM %s
// RUN: %clang -target x86_64-linux-gnu -march=znver4 -O2 -fno-unroll-loops \
// RUN:   -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=znver4 \
// RUN:   -fplugin-arg-segtime-out=%t.vec.json -c %s -o %t.vec.o
// RUN: %segtime show %t.vec.json --ir --function axpy | FileCheck --check-prefix=VEC %s

double horner(int d, double x, const double *c) {
  double s = c[d];
  for (int j = d - 1; j >= 0; j--)
    s = s * x + c[j];
  return s;
}
// HORNER: Loop @[[#@LINE-4]] ir-loop
// HORNER: rthroughput=1 tp.fp.fma=1 tp.rest=0.666667 tp.shared=0

void quantise(int n, float scale, const float *x, int *q) {
  for (int i = 0; i < n; i++)
    q[i] = (int)(x[i] * scale);
}
// CVT: Loop @[[#@LINE-3]] ir-loop
// CVT: rthroughput=2.5 tp.fp.cvt=1 tp.rest=1.16667 tp.shared=0

double sum(int n, const double *a) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}
// SUM: Loop @[[#@LINE-4]] ir-loop
// SUM-NOT: tp.

void axpy(int n, double a, const double *x, double *y) {
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}
// VEC: Loop @[[#@LINE-3]] ir-loop {{.*}}[vectorised]
// VEC: ICC:znver4: branch=1 cycles=1.5 instructions=6 mem.load=2 mem.store=1 rthroughput=1.5 uops=6
// VEC: Loop @[[#@LINE-5]] ir-loop
// VEC: tp.fp.fma=1 tp.rest=1 tp.shared=1
