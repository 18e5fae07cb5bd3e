//===- Instrumenter.h - CT: the instrumentation of one module --*- C++ -*-===//
///
/// \file
/// The Instrumenter behind InstrumentPass (Instrument.h): per function a
/// plan made before the CFG changes (InstrumentPlan.cpp: the function's,
/// loops', calls' and branches' nodes, where each branch node's executions
/// come from) and its emission (Instrument.cpp: counters, timer pairs, the
/// flushes at function and loop exits), then the module's node table.
/// The node table and counter layout are the contract of
/// runtime/segtime_ct.h (ABI 5). Internal to passes/.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PASSES_INSTRUMENTER_H
#define SEGTIME_PASSES_INSTRUMENTER_H

#include "passes/Instrument.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace segtime {
namespace ct {

// runtime/segtime_ct.h
enum Kind { KFunction = 0, KLoop = 1, KBranch = 2, KCall = 3 };
constexpr int FixedSlots = 4, Abi = 5;
constexpr int SlotExclusive = 4; ///< timed nodes of recursive functions
/// Function nodes flagged FlagSampled: slot 2 pairs run, slot 3 calls still
/// to skip, slot 4 the last timed call's ticks.
constexpr int SlotPairs = 2, SlotSkip = 3, SlotLastTimed = 4;
/// After a timed call shorter than __segtime_ct_short_ticks, this many calls
/// are not timed (segtime_ct.h).
constexpr int SkipAfterShort = 7;
constexpr int FlagRecursive = 1, FlagNoReturn = 2, FlagUntimed = 4, FlagReentrant = 8,
              FlagCalleeTimed = 16, FlagSampled = 32, FlagLate = 64;

/// A source location (file, line, column; line 0: none).
struct Loc {
  std::string File;
  unsigned Line = 0, Col = 0;
};

/// DL as a Loc (line 0 without one).
Loc locOf(const llvm::DebugLoc &DL);
/// The first debug location in B (the code an arm starts with), if any.
Loc firstLocIn(const llvm::BasicBlock *B);
/// Where code for the CFG edge From -> To goes (once per traversal): the
/// end of From if that is its only successor, the start of To if From is
/// its only predecessor, else a new block splitting the edge.
llvm::Instruction *edgePoint(llvm::BasicBlock *From, llvm::BasicBlock *To);

/// One entry of the module's node table.
struct NodeDesc {
  int Kind = KFunction, Parent = -1, Base = 0, NArms = 0, Flags = 0;
  Loc Start, End;
  std::string Name, Labels;
  /// FlagLate nodes: the copy number, 0, 1, ... among the function's late
  /// nodes of the same kind, op and location (in block order).
  int Copy = 0;
};

/// Functions in a cycle of the module's direct call graph, each with the
/// number of its strongly connected component (its cycle).
std::map<const llvm::Function *, int> recursiveFunctions(llvm::Module &M);

/// A function too small to time: defined here, not main, fewer than 128
/// IR instructions (at the start of the pipeline: before SROA), no call
/// except to intrinsics, and every loop bounded by a constant of at most 16
/// (its exit test compares with such a constant: `k <= 5`). A timer pair
/// (two rdtsc, ~50 cycles) around each of its calls would cost more than the
/// call, and the subtracted overhead would dominate the result; its calls
/// are counted and its time stays in the caller's exclusive time.
bool smallFunction(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);

class Instrumenter {
public:
  /// Functions counted but not timed (smallFunction).
  std::set<const llvm::Function *> Small;
  /// recursiveFunctions(): the cycle of each recursive function.
  std::map<const llvm::Function *, int> Recursive;
  /// Functions instrumented here with a timer pair of their own, not
  /// recursive: at each return they leave their pair's ticks in the
  /// thread-local segtime.ct.last, which their call sites in this module
  /// read instead of timing the call with a second pair (FlagCalleeTimed).
  std::set<const llvm::Function *> Timed;

  Instrumenter(llvm::Module &M, const InstrumentConfig &C);

