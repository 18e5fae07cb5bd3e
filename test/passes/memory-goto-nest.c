// A loop made by a backward goto is an IR loop nest with a memory term but no
// source-level loop, so HLLC does not cost it and its trip count N_main_L is
// not a value HLLC needs. On a machine with caches (sparc10-30) predict at
// HLLC reports the nest's memory term as not evaluated instead of failing the
// function with "no value for N_main_..." (exit 2); ICC, which costs the nest,
// lists the count as missing (exit 1).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=supersparc -fplugin-arg-segtime-out=%t/g.seg.json \
// RUN:   -c %s -o %t/g.o 2>/dev/null
// RUN: %segtime predict %t/g.seg.json --machine sparc10-30 --level hllc 2>&1 \
// RUN:   | FileCheck --check-prefix=HLLC %s
// RUN: not %segtime predict %t/g.seg.json --machine sparc10-30 --level icc 2>&1 \
// RUN:   | FileCheck --check-prefix=ICC %s
// HLLC: HLLC  t =
// HLLC: note: memory term, loop nest at line {{[0-9]+}}: not evaluated (no value for N_main_{{[0-9]+}})
// ICC: N_main_{{[0-9]+}} (iterations of the optimised loop
// ICC-NOT: no value for

int g, h;
int *p = &h;
int a[100];
int main(void) {
  int i = 0;
again:
  a[i] = g;
  i += *p;
  if (i < 100 && g)
    goto again;
  return a[5];
}
