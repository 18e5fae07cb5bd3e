// Recursion (direct and mutual) makes the call an Unknown node with a reason,
// a compiler warning, and an entry in predict's "not costed" list.
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: %segtime show %t.json | FileCheck %s
// RUN: %segtime predict %t.json --machine t800 --function fact | FileCheck %s --check-prefix=TEXT
// RUN: %segtime predict %t.json --machine t800 --function fact --json | FileCheck %s --check-prefix=JSON

int fact(int n) {
  if (n <= 1)
    return 1;
  return n * fact(n - 1);
}

int is_odd(int n);
int is_even(int n) { return n == 0 ? 1 : is_odd(n - 1); }
int is_odd(int n) { return n == 0 ? 0 : is_even(n - 1); }

// WARN-DAG: 9:5: warning: segtime: not characterised: recursive call (SEG node v4 in 'fact')
// WARN-DAG: 16:5: warning: segtime: not characterised: recursive call (SEG node {{v[0-9]+}} in 'is_even')
// WARN-DAG: 17:5: warning: segtime: not characterised: recursive call (SEG node {{v[0-9]+}} in 'is_odd')

// Hand count (fact): v1: reads n, i32 cmp, if (guard). Else arm: v3 reads n
// twice, i32 sub (the argument); v4 the recursive call; v5 the i32 mul.
// CHECK: function fact
// CHECK:      v1 Stage
// CHECK-NEXT:   HLLC: i32.cmp=1 if=1 mem.local.read=1{{$}}
// CHECK-NEXT: v2 Branch @10
// CHECK-NEXT:   arm then p=P_fact_10
// CHECK-NEXT:   arm else p=1 - P_fact_10
// CHECK-NEXT:     v3 Stage
// CHECK-NEXT:       HLLC: i32.sub=1 mem.local.read=2{{$}}
// CHECK-NEXT:     v4 Unknown @12 reason: recursive call to 'fact'
// CHECK:          v5 Stage
// CHECK-NEXT:       HLLC: i32.mul=1{{$}}
// CHECK: function is_even
// CHECK: Unknown @16 reason: recursive call to 'is_odd'
// CHECK: function is_odd
// CHECK: Unknown @17 reason: recursive call to 'is_even'

// TEXT: not costed: fact:12: recursive call to 'fact'
// JSON: "unresolved": [
// JSON-NEXT: "fact:12: recursive call to 'fact'"
