/*===- ct_runtime.c - Component-timing (CT) runtime library ---------------===*\
 *
 * Linked into programs built with -fplugin-arg-segtime-instrument
 * (build/lib/libsegtime-rt.a). Instrumented modules register their node
 * tables (segtime_ct.h) from a constructor; at exit (return from main or
 * exit()) the runtime writes the measured times and counts as JSON, schema
 * "segtime.ct/1" (docs/ct-json.md), to $SEGTIME_CT_FILE or else to
 * <program>.ct.json in the current directory (program = basename of
 * /proc/self/exe). It never writes to stdout; problems go to stderr.
 *
 * Counters are per thread (segtime_ct.h) and summed at exit.
 *
 * Timing (design.md §5 CT, Warwick-94 §3 level CT): the instrumented code
 * reads the time-stamp counter (llvm.readcyclecounter = rdtsc) around every
 * function, loop and call. The runtime converts ticks to seconds with the TSC
 * rate measured against CLOCK_MONOTONIC over the whole run, and subtracts
 * the instrumentation's own cost, measured at start-up and again at exit
 * (each the minimum of both and of 9 rounds: measure_overheads):
 *   pair_overhead   ticks a timer pair reads with nothing between its two
 *                   reads (median of back-to-back rdtsc pairs), subtracted
 *                   once per timed activation;
 *   nested cost     ticks a complete timer pair (two reads and the atomic
 *                   counter updates) adds to the timer enclosing it,
 *                   subtracted for every pair run inside a node (callees
 *                   included, at their mean pairs per call). A call timed
 *                   by its callee's pair (SEGTIME_CT_CALLEE_TIMED) runs no
 *                   pair of its own.
 *   recursive cost  the same for a pair of a recursive function's node, which
 *                   also saves and restores the thread's child ticks and,
 *                   if reentrant, its depth (segtime_ct.h).
 * inclusive_s = (ticks - timed*pair_overhead - nested cost) / hz, at least 0;
 * exclusive_s = inclusive_s - inclusive_s of the node's children in the same
 * function (a call's time, callee included, is the call node's own).
 * Recursive functions (segtime_ct.h): exclusive_s = (slot-4 ticks -
 * count*pair_overhead - (recursive cost - pair_overhead) per timed child
 * pair - the overhead of a call's callee) / hz, so the exclusive times of a
 * cycle's nodes add up to the inclusive time of its outermost activations;
 * the nested cost inside a reentrant loop's or call's outermost activations
 * is the function's (overhead ticks per tick of its inclusive time) times
 * its ticks, an estimate.
 *
 * USAGE:
 *   clang-19 -O2 -fplugin=build/lib/segtime.so -fplugin-arg-segtime-instrument \
 *            prog.c build/lib/libsegtime-rt.a -o prog
 *   ./prog                                   # writes prog.ct.json
 *   SEGTIME_CT_FILE=/tmp/x.ct.json ./prog    # writes /tmp/x.ct.json
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "segtime_ct.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if !defined(__x86_64__) && !defined(__i386__)
#error "the segtime CT runtime reads the x86 time-stamp counter (rdtsc)"
#endif

static inline uint64_t ticks(void) { return __builtin_ia32_rdtsc(); }

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static struct segtime_ct_module *Modules; /* registered modules (a stack) */
static int Started;                       /* 0, 1 = starting, 2 = started */
static int Written;
static uint64_t StartTicks;
static double StartS;
static double PairOverhead;    /* ticks */
static double NestedCost[4];   /* ticks, per enum segtime_ct_kind */
static double NestedCostRec;   /* ticks, a recursive function's node */
uint64_t __segtime_ct_short_ticks; /* segtime_ct.h */

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

/* One trial of each start-up measure, in ticks. */
enum { PairReads = 1001, NestedPairs = 2000 };

/* Median ticks between two back-to-back counter reads. */
static double pair_overhead_once(void) {
  static uint64_t d[PairReads];
  for (int i = 0; i < PairReads; ++i) {
    uint64_t a = ticks();
    uint64_t b = ticks();
    d[i] = b - a;
  }
  qsort(d, PairReads, sizeof d[0], cmp_u64);
  return (double)d[PairReads / 2];
}

/* Ticks that one complete timer pair with `adds` counter updates adds to
 * an enclosing timer: the mean over NestedPairs pairs. */
