// Plugin arguments are validated: an unknown key, a value where none is
// expected, or a missing value is an error naming the argument.
// RUN: not %clang -target x86_64-linux-gnu -fplugin=%segtime_plugin -fplugin-arg-segtime-bogus \
// RUN:   -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=BOGUS
// RUN: not %clang -target x86_64-linux-gnu -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet=1 \
// RUN:   -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=QUIETVAL
// RUN: not %clang -target x86_64-linux-gnu -fplugin=%segtime_plugin -fplugin-arg-segtime-out= \
// RUN:   -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=OUTEMPTY
// RUN: not %clang -target x86_64-linux-gnu -fplugin=%segtime_plugin -fplugin-arg-segtime-machine \
// RUN:   -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=MACHINE
// RUN: not %clang -target x86_64-linux-gnu -fplugin=%segtime_plugin -fplugin-arg-segtime-instrument=some \
// RUN:   -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=INSTRUMENT
// RUN: %clang -target x86_64-linux-gnu -fplugin=%segtime_plugin -fplugin-arg-segtime-help \
// RUN:   -fplugin-arg-segtime-quiet -fplugin-arg-segtime-out=%t.json -c %s -o %t.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=HELP

int f(int x) { return x + 1; }

// BOGUS: error: segtime: bad plugin argument 'bogus' (expected quiet, machine=NAME, out=PATH, targets=CPU,..., no-ir, instrument[=all|no-clock], timing, budget=N, help)
// QUIETVAL: error: segtime: bad plugin argument 'quiet=1'
// OUTEMPTY: error: segtime: bad plugin argument 'out='
// MACHINE: error: segtime: bad plugin argument 'machine'
// INSTRUMENT: error: segtime: bad plugin argument 'instrument=some'
// HELP: segtime plugin options
// HELP: quiet
// HELP: machine=NAME
// HELP: out=PATH
// HELP: instrument
// HELP: instrument=all
// HELP: instrument=no-clock
// HELP: budget=N
