// The expression algebra (GiNaC, CLN) is a module of its own,
// segtime-expr.so, that the plugin loads from its own directory the first
// time it simplifies an expression (predictor/ExprModule.h): a file whose
// functions have no loop or branch does not load it, one with a loop does,
// with the same .seg.json; a plugin without the module next to it warns
// once, naming the file, and the compile goes on (trip counts unsimplified).
// RUN: rm -rf %t.dir && mkdir -p %t.dir/alone
// RUN: env LD_DEBUG=files %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin \
// RUN:   -fplugin-arg-segtime-quiet -fplugin-arg-segtime-targets=compile -DSTRAIGHT \
// RUN:   -fplugin-arg-segtime-out=%t.dir/straight.json -c %s -o %t.dir/straight.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STRAIGHT
// RUN: env LD_DEBUG=files %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin \
// RUN:   -fplugin-arg-segtime-quiet -fplugin-arg-segtime-targets=compile \
// RUN:   -fplugin-arg-segtime-out=%t.dir/loop.json -c %s -o %t.dir/loop.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LOOP
// RUN: FileCheck %s --check-prefix=SEG < %t.dir/loop.json
// RUN: cp %segtime_plugin %t.dir/alone/segtime.so
// RUN: %clang -target x86_64-linux-gnu -O2 -fplugin=%t.dir/alone/segtime.so \
// RUN:   -fplugin-arg-segtime-quiet -fplugin-arg-segtime-out=%t.dir/alone.json \
// RUN:   -c %s -o %t.dir/alone.o 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: FileCheck %s --check-prefix=ALONE < %t.dir/alone.json

// STRAIGHT: segtime.so
// STRAIGHT-NOT: segtime-expr.so
// STRAIGHT-NOT: libginac

// LOOP: file={{.*}}segtime-expr.so {{.*}}dynamically loaded by {{.*}}segtime.so
// LOOP: file=libginac.so{{.*}}needed by {{.*}}segtime-expr.so

// The trip count, simplified by the algebra: n - 1 iterations.
// SEG: "name":"sum"
// SEG-SAME: "start":"1","step":"1","t":"n - 1"

// MISSING: segtime: warning: cannot load the expression algebra {{.*}}alone{{/|\\}}segtime-expr.so{{.*}}; expressions are written unsimplified
// MISSING-NOT: segtime: warning: cannot load
// ALONE: "name":"sum"

int add1(int x) { return x + 1; }

#ifndef STRAIGHT
int sum(int n) {
  int s = 0;
  for (int i = 1; i < n; ++i)
    s += i;
  return s;
}
#endif