static double nested_cost_once(int adds) {
  static volatile uint64_t c[4];
  uint64_t t0 = ticks();
  for (int k = 0; k < NestedPairs; ++k) {
    uint64_t a = ticks();
    uint64_t b = ticks();
    c[1] += b - a;
    c[0] += 1;
    if (adds > 2)
      c[3] += (uint64_t)k;
  }
  return (double)(ticks() - t0) / NestedPairs;
}

/* The same for a pair of a reentrant node of a recursive function: depth and
 * child ticks in thread-locals, four counter updates (Instrument.cpp
 * startTimer/stopTimer). */
static double nested_cost_rec_once(void) {
  static volatile uint64_t c[5];
  static __thread volatile uint64_t child;
  static __thread volatile int32_t depth;
  uint64_t t0 = ticks();
  for (int k = 0; k < NestedPairs; ++k) {
    int32_t d = depth;
    depth = d + 1;
    uint64_t saved = child;
    child = 0;
    uint64_t a = ticks();
    uint64_t b = ticks();
    c[4] += (b - a) - child;
    child = saved + (b - a);
    c[1] += d == 0 ? b - a : 0;
    c[2] += d == 0;
    depth = d;
    c[0] += 1;
  }
  return (double)(ticks() - t0) / NestedPairs;
}

/* The instrumentation's own costs (ticks): each the minimum over Trials
 * rounds that take every measure in turn, after one round discarded, and
 * over the calls of this function (start-up and exit). Another job, a
 * preemption or a core not yet at speed only make a measure larger; taken
 * in one block at start-up, one kind could get such a phase alone (measured,
 * 8 runs of merge sort -O2: function 51-72 ticks while loop, one add more,
 * was 51-69, in other runs). */
static void measure_overheads(void) {
  enum { Trials = 9 };
  static int Measured;
  for (int t = -1; t < Trials; ++t) {
    double p = pair_overhead_once(), f = nested_cost_once(2), l = nested_cost_once(3),
           r = nested_cost_rec_once();
    if (t < 0)
      continue; /* warm-up */
    if (!Measured || p < PairOverhead)
      PairOverhead = p;
    if (!Measured || f < NestedCost[SEGTIME_CT_FUNCTION])
      NestedCost[SEGTIME_CT_FUNCTION] = f;
    if (!Measured || l < NestedCost[SEGTIME_CT_LOOP])
      NestedCost[SEGTIME_CT_LOOP] = l;
    if (!Measured || r < NestedCostRec)
      NestedCostRec = r;
    Measured = 1;
  }
  NestedCost[SEGTIME_CT_CALL] = NestedCost[SEGTIME_CT_FUNCTION];
  NestedCost[SEGTIME_CT_BRANCH] = 0;
}

static void write_at_exit(void) { __segtime_ct_write(); }

static void start(void) {
  int expected = 0;
  if (!__atomic_compare_exchange_n(&Started, &expected, 1, 0, __ATOMIC_ACQ_REL,
                                   __ATOMIC_ACQUIRE)) {
    while (__atomic_load_n(&Started, __ATOMIC_ACQUIRE) != 2)
      ;
    return;
  }
  StartS = now_s();
  StartTicks = ticks();
  measure_overheads();
  /* A pair would add over 5 % to a shorter call (segtime_ct.h). */
  __segtime_ct_short_ticks = (uint64_t)(20 * NestedCost[SEGTIME_CT_FUNCTION]);
  atexit(write_at_exit);
  __atomic_store_n(&Started, 2, __ATOMIC_RELEASE);
}

void __segtime_ct_register(struct segtime_ct_module *m) {
  if (m->abi != SEGTIME_CT_ABI) {
    fprintf(stderr, "segtime-rt: module %s was instrumented for CT ABI %d, this runtime "
                    "has %d (rebuild with the same segtime); not recorded\n",
            m->source, m->abi, SEGTIME_CT_ABI);
    return;
  }
  start();
  m->blocks = NULL;
  struct segtime_ct_module *head = __atomic_load_n(&Modules, __ATOMIC_ACQUIRE);
  do
    m->next = head;
  while (!__atomic_compare_exchange_n(&Modules, &head, m, 1, __ATOMIC_ACQ_REL,
                                      __ATOMIC_ACQUIRE));
}

