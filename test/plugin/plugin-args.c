// Plugin arguments never fail the compile: an unknown key, a value where
// none is expected, a missing or bad value, or an unknown ICC target is a
// warning naming the argument and what is accepted; the argument is ignored
// and the object and the SEG file are still written. Only an output that
// cannot be written is an error.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clang -target x86_64-linux-gnu -fplugin=%segtime_plugin -fplugin-arg-segtime-bogus \
// RUN:   -fplugin-arg-segtime-quiet -fplugin-arg-segtime-out=%t.dir/a.json -c %s -o %t.dir/a.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BOGUS
// RUN: test -s %t.dir/a.o && test -s %t.dir/a.json
// RUN: %clang -target x86_64-linux-gnu -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet=1 \
// RUN:   -fplugin-arg-segtime-out=%t.dir/b.json -c %s -o %t.dir/b.o 2>&1 | FileCheck %s --check-prefix=QUIETVAL
// RUN: test -s %t.dir/b.o && test -s %t.dir/b.json
// RUN: %clang -target x86_64-linux-gnu -fplugin=%segtime_plugin -fplugin-arg-segtime-out= \
// RUN:   -fplugin-arg-segtime-quiet -c %s -o %t.dir/c.o 2>&1 | FileCheck %s --check-prefix=OUTEMPTY
// RUN: test -s %t.dir/c.o && test -s %t.dir/c.seg.json
// RUN: %clang -target x86_64-linux-gnu -fplugin=%segtime_plugin -fplugin-arg-segtime-machine \
// RUN:   -fplugin-arg-segtime-quiet -fplugin-arg-segtime-out=%t.dir/d.json -c %s -o %t.dir/d.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MACHINE
// RUN: test -s %t.dir/d.o
// RUN: %clang -target x86_64-linux-gnu -fplugin=%segtime_plugin -fplugin-arg-segtime-instrument=some \
// RUN:   -fplugin-arg-segtime-quiet -fplugin-arg-segtime-out=%t.dir/e.json -c %s -o %t.dir/e.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=INSTRUMENT
// RUN: test -s %t.dir/e.o
// RUN: %clang -target x86_64-linux-gnu -fplugin=%segtime_plugin -fplugin-arg-segtime-budget=-3 \
// RUN:   -fplugin-arg-segtime-budget=lots -fplugin-arg-segtime-quiet -fplugin-arg-segtime-out=%t.dir/f.json \
// RUN:   -c %s -o %t.dir/f.o 2>&1 | FileCheck %s --check-prefix=BUDGET
// RUN: test -s %t.dir/f.o
// RUN: %clang -target x86_64-linux-gnu -fplugin=%segtime_plugin -fplugin-arg-segtime-p=n=nan \
// RUN:   -fplugin-arg-segtime-p=n -fplugin-arg-segtime-p -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.dir/p.json -c %s -o %t.dir/p.o 2>&1 | FileCheck %s --check-prefix=PVAL
// RUN: test -s %t.dir/p.o
// An unknown target among known ones: a warning listing the known names;
// the known target is characterised.
// RUN: %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-targets=nonsense,leon3 \
// RUN:   -fplugin-arg-segtime-quiet -fplugin-arg-segtime-out=%t.dir/g.json -c %s -o %t.dir/g.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TARGETS
// RUN: test -s %t.dir/g.o
// RUN: grep -q "ICC:leon3" %t.dir/g.json && not grep -q nonsense %t.dir/g.json
// RUN: %clang -target x86_64-linux-gnu -fplugin=%segtime_plugin -fplugin-arg-segtime-targets= \
// RUN:   -fplugin-arg-segtime-timing=yes -fplugin-arg-segtime-no-ir=1 -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.dir/h.json -c %s -o %t.dir/h.o 2>&1 | FileCheck %s --check-prefix=NOVALS
// RUN: test -s %t.dir/h.o
// A malformed machine file: the summary says why it prints no times, with
// file:line:col; the compile goes on.
// RUN: %clang -target x86_64-linux-gnu -fplugin=%segtime_plugin -fplugin-arg-segtime-machine=%inputs/machine-bare.yaml \
// RUN:   -fplugin-arg-segtime-out=%t.dir/m.json -c %s -o %t.dir/m.o 2>&1 | FileCheck %s --check-prefix=BADMACHINE
// RUN: test -s %t.dir/m.o
// -Werror does not turn them into errors.
// RUN: %clang -target x86_64-linux-gnu -Werror -fplugin=%segtime_plugin -fplugin-arg-segtime-bogus \
// RUN:   -fplugin-arg-segtime-quiet -fplugin-arg-segtime-out=%t.dir/i.json -c %s -o %t.dir/i.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BOGUS
// RUN: test -s %t.dir/i.o
// An output that cannot be written fails the compile.
// RUN: not %clang -target x86_64-linux-gnu -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.dir/no/such/dir/x.json -c %s -o %t.dir/j.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOWRITE
// RUN: %clang -target x86_64-linux-gnu -fplugin=%segtime_plugin -fplugin-arg-segtime-help \
// RUN:   -fplugin-arg-segtime-quiet -fplugin-arg-segtime-out=%t.json -c %s -o %t.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=HELP

