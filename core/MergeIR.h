//===- MergeIR.h - The IR-level SEG merged into the source's ----*- C++ -*-===//
///
/// \file
/// The IR passes (passes/IRSeg.h) build the SEG of a function as the
/// optimiser left it, in IR names; the plugin's AST builder builds the SEG of
/// the source. mergeIR puts the first into the second as its "IR" level
/// (FunctionSeg::LevelSegs): every IR node attributed to the innermost source
/// node at its line and column, an optimised loop that is the only one of a
/// source loop matched to it (trip counts cross-checked, a count
/// ScalarEvolution could not give taken from the source), the code of
/// inlined calls bound to the calls' arguments, the parameters still used
/// added to the function's.
///
/// Core has no expression algebra: the caller passes the predictor's
/// (predictor/ExprText.h) in MergeIRServices, with the compile's names.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_CORE_MERGEIR_H
#define SEGTIME_CORE_MERGEIR_H

#include "core/Seg.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace segtime {

/// The code of one inlined call in an IR-level SEG: the nodes (top level
/// of that code, in order) whose instructions the inliner took from
/// Callee at the call at Line:Col (its DILocation's inlinedAt chain).
struct InlinedSite {
  std::string Callee; ///< IR name of the inlined function
  std::string Where;  ///< "file:line:col" of the call, then " in file:line:col"
                      ///< of each call it was itself inlined through
  unsigned Line = 0, Col = 0;
  std::vector<std::string> Nodes;
};

/// Whether Text contains Name as a whole word (std::regex "\bName\b":
/// no [A-Za-z0-9_] on either side), without building a regex when Name is
/// a run of word characters.
bool containsWord(const std::string &Text, const std::string &Name);

/// Text with every whole-word occurrence of Name replaced by By
/// (std::regex_replace with "\bName\b", the same way).
std::string replaceWord(const std::string &Text, const std::string &Name, const std::string &By);

/// Applies Fn to every expression text of N and its body (counts,
/// frequencies, arguments, probabilities, memory terms).
void forEachText(Node &N, const std::function<void(std::string &)> &Fn);

/// What mergeIR needs from the layers above core.
struct MergeIRServices {
  /// Source name of each IR (mangled) function name; a name not listed is
  /// its own source name.
  const std::map<std::string, std::string> *SourceNames = nullptr;
  /// The name of parameter K of IR function Callee in inlined code
  /// (passes/IRSeg.h calleeParamName: "n", or "arg<K>").
  std::function<std::string(const std::string &Callee, unsigned K)> ParamName;
  /// Expression algebra of predictor/ExprText.h: simplifyExprText,
  /// sameValue, valueRatio.
  std::function<std::string(const std::string &)> Simplify;
  std::function<int(const std::string &, const std::string &,
                    const std::map<std::string, std::string> &)>
      SameValue;
  std::function<double(const std::string &, const std::string &,
                       const std::map<std::string, std::string> &)>
      ValueRatio;
};

/// Moves the IR level of function F (IRSeg, the IR passes' SEG; IRParams,
/// the parameters they made: N_<function>_<line> for loops
/// ScalarEvolution could not count, Pir_... branch probabilities; Inlined,
/// the code of inlined calls) into F.LevelSegs["IR"]:
///  - every IR node's SourceNode is the innermost source node whose range
///    holds its line and column (a source Loop starting on that line for
///    IR loops); a node at line 0 gets none;
///  - an IR loop that is the only one at the line of the only source loop
///    there is matched to it: a counted source loop whose count differs
///    from ScalarEvolution's is labelled "unrolled xK" (K a power of two,
///    2..16) or gives a warning; a loop with the fallback parameter takes
///    the source count, its enclosing source indices written as the IR
///    loops' iteration numbers (i = start + step*k) — in memory terms too,
///    unless the count is known only per iteration of an enclosing loop
///    (then the memory term is dropped, with a note);
///  - several IR loops at the line of one counted source loop whose count
///    is the same at every reach (copies in an unrolled enclosing loop, an
///    unrolled loop's parts) take that count for the parameter, which is
///    the iterations per reach of the source loop statement;
///  - other unmatched loops (no source loop at the line, or several) keep
///    their parameter; call arguments ScalarEvolution could not give are
///    the source call's at the same line;
///  - inlined code is attributed to its call and its "<callee>.<param>"
///    names bound to the call's arguments;
///  - trip counts and arguments are simplified (S.Simplify);
///  - IRParams still used, and every IR branch probability, are added to
///    F.Parameters (unless F has one of that name).
/// Warnings ("<function>:<line>: segtime: trip counts disagree: ...") are
/// appended to Warnings. Never throws for what the SEGs hold.
void mergeIR(std::vector<std::string> &Warnings, FunctionSeg &F, NodeList IRSeg,
             const std::vector<Parameter> &IRParams, const std::vector<InlinedSite> &Inlined,
             const MergeIRServices &S);

/// The IR level of every function of File that has no code of its own
/// (FunctionSeg::InlinedAt, the references the plugin writes) from the code
/// of its inlined calls in their callers' IR levels: site Site (1-based) or,
/// with Site 0, every site one after the other (their sum: one call at each;
/// node ids then get the prefix "c<k>_"). Each site's code is taken as its
/// caller's IR level has it (frequencies relative to the enclosing region
/// of the caller, 1 for a call in straight-line code) and written in the
/// function's own names: "F.n" the caller could not bind becomes n, a
/// caller's name passed as argument n becomes n again (core/Link.h
/// unbindCallerNames; a number or an expression passed stays the caller's
/// value), an uncounted loop N_<caller>_<line> becomes N_<F>_<line>; then
/// it is merged as mergeIR does (SourceNode attribution, source trip
/// counts, the caller's parameters it uses added to F.Parameters). A
/// site whose caller or nodes are missing is left out with a warning in
/// Warnings. Replaces an IR level F had.
void resolveInlinedLevels(SegFile &File, const MergeIRServices &S, unsigned Site,
                          std::vector<std::string> &Warnings);

/// resolveInlinedLevels for one function: F (a function of File, or a copy
/// of one) gets the IR level of its site Site (1-based; 0 every site) from
/// its callers in File, which is only read; nothing else of File is
/// resolved. Nothing happens if F has no InlinedAt. The cost is that of
/// F's sites alone, so that the figures of each site of each function
/// (segtime predict) take time linear in the sites, not in sites times
/// functions.
void resolveInlinedLevel(const SegFile &File, FunctionSeg &F, const MergeIRServices &S,
                         unsigned Site, std::vector<std::string> &Warnings);

} // namespace segtime

#endif
