// The Warwick-94 dot-product nest: three canonical loops, exact counts.
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json | FileCheck %s
// RUN: %segtime predict %t.json --machine t800 -p n=10 --level poc --json | FileCheck %s --check-prefix=JSON

void matmul(int n, const double *a, const double *b, double *c) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double s = 0;
      for (int k = 0; k < n; k++)
        s += a[i * n + k] * b[k * n + j];
      c[i * n + j] = s;
    }
}
// CHECK: function matmul
// CHECK-NEXT: T_matmul(n, a, b, c) = t(v1) + n·(t(v3) + t(v4) + n·(t(v6) + t(v7) + n·(t(v9) + t(v10)) + t(v11)))
// CHECK: v2 Loop @{{[0-9]+}} for trip=n index=i
// CHECK: v5 Loop @{{[0-9]+}} for trip=n index=j
// CHECK: v8 Loop @{{[0-9]+}} for trip=n index=k
// CHECK: v10 Stage
// CHECK-NEXT: HLLC: f64.add=1 f64.mul=1 i32.add=2 i32.mul=2 mem.array.read=2 mem.local.read=9 mem.local.write=1
// CHECK-NEXT: POC: flop=2
// JSON: "flop": 2000.0
