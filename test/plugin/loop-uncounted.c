// for loops that are not counted get N_<fn>_<line> (no default) and count
// their test and increment per iteration: a bound read from memory, a bound
// or an index changed in the body, a 'return' out of the body.
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json | FileCheck %s

void bound_in_memory(const int *b, double *a) {
  for (int i = 0; i < b[0]; i++)
    a[i] = 0;
}

void bound_changed(int n) {
  for (int i = 0; i < n; i++)
    n--;
}

void index_changed(int n) {
  for (int i = 0; i < n; i++)
    i++;
}

int early_return(int n, const int *a) {
  for (int i = 0; i < n; i++)
    if (a[i])
      return i;
  return -1;
}

// Loop control 'i < b[0]; i++': reads i, b, b[0] (array), i32 cmp; reads i,
// i32 add, writes i; plus loop.
// CHECK: function bound_in_memory
// CHECK-NEXT: T_bound_in_memory(b, a) = t(v1) + N_bound_in_memory_9·(t(v3) + t(v4))
// CHECK-NEXT: param N_bound_in_memory_9 default=none [none] iterations of the for loop (is not a counted loop)
// CHECK: v2 Loop @9 for trip=N_bound_in_memory_9{{$}}
// CHECK-NEXT:   v3 Stage
// CHECK-NEXT:     HLLC: i32.add=1 i32.cmp=1 loop=1 mem.array.read=1 mem.local.read=3 mem.local.write=1{{$}}
// CHECK: function bound_changed
// CHECK-NEXT: T_bound_changed(n)
// CHECK-NEXT: param N_bound_changed_14 default=none
// CHECK: v2 Loop @14 for trip=N_bound_changed_14{{$}}
// CHECK-NEXT:   v3 Stage
// CHECK-NEXT:     HLLC: i32.add=1 i32.cmp=1 loop=1 mem.local.read=3 mem.local.write=1{{$}}
// CHECK-NEXT:   v4 Stage
// CHECK-NEXT:     HLLC: i32.sub=1 mem.local.read=1 mem.local.write=1{{$}}
// CHECK: function index_changed
// CHECK-NEXT: T_index_changed(n)
// CHECK-NEXT: param N_index_changed_19 default=none
// CHECK: v2 Loop @19 for trip=N_index_changed_19{{$}}
// CHECK: function early_return
// CHECK-NEXT: T_early_return(n, a)
// CHECK-NEXT: param N_early_return_24 default=none [none] iterations of the for loop (leaves early (break/return/goto))
// CHECK-NEXT: param P_early_return_25 default=0.500000
// CHECK: v2 Loop @24 for trip=N_early_return_24{{$}}
// 'if (a[i])' has no comparison operator: reads a, i, a[i] and the if.
// CHECK:        v4 Stage
// CHECK-NEXT:     HLLC: if=1 mem.array.read=1 mem.local.read=2{{$}}
