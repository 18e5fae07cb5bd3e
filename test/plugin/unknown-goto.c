// goto is an Unknown node (unstructured control flow) with a warning.
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: %segtime show %t.json | FileCheck %s

int spin_to(int n) {
  int i = 0;
again:
  i++;
  if (i < n)
    goto again;
  return i;
}

// WARN: goto.c:11:5: warning: segtime: not characterised: goto: unstructured control flow (SEG node v3 in 'spin_to')
// Hand count: v1: writes i; 'i++' reads i, i32 add, writes i; 'i < n' reads
// i and n, i32 cmp; if.
// CHECK: function spin_to
// CHECK-NEXT: T_spin_to(n) = t(v1) + P_spin_to_10·U(v3) + t(v4)
// CHECK-NEXT: param P_spin_to_10
// The goto makes a loop in the IR: the IR level has no trip count for it.
// CHECK-NEXT: param N_spin_to_7 default=none [none] iterations of the optimised loop at line 7 (ScalarEvolution could not count them)
// CHECK-NEXT: v1 Stage
// CHECK-NEXT:   HLLC: i32.add=1 i32.cmp=1 if=1 mem.local.read=3 mem.local.write=2{{$}}
// CHECK-NEXT: v2 Branch @10
// CHECK-NEXT:   arm then p=P_spin_to_10
// CHECK-NEXT:     v3 Unknown @11 reason: goto: unstructured control flow
// CHECK-NEXT: v4 Stage
// CHECK-NEXT:   HLLC: mem.local.read=1{{$}}
