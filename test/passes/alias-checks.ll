; The vectoriser's runtime alias checks between addresses of one array are
; decided exactly: the difference of two addresses with one base is an
; integer in source names (n, the outer iteration number k), and the phi
; that starts the scalar loop is taken along the path the checks choose.
; RUN: opt -load-pass-plugin %segtime_passes -passes='print<segtime-ir>' -disable-output %s | FileCheck %s

; for k in 0..n-1: the check compares &a[k] with &a[1] (overlap for k = 0
; only) and &a[2] with &a[0] (a constant distance: never less). If the check
; fails, the scalar loop runs all n iterations; otherwise a vector loop runs
; n/2 iterations of 2 and the scalar loop the n%2 left over.
define void @rows(i32 %n, ptr %a) {
entry:
  %wide = zext i32 %n to i64
  %pos = icmp sgt i32 %n, 0
  br i1 %pos, label %outer, label %exit
outer:
  %k = phi i64 [ 0, %entry ], [ %k.next, %latch ]
  %p = getelementptr double, ptr %a, i64 %k
  %q = getelementptr double, ptr %a, i64 1
  %r = getelementptr double, ptr %a, i64 2
  %overlap = icmp ult ptr %p, %q
  %never = icmp ult ptr %r, %a
  %fail = or i1 %overlap, %never
  %n.vec = and i64 %wide, -2
  br i1 %fail, label %scalar.ph, label %vector
vector:
  %iv = phi i64 [ 0, %outer ], [ %iv.next, %vector ]
  %vp = getelementptr double, ptr %a, i64 %iv
  %v = load <2 x double>, ptr %vp
  %v2 = fadd <2 x double> %v, %v
  store <2 x double> %v2, ptr %vp
  %iv.next = add nuw i64 %iv, 2
  %vdone = icmp eq i64 %iv.next, %n.vec
  br i1 %vdone, label %scalar.ph, label %vector
scalar.ph:
  %start = phi i64 [ 0, %outer ], [ %n.vec, %vector ]
  %none = icmp eq i64 %start, %wide
  br i1 %none, label %latch, label %scalar
scalar:
  %j = phi i64 [ %start, %scalar.ph ], [ %j.next, %scalar ]
  %sp = getelementptr double, ptr %a, i64 %j
  %s = load double, ptr %sp
  %s2 = fadd double %s, %s
  store double %s2, ptr %sp
  %j.next = add nuw i64 %j, 1
  %sdone = icmp eq i64 %j.next, %wide
  br i1 %sdone, label %latch, label %scalar
latch:
  %k.next = add nuw i64 %k, 1
  %kdone = icmp eq i64 %k.next, %wide
  br i1 %kdone, label %exit, label %outer
exit:
  ret void
}

; The vector loop runs when the check passes: [8*k - 8 < 0] is k < 1; the
; constant distance 16 folds to "never less" (no factor for it).
; CHECK:      "freq": "(1 - cmp_lt((-8 + 8*[[K:k_rows_ir[0-9]+]]), 0))",
; CHECK-NEXT: "id": "ir{{[0-9]+}}",
; CHECK-NEXT: "index": "k_rows_ir{{[0-9]+}}",
; CHECK-NEXT: "kind": "Loop",
; CHECK-NEXT: "label": "vectorised",
; The scalar loop starts at 0 if the check failed and at n.vec = 2*idiv(n, 2)
; if the vector loop ran: n iterations for k = 0, n - 2*idiv(n, 2) after.
; CHECK:      "freq": "(1 - cmp_eq((((1 - cmp_lt((-8 + 8*[[K]]), 0)))*(2*idiv(n, 2))), n))",
; CHECK-NEXT: "id": "ir{{[0-9]+}}",
; CHECK-NEXT: "index": "k_rows_ir{{[0-9]+}}",
; CHECK-NEXT: "kind": "Loop",
; CHECK:      "trip": "((-1 + n + -1*(((1 - cmp_lt((-8 + 8*[[K]]), 0)))*(2*idiv(n, 2))))) + 1"