  /// Instruments F: plans its nodes, then emits their code.
  void function(llvm::Function &F, llvm::LoopInfo &LI, llvm::TargetLibraryInfo &TLI);
  /// instrument=late (InstrumentLate.cpp): counts F's optimised code, its
  /// calls, every conditional branch and loop header, untimed.
  void lateFunction(llvm::Function &F, llvm::LoopInfo &LI);
  /// Writes the module's node table and its registration at start-up.
  void finish();

private:
  using Builder = llvm::IRBuilder<>;

  /// An open timer: its start and, in recursive functions, the enclosing
  /// timer's child ticks (saved) and the node's activation depth before it.
  struct Timer {
    llvm::Value *T0 = nullptr, *Saved = nullptr, *Depth = nullptr;
  };
  struct LoopPlan {
    llvm::Loop *L;
    int Node;
    llvm::AllocaInst *Cnt = nullptr;
    llvm::AllocaInst *Body = nullptr; ///< body entries in this activation, if a branch uses them
    Timer Open; ///< allocas holding the open timer's values
    std::vector<llvm::BasicBlock *> Entering;
    const llvm::BasicBlock *Control = nullptr; ///< controlBlock(), before the CFG changes
  };
  struct CallPlan {
    llvm::CallBase *CB;
    int Node;
    bool NoReturn;
    std::vector<int> EnclosingLoops; ///< innermost first
  };
  /// Where a branch node's executions (its block's runs) come from: its
  /// own counter, or flow conservation over counts the function keeps
  /// anyway (the idea of counting a spanning-tree complement of the CFG's
  /// edges, Knuth 1973; LLVM's PGO instrumentation, CFGMST.h): a block with
  /// a single predecessor runs as often as the edge into it, i.e. as the
  /// predecessor's count (unconditional branch), as one arm of its two-way
  /// branch (counted arm, or executions minus it), or as the loop body
  /// (a loop's top test: its iterations); the entry block once per call.
  struct ExecSource {
    enum { Own, Same, One, TrueArm, FalseArm, LoopBody } Kind = Own;
    int Ref = -1; ///< Same, TrueArm, FalseArm: a branch plan; LoopBody: a loop plan
  };
  struct BranchPlan {
    llvm::Instruction *I;
    int Node;
    std::vector<llvm::AllocaInst *> Slots; ///< executions (null unless Own), then counted arms
    ExecSource Exec;
  };
  /// What function() does to one function: planned before the CFG changes.
  struct FunctionPlan {
    llvm::Function &F;
    llvm::LoopInfo &LI;
    llvm::TargetLibraryInfo &TLI;
    NodeDesc FD;      ///< the function's node
    int FN = -1;      ///< its index
    int Cycle = -1;   ///< its call-graph cycle (recursive functions)
    bool IsRecursive = false, Untimed = false, Sampled = false;
    std::vector<LoopPlan> Loops; ///< in preorder
    std::map<const llvm::Loop *, int> LoopIndex;
    /// Exit edges, each with the loops it leaves, innermost first.
    std::map<std::pair<llvm::BasicBlock *, llvm::BasicBlock *>, std::vector<int>> Exits;
    std::vector<CallPlan> Calls;
    std::vector<BranchPlan> Branches;
    std::vector<llvm::ReturnInst *> Returns;
    Timer FunctionTimer;           ///< emitted: the function's timer
    llvm::Value *Sample = nullptr; ///< emitted, Sampled: this call is timed
  };

  // Planning (InstrumentPlan.cpp), in this order.
  void planFunction(FunctionPlan &P);
  void planLoops(FunctionPlan &P);
  void planExits(FunctionPlan &P);
  /// The calls', branches' and returns' plans, in instruction order.
  void planNodes(FunctionPlan &P);
  void planCall(FunctionPlan &P, llvm::CallBase &CB, llvm::BasicBlock &B);
  void planBranch(FunctionPlan &P, llvm::Instruction &I, llvm::BasicBlock &B);
  void planExecutions(FunctionPlan &P);
  /// A call into P's function's own cycle: it can run again while active.
  bool reenters(const FunctionPlan &P, const llvm::CallBase &CB) const;
  /// The node of the innermost loop holding B, else the function's.
  int parentOf(const FunctionPlan &P, const llvm::BasicBlock *B) const;

  /// Fetches this thread's counter block at F's entry into Blk (no locals):
  /// a load after the entry block's allocas, the runtime's call where it is
  /// null, a phi of the two (the entry block's code and terminator move to
  /// the block after the call).
  void fetchBlock(llvm::Function &F, Builder &B);

