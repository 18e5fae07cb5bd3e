// A static kernel inlined at three call sites of main (option inlined, on
// by default): its
// IR level refers to main's code of each call (no copy in the SEG file), one
// level per site. predict gives the sum of one call at each site and each
// site's figures (the second in a loop of main); --site K one call at site
// K only. The third call passes a constant: that code is specialised to it
// and does not depend on n.
// RUN: %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=compile -fplugin-arg-segtime-inlined=scale \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %python -c "import json,sys; J=json.load(open(sys.argv[1])); fs=J['functions']; i=[k for k,f in enumerate(fs) if f['name']=='scale'][0]; e=[e for e in J['inlined'] if e[0]==i][0]; print('REFS', sum(isinstance(x, list) for x in e), 'level_segs' in fs[i], 'inlined_at' in fs[i], e)" %t.json | FileCheck %s --check-prefix=REFS
// On by default: the same file without the option.
// RUN: %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=compile -fplugin-arg-segtime-out=%t-default.json -c %s -o %t.o
// RUN: cmp %t.json %t-default.json
// The compile-time summary (predict --summary, which the plugin runs) has
// scale's ICC level too: the sum of one call at each site.
// RUN: %segtime predict %t.json --summary 10 --machine %inputs/icc-machine.yaml -p n=1000 \
// RUN:   > %t.summary
// RUN: FileCheck %s --check-prefix=SUMMARY < %t.summary
// Per site, as predict: main's lines are those of the file compiled without
// the option (the file as read), scale's sites are resolved one by one.
// RUN: %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=compile -fplugin-arg-segtime-no-inlined \
// RUN:   -fplugin-arg-segtime-out=%t-no.json -c %s -o %t.o
// RUN: %segtime predict %t-no.json --summary 10 --machine %inputs/icc-machine.yaml -p n=1000 \
// RUN:   > %t-no.summary
// RUN: %python -c "import sys; b=[open(p).read().split('segtime: main (')[1] for p in sys.argv[1:]]; print('MAINSAME', b[0] == b[1])" %t.summary %t-no.summary | FileCheck %s --check-prefix=MAINSAME
// RUN: %segtime show %t.json --ir --function scale | FileCheck %s --check-prefix=SHOW
// RUN: %segtime predict %t.json --machine %inputs/icc-machine.yaml --function scale \
// RUN:   --level icc,intcc -p n=1000 | FileCheck %s --check-prefix=TEXT
// RUN: %segtime predict %t.json --machine %inputs/icc-machine.yaml --function scale \
// RUN:   --level icc,intcc -p n=1000 --json | FileCheck %s --check-prefix=JSON
// RUN: %segtime predict %t.json --machine %inputs/icc-machine.yaml --function scale \
// RUN:   --level icc --site 3 -p n=1 --json > %t.s3a
// RUN: %segtime predict %t.json --machine %inputs/icc-machine.yaml --function scale \
// RUN:   --level icc --site 3 -p n=1000 --json > %t.s3b
// RUN: %python -c "import json,sys; c=[json.load(open(p))['functions'][0]['levels']['ICC']['counts']['instructions'] for p in sys.argv[1:]]; print('SITE3', c[0] == c[1], c[0] > 0)" %t.s3a %t.s3b | FileCheck %s --check-prefix=SITE3
// RUN: %segtime predict %t.json --machine %inputs/icc-machine.yaml --function scale \
// RUN:   --level icc --site 2 -p n=1000 --json | FileCheck %s --check-prefix=SITE2
// RUN: not %segtime predict %t.json --machine %inputs/icc-machine.yaml --function scale \
// RUN:   --site 4 -p n=1000 2>&1 | FileCheck %s --check-prefix=BAD
// Each site's figures (the function resolved at that site alone) are those of
// --site K (the whole file resolved at site K), at every IR level.
// RUN: %segtime predict %t.json --machine %inputs/icc-machine.yaml --function scale \
// RUN:   --level icc,intcc -p n=1000 --json > %t.all
// RUN: for k in 1 2 3; do %segtime predict %t.json --machine %inputs/icc-machine.yaml \
// RUN:   --function scale --level icc,intcc --site $k -p n=1000 --json > %t.site$k || exit 1; done
// RUN: %python -c "import json,sys; A=json.load(open(sys.argv[1]))['functions'][0]['inlined_sites']; K=[json.load(open(p))['functions'][0]['levels'] for p in sys.argv[2:]]; print('PERSITE', len(A), all(s['levels'][l]['time_s'] == K[i][l]['time_s'] and s['levels'][l].get('instructions') == K[i][l]['counts'].get('instructions') for i, s in enumerate(A) for l in s['levels']), sorted(A[0]['levels']))" %t.all %t.site1 %t.site2 %t.site3 | FileCheck %s --check-prefix=PERSITE
#include <stdlib.h>