uint64_t *__segtime_ct_thread_block(struct segtime_ct_module *m) {
  struct segtime_ct_block *b =
      calloc(1, sizeof *b + (size_t)m->nslots * sizeof(uint64_t));
  if (!b) {
    fprintf(stderr, "segtime-rt: out of memory for a thread's CT counters\n");
    abort();
  }
  struct segtime_ct_block *head = __atomic_load_n(&m->blocks, __ATOMIC_ACQUIRE);
  do
    b->next = head;
  while (!__atomic_compare_exchange_n(&m->blocks, &head, b, 1, __ATOMIC_ACQ_REL,
                                      __ATOMIC_ACQUIRE));
  return b->counters;
}

/* ---- the report --------------------------------------------------------- */

/* One node of the whole program, with its module. */
typedef struct {
  const struct segtime_ct_module *m;
  const struct segtime_ct_node *n;
  uint64_t *c;      /* counters of the node */
  int fn;           /* global index of its function node */
  int parent;       /* global index of its parent, -1 for functions */
  int state;        /* functions: 0 new, 1 in progress, 2 done */
  int cycle;        /* recursive functions: a function of its cycle (the
                       representative), else its own index */
  double total;     /* functions: overhead ticks of all pairs run per all calls */
  double incl;      /* corrected inclusive ticks */
  double excl;      /* nodes of recursive functions: corrected exclusive ticks */
} Rec;

static Rec *R;
static int NR;

static uint64_t ld(const uint64_t *p) { return *p; }

static int is_timed_kind(const Rec *r) {
  return r->n->kind != SEGTIME_CT_BRANCH &&
         !(r->n->flags & (SEGTIME_CT_NORETURN | SEGTIME_CT_UNTIMED));
}
/* Timer pairs the node ran (all activations; a function that skips its pair
 * after short calls: slot 2). */
static double pairs(const Rec *r) {
  if (!is_timed_kind(r))
    return 0;
  return (r->n->flags & SEGTIME_CT_SAMPLED) ? (double)ld(&r->c[2]) : (double)ld(&r->c[0]);
}
/* Pairs whose ticks its ticks hold (a call not timed is given a timed one's
 * ticks, which hold one pair's reads: all calls). */
static double timed(const Rec *r) {
  if (!is_timed_kind(r))
    return 0;
  return (r->n->flags & SEGTIME_CT_REENTRANT) ? (double)ld(&r->c[2]) : (double)ld(&r->c[0]);
}
/* Ticks one of its pairs adds to an enclosing timer (a call timed by its
 * callee's pair has none of its own: the callee's is in its callee cost). */
static double pair_cost(const Rec *r) {
  if (r->n->flags & SEGTIME_CT_CALLEE_TIMED)
    return 0;
  return (r->n->flags & SEGTIME_CT_RECURSIVE) ? NestedCostRec : NestedCost[r->n->kind];
}

static int find_function(const char *name) {
  if (!name || !*name)
    return -1;
  for (int i = 0; i < NR; ++i)
    if (R[i].n->kind == SEGTIME_CT_FUNCTION && !strcmp(R[i].n->name, name))
      return i;
  return -1;
}

static double total_cost(int f);

static int cycle_of(int f) {
  while (R[f].cycle != f)
    f = R[f].cycle;
  return f;
}

/* A recursive function's cycle, from its calls into its own cycle. */
static void find_cycles(void) {
  for (int i = 0; i < NR; ++i)
    R[i].cycle = i;
  for (int i = 0; i < NR; ++i)
    if (R[i].n->kind == SEGTIME_CT_CALL && (R[i].n->flags & SEGTIME_CT_REENTRANT)) {
      int a = cycle_of(R[i].fn), b = find_function(R[i].n->name);
      if (b >= 0 && cycle_of(b) != a)
        R[cycle_of(b)].cycle = a;
    }
}

/* Calls into cycle c from outside it: its functions' calls minus the calls
 * between them. */
static double cycle_entries(int c) {
  double e = 0;
  for (int i = 0; i < NR; ++i)
    if (cycle_of(R[i].fn) == c && (R[i].n->flags & SEGTIME_CT_RECURSIVE)) {
      if (R[i].n->kind == SEGTIME_CT_FUNCTION)
        e += (double)ld(&R[i].c[0]);
      else if (R[i].n->kind == SEGTIME_CT_CALL && (R[i].n->flags & SEGTIME_CT_REENTRANT))
        e -= (double)ld(&R[i].c[0]);
    }
  return e;
}