int f(int x) { return x + 1; }

// BOGUS: warning: segtime: plugin argument 'bogus' ignored: unknown key 'bogus' (expected quiet, machine=NAME, out=PATH, targets=CPU,..., no-ir, inlined[=NAME,...], no-inlined, instrument[=all|no-clock|late], ir-copies, p=NAME=VALUE, timing, budget=N, help)
// BOGUS-NOT: error
// QUIETVAL: warning: segtime: plugin argument 'quiet=1' ignored: 'quiet' takes no value
// OUTEMPTY: warning: segtime: plugin argument 'out=' ignored: 'out' needs a value: out=PATH
// MACHINE: warning: segtime: plugin argument 'machine' ignored: 'machine' needs a value: machine=NAME
// INSTRUMENT: warning: segtime: plugin argument 'instrument=some' ignored: expected instrument, instrument=all, instrument=no-clock or instrument=late
// BUDGET: warning: segtime: plugin argument 'budget=-3' ignored: expected a whole number > 0, got '-3'
// BUDGET: warning: segtime: plugin argument 'budget=lots' ignored: expected a whole number > 0, got 'lots'
// PVAL: warning: segtime: plugin argument 'p=n=nan' ignored: expected p=NAME=VALUE with a finite number
// PVAL: warning: segtime: plugin argument 'p=n' ignored: expected p=NAME=VALUE
// PVAL: warning: segtime: plugin argument 'p' ignored: 'p' needs a value: p=NAME=VALUE
// TARGETS: warning: segtime: plugin argument 'targets=nonsense,leon3': unknown ICC target 'nonsense'; accepted: znver5, {{.*}}leon3{{.*}}; the target is left out
// TARGETS-NOT: error
// NOVALS: warning: segtime: plugin argument 'targets=' ignored: 'targets' needs a value: targets=CPU,...
// NOVALS: warning: segtime: plugin argument 'timing=yes' ignored: 'timing' takes no value
// NOVALS: warning: segtime: plugin argument 'no-ir=1' ignored: 'no-ir' takes no value
// BADMACHINE: segtime: no times printed: {{.*}}machine-bare.yaml:9:17: 'flop': expected a mapping {value, provenance, ...}, got a bare number
// NOWRITE: error: segtime: cannot write '{{.*}}x.json'
// HELP: segtime plugin options
// HELP: quiet
// HELP: machine=NAME
// HELP: out=PATH
// HELP: instrument
// HELP: instrument=all
// HELP: instrument=no-clock
// HELP: instrument=late
// HELP: ir-copies
// HELP: budget=N
// HELP: only an output that cannot be written fails the compile
