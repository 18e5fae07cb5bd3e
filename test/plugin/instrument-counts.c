// Component timing: exact loop iteration counts (nested, triangular,
// data-dependent while, do-while, early break), branch arm counts, switch
// arms, call counts and recursion, at -O0 and -O2; the program's output is
// unchanged; SEGTIME_CT_FILE names the output.
// RUN: %clang -O0 %s -o %t-plain && %t-plain > %t-plain.out
// RUN: %clang -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet -fplugin-arg-segtime-instrument \
// RUN:   -fplugin-arg-segtime-out=%t.seg.json %s %segtime_rt -o %t-O0
// RUN: env SEGTIME_CT_FILE=%t-O0.ct.json %t-O0 > %t-O0.out
// RUN: cmp %t-plain.out %t-O0.out
// RUN: FileCheck %s < %t-O0.ct.json
// RUN: %clang -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet -fplugin-arg-segtime-instrument \
// RUN:   -fplugin-arg-segtime-out=%t2.seg.json %s %segtime_rt -o %t-O2
// RUN: env SEGTIME_CT_FILE=%t-O2.ct.json %t-O2 > %t-O2.out
// RUN: cmp %t-plain.out %t-O2.out
// RUN: FileCheck %s < %t-O2.ct.json
#include <stdio.h>

static int data[64];

int tri(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++)
      s += i ^ j;
  return s;
}

int collatz(int x) {
  int steps = 0;
  while (x != 1) {
    if (x % 2)
      x = 3 * x + 1;
    else
      x /= 2;
    steps++;
  }
  return steps;
}

int classify(int v) {
  switch (v % 4) {
  case 0:
    return 10;
  case 1:
  case 2:
    return 20;
  default:
    return 30;
  }
}

int find(int n, int key) {
  int i = 0;
  do {
    if (data[i] == key)
      break;
    i++;
  } while (i < n);
  return i;
}

int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

int main(void) {
  for (int i = 0; i < 64; i++)
    data[i] = i * 3;
  int t = 0;
  for (int r = 0; r < 4; r++)
    t += tri(10 + r);
  t += collatz(27);
  for (int v = 0; v < 10; v++)
    t += classify(v);
  t += find(64, 30);
  printf("%d %d\n", t, fib(10));
  return 0;
}

// CHECK: "schema": "segtime.ct/1"
// CHECK-SAME: "program": "instrument-counts.c.tmp-O{{[02]}}"
// CHECK: "timer": {"source": "rdtsc", "hz": {{[0-9.e+]+}}
// Triangular: 4 calls, n = 10..13: sum n = 46 outer, sum n(n+1)/2 = 55+66+78+91 = 290 inner.
// CHECK-LABEL: {"name": "tri", {{.*}} "recursive": false, "calls": 4,
// CHECK-NEXT: "nodes": [
// CHECK-NEXT: {"kind": "loop", {{.*}} "line": 22, "col": 3, "parent": -1, {{.*}} "entries": 4, "iterations": 46, "inclusive_s": {{.*}}
// CHECK-NEXT: {"kind": "loop", {{.*}} "line": 23, "col": 5, "parent": 0, {{.*}} "entries": 46, "iterations": 290}
// Collatz(27): 111 steps, 41 odd.
// CHECK-LABEL: {"name": "collatz", {{.*}} "calls": 1,
// CHECK: {"kind": "loop", {{.*}} "line": 30, {{.*}} "entries": 1, "iterations": 111}
// CHECK-NEXT: {"kind": "branch", {{.*}} "line": 31, {{.*}} "op": "br", "executions": 111, "arms": [{"label": "true", "count": 41, {{.*}}}, {"label": "false", "count": 70,
// v % 4 for v = 0..9: 0 three times, 1 or 2 five times, 3 twice.
// CHECK-LABEL: {"name": "classify", {{.*}} "calls": 10,
// CHECK: "op": "switch", "executions": 10, "arms": [{"label": "default", "count": 2, {{.*}}}, {"label": "case 0", "count": 3, {{.*}}}, {"label": "case 1", "count": 3, {{.*}}}, {"label": "case 2", "count": 2,
// find: data[10] == 30, so the body runs 11 times and the loop leaves by break.
// CHECK-LABEL: {"name": "find",
// CHECK: {"kind": "loop", {{.*}} "line": 54, {{.*}} "entries": 1, "iterations": 11}
// CHECK-NEXT: {"kind": "branch", {{.*}} "line": 55, {{.*}} "executions": 11, "arms": [{"label": "true", "count": 1,
// CHECK-LABEL: {"name": "fib", {{.*}} "recursive": true, "calls": 177,
// CHECK: {"kind": "call", {{.*}} "callee": "fib", "count": 88,
// CHECK: {"kind": "call", {{.*}} "callee": "fib", "count": 88,
// CHECK-LABEL: {"name": "main", {{.*}} "calls": 1,
// CHECK: {"kind": "loop", {{.*}} "line": 65, {{.*}} "entries": 1, "iterations": 64}
// CHECK: {"kind": "loop", {{.*}} "line": 68, {{.*}} "entries": 1, "iterations": 4, "inclusive_s":
// CHECK: {"kind": "call", {{.*}} "callee": "tri", "count": 4, "inclusive_s":