/* Overhead ticks of all pairs run in a function's activations (a recursive
 * function: in all activations of all functions of its cycle). */
static double cycle_cost(int f) {
  if (!(R[f].n->flags & SEGTIME_CT_RECURSIVE))
    return total_cost(f);
  double t = 0;
  for (int g = 0; g < NR; ++g)
    if (R[g].n->kind == SEGTIME_CT_FUNCTION && (R[g].n->flags & SEGTIME_CT_RECURSIVE) &&
        cycle_of(g) == cycle_of(f))
      t += total_cost(g);
  return t;
}

/* Mean overhead ticks of one call to the function named name (0 if it was
 * not instrumented or its cost is being computed: recursion the call graph
 * did not show). A recursive function's cost is per entry into its cycle
 * (the inner activations run in one). */
static double cost_per_call(const char *name) {
  int g = find_function(name);
  if (g < 0 || R[g].state == 1)
    return 0;
  double calls = (R[g].n->flags & SEGTIME_CT_RECURSIVE) ? cycle_entries(cycle_of(g))
                                                         : (double)ld(&R[g].c[0]);
  return calls > 0 ? cycle_cost(g) / calls : 0;
}

/* Overhead ticks of node i alone: its pair, and for calls the callee's
 * (not for a call into its own cycle: the callee's pairs are the cycle's). */
static double own_cost(int i) {
  double c = pairs(&R[i]) * pair_cost(&R[i]);
  if (R[i].n->kind == SEGTIME_CT_CALL && !(R[i].n->flags & SEGTIME_CT_REENTRANT))
    c += (double)ld(&R[i].c[0]) * cost_per_call(R[i].n->name);
  return c;
}

static int inside(int d, int a) { /* is d a proper descendant of a? */
  for (int p = R[d].parent; p >= 0; p = R[p].parent)
    if (p == a)
      return 1;
  return 0;
}

static double total_cost(int f) {
  if (R[f].state == 2)
    return R[f].total;
  R[f].state = 1;
  double t = 0;
  for (int i = 0; i < NR; ++i)
    if (R[i].fn == f)
      t += own_cost(i);
  R[f].total = t;
  R[f].state = 2;
  return t;
}

/* Overhead ticks inside the outermost activations of reentrant node i:
 * its cycle's overhead per tick of the cycle's time (the exclusive ticks of
 * all its nodes: the time of its entries, each counted once) times the
 * node's ticks. Exact for a function entered from outside its cycle only
 * (direct recursion), an estimate for the other nodes. */
static double reentrant_nested_cost(int i) {
  int c = cycle_of(R[i].fn);
  double t = 0;
  for (int d = 0; d < NR; ++d)
    if ((R[d].n->flags & SEGTIME_CT_RECURSIVE) && cycle_of(R[d].fn) == c && is_timed_kind(&R[d]))
      t += (double)ld(&R[d].c[4]);
  double over = cycle_cost(R[i].fn) - cycle_entries(c) * NestedCostRec;
  return t > 0 ? over * (double)ld(&R[i].c[1]) / t : 0;
}

/* Overhead ticks inside node i's timed activations. */
static double nested_cost(int i) {
  if (R[i].n->flags & SEGTIME_CT_REENTRANT)
    return reentrant_nested_cost(i);
  if (R[i].n->kind == SEGTIME_CT_FUNCTION)
    return total_cost(i) - pairs(&R[i]) * pair_cost(&R[i]);
  double t = R[i].n->kind == SEGTIME_CT_CALL
                 ? (double)ld(&R[i].c[0]) * cost_per_call(R[i].n->name)
                 : 0;
  if (R[i].n->flags & SEGTIME_CT_CALLEE_TIMED) { /* its ticks are inside the callee's pair */
    int g = find_function(R[i].n->name);
    double share = 1; /* the callee's pairs per call */
    if (g >= 0 && ld(&R[g].c[0]) > 0)
      share = pairs(&R[g]) / (double)ld(&R[g].c[0]);
    t -= (double)ld(&R[i].c[0]) * share * NestedCost[SEGTIME_CT_FUNCTION];
  }
  for (int d = 0; d < NR; ++d)
    if (R[d].fn == R[i].fn && inside(d, i))
      t += own_cost(d);
  return t; /* not reentrant: every activation is timed */
}

