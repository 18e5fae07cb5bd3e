//===- SourceLoc.cpp - Line tables that leave the code unchanged ----------===//
///
/// \file
/// Implements SourceLoc.h: the `segtime.loop` copies of the loop start
/// locations, their reader, and the final strip.
///
//===----------------------------------------------------------------------===//
#include "passes/SourceLoc.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace segtime {

std::string fileLineCol(const llvm::DebugLoc &DL) {
  return DL ? DL->getFilename().str() + ":" + std::to_string(DL.getLine()) + ":" +
                  std::to_string(DL.getCol())
            : std::string();
}

namespace {

constexpr const char *LoopKind = "segtime.loop";

/// LoopID without its DILocation operands: null if nothing but the
/// self-reference is left (the node only located the loop), else a new
/// distinct node with the other operands.
MDNode *withoutLocations(MDNode *LoopID) {
  SmallVector<Metadata *, 4> Ops{nullptr};
  for (unsigned K = 1; K < LoopID->getNumOperands(); ++K)
    if (!isa_and_nonnull<DILocation>(LoopID->getOperand(K)))
      Ops.push_back(LoopID->getOperand(K));
  if (Ops.size() == 1)
    return nullptr;
  if (Ops.size() == LoopID->getNumOperands())
    return LoopID;
  MDNode *New = MDNode::getDistinct(LoopID->getContext(), Ops);
  New->replaceOperandWith(0, New);
  return New;
}

} // namespace

DebugLoc loopStartLoc(const Loop &L) {
  // The copy on a terminator of L's own blocks: latches first, then the
  // header, the blocks that leave L, the others (a rotated inner loop's
  // guard, tagged with the inner loop, is none of the first three).
  SmallVector<BasicBlock *, 8> Blocks;
  L.getLoopLatches(Blocks);
  Blocks.push_back(L.getHeader());
  L.getExitingBlocks(Blocks);
  Blocks.append(L.block_begin(), L.block_end());
  for (const BasicBlock *B : Blocks) {
    bool InSubloop = any_of(L.getSubLoops(), [&](const Loop *S) { return S->contains(B); });
    const Instruction *T = B->getTerminator();
    if (InSubloop || !T)
      continue;
    if (const MDNode *N = T->getMetadata(LoopKind))
      if (auto *D = dyn_cast_or_null<DILocation>(N->getOperand(0).get()))
        return DebugLoc(D);
  }
  return L.getStartLoc();
}

PreservedAnalyses LoopLocationsPass::run(Module &M, ModuleAnalysisManager &MAM) {
  LLVMContext &Ctx = M.getContext();
  unsigned Kind = Ctx.getMDKindID(LoopKind);
  auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  DenseMap<MDNode *, MDNode *> Replaced;
  bool Changed = false;
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    // The start of each loop, as Loop::getLocRange reads it (the first
    // DILocation of its llvm.loop), goes onto the terminators of all the
    // loop's own blocks: passes keep llvm.loop on the latch, but not an
    // unknown kind, and SimplifyCFG folds the empty latch of a for loop
    // once llvm.loop is gone; some of the loop's terminators survive.
    for (Loop *L : FAM.getResult<LoopAnalysis>(F).getLoopsInPreorder()) {
      DebugLoc Start = L->getStartLoc();
      MDNode *LoopID = L->getLoopID();
      if (!Start || !LoopID)
        continue;
      MDNode *Copy = MDNode::get(Ctx, {Start.get()});
      for (BasicBlock *B : L->blocks())
        if (!any_of(L->getSubLoops(), [&](const Loop *S) { return S->contains(B); }))
          B->getTerminator()->setMetadata(Kind, Copy);
    }
    for (BasicBlock &B : F)
      for (Instruction &I : B) {
        MDNode *LoopID = I.getMetadata(LLVMContext::MD_loop);
        if (!LoopID)
          continue;
        auto [It, New] = Replaced.try_emplace(LoopID, nullptr);
        if (New)
          It->second = withoutLocations(LoopID);
        if (It->second != LoopID) {
          I.setMetadata(LLVMContext::MD_loop, It->second);
          Changed = true;
        }
      }
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

void stripLineTables(Module &M) {
  unsigned Kind = M.getContext().getMDKindID(LoopKind);
  for (Function &F : M)
    for (BasicBlock &B : F)
      for (Instruction &I : B)
        I.setMetadata(Kind, nullptr);
  StripDebugInfo(M);
}

} // namespace segtime
