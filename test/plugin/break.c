// A counted-looking for loop with a 'break' leaves early: it gets a parameter
// N_<fn>_<line> (no default) and its test and increment count per iteration.
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json | FileCheck %s

int find(int n, const int *a, int x) {
  int k = -1;
  for (int i = 0; i < n; i++)
    if (a[i] == x) {
      k = i;
      break;
    }
  return k;
}

// Hand count: v1 writes k and i. v3: loop = 1, 'i < n' (2 reads, i32 cmp),
// 'i++' (read, i32 add, write). v4: 'a[i] == x' reads a, i, x, a[i], i32
// cmp, plus the if. v6: 'k = i' reads i, writes k. v7 reads k.
// CHECK: function find
// CHECK-NEXT: T_find(n, a, x) = t(v1) + N_find_9·(t(v3) + t(v4) + P_find_10·t(v6)) + t(v7)
// CHECK-NEXT: param N_find_9 default=none [none] iterations of the for loop (leaves early (break/return/goto))
// CHECK-NEXT: param P_find_10 default=0.500000
// CHECK:      v1 Stage
// CHECK-NEXT:   HLLC: mem.local.write=2{{$}}
// CHECK-NEXT: v2 Loop @9 for trip=N_find_9{{$}}
// CHECK-NEXT:   v3 Stage
// CHECK-NEXT:     HLLC: i32.add=1 i32.cmp=1 loop=1 mem.local.read=3 mem.local.write=1{{$}}
// CHECK-NEXT:   v4 Stage
// CHECK-NEXT:     HLLC: i32.cmp=1 if=1 mem.array.read=1 mem.local.read=3{{$}}
// CHECK-NEXT:   v5 Branch @10
// CHECK-NEXT:     arm then p=P_find_10
// CHECK-NEXT:       v6 Stage
// CHECK-NEXT:         HLLC: mem.local.read=1 mem.local.write=1{{$}}
// CHECK-NEXT: v7 Stage
// CHECK-NEXT:   HLLC: mem.local.read=1{{$}}