/* Corrected exclusive ticks of timed node i of a recursive function. */
static double recursive_exclusive(int i) {
  const Rec *r = &R[i];
  double count = (double)ld(&r->c[0]);
  double v = (double)ld(&r->c[4]) - count * PairOverhead;
  for (int d = 0; d < NR; ++d)
    if (R[d].parent == i && is_timed_kind(&R[d]))
      v -= (double)ld(&R[d].c[0]) * (pair_cost(&R[d]) - PairOverhead);
  if (r->n->kind == SEGTIME_CT_CALL) {
    if (r->n->flags & SEGTIME_CT_REENTRANT) /* the callee's own pair, outside its ticks */
      v -= count * (NestedCostRec - PairOverhead);
    else
      v -= count * cost_per_call(r->n->name);
  }
  return v > 0 ? v : 0;
}

static void json_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; s && *s; ++s) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\')
      fprintf(f, "\\%c", ch);
    else if (ch < 0x20)
      fprintf(f, "\\u%04x", ch);
    else
      fputc(ch, f);
  }
  fputc('"', f);
}

static void program_name(char *buf, size_t size) {
  char exe[4096];
  ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (k <= 0) {
    snprintf(buf, size, "a.out");
    return;
  }
  exe[k] = 0;
  const char *b = strrchr(exe, '/');
  snprintf(buf, size, "%s", b ? b + 1 : exe);
}

static void write_arms(FILE *f, const Rec *r) {
  const struct segtime_ct_node *n = r->n;
  uint64_t total = ld(&r->c[0]), cases = 0;
  const char *lab = n->labels ? n->labels : "";
  fprintf(f, ", \"executions\": %llu, \"arms\": [", (unsigned long long)total);
  for (int k = 0; k < n->narms; ++k) {
    uint64_t count;
    if (n->narms == 2 && strcmp(n->name, "switch"))
      count = k == 0 ? ld(&r->c[4]) : total - ld(&r->c[4]);
    else if (k == 0) {
      for (int j = 1; j < n->narms; ++j)
        cases += ld(&r->c[4 + j]);
      count = total - cases; /* switch default */
    } else
      count = ld(&r->c[4 + k]);
    /* labels: "label@line:col\n..." */
    const char *end = strchr(lab, '\n');
    size_t len = end ? (size_t)(end - lab) : strlen(lab);
    char one[256];
    snprintf(one, sizeof one, "%.*s", (int)(len < 255 ? len : 255), lab);
    unsigned tl = 0, tc = 0;
    char *at = strrchr(one, '@');
    if (at) {
      sscanf(at + 1, "%u:%u", &tl, &tc);
      *at = 0;
    }
    fprintf(f, "%s{\"label\": ", k ? ", " : "");
    json_str(f, one);
    fprintf(f, ", \"count\": %llu, \"target_line\": %u, \"target_col\": %u}",
            (unsigned long long)count, tl, tc);
    lab = end ? end + 1 : lab + len;
  }
  fprintf(f, "]");
}

/* R[0..NR): every node of every registered module with its summed
   counters, parent and function (threads still running may add a little).
   Returns -1 (with a message) if out of memory. */
static int gather_records(void) {
  NR = 0;
  for (struct segtime_ct_module *m = Modules; m; m = m->next)
    NR += m->nnodes;
  R = calloc((size_t)NR + 1, sizeof *R);
  if (!R) {
    fprintf(stderr, "segtime-rt: out of memory; no CT file written\n");
    return -1;
  }
  int at = 0;
  for (struct segtime_ct_module *m = Modules; m; m = m->next) {
    /* Sum the threads' blocks (threads still running may add a little). */
    uint64_t *sum = calloc((size_t)m->nslots + 1, sizeof *sum);
    if (!sum) {
      fprintf(stderr, "segtime-rt: out of memory; no CT file written\n");
      return -1;
    }
    for (struct segtime_ct_block *b = __atomic_load_n(&m->blocks, __ATOMIC_ACQUIRE); b;
         b = b->next)
      for (int k = 0; k < m->nslots; ++k)
        sum[k] += __atomic_load_n(&b->counters[k], __ATOMIC_RELAXED);
    for (int i = 0; i < m->nnodes; ++i) {
      Rec *r = &R[at + i];
      r->m = m;
      r->n = &m->nodes[i];
      r->c = sum + m->nodes[i].base;
      r->parent = m->nodes[i].parent >= 0 ? at + m->nodes[i].parent : -1;
    }
    for (int i = 0; i < m->nnodes; ++i) {
      int p = at + i;
      while (R[p].parent >= 0)
        p = R[p].parent;
      R[at + i].fn = p;
    }
    at += m->nnodes;
  }
  return 0;
}

