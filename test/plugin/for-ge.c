// Counted for loop, decreasing with 'i >= 0' from n - 1: trip n.
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json | FileCheck %s
// RUN: %segtime predict %t.json --machine t800 -p n=6 --level hllc --json | FileCheck %s --check-prefix=JSON

void fill_ge(int n, double *a) {
  for (int i = n - 1; i >= 0; i--)
    a[i] = 2.0;
}

// Hand count: v1 'int i = n - 1' reads n, one i32 sub, writes i; v3 loop = 1;
// v4 reads a and i, writes a[i]. Trip (n - 1) - 0 + 1 = n.
// CHECK: function fill_ge
// CHECK-NEXT: T_fill_ge(n, a) = t(v1) + n·(t(v3) + t(v4))
// CHECK:      v1 Stage
// CHECK-NEXT:   HLLC: i32.sub=1 mem.local.read=1 mem.local.write=1{{$}}
// CHECK-NEXT: v2 Loop @8 for trip=n index=i{{$}}
// CHECK-NEXT:   v3 Stage
// CHECK-NEXT:     HLLC: loop=1{{$}}
// CHECK-NEXT:   v4 Stage
// CHECK-NEXT:     HLLC: mem.array.write=1 mem.local.read=2{{$}}

// JSON: "i32.sub": 1.0,
// JSON-NEXT: "loop": 6.0,
// JSON-NEXT: "mem.array.write": 6.0,
// JSON-NEXT: "mem.local.read": 13.0,
// JSON-NEXT: "mem.local.write": 1.0
