; Component timing's cheap counting (opt, through the pass plugin):
; - a branch's executions are its block's runs, derived by flow conservation
;   where the block has a single predecessor: the entry block (once per
;   call), the first block of a loop body (the loop's iterations, summed at
;   its exits into %segtime.body), the true or false arm of the branch
;   before it (a short-circuit chain: j >= hi || (i < mid && ...)). Only the
;   true arm of each two-way branch is counted per execution; no
;   %segtime.exec counter is kept for these blocks.
; - a call to a timed, non-recursive function of the module has no timer
;   pair of its own: the callee leaves its pair's ticks in
;   @segtime.ct.last at each return and the call site adds them
;   (flags 16 = callee-timed).
; RUN: opt -load-pass-plugin %segtime_passes -passes=segtime-instrument -S %s | FileCheck %s

define void @fill(ptr %p, i32 %n) {
entry:
  %z = icmp sgt i32 %n, 0
  br i1 %z, label %loop, label %done
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %q = getelementptr inbounds i32, ptr %p, i32 %i
  store i32 %i, ptr %q
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}

; A merge-like loop: for (k = 0; k < n; k++) if (k >= a || (k < b && k != c)) ...
define void @chain(ptr %p, i32 %a, i32 %b, i32 %c, i32 %n) {
entry:
  br label %head
head:
  %k = phi i32 [ 0, %entry ], [ %k1, %latch ]
  %t = icmp slt i32 %k, %n
  br i1 %t, label %b1, label %exit
b1:
  %c1 = icmp sge i32 %k, %a
  br i1 %c1, label %then, label %b2
b2:
  %c2 = icmp slt i32 %k, %b
  br i1 %c2, label %b3, label %else
b3:
  %c3 = icmp ne i32 %k, %c
  br i1 %c3, label %then, label %else
then:
  br label %latch
else:
  br label %latch
latch:
  %k1 = add i32 %k, 1
  br label %head
exit:
  call void @fill(ptr %p, i32 %n)
  ret void
}

; Slots: fill 0 (function), 4 (loop), 8 (branch, 4 + 2 arms); chain 14
; (function), 18 (loop), 22 / 28 / 34 (branches b1, b2, b3), 40 (the call,
; flags 16).
; CHECK: @segtime.ct.module = internal global {{.*}} { i32 4, i32 9, i32 44,
; CHECK: @segtime.ct.last = internal thread_local global i64 0
; CHECK: @segtime.ct.nodes = private constant
; CHECK-SAME: { i32 3, i32 3, i32 0, i32 0, i32 0, i32 0, i32 40, i32 0, i32 16,

; @fill: no execution counter; its entry branch ran once per call (slot 8);
; its pair's ticks go to @segtime.ct.last at the return.
; CHECK-LABEL: define void @fill(
; CHECK-NOT: segtime.exec
; CHECK: %[[T0:.*]] = call i64 @llvm.readcyclecounter()
; CHECK: done:
; CHECK: getelementptr inbounds i64, ptr %{{.*}}, i64 8
; CHECK-NEXT: load i64
; CHECK-NEXT: add i64 %{{.*}}, 1
; CHECK: %[[T1:.*]] = call i64 @llvm.readcyclecounter()
; CHECK-NEXT: %[[D:.*]] = sub i64 %[[T1]], %[[T0]]
; CHECK: store i64 %[[D]], ptr @segtime.ct.last
; CHECK-NEXT: ret void

; @chain: three arm counters and the loop's body count, no execution
; counters; one pair (the function's) and none around the call.
; CHECK-LABEL: define void @chain(
; CHECK-NOT: segtime.exec
; CHECK-DAG: %segtime.arm = alloca i64
; CHECK-DAG: %segtime.arm1 = alloca i64
; CHECK-DAG: %segtime.arm2 = alloca i64
; CHECK-DAG: %segtime.body = alloca i64
; CHECK-NOT: segtime.exec
; CHECK: call i64 @llvm.readcyclecounter()
; CHECK-NOT: readcyclecounter
; Loop exit from its test: iterations = header runs - 1, added to the body count.
; CHECK: %[[IT:.*]] = sub i64 %{{.*}}, 1
; CHECK: %[[B0:.*]] = load i64, ptr %segtime.body
; CHECK-NEXT: %[[B1:.*]] = add i64 %[[B0]], %[[IT]]
; CHECK-NEXT: store i64 %[[B1]], ptr %segtime.body
; CHECK-NOT: readcyclecounter
; CHECK: call void @fill(
; CHECK-NEXT: %[[L:.*]] = load i64, ptr @segtime.ct.last
; CHECK-NEXT: getelementptr inbounds i64, ptr %{{.*}}, i64 41
; CHECK-NEXT: load i64
; CHECK-NEXT: add i64 %{{.*}}, %[[L]]
; At the return: b1 ran once per iteration, b2 on b1's false arm, b3 on
; b2's true arm.
; CHECK: %[[E1:.*]] = load i64, ptr %segtime.body
; CHECK-NEXT: getelementptr inbounds i64, ptr %{{.*}}, i64 22
; CHECK-NEXT: load i64
; CHECK-NEXT: add i64 %{{.*}}, %[[E1]]
; CHECK: %[[A1:.*]] = load i64, ptr %segtime.arm,
; CHECK-NEXT: getelementptr inbounds i64, ptr %{{.*}}, i64 26
; CHECK: %[[A1B:.*]] = load i64, ptr %segtime.arm,
; CHECK-NEXT: %[[E2:.*]] = sub i64 %[[E1]], %[[A1B]]
; CHECK-NEXT: getelementptr inbounds i64, ptr %{{.*}}, i64 28
; CHECK-NEXT: load i64
; CHECK-NEXT: add i64 %{{.*}}, %[[E2]]
; CHECK: getelementptr inbounds i64, ptr %{{.*}}, i64 32
; CHECK: %[[E3:.*]] = load i64, ptr %segtime.arm1,
; CHECK-NEXT: getelementptr inbounds i64, ptr %{{.*}}, i64 34
; CHECK-NEXT: load i64
; CHECK-NEXT: add i64 %{{.*}}, %[[E3]]
; CHECK: call i64 @llvm.readcyclecounter()
; CHECK: ret void
