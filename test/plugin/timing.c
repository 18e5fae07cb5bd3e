// -fplugin-arg-segtime-timing prints the plugin's own phase times (an
// llvm::TimerGroup table on stderr) and changes nothing else.
// RUN: %clang -target x86_64-linux-gnu -march=x86-64 -O2 -fplugin=%segtime_plugin \
// RUN:   -fplugin-arg-segtime-quiet -fplugin-arg-segtime-timing -fplugin-arg-segtime-targets=compile \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: %clang -target x86_64-linux-gnu -march=x86-64 -O2 -fplugin=%segtime_plugin \
// RUN:   -fplugin-arg-segtime-quiet -fplugin-arg-segtime-targets=compile \
// RUN:   -fplugin-arg-segtime-out=%t2.json -c %s -o %t2.o 2>&1 | count 0
// RUN: cmp %t.json %t2.json
// RUN: cmp %t.o %t2.o

double sum(int n, const double *x) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i];
  return s;
}

// CHECK: segtime plugin phases
// CHECK-DAG: AST SEG (POC, HLLC)
// CHECK-DAG: IR SEG (IntCC)
// CHECK-DAG: ICC clone of the module
// CHECK-DAG: ICC code generation
// CHECK-DAG: ICC block costing (llvm-mca, layout)
// CHECK-DAG: IR levels merged into the SEG
// CHECK-DAG: .seg.json written
