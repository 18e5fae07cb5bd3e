// ICC instruction counts of code the AsmPrinter's stream does not show, or
// that runs on a CFG edge (passes/MachineLevel.cpp BlockCosting):
//  - the assembler's alignment padding in front of a loop header (multi-byte
//    nops) runs when the block before it falls through into the header;
//  - loop-exit jumps and the epilogue that shrink-wrapping put on a loop's
//    exit edge run once per execution of the loop, not once per iteration
//    (a Stage after the Loop node, IRFunctionSeg::LoopExits).
// RUN: %clang -target x86_64-linux-gnu -O2 -march=x86-64-v3 \
// RUN:   -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet -fplugin-arg-segtime-targets=compile \
// RUN:   -fplugin-arg-segtime-out=%t.json -mllvm -segtime-icc-dump -c %s -o %t.o 2> %t.dump
// RUN: FileCheck --check-prefix=DUMP %s < %t.dump
// RUN: %segtime show %t.json --ir | FileCheck %s

// Horner: the inner loop is unrolled by 8 with a remainder loop; both loop
// headers are aligned to 16 bytes and reached by falling through.
// DUMP: polyeval bb.4 (loop) -> bb4 (inherited) (edge: 1 nops of alignment padding): {{.*}}instructions=2
// DUMP-NEXT: movq $-1, %r12
// DUMP-NEXT: nopw %cs:(%rax,%rax)
// DUMP: polyeval bb.8 (loop) -> bb5 (inherited) (edge: 1 nops of alignment padding): {{.*}}instructions=5
// DUMP: nopw %cs:(%rax,%rax)
// DUMP-NEXT: polyeval bb.9 (loop) -> bb6 (exit jump of 1 to bb.10)
// The exit jump of the remainder loop, taken out of the loop body.
// DUMP: polyeval bb.9 -> bb6: branch=1 {{.*}}instructions=1

// CHECK: function polyeval
// CHECK: ir5eir7 Stage @{{[0-9]+}} freq=(1 - cmp_lt((-2 + (1 + d)), 7))*(1 - cmp_lt(d, 1))
// CHECK-NEXT: ICC:x86-64-v3: {{.*}}instructions=2
// The unrolled loop's exit (negq), once per execution of that loop.
// CHECK: ir6 Loop @{{[0-9]+}} ir-loop trip=1 + idiv(-8 + 8*idiv(d, 8), 8)
// CHECK: ir7eir8 Stage @{{[0-9]+}} freq=(1 - cmp_lt((-2 + (1 + d)), 7))*(1 - cmp_lt(d, 1))
// CHECK-NEXT: ICC:x86-64-v3: {{.*}}instructions=1
// CHECK: ir9 Loop @{{[0-9]+}} ir-loop trip=umod(d, 8)
// CHECK: ir10eir11 Stage @{{[0-9]+}} freq=(1 - cmp_eq(umod(d, 8), 0))*(1 - cmp_lt(d, 1))
// CHECK-NEXT: ICC:x86-64-v3: branch=1 {{.*}}instructions=1
// The restore of five callee-saved registers on the outer loop's exit:
// once per call (freq of the Loop node ir3), not n times.
// CHECK: ir11eir12 Stage @{{[0-9]+}} freq=cmp_lt(0, n)
// CHECK-NEXT: ICC:x86-64-v3: {{.*}}instructions=5 mem.load=5
void polyeval(int n, int d, const double *c, const double *x, double *y) {
  for (int i = 0; i < n; i++) {
    double s = c[d];
    for (int j = 1; j <= d; j++)
      s = s * x[i] + c[d - j];
    y[i] = s;
  }
}
