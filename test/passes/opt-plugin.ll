; The same analysis from opt, through the pass plugin (IR from any front end).
; RUN: opt -load-pass-plugin %segtime_passes -passes='print<segtime-ir>' -disable-output %s | FileCheck %s

define void @scale(i32 %n, ptr %x, double %a) {
entry:
  %cmp = icmp sgt i32 %n, 0
  br i1 %cmp, label %ph, label %exit
ph:
  %wide = zext i32 %n to i64
  br label %loop
loop:
  %i = phi i64 [ 0, %ph ], [ %i.next, %loop ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p
  %m = fmul double %v, %a
  store double %m, ptr %p
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %wide
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
; The loop body block (keys are printed in alphabetical order), then the
; loop node itself with its ScalarEvolution trip count in source names.
; CHECK:      "fmul.f64": 1.0,
; CHECK:      "load.f64": 1.0,
; CHECK:      "store.f64": 1.0
; CHECK:      "index": "k_scale_ir3",
; CHECK-NEXT: "kind": "Loop",
; CHECK:      "trip": "((-1 + n)) + 1"
; CHECK:      "name": "scale",
