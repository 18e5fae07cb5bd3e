// Where a vectorised loop's scalar fallback starts (passes/IRMemStream.cpp
// addResumeValues): right-looking Cholesky's update a[i*n + j] -=
// a[i*n + k] * a[j*n + k], i >= j. The vectoriser versions the i loop for
// n = 1 (a unit stride); the scalar loop runs otherwise and starts at a
// resume phi (the vector loop's end, or row j when it was bypassed). Taken
// as row j, the fallback's walks move with j and k as the source loop does:
// column k one row down per j (8*n B) and a row and a double per k (8*n +
// 8), column j a row and a double per j and per k. Before, the phi was
// fixed: 0 and 8 B per j, 8 B per k (only the column moved).
// RUN: %clang -target x86_64-linux-gnu -O2 -march=icelake-server \
// RUN:   -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=compile -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json --ir | FileCheck %s

// CHECK: function cholesky_rl
// CHECK: stream a: load 8 B, stride B x trip: 8*n x {{.*}} 8*n x -[[K:k_cholesky_rl_ir[0-9]+]] + n - 1 {{\[}}[[J:k_cholesky_rl_ir[0-9]+]]{{\]}} 8*n + 8 x n {{\[}}[[K]]{{\]}}
// CHECK-NEXT: stream a: load store 8 B, stride B x trip: 8*n x {{.*}} 8*n + 8 x -[[K]] + n - 1 {{\[}}[[J]]{{\]}} 8*n + 8 x n {{\[}}[[K]]{{\]}}
void cholesky_rl(int n, double *a) {
  for (int k = 0; k < n; k++) {
    double d = __builtin_sqrt(a[k * n + k]);
    a[k * n + k] = d;
    for (int i = k + 1; i < n; i++)
      a[i * n + k] /= d;
    for (int j = k + 1; j < n; j++) {
      double ljk = a[j * n + k];
      for (int i = j; i < n; i++)
        a[i * n + j] -= a[i * n + k] * ljk;
    }
  }
}
