// A main file of more than 50 functions gets a one-line note instead of the
// compile-time summary (its SEGs are released as written, as with quiet); the
// .seg.json holds every function. 50 functions still get the summary.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin -c %s -o %t.dir/k.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LARGE
// RUN: %segtime show %t.dir/k.seg.json | FileCheck %s --check-prefix=SHOW
// RUN: %clang -target x86_64-linux-gnu -O2 -DSMALL -fplugin=%segtime_plugin -c %s -o %t.dir/s.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SMALL

#define F(N) int f##N(int x) { return x * N + 1; }
#define TEN(D) F(D##0) F(D##1) F(D##2) F(D##3) F(D##4) F(D##5) F(D##6) F(D##7) F(D##8) F(D##9)
TEN(1) TEN(2) TEN(3) TEN(4) TEN(5)
#ifndef SMALL
F(60)
#endif

// LARGE-NOT: POC   flop
// LARGE: segtime: 51 functions in the main file: no compile-time summary (printed for at most 50; segtime predict {{.*}}k.seg.json)
// LARGE-NEXT: segtime: wrote {{.*}}k.seg.json
// SHOW: function f10
// SHOW: function f60
// SMALL: segtime: f10 ({{.*}}summary-large-file.c:13, -O2)
// SMALL: segtime: f59
// SMALL-NOT: more functions
// SMALL: segtime: wrote {{.*}}s.seg.json
