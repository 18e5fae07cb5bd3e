// The compile-time summary is the output of `segtime predict --summary` on
// the .seg.json just written (the plugin links neither the predictor nor
// yaml-cpp); without the command, or when it fails, one line says so and the
// compile goes on.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin \
// RUN:   -fplugin-arg-segtime-machine=%inputs/icc-machine.yaml -fplugin-arg-segtime-targets=compile \
// RUN:   -fplugin-arg-segtime-p=n=100 -fplugin-arg-segtime-p=m=0.1 -c %s -o %t.dir/k.o 2> %t.dir/plugin.err
// RUN: %segtime predict %t.dir/k.seg.json --summary 50 --machine %inputs/icc-machine.yaml \
// RUN:   -p n=100 -p m=0.1 > %t.dir/tool.out
// RUN: grep -v '^segtime: wrote' %t.dir/plugin.err | diff - %t.dir/tool.out
// RUN: FileCheck %s --check-prefix=SUMMARY < %t.dir/plugin.err
// RUN: env SEGTIME=%t.dir/nosuch %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin \
// RUN:   -fplugin-arg-segtime-machine=t800 -c %s -o %t.dir/m.o 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: test -f %t.dir/m.o && test -f %t.dir/m.seg.json
// RUN: env SEGTIME=false %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin \
// RUN:   -fplugin-arg-segtime-machine=t800 -c %s -o %t.dir/f.o 2>&1 | FileCheck %s --check-prefix=FAILS
// RUN: not %segtime predict %t.dir/k.seg.json --summary 5 --json 2>&1 | FileCheck %s --check-prefix=USAGE
// RUN: llvm-readelf --needed-libs %segtime_plugin | FileCheck %s --check-prefix=NEEDED
// RUN: llvm-readelf --needed-libs %segtime_expr | FileCheck %s --check-prefix=EXPR
// RUN: llvm-nm -C --undefined-only %segtime_plugin | FileCheck %s --check-prefix=UNDEFINED

double scale(int n, double *a) {
  for (int i = 0; i < n; i++)
    a[i] = a[i] * 3.0;
  return a[0];
}

// SUMMARY: segtime: scale ({{.*}}summary-command.c:23, -O2)
// SUMMARY-NEXT: T_scale(n, a) = t(v1) + n·(t(v3) + t(v4)) + t(v5)
// SUMMARY-NEXT: POC   flop = n
// SUMMARY-NEXT: POC   t on icc-test = 1e-09*n s
// SUMMARY-NEXT: HLLC  t on icc-test = 8e-09*n + 3e-09 s
// SUMMARY-NEXT: ICC   t on icc-test (x86-64) = {{.*}} at n=100
// SUMMARY-NEXT: segtime: -fplugin-arg-segtime-p: no function uses 'm'
// SUMMARY-NEXT: segtime: wrote {{.*}}k.seg.json
// MISSING: segtime: no compile-time summary: {{.*}}nosuch: {{.+}} (segtime predict {{.*}}m.seg.json)
// MISSING-NEXT: segtime: wrote {{.*}}m.seg.json
// FAILS: segtime: no compile-time summary: {{.*}}false: exit status 1 (segtime predict {{.*}}f.seg.json)
// FAILS-NEXT: segtime: wrote {{.*}}f.seg.json
// USAGE: --summary takes only --machine (one) and -p, not --json
// NEEDED-NOT: libginac
// NEEDED-NOT: yaml
// The expression algebra is in segtime-expr.so, loaded on first use.
// EXPR: libginac
// EXPR-NOT: yaml
// UNDEFINED-NOT: segtime::
// UNDEFINED-NOT: YAML::
