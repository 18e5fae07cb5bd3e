//===- IRLevels.h - The IR passes' results in the SEG -----------*- C++ -*-===//
///
/// \file
/// What the plugin's AST consumer does with what the IR passes hand over
/// (passes/Register.h IRCollection): each function's IR-level SEG merged
/// into its source-level SEG (core/MergeIR.h, with the predictor's
/// expression algebra), the file's ICC targets and errors, and the IR level
/// of a function with no code of its own referring to the code of its
/// inlined calls (option inlined).
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PLUGIN_IRLEVELS_H
#define SEGTIME_PLUGIN_IRLEVELS_H

#include "core/Link.h"
#include "core/MergeIR.h"
#include "passes/Register.h"

#include <map>
#include <string>
#include <vector>

namespace segtime {

/// core/MergeIR.h mergeIR on IR function IR (its SEG moved into F),
/// SourceNames mapping IR (mangled) names to source names and ParamNames
/// giving the source parameter names of IR functions; warnings go into
/// Warnings.
void mergeIR(std::vector<std::string> &Warnings, FunctionSeg &F, IRFunctionSeg &IR,
             const std::map<std::string, std::string> &SourceNames,
             const std::map<std::string, std::vector<std::string>> &ParamNames);

/// What the IR passes leave for the whole file: the targets and their
/// errors.
void mergeIRFile(SegFile &File, const IRCollection &C);

/// The code of inlined call S in IR function IR's SEG (Caller: its
/// function's name in the SEG file), by reference (core/Seg.h InlinedRef):
/// the ids of the nodes of InlinedSite::Nodes with the edge stages and the
/// final loop test code generation put after them.
InlinedRef inlinedRef(const IRFunctionSeg &IR, const InlinedSite &S, const std::string &Caller);

} // namespace segtime

#endif
