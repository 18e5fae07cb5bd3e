// -fplugin-arg-segtime-timing prints the plugin's own phase times (an
// llvm::TimerGroup table on stderr) and changes nothing else.
// RUN: %clang -target x86_64-linux-gnu -march=x86-64 -O2 -fplugin=%segtime_plugin \
// RUN:   -fplugin-arg-segtime-quiet -fplugin-arg-segtime-timing -fplugin-arg-segtime-targets=compile \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o > %t.txt 2>&1
// RUN: FileCheck %s < %t.txt
// RUN: FileCheck %s --check-prefix=NOCLONE < %t.txt
// RUN: FileCheck %s --check-prefix=MEM < %t.txt
// RUN: %clang -target x86_64-linux-gnu -march=x86-64 -O2 -fplugin=%segtime_plugin \
// RUN:   -fplugin-arg-segtime-quiet -fplugin-arg-segtime-targets=compile \
// RUN:   -fplugin-arg-segtime-out=%t2.json -c %s -o %t2.o 2>&1 | count 0
// RUN: cmp %t.json %t2.json
// RUN: cmp %t.o %t2.o
// The ICC level from a clone of the module compiled a second time (what
// targets other than the compile's own take): its phases.
// RUN: %clang -target x86_64-linux-gnu -march=x86-64 -O2 -fplugin=%segtime_plugin \
// RUN:   -fplugin-arg-segtime-quiet -fplugin-arg-segtime-timing -fplugin-arg-segtime-targets=compile \
// RUN:   -mllvm -segtime-icc-clone -fplugin-arg-segtime-out=%t3.json -c %s -o %t3.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CLONE
// RUN: cmp %t.json %t3.json

double sum(int n, const double *x) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i];
  return s;
}

// CHECK: segtime plugin phases
// CHECK-DAG: AST SEG (POC, HLLC)
// CHECK-DAG: IR SEG (IntCC)
// The compile's own code generation is recorded: no clone, no second one.
// NOCLONE-NOT: ICC clone of the module
// NOCLONE-NOT: ICC code generation
// CHECK-DAG: ICC recording of the compile's code generation
// CHECK-DAG: ICC block costing (llvm-mca, layout)
// CHECK-DAG: IR levels merged into the SEG
// CHECK-DAG: .seg.json written

// CLONE: segtime plugin phases
// CLONE-DAG: ICC clone of the module
// CLONE-DAG: ICC code generation
// CLONE-DAG: ICC block costing (llvm-mca, layout)

// After the table, the memory at the phase boundaries (MB: peak resident
// set so far, resident set, malloc'd, freed and held), in the compile's order.
// MEM: segtime memory (MB): peak resident set so far, resident set, malloc'd and not freed, freed and held by malloc
// MEM-NEXT: {{[0-9]+\.[0-9] +[0-9]+\.[0-9] +[0-9]+\.[0-9] +[0-9]+\.[0-9]}}  IR generated (AST held)
// MEM-NEXT: source SEGs built, AST released
// MEM-NEXT: optimised
// MEM-NEXT: optimised; IR SEGs built
// MEM-NEXT: code generation starts
// MEM-NEXT: code generation done
// MEM-NEXT: .seg.json written
