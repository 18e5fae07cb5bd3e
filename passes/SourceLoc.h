//===- SourceLoc.h - Line tables that leave the code unchanged -*- C++ -*-===//
///
/// \file
/// The IR levels attribute optimised code to source lines through the
/// instructions' DILocations. When the user asked for no debug info, the
/// plugin has clang emit line tables anyway (CodeGenOptions), and clang then
/// also gives every loop an `llvm.loop` node that holds only the loop's start
/// and end locations. That node is the one difference the optimiser acts on:
/// SimplifyCFG keeps an empty latch block that carries it (the loop's
/// metadata would be lost), so block layout and register choice differ from
/// a plain build (Lua's lutf8lib.c, `byteoffset`). Instruction locations do
/// not steer LLVM's passes (LLVM keeps -g from changing code; clang's IR
/// before optimisation is the same apart from debug info).
///
/// LoopLocationsPass, the first pass of the pipeline, moves each such loop
/// start into metadata of the plugin's own (`segtime.loop`, on the latch's
/// branch and on the header's terminator, the loop test that loop rotation
/// clones) and removes the location-only `llvm.loop` nodes, so the optimiser
/// sees the module of a plain build plus line tables; the collection pass
/// strips all of it before code generation. loopStartLoc() reads a loop's
/// start from either. test/plugin/codegen-identical*.c and
/// scripts/overhead_bench.py check that objects stay byte-identical.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PASSES_SOURCELOC_H
#define SEGTIME_PASSES_SOURCELOC_H

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/DebugLoc.h"
#include "llvm/IR/PassManager.h"

#include <string>

namespace segtime {

/// DL's location as "file:line:col" (the form of a Parameter's Where); ""
/// for a null DL.
std::string fileLineCol(const llvm::DebugLoc &DL);

/// The start of loop L: its `segtime.loop` copy (LoopLocationsPass) on a
/// latch, the header or an exiting block of L itself, else
/// Loop::getStartLoc() (the user's own `llvm.loop` location, or the
/// preheader's or header's terminator). Null without debug info.
llvm::DebugLoc loopStartLoc(const llvm::Loop &L);

/// Moves the loop start locations of M's location-only `llvm.loop` nodes
/// into `segtime.loop` and drops those nodes (nodes with other properties,
/// such as unroll pragmas, keep them without their locations, as
/// llvm::StripDebugInfo leaves them). Run only when the plugin turned the
/// line tables on, not the user.
struct LoopLocationsPass : llvm::PassInfoMixin<LoopLocationsPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

/// Removes the `segtime.loop` copies and the debug info from M (before code
/// generation, so that it sees the module of a plain build).
void stripLineTables(llvm::Module &M);

} // namespace segtime

#endif