/* Function record fi of R with its nodes as one element of the CT file's
   "functions" array (first: no leading comma); hz: TSC ticks per s. */
static void write_function(FILE *f, int fi, double hz, int first) {
  const Rec *F = &R[fi];
  const int rec = (F->n->flags & SEGTIME_CT_RECURSIVE) != 0;
  double childF = 0;
  for (int d = 0; d < NR; ++d)
    if (R[d].parent == fi && is_timed_kind(&R[d]))
      childF += R[d].incl;
  fprintf(f, "%s\n  {\"name\": ", first ? "" : ",");
  json_str(f, F->n->name);
  fprintf(f, ", \"file\": ");
  json_str(f, F->n->file);
  fprintf(f, ", \"line\": %d, \"col\": %d, \"recursive\": %s, \"calls\": %llu, "
             "\"inclusive_s\": %.9g, \"exclusive_s\": %.9g, \"raw_inclusive_s\": %.9g",
          F->n->line, F->n->col, (F->n->flags & SEGTIME_CT_RECURSIVE) ? "true" : "false",
          (unsigned long long)ld(&F->c[0]), F->incl / hz,
          (rec ? F->excl : F->incl - childF > 0 ? F->incl - childF : 0) / hz,
          (double)ld(&F->c[1]) / hz);
  if (F->n->flags & SEGTIME_CT_SAMPLED)
    fprintf(f, ", \"timed_calls\": %llu", (unsigned long long)ld(&F->c[2]));
  fprintf(f, ",\n   \"nodes\": [");
  /* Nodes of this function, numbered from 0 in table order. */
  int k = 0, firstN = 1;
  int nlate = 0;
  for (int i = fi + 1; i < NR && R[i].fn == fi; ++i, ++k) {
    const Rec *r = &R[i];
    static const char *kinds[] = {"function", "loop", "branch", "call"};
    if (r->n->flags & SEGTIME_CT_LATE) {
      ++nlate;
      continue;
    }
    int parent = r->parent == fi ? -1 : r->parent - fi - 1;
    fprintf(f, "%s\n    {\"kind\": \"%s\", \"file\": ", firstN ? "" : ",", kinds[r->n->kind]);
    firstN = 0;
    json_str(f, r->n->file);
    fprintf(f, ", \"line\": %d, \"col\": %d, \"parent\": %d", r->n->line, r->n->col, parent);
    if (r->n->kind == SEGTIME_CT_BRANCH) {
      fprintf(f, ", \"op\": \"%s\"", r->n->name);
      write_arms(f, r);
      fprintf(f, "}");
      continue;
    }
    double child = 0;
    for (int d = i + 1; d < NR && R[d].fn == fi; ++d)
      if (R[d].parent == i && is_timed_kind(&R[d]))
        child += R[d].incl;
    if (r->n->kind == SEGTIME_CT_LOOP)
      fprintf(f, ", \"end_line\": %d, \"end_col\": %d, \"entries\": %llu, \"iterations\": %llu",
              r->n->end_line, r->n->end_col, (unsigned long long)ld(&r->c[0]),
              (unsigned long long)ld(&r->c[3]));
    else {
      fprintf(f, ", \"callee\": ");
      json_str(f, r->n->name);
      fprintf(f, ", \"count\": %llu", (unsigned long long)ld(&r->c[0]));
    }
    if (is_timed_kind(r))
      fprintf(f, ", \"inclusive_s\": %.9g, \"exclusive_s\": %.9g", r->incl / hz,
              (rec ? r->excl : r->incl - child > 0 ? r->incl - child : 0) / hz);
    fprintf(f, "}");
  }
  fprintf(f, "]");
  if (nlate) { /* instrument=late: the optimised code's counts */
    fprintf(f, ",\n   \"late\": [");
    firstN = 1;
    for (int i = fi + 1; i < NR && R[i].fn == fi; ++i) {
      const Rec *r = &R[i];
      if (!(r->n->flags & SEGTIME_CT_LATE))
        continue;
      fprintf(f, "%s\n    {\"kind\": \"%s\", \"file\": ", firstN ? "" : ",",
              r->n->kind == SEGTIME_CT_LOOP ? "loop" : "branch");
      firstN = 0;
      json_str(f, r->n->file);
      fprintf(f, ", \"line\": %d, \"col\": %d, \"copy\": %d", r->n->line, r->n->col,
              r->n->reserved);
      if (r->n->kind == SEGTIME_CT_LOOP)
        fprintf(f, ", \"entries\": %llu, \"header_runs\": %llu",
                (unsigned long long)ld(&r->c[0]), (unsigned long long)ld(&r->c[3]));
      else {
        fprintf(f, ", \"op\": \"%s\"", r->n->name);
        write_arms(f, r);
      }
      fprintf(f, "}");
    }
    fprintf(f, "]");
  }
  fprintf(f, "}");
}

