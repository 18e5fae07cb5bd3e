// The IR level's symbolic work is linear in the code: the frequency of the
// block after an if rejoins its dominator's (c*X + (1 - c)*X = X), so forty
// ifs in a row keep one-factor frequencies. Past the analysis budget
// (-fplugin-arg-segtime-budget=N units per function) the frequencies are
// BranchProbabilityInfo's estimates, a warning says so, and the compile
// goes on with the same object code.
// RUN: %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=compile -fplugin-arg-segtime-out=%t.json -c %s -o %t.o 2>&1 \
// RUN:   | count 0
// RUN: %segtime show %t.json --ir --function ifs40 | tail -n 7 | FileCheck %s
// RUN: %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=compile -fplugin-arg-segtime-budget=100 \
// RUN:   -fplugin-arg-segtime-out=%t2.json -c %s -o %t2.o 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: cmp %t.o %t2.o
// RUN: %segtime show %t2.json --ir --function ifs40 | FileCheck %s --check-prefix=FALLBACK
// RUN: %clang -target x86_64-linux-gnu -fplugin=%segtime_plugin -fplugin-arg-segtime-budget=0 \
// RUN:   -fplugin-arg-segtime-quiet -fplugin-arg-segtime-out=%t3.json -c %s -o %t3.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ZERO
// RUN: test -s %t3.o

volatile int sink;
__attribute__((noinline)) void g(int k) { sink += k; }

#define IF(k) if (a[k] > x) g(k);
#define IF10(k) IF(k) IF(k + 1) IF(k + 2) IF(k + 3) IF(k + 4) IF(k + 5) IF(k + 6) IF(k + 7) \
    IF(k + 8) IF(k + 9)
void ifs40(const int *a, int x) { IF10(0) IF10(10) IF10(20) IF10(30) }

// The last if's arms, then the return block at frequency 1:
// CHECK: {{^}} ir{{[0-9]+}} Stage @{{[0-9]+}} freq=Pir_ifs40_[[L:[0-9]+_[0-9]+]] <-
// CHECK-NEXT: ICC:x86-64
// CHECK-NEXT: INTCC: br=1 call.g=1
// CHECK-NEXT: Call @{{[0-9]+}} freq=Pir_ifs40_[[L]] <- {{.*}} g
// CHECK-NEXT: Stage @{{[0-9]+}}{{$}}
// CHECK-NEXT: ICC:x86-64
// CHECK-NEXT: INTCC: ret=1

// WARN: warning: segtime: IR level of 'ifs40': analysis budget exceeded ({{[0-9]+}} units of symbolic work, budget 100): the rest of the function's frequencies are BranchProbabilityInfo's estimates (-fplugin-arg-segtime-budget=N raises the budget)
// FALLBACK: Call @{{[0-9]+}} freq=0.5 <- {{.*}} g
// FALLBACK: warning: segtime: IR level of 'ifs40': analysis budget exceeded
// ZERO: warning: segtime: plugin argument 'budget=0' ignored: expected a whole number > 0, got '0'
