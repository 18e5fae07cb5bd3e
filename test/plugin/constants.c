// Constants and folded expressions count nothing: '2.0 * 3.0', 'sizeof',
// literals, an empty asm barrier.
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json | FileCheck %s

double konst(void) {
  double x = 2.0 * 3.0;
  int n = sizeof(double) * 4;
  ;
  return x + 1.5;
}

void nothing(void) {
  ;
  asm volatile("");
}

// Hand count: two declarations with initialisers write two locals; the
// return reads x and adds (1 flop). No mul, no integer operation.
// CHECK: function konst
// CHECK-NEXT: T_konst() = t(v1)
// CHECK-NEXT: v1 Stage
// CHECK-NEXT:   HLLC: f64.add=1 mem.local.read=1 mem.local.write=2{{$}}
// CHECK-NEXT:   POC: flop=1{{$}}
// An empty statement and an empty asm barrier: no nodes.
// CHECK-NEXT: function nothing
// CHECK-NEXT: T_nothing() = 0
// CHECK-NOT: v1
