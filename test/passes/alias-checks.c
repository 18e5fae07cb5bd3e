// The vectoriser's runtime alias checks, through clang: between rows of one
// array (LU) they are decided from ScalarEvolution and the outer iteration
// number, so the scalar loop that runs is counted; between two arrays they
// are assumed to pass (pointers of different objects are not source values).
// RUN: %clang -target x86_64-linux-gnu -march=x86-64-v3 -O2 -fplugin=%segtime_plugin \
// RUN:   -fplugin-arg-segtime-quiet -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json --ir --function lu | FileCheck %s
// RUN: %segtime predict %t.json --machine %costvectors/t800.yaml --function lu --level intcc \
// RUN:   -p n=48 --json | FileCheck %s --check-prefix=LU48
// RUN: %segtime predict %t.json --machine %costvectors/t800.yaml --function lu --level intcc \
// RUN:   -p n=5 --json | FileCheck %s --check-prefix=LU5
// RUN: %segtime predict %t.json --machine %costvectors/t800.yaml --function two --level intcc \
// RUN:   -p n=50 --json | FileCheck %s --check-prefix=TWO

void lu(int n, double *a) {
  for (int k = 0; k < n; k++)
    for (int i = k + 1; i < n; i++) {
      a[i * n + k] /= a[k * n + k];
      for (int j = k + 1; j < n; j++)
        a[i * n + j] -= a[i * n + k] * a[k * n + j];
    }
}

void two(int n, const double *x, double *y) {
  for (int i = 0; i < n; i++)
    y[i] += 2 * x[i];
}

// The vector loop's frequency depends on the row k (address differences in
// n and k), not on BranchProbabilityInfo.
// CHECK: IR-level SEG (-O2):
// CHECK: Loop @19 ir-loop {{.*}}[vectorised] freq={{.*}}cmp_lt({{.*}}k_lu_ir{{.*}}, 0){{.*}} <- v8

// The checks fail for every row (a[i*n+k] lies in the range the rows below
// row k span), so the scalar loop does all sum_k (n-1-k)^2 = (n-1)n(2n-1)/6
// multiply-subtracts: 35720 at n = 48, 30 at n = 5; n(n-1)/2 divisions.
// LU48:     "call.llvm.fmuladd.f64": 35720.0,
// LU48-NOT: fmuladd.v4f64
// LU48:     "fdiv.f64": 1128.0,
// LU5:      "call.llvm.fmuladd.f64": 30.0,
// LU5:      "fdiv.f64": 10.0,

// Two arrays: the vector loop (4 x 4 lanes) does 48 elements, the scalar
// remainder 2.
// TWO: "call.llvm.fmuladd.f64": 2.0,
// TWO: "call.llvm.fmuladd.v4f64": 12.0,
