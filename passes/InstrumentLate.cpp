//===- InstrumentLate.cpp - CT: counts of the optimised code --------------===//
///
/// \file
/// instrument=late (InstrumentConfig::Late): the counts of the code the
/// optimiser made, for the IR levels. The pass runs at the end of the
/// optimisation pipeline (OptimizerLastEP, registered before the pass that
/// builds the IR SEGs, passes/Register.cpp), so the module it instruments is,
/// up to that point, the analysis compile's (same flags, same plugin set-up:
/// line tables on, loop locations removed). Per function: its calls; per
/// conditional branch (in block order): its executions and its true edge,
/// and for a branch on a logical and/or (`and i1`, `or i1`, or their select
/// forms, which code generation splits into two jumps) also how often its
/// first operand was true; per loop (preorder): its entries and header
/// runs. Nothing is timed. Each node is keyed by the debug location of the
/// branch (a loop: of its header's terminator) and its copy number among
/// the function's late nodes of the same op at that location, in block
/// order: the optimiser's copies of one source branch (unrolled bodies, a
/// vectorised loop's scalar remainder) are told apart. The counters are
/// plain adds to the thread's block at each event (no locals to flush:
/// nothing runs after this to promote them).
///
//===----------------------------------------------------------------------===//
#include "passes/Instrumenter.h"
#include "passes/IRSeg.h"

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <tuple>

using namespace llvm;

namespace segtime {
namespace ct {
namespace {

std::string at(const Loc &L) { return std::to_string(L.Line) + ":" + std::to_string(L.Col); }

} // namespace

void Instrumenter::lateFunction(Function &F, LoopInfo &LI) {
  // ---- plan, before the CFG changes -------------------------------------
  NodeDesc FD;
  FD.Kind = KFunction;
  FD.Name = sourceName(F.getName());
  if (DISubprogram *SP = F.getSubprogram()) {
    FD.Start.File = SP->getFilename().str();
    FD.Start.Line = SP->getLine();
  }
  FD.Flags = FlagUntimed;
  const int FN = addNode(FD);
  std::map<std::tuple<int, std::string, unsigned, unsigned>, int> Copies;
  auto copyOf = [&](const NodeDesc &D) {
    return Copies[{D.Kind, D.Name, D.Start.Line, D.Start.Col}]++;
  };
  struct LoopCount {
    BasicBlock *Header;
    std::vector<BasicBlock *> Entering;
    int Node;
  };
  std::vector<LoopCount> Loops;
  for (Loop *L : LI.getLoopsInPreorder()) {
    NodeDesc D;
    D.Kind = KLoop;
    D.Flags = FlagUntimed | FlagLate;
    D.Parent = FN;
    D.Start = locOf(L->getHeader()->getTerminator()->getDebugLoc());
    D.Copy = copyOf(D);
    LoopCount LC{L->getHeader(), {}, addNode(D)};
    for (BasicBlock *Pred : predecessors(L->getHeader()))
      if (!L->contains(Pred))
        LC.Entering.push_back(Pred);
    Loops.push_back(std::move(LC));
  }
  struct BranchCount {
    BranchInst *Br;
    int Node, First = -1; ///< First: the node of its logical and/or's first operand
    Value *FirstOp = nullptr;
  };
  std::vector<BranchCount> Branches;
  for (BasicBlock &BB : F) {
    auto *Br = dyn_cast<BranchInst>(BB.getTerminator());
    if (!Br || !Br->isConditional() || Br->getSuccessor(0) == Br->getSuccessor(1))
      continue;
    NodeDesc D;
    D.Kind = KBranch;
    D.Name = "br";
    D.Flags = FlagLate;
    D.Parent = FN;
    D.Start = locOf(Br->getDebugLoc());
    D.NArms = 2;
    D.Labels = "true@" + at(firstLocIn(Br->getSuccessor(0))) + "\nfalse@" +
               at(firstLocIn(Br->getSuccessor(1)));
    D.Copy = copyOf(D);
    BranchCount BC{Br, addNode(D)};
    auto [Op, Name] = logicalBranchOp(Br->getCondition());
    if (Op) {
      NodeDesc E = D;
      E.Name = std::string("first-") + Name;
      E.Labels = "true@0:0\nfalse@0:0";
      E.Copy = copyOf(E);
      BC.First = addNode(E);
      BC.FirstOp = Op;
    }
    Branches.push_back(BC);
  }
  // ---- emit ---------------------------------------------------------------
  Builder B(&F.getEntryBlock(), F.getEntryBlock().begin());
  fetchBlock(F, B); // (the entry block is no loop's header or member)
  add(B, FN, 0, ConstantInt::get(I64, 1));
  for (BranchCount &BC : Branches) {
    B.SetInsertPoint(BC.Br);
    add(B, BC.Node, 0, ConstantInt::get(I64, 1));
    if (BC.First >= 0) {
      add(B, BC.First, 0, ConstantInt::get(I64, 1));
      add(B, BC.First, FixedSlots, B.CreateZExt(BC.FirstOp, I64));
    }
  }
  for (LoopCount &LC : Loops) {
    for (BasicBlock *Pred : LC.Entering) {
      if (Pred == &F.getEntryBlock()) // its code and terminator moved (fetchBlock)
        Pred = cast<PHINode>(Blk)->getParent();
      B.SetInsertPoint(edgePoint(Pred, LC.Header));
      add(B, LC.Node, 0, ConstantInt::get(I64, 1));
    }
    B.SetInsertPoint(&*LC.Header->getFirstInsertionPt());
    add(B, LC.Node, 3, ConstantInt::get(I64, 1));
  }
  // True edges last: an edge split above is now the arm's block.
  for (BranchCount &BC : Branches) {
    B.SetInsertPoint(edgePoint(BC.Br->getParent(), BC.Br->getSuccessor(0)));
    add(B, BC.Node, FixedSlots, ConstantInt::get(I64, 1));
  }
}

} // namespace ct
} // namespace segtime
