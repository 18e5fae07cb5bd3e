// '?:' is a two-arm branch (default 0.5) with an 'if'.
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json | FileCheck %s

double pick(double a, double b) {
  return a > b ? a : b;
}

// Hand count: v1: reads a, b, f64 cmp (1 flop), if. Arms read a or b.
// CHECK: function pick
// CHECK-NEXT: T_pick(a, b) = t(v1) + P_pick_7·t(v3) + (1 - P_pick_7)·t(v4)
// CHECK-NEXT: param P_pick_7 default=0.500000 [static: default 0.5] probability that '?:' takes its true arm
// CHECK-NEXT: param Pir_pick_{{[0-9]+_[0-9]+}} default={{.*}} [BPI] probability that the optimised branch goes to {{.*}}
// CHECK-NEXT: v1 Stage
// CHECK-NEXT:   HLLC: f64.cmp=1 if=1 mem.local.read=2{{$}}
// CHECK-NEXT:   POC: flop=1{{$}}
// CHECK-NEXT: v2 Branch @7
// CHECK-NEXT:   arm then p=P_pick_7
// CHECK-NEXT:     v3 Stage
// CHECK-NEXT:       HLLC: mem.local.read=1{{$}}
// CHECK-NEXT:   arm else p=1 - P_pick_7
// CHECK-NEXT:     v4 Stage
// CHECK-NEXT:       HLLC: mem.local.read=1{{$}}
