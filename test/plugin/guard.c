// Guard clause 'if (c) return ...;' without else: the rest of the block
// becomes the else arm, with probability 1 - P (Warwick-94 Table 3, P_edge).
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json | FileCheck %s
// RUN: %segtime predict %t.json --machine t800 --level poc -p P_safe_div_10=0.25 --json \
// RUN:   | FileCheck %s --check-prefix=JSON

double safe_div(double a, double b) {
  if (b == 0.0)
    return 0.0;
  double q = a / b;
  return q;
}

// Hand count: v1: reads b, f64 cmp (1 flop), if. Then arm: 'return 0.0'
// (a constant: nothing). Else arm (the rest): reads a, b, f64 div (4 flop),
// writes q, reads q.
// CHECK: function safe_div
// CHECK-NEXT: T_safe_div(a, b) = t(v1) + (1 - P_safe_div_10)·t(v3)
// CHECK-NEXT: param P_safe_div_10 default=0.500000
// CHECK:      v1 Stage
// CHECK-NEXT:   HLLC: f64.cmp=1 if=1 mem.local.read=1{{$}}
// CHECK-NEXT:   POC: flop=1{{$}}
// CHECK-NEXT: v2 Branch @10
// CHECK-NEXT:   arm then p=P_safe_div_10
// CHECK-NEXT:   arm else p=1 - P_safe_div_10
// CHECK-NEXT:     v3 Stage
// CHECK-NEXT:       HLLC: f64.div=1 mem.local.read=3 mem.local.write=1{{$}}
// CHECK-NEXT:       POC: flop=4{{$}}
// CHECK-NOT: Stage

// flop = 1 + 0.75 * 4 = 4.
// JSON: "flop": 4.0
