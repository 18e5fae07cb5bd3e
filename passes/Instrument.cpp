//===- Instrument.cpp - Component-timing instrumentation ------------------===//
///
/// \file
/// See Instrument.h. The node table and counter layout are the contract of
/// runtime/segtime_ct.h (ABI 5): per node four counter slots (count, ticks,
/// timed, iterations), for branches one slot per counted arm, for timed
/// nodes of recursive functions one more (exclusive ticks), in a
/// per-thread block that each function fetches from a thread-local pointer
/// on entry (the runtime allocates it on a thread's first entry). Here the
/// emission half of Instrumenter::function (the plan: InstrumentPlan.cpp),
/// the node table, and the pass.
///
//===----------------------------------------------------------------------===//
#include "passes/Instrument.h"
#include "passes/Instrumenter.h"

#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <functional>
#include <map>

using namespace llvm;

namespace segtime {
namespace ct {

Instrumenter::Instrumenter(Module &M, const InstrumentConfig &C)
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

GlobalVariable *Instrumenter::shortTicks() {
  if (!ShortTicks)
    ShortTicks = new GlobalVariable(M, I64, false, GlobalValue::ExternalLinkage, nullptr,
                                    "__segtime_ct_short_ticks");
  return ShortTicks;
}

void Instrumenter::add(Builder &B, int Node, int K, Value *V) {
  Value *P = B.CreateConstInBoundsGEP1_64(I64, Blk, Nodes[Node].Base + K);
  B.CreateStore(B.CreateAdd(B.CreateLoad(I64, P), V), P);
}

void Instrumenter::inc(Builder &B, AllocaInst *A, Value *By) {
  B.CreateStore(B.CreateAdd(B.CreateLoad(I64, A), By), A);
}

Value *Instrumenter::cycles(Builder &B) {
  if (Config.NoClock) // InstrumentConfig::NoClock: an opaque zero
    return B.CreateCall(InlineAsm::get(FunctionType::get(I64, false), "xorl ${0:k}, ${0:k}",
                                       "=r", /*hasSideEffects=*/true));
  return B.CreateIntrinsic(Intrinsic::readcyclecounter, {}, {});
}

Instrumenter::Timer Instrumenter::startTimer(Builder &B, int N) {
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

Value *Instrumenter::stopTimer(Builder &B, int N, const Timer &T) {
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

GlobalVariable *Instrumenter::depthVar(int N) {
  GlobalVariable *&G = Depths[N];
  if (!G)
    G = new GlobalVariable(M, I32, false, GlobalValue::InternalLinkage,
                           ConstantInt::get(I32, 0), "segtime.ct.depth", nullptr,
                           GlobalValue::GeneralDynamicTLSModel);
  return G;
}

Constant *Instrumenter::str(const std::string &S) {
  auto It = Strings.find(S);
  if (It != Strings.end())
    return It->second;
  auto *G = new GlobalVariable(M, ArrayType::get(Type::getInt8Ty(Ctx), S.size() + 1), true,
                               GlobalValue::PrivateLinkage,
                               ConstantDataArray::getString(Ctx, S), "segtime.ct.str");
  G->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  return Strings[S] = G;
}

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

namespace {

/// Whether a branch's true arm is counted on its edge (a two-way br).
bool onEdge(const Instruction *I) {
  auto *Br = dyn_cast<BranchInst>(I);
  return Br && Br->getSuccessor(0) != Br->getSuccessor(1);
}

} // namespace

void Instrumenter::function(Function &F, LoopInfo &LI, TargetLibraryInfo &TLI) {
  // ---- plan, before the CFG changes -------------------------------------
  FunctionPlan P{F, LI, TLI};
  planFunction(P);
  planLoops(P);
  planExits(P);
  planNodes(P);
  planExecutions(P);
  // ---- emit ---------------------------------------------------------------
  BasicBlock &Entry = F.getEntryBlock();
  Builder B(&Entry, Entry.begin());
  emitEntry(P, B);
  emitBranchCounters(P, B);
  emitCalls(P, B);
  for (ReturnInst *R : P.Returns) {
    B.SetInsertPoint(R);
    leaveFunction(P, B);
  }
  emitLoops(P, B);
  emitTrueArms(P, B);
}

/// Entry: our allocas with the others (SROA promotes entry-block allocas
/// only), then this thread's counter block, fetched once per thread, the
/// locals zeroed, and the function's timer started.
void Instrumenter::emitEntry(FunctionPlan &P, Builder &B) {
  BasicBlock &Entry = P.F.getEntryBlock();
  std::vector<AllocaInst *> Locals;
  auto local = [&](const char *Name) {
    Locals.push_back(B.CreateAlloca(I64, nullptr, Name));
    return Locals.back();
  };
  for (LoopPlan &LP : P.Loops) {
    LP.Cnt = local("segtime.iter");
    if (Nodes[LP.Node].Flags & FlagUntimed)
      continue;
    LP.Open.T0 = local("segtime.t0");
    if (Nodes[LP.Node].Flags & FlagRecursive)
      LP.Open.Saved = local("segtime.saved");
    if (Nodes[LP.Node].Flags & FlagReentrant) {
      Locals.push_back(B.CreateAlloca(I32, nullptr, "segtime.depth"));
      LP.Open.Depth = Locals.back();
    }
  }
  for (BranchPlan &BP : P.Branches) {
    for (size_t K = 0; K < BP.Slots.size(); ++K)
      if (K > 0 || BP.Exec.Kind == ExecSource::Own)
        BP.Slots[K] = local(K ? "segtime.arm" : "segtime.exec");
    if (BP.Exec.Kind == ExecSource::LoopBody && !P.Loops[BP.Exec.Ref].Body)
      P.Loops[BP.Exec.Ref].Body = local("segtime.body");
  }
  fetchBlock(P.F, B);
  for (LoopPlan &LP : P.Loops) // the entry block's code and terminator moved
    for (BasicBlock *&Pred : LP.Entering)
      if (Pred == &Entry)
        Pred = cast<PHINode>(Blk)->getParent();
  for (AllocaInst *A : Locals)
    B.CreateStore(Constant::getNullValue(A->getAllocatedType()), A);
  startFunctionTimer(P, B);
}

void Instrumenter::fetchBlock(Function &F, Builder &B) {
  BasicBlock &Entry = F.getEntryBlock();
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
}

void Instrumenter::startFunctionTimer(FunctionPlan &P, Builder &B) {
  if (P.Sampled) {
    // Timed unless calls are still to be skipped (slot 3 > 0: count down).
    Value *SkipP = B.CreateConstInBoundsGEP1_64(I64, Blk, Nodes[P.FN].Base + SlotSkip);
    Value *Skip = B.CreateLoad(I64, SkipP);
    P.Sample = B.CreateICmpEQ(Skip, ConstantInt::get(I64, 0));
    B.CreateStore(B.CreateSelect(P.Sample, Skip, B.CreateSub(Skip, ConstantInt::get(I64, 1))),
                  SkipP);
    BasicBlock *Head = B.GetInsertBlock();
    Instruction *Then = SplitBlockAndInsertIfThen(P.Sample, &*B.GetInsertPoint(), false);
    BasicBlock *Tail = Then->getSuccessor(0);
    B.SetInsertPoint(Then);
    Value *T0 = cycles(B);
    B.SetInsertPoint(Tail, Tail->getFirstInsertionPt());
    PHINode *T0Phi = B.CreatePHI(I64, 2);
    T0Phi->addIncoming(T0, Then->getParent());
    T0Phi->addIncoming(ConstantInt::get(I64, 0), Head);
    P.FunctionTimer.T0 = T0Phi;
    for (LoopPlan &LP : P.Loops) // the entry's code and terminator moved again
      for (BasicBlock *&Pred : LP.Entering)
        if (Pred == Head)
          Pred = Tail;
  } else if (!P.Untimed) {
    P.FunctionTimer = startTimer(B, P.FN);
  }
}

/// Branch counters: executions and counted arms, next to the decision; a
/// two-way br's true arm on its edge, after everything else (emitTrueArms).
void Instrumenter::emitBranchCounters(FunctionPlan &P, Builder &B) {
  for (BranchPlan &BP : P.Branches) {
    B.SetInsertPoint(BP.I);
    if (BP.Slots[0])
      inc(B, BP.Slots[0], ConstantInt::get(I64, 1));
    if (auto *Sw = dyn_cast<SwitchInst>(BP.I)) {
      int K = 1;
      for (auto &Case : Sw->cases())
        inc(B, BP.Slots[K++],
            B.CreateZExt(B.CreateICmpEQ(Sw->getCondition(), Case.getCaseValue()), I64));
    } else if (!onEdge(BP.I)) {
      Value *C = isa<BranchInst>(BP.I) ? cast<BranchInst>(BP.I)->getCondition()
                                       : BP.I->getOperand(0);
      inc(B, BP.Slots[1], B.CreateZExt(C, I64));
    }
  }
}

/// Adds each branch node's executions and counted arms of this activation
/// to its counters. (The locals are dead after it: no need to zero them.)
void Instrumenter::flushBranches(FunctionPlan &P, Builder &B) {
  std::map<int, Value *> Exec; // executions of branch plan i, this activation
  std::function<Value *(int)> execOf = [&](int I) -> Value * {
    Value *&V = Exec[I];
    if (V)
      return V;
    const BranchPlan &BP = P.Branches[I];
    switch (BP.Exec.Kind) {
    case ExecSource::Own:
      return V = B.CreateLoad(I64, BP.Slots[0]);
    case ExecSource::Same:
      return V = execOf(BP.Exec.Ref);
    case ExecSource::One:
      return V = ConstantInt::get(I64, 1);
    case ExecSource::TrueArm:
      return V = B.CreateLoad(I64, P.Branches[BP.Exec.Ref].Slots[1]);
    case ExecSource::FalseArm:
      return V = B.CreateSub(execOf(BP.Exec.Ref),
                             B.CreateLoad(I64, P.Branches[BP.Exec.Ref].Slots[1]));
    case ExecSource::LoopBody:
      return V = B.CreateLoad(I64, P.Loops[BP.Exec.Ref].Body);
    }
    llvm_unreachable("ExecSource kind");
  };
  for (size_t I = 0; I < P.Branches.size(); ++I) {
    BranchPlan &BP = P.Branches[I];
    add(B, BP.Node, 0, execOf(static_cast<int>(I)));
    for (size_t K = 1; K < BP.Slots.size(); ++K) {
      // Two-way: arm 0 (true) is slot 4; switch: case k is slot 4 + k.
      int Slot = FixedSlots + (isa<SwitchInst>(BP.I) ? static_cast<int>(K) : 0);
      add(B, BP.Node, Slot, B.CreateLoad(I64, BP.Slots[K]));
    }
  }
}

void Instrumenter::leaveFunction(FunctionPlan &P, Builder &B) {
  flushBranches(P, B);
  if (P.Untimed) {
    add(B, P.FN, 0, ConstantInt::get(I64, 1));
    return;
  }
  if (P.Sampled) {
    stopSampledTimer(P, B);
    return;
  }
  Value *D = stopTimer(B, P.FN, P.FunctionTimer);
  if (Timed.count(&P.F))
    B.CreateStore(D, Last);
}

/// A timed call: its pair's ticks; after a short one, skip the next
/// SkipAfterShort calls. A call not timed: the last timed call's ticks.
void Instrumenter::stopSampledTimer(FunctionPlan &P, Builder &B) {
  const int FN = P.FN;
  Instruction *At = &*B.GetInsertPoint();
  Value *Imputed = B.CreateLoad(
      I64, B.CreateConstInBoundsGEP1_64(I64, Blk, Nodes[FN].Base + SlotLastTimed));
  BasicBlock *Head = B.GetInsertBlock();
  Instruction *Then = SplitBlockAndInsertIfThen(P.Sample, At, false);
  B.SetInsertPoint(Then);
  Value *D = B.CreateSub(cycles(B), P.FunctionTimer.T0);
  add(B, FN, SlotPairs, ConstantInt::get(I64, 1));
  B.CreateStore(D, B.CreateConstInBoundsGEP1_64(I64, Blk, Nodes[FN].Base + SlotLastTimed));
  Value *Short = B.CreateICmpULT(D, B.CreateLoad(I64, shortTicks()));
  // (Two instructions made in sequence, not as arguments of one call,
  // whose order of evaluation differs between compilers.)
  Value *SkipP = B.CreateConstInBoundsGEP1_64(I64, Blk, Nodes[FN].Base + SlotSkip);
  B.CreateStore(
      B.CreateSelect(Short, ConstantInt::get(I64, SkipAfterShort), ConstantInt::get(I64, 0)),
      SkipP);
  B.SetInsertPoint(At);
  PHINode *V = B.CreatePHI(I64, 2);
  V->addIncoming(D, Then->getParent());
  V->addIncoming(Imputed, Head);
  add(B, FN, 1, V);
  add(B, FN, 0, ConstantInt::get(I64, 1));
  B.CreateStore(V, Last);
}

void Instrumenter::leaveLoop(Builder &B, LoopPlan &LP, bool FromHeader) {
  Value *It = B.CreateLoad(I64, LP.Cnt);
  if (FromHeader)
    It = B.CreateSub(It, ConstantInt::get(I64, 1));
  add(B, LP.Node, 3, It);
  if (LP.Body) // body entries = iterations (the header is its only predecessor)
    B.CreateStore(B.CreateAdd(B.CreateLoad(I64, LP.Body), It), LP.Body);
  if (Nodes[LP.Node].Flags & FlagUntimed) {
    add(B, LP.Node, 0, ConstantInt::get(I64, 1));
    return;
  }
  auto load = [&](Value *A) {
    return A ? B.CreateLoad(cast<AllocaInst>(A)->getAllocatedType(), A) : nullptr;
  };
  stopTimer(B, LP.Node, {load(LP.Open.T0), load(LP.Open.Saved), load(LP.Open.Depth)});
}

void Instrumenter::emitCalls(FunctionPlan &P, Builder &B) {
  for (CallPlan &C : P.Calls) {
    B.SetInsertPoint(C.CB);
    if (C.NoReturn) {
      // exit(), abort(), ...: count, then close every open timer.
      add(B, C.Node, 0, ConstantInt::get(I64, 1));
      for (int L : C.EnclosingLoops)
        leaveLoop(B, P.Loops[L], false);
      leaveFunction(P, B);
      continue;
    }
    if (Nodes[C.Node].Flags & FlagUntimed) {
      add(B, C.Node, 0, ConstantInt::get(I64, 1));
      continue;
    }
    if (Nodes[C.Node].Flags & FlagCalleeTimed) { // the callee's pair times the call
      B.SetInsertPoint(C.CB->getNextNode());
      add(B, C.Node, 1, B.CreateLoad(I64, Last));
      add(B, C.Node, 0, ConstantInt::get(I64, 1));
      continue;
    }
    Timer T = startTimer(B, C.Node);
    B.SetInsertPoint(C.CB->getNextNode());
    stopTimer(B, C.Node, T);
  }
}

/// Loops: exits first, so that on a block that both leaves one loop and
/// enters the next the stop comes before the start.
void Instrumenter::emitLoops(FunctionPlan &P, Builder &B) {
  for (auto &[E, Ls] : P.Exits) {
    B.SetInsertPoint(edgePoint(E.first, E.second));
    for (int L : Ls)
      leaveLoop(B, P.Loops[L],
                E.first == P.Loops[L].L->getHeader() && P.Loops[L].Control == E.first);
  }
  for (LoopPlan &LP : P.Loops) {
    for (BasicBlock *Pred : LP.Entering) {
      B.SetInsertPoint(edgePoint(Pred, LP.L->getHeader()));
      B.CreateStore(ConstantInt::get(I64, 0), LP.Cnt);
      if (!(Nodes[LP.Node].Flags & FlagUntimed)) {
        Timer T = startTimer(B, LP.Node);
        B.CreateStore(T.T0, LP.Open.T0);
        if (T.Saved)
          B.CreateStore(T.Saved, LP.Open.Saved);
        if (T.Depth)
          B.CreateStore(T.Depth, LP.Open.Depth);
      }
    }
    B.SetInsertPoint(&*LP.L->getHeader()->getFirstInsertionPt());
    B.CreateStore(B.CreateAdd(B.CreateLoad(I64, LP.Cnt), ConstantInt::get(I64, 1)), LP.Cnt);
  }
}

/// A br's true arm: +1 on its edge, only when taken (one add instead of a
/// zero-extend and an add at every execution). Last, so that the loops'
/// edge code is in place: an edge split for it is now the arm's block.
void Instrumenter::emitTrueArms(FunctionPlan &P, Builder &B) {
  for (BranchPlan &BP : P.Branches)
    if (onEdge(BP.I)) {
      auto *Br = cast<BranchInst>(BP.I);
      B.SetInsertPoint(edgePoint(Br->getParent(), Br->getSuccessor(0)));
      inc(B, BP.Slots[1], ConstantInt::get(I64, 1));
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
                 i32(D.Copy), str(D.Name), str(D.Start.File), str(D.Labels)}));
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


} // namespace ct

using namespace ct;

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
    if (Config.Late)
      I.lateFunction(*F, FAM.getResult<LoopAnalysis>(*F));
    else
      I.function(*F, FAM.getResult<LoopAnalysis>(*F), FAM.getResult<TargetLibraryAnalysis>(*F));
  I.finish();
  if (Config.StripDebugInfo)
    StripDebugInfo(M);
  return PreservedAnalyses::none();
}

} // namespace segtime
