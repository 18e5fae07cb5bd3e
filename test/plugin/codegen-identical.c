// The plugin never changes the generated code: the object files built with
// and without it are byte-identical, at -O0 and at -O2.
// RUN: %clang -target x86_64-linux-gnu -O0 -c %s -o %t0-1.o
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t0.json -c %s -o %t0-2.o
// RUN: cmp %t0-1.o %t0-2.o
// RUN: %clang -target x86_64-linux-gnu -O2 -c %s -o %t2-1.o
// RUN: %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t2.json -c %s -o %t2-2.o
// RUN: cmp %t2-1.o %t2-2.o
// All levels, ICC for this and another target: still the same object code.
// RUN: %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=compile,znver4,leon3 -fplugin-arg-segtime-out=%t3.json -c %s -o %t2-3.o
// RUN: cmp %t2-1.o %t2-3.o
// RUN: %segtime show %t2.json | FileCheck %s

double sqrt(double);
void ext(int);
static int calls;

static double norm(int n, const double *x) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return sqrt(s);
}

double kernel(int n, double *x, int mode) {
  double r = 0;
  calls++;
  switch (mode) {
  case 0:
    r = norm(n, x);
    break;
  default:
    for (int i = n - 1; i >= 0 && x[i] > 0; i--)
      r += x[i] / 2.0;
  }
  if (r > 1e3)
    ext(mode);
  return r < 0 ? -r : r;
}

// CHECK: function norm
// CHECK: function kernel
// CHECK: Call {{.*}} norm
