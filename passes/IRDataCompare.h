//===- IRDataCompare.h - Comparisons whose outcome steers the loads -------===//
///
/// \file
/// The outcome model of data-dependent comparisons without a profile
/// (docs/models.md ICC step 4): a branch comparing values loaded through
/// indices that the comparison's own outcome advances (a merge step) or
/// comparing such a value with a loop-invariant key (a search step) goes
/// either way with probability 1/2 on random input, an estimate the
/// misprediction term may use. Search steps also form a load chain: a
/// mispredicted step exposes the latency of its load (ICC step 4d).
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PASSES_IRDATACOMPARE_H
#define SEGTIME_PASSES_IRDATACOMPARE_H

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Instructions.h"

#include <optional>
#include <string>

namespace segtime {
namespace irseg {

/// Whether V is an ordering comparison: an integer <, <=, >, >= (signed or
/// unsigned) or a floating-point one, ordered or unordered; not == or !=.
bool isOrderingCompare(const llvm::Value *V);

/// Which outcome model a data-dependent comparison gets.
enum class DataCompareKind {
  Merge,  ///< two loads, each through an index the outcome advances
  Search, ///< one such load against a loop-invariant, non-constant key
};

/// The kind of Br, a conditional branch in a loop, when its condition is an
/// ordering comparison (<, <=, >, >=; integer or floating point, through
/// casts) of (a) two simple loads in Br's innermost loop L, or (b) one such
/// load and a loop-invariant value that is not a constant, where each load's
/// address is computed (through arithmetic in L, not through other loads)
/// from a header phi of L whose next value depends on Br's outcome: on the
/// paths from Br's two successors to L's back edges it takes different
/// values, or it is a select on Br's condition. nullopt otherwise: an
/// induction variable's a[i] (a clip or threshold, whose data may all lie on
/// one side), a comparison with a constant, or one whose operands the
/// compiler cannot follow. Deterministic, no side effects.
std::optional<DataCompareKind> dataComparison(const llvm::BranchInst &Br,
                                              const llvm::LoopInfo &LI);

/// A select in a loop block whose condition is such a comparison (the
/// optimiser made the branch a select; code generation may make it a
/// branch again: x86 cmov conversion of a select on a load chain).
struct DataSelect {
  DataCompareKind Kind;
  const llvm::SelectInst *Select;
};

/// The first select of block B whose condition is a comparison in B of
/// a kind dataComparison accepts, a header phi of B's loop taking a value
/// computed from that comparison; nullopt if none.
std::optional<DataSelect> dataSelect(const llvm::BasicBlock &B, const llvm::LoopInfo &LI);

/// Br as the bound test of a merge index: an integer ordering comparison
/// of a header phi H of Br's loop L with a loop-invariant bound, where H
/// addresses a load of a merge step in L and moves by one in one direction
/// (each back-edge value is H or H + 1, or H or H - 1). The result: whether
/// Br's condition is true when H is past its bound (H >= bound going up,
/// <= going down); nullopt if Br is not such a test. The index passes its
/// bound only once its run is exhausted: estimated P(past) = 0
/// (mergeBoundSource).
std::optional<bool> mergeBoundTest(const llvm::BranchInst &Br, const llvm::LoopInfo &LI);

/// The parameter source of a bound test of a merge index ("static:
/// estimated, bound test of a merge index ...").
std::string mergeBoundSource();

/// The parameter source (provenance) the IR SEG records for a comparison of
/// kind K: "static: estimated, merge step ..." / "static: estimated, search
/// step ..." (P = 1/2, with the reference), with a note if it is a
/// select's (Select).
std::string dataCompareSource(DataCompareKind K, bool Select = false);

/// Whether Source (a parameter's provenance) is that of a search step
/// (dataCompareSource(Search, ...)): the ICC RUV key branch.chain.load.
bool isSearchStepSource(const std::string &Source);

/// The source of the probability Pir_<fn>_<line>_<col> that the condition
/// of a select code generation made into a jump is true (the select's
/// sides as SEG stages, docs/models.md "Select arms"): estimated 1/2.
std::string selectArmSource();

/// The source of the probability Pir_<fn>_<line>_<col>_first that the
/// first test of a branch on a logical and/or, which code generation splits
/// into two jumps, is true (the second test as a SEG stage,
/// icc::secondTestProbability): estimated 1/2.
std::string firstTestSource();

/// The source of the indicator Pov_<fn>_<line>_<col> that the vectoriser's
/// runtime alias checks find two ranges overlapping (Builder::checksPassing):
/// estimated 0, the checks pass.
std::string aliasCheckSource();

/// Whether Source is that of a select's comparison (dataCompareSource(K,
/// true)): it costs only where the machine code has a branch for the
/// select (RUV key branch.select of the block).
bool isSelectStepSource(const std::string &Source);

/// The interval [Lo, Hi) that a bisection halves: the values its two
/// bounds enter the search loop with.
struct BisectedInterval {
  llvm::Value *Lo = nullptr, *Hi = nullptr;
};

/// Ld as the load of a bisection (docs/models.md "Memory term",
/// "Bisections"): a load in loop L compared by a search step of L (branch
/// or select, dataComparison / dataSelect), addressed through one index
/// (through casts) computed by instructions of L from exactly two header
/// phis of L, both steered by that comparison, with a halving (a division
/// by 2 or a right shift by 1): lo + (hi - lo) / 2, (lo + hi) >> 1. Lo is
/// the phi the index subtracts (hi - lo), else the one that enters L as 0.
/// nullopt otherwise (a walk down a search tree, an index loaded from
/// memory, a phi entering L by several values).
std::optional<BisectedInterval> bisectionOf(const llvm::LoadInst &Ld, const llvm::LoopInfo &LI);

} // namespace irseg
} // namespace segtime

#endif
