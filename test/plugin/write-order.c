// The plugin writes each function when its IR SEG is final (code generation
// order: a static function comes after its first user), yet the .seg.json
// lists the functions in source order, each with its IR level; a function
// with no code (static, unused) is written too, with no IR level.
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=compile -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json | FileCheck %s
// RUN: %segtime show %t.json --ir | FileCheck %s --check-prefix=IR
// The same file content when the functions are done all at once (no ICC
// level recorded from code generation).
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t-none.json -c %s -o %t-none.o
// RUN: %segtime show %t-none.json | FileCheck %s

static int helper(int x) { return 2 * x + 1; }
static int unused(int x) { return x; }
int user(int n) {
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += helper(i);
  return s;
}
int last(int n) { return user(n) + helper(n); }

// CHECK: function helper
// CHECK: function unused
// CHECK: function user
// CHECK: function last
// IR: function helper
// IR: ICC:x86-64:
// IR: function unused
// IR-NOT: ICC:x86-64:
// IR: function user
// IR: ICC:x86-64:
// IR: function last
// IR: ICC:x86-64:
