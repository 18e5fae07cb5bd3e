// Floating-point recurrences of IR loops (Node::Chain, docs/models.md "ICC",
// overlap of iterations): "own" when the loop's chain starts afresh in each
// execution, "continued" when its start value comes from another
// floating-point phi of the enclosing iteration (the chain goes on across
// executions), none for loops without one. x86 blocks that end in a
// macro-fused compare and jump get uops.macro_fused=1.
// RUN: %clang -target x86_64-linux-gnu -O2 -fno-unroll-loops -fno-vectorize \
// RUN:   -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=skylake \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json --ir --function conv | FileCheck --check-prefix=CONV %s
// RUN: %segtime show %t.json --ir --function horner | FileCheck --check-prefix=HORNER %s
// RUN: %segtime show %t.json --ir --function scale | FileCheck --check-prefix=SCALE %s
// RUN: %segtime show %t.json --ir --function backsub | FileCheck --check-prefix=BACK %s
// RUN: %segtime show %t.json --ir --function fwdsub | FileCheck --check-prefix=FWD %s
// RUN: %segtime show %t.json --json | FileCheck --check-prefix=JSON %s

// One sum per output point through two loops: the row loop's sum starts at 0
// (own), the column loop's continues it (continued); the point loop has none.
void conv(int n, int k, const double *img, const double *ker, double *out) {
  for (int j = 0; j < n; j++) {
    double s = 0.0;
    for (int p = 0; p < k; p++)
      for (int q = 0; q < k; q++)
        s += img[p * n + j + q] * ker[p * k + q];
    out[j] = s;
  }
}
// CONV: Loop @[[#@LINE-8]] ir-loop trip=n
// CONV-NOT: chain=
// CONV: Loop @[[#@LINE-8]] ir-loop trip=k {{.*}} chain=own
// CONV: Loop @[[#@LINE-8]] ir-loop trip=k {{.*}} chain=continued
// CONV: uops.macro_fused=1

// Horner's rule per point: the chain starts at c[d] in each execution.
void horner(int n, int d, const double *c, const double *x, double *y) {
  for (int i = 0; i < n; i++) {
    double s = c[d];
    for (int j = 1; j <= d; j++)
      s = s * x[i] + c[d - j];
    y[i] = s;
  }
}
// HORNER: Loop @[[#@LINE-7]] ir-loop trip=n
// HORNER-NOT: chain=continued
// HORNER: Loop @[[#@LINE-7]] ir-loop trip=d {{.*}} chain=own

// No recurrence.
void scale(int n, double a, double *x) {
  for (int i = 0; i < n; i++)
    x[i] *= a;
}
// SCALE: Loop @[[#@LINE-3]] ir-loop trip=n
// SCALE-NOT: chain=

// Back substitution: row i's sum starts with x[i+1], the previous row's
// result, which it reads through memory: the rows run one after another
// (continued).
void backsub(int n, const double *u, const double *b, double *x) {
  for (int i = n - 1; i >= 0; i--) {
    double s = b[i];
    for (int j = i + 1; j < n; j++)
      s -= u[i * n + j] * x[j];
    x[i] = s / u[i * n + i];
  }
}
// BACK: Loop @[[#@LINE-7]] ir-loop
// BACK-NOT: chain=
// BACK: Loop @[[#@LINE-7]] ir-loop {{.*}} chain=continued

// Forward substitution: row i's sum reads x[0] first; the previous row's
// x[i-1] only at its last step: the rows overlap (own).
void fwdsub(int n, const double *l, const double *b, double *x) {
  for (int i = 0; i < n; i++) {
    double s = b[i];
    for (int j = 0; j < i; j++)
      s -= l[i * n + j] * x[j];
    x[i] = s / l[i * n + i];
  }
}
// FWD: Loop @[[#@LINE-7]] ir-loop
// FWD-NOT: chain=continued
// FWD: Loop @[[#@LINE-7]] ir-loop {{.*}} chain=own

// JSON-DAG: "chain": "own"
// JSON-DAG: "chain": "continued"
