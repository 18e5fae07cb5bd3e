// Pointers and arrays: *p, a[i] and p->f are mem.array.*; the pointer and
// index variables are local reads; subscript address arithmetic and
// array-to-pointer decay are free.
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json | FileCheck %s

struct pt { double x, y; };

void ptrs(double *p, int *q, int n) {
  *p = *p * 2.0;
  q[n] = q[0] + 1;
}

double field(struct pt *s) {
  s->x = s->y;
  return s->x;
}

double local_array(double v) {
  double buf[4];
  buf[1] = v;
  return buf[1];
}

// Hand count (ptrs): '*p = *p * 2.0' reads p twice, *p (array read), f64
// mul, writes *p. 'q[n] = q[0] + 1' reads q, n, q, q[0] (array read), i32
// add, writes q[n].
// CHECK: function ptrs
// CHECK-NEXT: T_ptrs(p, q, n) = t(v1)
// CHECK-NEXT: v1 Stage
// CHECK-NEXT:   HLLC: f64.mul=1 i32.add=1 mem.array.read=2 mem.array.write=2 mem.local.read=5{{$}}
// CHECK-NEXT:   POC: flop=1{{$}}
// (field): 's->x = s->y' reads s twice, s->y, writes s->x; return reads s, s->x.
// CHECK: function field
// CHECK-NEXT: T_field(s) = t(v1)
// CHECK-NEXT: v1 Stage
// CHECK-NEXT:   HLLC: mem.array.read=2 mem.array.write=1 mem.local.read=3{{$}}
// (local_array): 'buf[1] = v' reads v, writes an element; return reads one.
// CHECK: function local_array
// CHECK-NEXT: T_local_array(v) = t(v1)
// CHECK-NEXT: v1 Stage
// CHECK-NEXT:   HLLC: mem.array.read=1 mem.array.write=1 mem.local.read=1{{$}}
