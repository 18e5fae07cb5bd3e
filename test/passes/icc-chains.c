// Loop-carried chains of loop blocks (passes/IccChains.cpp, docs/models.md
// "ICC" 4b): the critical chain per latency class. A sum's fp add (3 cycles
// in the Zen 4 model that LLVM 19 uses for znver4 and znver5), a pointer
// chase's load; daxpy's loop has only its induction variable's add: none.
// RUN: %clang -target x86_64-linux-gnu -O2 -fno-unroll-loops -fno-vectorize \
// RUN:   -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=znver4 \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json --ir --function sum | FileCheck --check-prefix=SUM %s
// RUN: %segtime show %t.json --ir --function daxpy | FileCheck --check-prefix=DAXPY %s
// RUN: %segtime show %t.json --ir --function chase | FileCheck --check-prefix=CHASE %s

double sum(int n, const double *a) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}
// SUM: Loop @[[#@LINE-4]] ir-loop
// SUM: lcd.fp.add=1 lcd.fp.add.model=3
// SUM-NOT: lcd.other

void daxpy(int n, double a, const double *x, double *y) {
  for (int i = 0; i < n; i++)
    y[i] += a * x[i];
}
// DAXPY: Loop @[[#@LINE-3]] ir-loop
// DAXPY-NOT: lcd.

struct node { struct node *next; long v; };
long chase(const struct node *p) {
  long k = 0;
  while (p) {
    p = p->next;
    k++;
  }
  return k;
}
// CHASE: Loop
// CHASE: lcd.load=1 lcd.load.model=
