// A call to a function without a body (not libm, not mem*) is an Unknown
// node; the compiler warns once per function, naming the callees.
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: %segtime show %t.json | FileCheck %s

void ext(double);
void log_value(double);

void callext(double x) {
  ext(x);
  log_value(x);
  ext(x);
}

// WARN: external.c:11:3: warning: segtime: not characterised in 'callext': calls to external functions ext (2x), log_value
// Hand count: each call's argument reads x (one local read before each node).
// CHECK: function callext
// CHECK-NEXT: T_callext(x) = t(v1) + U(v2) + t(v3) + U(v4) + t(v5) + U(v6)
// CHECK-NEXT: v1 Stage
// CHECK-NEXT:   HLLC: mem.local.read=1{{$}}
// CHECK-NEXT: v2 Unknown @11 reason: call to external function 'ext' (no body in this translation unit)
// CHECK-NEXT: v3 Stage
// CHECK-NEXT:   HLLC: mem.local.read=1{{$}}
// CHECK-NEXT: v4 Unknown @12 reason: call to external function 'log_value' (no body in this translation unit)
// CHECK-NEXT: v5 Stage
// CHECK-NEXT:   HLLC: mem.local.read=1{{$}}
// CHECK-NEXT: v6 Unknown @13 reason: call to external function 'ext'
// CHECK: warning: {{.*}}unknown-external.c:11: segtime: not characterised: call to external function 'ext'
