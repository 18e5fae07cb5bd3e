//===- IRSeg.h - SEG of the optimised IR with IntCC RUVs ---------*- C++ -*-===//
///
/// \file
/// The IntCC level (Warwick-94 §3.3.4, design.md §5): the SEG of a function
/// as the optimiser left it. Loops are LoopInfo's loops (unrolled, vectorised
/// and epilogue loops are loops of their own); trip counts come from
/// ScalarEvolution, rewritten into source names (the function's parameters,
/// globals, and k_<loop>, the iteration number of an enclosing loop); stages
/// are basic blocks with their block frequency relative to the enclosing loop
/// header (BranchProbabilityInfo; a loop guard counts as taken) and their
/// IntCC RUV (IR opcode x type counts, e.g. "fadd.f64", "load.v4f64").
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PASSES_IRSEG_H
#define SEGTIME_PASSES_IRSEG_H

#include "core/MergeIR.h" // InlinedSite
#include "core/Seg.h"

#include "llvm/Analysis/BranchProbabilityInfo.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/PassManager.h"
#include "llvm/IR/ValueHandle.h"

#include <cstdint>
#include <map>
#include <optional>
#include <tuple>
#include <vector>

namespace segtime {

/// The arguments of one call to a function defined in the module, as they
/// were before the optimiser ran (recordCallArgs): each value with the
/// callee's parameter it binds, "<callee>.<parameter>" (the name the
/// source level gives a callee's parameter in its caller's formula). The
/// handles follow the values through replaceAllUsesWith (promotion of
/// locals to registers, atoi rewritten as strtol), so that after inlining
/// the callee's code is written in the callee's parameters.
struct CallSiteArgs {
  std::vector<std::pair<llvm::WeakTrackingVH, std::string>> Args;
  /// The IR name of the callee of each of Args (same size): the calls at
  /// one location are those of one macro expansion too (a benchmark
  /// harness's timer calls around the kernel's call), each callee's
  /// arguments kept apart.
  std::vector<std::string> Callees;
};
/// A call's location as the inliner copies it into the inlinedAt of the
/// inlined code (a distinct node of the same line, column and scope).
using CallSiteKey = std::tuple<unsigned, unsigned, const llvm::DIScope *>;
inline CallSiteKey callSiteKey(const llvm::DILocation *L) {
  return {L->getLine(), L->getColumn(), L->getScope()};
}
/// The arguments of the module's calls (recordCallArgs).
struct CallSiteArgMap {
  using Entry = std::pair<const llvm::DILocation *const, CallSiteArgs>;
  /// By the call's DILocation, which the inliner makes the inlinedAt of
  /// the callee's inlined code.
  std::map<const llvm::DILocation *, CallSiteArgs> Calls;
  /// Calls' entries by their callSiteKey, each key's in Calls' order: what
  /// the IR level of a function looks up for each call inlined into it
  /// (built once per module by index(), not scanned per function).
  std::map<CallSiteKey, std::vector<const Entry *>> BySite;
  /// Builds BySite from Calls.
  void index() {
    BySite.clear();
    for (const Entry &E : Calls)
      BySite[callSiteKey(E.first)].push_back(&E);
  }
  void clear() {
    Calls.clear();
    BySite.clear();
  }
};

/// The name of parameter K of IR function Callee in the names of inlined
/// code ("<callee>.<name>" without the callee): its source name
/// (ParamNames: by IR name), else "arg<K>".
std::string calleeParamName(const std::map<std::string, std::vector<std::string>> &ParamNames,
                            const std::string &Callee, unsigned K);

/// Records the arguments of every direct call in M to a function defined
/// in M (ParamNames: source parameter names by IR name; else arg0, ...;
/// SourceNames: source name by IR name), and indexes them (Out.index()).
/// Changes nothing in M.
void recordCallArgs(llvm::Module &M, const std::map<std::string, std::vector<std::string>> &ParamNames,
                    const std::map<std::string, std::string> &SourceNames, CallSiteArgMap &Out);

/// The IR-level SEG of one function and where its stages came from.
struct IRFunctionSeg {
  std::string Name;
  NodeList Seg;
  /// Stage node id of every basic block (for the machine level).
  std::map<const llvm::BasicBlock *, std::string> StageOf;
  /// Frequency of each CFG edge between two blocks of one region, in the
  /// terms of the blocks' Node::Freq ("" = 1): for machine blocks that code
  /// generation puts on an edge.
  std::map<std::pair<const llvm::BasicBlock *, const llvm::BasicBlock *>, std::string> EdgeFreq;
  /// The CFG edges that leave a loop, with the Loop node of the outermost
  /// loop they leave: such an edge runs once per execution of that loop
  /// (Freq = the Loop node's Node::Freq) when it is the loop's only exit
  /// edge; nullopt when the loop has several (frequency unknown).
  struct LoopExit {
    std::string LoopId;
    std::optional<std::string> Freq;
  };
  std::map<std::pair<const llvm::BasicBlock *, const llvm::BasicBlock *>, LoopExit> LoopExits;
  /// Stages that repeat another stage's block (id -> that stage's id): the
  /// final, failing test of a top-tested loop (-O0), run once per execution
  /// of the loop after its trip-count iterations; the machine level gives
  /// them the block's ICC RUV too.
  std::map<std::string, std::string> CopyOf;
  /// Blocks ending in a data-dependent conditional branch (no exact
  /// condition, not a loop's back edge or exit), with the probability that
  /// the branch takes its first successor ("Pir_f_12_9" or "(1 - Pir_...)"):
  /// the input of the ICC branch-misprediction term (Node::BranchProb).
  std::map<const llvm::BasicBlock *, std::string> DataBranch;
  /// Each block's scalar selects, in order: their source locations
  /// ("file:line:col", "" without one), for the sides of those that code
  /// generation makes into jumps (docs/models.md "Select arms").
  std::map<const llvm::BasicBlock *, std::vector<std::string>> SelectLocs;
  /// Blocks ending in a branch on a logical and/or (`a && b`, `a || b`),
  /// which code generation splits into two jumps: the branch's location
  /// ("file:line:col"), for the share of the second test (docs/models.md
  /// "Select arms").
  std::map<const llvm::BasicBlock *, std::string> SplitLocs;
  /// Loops whose trip count ScalarEvolution could not compute get a
  /// parameter N_<function>_<line>; listed here.
  std::vector<Parameter> Parameters;
  /// The code inlined from other functions, per call site (a loop or block
  /// belongs to the call whose inlinedAt chain its location or most of its
  /// instructions carry; nested inlining: to each call of the chain).
  std::vector<InlinedSite> Inlined;
  /// What the analysis simplified or gave up on (a budget exceeded, a
  /// frequency too large to keep in exact conditions), one line each.
  std::vector<std::string> Notes;
  /// The function's symbolic work passed the budget (buildIRSeg).
  bool BudgetExceeded = false;
  /// Seg in a compact form while the function waits for code generation
  /// (packSeg: core/Seg.h's packNodes, a binary image a fraction of the
  /// nodes' memory; Seg is then empty); empty when Seg holds the nodes.
  std::vector<std::uint8_t> PackedSeg;
};

/// Moves FS.Seg into FS.PackedSeg (nothing if it is packed already).
void packSeg(IRFunctionSeg &FS);

/// Gives FS.Seg back from FS.PackedSeg, the same nodes as before packSeg,
/// and empties PackedSeg (nothing if it is not packed).
void unpackSeg(IRFunctionSeg &FS);

/// Default of buildIRSeg's Budget (-fplugin-arg-segtime-budget): units of
/// symbolic work per function, a unit being one monomial of a block
/// frequency built or compared (per factor when compared). The examples and
/// validation kernels use at most about 700.
constexpr uint64_t DefaultAnalysisBudget = 1000000;

/// The C library function (core/Library.h) call C stays at code generation:
/// a call to one without a body ("sin"), or a memcpy/memmove/memset
/// intrinsic of a length not a constant of at most 128 B ("memcpy"); ""
/// otherwise (sqrt, made the sqrt instruction by the backend, included).
std::string irLibraryCallee(const llvm::CallBase &C);

/// IntCC vocabulary key of one instruction ("fadd.f64", "load.i32",
/// "call.sqrt", "br.cond": the rule of core/Vocabulary.h's intccKey, with
/// the instruction's opcode and type), "" for instructions that cost
/// nothing (debug intrinsics, lifetime markers).
std::string intccKey(const llvm::Instruction &I);

/// Builds the IR-level SEG of F. ParamNames are the source names of F's
/// parameters in order (from the AST; IR argument names are not kept).
/// Budget: units of symbolic work (DefaultAnalysisBudget) after which the
/// rest of F's block frequencies are numeric estimates
/// (BranchProbabilityInfo's), the result's BudgetExceeded is set and Notes
/// says so; the SEG is complete either way. Sites: the calls' arguments
/// before inlining (recordCallArgs): values an inlined call's code uses
/// that were its arguments are written as "<callee>.<parameter>".
/// NameCopies: each copy of a branch the optimiser made gets a parameter of
/// its own, defaulting to the shared one (irseg::Builder::NameCopies).
IRFunctionSeg buildIRSeg(llvm::Function &F, llvm::LoopInfo &LI, llvm::ScalarEvolution &SE,
                         llvm::BranchProbabilityInfo &BPI, llvm::DominatorTree &DT,
                         const std::vector<std::string> &ParamNames,
                         uint64_t Budget = DefaultAnalysisBudget,
                         const CallSiteArgMap *Sites = nullptr, bool NameCopies = false);

/// The logical operation of a branch condition Cond that code generation
/// splits into two jumps (`a && b` as `and`/`select a, b, false`, `a || b`
/// as `or`/`select a, true, b`): its first operand, tested first, and
/// "and" or "or"; {nullptr, nullptr} for any other condition.
std::pair<llvm::Value *, const char *> logicalBranchOp(llvm::Value *Cond);

/// Analysis: the IR-level SEG of a function (parameter names from the
/// function's debug info if present, else arg0, arg1, ...).
class IRSegAnalysis : public llvm::AnalysisInfoMixin<IRSegAnalysis> {
public:
  using Result = IRFunctionSeg;
  Result run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);

private:
  friend llvm::AnalysisInfoMixin<IRSegAnalysis>;
  static llvm::AnalysisKey Key;
};

/// print<segtime-ir>: prints the IR-level SEG of every function as JSON.
class IRSegPrinter : public llvm::PassInfoMixin<IRSegPrinter> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);
};

} // namespace segtime

#endif
