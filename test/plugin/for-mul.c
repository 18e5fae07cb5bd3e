// Counted for loop with 'i *= 2': trip ltrip(1, n, 2).
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json | FileCheck %s
// RUN: %segtime predict %t.json --machine t800 -p n=100 --level hllc --json | FileCheck %s --check-prefix=JSON

void fill_mul(int n, double *a) {
  for (int i = 1; i < n; i *= 2)
    a[i] = 2.0;
}

// CHECK: function fill_mul
// CHECK-NEXT: T_fill_mul(n, a) = t(v1) + ltrip(1, n, 2)·(t(v3) + t(v4))
// CHECK:      v1 Stage
// CHECK-NEXT:   HLLC: mem.local.write=1{{$}}
// CHECK-NEXT: v2 Loop @8 for trip=ltrip(1, n, 2) index=i{{$}}
// CHECK-NEXT:   v3 Stage
// CHECK-NEXT:     HLLC: loop=1{{$}}
// CHECK-NEXT:   v4 Stage
// CHECK-NEXT:     HLLC: mem.array.write=1 mem.local.read=2{{$}}

// n = 100: i = 1, 2, 4, 8, 16, 32, 64 (7 iterations).
// JSON: "loop": 7.0,
// JSON-NEXT: "mem.array.write": 7.0,
// JSON-NEXT: "mem.local.read": 14.0,
// JSON-NEXT: "mem.local.write": 1.0
