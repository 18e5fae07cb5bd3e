//===- InlinedLevels.h - Where the code of an inlined call runs -*- C++ -*-===//
///
/// \file
/// For the figures per call site of a function with no code of its own
/// (core/MergeIR.h resolveInlinedLevels): how many loops of its caller run
/// the code of one of its inlined calls.
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

} // namespace segtime

#endif
