//===- Instrument.cpp - Component-timing instrumentation ------------------===//
///
/// \file
/// See Instrument.h. The node table and counter layout are the contract of
/// runtime/segtime_ct.h (ABI 5): per node four counter slots (count, ticks,
/// timed, iterations), for branches one slot per counted arm, for timed
/// nodes of recursive functions one more (exclusive ticks), in a
/// per-thread block that each function fetches from a thread-local pointer
/// on entry (the runtime allocates it on a thread's first entry).
///
//===----------------------------------------------------------------------===//
#include "passes/Instrument.h"

#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/ScalarEvolution.h"

#include "llvm/ADT/DepthFirstIterator.h"
#include "llvm/ADT/SCCIterator.h"
#include "llvm/Analysis/CallGraph.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <functional>
#include <map>
#include <optional>

using namespace llvm;

namespace segtime {
namespace {

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
              FlagCalleeTimed = 16, FlagSampled = 32;

struct Loc {
  std::string File;
  unsigned Line = 0, Col = 0;
};

Loc locOf(const DebugLoc &DL) {
  Loc L;
  if (DILocation *D = DL.get()) {
    L.File = D->getFilename().str();
    L.Line = D->getLine();
    L.Col = D->getColumn();
  }
  return L;
}

/// First debug location in B (the code an arm starts with), if any.
Loc firstLocIn(const BasicBlock *B) {
  for (const Instruction &I : *B)
    if (I.getDebugLoc())
      return locOf(I.getDebugLoc());
  return {};
}

/// The block holding the loop's own test: the latch of a bottom-tested
/// loop (do-while), else the header if it can leave the loop (for, while);
/// null for loops left only by break/return/goto (for(;;)).
const BasicBlock *controlBlock(const Loop &L) {
  const BasicBlock *Latch = L.getLoopLatch();
  if (Latch && Latch != L.getHeader() && L.isLoopExiting(Latch))
    return Latch;
  return L.isLoopExiting(L.getHeader()) ? L.getHeader() : nullptr;
}

/// One entry of the module's node table.
struct NodeDesc {
  int Kind = KFunction, Parent = -1, Base = 0, NArms = 0, Flags = 0;
  Loc Start, End;
  std::string Name, Labels;
};

/// Functions in a cycle of the module's direct call graph, each with the
/// number of its strongly connected component (its cycle).
std::map<const Function *, int> recursiveFunctions(Module &M) {
  std::map<const Function *, int> R;
  CallGraph CG(M);
  int Scc = 0;
  for (auto I = scc_begin(&CG); !I.isAtEnd(); ++I, ++Scc)
    if (I->size() > 1 || I.hasCycle())
      for (CallGraphNode *N : *I)
        if (N->getFunction())
          R[N->getFunction()] = Scc;
  return R;
}

/// Calls that get a call node: not intrinsics, inline asm, invokes, or
/// library functions (sqrt, printf, ...; exit() and other noreturn calls
/// are kept, to close the open timers).
bool instrumentedCall(const CallBase &CB, TargetLibraryInfo &TLI) {
  if (isa<IntrinsicInst>(CB) || CB.isInlineAsm() || isa<InvokeInst>(CB) || isa<CallBrInst>(CB))
    return false;
  const Function *Callee = CB.getCalledFunction();
  LibFunc LF;
  return !(Callee && TLI.getLibFunc(*Callee, LF) && TLI.has(LF) && !CB.doesNotReturn());
}

class Instrumenter {
public:
  /// Functions counted but not timed (smallFunction).
  std::set<const Function *> Small;
  /// recursiveFunctions(): the cycle of each recursive function.
  std::map<const Function *, int> Recursive;
  /// Functions instrumented here with a timer pair of their own, not
  /// recursive: at each return they leave their pair's ticks in the
  /// thread-local segtime.ct.last, which their call sites in this module
  /// read instead of timing the call with a second pair (FlagCalleeTimed).
  std::set<const Function *> Timed;

  Instrumenter(Module &M, const InstrumentConfig &C)
      : M(M), Config(C), Ctx(M.getContext()), I64(Type::getInt64Ty(Ctx)),
        I32(Type::getInt32Ty(Ctx)), Ptr(PointerType::getUnqual(Ctx)) {
    ModTy = StructType::get(Ctx, {I32, I32, I32, I32, Ptr, Ptr, Ptr, Ptr});
    // Its initializer (the node table) is set by finish().
    Mod = new GlobalVariable(M, ModTy, false, GlobalValue::InternalLinkage, nullptr,
                             "segtime.ct.module");
    Block = new GlobalVariable(M, Ptr, false, GlobalValue::InternalLinkage,
                               ConstantPointerNull::get(Ptr), "segtime.ct.block", nullptr,
                               GlobalValue::GeneralDynamicTLSModel);
    Child = new GlobalVariable(M, I64, false, GlobalValue::InternalLinkage,
                               ConstantInt::get(I64, 0), "segtime.ct.child", nullptr,
                               GlobalValue::GeneralDynamicTLSModel);
    Last = new GlobalVariable(M, I64, false, GlobalValue::InternalLinkage,
                              ConstantInt::get(I64, 0), "segtime.ct.last", nullptr,
                              GlobalValue::GeneralDynamicTLSModel);
    GetBlock = M.getOrInsertFunction("__segtime_ct_thread_block",
                                     FunctionType::get(Ptr, {Ptr}, false));
  }
  /// The runtime's threshold for short calls (ticks), declared on first use.
  GlobalVariable *shortTicks() {
    if (!ShortTicks)
      ShortTicks = new GlobalVariable(M, I64, false, GlobalValue::ExternalLinkage, nullptr,
                                      "__segtime_ct_short_ticks");
    return ShortTicks;
  }

