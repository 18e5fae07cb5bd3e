//===- IccBlocks.cpp - ICC: machine blocks recorded and attributed --------===//
///
/// \file
/// See IccBlocks.h: which IR block each machine basic block of a code
/// generation counts for (collectBlocks, exitTarget), the per-function
/// costing once the AsmPrinter has emitted the function (FunctionCosting:
/// the assembler's layout padding, loop-exit jumps, BlockCoster::cost), and
/// the RUVs handed on (addResults, addEmptyBlocks).
///
//===----------------------------------------------------------------------===//
#include "passes/IccBlocks.h"
#include "passes/IRDataCompare.h"
#include "passes/IRSeg.h"
#include "passes/IccBlockCoster.h"
#include "passes/Timing.h"

#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineLoopInfo.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Instructions.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCFixup.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace segtime {
namespace icc {

/// The blocks of F, in order.
std::vector<const BasicBlock *> blocksOf(const Function *F) {
  std::vector<const BasicBlock *> Blocks;
  for (const BasicBlock &B : *F)
    Blocks.push_back(&B);
  return Blocks;
}

/// If machine block MBB, whose only predecessor is P, lies outside a loop
/// that contains P: the one block of the costed module (OrigOf) that P's IR
/// block leaves the loop to -- through blocks of code generation's own with
/// one successor (a split exit edge) -- i.e. the block the loop exits to;
/// nullptr otherwise.
static const BasicBlock *
exitTarget(const Recording &R, const MachineLoopInfo &MLI, const MachineBasicBlock &P,
           const MachineBasicBlock &MBB,
           function_ref<const BasicBlock *(const BasicBlock *)> OrigOf) {
  const MachineLoop *L = MLI.getLoopFor(&P);
  const BasicBlock *From = P.getBasicBlock();
  if (!L || L->contains(&MBB) || !From)
    return nullptr;
  SmallPtrSet<const BasicBlock *, 8> InLoop;
  for (const MachineBasicBlock *X : L->blocks())
    if (const BasicBlock *O = R.Blocks[R.MBBIndex.lookup(X)].Orig)
      InLoop.insert(O);
  const BasicBlock *Out = nullptr;
  for (const BasicBlock *S : successors(From)) {
    const BasicBlock *O = OrigOf(S);
    for (int Hops = 0; !O && Hops < 4 && S->getSingleSuccessor(); ++Hops) {
      S = S->getSingleSuccessor();
      O = OrigOf(S);
    }
    if (!O || InLoop.count(O) || O == Out)
      continue;
    if (Out)
      return nullptr; // two ways out: not decided here
    Out = O;
  }
  return Out;
}

/// If BB ends in a conditional branch on a logical and/or of two
/// conditions (`if (a && b)`, a vectorised loop's check that two ranges
/// overlap), which code generation may split into two jumps, the second
/// test run only when the first does not decide: "and" or "or"; else null.
static const char *branchLogicalOp(const BasicBlock *BB) {
  const auto *Br = BB ? dyn_cast<BranchInst>(BB->getTerminator()) : nullptr;
  return Br && Br->isConditional() ? logicalBranchOp(Br->getCondition()).second : nullptr;
}

/// Whether the condition of select Sel is true when an x86 conditional
/// jump on condition code CC (X86::CondCode's encoding, the hardware's)
/// is taken: an integer or floating-point ordering comparison is strict
/// (<, >) or not (<=, >=) whichever operand order or inversion
/// instruction selection chose, so the jump's condition, of the same
/// signedness, is the select's condition where its strictness is the
/// same and its negation where it is not; an equality comparison likewise
/// (E, NE). nullopt for other conditions, and for comparisons with a
/// constant (instruction selection may turn x < 5 into x <= 4).
static std::optional<bool> x86JumpMeansTrue(unsigned CC, const SelectInst &Sel) {
  enum { B = 2, AE = 3, E = 4, NE = 5, BE = 6, A = 7, L = 12, GE = 13, LE = 14, G = 15 };
  const auto *Cmp = dyn_cast<CmpInst>(Sel.getCondition());
  if (!Cmp || isa<Constant>(Cmp->getOperand(0)) || isa<Constant>(Cmp->getOperand(1)))
    return std::nullopt;
  CmpInst::Predicate P = Cmp->getPredicate();
  if (P == CmpInst::ICMP_EQ || P == CmpInst::ICMP_NE) {
    if (CC != E && CC != NE)
      return std::nullopt;
    return (CC == E) == (P == CmpInst::ICMP_EQ);
  }
  bool Strict, Signed = false;
  switch (P) {
  case CmpInst::ICMP_SLT: case CmpInst::ICMP_SGT:
    Signed = true; Strict = true; break;
  case CmpInst::ICMP_SLE: case CmpInst::ICMP_SGE:
    Signed = true; Strict = false; break;
  case CmpInst::ICMP_ULT: case CmpInst::ICMP_UGT: case CmpInst::FCMP_OLT:
  case CmpInst::FCMP_OGT: case CmpInst::FCMP_ULT: case CmpInst::FCMP_UGT:
    Strict = true; break;
  case CmpInst::ICMP_ULE: case CmpInst::ICMP_UGE: case CmpInst::FCMP_OLE:
  case CmpInst::FCMP_OGE: case CmpInst::FCMP_ULE: case CmpInst::FCMP_UGE:
    Strict = false; break;
  default:
    return std::nullopt;
  }
  bool JStrict, JSigned;
  switch (CC) {
  case L: case G: JSigned = true; JStrict = true; break;
  case LE: case GE: JSigned = true; JStrict = false; break;
  case B: case A: JSigned = false; JStrict = true; break;
  case BE: case AE: JSigned = false; JStrict = false; break;
  default:
    return std::nullopt;
  }
  if (JSigned != Signed)
    return std::nullopt;
  return JStrict == Strict;
}

/// Side S of the select that x86 machine block M's conditional jump was
/// made from (cmov conversion: M jumps over S, or to S): whether S runs
/// when the condition of the selects of M's IR block is true
/// (x86JumpMeansTrue, the same for each of them: several selects of one
/// block, e.g. copies made by unrolling, cannot be told apart here);
/// nullopt if not known (then the side keeps the estimated share 1/2).
static std::optional<bool> selectArm(const MachineBasicBlock &M, const MachineBasicBlock &S) {
  const MachineFunction &MF = *M.getParent();
  const BasicBlock *BB = M.getBasicBlock();
  if (!BB || !MF.getTarget().getTargetTriple().isX86())
    return std::nullopt;
  const TargetInstrInfo &TII = *MF.getSubtarget().getInstrInfo();
  MachineBasicBlock *TBB = nullptr, *FBB = nullptr;
  SmallVector<MachineOperand, 4> Cond;
  if (TII.analyzeBranch(const_cast<MachineBasicBlock &>(M), TBB, FBB, Cond,
                        /*AllowModify=*/false) ||
      Cond.size() != 1 || !Cond[0].isImm() || !TBB)
    return std::nullopt;
  bool TakenToS = TBB == &S;
  if (!TakenToS && FBB && FBB != &S && !M.isLayoutSuccessor(&S))
    return std::nullopt;
  std::optional<bool> Side;
  for (const Instruction &I : *BB)
    if (const auto *Sel = dyn_cast<SelectInst>(&I); Sel && !Sel->getType()->isVectorTy()) {
      auto T = x86JumpMeansTrue(unsigned(Cond[0].getImm()), *Sel);
      if (!T || (Side && *Side != (*T == TakenToS)))
        return std::nullopt;
      Side = *T == TakenToS;
    }
  return Side;
}

/// The machine blocks of each IR block's code (same Orig, not on an IR
/// edge) that run only on one side of a select made into a branch (x86
/// cmov conversion; a search step's two updates as two tails of its loop,
/// bsearch's lo = mid + 1 or hi = mid) or after the first of the jumps a
/// branch on `a && b` / `a || b` is split into (the second test):
/// their SelectShare, from the share 1 at the code's entries (a block
/// entered from another IR block's code, a loop header, the function
/// entry), halved on each side of a conditional jump between two blocks of
/// the same code (the select's outcome is data: 1/2 each way, estimated),
/// halved on the side of a split branch's first jump that stays in the code
/// (whether the first test decides is data: 1/2, estimated), summed where
/// the sides meet again (at most 1). A second test entered only from a
/// first jump that runs whenever its code does is marked instead
/// (BlockRecord::SecondTest, share 1): the probability of its first test
/// runs it (secondTestProbability). Back edges (into a loop header) carry
/// nothing; code whose blocks form a cycle otherwise keeps the share 1.
static void selectShares(Recording &R, MachineFunction &MF, const MachineLoopInfo &MLI,
                         unsigned First) {
  DenseMap<const MachineBasicBlock *, unsigned> &Index = R.MBBIndex;
  auto Code = [&](const MachineBasicBlock *M) -> const BasicBlock * {
    const BlockRecord &B = R.Blocks[Index.lookup(M)];
    return B.EdgeTo ? nullptr : B.Orig;
  };
  auto Entry = [&](const MachineBasicBlock &M) {
    return M.pred_empty() || MLI.isLoopHeader(&M) ||
           llvm::any_of(M.predecessors(),
                        [&](const MachineBasicBlock *P) { return Code(P) != Code(&M); });
  };
  auto Inner = [&](const MachineBasicBlock *From, const MachineBasicBlock *To) {
    return Code(To) && Code(To) == Code(From) && !Entry(*To);
  };
  // The first jump of a split branch: two successors, one in the same
  // code (the second test), one in another block's code.
  auto FirstOfSplit = [&](const MachineBasicBlock &M) {
    if (M.succ_size() != 2 || !branchLogicalOp(Code(&M)) ||
        llvm::none_of(M.terminators(),
                      [](const MachineInstr &MI) { return MI.isConditionalBranch(); }))
      return false;
    const MachineBasicBlock *A = *M.succ_begin(), *B = *std::next(M.succ_begin());
    return (Inner(&M, A) && Code(B) != Code(&M)) || (Inner(&M, B) && Code(A) != Code(&M));
  };
  // Only code with a select jump or a split branch changes anything.
  std::set<const BasicBlock *> WithSelect;
  for (MachineBasicBlock &M : MF)
    if (Code(&M) && (R.Blocks[Index[&M]].SelectJumps || FirstOfSplit(M)))
      WithSelect.insert(Code(&M));
  if (WithSelect.empty())
    return;
  // Kahn's order over the edges within one IR block's code (not into an
  // entry).
  DenseMap<const MachineBasicBlock *, unsigned> Waiting;
  std::vector<MachineBasicBlock *> Ready;
  std::map<const MachineBasicBlock *, double> Share;
  for (MachineBasicBlock &M : MF) {
    if (!WithSelect.count(Code(&M)))
      continue;
    if (Entry(M)) {
      Share[&M] = 1;
      Ready.push_back(&M);
    }
    for (MachineBasicBlock *S : M.successors())
      if (Inner(&M, S))
        ++Waiting[S];
  }
  size_t Done = 0;
  while (!Ready.empty()) {
    MachineBasicBlock *M = Ready.back();
    Ready.pop_back();
    ++Done;
    double Mine = std::min(Share[M], 1.0);
    Share[M] = Mine;
    SmallVector<MachineBasicBlock *, 2> In;
    for (MachineBasicBlock *S : M->successors())
      if (Inner(M, S))
        In.push_back(S);
    bool Split = (R.Blocks[Index[M]].SelectJumps && In.size() == 2 && In[0] != In[1]) ||
                 (In.size() == 1 && FirstOfSplit(*M));
    for (MachineBasicBlock *S : In) {
      Share[S] += Split ? Mine / 2 : Mine;
      if (--Waiting[S] == 0)
        Ready.push_back(S);
    }
  }
  size_t Blocks = 0;
  for (MachineBasicBlock &M : MF)
    Blocks += WithSelect.count(Code(&M));
  if (Done != Blocks) // a cycle within the code: shares unknown
    return;
  for (auto &[M, S] : Share)
    if (Index.lookup(M) >= First)
      R.Blocks[Index.lookup(M)].SelectShare = S;
  // A side entered only from a select jump, or a second test entered only
  // from the first jump, in code that runs whenever its IR block does: its
  // named probability instead of the 1/2 (selectArm, secondTestProbability).
  for (auto &[M, S] : Share) {
    BlockRecord &B = R.Blocks[Index.lookup(M)];
    if (Index.lookup(M) < First || S != 0.5 || M->pred_size() != 1)
      continue;
    const MachineBasicBlock *P = *M->pred_begin();
    auto PS = Share.find(P);
    if (PS == Share.end() || PS->second != 1)
      continue;
    if (R.Blocks[Index.lookup(P)].SelectJumps) {
      if (auto Side = selectArm(*P, *M)) {
        B.Arm = true;
        B.ArmTrue = *Side;
        B.SelectShare = 1;
      }
    } else if (FirstOfSplit(*P)) {
      B.Arm = B.SecondTest = true;
      // `a && b` tests b when a is true, `a || b` when a is false.
      B.ArmTrue = StringRef(branchLogicalOp(Code(P))) == "and";
      B.SelectShare = 1;
    }
  }
}

/// If machine block MBB, a block of code generation's own with several
/// successors (tests duplicated into it: a vectorised loop's "too few
/// iterations" side, which goes on to the remainder's tests), is one side
/// of its only predecessor P's conditional jump: the IR edge it lies on,
/// from P's IR block to the one of its two successors that the other side
/// does not lead to (the other side followed through blocks of code
/// generation's own with one successor, the IR through blocks with one
/// successor); nullptr if that is not clear.
static const BasicBlock *
otherSide(const Recording &R, const MachineBasicBlock &P, const MachineBasicBlock &MBB,
          function_ref<const BasicBlock *(const BasicBlock *)> OrigOf) {
  const BlockRecord &PR = R.Blocks[R.MBBIndex.lookup(&P)];
  const BasicBlock *From = P.getBasicBlock();
  if (PR.Inherited || !PR.Orig || !From || P.succ_size() != 2)
    return nullptr;
  const MachineBasicBlock *Other = *P.succ_begin() == &MBB ? *std::next(P.succ_begin())
                                                           : *P.succ_begin();
  if (Other == &MBB)
    return nullptr;
  for (int Hops = 0; Hops < 4 && R.Blocks[R.MBBIndex.lookup(Other)].Inherited &&
                     Other->succ_size() == 1;
       ++Hops)
    Other = *Other->succ_begin();
  const BlockRecord &OR = R.Blocks[R.MBBIndex.lookup(Other)];
  if (OR.Inherited || !OR.Orig || OR.Orig == PR.Orig)
    return nullptr;
  const BasicBlock *Taken = nullptr, *Left = nullptr;
  unsigned N = 0;
  for (const BasicBlock *S : successors(From)) {
    ++N;
    const BasicBlock *X = S;
    const BasicBlock *O = OrigOf(X);
    for (int Hops = 0; O != OR.Orig && Hops < 4 && X->getSingleSuccessor(); ++Hops) {
      X = X->getSingleSuccessor();
      O = OrigOf(X);
    }
    if (O != OR.Orig)
      Left = S;
    else if (Taken)
      return nullptr;
    else
      Taken = S;
  }
  if (N != 2 || !Taken || !Left)
    return nullptr;
  return OrigOf(Left);
}

void collectBlocks(Recording &R, MachineFunction &MF, const MachineLoopInfo &MLI,
                   const Function *OrigFn,
                   function_ref<const BasicBlock *(const BasicBlock *)> OrigOf,
                   function_ref<std::vector<const BasicBlock *>(const Function *)> BlocksOf,
                   bool ForceLabels) {
  if (OrigFn)
    R.CompiledFunctions.insert(OrigFn);
  DenseMap<const MachineBasicBlock *, unsigned> &Index = R.MBBIndex;
  Index.clear();
  unsigned First = R.Blocks.size();
  for (MachineBasicBlock &MBB : MF) {
    BlockRecord B;
    B.OrigFn = OrigFn;
    B.InLoop = MLI.getLoopFor(&MBB) != nullptr;
    B.Number = MBB.getNumber();
    B.Alignment = MBB.getAlignment();
    B.AlignMaxBytes = MBB.getMaxBytesForAlignment();
    B.FallsThrough = MBB.canFallThrough();
    B.CondFallThrough =
        B.FallsThrough && MBB.getFirstTerminator() != MBB.end();
    if (const BasicBlock *BB = MBB.getBasicBlock())
      B.Orig = OrigOf(BB);
    unsigned I = R.Blocks.size();
    Index[&MBB] = I;
    R.Blocks.push_back(std::move(B));
    if (ForceLabels && !MBB.pred_empty())
      MBB.setLabelMustBeEmitted();
    R.BlockOfLabel[MBB.getSymbol()] = I;
  }
  // An IR block's branch is still a branch if one of the block's own
  // machine blocks ends in a conditional jump to another block's code.
  for (MachineBasicBlock &MBB : MF) {
    const BlockRecord &B = R.Blocks[Index[&MBB]];
    if (!B.Orig)
      continue;
    bool Cond = llvm::any_of(MBB.terminators(), [](const MachineInstr &MI) {
      return MI.isConditionalBranch();
    });
    bool Leaves = llvm::any_of(MBB.successors(), [&](MachineBasicBlock *S) {
      return R.Blocks[Index[S]].Orig != B.Orig;
    });
    if (Cond && Leaves)
      R.CondJumps.insert(B.Orig);
    // A select made into a branch jumps within the IR block's own code.
    unsigned Selects = 0;
    for (const MachineInstr &MI : MBB.terminators())
      if (MI.isConditionalBranch())
        for (const MachineOperand &Op : MI.operands())
          if (Op.isMBB() && Op.getMBB() != &MBB && !MLI.isLoopHeader(Op.getMBB()) &&
              R.Blocks[Index[Op.getMBB()]].Orig == B.Orig)
            ++Selects;
    R.Blocks[Index[&MBB]].SelectJumps = Selects;
  }
  // Blocks made by code generation (split critical edges, blocks new in
  // the codegen IR passes) belong to their only predecessor, else to the
  // block before them in the layout.
  for (MachineBasicBlock &MBB : MF)
    R.Blocks[Index[&MBB]].Inherited = !R.Blocks[Index[&MBB]].Orig;
  for (MachineBasicBlock &MBB : MF) {
    BlockRecord &B = R.Blocks[Index[&MBB]];
    if (!B.Inherited)
      continue;
    if (MBB.pred_size() == 1 && MBB.succ_size() == 1) {
      const BlockRecord &P = R.Blocks[Index[*MBB.pred_begin()]];
      const BlockRecord &S = R.Blocks[Index[*MBB.succ_begin()]];
      // Also on an edge that leaves a loop (e.g. the restore of
      // callee-saved registers that shrink-wrapping moved onto the exit):
      // once per execution of the loop (IRFunctionSeg::LoopExits).
      if (!P.Inherited && !S.Inherited && P.Orig && S.Orig && P.Orig != S.Orig)
        B.EdgeTo = S.Orig;
    }
    if (!B.EdgeTo && MBB.pred_size() == 1 && MBB.succ_size() > 1)
      B.EdgeTo = otherSide(R, **MBB.pred_begin(), MBB, OrigOf);
    if (MBB.pred_size() == 1 && R.Blocks[Index[*MBB.pred_begin()]].Orig) {
      B.Orig = R.Blocks[Index[*MBB.pred_begin()]].Orig;
      // The only way out of a loop (the tests after a runtime-unrolled
      // loop): it runs once per execution of the loop, with the IR block
      // the loop leaves to, not once per iteration with the loop's block
      // (a block on one IR edge is charged to that edge instead).
      // If that block can also be entered without the loop (a guard skips
      // the loop, the block's tests copied onto that way): once per
      // execution of the loop, on the IR edge out of it (addResults).
      if (const BasicBlock *Out =
              B.EdgeTo ? nullptr : exitTarget(R, MLI, **MBB.pred_begin(), MBB, OrigOf)) {
        B.ExitFrom = B.Orig;
        B.Orig = Out;
      }
    } else if (Index[&MBB] > First) {
      // A block entered from several places that the layout puts behind a
      // block of another loop (a join inside a loop, after the code before
      // the loop): the block it falls into, in its own loop, if that has
      // code of its own; else the block before it.
      const MachineLoop *L = MLI.getLoopFor(&MBB);
      const MachineBasicBlock *Prev = MBB.getPrevNode();
      const MachineBasicBlock *Next = MBB.succ_size() == 1 ? *MBB.succ_begin() : nullptr;
      if (Prev && Next && MLI.getLoopFor(Prev) != L && MLI.getLoopFor(Next) == L &&
          !R.Blocks[Index[Next]].Inherited && R.Blocks[Index[Next]].Orig)
        B.Orig = R.Blocks[Index[Next]].Orig;
      else
        B.Orig = R.Blocks[Index[&MBB] - 1].Orig;
    }
  }
  // Blocks ending in "jcc T; jmp F" (BlockRecord::ExitJumpTo), once every
  // block has its IR block.
  const TargetInstrInfo &TII = *MF.getSubtarget().getInstrInfo();
  for (MachineBasicBlock &MBB : MF) {
    MachineBasicBlock *TBB = nullptr, *FBB = nullptr;
    SmallVector<MachineOperand, 4> Cond;
    const MachineLoop *L = MLI.getLoopFor(&MBB);
    auto Last = MBB.getLastNonDebugInstr();
    if (Last == MBB.end() || !Last->isUnconditionalBranch() ||
        TII.analyzeBranch(MBB, TBB, FBB, Cond, /*AllowModify=*/false) ||
        Cond.empty() || !TBB || !FBB)
      continue;
    BlockRecord &B = R.Blocks[Index[&MBB]];
    B.ExitJumpLoop = L && L->contains(TBB) && !L->contains(FBB);
    // Outside the loop-exit case only if no other block of the same IR
    // block's code jumps there too: the trailing jump alone takes that IR
    // edge.
    if (!B.ExitJumpLoop &&
        (!B.Orig || llvm::any_of(FBB->predecessors(), [&](const MachineBasicBlock *P) {
           return P != &MBB && R.Blocks[Index[P]].Orig == B.Orig;
         })))
      continue;
    B.ExitJumpTo = Index[FBB];
    B.ExitJumpNumber = FBB->getNumber();
    B.ExitJumpSize = 1; // the jump and the instructions bundled with it
    for (auto I = std::next(Last.getInstrIterator());
         I != MBB.instr_end() && I->isInsideBundle(); ++I)
      ++B.ExitJumpSize;
  }
  selectShares(R, MF, MLI, First);
  if (IccDump && OrigFn) {
    DenseMap<const BasicBlock *, int> Position;
    int N = 0;
    for (const BasicBlock *BB : BlocksOf(OrigFn))
      Position[BB] = N++;
    for (unsigned I = First; I < R.Blocks.size(); ++I) {
      auto It = Position.find(R.Blocks[I].Orig);
      R.Blocks[I].OrigNumber = It == Position.end() ? -1 : It->second;
    }
  }
  R.FunctionBegin = First;
  R.Current = MF.empty() ? -1 : int(First);
}

Timer *codegenTimer() { return phaseTimer("icc-codegen", "ICC code generation"); }

void FunctionCosting::run() {
  NestedPhaseRegion Time(codegenTimer(),
                         phaseTimer("icc-costing", "ICC block costing (llvm-mca, layout)"));
  addLayoutPadding();
  moveExitJumps();
  for (unsigned I = R.FunctionBegin; I < R.Blocks.size(); ++I) {
    BlockRecord &B = R.Blocks[I];
    Coster.canonicalise(B.Insts);
    if (B.Orig)
      B.Cost = Coster.cost(B);
    if (B.Orig && B.SelectShare != 1) {
      Ruv Scaled;
      for (auto &[Op, N] : B.Cost.counts())
        Scaled.add(Op, N * B.SelectShare);
      B.Cost = std::move(Scaled);
    }
    B.Insts = {};
  }
  R.Current = -1;
}

void FunctionCosting::addLayoutPadding() {
  if (!Coster.hasLayout())
    return;
  const unsigned Begin = R.FunctionBegin, End = R.Blocks.size();
  struct Slot {
    MCInst I;
    uint64_t Size = 0, Addr = 0;
    int Target = -1; ///< block index of a branch target label
    bool MayRelax = false;
    SmallVector<MCFixup, 2> Fixups;
  };
  std::vector<Slot> Slots;
  std::vector<unsigned> FirstSlot;
  for (unsigned B = Begin; B < End; ++B) {
    FirstSlot.push_back(Slots.size());
    for (const MCInst &I : R.Blocks[B].Insts) {
      Slot S{I};
      S.Size = Coster.encodedSize(I, S.Fixups);
      S.MayRelax = Coster.needsRelaxation(I, S.Fixups, std::nullopt);
      for (const MCOperand &Op : I)
        if (Op.isExpr())
          if (auto *Ref = dyn_cast<MCSymbolRefExpr>(Op.getExpr())) {
            auto It = R.BlockOfLabel.find(&Ref->getSymbol());
            if (It != R.BlockOfLabel.end() && It->second >= Begin &&
                It->second < End)
              S.Target = It->second;
          }
      Slots.push_back(std::move(S));
    }
  }
  FirstSlot.push_back(Slots.size());
  std::vector<uint64_t> Start(End - Begin), Pad(End - Begin);
  for (unsigned Round = 0;; ++Round) {
    uint64_t Addr = 0;
    for (unsigned B = Begin; B < End; ++B) {
      const BlockRecord &Rec = R.Blocks[B];
      uint64_t P = offsetToAlignment(Addr, Rec.Alignment);
      Pad[B - Begin] = Rec.AlignMaxBytes && P > Rec.AlignMaxBytes ? 0 : P;
      Addr += Pad[B - Begin];
      Start[B - Begin] = Addr;
      for (unsigned S = FirstSlot[B - Begin]; S < FirstSlot[B - Begin + 1]; ++S) {
        Slots[S].Addr = Addr;
        Addr += Slots[S].Size;
      }
    }
    bool Changed = false;
    for (Slot &S : Slots) {
      if (!S.MayRelax)
        continue;
      std::optional<int64_t> Disp;
      if (S.Target >= 0)
        Disp = int64_t(Start[S.Target - Begin]) - int64_t(S.Addr + S.Size);
      if (!Coster.needsRelaxation(S.I, S.Fixups, Disp))
        continue;
      S.I = Coster.relaxed(S.I);
      S.Size = Coster.encodedSize(S.I, S.Fixups);
      S.MayRelax = Coster.needsRelaxation(S.I, S.Fixups, std::nullopt);
      Changed = true;
    }
    if (!Changed || Round == 64) // relaxation only grows: a few rounds
      break;
  }
  std::vector<BlockRecord> EdgeBlocks;
  for (unsigned B = Begin + 1; B < End; ++B) {
    BlockRecord &Prev = R.Blocks[B - 1];
    const BlockRecord &Next = R.Blocks[B];
    if (!Pad[B - Begin] || !Prev.FallsThrough)
      continue;
    std::vector<MCInst> Nops = Coster.paddingNops(Pad[B - Begin]);
    Prev.PaddingNops = Nops.size();
    if (Prev.CondFallThrough && Prev.Orig && Next.Orig &&
        Prev.Orig != Next.Orig && !Prev.EdgeTo) {
      BlockRecord E;
      E.Orig = Prev.Orig;
      E.OrigFn = Prev.OrigFn;
      E.EdgeTo = Next.Orig;
      E.InLoop = Prev.InLoop && Next.InLoop;
      E.Number = Prev.Number;
      E.OrigNumber = Prev.OrigNumber;
      E.PaddingNops = Nops.size();
      E.Insts = std::move(Nops);
      EdgeBlocks.push_back(std::move(E));
    } else {
      // Always falls through (or no IR edge to charge): runs with Prev.
      Prev.Insts.insert(Prev.Insts.end(), Nops.begin(), Nops.end());
    }
  }
  for (BlockRecord &E : EdgeBlocks)
    R.Blocks.push_back(std::move(E));
}

void FunctionCosting::moveExitJumps() {
  const unsigned End = R.Blocks.size();
  for (unsigned I = R.FunctionBegin; I < End; ++I) {
    BlockRecord &B = R.Blocks[I];
    if (B.ExitJumpTo < 0 || B.ExitJumpSize > B.Insts.size())
      continue;
    auto Jump = B.Insts.end() - B.ExitJumpSize;
    const BlockRecord &To = R.Blocks[B.ExitJumpTo];
    if (!To.Orig || !Coster.isUnconditionalBranch(*Jump))
      continue;
    // Outside the loop-exit case only where the jump lies on an IR edge of
    // its own (to another IR block's code, from a block not on an edge, that
    // runs whenever its IR block does).
    if (!B.ExitJumpLoop && (To.Inherited || !B.Orig || B.Orig == To.Orig || B.EdgeTo ||
                            B.Arm || B.SelectShare != 1))
      continue;
    std::vector<MCInst> Insts(Jump, B.Insts.end());
    B.Insts.erase(Jump, B.Insts.end());
    B.ExitJumpMoved = true;
    if (To.Inherited || !B.Orig || B.Orig == To.Orig || B.EdgeTo) {
      BlockRecord &T = R.Blocks[B.ExitJumpTo];
      T.Insts.insert(T.Insts.begin(), Insts.begin(), Insts.end());
      continue;
    }
    BlockRecord E;
    E.Orig = B.Orig;
    E.OrigFn = B.OrigFn;
    E.EdgeTo = To.Orig;
    // A jump taken per iteration is costed like its block's code, in the
    // loop's steady state; a loop's exit jump on its own, once per exit.
    E.InLoop = B.InLoop && !B.ExitJumpLoop;
    E.Number = B.Number;
    E.OrigNumber = B.OrigNumber;
    E.Insts = std::move(Insts);
    R.Blocks.push_back(std::move(E)); // invalidates B and To
  }
}

void addResults(const Recording &Rec, std::map<const BasicBlock *, Ruv> &Out, EdgeRuvs *EdgeOut,
                std::set<const BasicBlock *> *CondJumpsOut) {
  for (const BlockRecord &B : Rec.Blocks)
    if (B.Orig && B.ExitFrom && !B.EdgeTo && EdgeOut && !B.SelectJumps && !B.Arm) {
      Ruv &E = (*EdgeOut)[{B.ExitFrom, B.Orig}];
      E.add(B.Cost);
      E.add("edge.loop.exit", 1);
    } else if (B.Orig && B.EdgeTo && EdgeOut)
      (*EdgeOut)[{B.Orig, B.EdgeTo}].add(B.Cost);
    else if (B.Orig && B.Arm) {
      for (auto &[Op, N] : B.Cost.counts())
        Out[B.Orig].add(selectArmKey(B.ArmTrue, Op, B.SecondTest), N);
    } else if (B.Orig) {
      Out[B.Orig].add(B.Cost);
      if (B.SelectJumps && !B.Inherited)
        Out[B.Orig].add("branch.select", B.SelectJumps);
    }
  if (CondJumpsOut)
    CondJumpsOut->insert(Rec.CondJumps.begin(), Rec.CondJumps.end());
}

void addEmptyBlocks(const std::set<const Function *> &Compiled, bool HasCycles,
                    function_ref<std::vector<const BasicBlock *>(const Function *)> BlocksOf,
                    std::map<const BasicBlock *, Ruv> &Out) {
  for (const Function *F : Compiled)
    for (const BasicBlock *B : BlocksOf(F))
      if (!Out.count(B)) {
        Ruv &R = Out[B];
        R.add("instructions", 0);
        if (HasCycles)
          R.add("cycles", 0);
      }
}

void dumpUnattributed(StringRef CPU, unsigned Unattributed) {
  if (IccDump && Unattributed)
    errs() << "segtime-icc " << CPU << ": " << Unattributed
           << " instructions outside machine basic blocks\n";
}

} // namespace icc
} // namespace segtime
