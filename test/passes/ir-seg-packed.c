// The IR SEGs that wait for the compile's own code generation are held
// packed (passes/IRSeg.h, packSeg): the .seg.json is byte-identical to the
// one written with them held as nodes (-mllvm -segtime-unpacked-ir-segs),
// at -O2 and -O0, with the compile's target recorded and another target
// from a clone (attached while the IR SEGs are packed), on loops with
// memory streams, a data-dependent branch, a switch, calls and a loop of
// unknown trip count.
// RUN: %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=compile,znver4 -fplugin-arg-segtime-out=%t-p2.json -c %s -o %t-p2.o
// RUN: %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=compile,znver4 -mllvm -segtime-unpacked-ir-segs \
// RUN:   -fplugin-arg-segtime-out=%t-u2.json -c %s -o %t-u2.o
// RUN: cmp %t-p2.json %t-u2.json
// RUN: cmp %t-p2.o %t-u2.o
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=compile -fplugin-arg-segtime-out=%t-p0.json -c %s -o %t-p0.o
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=compile -mllvm -segtime-unpacked-ir-segs \
// RUN:   -fplugin-arg-segtime-out=%t-u0.json -c %s -o %t-u0.o
// RUN: cmp %t-p0.json %t-u0.json
// The packed IR SEGs come back whole: both ICC levels, the memory streams,
// the data-dependent branch's probability.
// RUN: %segtime show %t-p2.json --ir --function stencil | FileCheck %s --check-prefix=STENCIL
// STENCIL: function stencil
// STENCIL: ICC:x86-64
// STENCIL: ICC:znver4
// RUN: %segtime show %t-p2.json --json | FileCheck %s --check-prefix=JSON
// JSON: "streams"
// JSON: "branch_prob"

void use(double);

void stencil(int n, double *restrict a, const double *restrict b) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      a[i * n + j] = 0.25 * (b[(i - 1) * n + j] + b[(i + 1) * n + j] + b[i * n + j - 1] +
                             b[i * n + j + 1]);
}

int clip(int n, const int *x) {
  int s = 0;
  for (int i = 0; i < n; i++) {
    if (x[i] > 100)
      use(x[i] * 3);
    else
      s -= x[i];
  }
  return s;
}

double pick(int k, double v) {
  switch (k) {
  case 0: return v;
  case 1: return v * 2;
  case 2: return v * v;
  case 3: return -v;
  default: use(v); return 0;
  }
}

int collatz(unsigned long v) {
  int c = 0;
  while (v != 1) {
    v = v & 1 ? 3 * v + 1 : v / 2;
    c++;
  }
  use(c);
  return c;
}
