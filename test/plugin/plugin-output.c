// Without out=, the SEG file goes next to the object (<output>.seg.json);
// without quiet, the plugin prints each function's formula and times on the
// machine (t800 by default, or machine=NAME); an unknown machine is reported
// but does not fail the compile.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin -c %s -o %t.dir/k.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SUMMARY
// RUN: %segtime show %t.dir/k.seg.json | FileCheck %s --check-prefix=SHOW
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-machine=nosuchmachine \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=NOMACHINE

double scale(int n, double *a) {
  for (int i = 0; i < n; i++)
    a[i] = a[i] * 3.0;
  return a[0];
}

// SUMMARY: segtime: scale ({{.*}}plugin-output.c:12, -O2)
// SUMMARY-NEXT: T_scale(n, a) = t(v1) + n·(t(v3) + t(v4)) + t(v5)
// SUMMARY-NEXT: POC   flop = n
// SUMMARY-NEXT: POC   t on t800 = {{.*}}n s
// SUMMARY-NEXT: HLLC  t on t800 = {{.*}}n + {{.*}} s
// SUMMARY: segtime: wrote {{.*}}k.seg.json
// SHOW: function scale
// SHOW: v2 Loop @13 for trip=n index=i
// NOMACHINE: POC   flop = n
// NOMACHINE: segtime: no times printed: no machine 'nosuchmachine'
