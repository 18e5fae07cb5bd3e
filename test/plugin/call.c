// Calls to functions defined in the translation unit: a Call node (the
// 'call' construct); arithmetic arguments in source names are bound to the
// callee's parameters, so the caller's formula is in its own names.
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json | FileCheck %s
// RUN: %segtime predict %t.json --machine t800 --function twice -p m=10 --json | FileCheck %s --check-prefix=JSON

void axpy(int n, double alpha, const double *x, double *y) {
  for (int i = 0; i < n; i++)
    y[i] += alpha * x[i];
}

void twice(int m, const double *x, double *y) {
  axpy(2 * m, 1.5, x, y);
  axpy(m + 1, 2.0, x, y);
}

// axpy: 2 flop per iteration; v4: reads y, i, alpha, x, i (5), x[i] and
// y[i] (2 array reads), f64 mul and add, writes y[i].
// CHECK: function axpy
// CHECK:      v2 Loop @10 for trip=n index=i{{$}}
// CHECK-NEXT:   v3 Stage
// CHECK-NEXT:     HLLC: loop=1{{$}}
// CHECK-NEXT:   v4 Stage
// CHECK-NEXT:     HLLC: f64.add=1 f64.mul=1 mem.array.read=2 mem.array.write=1 mem.local.read=5{{$}}
// CHECK-NEXT:     POC: flop=2{{$}}
// twice: argument evaluation (m read, i32 mul; x, y read) then the call.
// CHECK: function twice
// CHECK-NEXT: T_twice(m, x, y) = t(v1) + t(v2) + T_axpy(2*m, 1.5, ?, ?) + t(v3) + t(v4) + T_axpy(m + 1, 2, ?, ?)
// CHECK-NEXT: v1 Stage
// CHECK-NEXT:   HLLC: i32.mul=1 mem.local.read=3{{$}}
// CHECK-NEXT: v2 Call @15 axpy
// CHECK-NEXT:   HLLC: call=1{{$}}
// CHECK-NEXT: v3 Stage
// CHECK-NEXT:   HLLC: i32.add=1 mem.local.read=3{{$}}
// CHECK-NEXT: v4 Call @16 axpy
// CHECK-NEXT:   HLLC: call=1{{$}}

// flop(twice) = 2*(2m) + 2*(m + 1) = 6m + 2 = 62 for m = 10; loop = 3m + 1 = 31.
// JSON: "HLLC": {
// JSON-NEXT: "counts": {
// JSON-NEXT: "call": 2.0,
// JSON-NEXT: "f64.add": 31.0,
// JSON-NEXT: "f64.mul": 31.0,
// JSON-NEXT: "i32.add": 1.0,
// JSON-NEXT: "i32.mul": 1.0,
// JSON-NEXT: "loop": 31.0,
// JSON-NEXT: "mem.array.read": 62.0,
// JSON-NEXT: "mem.array.write": 31.0,
// JSON-NEXT: "mem.local.read": 161.0,
// JSON-NEXT: "mem.local.write": 2.0
// JSON: "POC": {
// JSON-NEXT: "counts": {
// JSON-NEXT: "flop": 62.0
// JSON-NEXT: },
// JSON-NEXT: "formula": "{{[0-9.e-]+}}*m + {{[0-9.e-]+}}",
// JSON: "name": "twice",
// JSON-NEXT: "parameters": [
// JSON-NEXT: {
// JSON-NEXT: "name": "m",
// JSON-NEXT: "source": "user",
// JSON-NEXT: "value": 10.0
// JSON-NEXT: }
// JSON-NEXT: ],
