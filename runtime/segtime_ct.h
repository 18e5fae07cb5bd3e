/*===- segtime_ct.h - Component-timing runtime interface ---------*- C -*-===*\
 *
 * The tables that an instrumented module (passes/Instrument.cpp,
 * -fplugin-arg-segtime-instrument) hands to the CT runtime
 * (build/lib/libsegtime-rt.a). The layout is a contract between the
 * instrumentation pass and this runtime: change both together and bump
 * SEGTIME_CT_ABI.
 *
 * Counters are per thread: the first instrumented function a thread enters
 * in a module asks __segtime_ct_thread_block for the thread's counter block
 * (kept in a thread-local pointer), so updates are plain adds, with no lock
 * prefix: a locked add would drain the store buffer and wait for
 * outstanding loads at every loop exit, slowing memory-bound loops
 * (measured: matmul -O2 1.7x slower). Blocks are merged at exit.
 * Per node, starting at block[base]:
 *   slot 0  count       function: calls; loop: entries; call: calls made;
 *                       branch: executions of the branch
 *   slot 1  ticks       timed inclusive time, TSC ticks (llvm.readcyclecounter);
 *                       reentrant nodes: outermost activations only; calls
 *                       flagged SEGTIME_CT_CALLEE_TIMED: the ticks of their
 *                       callee's function pair
 *   slot 2  timed       reentrant nodes (SEGTIME_CT_REENTRANT): outermost
 *                       activations, the timer pairs that added to ticks;
 *                       other nodes: unused (it equals count)
 *   slot 3  iterations  loops: iterations (body executions)
 *   slot 4+k            branches: executions of arm k (k = 0 .. narms-1); for
 *                       a two-way branch only arm 0 (true) is counted and
 *                       arm 1 = count - arm 0; for a switch, arm 0 is the
 *                       default: count - sum of the cases.
 *   slot 4  exclusive   timed nodes of recursive functions: ticks of all
 *                       activations (every depth) minus the ticks of their
 *                       timed children in the same cycle.
 *
 * Short calls (SEGTIME_CT_SAMPLED: the function node of a non-recursive
 * timed function, whose calls in its module are SEGTIME_CT_CALLEE_TIMED):
 * a timer pair costs ~50 ticks wherever it runs (scripts/ct_overhead.py
 * --example), a large share of a short call (merge sort: 131 071 merge calls
 * of ~300 ticks on average, half of them merging 2 elements). After a timed
 * call shorter than __segtime_ct_short_ticks (20 pairs' cost: the pair
 * would add over 5 %), the next 7 calls run without a pair and are given
 * the ticks of that timed call (imputed); a long call is always timed, so
 * every call after it too. Slot 1 adds the timed and the imputed ticks,
 * slot 2 counts the pairs run, slot 3 the calls still to skip, slot 4 holds
 * the last timed call's ticks; the call sites add the same value (timed or
 * imputed) to theirs.
 *
 * Recursion (functions in a cycle of the module's call graph, flag
 * SEGTIME_CT_RECURSIVE on all their nodes): every activation is timed. A
 * timed node's timer saves the thread's child ticks (a thread-local in the
 * module), zeroes them, and at its stop adds D - child ticks to slot 4 and
 * sets child ticks = saved + D (D = its own pair's ticks), so each node's
 * exclusive time is exact at every depth. A call to a function outside the
 * cycle keeps its callee's time (slot 4 += D), as in other functions. A node
 * that can be active twice on one stack (the function, a call into its own
 * cycle, a loop around such a call: SEGTIME_CT_REENTRANT) keeps a
 * thread-local depth and adds to slots 1 and 2 only at depth 0, so its
 * inclusive time counts the recursion once.
\*===----------------------------------------------------------------------===*/
#ifndef SEGTIME_CT_H
#define SEGTIME_CT_H

#include <stdint.h>

#define SEGTIME_CT_ABI 5
#define SEGTIME_CT_SLOTS 4 /* fixed slots per node; branches add one per arm */

enum segtime_ct_kind {
  SEGTIME_CT_FUNCTION = 0,
  SEGTIME_CT_LOOP = 1,
  SEGTIME_CT_BRANCH = 2,
  SEGTIME_CT_CALL = 3
};

/* Node flags. */
#define SEGTIME_CT_RECURSIVE 1 /* node of a function in a call-graph cycle:
                                  every activation timed, slot 4 exclusive */
#define SEGTIME_CT_NORETURN 2  /* call to a noreturn function: counted, not timed */
#define SEGTIME_CT_UNTIMED 4   /* innermost loop: counted, not timed */
#define SEGTIME_CT_REENTRANT 8 /* can be active twice on a stack: slots 1-2
                                  only at its outermost activation */
#define SEGTIME_CT_CALLEE_TIMED 16 /* call without a pair of its own: slot 1
                                      adds the ticks of its callee's function
                                      pair (a non-recursive function of the
                                      same module, which leaves them in a
                                      thread-local at each return) */
#define SEGTIME_CT_LATE 64 /* instrument=late: a branch or loop of the optimised
                             code (passes/InstrumentLate.cpp), written to the
                             function's "late" records; reserved = its copy
                             number; loops: slot 0 entries, slot 3 header runs */
#define SEGTIME_CT_SAMPLED 32 /* function that skips its pair after short
                                 calls: slot 2 pairs run, slot 4 (above) */

struct segtime_ct_node {
  int32_t kind;     /* enum segtime_ct_kind */
  int32_t parent;   /* index of the enclosing node in this module, -1 for functions */
  int32_t line, col;
  int32_t end_line, end_col; /* loops: end of the loop (from !llvm.loop), else 0 */
  int32_t base;     /* first counter slot */
  int32_t narms;    /* branches: number of arms */
  int32_t flags;
  int32_t reserved; /* SEGTIME_CT_LATE nodes: copy number, else 0 */
  const char *name;   /* function: source name; call: callee ("" if indirect);
                         branch: "br", "switch" or "select" */
  const char *file;   /* source file of the location */
  const char *labels; /* branches: per arm "label@line:col" (target's first
                         location, 0:0 if none), separated by '\n' */
};

/* A thread's counters for one module (allocated by the runtime, never freed). */
struct segtime_ct_block {
  struct segtime_ct_block *next;
  uint64_t counters[];
};

struct segtime_ct_module {
  int32_t abi;    /* SEGTIME_CT_ABI */
  int32_t nnodes;
  int32_t nslots; /* counters per thread block */
  int32_t reserved;
  const struct segtime_ct_node *nodes;
  const char *source; /* the module's source file name */
  struct segtime_ct_block *blocks; /* written by the runtime */
  struct segtime_ct_module *next;  /* written by the runtime */
};

#ifdef __cplusplus
extern "C" {
#endif
/* Called by each instrumented module's constructor. Thread-safe. */
void __segtime_ct_register(struct segtime_ct_module *m);
/* The calling thread's zeroed counter block for module m (the instrumented
 * code keeps it in a thread-local pointer). Thread-safe; never NULL (exits
 * with a message if memory runs out). */
uint64_t *__segtime_ct_thread_block(struct segtime_ct_module *m);
/* Calls of a SEGTIME_CT_SAMPLED function shorter than this (ticks) let the
 * next 7 run untimed: 20 times a nested function pair's cost, set at
 * start-up (0 before: every call timed). */
extern uint64_t __segtime_ct_short_ticks;
/* Writes the CT file now (also done once at exit); returns 0 on success. */
int __segtime_ct_write(void);
#ifdef __cplusplus
}
#endif

#endif
