// C++ range-for over a constant-size array: trip is the array size; each
// iteration reads one element and writes the loop variable.
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json | FileCheck %s

double v[4] = {1.0, 2.0, 3.0, 4.0};

double sum_range() {
  double s = 0;
  for (double x : v)
    s += x;
  return s;
}

// Hand count: v1 writes s. v3: loop = 1, element read (array), write of x.
// v4: 's += x' reads x and s, f64 add, writes s. v5 reads s.
// CHECK: function sum_range
// CHECK-NEXT: T_sum_range() = t(v1) + 4·(t(v3) + t(v4)) + t(v5)
// CHECK:      v1 Stage
// CHECK-NEXT:   HLLC: mem.local.write=1{{$}}
// CHECK-NEXT: v2 Loop @11 range-for trip=4
// CHECK-NEXT:   v3 Stage
// CHECK-NEXT:     HLLC: loop=1 mem.array.read=1 mem.local.write=1{{$}}
// CHECK-NEXT:   v4 Stage
// CHECK-NEXT:     HLLC: f64.add=1 mem.local.read=2 mem.local.write=1{{$}}
// CHECK-NEXT:     POC: flop=1{{$}}
// CHECK-NEXT: v5 Stage
// CHECK-NEXT:   HLLC: mem.local.read=1{{$}}
