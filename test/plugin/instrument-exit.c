// Component timing when the program calls exit() inside a loop: the counts
// up to the call are kept (exit() called in the instrumented function
// itself; a callee's exit() loses the caller's open loop and branch
// counters, docs/ct-json.md), the file is written, stdout is the program's own;
// without SEGTIME_CT_FILE the file is <program>.ct.json in the current
// directory.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clang -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet -fplugin-arg-segtime-instrument \
// RUN:   -fplugin-arg-segtime-out=%t.seg.json %s %segtime_rt -o %t.dir/prog
// RUN: cd %t.dir && not ./prog > out.txt
// RUN: FileCheck --check-prefix=OUT %s < %t.dir/out.txt
// RUN: FileCheck %s < %t.dir/prog.ct.json
#include <stdio.h>
#include <stdlib.h>

void say(int i) { printf("stopping at %d\n", i); }

int main(void) {
  for (int i = 0; i < 100; i++)
    if (i == 7) {
      say(i);
      exit(3);
    }
  return 0;
}

// OUT: stopping at 7
// OUT-NOT: {{.}}
// CHECK: "program": "prog"
// CHECK-LABEL: {"name": "say", {{.*}} "calls": 1,
// CHECK-LABEL: {"name": "main", {{.*}} "calls": 1,
// CHECK: {"kind": "loop", {{.*}} "line": 19, {{.*}} "entries": 1, "iterations": 8}
// CHECK: {"kind": "branch", {{.*}} "line": 20, {{.*}} "executions": 8, "arms": [{"label": "true", "count": 1,