  void function(Function &F, LoopInfo &LI, TargetLibraryInfo &TLI);
  void finish();

private:
  std::string sourceName(StringRef IRName) const {
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
  void add(IRBuilder<> &B, int Node, int K, Value *V) {
    Value *P = B.CreateConstInBoundsGEP1_64(I64, Blk, Nodes[Node].Base + K);
    B.CreateStore(B.CreateAdd(B.CreateLoad(I64, P), V), P);
  }
  Value *cycles(IRBuilder<> &B) {
    if (Config.NoClock) // InstrumentConfig::NoClock: an opaque zero
      return B.CreateCall(InlineAsm::get(FunctionType::get(I64, false), "xorl ${0:k}, ${0:k}",
                                         "=r", /*hasSideEffects=*/true));
    return B.CreateIntrinsic(Intrinsic::readcyclecounter, {}, {});
  }
  /// An open timer: its start and, in recursive functions, the enclosing
  /// timer's child ticks (saved) and the node's activation depth before it.
  struct Timer {
    Value *T0 = nullptr, *Saved = nullptr, *Depth = nullptr;
  };
  /// Starts node N's timer. In a recursive function it also takes part in
  /// the child-time protocol (segtime_ct.h): saves this thread's child ticks
  /// and zeroes them; a reentrant node also counts its activation depth.
  Timer startTimer(IRBuilder<> &B, int N) {
    Timer T;
    if (Nodes[N].Flags & FlagReentrant) {
      T.Depth = B.CreateLoad(I32, depthVar(N));
      B.CreateStore(B.CreateAdd(T.Depth, ConstantInt::get(I32, 1)), depthVar(N));
    }
    if (Nodes[N].Flags & FlagRecursive) {
      T.Saved = B.CreateLoad(I64, Child);
      B.CreateStore(ConstantInt::get(I64, 0), Child);
    }
    T.T0 = cycles(B);
    return T;
  }
  /// Adds a finished timer pair (D = T1 - T0) to node N: count += 1,
  /// ticks += D (reentrant nodes: only in their outermost activation, which
  /// also adds 1 to slot 2). In recursive functions also exclusive ticks +=
  /// D minus the ticks its timed children reported (all of D for a call to a
  /// function outside the cycle: its callee's time is the call's own), and
  /// reports D to the enclosing timer. Returns D.
  Value *stopTimer(IRBuilder<> &B, int N, const Timer &T) {
    Value *D = B.CreateSub(cycles(B), T.T0);
    if (T.Saved) {
      Value *Own = D;
      if (Nodes[N].Kind != KCall || (Nodes[N].Flags & FlagReentrant))
        Own = B.CreateSub(D, B.CreateLoad(I64, Child));
      add(B, N, SlotExclusive, Own);
      B.CreateStore(B.CreateAdd(T.Saved, D), Child);
    }
    if (T.Depth) {
      Value *Outer = B.CreateICmpEQ(T.Depth, ConstantInt::get(I32, 0));
      add(B, N, 1, B.CreateSelect(Outer, D, ConstantInt::get(I64, 0)));
      add(B, N, 2, B.CreateZExt(Outer, I64));
      B.CreateStore(T.Depth, depthVar(N));
    } else {
      add(B, N, 1, D);
    }
    add(B, N, 0, ConstantInt::get(I64, 1));
    return D;
  }
  /// The thread's activation depth of reentrant node N.
  GlobalVariable *depthVar(int N) {
    GlobalVariable *&G = Depths[N];
    if (!G)
      G = new GlobalVariable(M, I32, false, GlobalValue::InternalLinkage,
                             ConstantInt::get(I32, 0), "segtime.ct.depth", nullptr,
                             GlobalValue::GeneralDynamicTLSModel);
    return G;
  }
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
  Constant *str(const std::string &S) {
    auto It = Strings.find(S);
    if (It != Strings.end())
      return It->second;
    auto *G = new GlobalVariable(M, ArrayType::get(Type::getInt8Ty(Ctx), S.size() + 1), true,
                                 GlobalValue::PrivateLinkage,
                                 ConstantDataArray::getString(Ctx, S), "segtime.ct.str");
    G->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
    return Strings[S] = G;
  }

  Module &M;
  const InstrumentConfig &Config;
  LLVMContext &Ctx;
  Type *I64, *I32;
  PointerType *Ptr;
  StructType *ModTy;
  GlobalVariable *Mod, *Block; ///< the module's table; thread's block pointer
  GlobalVariable *Child;       ///< the thread's child ticks (recursive functions)
  GlobalVariable *Last;        ///< the ticks of the last return of a Timed function
  GlobalVariable *ShortTicks = nullptr; ///< shortTicks()
  std::map<int, GlobalVariable *> Depths;
  FunctionCallee GetBlock;
  Value *Blk = nullptr; ///< the current function's counter block
  std::vector<NodeDesc> Nodes;
  int NextSlot = 0;
  std::map<std::string, Constant *> Strings;
};

/// Where code for the CFG edge From -> To goes: the end of From if that is
/// its only successor, the start of To if From is its only predecessor,
/// else a new block splitting the edge.
Instruction *edgePoint(BasicBlock *From, BasicBlock *To) {
  if (From->getSingleSuccessor() == To)
    return From->getTerminator();
  if (To->getSinglePredecessor() == From)
    return &*To->getFirstInsertionPt();
  Instruction *T = From->getTerminator();
  for (unsigned I = 0; I < T->getNumSuccessors(); ++I)
    if (T->getSuccessor(I) == To) {
      BasicBlock *New =
          SplitCriticalEdge(T, I, CriticalEdgeSplittingOptions().setMergeIdenticalEdges());
      if (New)
        return New->getTerminator();
    }
  report_fatal_error("segtime-instrument: cannot place code on a CFG edge");
}

/// A function too small to time: defined here, not main, fewer than 128
/// IR instructions (at the start of the pipeline: before SROA), no call
/// except to intrinsics, and every loop bounded by a constant of at most 16
/// (its exit test compares with such a constant: `k <= 5`). A timer pair
/// (two rdtsc, ~50 cycles) around each of its calls would cost more than the
/// call, and the subtracted overhead would dominate the result; its calls
/// are counted and its time stays in the caller's exclusive time.
static bool smallFunction(Function &F, FunctionAnalysisManager &FAM) {
  if (F.isDeclaration() || F.getName() == "main")
    return false;
  unsigned N = 0;
  for (const BasicBlock &B : F)
    for (const Instruction &I : B) {
      ++N;
      if (auto *CB = dyn_cast<CallBase>(&I)) {
        const Function *C = CB->getCalledFunction();
        if (!C || !C->isIntrinsic())
          return false;
      }
    }
  if (N >= 128)
    return false;
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  for (Loop *L : LI.getLoopsInPreorder()) {
    BasicBlock *Exiting = L->getExitingBlock();
    auto *Br = Exiting ? dyn_cast<BranchInst>(Exiting->getTerminator()) : nullptr;
    auto *Cmp = Br && Br->isConditional() ? dyn_cast<ICmpInst>(Br->getCondition()) : nullptr;
    auto *Bound = Cmp ? dyn_cast<ConstantInt>(Cmp->getOperand(1)) : nullptr;
    if (!Bound || Bound->getValue().abs().ugt(16))
      return false;
  }
  return true;
}

void Instrumenter::function(Function &F, LoopInfo &LI, TargetLibraryInfo &TLI) {
  // ---- plan, before the CFG changes -------------------------------------
  NodeDesc FD;
  FD.Kind = KFunction;
  FD.Name = sourceName(F.getName());
  if (DISubprogram *SP = F.getSubprogram()) {
    FD.Start.File = SP->getFilename().str();
    FD.Start.Line = SP->getLine();
  }
  auto Cycle = Recursive.find(&F);
  const bool IsRecursive = Cycle != Recursive.end();
  // A call into this function's own cycle: it can run again while active.
  auto reenters = [&](const CallBase &CB) {
    const Function *C = CB.getCalledFunction();
    auto It = C ? Recursive.find(C) : Recursive.end();
    return IsRecursive && It != Recursive.end() && It->second == Cycle->second;
  };
  FD.Flags = IsRecursive ? FlagRecursive | FlagReentrant : 0;
  const bool Untimed = Small.count(&F) && !IsRecursive;
  if (Untimed)
    FD.Flags |= FlagUntimed;
  // Timed functions (non-recursive, not small) skip the timer after short
  // calls (segtime_ct.h, FlagSampled).
  const bool Sampled = Timed.count(&F) != 0;
  if (Sampled)
    FD.Flags |= FlagSampled;
  int FN = addNode(FD);

  struct LoopPlan {
    Loop *L;
    int Node;
    AllocaInst *Cnt = nullptr;
    AllocaInst *Body = nullptr; ///< body entries in this activation, if a branch uses them
    Timer Open; ///< allocas holding the open timer's values
    std::vector<BasicBlock *> Entering;
    const BasicBlock *Control = nullptr; ///< controlBlock(), before the CFG changes
  };
  std::vector<LoopPlan> Loops;
  std::map<const Loop *, int> LoopIndex;
  for (Loop *L : LI.getLoopsInPreorder()) {
    NodeDesc D;
    D.Kind = KLoop;
    Loop::LocRange R = L->getLocRange();
    D.Start = locOf(R.getStart());
    D.End = locOf(R.getEnd());
    D.Parent = L->getParentLoop() ? Loops[LoopIndex[L->getParentLoop()]].Node : FN;
    // Innermost loops without calls are counted, not timed unless asked: a
    // timer pair around a short latency-bound loop stops the core
    // overlapping it with the next one (matmul -O2: 1.3x slower).
    bool Leaf = L->isInnermost() && !Config.TimeInnermostLoops, Reentrant = false;
    for (BasicBlock *LB : L->blocks())
      for (Instruction &I : *LB)
        if (auto *CB = dyn_cast<CallBase>(&I); CB && instrumentedCall(*CB, TLI)) {
          Leaf = false; // a loop around calls is timed
          Reentrant |= reenters(*CB);
        }
    D.Flags = (FD.Flags & FlagRecursive) | (Leaf ? FlagUntimed : 0) |
              (Reentrant ? FlagReentrant : 0);
    LoopIndex[L] = static_cast<int>(Loops.size());
    LoopPlan P{L, addNode(D), nullptr, nullptr, {}, {}, controlBlock(*L)};
    for (BasicBlock *Pred : predecessors(L->getHeader()))
      if (!L->contains(Pred))
        P.Entering.push_back(Pred);
    Loops.push_back(std::move(P));
  }
  auto parentOf = [&](const BasicBlock *B) {
    const Loop *L = LI.getLoopFor(B);
    return L ? Loops[LoopIndex[L]].Node : FN;
  };
  // Exit edges, each with the loops it leaves, innermost first.
  std::map<std::pair<BasicBlock *, BasicBlock *>, std::vector<int>> Exits;
  for (int I = static_cast<int>(Loops.size()) - 1; I >= 0; --I) {
    SmallVector<Loop::Edge, 4> Edges;
    Loops[I].L->getExitEdges(Edges);
    for (auto &[From, To] : Edges)
      Exits[{const_cast<BasicBlock *>(From), const_cast<BasicBlock *>(To)}].push_back(I);
  }
  for (auto &[E, Ls] : Exits)
    std::sort(Ls.begin(), Ls.end(), [&](int A, int B) {
      return Loops[A].L->getLoopDepth() > Loops[B].L->getLoopDepth();
    });

  struct CallPlan {
    CallBase *CB;
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
    Instruction *I;
    int Node;
    std::vector<AllocaInst *> Slots; ///< executions (null unless Own), then counted arms
    ExecSource Exec;
  };
  std::vector<CallPlan> Calls;
  std::vector<BranchPlan> Branches;
  std::vector<ReturnInst *> Returns;
  for (BasicBlock &B : F)
    for (Instruction &I : B) {
      if (auto *R = dyn_cast<ReturnInst>(&I)) {
        Returns.push_back(R);
      } else if (auto *CB = dyn_cast<CallBase>(&I)) {
        if (!instrumentedCall(*CB, TLI))
          continue;
        Function *Callee = CB->getCalledFunction();
        NodeDesc D;
        D.Kind = KCall;
        D.Start = locOf(CB->getDebugLoc());
        D.Parent = parentOf(&B);
        D.Name = Callee ? sourceName(Callee->getName()) : "";
        D.Flags = (FD.Flags & FlagRecursive) | (CB->doesNotReturn() ? FlagNoReturn : 0) |
                  (Callee && Small.count(Callee) ? FlagUntimed : 0) |
                  (reenters(*CB) ? FlagReentrant : 0) |
                  (!IsRecursive && Callee && Timed.count(Callee) && !CB->doesNotReturn()
                       ? FlagCalleeTimed
                       : 0);
        CallPlan P{CB, addNode(D), CB->doesNotReturn(), {}};
        for (const Loop *L = LI.getLoopFor(&B); L; L = L->getParentLoop())
          P.EnclosingLoops.push_back(LoopIndex[L]);
        Calls.push_back(std::move(P));
      } else if (isa<BranchInst>(I) || isa<SwitchInst>(I) || isa<SelectInst>(I)) {
        NodeDesc D;
        D.Kind = KBranch;
        D.Start = locOf(I.getDebugLoc());
        D.Parent = parentOf(&B);
        std::vector<std::pair<std::string, const BasicBlock *>> Arms;
        if (auto *Br = dyn_cast<BranchInst>(&I)) {
          if (!Br->isConditional())
            continue;
          const Loop *L = LI.getLoopFor(&B);
          if (L && controlBlock(*L) == &B)
            continue; // the loop's own test: counted as iterations
          D.Name = "br";
          Arms = {{"true", Br->getSuccessor(0)}, {"false", Br->getSuccessor(1)}};
        } else if (auto *Sw = dyn_cast<SwitchInst>(&I)) {
          D.Name = "switch";
          Arms.push_back({"default", Sw->getDefaultDest()});
          for (auto &Case : Sw->cases())
            Arms.push_back({"case " + std::to_string(Case.getCaseValue()->getSExtValue()),
                            Case.getCaseSuccessor()});
        } else {
          if (!I.getOperand(0)->getType()->isIntegerTy(1))
            continue; // vector selects
          D.Name = "select";
          Arms = {{"true", nullptr}, {"false", nullptr}};
        }
        for (auto &[Label, Target] : Arms) {
          Loc T = Target ? firstLocIn(Target) : Loc();
          D.Labels += (D.Labels.empty() ? "" : "\n") + Label + "@" + std::to_string(T.Line) +
                      ":" + std::to_string(T.Col);
        }
        D.NArms = static_cast<int>(Arms.size());
        int Counted = D.Name == "switch" ? D.NArms - 1 : 1;
        int N = addNode(D);
        Branches.push_back({&I, N, std::vector<AllocaInst *>(1 + Counted, nullptr), {}});
      }
    }
  // Executions of each branch node (ExecSource): the first node of a block
  // gets the block's count, the others share it. Only blocks reachable from
  // the entry: a chain of single predecessors then ends at the entry or a
  // join, never in a cycle.
  {
    std::map<const BasicBlock *, int> TermBranch, FirstInBlock;
    for (size_t I = 0; I < Branches.size(); ++I)
      if (isa<BranchInst>(Branches[I].I))
        TermBranch[Branches[I].I->getParent()] = static_cast<int>(I);
    SmallPtrSet<const BasicBlock *, 32> Reachable;
    for (const BasicBlock *BB : depth_first(&F.getEntryBlock()))
      Reachable.insert(BB);
    std::function<std::optional<ExecSource>(const BasicBlock *)> derive =
        [&](const BasicBlock *BB) -> std::optional<ExecSource> {
      if (BB->isEntryBlock())
        return ExecSource{ExecSource::One, -1};
      const BasicBlock *P = BB->getSinglePredecessor();
      auto *Br = P ? dyn_cast<BranchInst>(P->getTerminator()) : nullptr;
      if (!Br)
        return std::nullopt;
      if (!Br->isConditional())
        return derive(P);
      if (Br->getSuccessor(0) == Br->getSuccessor(1))
        return std::nullopt;
      const Loop *L = LI.getLoopFor(P);
      if (L && controlBlock(*L) == P) // not a branch node
        return L->getHeader() == P && L->contains(BB)
                   ? std::optional<ExecSource>({ExecSource::LoopBody, LoopIndex[L]})
                   : std::nullopt;
      auto It = TermBranch.find(P);
      if (It == TermBranch.end())
        return std::nullopt;
      return ExecSource{Br->getSuccessor(0) == BB ? ExecSource::TrueArm : ExecSource::FalseArm,
                        It->second};
    };
    for (size_t I = 0; I < Branches.size(); ++I) {
      const BasicBlock *BB = Branches[I].I->getParent();
      auto [First, New] = FirstInBlock.emplace(BB, static_cast<int>(I));
      if (!New)
        Branches[I].Exec = {ExecSource::Same, First->second};
      else if (Reachable.count(BB))
        if (auto S = derive(BB))
          Branches[I].Exec = *S;
    }
  }

  // ---- emit ---------------------------------------------------------------
  // Entry: our allocas with the others (SROA promotes entry-block allocas
  // only), then this thread's counter block, fetched once per thread.
  BasicBlock &Entry = F.getEntryBlock();
  IRBuilder<> B(&Entry, Entry.begin());
  std::vector<AllocaInst *> Locals;
  auto local = [&](const char *Name) {
    Locals.push_back(B.CreateAlloca(I64, nullptr, Name));
    return Locals.back();
  };
  for (LoopPlan &P : Loops) {
    P.Cnt = local("segtime.iter");
    if (Nodes[P.Node].Flags & FlagUntimed)
      continue;
    P.Open.T0 = local("segtime.t0");
    if (Nodes[P.Node].Flags & FlagRecursive)
      P.Open.Saved = local("segtime.saved");
    if (Nodes[P.Node].Flags & FlagReentrant) {
      Locals.push_back(B.CreateAlloca(I32, nullptr, "segtime.depth"));
      P.Open.Depth = Locals.back();
    }
  }
  for (BranchPlan &P : Branches) {
    for (size_t K = 0; K < P.Slots.size(); ++K)
      if (K > 0 || P.Exec.Kind == ExecSource::Own)
        P.Slots[K] = local(K ? "segtime.arm" : "segtime.exec");
    if (P.Exec.Kind == ExecSource::LoopBody && !Loops[P.Exec.Ref].Body)
      Loops[P.Exec.Ref].Body = local("segtime.body");
  }
  Instruction *AfterAllocas = &*Entry.getFirstInsertionPt();
  while (isa<AllocaInst>(AfterAllocas))
    AfterAllocas = AfterAllocas->getNextNode();
  B.SetInsertPoint(AfterAllocas);
  Value *Blk0 = B.CreateLoad(Ptr, Block);
  Instruction *Then = SplitBlockAndInsertIfThen(B.CreateIsNull(Blk0), AfterAllocas, false);
  B.SetInsertPoint(Then);
  Value *Blk1 = B.CreateCall(GetBlock, {Mod});
  B.CreateStore(Blk1, Block);
  B.SetInsertPoint(AfterAllocas->getParent(), AfterAllocas->getParent()->getFirstInsertionPt());
  PHINode *Phi = B.CreatePHI(Ptr, 2);
  Phi->addIncoming(Blk0, &Entry);
  Phi->addIncoming(Blk1, Then->getParent());
  Blk = Phi;
  for (LoopPlan &P : Loops) // the entry block's code and terminator moved
    for (BasicBlock *&Pred : P.Entering)
      if (Pred == &Entry)
        Pred = Phi->getParent();
  for (AllocaInst *A : Locals)
    B.CreateStore(Constant::getNullValue(A->getAllocatedType()), A);
  Timer FunctionTimer;
  Value *Sample = nullptr; ///< Sampled: this call is timed
  if (Sampled) {
    // Timed unless calls are still to be skipped (slot 3 > 0: count down).
    Value *SkipP = B.CreateConstInBoundsGEP1_64(I64, Blk, Nodes[FN].Base + SlotSkip);
    Value *Skip = B.CreateLoad(I64, SkipP);
    Sample = B.CreateICmpEQ(Skip, ConstantInt::get(I64, 0));
    B.CreateStore(B.CreateSelect(Sample, Skip, B.CreateSub(Skip, ConstantInt::get(I64, 1))),
                  SkipP);
    BasicBlock *Head = B.GetInsertBlock();
    Instruction *Then = SplitBlockAndInsertIfThen(Sample, &*B.GetInsertPoint(), false);
    BasicBlock *Tail = Then->getSuccessor(0);
    B.SetInsertPoint(Then);
    Value *T0 = cycles(B);
    B.SetInsertPoint(Tail, Tail->getFirstInsertionPt());
    PHINode *T0Phi = B.CreatePHI(I64, 2);
    T0Phi->addIncoming(T0, Then->getParent());
    T0Phi->addIncoming(ConstantInt::get(I64, 0), Head);
    FunctionTimer.T0 = T0Phi;
    for (LoopPlan &P : Loops) // the entry's code and terminator moved again
      for (BasicBlock *&Pred : P.Entering)
        if (Pred == Head)
          Pred = Tail;
  } else if (!Untimed) {
    FunctionTimer = startTimer(B, FN);
  }

  // Branch counters: executions and counted arms, next to the decision; a
  // two-way br's true arm on its edge, after everything else (below).
  auto inc = [&](AllocaInst *A, Value *By) {
    B.CreateStore(B.CreateAdd(B.CreateLoad(I64, A), By), A);
  };
  auto onEdge = [](const Instruction *I) {
    auto *Br = dyn_cast<BranchInst>(I);
    return Br && Br->getSuccessor(0) != Br->getSuccessor(1);
  };
  for (BranchPlan &P : Branches) {
    B.SetInsertPoint(P.I);
    if (P.Slots[0])
      inc(P.Slots[0], ConstantInt::get(I64, 1));
    if (auto *Sw = dyn_cast<SwitchInst>(P.I)) {
      int K = 1;
      for (auto &Case : Sw->cases())
        inc(P.Slots[K++], B.CreateZExt(B.CreateICmpEQ(Sw->getCondition(), Case.getCaseValue()),
                                       I64));
    } else if (!onEdge(P.I)) {
      Value *C = isa<BranchInst>(P.I) ? cast<BranchInst>(P.I)->getCondition()
                                      : P.I->getOperand(0);
      inc(P.Slots[1], B.CreateZExt(C, I64));
    }
  }
  // Leaving the function (return, or a call that does not return): flush
  // the branch counters, stop the function's timer, restore the depth.
  // (The locals are dead after it: no need to zero them.)
  auto leaveFunction = [&](IRBuilder<> &B) {
    std::map<int, Value *> Exec; // executions of branch plan i, this activation
    std::function<Value *(int)> execOf = [&](int I) -> Value * {
      Value *&V = Exec[I];
      if (V)
        return V;
      const BranchPlan &P = Branches[I];
      switch (P.Exec.Kind) {
      case ExecSource::Own:
        return V = B.CreateLoad(I64, P.Slots[0]);
      case ExecSource::Same:
        return V = execOf(P.Exec.Ref);
      case ExecSource::One:
        return V = ConstantInt::get(I64, 1);
      case ExecSource::TrueArm:
        return V = B.CreateLoad(I64, Branches[P.Exec.Ref].Slots[1]);
      case ExecSource::FalseArm:
        return V = B.CreateSub(execOf(P.Exec.Ref),
                               B.CreateLoad(I64, Branches[P.Exec.Ref].Slots[1]));
      case ExecSource::LoopBody:
        return V = B.CreateLoad(I64, Loops[P.Exec.Ref].Body);
      }
      llvm_unreachable("ExecSource kind");
    };
    for (size_t I = 0; I < Branches.size(); ++I) {
      BranchPlan &P = Branches[I];
      add(B, P.Node, 0, execOf(static_cast<int>(I)));
      for (size_t K = 1; K < P.Slots.size(); ++K) {
        // Two-way: arm 0 (true) is slot 4; switch: case k is slot 4 + k.
        int Slot = FixedSlots + (isa<SwitchInst>(P.I) ? static_cast<int>(K) : 0);
        add(B, P.Node, Slot, B.CreateLoad(I64, P.Slots[K]));
      }
    }
    if (Untimed) {
      add(B, FN, 0, ConstantInt::get(I64, 1));
      return;
    }
    if (Sampled) {
      // A timed call: its pair's ticks; after a short one, skip the next
      // SkipAfterShort calls. A call not timed: the last timed call's ticks.
      Instruction *At = &*B.GetInsertPoint();
      Value *Imputed = B.CreateLoad(
          I64, B.CreateConstInBoundsGEP1_64(I64, Blk, Nodes[FN].Base + SlotLastTimed));
      BasicBlock *Head = B.GetInsertBlock();
      Instruction *Then = SplitBlockAndInsertIfThen(Sample, At, false);
      B.SetInsertPoint(Then);
      Value *D = B.CreateSub(cycles(B), FunctionTimer.T0);
      add(B, FN, SlotPairs, ConstantInt::get(I64, 1));
      B.CreateStore(D, B.CreateConstInBoundsGEP1_64(I64, Blk, Nodes[FN].Base + SlotLastTimed));
      Value *Short = B.CreateICmpULT(D, B.CreateLoad(I64, shortTicks()));
      // (Two instructions made in sequence, not as arguments of one call,
      // whose order of evaluation differs between compilers.)
      Value *SkipP = B.CreateConstInBoundsGEP1_64(I64, Blk, Nodes[FN].Base + SlotSkip);
      B.CreateStore(B.CreateSelect(Short, ConstantInt::get(I64, SkipAfterShort),
                                   ConstantInt::get(I64, 0)),
                    SkipP);
      B.SetInsertPoint(At);
      PHINode *V = B.CreatePHI(I64, 2);
      V->addIncoming(D, Then->getParent());
      V->addIncoming(Imputed, Head);
      add(B, FN, 1, V);
      add(B, FN, 0, ConstantInt::get(I64, 1));
      B.CreateStore(V, Last);
      return;
    }
    Value *D = stopTimer(B, FN, FunctionTimer);
    if (Timed.count(&F))
      B.CreateStore(D, Last);
  };
  // Leaving loop P: entries, iterations (the header runs once more than the
  // body when a top-tested loop leaves from its test), time.
  auto leaveLoop = [&](IRBuilder<> &B, LoopPlan &P, bool FromHeader) {
    Value *It = B.CreateLoad(I64, P.Cnt);
    if (FromHeader)
      It = B.CreateSub(It, ConstantInt::get(I64, 1));
    add(B, P.Node, 3, It);
    if (P.Body) // body entries = iterations (the header is its only predecessor)
      B.CreateStore(B.CreateAdd(B.CreateLoad(I64, P.Body), It), P.Body);
    if (Nodes[P.Node].Flags & FlagUntimed) {
      add(B, P.Node, 0, ConstantInt::get(I64, 1));
      return;
    }
    auto load = [&](Value *A) {
      return A ? B.CreateLoad(cast<AllocaInst>(A)->getAllocatedType(), A) : nullptr;
    };
    stopTimer(B, P.Node, {load(P.Open.T0), load(P.Open.Saved), load(P.Open.Depth)});
  };

  for (CallPlan &P : Calls) {
    B.SetInsertPoint(P.CB);
    if (P.NoReturn) {
      // exit(), abort(), ...: count, then close every open timer.
      add(B, P.Node, 0, ConstantInt::get(I64, 1));
      for (int L : P.EnclosingLoops)
        leaveLoop(B, Loops[L], false);
      leaveFunction(B);
      continue;
    }
    if (Nodes[P.Node].Flags & FlagUntimed) {
      add(B, P.Node, 0, ConstantInt::get(I64, 1));
      continue;
    }
    if (Nodes[P.Node].Flags & FlagCalleeTimed) { // the callee's pair times the call
      B.SetInsertPoint(P.CB->getNextNode());
      add(B, P.Node, 1, B.CreateLoad(I64, Last));
      add(B, P.Node, 0, ConstantInt::get(I64, 1));
      continue;
    }
    Timer T = startTimer(B, P.Node);
    B.SetInsertPoint(P.CB->getNextNode());
    stopTimer(B, P.Node, T);
  }
  for (ReturnInst *R : Returns) {
    B.SetInsertPoint(R);
    leaveFunction(B);
  }
  // Loops: exits first, so that on a block that both leaves one loop and
  // enters the next the stop comes before the start.
  for (auto &[E, Ls] : Exits) {
    B.SetInsertPoint(edgePoint(E.first, E.second));
    for (int L : Ls)
      leaveLoop(B, Loops[L], E.first == Loops[L].L->getHeader() && Loops[L].Control == E.first);
  }
  for (LoopPlan &P : Loops) {
    for (BasicBlock *Pred : P.Entering) {
      B.SetInsertPoint(edgePoint(Pred, P.L->getHeader()));
      B.CreateStore(ConstantInt::get(I64, 0), P.Cnt);
      if (!(Nodes[P.Node].Flags & FlagUntimed)) {
        Timer T = startTimer(B, P.Node);
        B.CreateStore(T.T0, P.Open.T0);
        if (T.Saved)
          B.CreateStore(T.Saved, P.Open.Saved);
        if (T.Depth)
          B.CreateStore(T.Depth, P.Open.Depth);
      }
    }
    B.SetInsertPoint(&*P.L->getHeader()->getFirstInsertionPt());
    B.CreateStore(B.CreateAdd(B.CreateLoad(I64, P.Cnt), ConstantInt::get(I64, 1)), P.Cnt);
  }
  // A br's true arm: +1 on its edge, only when taken (one add instead of a
  // zero-extend and an add at every execution). Last, so that the loops'
  // edge code is in place: an edge split for it is now the arm's block.
  for (BranchPlan &P : Branches)
    if (onEdge(P.I)) {
      auto *Br = cast<BranchInst>(P.I);
      B.SetInsertPoint(edgePoint(Br->getParent(), Br->getSuccessor(0)));
      inc(P.Slots[1], ConstantInt::get(I64, 1));
    }
}

void Instrumenter::finish() {
  if (Nodes.empty()) {
    Mod->eraseFromParent();
    Block->eraseFromParent();
    Child->eraseFromParent();
    Last->eraseFromParent();
    return;
  }
  if (Last->use_empty())
    Last->eraseFromParent();
  if (Child->use_empty()) // no recursive function
    Child->eraseFromParent();
  StructType *NodeTy = StructType::get(
      Ctx, {I32, I32, I32, I32, I32, I32, I32, I32, I32, I32, Ptr, Ptr, Ptr});
  std::vector<Constant *> Descs;
  auto i32 = [&](int V) { return ConstantInt::get(I32, V); };
  for (const NodeDesc &D : Nodes)
    Descs.push_back(ConstantStruct::get(
        NodeTy, {i32(D.Kind), i32(D.Parent), i32(D.Start.Line), i32(D.Start.Col),
                 i32(D.End.Line), i32(D.End.Col), i32(D.Base), i32(D.NArms), i32(D.Flags),
                 i32(0), str(D.Name), str(D.Start.File), str(D.Labels)}));
  auto *TableTy = ArrayType::get(NodeTy, Descs.size());
  auto *Table = new GlobalVariable(M, TableTy, true, GlobalValue::PrivateLinkage,
                                   ConstantArray::get(TableTy, Descs), "segtime.ct.nodes");
  Constant *Null = ConstantPointerNull::get(Ptr);
  Mod->setInitializer(ConstantStruct::get(
      ModTy, {i32(Abi), i32(static_cast<int>(Nodes.size())), i32(NextSlot), i32(0), Table,
              str(M.getSourceFileName()), Null, Null}));

  FunctionCallee Register = M.getOrInsertFunction(
      "__segtime_ct_register", FunctionType::get(Type::getVoidTy(Ctx), {Ptr}, false));
  Function *Init = Function::Create(FunctionType::get(Type::getVoidTy(Ctx), false),
                                    GlobalValue::InternalLinkage, "segtime.ct.init", M);
  IRBuilder<> B(BasicBlock::Create(Ctx, "", Init));
  B.CreateCall(Register, {Mod});
  B.CreateRetVoid();
  appendToGlobalCtors(M, Init, 101);
}

} // namespace

PreservedAnalyses InstrumentPass::run(Module &M, ModuleAnalysisManager &MAM) {
  if (M.getNamedGlobal("segtime.ct.module"))
    report_fatal_error("segtime-instrument: module '" + M.getName() +
                       "' is already instrumented");
  auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  std::vector<Function *> Todo;
  for (Function &F : M)
    if (!F.isDeclaration() && !F.hasAvailableExternallyLinkage() &&
        (!Config.Functions || Config.Functions->count(F.getName().str())))
      Todo.push_back(&F);
  Instrumenter I(M, Config);
  I.Recursive = recursiveFunctions(M);
  for (Function &F : M) // before any function changes
    if (smallFunction(F, FAM))
      I.Small.insert(&F);
  for (Function *F : Todo)
    if (!I.Small.count(F) && !I.Recursive.count(F))
      I.Timed.insert(F);
  for (Function *F : Todo)
    I.function(*F, FAM.getResult<LoopAnalysis>(*F), FAM.getResult<TargetLibraryAnalysis>(*F));
  I.finish();
  if (Config.StripDebugInfo)
    StripDebugInfo(M);
  return PreservedAnalyses::none();
}

} // namespace segtime
