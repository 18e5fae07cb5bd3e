// Two nested counted loops: trips n and m, product in the formula.
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json | FileCheck %s
// RUN: %segtime predict %t.json --machine t800 -p n=3 -p m=4 --json | FileCheck %s --check-prefix=JSON

double nest(int n, int m, const double *a) {
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      s += a[i * m + j];
  return s;
}

// Hand count: v1 writes s and i. v3 loop = 1. v4 writes j (inner init).
// v6 loop = 1. v7: reads a, i, m, j, s (5), i32 mul and add for the
// subscript, a[...] (array read), f64 add, writes s. v8 reads s.
// CHECK: function nest
// CHECK-NEXT: T_nest(n, m, a) = t(v1) + n·(t(v3) + t(v4) + m·(t(v6) + t(v7))) + t(v8)
// CHECK:      v1 Stage
// CHECK-NEXT:   HLLC: mem.local.write=2{{$}}
// CHECK-NEXT: v2 Loop @9 for trip=n index=i{{$}}
// CHECK-NEXT:   v3 Stage
// CHECK-NEXT:     HLLC: loop=1{{$}}
// CHECK-NEXT:   v4 Stage
// CHECK-NEXT:     HLLC: mem.local.write=1{{$}}
// CHECK-NEXT:   v5 Loop @10 for trip=m index=j{{$}}
// CHECK-NEXT:     v6 Stage
// CHECK-NEXT:       HLLC: loop=1{{$}}
// CHECK-NEXT:     v7 Stage
// CHECK-NEXT:       HLLC: f64.add=1 i32.add=1 i32.mul=1 mem.array.read=1 mem.local.read=5 mem.local.write=1{{$}}
// CHECK-NEXT:       POC: flop=1{{$}}
// CHECK-NEXT: v8 Stage
// CHECK-NEXT:   HLLC: mem.local.read=1{{$}}

// n = 3, m = 4: 12 inner iterations: loop 3 + 12 = 15, flop 12,
// reads 12*5 + 1 = 61, writes 2 + 3 + 12 = 17.
// JSON: "HLLC": {
// JSON-NEXT: "counts": {
// JSON-NEXT: "f64.add": 12.0,
// JSON-NEXT: "i32.add": 12.0,
// JSON-NEXT: "i32.mul": 12.0,
// JSON-NEXT: "loop": 15.0,
// JSON-NEXT: "mem.array.read": 12.0,
// JSON-NEXT: "mem.local.read": 61.0,
// JSON-NEXT: "mem.local.write": 17.0
// JSON: "POC": {
// JSON-NEXT: "counts": {
// JSON-NEXT: "flop": 12.0
