//===- IRMemInductions.h - Addresses of opaque phis in IR loop nests -*- C++ -*-===//
///
/// \file
/// Phis of a loop nest that ScalarEvolution leaves opaque, mapped to the
/// SCEVs the memory streams take for them (passes/IRMemStream.cpp; for
/// SCEVParameterRewriter).
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PASSES_IRMEMINDUCTIONS_H
#define SEGTIME_PASSES_IRMEMINDUCTIONS_H

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"

namespace segtime {
namespace irseg {

/// Integer header phis of nest Top's loops that step by a constant on
/// every path (opaque to ScalarEvolution) -> the AddRec {Start,+,C}<L>.
llvm::ValueToSCEVMapTy opaqueInductions(llvm::Loop *Top, llvm::ScalarEvolution &SE);

/// Adds to Map the resume values of nest Top's loops (where a vectorised
/// loop's scalar remainder or fallback starts) -> the loop's own start.
void addResumeValues(llvm::Loop *Top, llvm::LoopInfo &LI, llvm::ScalarEvolution &SE,
                     llvm::ValueToSCEVMapTy &Map);

/// S with its integer casts taken as exact, in type Ty (i64): zero and sign
/// extensions and truncations dropped, leaves sign-extended (address
/// arithmetic of signed int indices does not wrap); nullptr for a
/// subexpression it does not know (a min, max or division).
const llvm::SCEV *widened(const llvm::SCEV *S, llvm::Type *Ty, llvm::ScalarEvolution &SE);

} // namespace irseg
} // namespace segtime

#endif
