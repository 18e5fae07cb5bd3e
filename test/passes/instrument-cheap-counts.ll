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
; - such a function (flags 32) reads the clock only when no calls are left
;   to skip (slot 3); after a timed call shorter than
;   @__segtime_ct_short_ticks it skips the next 7, each given the last timed
;   call's ticks (slot 4); slot 2 counts the pairs run.
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

; Slots: fill 0 (function, 5 slots, flags 32), 5 (loop), 9 (branch, 4 + 2
; arms); chain 15 (function, flags 32), 20 (loop), 24 / 30 / 36 (branches
; b1, b2, b3), 42 (the call, flags 16).
; CHECK: @segtime.ct.module = internal global {{.*}} { i32 5, i32 9, i32 46,
; CHECK: @segtime.ct.last = internal thread_local global i64 0
; CHECK: @__segtime_ct_short_ticks = external global i64
; CHECK: @segtime.ct.nodes = private constant
; CHECK-SAME: { i32 0, i32 -1, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 32,
; CHECK-SAME: { i32 0, i32 -1, i32 0, i32 0, i32 0, i32 0, i32 15, i32 0, i32 32,
; CHECK-SAME: { i32 3, i32 3, i32 0, i32 0, i32 0, i32 0, i32 42, i32 0, i32 16,

; @fill: no execution counter; its entry branch ran once per call (slot 9).
; The clock is read only if no calls are left to skip (slot 3, counted
; down); at the return a timed call adds its D and counts its pair (slot 2),
; keeps D (slot 4) and skips the next 7 calls if D is short; an untimed call
; adds the kept D. Either goes to @segtime.ct.last.
; CHECK-LABEL: define void @fill(
; CHECK-NOT: segtime.exec
; CHECK: %[[SKP:.*]] = getelementptr inbounds i64, ptr %{{.*}}, i64 3
; CHECK-NEXT: %[[SK:.*]] = load i64, ptr %[[SKP]]
; CHECK-NEXT: %[[S:.*]] = icmp eq i64 %[[SK]], 0
; CHECK-NEXT: %[[SK1:.*]] = sub i64 %[[SK]], 1
; CHECK-NEXT: %[[SK2:.*]] = select i1 %[[S]], i64 %[[SK]], i64 %[[SK1]]
; CHECK-NEXT: store i64 %[[SK2]], ptr %[[SKP]]
; CHECK-NEXT: br i1 %[[S]], label %[[TIME:.*]], label %[[GO:.*]]
; CHECK: [[TIME]]:
; CHECK-NEXT: %[[T0:.*]] = call i64 @llvm.readcyclecounter()
; CHECK: [[GO]]:
; CHECK-NEXT: %[[T0P:.*]] = phi i64 [ %[[T0]], %[[TIME]] ], [ 0, %{{.*}} ]
; CHECK: done:
; CHECK: getelementptr inbounds i64, ptr %{{.*}}, i64 9
; CHECK-NEXT: load i64
; CHECK-NEXT: add i64 %{{.*}}, 1
; CHECK: %[[IMPP:.*]] = getelementptr inbounds i64, ptr %{{.*}}, i64 4
; CHECK-NEXT: %[[IMP:.*]] = load i64, ptr %[[IMPP]]
; CHECK-NEXT: br i1 %[[S]], label %[[STOP:.*]], label %[[RET:.*]]
; CHECK: [[STOP]]:
; CHECK-NEXT: %[[T1:.*]] = call i64 @llvm.readcyclecounter()
; CHECK-NEXT: %[[D:.*]] = sub i64 %[[T1]], %[[T0P]]
; CHECK-NEXT: getelementptr inbounds i64, ptr %{{.*}}, i64 2
; CHECK-NEXT: load i64
; CHECK-NEXT: add i64 %{{.*}}, 1
; CHECK-NEXT: store
; CHECK-NEXT: %[[KEEP:.*]] = getelementptr inbounds i64, ptr %{{.*}}, i64 4
; CHECK-NEXT: store i64 %[[D]], ptr %[[KEEP]]
; CHECK-NEXT: %[[SHORT:.*]] = load i64, ptr @__segtime_ct_short_ticks
; CHECK-NEXT: %[[ISS:.*]] = icmp ult i64 %[[D]], %[[SHORT]]
; CHECK-NEXT: getelementptr inbounds i64, ptr %{{.*}}, i64 3
; CHECK-NEXT: select i1 %[[ISS]], i64 7, i64 0
; CHECK: [[RET]]:
; CHECK-NEXT: %[[V:.*]] = phi i64 [ %[[D]], %[[STOP]] ], [ %[[IMP]], %done ]
; CHECK-NEXT: getelementptr inbounds i64, ptr %{{.*}}, i64 1
; CHECK-NEXT: load i64
; CHECK-NEXT: add i64 %{{.*}}, %[[V]]
; CHECK: store i64 %[[V]], ptr @segtime.ct.last
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
; CHECK-NEXT: getelementptr inbounds i64, ptr %{{.*}}, i64 43
; CHECK-NEXT: load i64
; CHECK-NEXT: add i64 %{{.*}}, %[[L]]
; At the return: b1 ran once per iteration, b2 on b1's false arm, b3 on
; b2's true arm.
; CHECK: %[[E1:.*]] = load i64, ptr %segtime.body
; CHECK-NEXT: getelementptr inbounds i64, ptr %{{.*}}, i64 24
; CHECK-NEXT: load i64
; CHECK-NEXT: add i64 %{{.*}}, %[[E1]]
; CHECK: %[[A1:.*]] = load i64, ptr %segtime.arm,
; CHECK-NEXT: getelementptr inbounds i64, ptr %{{.*}}, i64 28
; CHECK: %[[A1B:.*]] = load i64, ptr %segtime.arm,
; CHECK-NEXT: %[[E2:.*]] = sub i64 %[[E1]], %[[A1B]]
; CHECK-NEXT: getelementptr inbounds i64, ptr %{{.*}}, i64 30
; CHECK-NEXT: load i64
; CHECK-NEXT: add i64 %{{.*}}, %[[E2]]
; CHECK: getelementptr inbounds i64, ptr %{{.*}}, i64 34
; CHECK: %[[E3:.*]] = load i64, ptr %segtime.arm1,
; CHECK-NEXT: getelementptr inbounds i64, ptr %{{.*}}, i64 36
; CHECK-NEXT: load i64
; CHECK-NEXT: add i64 %{{.*}}, %[[E3]]
; CHECK: call i64 @llvm.readcyclecounter()
; CHECK: ret void
