//===- InlinedLevels.h - Where the code of an inlined call runs -*- C++ -*-===//
///
/// \file
/// The references of a function with no code of its own to the code of its
/// inlined calls (core/Seg.h InlinedRef) as schema 4 writes them, and, for
/// the figures per call site (core/MergeIR.h resolveInlinedLevels), how many
/// loops of its caller run the code of one of its inlined calls.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_CORE_INLINEDLEVELS_H
#define SEGTIME_CORE_INLINEDLEVELS_H

#include "core/Seg.h"

namespace segtime {

/// How many loops of Ref's caller run the code of inlined call Ref of F
/// (0: straight-line code, or the caller is not in File). A loop of the
/// caller that the plugin counted as the call's code (most of its
/// instructions are; its line is outside F's source range) counts, and
/// resolveInlinedLevels takes only F's code in it.
unsigned inlinedCallerLoops(const SegFile &File, const FunctionSeg &F, const InlinedRef &Ref);

/// Nodes (ids of nodes of CallerIR, in the order of a depth-first walk) as
/// runs of siblings: each run's first node (a number K for "ir<K>", else
/// its id) and, if siblings follow it in Nodes, -K for the K that do
/// ([41, -3, "ir50t"]: ir41 and the 3 nodes after it in its list, then
/// ir50t). A node not in CallerIR is a run of its own.
json inlinedSiteRuns(const NodeList &CallerIR, const std::vector<std::string> &Nodes);

/// The ids inlinedSiteRuns encoded, from CallerIR. Throws
/// std::runtime_error for an element of another kind or a run longer than
/// the nodes that follow its first one in CallerIR.
std::vector<std::string> inlinedSiteNodes(const NodeList &CallerIR, const json &Runs);

/// For schema 4 (FunctionSeg::toCompactText): F's name at Index in
/// Vocab.FunctionIndex, and its InlinedAt in Vocab.Inlined.
void takeInlinedRefs(SegVocabulary &Vocab, const FunctionSeg &F, size_t Index);

/// Schema 4's "inlined" table of the functions Vocab took (toCompactText):
/// [[function index, caller, [runs], [runs], caller, [runs], ...], ...],
/// a caller by its index (its name if Vocab did not take it), then the
/// runs (inlinedSiteRuns; InlinedRef::Runs, or each node alone) of each of
/// its calls, in the order of InlinedAt.
json inlinedTableJSON(const SegVocabulary &Vocab);

/// Reads Table (inlinedTableJSON's layout) into the functions of S (read
/// first): their InlinedAt, with Nodes from the callers' IR levels and
/// Where the location of the source node the code's first node is
/// attributed to ("" if none: the caller is named). A caller that is not in
/// S or has no IR level keeps the ids as written (resolveInlinedLevels
/// leaves that call out with a warning). Throws std::runtime_error naming
/// the entry for a malformed one.
void readInlinedTable(const json &Table, SegFile &S);

} // namespace segtime

#endif
