// The min/max-update (record) idiom (docs/models.md "Branch probabilities"):
// a data-dependent branch comparing a value with the current content of a
// location tested N times, whose taken arm stores the value there, gets the
// static estimate H_N/N (expected records of N exchangeable values, Knuth
// TAOCP vol. 1 1.2.10) instead of BranchProbabilityInfo's; other
// data-dependent branches keep BPI's.
// RUN: %clang -target x86_64-linux-gnu -O2 -march=x86-64-v3 \
// RUN:   -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json --ir | FileCheck %s
// RUN: %segtime show %t.json --json | FileCheck --check-prefix=JSON %s
// RUN: %segtime predict %t.json --machine %costvectors/t800.yaml --function colmin --level intcc \
// RUN:   -p n=24 -p m=10 | FileCheck --check-prefix=PRED %s
// RUN: %segtime predict %t.json --machine %costvectors/t800.yaml --function colmin --level intcc \
// RUN:   -p n=24 -p m=10 -p Pir_colmin_22_11=0.5 | FileCheck --check-prefix=USER %s

// Minimum over the outer loop: best[j] is invariant in the k loop, so each
// location is tested n times (N = n).
void colmin(int n, int m, const double *a, double *best) {
  for (int k = 0; k < n; k++)
    for (int j = 0; j < m; j++)
      if (a[k * m + j] < best[j])
        best[j] = a[k * m + j];
}

// Maximum over the innermost loop: mx[i] is invariant in the j loop, which
// is unrolled by 4 with a remainder loop: N counts the tests of all copies.
void rowmax(int n, int m, const double *a, double *mx) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      if (a[i * m + j] > mx[i])
        mx[i] = a[i * m + j];
}

// Running maximum in a register (a loop-carried phi; the call keeps the
// branch): N = the loop's trip count.
void note(int i);
double argmax(int n, const double *a) {
  double best = a[0];
  for (int i = 1; i < n; i++)
    if (a[i] > best) {
      best = a[i];
      note(i);
    }
  return best;
}

// Not the idiom: each location is tested once (clip), or the stored value
// is not the compared one (halve): BPI's estimate.
void clip(int n, double *a, double t) {
  for (int i = 0; i < n; i++)
    if (a[i] > t)
      a[i] = t;
}
void halve(int n, int m, const double *a, double *best) {
  for (int k = 0; k < n; k++)
    for (int j = 0; j < m; j++)
      if (a[k * m + j] < best[j])
        best[j] = 0.5 * a[k * m + j];
}

// CHECK-LABEL: function colmin
// CHECK: param Pir_colmin_22_11 default=(log(max(n, 1)) + 0.5772156649 + 1/(2*max(n, 1)) - 1/(12*max(n, 1)^2))/max(n, 1) [static: min-update idiom, H_N/N with N = n] probability that the optimised branch goes to 23:17 (a min/max update
// The unrolled loop's 4 copies and the remainder loop's: 4*idiv(m, 4) + umod(m, 4) = m.
// CHECK-LABEL: function rowmax
// CHECK: param Pir_rowmax_31_11 default={{.*}} [static: min-update idiom, H_N/N with N = 4*((idiv((-4 + 4*idiv(m, 4)), 4)) + 1) + ((-1 + umod(m, 4))) + 1]
// CHECK-LABEL: function argmax
// CHECK: param Pir_argmax_41_9 default=(log(max(-1 + n, 1)) + {{.*}} [static: min-update idiom, H_N/N with N = -1 + n]
// CHECK-LABEL: function clip
// CHECK: param Pir_clip_52_9 default=0.500000 [BPI]
// CHECK-LABEL: function halve
// CHECK: param Pir_halve_58_11 default=0.500000 [BPI]

// JSON: "default": "(log(max(n, 1)) + 0.5772156649 + 1/(2*max(n, 1)) - 1/(12*max(n, 1)^2))/max(n, 1)",
// JSON-NEXT: "kind": "branch",
// JSON-NEXT: "meaning": "probability that the optimised branch goes to 23:17 (a min/max update
// JSON-NEXT: "name": "Pir_colmin_22_11",
// JSON-NEXT: "other_at":
// JSON-NEXT: "source": "static: min-update idiom, H_N/N with N = n",

// n = 24: H_24/24 = 0.157332; -p overrides it.
// PRED: parameters: {{.*}}m=10 [user] n=24 [user] Pir_colmin_22_11=0.157332 [static: min-update idiom, H_N/N with N = n]
// USER: parameters: Pir_colmin_22_11=0.5 [user] {{.*}}m=10 [user] n=24 [user]
