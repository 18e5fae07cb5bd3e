// Compound assignment and ++/--: read, operate, write the target.
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json | FileCheck %s

void comp(int *a, int i, double x, double y) {
  x += y;
  x *= 2.0;
  i++;
  --i;
  a[i] -= 3;
  x /= y;
}

// Hand count: 'x += y' reads y, x, f64 add, writes x. 'x *= 2.0' reads x,
// f64 mul, writes x. 'i++' reads i, i32 add, writes i. '--i' reads i, i32
// sub, writes i. 'a[i] -= 3' reads a, i, a[i] (array), i32 sub, writes a[i].
// 'x /= y' reads y, x, f64 div (4 flop), writes x.
// Locals read 2+1+1+1+2+2 = 9, written 4 + 1 = 5; flop 1 + 1 + 4 = 6.
// CHECK: function comp
// CHECK-NEXT: T_comp(a, i, x, y) = t(v1)
// CHECK-NEXT: v1 Stage
// CHECK-NEXT:   HLLC: f64.add=1 f64.div=1 f64.mul=1 i32.add=1 i32.sub=2 mem.array.read=1 mem.array.write=1 mem.local.read=9 mem.local.write=5{{$}}
// CHECK-NEXT:   POC: flop=6{{$}}
