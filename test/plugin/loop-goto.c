// A goto to a label inside the loop body keeps the loop counted (the loop of
// `inner_gotos` has trip n); a goto to a label after the loop leaves it
// early (N_<fn>_<line>, no default). The gotos themselves stay Unknown nodes.
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o 2> %t.err
// RUN: %segtime show %t.json | FileCheck %s
// RUN: FileCheck --check-prefix=WARN %s < %t.err

void inner_gotos(int n, float *a, float *b, const float *c) {
  for (int i = 0; i < n; i++) {
    if (c[i] < 0.f)
      goto L20;
    a[i] = c[i];
    goto L10;
  L20:
    b[i] = c[i];
  L10:;
  }
}

int outer_goto(int n, const int *a) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      if (a[i * n + j])
        goto found;
  return 0;
found:
  return 1;
}

// CHECK: function inner_gotos
// CHECK: T_inner_gotos(n, a, b, c) = t(v1) + n·(
// CHECK: Loop @10 for trip=n index=i{{$}}
// CHECK: function outer_goto
// CHECK: param N_outer_goto_22 default=none [none] iterations of the for loop (leaves early (break/return/goto))
// CHECK: param N_outer_goto_23 default=none [none] iterations of the for loop (leaves early (break/return/goto))
// WARN: loop-goto.c:12:7: warning: segtime: not characterised: goto: unstructured control flow
