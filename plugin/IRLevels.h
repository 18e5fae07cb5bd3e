//===- IRLevels.h - The IR passes' results in the SEG -----------*- C++ -*-===//
///
/// \file
/// What the plugin's AST consumer does with what the IR passes hand over
/// (passes/Register.h IRCollection): each function's IR-level SEG merged
/// into its source-level SEG (core/MergeIR.h, with the predictor's
/// expression algebra), the file's ICC targets and errors, and the IR level
/// of a function with no code of its own taken from the code of its
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

/// The optimised code of one inlined call, copied out of its caller's
/// IR-level SEG (with the ICC RUVs attached there): the nodes of
/// InlinedSite::Nodes with the edge stages code generation put after them,
/// and the caller's parameters they use.
struct InlinedCopy {
  std::string Caller; ///< IR name
  InlinedSite Site;
  NodeList Nodes;
  std::vector<Parameter> Parameters;
};

/// The code of inlined call S, copied out of IR (final: ICC attached).
InlinedCopy copyInlined(const IRFunctionSeg &IR, const InlinedSite &S);

/// The IR-level SEG of a function that has no code of its own (every call
/// to it inlined) from the copies of its inlined calls: one call, as the
/// mean of its K call sites (each site's code in the order of the copies,
/// its top-level frequencies divided by K; they stay relative to the
/// enclosing region of the caller, 1 for a call in straight-line code or
/// unconditional in a loop body). Per call, as the source levels and the
/// IR level of a function with code of its own are; the caller's own IR
/// level counts each site's code where it runs. The callee's
/// arguments ("kernel.n") become its parameters (n, bound to themselves by
/// Own: core/Link.h bindCalleeNames); a loop count the
/// caller could not give, N_<caller>_<line>, becomes N_<callee>_<line>, so
/// that mergeIR can take the source loop's count for it. With several
/// calls, node ids get the prefix "c<k>_".
IRFunctionSeg inlinedSeg(const std::string &Callee, const std::string &SourceName,
                         const std::vector<CallBinding> &Own, std::vector<InlinedCopy> &Copies);

} // namespace segtime

#endif
