// Math-library calls without a body count one HLLC construct and their
// McMahon flops: sqrt -> f64.sqrt (4), exp -> f64.exp (8), fabs -> f64.abs
// (0), sqrtf -> f32.sqrt (4). They are not Call nodes and warn about nothing.
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=WARN --allow-empty
// RUN: %segtime show %t.json | FileCheck %s

double sqrt(double);
double exp(double);
double fabs(double);
float sqrtf(float);

double m_sqrt(double x) { return sqrt(x); }
double m_exp(double x) { return exp(x); }
double m_fabs(double x) { return fabs(x); }
float m_sqrtf(float x) { return sqrtf(x); }

// WARN-NOT: warning
// CHECK: function m_sqrt
// CHECK-NEXT: T_m_sqrt(x) = t(v1)
// CHECK-NEXT: v1 Stage
// CHECK-NEXT:   HLLC: f64.sqrt=1 mem.local.read=1{{$}}
// CHECK-NEXT:   POC: flop=4{{$}}
// CHECK-NEXT: function m_exp
// CHECK-NEXT: T_m_exp(x) = t(v1)
// CHECK-NEXT: v1 Stage
// CHECK-NEXT:   HLLC: f64.exp=1 mem.local.read=1{{$}}
// CHECK-NEXT:   POC: flop=8{{$}}
// CHECK-NEXT: function m_fabs
// CHECK-NEXT: T_m_fabs(x) = t(v1)
// CHECK-NEXT: v1 Stage
// CHECK-NEXT:   HLLC: f64.abs=1 mem.local.read=1{{$}}
// CHECK-NEXT: function m_sqrtf
// CHECK-NEXT: T_m_sqrtf(x) = t(v1)
// CHECK-NEXT: v1 Stage
// CHECK-NEXT:   HLLC: f32.sqrt=1 mem.local.read=1{{$}}
// CHECK-NEXT:   POC: flop=4{{$}}
// CHECK-NOT: warning
