// Counted for loop with step 2: trip idiv(n - 0 + 2 - 1, 2) = idiv(n + 1, 2).
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json | FileCheck %s
// RUN: %segtime predict %t.json --machine t800 -p n=10 --level hllc --json | FileCheck %s --check-prefix=EVEN
// RUN: %segtime predict %t.json --machine t800 -p n=11 --level hllc --json | FileCheck %s --check-prefix=ODD

void fill_step2(int n, double *a) {
  for (int i = 0; i < n; i += 2)
    a[i] = 2.0;
}

// CHECK: function fill_step2
// CHECK-NEXT: T_fill_step2(n, a) = t(v1) + (idiv(n + 1, 2))·(t(v3) + t(v4))
// CHECK:      v1 Stage
// CHECK-NEXT:   HLLC: mem.local.write=1{{$}}
// CHECK-NEXT: v2 Loop @9 for trip=idiv(n + 1, 2) index=i{{$}}
// CHECK-NEXT:   v3 Stage
// CHECK-NEXT:     HLLC: loop=1{{$}}
// CHECK-NEXT:   v4 Stage
// CHECK-NEXT:     HLLC: mem.array.write=1 mem.local.read=2{{$}}

// n = 10: i = 0,2,4,6,8 (5 iterations); n = 11: i = 0..10 step 2 (6 iterations).
// EVEN: "loop": 5.0,
// ODD: "loop": 6.0,
