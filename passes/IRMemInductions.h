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

#include <map>
#include <string>
#include <vector>

namespace segtime {
namespace irseg {

/// Integer header phis of nest Top's loops that step by a constant on
/// every path (opaque to ScalarEvolution) -> the AddRec {Start,+,C}<L>.
llvm::ValueToSCEVMapTy opaqueInductions(llvm::Loop *Top, llvm::ScalarEvolution &SE);

/// Adds to Map the resume values of nest Top's loops (where a vectorised
/// loop's scalar remainder or fallback starts) -> the loop's own start.
void addResumeValues(llvm::Loop *Top, llvm::LoopInfo &LI, llvm::ScalarEvolution &SE,
                     llvm::ValueToSCEVMapTy &Map);

/// Integer header phis of nest Top's loops that start an inner loop's walk
/// and whose next value is where that walk ends (a CSR row's start,
/// rowptr[i], whose next value rowptr[i + 1] bounds the row's loop and is
/// the next row's start) -> the inner loop whose exit test reads the next
/// value. Such a start moves, per iteration of the phi's loop, by the
/// inner walk's length: on average the inner source loop's iterations per
/// reach (its N_<fn>_<line> parameter).
std::map<llvm::PHINode *, llvm::Loop *> continuedStarts(llvm::Loop *Top,
                                                        llvm::ScalarEvolution &SE);

/// Adds to Map the resume values of nest Top's loops that start at a
/// continued start (a key of Continued, continuedStarts; through integer
/// casts) -> that start's walk, Continued's SCEV in it. The unrolled part of
/// spmv's row loop resumes where its remainder stopped, a phi of the row's
/// start and the remainder's end, which the loop's one predecessor outside
/// it passes on (no preheader after -O2's CFG cleanup).
void addContinuedResumes(llvm::Loop *Top, llvm::LoopInfo &LI, llvm::ScalarEvolution &SE,
                         llvm::ValueToSCEVMapTy &Continued, llvm::ValueToSCEVMapTy &Map);

/// Values that stand for a name in the memory streams' texts (ScevText's
/// Named map: a value -> its name) while they are written: freezes of
/// poison in no block (nothing is known of them, as of a parameter),
/// deleted, and their names dropped, with this object.
class NamedPlaceholders {
public:
  explicit NamedPlaceholders(std::map<const llvm::Value *, std::string> &Named) : Named(Named) {}
  ~NamedPlaceholders();
  NamedPlaceholders(const NamedPlaceholders &) = delete;
  NamedPlaceholders &operator=(const NamedPlaceholders &) = delete;
  /// A new value of type Ty written as Name.
  llvm::Value *make(llvm::Type *Ty, const std::string &Name);

private:
  std::map<const llvm::Value *, std::string> &Named;
  std::vector<llvm::Instruction *> Values;
};

/// The SCEVs the memory streams of nest Top take for its opaque phis:
/// opaqueInductions; each continued start (continuedStarts) as the AddRec
/// {start, +, N}<L>, N a placeholder (Rows) written as the N_<fn>_<line>
/// parameter that LoopTrip's trip of the inner loop names (none if it
/// names none); addResumeValues, with continued starts inside them, and
/// addContinuedResumes.
llvm::ValueToSCEVMapTy nestInductions(llvm::Loop *Top, llvm::LoopInfo &LI,
                                      llvm::ScalarEvolution &SE,
                                      const std::map<const llvm::Loop *, std::string> &LoopTrip,
                                      NamedPlaceholders &Rows);

/// S with its integer casts taken as exact, in type Ty (i64): zero and sign
/// extensions and truncations dropped, leaves sign-extended (address
/// arithmetic of signed int indices does not wrap); nullptr for a
/// subexpression it does not know (a min, max or division).
const llvm::SCEV *widened(const llvm::SCEV *S, llvm::Type *Ty, llvm::ScalarEvolution &SE);

} // namespace irseg
} // namespace segtime

#endif
