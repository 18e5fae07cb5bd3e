// Run-time conversions: int -> double cvt.i2f, double -> int cvt.f2i,
// float -> double cvt.f2f, int -> long cvt.i2i (size change); int ->
// unsigned (same size) is free. Compound assignment of a double into an int
// converts there and back.
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json | FileCheck %s

double i2f(int k) { return k; }
int f2i(double x) { return x; }
double f2f(float x) { return x; }
long i2i(int k) { return k; }
unsigned same(int k) { return k; }
double explicit_cast(int k) { return (double)k; }
int mixed(int k, double x) {
  k += x;
  return k;
}

// CHECK: function i2f
// CHECK: HLLC: cvt.i2f=1 mem.local.read=1{{$}}
// CHECK-NEXT: function f2i
// CHECK: HLLC: cvt.f2i=1 mem.local.read=1{{$}}
// CHECK-NEXT: function f2f
// CHECK: HLLC: cvt.f2f=1 mem.local.read=1{{$}}
// CHECK-NEXT: function i2i
// CHECK: HLLC: cvt.i2i=1 mem.local.read=1{{$}}
// CHECK-NEXT: function same
// CHECK: HLLC: mem.local.read=1{{$}}
// CHECK-NEXT: function explicit_cast
// CHECK: HLLC: cvt.i2f=1 mem.local.read=1{{$}}
// 'k += x': reads x and k, k to double, f64 add (1 flop), back to int,
// writes k; then 'return k' reads k.
// CHECK-NEXT: function mixed
// CHECK: HLLC: cvt.f2i=1 cvt.i2f=1 f64.add=1 mem.local.read=3 mem.local.write=1{{$}}
// CHECK-NEXT: POC: flop=1{{$}}
