// Loop versions: the vectoriser speculates a symbolic stride to be 1 and
// keeps the scalar loop for every other stride. Its check (n == 1, k == 1)
// is a comparison of source values: the vector version runs with that
// probability, exactly, and the scalar loop with the rest; the alias checks
// between two arrays still pass. A column walk (stride n) and a transpose
// (stride m) then run their scalar loop on every iteration.
// RUN: %clang -target x86_64-linux-gnu -march=x86-64-v3 -O2 -fplugin=%segtime_plugin \
// RUN:   -fplugin-arg-segtime-quiet -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json --ir --function colwalk | FileCheck %s
// RUN: %segtime predict %t.json --machine %costvectors/t800.yaml --function colwalk --level intcc \
// RUN:   -p m=40 -p n=44 -p k=48 --json | FileCheck %s --check-prefix=COL
// RUN: %segtime predict %t.json --machine %costvectors/t800.yaml --function colwalk --level intcc \
// RUN:   -p m=40 -p n=1 -p k=1 --json | FileCheck %s --check-prefix=UNIT
// RUN: %segtime predict %t.json --machine %costvectors/t800.yaml --function transpose \
// RUN:   --level intcc -p m=60 -p n=50 --json | FileCheck %s --check-prefix=TR
// RUN: %segtime predict %t.json --machine %costvectors/t800.yaml --function transpose \
// RUN:   --level intcc -p m=1 -p n=50 --json | FileCheck %s --check-prefix=TR1

void colwalk(int m, int n, int k, const double *a, const double *b, double *c) {
  for (int j = 0; j < n; j++)
    for (int p = 0; p < k; p++) {
      double bpj = b[p * n + j];
      for (int i = 0; i < m; i++)
        c[i * n + j] += a[i * k + p] * bpj;
    }
}

void transpose(int m, int n, const double *a, double *b) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      b[j * m + i] = a[i * n + j];
}

// The unit-stride version's frequency names the speculated strides.
// CHECK: IR-level SEG (-O2):
// CHECK: Loop @23 ir-loop {{.*}}[vectorised] freq={{.*}}cmp_eq(n, 1)*cmp_eq(k, 1){{.*}} <- v8

// Stride n != 1: the scalar loop does all m n k = 84480 multiply-adds.
// COL:     "call.llvm.fmuladd.f64": 84480.0,
// COL-NOT: fmuladd.v4f64
// Unit strides: 32 elements in the vector loop (8 x 4 lanes), 8 scalar.
// UNIT: "call.llvm.fmuladd.f64": 8.0,
// UNIT: "call.llvm.fmuladd.v4f64": 8.0,
// TR:     "load.f64": 3000.0,
// TR-NOT: v4f64
// TR1: "load.f64": 2.0,
// TR1: "load.v4f64": 12.0,
