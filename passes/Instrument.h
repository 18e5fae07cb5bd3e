//===- Instrument.h - Component-timing instrumentation ----------*- C++ -*-===//
///
/// \file
/// The CT level (Warwick-94 §3 "component timing", design.md §5 CT): puts a
/// timer pair (llvm.readcyclecounter) around every function, loop and call,
/// counts loop iterations, branch arm outcomes and calls, and registers the
/// module's node table with the CT runtime (runtime/segtime_ct.h,
/// build/lib/libsegtime-rt.a), which writes <program>.ct.json at exit.
///
/// Runs at the start of the pipeline (PipelineStartEP, also at -O0), so
/// counts are source-level. Nodes are keyed by source location: a loop by
/// the start of its !llvm.loop location range (clang's loop statement), a
/// call or branch by its debug location; core/Ct.h matches them to SEG nodes.
/// Innermost loops are counted but not timed unless TimeInnermostLoops: a
/// timer pair around a short, latency-bound loop keeps the core from
/// overlapping consecutive instances (measured: matmul -O2 1.3x slower).
/// Per-iteration work is one increment of a local counter (promoted to a
/// register at -O1 and above) flushed once per loop exit; branch arm counts
/// are local counters flushed at function exit. Functions in a call-graph
/// cycle time every activation and keep exact exclusive times through a
/// thread-local child-ticks variable; their reentrant nodes add to the
/// inclusive time only at depth 0 (runtime/segtime_ct.h, docs/ct-json.md).
///
/// USAGE:
///   clang-19 -O2 -fplugin=build/lib/segtime.so -fplugin-arg-segtime-instrument \
///            prog.c build/lib/libsegtime-rt.a -o prog
///   opt-19 -load-pass-plugin build/lib/segtime-passes.so -passes=segtime-instrument in.ll
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PASSES_INSTRUMENT_H
#define SEGTIME_PASSES_INSTRUMENT_H

#include "llvm/IR/PassManager.h"

#include <map>
#include <optional>
#include <set>
#include <string>

namespace segtime {

/// What to instrument and how to name it.
struct InstrumentConfig {
  bool Enabled = false;
  /// IR names of the functions to instrument; unset: every defined function.
  std::optional<std::set<std::string>> Functions;
  /// Source name of functions by IR name (C++ names are mangled); others
  /// keep their IR name.
  std::map<std::string, std::string> SourceNames;
  /// Remove debug info after instrumenting (the plugin turned line tables on
  /// only for this pass and no later pass needs them).
  bool StripDebugInfo = false;
  /// Also time innermost loops (by default they are counted only).
  bool TimeInnermostLoops = false;
  /// A measurement aid (instrument=no-clock): every timer read is an opaque
  /// zero (one register clear) instead of rdtsc, the rest of the code
  /// unchanged; the difference of a program's time built with and without
  /// it is what the reads cost where they run (scripts/ct_overhead.py
  /// --example). The CT file's times are then all 0.
  bool NoClock = false;
  /// instrument=late: count the optimised code instead of the source
  /// (InstrumentLate.cpp): run at the end of the optimisation pipeline
  /// (OptimizerLastEP, before the IR SEGs are built), so the IR counted is
  /// the analysis compile's; every conditional branch's executions and true
  /// edge (a branch on a logical and/or also its first operand's outcome)
  /// and every loop header, keyed by location and copy number; nothing timed.
  bool Late = false;
};

/// Module pass "segtime-instrument". Fails (reports a fatal usage error)
/// only if the module already holds segtime CT tables.
class InstrumentPass : public llvm::PassInfoMixin<InstrumentPass> {
public:
  explicit InstrumentPass(const InstrumentConfig &C) : Config(C) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; } ///< also at -O0 (optnone functions)

private:
  InstrumentConfig Config;
};

} // namespace segtime

#endif
