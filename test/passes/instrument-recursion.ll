; Component timing of a recursive function (opt, through the pass plugin):
; every activation is timed; the function, its call into its own cycle and
; the loop around that call keep a thread-local activation depth and add to
; the inclusive ticks (slot 1) and outermost activations (slot 2) only at
; depth 0; every timed node takes part in the child-ticks protocol and adds
; its exclusive ticks to slot 4; the call to @leaf (outside the cycle) keeps
; its callee's time and has no depth; @leaf itself is timed as before.
; RUN: opt -load-pass-plugin %segtime_passes -passes=segtime-instrument -S %s | FileCheck %s

declare void @ext(i32)

define void @leaf(i32 %x) {
  call void @ext(i32 %x)
  ret void
}

; Visits a k-ary tree of depth %d: a loop of %k recursive calls.
define void @walk(i32 %d, i32 %k) {
entry:
  %stop = icmp sle i32 %d, 0
  br i1 %stop, label %done, label %ph
ph:
  br label %loop
loop:
  %i = phi i32 [ 0, %ph ], [ %i.next, %loop ]
  %d1 = sub i32 %d, 1
  call void @walk(i32 %d1, i32 %k)
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %k
  br i1 %more, label %loop, label %after
after:
  call void @leaf(i32 %d)
  br label %done
done:
  ret void
}

