// Operators: '!x' on a double is an f64 compare (1 flop); shifts, bitwise
// operators, remainder; unary minus is a sub; char arithmetic promotes to int
// (size changes: cvt.i2i) and converts back; long double is f64.
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json | FileCheck %s

int lnot(double x) { return !x; }
int bits(int a, int b) { return ((a << 2) & ~b) % 7; }
long lbits(long a, long b) { return (a >> 1) ^ b; }
int neg(int a) { return -a; }
double fneg(double a) { return -a; }
char add_chars(char a, char b) { return a + b; }
long double ld(long double a) { return a * a; }
int ptrcmp(const int *p, const int *q) { return p < q; }

// CHECK: function lnot
// CHECK: HLLC: f64.cmp=1 mem.local.read=1{{$}}
// CHECK-NEXT: POC: flop=1{{$}}
// CHECK-NEXT: function bits
// CHECK: HLLC: i32.bit=2 i32.rem=1 i32.shift=1 mem.local.read=2{{$}}
// CHECK-NEXT: function lbits
// CHECK: HLLC: i64.bit=1 i64.shift=1 mem.local.read=2{{$}}
// CHECK-NEXT: function neg
// CHECK: HLLC: i32.sub=1 mem.local.read=1{{$}}
// CHECK-NEXT: function fneg
// CHECK: HLLC: f64.sub=1 mem.local.read=1{{$}}
// CHECK-NEXT: POC: flop=1{{$}}
// a and b widen to int (2 cvt.i2i), i32 add, the int result narrows to char.
// CHECK-NEXT: function add_chars
// CHECK: HLLC: cvt.i2i=3 i32.add=1 mem.local.read=2{{$}}
// CHECK-NEXT: function ld
// CHECK: HLLC: f64.mul=1 mem.local.read=2{{$}}
// CHECK-NEXT: POC: flop=1{{$}}
// Pointer comparison: i64.
// CHECK-NEXT: function ptrcmp
// CHECK: HLLC: i64.cmp=1 mem.local.read=2{{$}}
