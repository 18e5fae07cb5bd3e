// instrument=no-clock (a measurement aid, scripts/ct_overhead.py --example):
// the same instrumentation, counters included, with every timer read an
// opaque zero instead of rdtsc; the program still runs and writes its counts.
// RUN: %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-instrument=no-clock -fplugin-arg-segtime-out=%t.seg.json \
// RUN:   -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// RUN: %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-instrument -fplugin-arg-segtime-out=%t.seg.json \
// RUN:   -S -emit-llvm %s -o - | FileCheck %s --check-prefix=CLOCK
// RUN: %clang -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-instrument=no-clock -fplugin-arg-segtime-out=%t.seg.json \
// RUN:   %s %segtime_rt -o %t && env SEGTIME_CT_FILE=%t.ct.json %t
// RUN: FileCheck %s --check-prefix=CT < %t.ct.json

__attribute__((noinline)) int sum(const int *a, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}

int main(void) {
  int a[100];
  for (int i = 0; i < 100; i++)
    a[i] = i;
  return sum(a, 100) == 4950 ? 0 : 1;
}

// IR-LABEL: define {{.*}} @sum(
// IR-NOT: readcyclecounter
// IR: asm sideeffect "xorl ${0:k}, ${0:k}"
// IR: asm sideeffect "xorl ${0:k}, ${0:k}"
// IR-LABEL: define {{.*}} @main(
// CLOCK-LABEL: define {{.*}} @sum(
// CLOCK: call i64 @llvm.readcyclecounter()
// CLOCK: call i64 @llvm.readcyclecounter()
// CT: "name": "sum",{{.*}}"calls": 1, "inclusive_s": 0, "exclusive_s": 0, "raw_inclusive_s": 0,
// CT: "kind": "loop",{{.*}}"entries": 1, "iterations": 100
