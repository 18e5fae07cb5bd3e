// The second test of a branch on `a || b` that code generation splits into
// two jumps: a stage of its own ("second test") run with the probability
// that the first test does not decide, (1 - Pir_<fn>_<line>_<col>_first),
// estimated 1/2, and measured by an instrument=late build (its "first-or"
// record counts the first operand). x86's merging of cheap conditions into
// one jump is switched off (-x86-br-merging-base-cost=-1) so that the split
// does not depend on the CPU's cost tables. Here the first test (x < 90) is
// true 90 of 100 times: the second test runs 10 times, not 50. callgrind:
// 1024 instructions in scan and hit; predicted 969 static, 1029 with the
// profile.
// RUN: %clang -O2 -mllvm -x86-br-merging-base-cost=-1 -c %s -o %t-plain.o
// RUN: %clang -O2 -mllvm -x86-br-merging-base-cost=-1 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=compile -fplugin-arg-segtime-out=%t.seg.json -c %s -o %t.o 2>/dev/null
// RUN: cmp %t-plain.o %t.o
// RUN: %clang -O2 -mllvm -x86-br-merging-base-cost=-1 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-instrument=late %s %segtime_rt -o %t-late 2>/dev/null
// RUN: env SEGTIME_CT_FILE=%t.ct.json %t-late | FileCheck %s --check-prefix=OUT
// RUN: %segtime show %t.seg.json --function scan --ir | FileCheck %s --check-prefix=SEG
// RUN: %segtime predict %t.seg.json --machine %costvectors/znver5-epyc.yaml --function scan --level icc \
// RUN:   -p n=100 2>&1 | FileCheck %s --check-prefix=STATIC
// RUN: %segtime predict %t.seg.json --machine %costvectors/znver5-epyc.yaml --function scan --level icc \
// RUN:   -p n=100 --profile %t.ct.json 2>&1 | FileCheck %s --check-prefix=PROF
#include <stdio.h>

static int A[100];
static int Hits;

__attribute__((noinline)) void hit(int i) { Hits += i; }

__attribute__((noinline)) void scan(const int *a, int n, int lo, int mask) {
  for (int i = 0; i < n; i++) {
    int x = a[i];
    if (x < lo || (x & mask) == 0)
      hit(i);
  }
}

int main(void) {
  for (int i = 0; i < 100; i++)
    A[i] = i;
  scan(A, 100, 90, 1);
  printf("%d\n", Hits);
  return 0;
}

// OUT: 4475
// SEG: param Pir_scan_33_16_first default=0.5{{.*}}static: estimated, split branch
// SEG: Stage @{{[0-9]+}} freq=(1 - Pir_scan_33_16_first)
// STATIC: (x86-64, 969 instructions,
// PROF: Pir_scan_33_16_first = 0.9 (optimised branch {{.*}}icc-second-test.c:33:16: first test true 90 / 100 executions (1 copy))
// PROF: (x86-64, 1029 instructions,
