// More counted for loops: '!=' bound, '<<=' step, a parameter step, a global
// bound, and a 'break' that only leaves an inner switch (still counted).
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json | FileCheck %s
// RUN: %segtime predict %t.json --machine t800 --function step_s -p n=10 -p s=3 --level hllc --json \
// RUN:   | FileCheck %s --check-prefix=STEP

int g;

void ne(int n, double *a) {
  for (int i = 0; i != n; i++)
    a[i] = 0;
}

void shl(int n, double *a) {
  for (int i = 1; i < n; i <<= 1)
    a[i] = 0;
}

void step_s(int n, int s, double *a) {
  for (int i = 0; i < n; i += s)
    a[i] = 0;
}

void global_bound(double *a) {
  for (int i = 0; i < g; i++)
    a[i] = 0;
}

void switch_break(int n, int *a) {
  for (int i = 0; i < n; i++) {
    switch (a[i]) {
    case 1:
      a[i] = 0;
      break;
    default:
      break;
    }
  }
}

// CHECK: function ne
// CHECK-NOT: param
// CHECK: v2 Loop @12 for trip=n index=i{{$}}
// CHECK: function shl
// CHECK-NOT: param
// CHECK: v2 Loop @17 for trip=ltrip(1, n, 2) index=i{{$}}
// CHECK: function step_s
// CHECK-NOT: param
// The order of n and s varies between runs (GiNaC term order); both are the same count.
// CHECK: v2 Loop @22 for trip=idiv({{n \+ s|s \+ n}} - 1, s) index=i{{$}}
// CHECK: function global_bound
// CHECK-NOT: param
// CHECK: v2 Loop @27 for trip=g index=i{{$}}
// switch: 2 arms (case 1, default), 1/2 each; the loop stays counted.
// CHECK: function switch_break
// CHECK-NEXT: T_switch_break(n, a) = t(v1) + n·(t(v3) + t(v4) + P_switch_break_33·t(v6))
// CHECK-NEXT: param P_switch_break_33 default=0.500000 [static: 1/arms (2 arms)]
// CHECK-NEXT: param P_switch_break_33_2 default=0.500000 [static: 1/arms (2 arms)]
// CHECK-NEXT: v1 Stage
// CHECK-NEXT:   HLLC: mem.local.write=1{{$}}
// CHECK-NEXT: v2 Loop @32 for trip=n index=i{{$}}
// CHECK-NEXT:   v3 Stage
// CHECK-NEXT:     HLLC: loop=1{{$}}
// 'switch (a[i])' reads a, i, a[i]; one dispatch.
// CHECK-NEXT:   v4 Stage
// CHECK-NEXT:     HLLC: mem.array.read=1 mem.local.read=2 switch=1{{$}}
// CHECK-NEXT:   v5 Branch @33
// CHECK-NEXT:     arm case 1 p=P_switch_break_33
// CHECK-NEXT:       v6 Stage
// CHECK-NEXT:         HLLC: mem.array.write=1 mem.local.read=2{{$}}
// CHECK-NEXT:     arm default p=P_switch_break_33_2
// CHECK-NOT: Stage

// n = 10, s = 3: i = 0, 3, 6, 9 (4 iterations) = idiv(12, 3).
// STEP: "loop": 4.0,
