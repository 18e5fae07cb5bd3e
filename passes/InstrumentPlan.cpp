//===- InstrumentPlan.cpp - CT: what to instrument in a function ----------===//
///
/// \file
/// The planning half of Instrumenter::function (Instrumenter.h), done
/// before the CFG changes: the function's node and flags, its loops (timed
/// or only counted, their entering blocks and exit edges), its calls and
/// branches in instruction order, and where each branch node's executions
/// come from (its own counter or flow conservation).
///
//===----------------------------------------------------------------------===//
#include "passes/Instrumenter.h"

#include "llvm/ADT/DepthFirstIterator.h"
#include "llvm/ADT/SCCIterator.h"
#include "llvm/Analysis/CallGraph.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

#include <functional>
#include <optional>

using namespace llvm;

namespace segtime {
namespace ct {

Loc locOf(const DebugLoc &DL) {
  Loc L;
  if (DILocation *D = DL.get()) {
    L.File = D->getFilename().str();
    L.Line = D->getLine();
    L.Col = D->getColumn();
  }
  return L;
}

Loc firstLocIn(const BasicBlock *B) {
  for (const Instruction &I : *B)
    if (I.getDebugLoc())
      return locOf(I.getDebugLoc());
  return {};
}

namespace {

/// The block holding the loop's own test: the latch of a bottom-tested
/// loop (do-while), else the header if it can leave the loop (for, while);
/// null for loops left only by break/return/goto (for(;;)).
const BasicBlock *controlBlock(const Loop &L) {
  const BasicBlock *Latch = L.getLoopLatch();
  if (Latch && Latch != L.getHeader() && L.isLoopExiting(Latch))
    return Latch;
  return L.isLoopExiting(L.getHeader()) ? L.getHeader() : nullptr;
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

} // namespace

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

bool smallFunction(Function &F, FunctionAnalysisManager &FAM) {
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

bool Instrumenter::reenters(const FunctionPlan &P, const CallBase &CB) const {
  const Function *C = CB.getCalledFunction();
  auto It = C ? Recursive.find(C) : Recursive.end();
  return P.IsRecursive && It != Recursive.end() && It->second == P.Cycle;
}

int Instrumenter::parentOf(const FunctionPlan &P, const BasicBlock *B) const {
  const Loop *L = P.LI.getLoopFor(B);
  return L ? P.Loops[P.LoopIndex.at(L)].Node : P.FN;
}

void Instrumenter::planFunction(FunctionPlan &P) {
  NodeDesc &FD = P.FD;
  FD.Kind = KFunction;
  FD.Name = sourceName(P.F.getName());
  if (DISubprogram *SP = P.F.getSubprogram()) {
    FD.Start.File = SP->getFilename().str();
    FD.Start.Line = SP->getLine();
  }
  auto Cycle = Recursive.find(&P.F);
  P.IsRecursive = Cycle != Recursive.end();
  if (P.IsRecursive)
    P.Cycle = Cycle->second;
  FD.Flags = P.IsRecursive ? FlagRecursive | FlagReentrant : 0;
  P.Untimed = Small.count(&P.F) && !P.IsRecursive;
  if (P.Untimed)
    FD.Flags |= FlagUntimed;
  // Timed functions (non-recursive, not small) skip the timer after short
  // calls (segtime_ct.h, FlagSampled).
  P.Sampled = Timed.count(&P.F) != 0;
  if (P.Sampled)
    FD.Flags |= FlagSampled;
  P.FN = addNode(FD);
}

void Instrumenter::planLoops(FunctionPlan &P) {
  for (Loop *L : P.LI.getLoopsInPreorder()) {
    NodeDesc D;
    D.Kind = KLoop;
    Loop::LocRange R = L->getLocRange();
    D.Start = locOf(R.getStart());
    D.End = locOf(R.getEnd());
    D.Parent = L->getParentLoop() ? P.Loops[P.LoopIndex[L->getParentLoop()]].Node : P.FN;
    // Innermost loops without calls are counted, not timed unless asked: a
    // timer pair around a short latency-bound loop stops the core
    // overlapping it with the next one (matmul -O2: 1.3x slower).
    bool Leaf = L->isInnermost() && !Config.TimeInnermostLoops, Reentrant = false;
    for (BasicBlock *LB : L->blocks())
      for (Instruction &I : *LB)
        if (auto *CB = dyn_cast<CallBase>(&I); CB && instrumentedCall(*CB, P.TLI)) {
          Leaf = false; // a loop around calls is timed
          Reentrant |= reenters(P, *CB);
        }
    D.Flags = (P.FD.Flags & FlagRecursive) | (Leaf ? FlagUntimed : 0) |
              (Reentrant ? FlagReentrant : 0);
    P.LoopIndex[L] = static_cast<int>(P.Loops.size());
    LoopPlan LP{L, addNode(D), nullptr, nullptr, {}, {}, controlBlock(*L)};
    for (BasicBlock *Pred : predecessors(L->getHeader()))
      if (!L->contains(Pred))
        LP.Entering.push_back(Pred);
    P.Loops.push_back(std::move(LP));
  }
}

void Instrumenter::planExits(FunctionPlan &P) {
  for (int I = static_cast<int>(P.Loops.size()) - 1; I >= 0; --I) {
    SmallVector<Loop::Edge, 4> Edges;
    P.Loops[I].L->getExitEdges(Edges);
    for (auto &[From, To] : Edges)
      P.Exits[{const_cast<BasicBlock *>(From), const_cast<BasicBlock *>(To)}].push_back(I);
  }
  for (auto &[E, Ls] : P.Exits)
    std::sort(Ls.begin(), Ls.end(), [&](int A, int B) {
      return P.Loops[A].L->getLoopDepth() > P.Loops[B].L->getLoopDepth();
    });
}

void Instrumenter::planNodes(FunctionPlan &P) {
  for (BasicBlock &B : P.F)
    for (Instruction &I : B) {
      if (auto *R = dyn_cast<ReturnInst>(&I))
        P.Returns.push_back(R);
      else if (auto *CB = dyn_cast<CallBase>(&I))
        planCall(P, *CB, B);
      else if (isa<BranchInst>(I) || isa<SwitchInst>(I) || isa<SelectInst>(I))
        planBranch(P, I, B);
    }
}

void Instrumenter::planCall(FunctionPlan &P, CallBase &CB, BasicBlock &B) {
  if (!instrumentedCall(CB, P.TLI))
    return;
  Function *Callee = CB.getCalledFunction();
  NodeDesc D;
  D.Kind = KCall;
  D.Start = locOf(CB.getDebugLoc());
  D.Parent = parentOf(P, &B);
  D.Name = Callee ? sourceName(Callee->getName()) : "";
  D.Flags = (P.FD.Flags & FlagRecursive) | (CB.doesNotReturn() ? FlagNoReturn : 0) |
            (Callee && Small.count(Callee) ? FlagUntimed : 0) |
            (reenters(P, CB) ? FlagReentrant : 0) |
            (!P.IsRecursive && Callee && Timed.count(Callee) && !CB.doesNotReturn()
                 ? FlagCalleeTimed
                 : 0);
  CallPlan C{&CB, addNode(D), CB.doesNotReturn(), {}};
  for (const Loop *L = P.LI.getLoopFor(&B); L; L = L->getParentLoop())
    C.EnclosingLoops.push_back(P.LoopIndex[L]);
  P.Calls.push_back(std::move(C));
}

void Instrumenter::planBranch(FunctionPlan &P, Instruction &I, BasicBlock &B) {
  NodeDesc D;
  D.Kind = KBranch;
  D.Start = locOf(I.getDebugLoc());
  D.Parent = parentOf(P, &B);
  std::vector<std::pair<std::string, const BasicBlock *>> Arms;
  if (auto *Br = dyn_cast<BranchInst>(&I)) {
    if (!Br->isConditional())
      return;
    const Loop *L = P.LI.getLoopFor(&B);
    if (L && controlBlock(*L) == &B)
      return; // the loop's own test: counted as iterations
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
      return; // vector selects
    D.Name = "select";
    Arms = {{"true", nullptr}, {"false", nullptr}};
  }
  for (auto &[Label, Target] : Arms) {
    Loc T = Target ? firstLocIn(Target) : Loc();
    D.Labels += (D.Labels.empty() ? "" : "\n") + Label + "@" + std::to_string(T.Line) + ":" +
                std::to_string(T.Col);
  }
  D.NArms = static_cast<int>(Arms.size());
  int Counted = D.Name == "switch" ? D.NArms - 1 : 1;
  int N = addNode(D);
  P.Branches.push_back({&I, N, std::vector<AllocaInst *>(1 + Counted, nullptr), {}});
}

/// Executions of each branch node (ExecSource): the first node of a block
/// gets the block's count, the others share it. Only blocks reachable from
/// the entry: a chain of single predecessors then ends at the entry or a
/// join, never in a cycle.
void Instrumenter::planExecutions(FunctionPlan &P) {
  std::map<const BasicBlock *, int> TermBranch, FirstInBlock;
  for (size_t I = 0; I < P.Branches.size(); ++I)
    if (isa<BranchInst>(P.Branches[I].I))
      TermBranch[P.Branches[I].I->getParent()] = static_cast<int>(I);
  SmallPtrSet<const BasicBlock *, 32> Reachable;
  for (const BasicBlock *BB : depth_first(&P.F.getEntryBlock()))
    Reachable.insert(BB);
  std::function<std::optional<ExecSource>(const BasicBlock *)> derive =
      [&](const BasicBlock *BB) -> std::optional<ExecSource> {
    if (BB->isEntryBlock())
      return ExecSource{ExecSource::One, -1};
    const BasicBlock *Pred = BB->getSinglePredecessor();
    auto *Br = Pred ? dyn_cast<BranchInst>(Pred->getTerminator()) : nullptr;
    if (!Br)
      return std::nullopt;
    if (!Br->isConditional())
      return derive(Pred);
    if (Br->getSuccessor(0) == Br->getSuccessor(1))
      return std::nullopt;
    const Loop *L = P.LI.getLoopFor(Pred);
    if (L && controlBlock(*L) == Pred) // not a branch node
      return L->getHeader() == Pred && L->contains(BB)
                 ? std::optional<ExecSource>({ExecSource::LoopBody, P.LoopIndex[L]})
                 : std::nullopt;
    auto It = TermBranch.find(Pred);
    if (It == TermBranch.end())
      return std::nullopt;
    return ExecSource{Br->getSuccessor(0) == BB ? ExecSource::TrueArm : ExecSource::FalseArm,
                      It->second};
  };
  for (size_t I = 0; I < P.Branches.size(); ++I) {
    const BasicBlock *BB = P.Branches[I].I->getParent();
    auto [First, New] = FirstInBlock.emplace(BB, static_cast<int>(I));
    if (!New)
      P.Branches[I].Exec = {ExecSource::Same, First->second};
    else if (Reachable.count(BB))
      if (auto S = derive(BB))
        P.Branches[I].Exec = *S;
  }
}

} // namespace ct
} // namespace segtime
