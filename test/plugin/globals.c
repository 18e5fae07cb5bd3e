// Globals and static locals: mem.global.read / mem.global.write.
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json | FileCheck %s

int counter;
double total;

void bump(double x) {
  counter++;
  total = total + x;
}

int next_id(void) {
  static int last = 100;
  last = last + 1;
  return last;
}

// Hand count (bump): 'counter++' reads and writes a global, i32 add;
// 'total = total + x' reads total (global) and x (local), f64 add, writes total.
// CHECK: function bump
// CHECK-NEXT: T_bump(x) = t(v1)
// CHECK-NEXT: v1 Stage
// CHECK-NEXT:   HLLC: f64.add=1 i32.add=1 mem.global.read=2 mem.global.write=2 mem.local.read=1{{$}}
// CHECK-NEXT:   POC: flop=1{{$}}
// (next_id): the static's initialiser runs before the program (nothing);
// 'last = last + 1' reads and writes a static, i32 add; return reads it.
// CHECK: function next_id
// CHECK-NEXT: T_next_id() = t(v1)
// CHECK-NEXT: v1 Stage
// CHECK-NEXT:   HLLC: i32.add=1 mem.global.read=2 mem.global.write=1{{$}}