static void scale(int n, double *x, double a) {
  for (int i = 0; i < n; i++)
    x[i] *= a;
}

int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  double *x = calloc((size_t)n, sizeof *x);
  scale(n, x, 2.0);
  for (int r = 0; r < argc; r++)
    scale(n, x, 0.5);
  scale(64, x, 3.0);
  return (int)x[1];
}

// Schema 4's "inlined" table: scale's three calls in main (function 1), each
// as runs of main's IR nodes; no "inlined_at" in the function.
// REFS: REFS 3 False False [0, 1, [{{[0-9]+}}, -{{[0-9]+}}], [{{[0-9]+}}], [{{[0-9]+}}]]

// SUMMARY: segtime: scale (
// SUMMARY: ICC   t on icc-test (x86-64) = {{.*}} ({{[0-9]+}} instructions, {{[0-9.]+}} cycles) at n=1000
// SUMMARY-NEXT: ICC   site 1 (main at {{.*}}inlined-sites.c:60:3) = {{.*}} ({{[0-9]+}} instructions
// SUMMARY-NEXT: ICC   site 2 (main at {{.*}}inlined-sites.c:62:5, in 1 loop(s) of main) = {{.*}} instructions
// SUMMARY-NEXT: ICC   site 3 (main at {{.*}}inlined-sites.c:63:3) = {{.*}} instructions
// SUMMARY: segtime: main (

// SHOW: function scale
// SHOW: IR-level SEG (-O2):
// SHOW-NEXT: inlined call 1 at {{.*}}inlined-sites.c:60:3 (in 'main'): its nodes c1_ir
// SHOW-NEXT: inlined call 2 at {{.*}}inlined-sites.c:62:5 (in 'main'): its nodes c2_ir
// SHOW-NEXT: inlined call 3 at {{.*}}inlined-sites.c:63:3 (in 'main'): its nodes c3_ir
// SHOW: c1_ir{{[0-9]+}} Loop @53 ir-loop
// SHOW: c2_ir{{[0-9]+}} Loop @53 ir-loop
// SHOW-NOT: kernel.
// SHOW-NOT: scale.

// TEXT: INTCC and ICC: the sum of one call at each of its 3 inlined call sites (--site K: one call at site K):
// TEXT-NEXT: site 1 (main at {{.*}}inlined-sites.c:60:3): ICC {{.*}} s ({{[0-9]+}} instructions) INTCC {{.*}} s
// TEXT-NEXT: site 2 (main at {{.*}}inlined-sites.c:62:5, in 1 loop(s) of main): ICC
// TEXT-NEXT: site 3 (main at {{.*}}inlined-sites.c:63:3): ICC

// JSON: "inlined_sites": [
// JSON: "caller": "main",
// JSON: "caller_loops": 0,
// JSON: "ICC
// JSON: "instructions":
// JSON: "site": 1,
// JSON: "caller_loops": 1,
// JSON: "site": 2,
// JSON: "site": 3,

// SITE3: SITE3 True True

// SITE2: "functions"
// SITE2-NOT: "inlined_sites"
// SITE2: "ICC"
// SITE2-NOT: "error"

// BAD: --site 4: scale has 3 inlined call sites

// PERSITE: PERSITE 3 True ['ICC', 'INTCC']

// MAINSAME: MAINSAME True
