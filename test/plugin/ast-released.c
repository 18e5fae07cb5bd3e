// The plugin builds every function's source-level SEG when clang's back end
// starts and releases the AST there, as clang does without a plugin
// (-clear-ast-before-backend): the .seg.json, the warnings and the object
// are the same as when the AST is kept to the end
// (-Xclang -no-clear-ast-before-backend, the SEGs built from it as code
// generation reaches each function), here with recursion, an external
// call, an unused static function (no code generated) and functions that
// code generation emits out of source order.
// RUN: %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=compile -fplugin-arg-segtime-out=%t-rel.json \
// RUN:   -c %s -o %t-rel.o 2> %t-rel.err
// RUN: %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=compile -fplugin-arg-segtime-out=%t-kept.json \
// RUN:   -Xclang -no-clear-ast-before-backend -c %s -o %t-kept.o 2> %t-kept.err
// RUN: cmp %t-rel.json %t-kept.json
// RUN: cmp %t-rel.o %t-kept.o
// RUN: diff %t-rel.err %t-kept.err
// RUN: FileCheck %s --check-prefix=WARN < %t-rel.err
// WARN: warning: segtime: not characterised in 'ext': calls to external functions puts
// WARN: warning: segtime: not characterised: recursive call
// The same at -O0 and with the summary printed (not quiet).
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin \
// RUN:   -fplugin-arg-segtime-machine=t800 -fplugin-arg-segtime-out=%t-rel0.json \
// RUN:   -c %s -o %t-rel0.o 2> %t-rel0.err
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin \
// RUN:   -fplugin-arg-segtime-machine=t800 -fplugin-arg-segtime-out=%t-kept0.json \
// RUN:   -Xclang -no-clear-ast-before-backend -c %s -o %t-kept0.o 2> %t-kept0.err
// RUN: cmp %t-rel0.json %t-kept0.json
// RUN: grep -v 'segtime: wrote' %t-rel0.err > %t-rel0.txt
// RUN: grep -v 'segtime: wrote' %t-kept0.err > %t-kept0.txt
// RUN: diff %t-rel0.txt %t-kept0.txt
// RUN: FileCheck %s --check-prefix=SUMMARY < %t-rel0.err
// SUMMARY: segtime: fib
// SUMMARY: T_fib(n) =

int puts(const char *);

static int helper(int n) { return n * 3 + 1; }

static int unused(int n) { return n - 1; }

int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

void ext(int n) {
  for (int i = 0; i < n; i++)
    puts("x");
}

int sum(int n, const int *a) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += helper(a[i]);
  return s;
}
