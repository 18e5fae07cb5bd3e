// switch: one 'switch' dispatch; each arm (statements from one case label to
// the next; adjacent labels share an arm) has P_<fn>_<line>[_k], default 1/arms.
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json | FileCheck %s
// RUN: %segtime predict %t.json --machine t800 --level hllc --function classify --json \
// RUN:   | FileCheck %s --check-prefix=JSON

int classify(int k, int x) {
  int r = 0;
  switch (k) {
  case 0:
    r = x + 1;
    break;
  case 1:
  case 2:
    r = x * 2;
    break;
  default:
    r = x;
  }
  return r;
}

int nodefault(int k) {
  int r = 0;
  switch (k) {
  case 1:
    r = 5;
    break;
  case 2:
    r = 7;
    break;
  }
  return r;
}

// Hand count (classify): v1: writes r, reads k, switch. Arms: 'case 0'
// (reads x, i32 add, writes r), 'case 1, case 2' (reads x, i32 mul, writes
// r), 'default' (reads x, writes r): 3 arms, 1/3 each. v6 reads r.
// CHECK: function classify
// CHECK-NEXT: T_classify(k, x) = t(v1) + P_classify_11·t(v3) + P_classify_11_2·t(v4) + P_classify_11_3·t(v5) + t(v6)
// CHECK-NEXT: param P_classify_11 default=0.333333 [static: 1/arms (3 arms)]
// CHECK-NEXT: param P_classify_11_2 default=0.333333 [static: 1/arms (3 arms)]
// CHECK-NEXT: param P_classify_11_3 default=0.333333 [static: 1/arms (3 arms)]
// CHECK-NEXT: v1 Stage
// CHECK-NEXT:   HLLC: mem.local.read=1 mem.local.write=1 switch=1{{$}}
// CHECK-NEXT: v2 Branch @11
// CHECK-NEXT:   arm case 0 p=P_classify_11
// CHECK-NEXT:     v3 Stage
// CHECK-NEXT:       HLLC: i32.add=1 mem.local.read=1 mem.local.write=1{{$}}
// CHECK-NEXT:   arm case 1, case 2 p=P_classify_11_2
// CHECK-NEXT:     v4 Stage
// CHECK-NEXT:       HLLC: i32.mul=1 mem.local.read=1 mem.local.write=1{{$}}
// CHECK-NEXT:   arm default p=P_classify_11_3
// CHECK-NEXT:     v5 Stage
// CHECK-NEXT:       HLLC: mem.local.read=1 mem.local.write=1{{$}}
// CHECK-NEXT: v6 Stage
// CHECK-NEXT:   HLLC: mem.local.read=1{{$}}

// Without default the missing default counts as an arm: 2 cases, 1/3 each.
// CHECK: function nodefault
// CHECK: param P_nodefault_27 default=0.333333 [static: 1/arms (3 arms)]
// CHECK-NEXT: param P_nodefault_27_2 default=0.333333 [static: 1/arms (3 arms)]
// CHECK-NOT: param
// CHECK: v2 Branch @27
// CHECK-NEXT: arm case 1 p=P_nodefault_27
// CHECK-NEXT:   v3 Stage
// CHECK-NEXT:     HLLC: mem.local.write=1{{$}}
// CHECK-NEXT: arm case 2 p=P_nodefault_27_2
// CHECK-NEXT:   v4 Stage
// CHECK-NEXT:     HLLC: mem.local.write=1{{$}}

// classify with defaults: i32.add 1/3, i32.mul 1/3, reads 1 + 1 + 1 = 3,
// writes 1 + 1 = 2, switch 1.
// JSON: "i32.add": 0.333333
// JSON-NEXT: "i32.mul": 0.333333
// JSON-NEXT: "mem.local.read": 3.0,
// JSON-NEXT: "mem.local.write": 2.0,
// JSON-NEXT: "switch": 1.0
