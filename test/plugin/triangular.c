// Triangular nest 'j <= i': inner trip i + 1; flop total
// sum_{i=0}^{n-1} 2(i+1) = n^2 + n (110 for n = 10).
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json | FileCheck %s
// RUN: %segtime predict %t.json --machine t800 -p n=10 --json | FileCheck %s --check-prefix=JSON

double tri(int n, const double *a) {
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++)
      s += a[j] * 2.0;
  return s;
}

// Hand count: v7: reads a, j, s; a[j]; f64 mul and add (2 flop); writes s.
// CHECK: function tri
// CHECK:      v2 Loop @10 for trip=n index=i{{$}}
// CHECK:        v5 Loop @11 for trip=i + 1 index=j{{$}}
// CHECK-NEXT:     v6 Stage
// CHECK-NEXT:       HLLC: loop=1{{$}}
// CHECK-NEXT:     v7 Stage
// CHECK-NEXT:       HLLC: f64.add=1 f64.mul=1 mem.array.read=1 mem.local.read=3 mem.local.write=1{{$}}
// CHECK-NEXT:       POC: flop=2{{$}}

// n = 10: inner iterations 55, loop 10 + 55 = 65, flop 110.
// JSON: "f64.add": 55.0,
// JSON-NEXT: "f64.mul": 55.0,
// JSON-NEXT: "loop": 65.0,
// JSON: "formula": "{{.*}}n^2
// JSON: "flop": 110.0
