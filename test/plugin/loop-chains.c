// Loop-carried scalar chains at -O0 (docs/seg-json.md "Loop-carried chains"):
// each scalar an unconditional statement updates from its own old value is
// one RUV "chain.<type>:<name>" on the loop node; none with optimisation.
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show --chains %t.json | FileCheck %s
// RUN: %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t2.json -c %s -o %t2.o
// RUN: %segtime show --chains %t2.json | FileCheck %s --check-prefix=O2
// RUN: %segtime show %t.json | FileCheck %s --check-prefix=PLAIN

// s += a[i]: load s, f64 add, store s; the counter i++ is a chain too.
double sum(const double *a, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}
// CHECK-LABEL: function sum
// CHECK:      Loop
// CHECK-NEXT:   chain.f64:s: f64.add=1 mem.local.read=1 mem.local.write=1{{$}}
// CHECK-NEXT:   chain.i32:i: i32.add=1 mem.local.read=1 mem.local.write=1{{$}}
// CHECK-NEXT:   v{{[0-9]+}} Stage

// x = x*c + d: the mul and the add are on the chain.
double horner(double x, double c, double d, int n) {
  for (int k = 0; k < n; k++)
    x = x * c + d;
  return x;
}
// CHECK-LABEL: function horner
// CHECK:      Loop
// CHECK-NEXT:   chain.f64:x: f64.add=1 f64.mul=1 mem.local.read=1 mem.local.write=1{{$}}

// p = p->next: the load of p->next is on the chain.
struct node { struct node *next; double v; };
double walk(struct node *p) {
  double t = 0;
  while (p) {
    t = t + p->v;
    p = p->next;
  }
  return t;
}
// CHECK-LABEL: function walk
// CHECK:      Loop
// CHECK-NEXT:   chain.f64:t: f64.add=1 mem.local.read=1 mem.local.write=1{{$}}
// CHECK-NEXT:   chain.i64:p: mem.array.read=1 mem.local.read=1 mem.local.write=1{{$}}

// Through scalars of the body (Kahan summation): c's chain runs through y
// and t (three stores and reloads), sum's through t.
double kahan(const double *a, int n) {
  double sum = 0, c = 0;
  for (int i = 0; i < n; i++) {
    double y = a[i] - c;
    double t = sum + y;
    c = (t - sum) - y;
    sum = t;
  }
  return sum;
}
// CHECK-LABEL: function kahan
// CHECK:      Loop
// CHECK-NEXT:   chain.f64:c: f64.add=1 f64.sub=3 mem.local.read=3 mem.local.write=3{{$}}
// CHECK-NEXT:   chain.f64:sum: f64.add=1 mem.local.read=2 mem.local.write=2{{$}}
// CHECK-NEXT:   chain.i32:i: i32.add=1 mem.local.read=1 mem.local.write=1{{$}}

// Restarted chains: s is declared in the row loop's body and t assigned 0
// there before the inner loop (a new chain per row: restart=1, as the inner
// counter j); u goes on from row to row (no mark); the row loop's own
// counter i has no enclosing loop.
void rows(const double *a, double *y, int n, int m) {
  double t, u = 0;
  for (int i = 0; i < n; i++) {
    double s = a[i];
    t = 0;
    for (int j = 0; j < m; j++) {
      s = s * 0.5 + a[j];
      t += a[j];
      u += a[j];
    }
    y[i] = s + t;
  }
  y[n] = u;
}
// CHECK-LABEL: function rows
// CHECK:      Loop
// CHECK-NEXT:   chain.i32:i: i32.add=1 mem.local.read=1 mem.local.write=1{{$}}
// CHECK:      Loop
// CHECK-NEXT:   chain.f64:s: f64.add=1 f64.mul=1 mem.local.read=1 mem.local.write=1 restart=1{{$}}
// CHECK-NEXT:   chain.f64:t: f64.add=1 mem.local.read=1 mem.local.write=1 restart=1{{$}}
// CHECK-NEXT:   chain.f64:u: f64.add=1 mem.local.read=1 mem.local.write=1{{$}}
// CHECK-NEXT:   chain.i32:j: i32.add=1 mem.local.read=1 mem.local.write=1 restart=1{{$}}

// `?:`: the store is unconditional and the arm that keeps the old value
// carries the chain (the condition is a predicted branch, not on it).
double range(const double *x, int n) {
  double lo = x[0], hi = x[0];
  for (int i = 1; i < n; i++) {
    lo = x[i] < lo ? x[i] : lo;
    hi = x[i] > hi ? x[i] : hi + 0.0;
  }
  return hi - lo;
}
// CHECK-LABEL: function range
// CHECK:      Loop
// CHECK-NEXT:   chain.f64:hi: f64.add=1 mem.local.read=1 mem.local.write=1{{$}}
// CHECK-NEXT:   chain.f64:lo: mem.local.read=1 mem.local.write=1{{$}}
// CHECK-NEXT:   chain.i32:i: i32.add=1 mem.local.read=1 mem.local.write=1{{$}}

// No carried scalar: t is overwritten from b each iteration, the stores go
// to memory through a pointer, and the conditional update is no chain.
void clear(double *a, const double *b) {
  double t;
  int hits = 0;
  do {
    t = b[0] * 2.0;
    a[0] = t;
    if (t > 1.0)
      hits++;
  } while (t > a[1]);
  a[2] = hits;
}
// CHECK-LABEL: function clear
// CHECK:      Loop
// CHECK-NOT:  chain.
// O2-NOT: chain.
// PLAIN-NOT: chain.
