// A function that a target's back end cannot lower -- a variable-length
// array aligned to 16 B on SPARC, whose stack is aligned to 8 B ("over-aligned
// dynamic alloca not supported", a fatal error in instruction selection) --
// is left out of that target's ICC level with a warning naming the reason;
// the compile goes on, the other targets and functions keep their ICC RUVs.
// RUN: %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=compile,leon3,supersparc -fplugin-arg-segtime-out=%t.json \
// RUN:   -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: %segtime show %t.json --ir --function vla | FileCheck %s --check-prefix=VLA
// RUN: %segtime show %t.json --ir --function sum | FileCheck %s --check-prefix=SUM

int use(int *);
int vla(int n) {
  int a[n];
  return use(a);
}
int sum(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += i * i;
  return s;
}

// WARN: warning: segtime: ICC leon3: 'vla' not compiled for leon3: a stack allocation of run-time size aligned to 16 B, more than the target's 8 B stack alignment (no ICC level for it on this target)
// WARN: warning: segtime: ICC supersparc: 'vla' not compiled for supersparc
// VLA-NOT: ICC:leon3
// VLA-NOT: ICC:supersparc
// VLA: ICC:x86-64
// VLA-NOT: ICC:leon3
// VLA-NOT: ICC:supersparc
// SUM-DAG: ICC:leon3
// SUM-DAG: ICC:supersparc
// SUM-DAG: ICC:x86-64
