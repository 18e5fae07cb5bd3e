// Counted for loop, decreasing with 'i > 1': trip n - 1.
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json | FileCheck %s
// RUN: %segtime predict %t.json --machine t800 -p n=9 --level hllc --json | FileCheck %s --check-prefix=JSON

void fill_gt(int n, double *a) {
  for (int i = n; i > 1; i--)
    a[i] = 2.0;
}

// Hand count: v1 'int i = n' reads n and writes i; v3 loop = 1;
// v4 reads a and i, writes a[i].
// CHECK: function fill_gt
// CHECK-NEXT: T_fill_gt(n, a) = t(v1) + (n - 1)·(t(v3) + t(v4))
// CHECK:      v1 Stage
// CHECK-NEXT:   HLLC: mem.local.read=1 mem.local.write=1{{$}}
// CHECK-NEXT: v2 Loop @8 for trip=n - 1 index=i{{$}}
// CHECK-NEXT:   v3 Stage
// CHECK-NEXT:     HLLC: loop=1{{$}}
// CHECK-NEXT:   v4 Stage
// CHECK-NEXT:     HLLC: mem.array.write=1 mem.local.read=2{{$}}

// n = 9: i = 9..2, 8 iterations.
// JSON: "loop": 8.0,
// JSON-NEXT: "mem.array.write": 8.0,
// JSON-NEXT: "mem.local.read": 17.0,
// JSON-NEXT: "mem.local.write": 1.0
