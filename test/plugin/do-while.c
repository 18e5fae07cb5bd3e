// A do-while loop: trip N_<fn>_<line> (no default), condition counted per
// iteration. Without a value, predict fails and names the parameter.
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json | FileCheck %s
// RUN: not %segtime predict %t.json --machine t800 --json 2>&1 | FileCheck %s --check-prefix=MISSING

int count_do(int n) {
  int c = 0;
  do {
    c += 2;
  } while (c < n);
  return c;
}

// Hand count: v1 writes c. v3: loop = 1, 'c < n' reads c and n, i32 cmp.
// v4: 'c += 2' reads c, i32 add, writes c. v5 reads c.
// CHECK: function count_do
// CHECK-NEXT: T_count_do(n) = t(v1) + N_count_do_10·(t(v3) + t(v4)) + t(v5)
// CHECK-NEXT: param N_count_do_10 default=none [none] iterations of the do loop
// CHECK:      v1 Stage
// CHECK-NEXT:   HLLC: mem.local.write=1{{$}}
// CHECK-NEXT: v2 Loop @10 do trip=N_count_do_10{{$}}
// CHECK-NEXT:   v3 Stage
// CHECK-NEXT:     HLLC: i32.cmp=1 loop=1 mem.local.read=2{{$}}
// CHECK-NEXT:   v4 Stage
// CHECK-NEXT:     HLLC: i32.add=1 mem.local.read=1 mem.local.write=1{{$}}
// CHECK-NEXT: v5 Stage
// CHECK-NEXT:   HLLC: mem.local.read=1{{$}}

// MISSING: segtime: error: missing parameter value(s) for count_do: N_count_do_10
