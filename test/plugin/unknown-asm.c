// Non-empty inline assembly is an Unknown node with a warning; an empty
// 'asm volatile("")' barrier costs nothing and makes no node.
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: %segtime show %t.json | FileCheck %s

void pause_cpu(void) {
  __asm__ volatile("");
  __asm__ volatile("pause");
  __asm__ volatile("");
}

// WARN: asm.c:9:3: warning: segtime: not characterised: inline assembly (SEG node v1 in 'pause_cpu')
// WARN-NOT: warning:
// CHECK: function pause_cpu
// CHECK-NEXT: T_pause_cpu() = U(v1)
// CHECK-NEXT: v1 Unknown @9 reason: inline assembly
// CHECK-NOT: v2
