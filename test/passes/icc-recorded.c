// The ICC level of the compile's own target is recorded from the compile's
// own code generation (passes/MachineLevel.cpp, recordCompileCodegen): the
// object file is byte-identical to one built without the plugin, and the
// ICC RUVs are those of the clone compiled a second time
// (-mllvm -segtime-icc-clone), here with a jump table (the switch), a
// constant pool (the double constants), a call, a loop and inline asm.
// RUN: %clang -target x86_64-linux-gnu -O2 -c %s -o %t-plain.o
// RUN: %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=compile -fplugin-arg-segtime-out=%t-rec.json -c %s -o %t-rec.o
// RUN: %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=compile -mllvm -segtime-icc-clone \
// RUN:   -fplugin-arg-segtime-out=%t-clone.json -c %s -o %t-clone.o
// RUN: cmp %t-plain.o %t-rec.o
// RUN: cmp %t-plain.o %t-clone.o
// RUN: %python %inputs/icc_ruvs_equal.py --segtime %segtime %t-rec.json %t-clone.json | FileCheck %s --check-prefix=EQUAL
// EQUAL: ICC RUVs equal
// The jump table's indirect jump is in the recorded code.
// RUN: %segtime show %t-rec.json --ir | FileCheck %s
// CHECK: function sw
// CHECK: ICC:x86-64: branch=1
//
// Two of the examples, at -O2 and -Os (code generation at the default level,
// as the clone's; at -O0, -O1 and -O3 clang's differs: see below).
// RUN: %clang -target x86_64-linux-gnu -O2 -I%S/../../examples -fplugin=%segtime_plugin \
// RUN:   -fplugin-arg-segtime-quiet -fplugin-arg-segtime-targets=compile \
// RUN:   -fplugin-arg-segtime-out=%t-lu.json -c %S/../../examples/lu.c -o %t-lu.o 2>/dev/null
// RUN: %clang -target x86_64-linux-gnu -O2 -I%S/../../examples -fplugin=%segtime_plugin \
// RUN:   -fplugin-arg-segtime-quiet -fplugin-arg-segtime-targets=compile -mllvm -segtime-icc-clone \
// RUN:   -fplugin-arg-segtime-out=%t-lu-clone.json -c %S/../../examples/lu.c -o %t-lu-clone.o 2>/dev/null
// RUN: %python %inputs/icc_ruvs_equal.py --segtime %segtime %t-lu.json %t-lu-clone.json | FileCheck %s --check-prefix=EQUAL
// RUN: %clang -target x86_64-linux-gnu -Os -I%S/../../examples -fplugin=%segtime_plugin \
// RUN:   -fplugin-arg-segtime-quiet -fplugin-arg-segtime-targets=compile \
// RUN:   -fplugin-arg-segtime-out=%t-nb.json -c %S/../../examples/nbody.c -o %t-nb.o 2>/dev/null
// RUN: %clang -target x86_64-linux-gnu -Os -I%S/../../examples -fplugin=%segtime_plugin \
// RUN:   -fplugin-arg-segtime-quiet -fplugin-arg-segtime-targets=compile -mllvm -segtime-icc-clone \
// RUN:   -fplugin-arg-segtime-out=%t-nb-clone.json -c %S/../../examples/nbody.c -o %t-nb-clone.o 2>/dev/null
// RUN: %python %inputs/icc_ruvs_equal.py --segtime %segtime %t-nb.json %t-nb-clone.json | FileCheck %s --check-prefix=EQUAL
//
// At -O0 clang's code generation runs at its lowest level (fast register
// allocation: values spilled to the stack) and the clone's at the default
// level: the recorded RUVs are those of the object's code, with its spills.
// RUN: %clang -target x86_64-linux-gnu -O0 -c %s -o %t0-plain.o
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=compile -fplugin-arg-segtime-out=%t0.json -c %s -o %t0-rec.o
// RUN: cmp %t0-plain.o %t0-rec.o
// RUN: %segtime show %t0.json --ir | FileCheck %s --check-prefix=O0
// O0: function cp
// O0: ICC:x86-64: {{.*}}mem.store=
//
// With other targets compiled from clones before it (their AsmPrinters are
// built through the same target registry): the same RUVs, the same file
// content (the vocabulary's numbering follows the order in which functions
// are done: code generation's, or all at once).
// RUN: %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=znver4,compile,leon3 -fplugin-arg-segtime-out=%tm.json \
// RUN:   -c %s -o %tm.o
// RUN: %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=znver4,compile,leon3 -mllvm -segtime-icc-clone \
// RUN:   -fplugin-arg-segtime-out=%tm-clone.json -c %s -o %tm-clone.o
// RUN: cmp %t-plain.o %tm.o
// RUN: %segtime show %tm.json --json > %tm.txt
// RUN: %segtime show %tm-clone.json --json > %tm-clone.txt
// RUN: cmp %tm.txt %tm-clone.txt
// RUN: FileCheck %s --check-prefix=MULTI < %tm.json
// MULTI-DAG: "ICC:x86-64"
// MULTI-DAG: "ICC:znver4"
// MULTI-DAG: "ICC:leon3"
//
// With debug information, in assembly output (-S: the clone), and without
// code generation (-emit-llvm: the clone): the same objects, ICC RUVs in
// all.
// RUN: %clang -target x86_64-linux-gnu -O2 -g -c %s -o %tg-plain.o
// RUN: %clang -target x86_64-linux-gnu -O2 -g -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=compile -fplugin-arg-segtime-out=%tg.json -c %s -o %tg-rec.o
// RUN: cmp %tg-plain.o %tg-rec.o
// RUN: %python %inputs/icc_ruvs_equal.py --segtime %segtime %tg.json %t-rec.json | FileCheck %s --check-prefix=EQUAL
// RUN: %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=compile -fplugin-arg-segtime-out=%ts.json -S %s -o %t.s
// RUN: %python %inputs/icc_ruvs_equal.py --segtime %segtime %ts.json %t-rec.json | FileCheck %s --check-prefix=EQUAL

int g(int);

int sw(int x, int n) {
  int s = 0;
  for (int i = 0; i < n; i++) {
    switch ((x + i) & 7) {
    case 0: s += 3; break;
    case 1: s ^= g(i); break;
    case 2: s -= 7; break;
    case 3: s *= 5; break;
    case 4: s += g(s); break;
    case 5: s >>= 1; break;
    default: s += i;
    }
  }
  return s;
}

double cp(double x, int n) {
  double y = 0;
  for (int i = 0; i < n; i++)
    y = y * 1.25 + x * 3.14159 - 0.5;
  return y;
}

int asmf(int a) {
  int r;
  __asm__("leal 1(%1), %0" : "=r"(r) : "r"(a));
  return r;
}
