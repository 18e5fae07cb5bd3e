// At -O0 a loop is top-tested: its header (the only exiting block) runs the
// test once per iteration and once more to leave. The body runs on every
// iteration the trip count counts (not with BranchProbabilityInfo's 31/32),
// and a "final loop test" stage repeats the header once per execution of
// the loop, with the header's INTCC and ICC RUVs.
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin \
// RUN:   -fplugin-arg-segtime-quiet -fplugin-arg-segtime-targets=x86-64 \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json --ir --function scale | FileCheck %s
// RUN: %segtime predict %t.json --machine %costvectors/t800.yaml --function scale --level intcc \
// RUN:   -p n=10 --json | FileCheck %s --check-prefix=N10
// RUN: %segtime predict %t.json --machine %costvectors/t800.yaml --function scale --level intcc \
// RUN:   -p n=0 --json | FileCheck %s --check-prefix=N0

// CHECK: Loop @{{[0-9]+}} ir-loop trip=n
// CHECK-NOT: freq=0.96875
// The header ir3 and, after the loop node, its final test ir3t:
// CHECK: [[H:ir[0-9]+]] Stage @[[#L:]] <- v{{[0-9]+}}
// CHECK-NEXT: ICC:x86-64: [[HICC:.*]]
// CHECK-NEXT: INTCC: br.cond=1 icmp.i32=1 load.i32=2
// CHECK: [[H]]t Stage @[[#L]] <- v{{[0-9]+}}
// CHECK-NEXT: ICC:x86-64: [[HICC]]
// CHECK-NEXT: INTCC: br.cond=1 icmp.i32=1 load.i32=2

// n = 10: 11 tests (i < n), 10 multiplies.
// N10: "fmul.f64": 10
// N10: "icmp.i32": 11
// n = 0: the test runs once.
// N0: "icmp.i32": 1

// A triangular nest at -O0: the inner trip (n - k - 1, from the source loop)
// is known only per iteration of k, so the nest has no memory term (a note
// says so) instead of asking for a trip parameter.
// RUN: %segtime predict %t.json --machine %inputs/icc-machine.yaml --function tri --level icc \
// RUN:   -p n=10 2>&1 | FileCheck %s --check-prefix=TRI
// TRI: ICC
// TRI-NOT: missing parameter
// TRI: memory term left out: the trip count of the loop at line [[#]] is known only per iteration of an enclosing loop

void scale(int n, double *a) {
  for (int i = 0; i < n; i++)
    a[i] = 2 * a[i];
}

void tri(int n, double *a) {
  for (int k = 0; k < n; k++)
    for (int i = k + 1; i < n; i++)
      a[i] += a[k];
}
