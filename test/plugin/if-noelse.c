// if without else (not a guard: the then-arm does not return): one arm.
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json | FileCheck %s

int inc_pos(int x) {
  if (x > 0)
    x++;
  return x;
}

// Hand count: v1: reads x, i32 cmp, if. Then arm: 'x++' reads x, i32 add,
// writes x. v4 reads x.
// CHECK: function inc_pos
// CHECK-NEXT: T_inc_pos(x) = t(v1) + P_inc_pos_7·t(v3) + t(v4)
// CHECK-NEXT: param P_inc_pos_7 default=0.500000
// CHECK:      v1 Stage
// CHECK-NEXT:   HLLC: i32.cmp=1 if=1 mem.local.read=1{{$}}
// CHECK-NEXT: v2 Branch @7
// CHECK-NEXT:   arm then p=P_inc_pos_7
// CHECK-NEXT:     v3 Stage
// CHECK-NEXT:       HLLC: i32.add=1 mem.local.read=1 mem.local.write=1{{$}}
// CHECK-NEXT: v4 Stage
// CHECK-NEXT:   HLLC: mem.local.read=1{{$}}
// CHECK-NOT: arm else
