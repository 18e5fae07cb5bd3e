// Triangular nest 'j = i + 1; j < n': inner trip n - (i + 1); a 1-flop body
// runs sum_{i=0}^{n-1} (n - i - 1) = n(n-1)/2 times (45 for n = 10).
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json | FileCheck %s
// RUN: %segtime predict %t.json --machine t800 -p n=10 --level poc --json | FileCheck %s --check-prefix=JSON

double upper(int n, const double *a) {
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      s += a[j];
  return s;
}

// CHECK: function upper
// CHECK:      v2 Loop @10 for trip=n index=i{{$}}
// CHECK-NEXT:   v3 Stage
// CHECK-NEXT:     HLLC: loop=1{{$}}
// v4: 'int j = i + 1' reads i, i32 add, writes j.
// CHECK-NEXT:   v4 Stage
// CHECK-NEXT:     HLLC: i32.add=1 mem.local.read=1 mem.local.write=1{{$}}
// CHECK-NEXT:   v5 Loop @11 for trip={{n - i - 1|-i \+ n - 1|n - 1 - i|-1 - i \+ n|-i - 1 \+ n}} index=j{{$}}
// CHECK-NEXT:     v6 Stage
// CHECK-NEXT:       HLLC: loop=1{{$}}
// CHECK-NEXT:     v7 Stage
// CHECK-NEXT:       HLLC: f64.add=1 mem.array.read=1 mem.local.read=3 mem.local.write=1{{$}}

// JSON: "flop": 45.0
