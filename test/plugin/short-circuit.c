// '&&' and '||': the left operand and one 'if' always; the right operand in an
// arm 'rhs' with probability P_<fn>_<line> (default 0.5).
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json | FileCheck %s

int both(int a, int b) {
  return a > 0 && b > 0;
}

int either(double a, double b) {
  return a < 0.0 || b < 0.0;
}

// Hand count: v1: reads a, one cmp, if. rhs: reads b, one cmp.
// CHECK: function both
// CHECK-NEXT: T_both(a, b) = t(v1) + P_both_8·t(v3)
// CHECK-NEXT: param P_both_8 default=0.500000 [static: default 0.5] probability that the right operand of '&&' is evaluated
// CHECK-NEXT: param Pir_both_{{[0-9]+_[0-9]+}} default={{.*}} [BPI] probability that the optimised branch goes to {{.*}}
// CHECK-NEXT: v1 Stage
// CHECK-NEXT:   HLLC: i32.cmp=1 if=1 mem.local.read=1{{$}}
// CHECK-NEXT: v2 Branch @8
// CHECK-NEXT:   arm rhs p=P_both_8
// CHECK-NEXT:     v3 Stage
// CHECK-NEXT:       HLLC: i32.cmp=1 mem.local.read=1{{$}}
// CHECK: function either
// CHECK-NEXT: T_either(a, b) = t(v1) + P_either_12·t(v3)
// CHECK-NEXT: param P_either_12 default=0.500000 [static: default 0.5] probability that the right operand of '||' is evaluated
// CHECK-NEXT: param Pir_either_{{[0-9]+_[0-9]+}} default={{.*}} [BPI] probability that the optimised branch goes to {{.*}}
// CHECK-NEXT: v1 Stage
// CHECK-NEXT:   HLLC: f64.cmp=1 if=1 mem.local.read=1{{$}}
// CHECK-NEXT:   POC: flop=1{{$}}
// CHECK-NEXT: v2 Branch @12
// CHECK-NEXT:   arm rhs p=P_either_12
// CHECK-NEXT:     v3 Stage
// CHECK-NEXT:       HLLC: f64.cmp=1 mem.local.read=1{{$}}
// CHECK-NEXT:       POC: flop=1{{$}}
