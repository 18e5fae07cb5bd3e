// Counted for loop, 'i < n', unit step: trip n (docs/vocabulary.md, Loop).
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json | FileCheck %s
// RUN: %segtime predict %t.json --machine t800 -p n=7 --json | FileCheck %s --check-prefix=JSON

double sum_lt(int n, const double *a) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}

// Hand count:
//  v1: 'double s = 0' and 'int i = 0' write two locals (constants cost nothing).
//  v3: loop control, loop = 1 (test, increment and branch of a counted for).
//  v4: 's += a[i]' reads a, i and s (3 local reads), a[i] (1 array read),
//      one f64 add (1 flop), writes s.
//  v5: 'return s' reads s.
// CHECK: function sum_lt
// CHECK-NEXT: T_sum_lt(n, a) = t(v1) + n·(t(v3) + t(v4)) + t(v5)
// CHECK-NOT: param
// CHECK:      v1 Stage
// CHECK-NEXT:   HLLC: mem.local.write=2{{$}}
// CHECK-NEXT: v2 Loop @9 for trip=n index=i{{$}}
// CHECK-NEXT:   v3 Stage
// CHECK-NEXT:     HLLC: loop=1{{$}}
// CHECK-NEXT:   v4 Stage
// CHECK-NEXT:     HLLC: f64.add=1 mem.array.read=1 mem.local.read=3 mem.local.write=1{{$}}
// CHECK-NEXT:     POC: flop=1{{$}}
// CHECK-NEXT: v5 Stage
// CHECK-NEXT:   HLLC: mem.local.read=1{{$}}
// CHECK-NOT: warning

// n = 7: 7 iterations, 7 flop; HLLC loop = 7, f64.add = 7,
// mem.local.read = 7*3 + 1 = 22, mem.local.write = 2 + 7 = 9.
// JSON: "HLLC": {
// JSON:   "counts": {
// JSON-NEXT: "f64.add": 7.0,
// JSON-NEXT: "loop": 7.0,
// JSON-NEXT: "mem.array.read": 7.0,
// JSON-NEXT: "mem.local.read": 22.0,
// JSON-NEXT: "mem.local.write": 9.0
// JSON-NEXT: },
// JSON: "POC": {
// JSON-NEXT: "counts": {
// JSON-NEXT: "flop": 7.0
