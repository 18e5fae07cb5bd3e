// A local initialised once and never reassigned is substituted by its
// initialiser in the trip count: 'int m = n / 2' gives trip idiv(n, 2).
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json | FileCheck %s
// RUN: %segtime predict %t.json --machine t800 -p n=9 --level hllc --json | FileCheck %s --check-prefix=JSON

void half(int n, double *a) {
  int m = n / 2;
  for (int i = 0; i < m; i++)
    a[i] = 0.0;
}

// Hand count: v1: 'int m = n / 2' reads n, i32 div, writes m; writes i.
// CHECK: function half
// CHECK-NOT: param
// CHECK:      v1 Stage
// CHECK-NEXT:   HLLC: i32.div=1 mem.local.read=1 mem.local.write=2{{$}}
// CHECK-NEXT: v2 Loop @10 for trip=idiv(n, 2) index=i{{$}}
// CHECK-NEXT:   v3 Stage
// CHECK-NEXT:     HLLC: loop=1{{$}}
// CHECK-NEXT:   v4 Stage
// CHECK-NEXT:     HLLC: mem.array.write=1 mem.local.read=2{{$}}

// n = 9: idiv(9, 2) = 4 iterations.
// JSON: "loop": 4.0,
