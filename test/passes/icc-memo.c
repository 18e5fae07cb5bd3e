// The ICC block-cost memo (passes/IccBlockCoster.h): a block with the same
// instructions as one costed before is costed from the memo, with the same
// RUV; one instruction different (sub for add) is a block of its own.
// RUN: %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=compile -fplugin-arg-segtime-out=%t.json \
// RUN:   -mllvm -segtime-icc-dump -c %s -o %t.o 2>&1 | FileCheck %s

int first(int *a) { return a[0] * a[1] + a[2]; }
int second(int *b) { return b[0] * b[1] + b[2]; }
int third(int *c) { return c[0] * c[1] - c[2]; }

// CHECK: segtime-icc x86-64 first bb.0 -> bb0: [[RUV:.*]]
// CHECK: segtime-icc x86-64 second bb.0 -> bb0: [[RUV]]{{$}}
// CHECK: segtime-icc x86-64 third bb.0 -> bb0:
// CHECK: segtime-icc x86-64: 1 of 3 blocks costed from the memo (2 distinct)