  // Emission (Instrument.cpp), in this order.
  void emitEntry(FunctionPlan &P, Builder &B);
  void startFunctionTimer(FunctionPlan &P, Builder &B);
  void emitBranchCounters(FunctionPlan &P, Builder &B);
  void emitCalls(FunctionPlan &P, Builder &B);
  void emitLoops(FunctionPlan &P, Builder &B);
  void emitTrueArms(FunctionPlan &P, Builder &B);
  /// Leaving the function (return, or a call that does not return): flush
  /// the branch counters, stop the function's timer, restore the depth.
  void leaveFunction(FunctionPlan &P, Builder &B);
  void flushBranches(FunctionPlan &P, Builder &B);
  void stopSampledTimer(FunctionPlan &P, Builder &B);
  /// Leaving loop LP: entries, iterations (the header runs once more than
  /// the body when a top-tested loop leaves from its test), time.
  void leaveLoop(Builder &B, LoopPlan &LP, bool FromHeader);

  std::string sourceName(llvm::StringRef IRName) const {
    auto It = Config.SourceNames.find(IRName.str());
    return It != Config.SourceNames.end() ? It->second : IRName.str();
  }
  int addNode(NodeDesc D) {
    D.Base = NextSlot;
    NextSlot += slotsOf(D);
    Nodes.push_back(std::move(D));
    return static_cast<int>(Nodes.size()) - 1;
  }
  /// counters[Node.Base + K] += V in this thread's block (no lock: the
  /// block is the thread's own).
  void add(Builder &B, int Node, int K, llvm::Value *V);
  /// *A += By.
  void inc(Builder &B, llvm::AllocaInst *A, llvm::Value *By);
  llvm::Value *cycles(Builder &B);
  /// Starts node N's timer. In a recursive function it also takes part in
  /// the child-time protocol (segtime_ct.h): saves this thread's child ticks
  /// and zeroes them; a reentrant node also counts its activation depth.
  Timer startTimer(Builder &B, int N);
  /// Adds a finished timer pair (D = T1 - T0) to node N: count += 1,
  /// ticks += D (reentrant nodes: only in their outermost activation, which
  /// also adds 1 to slot 2). In recursive functions also exclusive ticks +=
  /// D minus the ticks its timed children reported (all of D for a call to a
  /// function outside the cycle: its callee's time is the call's own), and
  /// reports D to the enclosing timer. Returns D.
  llvm::Value *stopTimer(Builder &B, int N, const Timer &T);
  /// The thread's activation depth of reentrant node N.
  llvm::GlobalVariable *depthVar(int N);
  /// The runtime's threshold for short calls (ticks), declared on first use.
  llvm::GlobalVariable *shortTicks();
  /// Counter slots of a node: timed nodes of recursive functions have one
  /// more, their exclusive ticks.
  static int slotsOf(const NodeDesc &D) {
    return FixedSlots + D.NArms +
           (((D.Flags & FlagRecursive) && D.Kind != KBranch &&
             !(D.Flags & (FlagUntimed | FlagNoReturn))) ||
                    (D.Flags & FlagSampled)
                ? 1
                : 0);
  }
  llvm::Constant *str(const std::string &S);

  llvm::Module &M;
  const InstrumentConfig &Config;
  llvm::LLVMContext &Ctx;
  llvm::Type *I64, *I32;
  llvm::PointerType *Ptr;
  llvm::StructType *ModTy;
  llvm::GlobalVariable *Mod, *Block; ///< the module's table; thread's block pointer
  llvm::GlobalVariable *Child;       ///< the thread's child ticks (recursive functions)
  llvm::GlobalVariable *Last;        ///< the ticks of the last return of a Timed function
  llvm::GlobalVariable *ShortTicks = nullptr; ///< shortTicks()
  std::map<int, llvm::GlobalVariable *> Depths;
  llvm::FunctionCallee GetBlock;
  llvm::Value *Blk = nullptr; ///< the current function's counter block
  std::vector<NodeDesc> Nodes;
  int NextSlot = 0;
  std::map<std::string, llvm::Constant *> Strings;
};

} // namespace ct
} // namespace segtime

#endif
