// A call through a function pointer is an Unknown node with a warning.
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: %segtime show %t.json | FileCheck %s
// RUN: %segtime predict %t.json --machine t800 | FileCheck %s --check-prefix=TEXT

double apply(double (*f)(double), double x) {
  return f(x) + 1.0;
}

// WARN: indirect.c:8:10: warning: segtime: not characterised: indirect call (callee not known at compile time) (SEG node v2 in 'apply')
// CHECK: function apply
// CHECK: v2 Unknown @8 reason: indirect call (callee not known at compile time)
// The addition after the call: 1 flop.
// CHECK-NEXT: v3 Stage
// CHECK-NEXT:   HLLC: f64.add=1{{$}}
// CHECK-NEXT:   POC: flop=1{{$}}
// CHECK: warning: {{.*}}unknown-indirect.c:8: segtime: not characterised: indirect call
// TEXT: not costed: apply:8: indirect call (callee not known at compile time)
