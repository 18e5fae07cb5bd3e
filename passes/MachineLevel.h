//===- MachineLevel.h - ICC: machine instructions per basic block -*- C++ -*-===//
///
/// \file
/// The ICC level (Warwick-94 §3.3.5, design.md §5 and §7): per original IR
/// basic block the machine-instruction RUV, from code generation of a clone
/// of the optimised module for a target, in process (machineLevelRuvs), or,
/// for the compile's own target when it writes an x86-64 ELF object, from
/// the compile's own code generation (recordCompileCodegen).
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PASSES_MACHINELEVEL_H
#define SEGTIME_PASSES_MACHINELEVEL_H

#include "core/Seg.h"

#include "llvm/IR/Module.h"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>

namespace segtime {

/// One ICC target.
struct TargetSpec {
  std::string Name;   ///< key in RUVs ("ICC:<Name>"), e.g. "znver5"
  std::string Triple; ///< e.g. "x86_64-unknown-linux-gnu", "sparc-unknown-linux-gnu"
  std::string CPU;    ///< -mcpu, e.g. "znver5", "leon3"
  std::string Features;
};

/// Parses "znver5", "skylake", "native" (x86-64 CPUs), "supersparc", "leon3",
/// "v8" (32-bit SPARC), or "TRIPLE:CPU". Returns nullopt and sets Err if
/// unknown.
std::optional<TargetSpec> parseTargetSpec(const std::string &S, std::string &Err);

/// Generates code for a clone of M for T and returns, for every basic block
/// of M that has machine code, its ICC RUV: "instructions" (machine
/// instructions, pseudo and debug instructions excluded), "uops", "cycles"
/// (scheduling-model cycles per execution of the block), "rthroughput"
/// (cycles per iteration from resource pressure and issue width alone,
/// llvm-mca's Block RThroughput: the bound when iterations overlap), "mem.load",
/// "mem.store". Returns false and sets Err on failure (unknown target, ...).
/// RUVs of machine blocks that code generation put on an IR edge (From, To).
using EdgeRuvs =
    std::map<std::pair<const llvm::BasicBlock *, const llvm::BasicBlock *>, Ruv>;

/// Info receives facts about the target's scheduling model for the SEG
/// file's "targets" entry ("micro_op_buffer": the reorder-buffer size in
/// micro-ops, "issue_width").
bool machineLevelRuvs(const llvm::Module &M, const TargetSpec &T,
                      std::map<const llvm::BasicBlock *, Ruv> &Out, std::string &Err,
                      std::map<std::string, std::string> *Info = nullptr,
                      EdgeRuvs *EdgeOut = nullptr,
                      std::set<const llvm::BasicBlock *> *CondJumpsOut = nullptr,
                      std::map<std::string, std::string> *SkippedOut = nullptr);
/// (EdgeOut: if given, machine blocks of code generation's own on an IR edge
/// -- a split critical edge, a skip jump -- go there instead of into their
/// predecessor's RUV, so that they can be counted as often as the edge runs.
/// CondJumpsOut: if given, receives the blocks of M whose own machine code
/// leaves them through a conditional jump, i.e. whose conditional branch was
/// not if-converted into a select or cmov.
/// SkippedOut: if given, receives the functions of M that were not compiled
/// for T, by name, with the reason (code the target's back end cannot
/// lower: inline asm or types of another architecture, a variable-length
/// array aligned beyond the target's stack alignment); they have no RUVs.)

/// Receives the ICC RUVs of one function F of M from recordCompileCodegen,
/// as machineLevelRuvs gives them for the whole module (RUVs per block,
/// per IR edge, the blocks left through a conditional jump), keyed by F's
/// blocks as they were when the recording started (blocks that code
/// generation's IR passes deleted since are only keys, never read).
using FunctionIccSink = std::function<void(const llvm::Function &F,
                                           const std::map<const llvm::BasicBlock *, Ruv> &Ruvs,
                                           const EdgeRuvs &Edges,
                                           const std::set<const llvm::BasicBlock *> &CondJumps)>;

/// Records the compile's own code generation of M, for target T (the
/// compile's, compileTarget): the target's ELF streamer and AsmPrinter
/// constructors in the target registry are replaced, for one streamer and
/// one AsmPrinter, by recording ones (the object file stays byte for byte
/// the same), and each function's blocks are costed as the AsmPrinter
/// finishes it, as machineLevelRuvs costs the clone's, and handed to Sink.
/// Call at the end of the optimisation pipeline, before code generation
/// builds its passes. Returns false and sets Why if it cannot record (not
/// an x86-64 ELF target, x86 branch alignment asked for, code generation
/// cut short): then use machineLevelRuvs. Info as for machineLevelRuvs.
bool recordCompileCodegen(const llvm::Module &M, const TargetSpec &T, FunctionIccSink Sink,
                          std::string &Why, std::map<std::string, std::string> *Info = nullptr);

/// After code generation: ends the recording and puts the registry back.
/// Returns false and sets Err if no recording was started or no code
/// generation ran (e.g. an error stopped it).
bool finishCompileCodegen(std::string &Err);

} // namespace segtime

#endif
