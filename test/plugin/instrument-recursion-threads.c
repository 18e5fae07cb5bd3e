// Component timing of a recursive function run by two threads at once: the
// depth counters and the child ticks are per thread, so call counts are
// exact and the exclusive times of walk's nodes add up to its inclusive time
// (the outermost activations of both threads). Each activation does a loop of
// work: with almost none (fib) the corrected times are below the timers'
// resolution and clamp to 0 (docs/ct-json.md).
// RUN: %clang -O2 -pthread -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet -fplugin-arg-segtime-instrument \
// RUN:   -fplugin-arg-segtime-out=%t.seg.json %s %segtime_rt -o %t
// RUN: env SEGTIME_CT_FILE=%t.ct.json %t | FileCheck --check-prefix=OUT %s
// RUN: FileCheck %s < %t.ct.json
// RUN: %python %inputs/ct_recursion_check.py %t.ct.json walk:walk | FileCheck --check-prefix=SUM %s
#include <pthread.h>
#include <stdio.h>

/* A binary tree of depth d: 2^(d+1) - 1 activations, 300 iterations each. */
int walk(int d) {
  int s = d;
  for (int k = 0; k < 300; k++)
    s = s * 31 + (k ^ d);
  if (d > 0)
    s += walk(d - 1) + walk(d - 1);
  return s;
}

static void *work(void *arg) {
  *(int *)arg = walk(*(int *)arg);
  return NULL;
}

int main(void) {
  int a = 10, b = 10;
  pthread_t t1, t2;
  pthread_create(&t1, NULL, work, &a);
  pthread_create(&t2, NULL, work, &b);
  pthread_join(t1, NULL);
  pthread_join(t2, NULL);
  printf("%d %d\n", a, b);
  return 0;
}

// OUT: [[V:-?[0-9]+]] [[V]]
// walk(10): 2047 activations, 1023 of them call walk twice; two threads.
// CHECK-LABEL: {"name": "walk", {{.*}} "recursive": true, "calls": 4094,
// CHECK-NEXT: "nodes": [
// CHECK-NEXT: {"kind": "loop", {{.*}} "entries": 4094, "iterations": 1228200}
// CHECK: {"kind": "call", {{.*}} "callee": "walk", "count": 2046,
// CHECK: {"kind": "call", {{.*}} "callee": "walk", "count": 2046,
// CHECK-LABEL: {"name": "work", {{.*}} "calls": 2,
// CHECK: {"kind": "call", {{.*}} "callee": "walk", "count": 2,
// Within 5 % (see instrument-recursion.c).
// SUM: walk: 4094 activations, exclusive sum / inclusive = {{0\.9[5-9][0-9]*|1\.0[0-4][0-9]*}}