int __segtime_ct_write(void) {
  if (__atomic_exchange_n(&Written, 1, __ATOMIC_ACQ_REL))
    return 0;
  if (__atomic_load_n(&Started, __ATOMIC_ACQUIRE) != 2)
    return 0; /* nothing registered */
  /* TSC rate over the run; runs under 20 ms are extended for precision. */
  double s1 = now_s();
  while (s1 - StartS < 0.02)
    s1 = now_s();
  uint64_t t1 = ticks();
  double hz = (double)(t1 - StartTicks) / (s1 - StartS);
  measure_overheads(); /* again, after the run: the minimum of both */

  if (gather_records())
    return -1;
  find_cycles();
  for (int i = 0; i < NR; ++i)
    if (is_timed_kind(&R[i])) {
      double v = (double)ld(&R[i].c[1]) - timed(&R[i]) * PairOverhead - nested_cost(i);
      R[i].incl = v > 0 ? v : 0;
      if (R[i].n->flags & SEGTIME_CT_RECURSIVE)
        R[i].excl = recursive_exclusive(i);
    }

  const char *path = getenv("SEGTIME_CT_FILE");
  char def[4200];
  char prog[4096];
  program_name(prog, sizeof prog);
  if (!path || !*path) {
    snprintf(def, sizeof def, "%s.ct.json", prog);
    path = def;
  }
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "segtime-rt: cannot write '%s': %s\n", path, strerror(errno));
    free(R);
    return -1;
  }
  fprintf(f, "{\"schema\": \"segtime.ct/1\", \"program\": ");
  json_str(f, prog);
  fprintf(f, ",\n \"timer\": {\"source\": \"rdtsc\", \"hz\": %.6e, "
             "\"hz_source\": \"TSC ticks over CLOCK_MONOTONIC during the run\", "
             "\"resolution_s\": %.3e, \"pair_overhead_s\": %.3e, "
             "\"nested_pair_s\": {\"function\": %.3e, \"loop\": %.3e, \"call\": %.3e, "
             "\"recursive\": %.3e}},\n"
             " \"wall_s\": %.9g,\n \"functions\": [",
          hz, 1.0 / hz, PairOverhead / hz, NestedCost[SEGTIME_CT_FUNCTION] / hz,
          NestedCost[SEGTIME_CT_LOOP] / hz, NestedCost[SEGTIME_CT_CALL] / hz,
          NestedCostRec / hz, s1 - StartS);
  int firstF = 1;
  for (int fi = 0; fi < NR; ++fi) {
    if (R[fi].n->kind != SEGTIME_CT_FUNCTION)
      continue;
    write_function(f, fi, hz, firstF);
    firstF = 0;
  }
  fprintf(f, "\n ]\n}\n");
  int bad = ferror(f);
  if (fclose(f) || bad) {
    fprintf(stderr, "segtime-rt: error writing '%s'\n", path);
    free(R);
    return -1;
  }
  free(R);
  return 0;
}
