// Integer types: int (32 bits) -> i32, long (64 bits on x86_64) -> i64,
// pointer arithmetic -> i64.
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json | FileCheck %s

int isum(int a, int b) { return a * b + a; }
long lsum(long a, long b) { return a * b + a; }
long lcmp(long a, long b) { return a < b; }
int *padd(int *p, long k) { return p + k; }

// CHECK: function isum
// CHECK: HLLC: i32.add=1 i32.mul=1 mem.local.read=3{{$}}
// CHECK: function lsum
// CHECK: HLLC: i64.add=1 i64.mul=1 mem.local.read=3{{$}}
// 'a < b' on longs: i64 cmp; its int result widened to long: cvt.i2i.
// CHECK: function lcmp
// CHECK: HLLC: cvt.i2i=1 i64.cmp=1 mem.local.read=2{{$}}
// CHECK: function padd
// CHECK: HLLC: i64.add=1 mem.local.read=2{{$}}
