// The memo of llvm-mca pipeline inputs (passes/IccBlockCoster.h simKey):
// loop blocks that differ only in immediates (other constants, other
// array offsets) are distinct blocks of the block-cost memo but one
// simulation; -segtime-icc-check-sim-memo simulates them anyway and counts
// the blocks whose cycles differ from the memo's.
// RUN: %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=compile,znver4 -fplugin-arg-segtime-out=%t.json \
// RUN:   -mllvm -segtime-icc-check-sim-memo -c %s -o %t.o 2>&1 | FileCheck %s

void f(int);

void first(int *a, int n) {
  for (int i = 0; i < n; ++i)
    f(a[i + 3] * 5 + 7);
}
void second(int *a, int n) {
  for (int i = 0; i < n; ++i)
    f(a[i + 5] * 5 + 11);
}
void third(int *a, int n) {
  for (int i = 0; i < n; ++i)
    f(a[i + 9] * 5 + 13);
}

// CHECK-DAG: segtime-icc-check-sim-memo znver4: {{[1-9][0-9]*}} blocks' cycles from the memo of pipeline inputs, 0 differ from their simulation
// CHECK-DAG: segtime-icc-check-sim-memo x86-64: {{[1-9][0-9]*}} blocks' cycles from the memo of pipeline inputs, 0 differ from their simulation
