// Constant subexpressions inside non-constant ones count nothing, and
// operands that may be left unevaluated ('0 && f(x)', '1 ? 4 : x') fold:
// the AST SEG's shortcut past Expr::isEvaluatable (certainlyNotConstant,
// plugin/SegBuilder.cpp) must give what the evaluator gives.
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json | FileCheck %s

int g;
const int k = 3;
struct S { int a; int b[4]; } s;
int f(int);

int mixed(int x) {
  int y = x * (2 * 3);
  int z = (0 && f(x)) + (1 ? 4 : x) + s.a * (k + 1);
  return y + z + (g && 0);
}

// Hand count: 'x * 6' (one mul), '4 + s.a * 4' (one add, one mul; k is a
// const int with a constant initialiser), 'y + z' (one add) before the
// branch of 'g && 0', whose rhs is a constant; the last add after it.
// CHECK: function mixed
// CHECK: v1 Stage
// CHECK-NEXT: HLLC: i32.add=2 i32.mul=2 if=1 mem.global.read=2 mem.local.read=3 mem.local.write=2{{$}}
// CHECK-NEXT: v2 Branch
// CHECK-NEXT: arm rhs
// CHECK-NEXT: v3 Stage
// CHECK-NEXT: HLLC: i32.add=1{{$}}
