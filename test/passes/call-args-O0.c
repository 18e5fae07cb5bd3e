// At -O0 the arguments of a call are loads of locals, which ScalarEvolution
// cannot express: the IR call takes the source call's arguments, with the
// indices of the enclosing source loops written as their IR loops'
// iteration numbers, innermost first (lo = 2*w*k with w = 2^k' itself an
// outer index), so merge's parameters are bound and the IR levels predict.
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin \
// RUN:   -fplugin-arg-segtime-quiet -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json --json | FileCheck %s
// RUN: %segtime predict %t.json --machine %costvectors/t800.yaml --function passes --level intcc \
// RUN:   -p n=64 --json | FileCheck %s --check-prefix=PRED

// The IR call's arguments lo, lo + w, lo + 2*w (w = 2^k2, lo = 2*w*k5):
// CHECK: "2*2^k_passes_ir2*k_passes_ir5",
// CHECK-NEXT: "2*2^k_passes_ir2*k_passes_ir5 + 2^k_passes_ir2",
// CHECK-NEXT: "2*2^k_passes_ir2*k_passes_ir5 + 2*2^k_passes_ir2"

// PRED: "INTCC"
// PRED: "call.merge":
// PRED-NOT: "error"

void merge(float *a, int lo, int mid, int hi) {
  for (int k = lo; k < hi; k++)
    a[k] = a[k] + (float)mid;
}

void passes(float *a, int n) {
  for (int w = 1; w < n; w *= 2)
    for (int lo = 0; lo < n; lo += 2 * w)
      merge(a, lo, lo + w, lo + 2 * w);
}
