// A while loop is not counted: trip is the parameter N_<fn>_<line>, no
// default; the condition's operations count per iteration.
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json | FileCheck %s
// RUN: %segtime predict %t.json --machine t800 -p N_count_while_11=4 --level hllc --json \
// RUN:   | FileCheck %s --check-prefix=JSON

int count_while(int n) {
  int c = 0;
  while (n > 1) {
    n = n / 2;
    c++;
  }
  return c;
}

// Hand count: v1 writes c. v3 (per iteration): loop = 1, condition 'n > 1'
// reads n, one i32 cmp. v4: 'n = n / 2' reads n, i32 div, writes n; 'c++'
// reads c, i32 add, writes c. v5 reads c.
// CHECK: function count_while
// CHECK-NEXT: T_count_while(n) = t(v1) + N_count_while_11·(t(v3) + t(v4)) + t(v5)
// CHECK-NEXT: param N_count_while_11 default=none [none] iterations of the while loop
// CHECK:      v1 Stage
// CHECK-NEXT:   HLLC: mem.local.write=1{{$}}
// CHECK-NEXT: v2 Loop @11 while trip=N_count_while_11{{$}}
// CHECK-NEXT:   v3 Stage
// CHECK-NEXT:     HLLC: i32.cmp=1 loop=1 mem.local.read=1{{$}}
// CHECK-NEXT:   v4 Stage
// CHECK-NEXT:     HLLC: i32.add=1 i32.div=1 mem.local.read=2 mem.local.write=2{{$}}
// CHECK-NEXT: v5 Stage
// CHECK-NEXT:   HLLC: mem.local.read=1{{$}}

// N = 4: loop 4, i32.cmp 4, i32.div 4, i32.add 4, reads 4*3 + 1 = 13,
// writes 1 + 4*2 = 9.
// JSON: "i32.add": 4.0,
// JSON-NEXT: "i32.cmp": 4.0,
// JSON-NEXT: "i32.div": 4.0,
// JSON-NEXT: "loop": 4.0,
// JSON-NEXT: "mem.local.read": 13.0,
// JSON-NEXT: "mem.local.write": 9.0
// JSON: "parameters": [
// JSON-NEXT: {
// JSON-NEXT: "name": "N_count_while_11",
// JSON-NEXT: "source": "user",
// JSON-NEXT: "value": 4.0