; One depth counter per reentrant node of @walk (the function, the
; recursive call, the loop around it); none for @leaf or the call to it.
; CHECK: @segtime.ct.module = internal global {{.*}} { i32 5, i32 7, i32 35,
; CHECK: @segtime.ct.child = internal thread_local global i64 0
; CHECK-NEXT: @segtime.ct.last = internal thread_local global i64 0
; CHECK-NEXT: @__segtime_ct_short_ticks = external global i64
; CHECK-NEXT: @[[FDEPTH:segtime.ct.depth]] = internal thread_local global i32 0
; CHECK-NEXT: @[[CDEPTH:segtime.ct.depth.1]] = internal thread_local global i32 0
; CHECK-NEXT: @[[LDEPTH:segtime.ct.depth.2]] = internal thread_local global i32 0
; CHECK-NOT: @segtime.ct.depth
; Node table {kind, parent, ..., base, narms, flags}: leaf (base 0, flags
; 32 = skips its pair after short calls, 5 slots: slot 4 its last timed
; call's ticks) and its call to @ext (base 5, 4 slots, no flags); walk's timed nodes
; have 5 (slot 4: exclusive ticks): the function (flags 9 = recursive |
; reentrant, base 9), the loop (base 14, flags 9), its branch (base 19, 4 +
; 2 arms, flags 0), the recursive call (base 25, flags 9), the call to
; @leaf (base 30, flags 1 = recursive: outside the cycle, not reentrant).
; CHECK: @segtime.ct.nodes = private constant
; CHECK-SAME: { i32 0, i32 -1, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 32,
; CHECK-SAME: { i32 3, i32 0, i32 0, i32 0, i32 0, i32 0, i32 5, i32 0, i32 0,
; CHECK-SAME: { i32 0, i32 -1, i32 0, i32 0, i32 0, i32 0, i32 9, i32 0, i32 9,
; CHECK-SAME: { i32 1, i32 2, i32 0, i32 0, i32 0, i32 0, i32 14, i32 0, i32 9,
; CHECK-SAME: { i32 2, i32 2, i32 0, i32 0, i32 0, i32 0, i32 19, i32 2, i32 0,
; CHECK-SAME: { i32 3, i32 3, i32 0, i32 0, i32 0, i32 0, i32 25, i32 0, i32 9,
; CHECK-SAME: { i32 3, i32 2, i32 0, i32 0, i32 0, i32 0, i32 30, i32 0, i32 1,

; CHECK-LABEL: define void @leaf(
; CHECK-NOT: segtime.ct.child
; CHECK-NOT: segtime.ct.depth
; CHECK: ret void

; Entry of @walk: its depth, save and zero the child ticks, start.
; CHECK-LABEL: define void @walk(
; CHECK: %[[D:.*]] = load i32, ptr @[[FDEPTH]]
; CHECK-NEXT: %[[D1:.*]] = add i32 %[[D]], 1
; CHECK-NEXT: store i32 %[[D1]], ptr @[[FDEPTH]]
; CHECK-NEXT: %[[SAVED:.*]] = load i64, ptr @segtime.ct.child
; CHECK-NEXT: store i64 0, ptr @segtime.ct.child
; CHECK-NEXT: %[[T0:.*]] = call i64 @llvm.readcyclecounter()
; Loop entry: the same, kept in allocas until the loop exit.
; CHECK: ph:
; CHECK: load i32, ptr @[[LDEPTH]]
; CHECK: store i64 0, ptr @segtime.ct.child
; CHECK-NEXT: %[[LT0:.*]] = call i64 @llvm.readcyclecounter()
; CHECK-NEXT: store i64 %[[LT0]], ptr %segtime.t0
; The recursive call: exclusive ticks (slot 29) = D - the callee's D; the
; caller's timer gets saved + D; ticks (slot 26) and outermost activations
; (slot 27) only at depth 0.
; CHECK: loop:
; CHECK: %[[CD0:.*]] = load i32, ptr @[[CDEPTH]]
; CHECK: %[[CSAVED:.*]] = load i64, ptr @segtime.ct.child
; CHECK-NEXT: store i64 0, ptr @segtime.ct.child
; CHECK-NEXT: %[[CT0:.*]] = call i64 @llvm.readcyclecounter()
; CHECK-NEXT: call void @walk(
; CHECK-NEXT: %[[CT1:.*]] = call i64 @llvm.readcyclecounter()
; CHECK-NEXT: %[[CD:.*]] = sub i64 %[[CT1]], %[[CT0]]
; CHECK-NEXT: %[[CH:.*]] = load i64, ptr @segtime.ct.child
; CHECK-NEXT: %[[CEX:.*]] = sub i64 %[[CD]], %[[CH]]
; CHECK-NEXT: getelementptr inbounds i64, ptr %{{.*}}, i64 29
; CHECK: add i64 %{{.*}}, %[[CEX]]
; CHECK: %[[REP:.*]] = add i64 %[[CSAVED]], %[[CD]]
; CHECK-NEXT: store i64 %[[REP]], ptr @segtime.ct.child
; CHECK-NEXT: %[[OUT:.*]] = icmp eq i32 %[[CD0]], 0
; CHECK-NEXT: select i1 %[[OUT]], i64 %[[CD]], i64 0
; CHECK-NEXT: getelementptr inbounds i64, ptr %{{.*}}, i64 26
; CHECK: getelementptr inbounds i64, ptr %{{.*}}, i64 27
; CHECK: store i32 %[[CD0]], ptr @[[CDEPTH]]
; Loop exit: exclusive ticks at slot 18, depth restored.
; CHECK: after:
; CHECK: getelementptr inbounds i64, ptr %{{.*}}, i64 18
; CHECK: store i32 %{{.*}}, ptr @[[LDEPTH]]
; The call to @leaf: no depth; its whole D is its exclusive time (slot 34).
; CHECK-NOT: @segtime.ct.depth
; CHECK: call i64 @llvm.readcyclecounter()
; CHECK-NEXT: call void @leaf(
; CHECK-NEXT: %[[LT1:.*]] = call i64 @llvm.readcyclecounter()
; CHECK-NEXT: %[[LD:.*]] = sub i64 %[[LT1]],
; CHECK-NEXT: getelementptr inbounds i64, ptr %{{.*}}, i64 34
; CHECK-NEXT: %[[LX:.*]] = load i64
; CHECK-NEXT: add i64 %[[LX]], %[[LD]]
; Return: exclusive ticks (slot 13), saved + D to the caller's timer,
; outermost-only ticks (slot 10), depth restored.
; CHECK: done:
; CHECK: %[[FD:.*]] = sub i64 %{{.*}}, %[[T0]]
; CHECK-NEXT: %[[FCH:.*]] = load i64, ptr @segtime.ct.child
; CHECK-NEXT: sub i64 %[[FD]], %[[FCH]]
; CHECK-NEXT: getelementptr inbounds i64, ptr %{{.*}}, i64 13
; CHECK: add i64 %[[SAVED]], %[[FD]]
; CHECK: icmp eq i32 %[[D]], 0
; CHECK: getelementptr inbounds i64, ptr %{{.*}}, i64 10
; CHECK: store i32 %[[D]], ptr @[[FDEPTH]]
; CHECK: ret void
