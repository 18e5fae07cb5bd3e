//===- Ct.h - Component-timing (CT) measurements ----------------*- C++ -*-===//
///
/// \file
/// The CT level (Warwick-94 §3, design.md §5): what an instrumented program
/// (-fplugin-arg-segtime-instrument, runtime/ct_runtime.c) measured, as read
/// from its <program>.ct.json (schema "segtime.ct/1", docs/ct-json.md): per
/// function its calls and time; per loop its entries, iterations and time;
/// per branch its executions and arm counts; per call site its calls and
/// time. Times are seconds with the timer overhead already subtracted by the
/// runtime; counts are exact. No LLVM dependency; JSON round-trips.
///
/// Matching to a SEG (core/Seg.h) is by source location: a loop by its
/// start (line, col), a call by (line, col, callee), a branch by the
/// innermost SEG Branch node whose range holds its location.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_CORE_CT_H
#define SEGTIME_CORE_CT_H

#include "core/Seg.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace segtime {

/// One arm of a measured branch: how often it was taken, and the source
/// location its code starts at (0:0 if none, e.g. a select).
struct CtArm {
  std::string Label; ///< "true", "false", "default", "case 3"
  uint64_t Count = 0;
  unsigned TargetLine = 0, TargetCol = 0;
};

/// A measured loop, branch or call of one function.
struct CtNode {
  std::string Kind; ///< "loop", "branch", "call"
  std::string File;
  unsigned Line = 0, Col = 0, EndLine = 0, EndCol = 0;
  int Parent = -1; ///< index of the enclosing node in the function, -1: the function
  // loop
  uint64_t Entries = 0, Iterations = 0; ///< iterations = body executions, all entries
  // branch
  std::string Op; ///< "br", "switch", "select"
  uint64_t Executions = 0;
  std::vector<CtArm> Arms;
  // call
  std::string Callee; ///< "" for an indirect call
  uint64_t Count = 0;
  /// Seconds, overhead subtracted; unset for untimed nodes (branches,
  /// innermost loops without instrument=all, calls that do not return).
  std::optional<double> InclusiveS, ExclusiveS;
  std::string SegId; ///< matched SEG node ("v7"), "" if none
  /// A record of the optimised code (CtFunction::Late): its copy number,
  /// 0, 1, ... among the function's late records of the same kind and op
  /// at its location, in the IR's block order; -1: a source-level node.
  int Copy = -1;
  /// Late loop records: runs of the loop's header (its iterations plus the
  /// exits from a top test: how often the header's code ran).
  uint64_t HeaderRuns = 0;
  json toJSON() const;
  static CtNode fromJSON(const json &J);
};

struct CtFunction {
  std::string Name, File;
  unsigned Line = 0, Col = 0;
  bool Recursive = false; ///< timed only in its outermost activation
  uint64_t Calls = 0;
  double InclusiveS = 0, ExclusiveS = 0, RawInclusiveS = 0; ///< s, all calls
  /// Calls that ran a timer pair, for a function that skips it after short
  /// calls (the others were given a timed call's time: estimated); unset:
  /// every call was timed.
  std::optional<uint64_t> TimedCalls;
  std::vector<CtNode> Nodes;
  /// The counts of the optimised code (instrument=late, ct.json "late",
  /// optional): per conditional IR branch ("br"; "first-and" / "first-or":
  /// the first operand of its logical and/or) executions and arms, per loop
  /// entries and header runs, each with its Copy number; no times, no
  /// parents, never matched to source SEG nodes.
  std::vector<CtNode> Late;
  json toJSON() const;
  static CtFunction fromJSON(const json &J);
};

/// The timer the runtime used and the overheads it subtracted.
struct CtTimer {
  std::string Source;   ///< "rdtsc"
  double Hz = 0;        ///< ticks per second, measured
  std::string HzSource; ///< how Hz was measured
  double ResolutionS = 0, PairOverheadS = 0;
  std::map<std::string, double> NestedPairS; ///< per node kind: s per nested pair
  json toJSON() const;
  static CtTimer fromJSON(const json &J);
};

/// The content of a .ct.json file.
struct CtFile {
  static constexpr const char *Schema = "segtime.ct/1";
  std::string Program;
  CtTimer Timer;
  double WallS = 0;
  std::vector<CtFunction> Functions;
  json toJSON() const;
  /// Throws std::runtime_error naming the field if J is not a CT file.
  static CtFile fromJSON(const json &J);
  /// Reads Path; throws std::runtime_error with the path and the reason.
  static CtFile read(const std::string &Path);
  const CtFunction *find(const std::string &Name) const;
};

/// Sets CtNode::SegId for every node of Ct that matches a node of the
/// source-level SEG of the function of the same name. Returns the number of
/// nodes matched.
int matchSeg(CtFile &Ct, const SegFile &Seg);

/// A parameter value measured by CT (for `segtime predict --profile`).
struct ProfileValue {
  std::string Name;  ///< N_<fn>_<line> or P_<fn>_<line>[_k]
  double Value = 0;
  std::string Note;  ///< e.g. "loop f:12: 4000 iterations / 100 entries"
};

/// Values for the loop-count and branch-probability parameters of Seg that
/// Ct measured (matchSeg must have run): a loop count N_... = iterations /
/// entries of its loop; a probability P_... = arm count / executions of the
/// one branch record whose arm starts inside that SEG arm (a switch arm
/// without code: by its case labels; a `then` arm of a select: its true
/// count). Branches whose condition compiles to several IR branches that
/// cannot be told apart (`if (a && b)`) are left out. Nodes never executed
/// give no value. IR-level probabilities Pir_<fn>_<line>_<col> (any
/// function's record at that location, the optimiser inlines): a
/// branch's (TakenAt set) from the record's arm that starts nearer its
/// successor; a select's (no TakenAt: the probability that its condition
/// is true) from the record's "true" arm.
std::vector<ProfileValue> profileParameters(const CtFile &Ct, const SegFile &Seg);

} // namespace segtime

#endif
