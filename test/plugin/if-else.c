// if/else: a Branch with arms P and 1 - P (default 0.5); the condition and
// the 'if' construct are counted before the branch.
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json | FileCheck %s
// RUN: %segtime predict %t.json --machine t800 --level poc --json | FileCheck %s --check-prefix=DEF
// RUN: %segtime predict %t.json --machine t800 --level poc -p P_absval_11=1 --json | FileCheck %s --check-prefix=ALL

double absval(double x) {
  double y;
  if (x < 0.0)
    y = -x;
  else
    y = x;
  return y;
}

// Hand count: v1: reads x, f64 cmp (1 flop), if. Then arm: 'y = -x' reads x,
// f64 sub (unary minus, 1 flop), writes y. Else arm: reads x, writes y.
// v5 reads y. ('double y;' has no initialiser: nothing.)
// CHECK: function absval
// CHECK-NEXT: T_absval(x) = t(v1) + P_absval_11·t(v3) + (1 - P_absval_11)·t(v4) + t(v5)
// CHECK-NEXT: param P_absval_11 default=0.500000 [static: default 0.5]
// CHECK:      v1 Stage
// CHECK-NEXT:   HLLC: f64.cmp=1 if=1 mem.local.read=1{{$}}
// CHECK-NEXT:   POC: flop=1{{$}}
// CHECK-NEXT: v2 Branch @11
// CHECK-NEXT:   arm then p=P_absval_11
// CHECK-NEXT:     v3 Stage
// CHECK-NEXT:       HLLC: f64.sub=1 mem.local.read=1 mem.local.write=1{{$}}
// CHECK-NEXT:       POC: flop=1{{$}}
// CHECK-NEXT:   arm else p=1 - P_absval_11
// CHECK-NEXT:     v4 Stage
// CHECK-NEXT:       HLLC: mem.local.read=1 mem.local.write=1{{$}}
// CHECK-NEXT: v5 Stage
// CHECK-NEXT:   HLLC: mem.local.read=1{{$}}

// flop = 1 + P: 1.5 with the default, 2 with P = 1.
// DEF: "flop": 1.5
// DEF: "name": "P_absval_11",
// DEF-NEXT: "source": "static: default 0.5",
// DEF-NEXT: "value": 0.5
// ALL: "flop": 2.0
// ALL: "source": "user",
