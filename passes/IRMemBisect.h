//===- IRMemBisect.h - The stream of a bisection's table ---------*- C++ -*-===//
///
/// \file
/// A load whose index halves an interval at every step of a search loop
/// (passes/IRDataCompare.h, bisectionOf) is no affine reference: the pass
/// writes it as a stream of its own, which the predictor's bisection rule
/// counts (predictor/MemoryModelBisect.h; docs/models.md "Bisections").
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PASSES_IRMEMBISECT_H
#define SEGTIME_PASSES_IRMEMBISECT_H

#include "core/Seg.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Instructions.h"

#include <optional>
#include <string>

namespace segtime {
namespace irseg {

/// The stream of a bisection's table (bisectionOf: a search loop's load Ld
/// of Size bytes, in nest Top): the pseudo-loop "<Top>.bisect" of stride
/// Size B and trip the interval's elements (hi - lo as they enter the
/// search loop, written by TextOf), then the search loop (stride 0, its
/// steps) and the loops that enclose it, up to Top (stride 0: each of
/// their iterations is a search), with their trips (TripOf: a loop's
/// backedge-taken count as text; IdOf: its node id). nullopt if Ld is no bisection or a count cannot be written.
std::optional<MemStream>
bisectionStream(const llvm::LoadInst &Ld, llvm::Loop *Top, unsigned Size, const std::string &Name,
                const llvm::LoopInfo &LI, llvm::ScalarEvolution &SE,
                llvm::function_ref<std::optional<std::string>(const llvm::SCEV *)> TextOf,
                llvm::function_ref<std::optional<std::string>(llvm::Loop *)> TripOf,
                llvm::function_ref<std::string(llvm::Loop *)> IdOf);

/// The bytes bisection stream M loads per execution of its nest (its
/// footprint and traffic, as text): Size x min(T, searches x steps), T the
/// table's elements, a search's steps the search loop's trip (M's second
/// loop), the searches the trips of the loops beyond it times 1 + its
/// offsets (the copies of an unrolled search).
std::string bisectionBytes(const MemStream &M);

/// Is M a bisection's stream (its first loop "<loop>.bisect")?
bool isBisection(const MemStream &M);

/// Are X and M bisections of one table (base pointer and element count)
/// by search loops of the same trip in the same enclosing loops: the
/// copies of a search that an unrolled loop made, one stream with an offset
/// "0" per further copy?
bool sameBisection(const MemStream &X, const MemStream &M);

} // namespace irseg
} // namespace segtime

#endif
