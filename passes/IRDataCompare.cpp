//===- IRDataCompare.cpp - Comparisons whose outcome steers the loads -----===//
///
/// \file
/// Merge and search steps (IRDataCompare.h; docs/models.md ICC step 4).
///
//===----------------------------------------------------------------------===//
#include "passes/IRDataCompare.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"

#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <vector>

using namespace llvm;

namespace segtime {
namespace irseg {

namespace {

const char *const kMergeSource =
    "static: estimated, merge step: P = 1/2, a comparison of two loads through indices "
    "its outcome advances (on random input the next element comes from either run about "
    "every other step: Brodal & Moruz 2005; Sanders & Winkel 2004)";
const char *const kSearchSource =
    "static: estimated, search step: P = 1/2, a load whose address the outcome steers "
    "compared with a loop-invariant key (a random key lies in either half of the "
    "interval: Knuth TAOCP vol. 3 6.2.1); a load chain";

const char *const kBoundSource =
    "static: estimated, bound test of a merge index: P(past the bound) = 0, an index that "
    "advances by one on a merge step's outcome passes its bound only when its run is "
    "exhausted (on random input fewer than 2 elements of the other run are then left)";
const char *const kSelectArmSource =
    "static: estimated, select made a branch: P = 1/2, the condition of a select that "
    "code generation made into a jump (x86 cmov conversion) is data";
const char *const kFirstTestSource =
    "static: estimated, split branch: P = 1/2, the first test of a branch on a logical "
    "and/or that code generation splits into two jumps decides on data";
const char *const kAliasCheckSource =
    "static: estimated, alias check: P = 0, the vectoriser's runtime checks that two "
    "ranges do not overlap pass (addresses are data)";
const char *const kSelectNote = "; a select, charged where the machine code made it a branch";

Value *stripCasts(Value *V) {
  while (auto *C = dyn_cast<CastInst>(V))
    V = C->getOperand(0);
  return V;
}

/// The header phis of L that V is computed from by instructions of L
/// (not through loads, other phis or calls).
void headerPhis(Value *V, const Loop &L, SmallPtrSetImpl<PHINode *> &Out, int Depth = 0) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !L.contains(I) || Depth > 12)
    return;
  if (auto *P = dyn_cast<PHINode>(I)) {
    if (P->getParent() == L.getHeader())
      Out.insert(P);
    else // a join in the body (an unrolled copy's index)
      for (Value *In : P->incoming_values())
        headerPhis(In, L, Out, Depth + 1);
    return;
  }
  if (isa<LoadInst>(I) || isa<CallBase>(I))
    return;
  for (Value *Op : I->operands())
    headerPhis(Op, L, Out, Depth + 1);
}

/// The values header phi H takes at L's back edges on the paths (inside L,
/// not through subloops) from Br's successor S, each phi on the path
/// resolved to its value from the path's edge; empty if a cap is hit (64
/// paths, 32 blocks on one path, 4096 blocks in all).
std::set<Value *> nextValues(PHINode *H, const BranchInst &Br, unsigned S, const Loop &L,
                             const LoopInfo &LI) {
  std::set<Value *> Out;
  int Paths = 0, Steps = 0;
  bool Capped = false;
  std::map<Value *, Value *> Env; // phi -> its value on the current path
  std::function<void(BasicBlock *, BasicBlock *, int)> Walk = [&](BasicBlock *From,
                                                                   BasicBlock *To, int Depth) {
    if (Capped || !L.contains(To) || LI.getLoopFor(To) != &L)
      return; // leaves L, or enters a subloop
    if (++Steps > 4096) {
      Capped = true; // too many paths: undecided
      return;
    }
    if (To == L.getHeader()) {
      Value *V = H->getIncomingValueForBlock(From);
      for (int K = 0; K < 16; ++K) {
        auto It = Env.find(V);
        if (It == Env.end())
          break;
        V = It->second;
      }
      Out.insert(V);
      Capped = ++Paths > 64;
      return;
    }
    if (Depth > 32) {
      Capped = true;
      return;
    }
    std::vector<std::pair<Value *, Value *>> Saved;
    for (PHINode &P : To->phis()) {
      auto It = Env.find(&P);
      Saved.emplace_back(&P, It == Env.end() ? nullptr : It->second);
      Env[&P] = P.getIncomingValueForBlock(From);
    }
    for (BasicBlock *Next : successors(To))
      Walk(To, Next, Depth + 1);
    for (auto &[P, V] : Saved) {
      if (V)
        Env[P] = V;
      else
        Env.erase(P);
    }
  };
  Walk(const_cast<BasicBlock *>(Br.getParent()), Br.getSuccessor(S), 0);
  if (Capped)
    return {};
  return Out;
}

/// Whether V is computed from C by instructions of L (a select on C,
/// i + zext(C)), not through loads, calls or header phis.
bool usesValue(Value *V, const Value *C, const Loop &L, int Depth = 0) {
  if (V == C)
    return true;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !L.contains(I) || Depth > 8 || isa<LoadInst>(I) || isa<CallBase>(I) ||
      (isa<PHINode>(I) && I->getParent() == L.getHeader()))
    return false;
  return llvm::any_of(I->operands(), [&](Value *Op) { return usesValue(Op, C, L, Depth + 1); });
}

/// Whether comparison C decides the next value of header phi H: a value H
/// takes at a back edge of L is computed from C (a select), or, for the
/// branch Br on C, H takes different values on the paths from Br's two
/// successors.
bool steeredBy(PHINode *H, const CmpInst &C, const BranchInst *Br, const Loop &L,
               const LoopInfo &LI) {
  for (unsigned K = 0; K < H->getNumIncomingValues(); ++K)
    if (L.contains(H->getIncomingBlock(K)) && usesValue(H->getIncomingValue(K), &C, L))
      return true;
  if (!Br)
    return false;
  std::set<Value *> A = nextValues(H, *Br, 0, L, LI), B = nextValues(H, *Br, 1, L, LI);
  if (A.empty() || B.empty())
    return false;
  return A != B;
}

/// The kind of comparison C in block At (its branch Br, or nullptr for a
/// select): see dataComparison.
std::optional<DataCompareKind> kindOf(const CmpInst &Cmp, const BasicBlock &At,
                                      const BranchInst *Br, const LoopInfo &LI) {
  const Loop *L = LI.getLoopFor(&At);
  if (!L || !isOrderingCompare(&Cmp))
    return std::nullopt;
  auto *C = const_cast<CmpInst *>(&Cmp);
  std::map<PHINode *, bool> Steered;
  auto SteeredLoad = [&](Value *V) {
    auto *Ld = dyn_cast<LoadInst>(stripCasts(V));
    if (!Ld || !Ld->isSimple() || !L->contains(Ld))
      return false;
    SmallPtrSet<PHINode *, 4> Phis;
    headerPhis(Ld->getPointerOperand(), *L, Phis);
    for (PHINode *H : Phis) {
      auto It = Steered.find(H);
      if (It == Steered.end())
        It = Steered.emplace(H, steeredBy(H, *C, Br, *L, LI)).first;
      if (It->second)
        return true;
    }
    return false;
  };
  auto Key = [&](Value *V) {
    V = stripCasts(V);
    return !isa<Constant>(V) && L->isLoopInvariant(V);
  };
  Value *X = C->getOperand(0), *Y = C->getOperand(1);
  bool SX = SteeredLoad(X), SY = SteeredLoad(Y);
  if (SX && SY)
    return DataCompareKind::Merge;
  if ((SX && Key(Y)) || (SY && Key(X)))
    return DataCompareKind::Search;
  return std::nullopt;
}

} // namespace

bool isOrderingCompare(const Value *V) {
  if (auto *IC = dyn_cast<ICmpInst>(V))
    return IC->isRelational();
  auto *FC = dyn_cast<FCmpInst>(V);
  if (!FC)
    return false;
  switch (FC->getPredicate()) {
  case CmpInst::FCMP_OLT: case CmpInst::FCMP_OLE: case CmpInst::FCMP_OGT:
  case CmpInst::FCMP_OGE: case CmpInst::FCMP_ULT: case CmpInst::FCMP_ULE:
  case CmpInst::FCMP_UGT: case CmpInst::FCMP_UGE:
    return true;
  default:
    return false;
  }
}

std::optional<DataCompareKind> dataComparison(const BranchInst &Br, const LoopInfo &LI) {
  auto *C = dyn_cast<CmpInst>(Br.getCondition());
  if (!Br.isConditional() || Br.getSuccessor(0) == Br.getSuccessor(1) || !C)
    return std::nullopt;
  return kindOf(*C, *Br.getParent(), &Br, LI);
}

std::optional<DataSelect> dataSelect(const BasicBlock &B, const LoopInfo &LI) {
  for (const Instruction &I : B)
    if (auto *S = dyn_cast<SelectInst>(&I))
      if (auto *C = dyn_cast<CmpInst>(S->getCondition()); C && C->getParent() == &B)
        if (auto K = kindOf(*C, B, nullptr, LI))
          return DataSelect{*K, S};
  return std::nullopt;
}

namespace {

/// The header phis of L through which the loads of L's merge steps (branch
/// or select) are addressed.
SmallPtrSet<PHINode *, 8> mergeIndices(const Loop &L, const LoopInfo &LI) {
  SmallPtrSet<PHINode *, 8> Out;
  auto Add = [&](const CmpInst &C) {
    for (Value *Op : C.operands())
      if (auto *Ld = dyn_cast<LoadInst>(stripCasts(Op)))
        headerPhis(Ld->getPointerOperand(), L, Out);
  };
  for (BasicBlock *B : L.blocks()) {
    if (LI.getLoopFor(B) != &L)
      continue;
    auto *Br = dyn_cast<BranchInst>(B->getTerminator());
    if (Br && Br->isConditional())
      if (auto K = dataComparison(*Br, LI); K && *K == DataCompareKind::Merge)
        Add(*cast<CmpInst>(Br->getCondition()));
    if (auto S = dataSelect(*B, LI); S && S->Kind == DataCompareKind::Merge)
      Add(*cast<CmpInst>(S->Select->getCondition()));
  }
  return Out;
}

/// +1 if every value H takes at L's back edges is H plus a non-negative
/// constant (H + 1 per step: H + 2 after two unrolled copies), through joins
/// and selects, and one is more than H; -1 for the mirror image; else 0.
int stepOf(PHINode *H, const Loop &L) {
  std::set<int64_t> Offsets;
  std::function<bool(Value *, int64_t, int)> Walk = [&](Value *V, int64_t Off, int Depth) {
    if (V == H) {
      Offsets.insert(Off);
      return true;
    }
    auto *I = dyn_cast<Instruction>(V);
    if (!I || !L.contains(I) || Depth > 8)
      return false;
    if (auto *P = dyn_cast<PHINode>(I))
      return P->getParent() != L.getHeader() &&
             llvm::all_of(P->incoming_values(),
                          [&](Value *In) { return Walk(In, Off, Depth + 1); });
    if (auto *S = dyn_cast<SelectInst>(I))
      return Walk(S->getTrueValue(), Off, Depth + 1) &&
             Walk(S->getFalseValue(), Off, Depth + 1);
    auto *BO = dyn_cast<BinaryOperator>(I);
    auto *C = BO ? dyn_cast<ConstantInt>(BO->getOperand(1)) : nullptr;
    if (!C || C->getBitWidth() > 64 ||
        (BO->getOpcode() != Instruction::Add && BO->getOpcode() != Instruction::Sub))
      return false;
    int64_t D = C->getSExtValue() * (BO->getOpcode() == Instruction::Sub ? -1 : 1);
    return std::abs(D) <= 64 && Walk(BO->getOperand(0), Off + D, Depth + 1);
  };
  for (unsigned K = 0; K < H->getNumIncomingValues(); ++K)
    if (L.contains(H->getIncomingBlock(K)) && !Walk(H->getIncomingValue(K), 0, 0))
      return 0;
  if (Offsets.empty())
    return 0;
  if (*Offsets.begin() >= 0 && *Offsets.rbegin() > 0)
    return 1;
  if (*Offsets.rbegin() <= 0 && *Offsets.begin() < 0)
    return -1;
  return 0;
}

} // namespace

std::optional<bool> mergeBoundTest(const BranchInst &Br, const LoopInfo &LI) {
  auto *C = dyn_cast<ICmpInst>(Br.isConditional() ? Br.getCondition() : nullptr);
  const Loop *L = LI.getLoopFor(Br.getParent());
  if (!C || !L || !C->isRelational() || Br.getSuccessor(0) == Br.getSuccessor(1))
    return std::nullopt;
  ICmpInst::Predicate Pred = C->getPredicate();
  auto *H = dyn_cast<PHINode>(stripCasts(C->getOperand(0)));
  Value *Bound = C->getOperand(1);
  if (!H || H->getParent() != L->getHeader()) {
    H = dyn_cast<PHINode>(stripCasts(C->getOperand(1)));
    Bound = C->getOperand(0);
    Pred = ICmpInst::getSwappedPredicate(Pred);
  }
  if (!H || H->getParent() != L->getHeader() || !L->isLoopInvariant(Bound))
    return std::nullopt;
  int Step = stepOf(H, *L);
  if (!Step || !mergeIndices(*L, LI).count(H))
    return std::nullopt;
  // Past the bound: H >= Bound going up, H <= Bound going down.
  bool Above = ICmpInst::isGT(Pred) || ICmpInst::isGE(Pred);
  return Step > 0 ? Above : !Above;
}

namespace {
/// The search step of L that compares Ld (through casts): its comparison
/// and branch (null for a select's comparison); {null, null} if none.
std::pair<CmpInst *, const BranchInst *> searchStepOf(const LoadInst &Ld, const Loop &L,
                                                      const LoopInfo &LI) {
  std::vector<const Value *> Vals{&Ld};
  for (size_t K = 0; K < Vals.size() && K < 8; ++K)
    for (const User *U : Vals[K]->users()) {
      if (isa<CastInst>(U))
        Vals.push_back(U);
      auto *C = dyn_cast<CmpInst>(U);
      if (!C || !L.contains(C))
        continue;
      const BranchInst *Br = nullptr;
      for (const User *CU : C->users())
        if (auto *B = dyn_cast<BranchInst>(CU); B && B->isConditional())
          Br = B;
      if (kindOf(*C, *C->getParent(), Br, LI) == DataCompareKind::Search)
        return {const_cast<CmpInst *>(C), Br};
    }
  return {nullptr, nullptr};
}

/// Walks index V (instructions of L, not through loads, calls or other
/// phis): its header phis, whether it halves, and the (minuend,
/// subtrahend) of a subtraction of two of them.
bool indexTree(Value *V, const Loop &L, SmallPtrSetImpl<PHINode *> &Phis, bool &Halves,
               std::pair<Value *, Value *> &Sub, int Depth = 0) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !L.contains(I))
    return true; // (a constant or a value from outside L)
  if (auto *P = dyn_cast<PHINode>(I)) {
    if (P->getParent() != L.getHeader())
      return false;
    Phis.insert(P);
    return true;
  }
  if (Depth > 8 || !(isa<BinaryOperator>(I) || isa<CastInst>(I)))
    return false;
  auto *C = dyn_cast<ConstantInt>(I->getOperand(I->getNumOperands() - 1));
  unsigned Op = I->getOpcode();
  if (C && (((Op == Instruction::SDiv || Op == Instruction::UDiv) && C->equalsInt(2)) ||
            ((Op == Instruction::LShr || Op == Instruction::AShr) && C->equalsInt(1))))
    Halves = true;
  if (Op == Instruction::Sub)
    Sub = {stripCasts(I->getOperand(0)), stripCasts(I->getOperand(1))};
  return llvm::all_of(I->operands(), [&](Value *X) {
    return indexTree(X, L, Phis, Halves, Sub, Depth + 1);
  });
}

/// The value header phi H enters L with (one predecessor outside L, or
/// several with one value); null otherwise.
Value *entryValue(PHINode *H, const Loop &L) {
  Value *V = nullptr;
  for (unsigned K = 0; K < H->getNumIncomingValues(); ++K)
    if (!L.contains(H->getIncomingBlock(K))) {
      if (V && V != H->getIncomingValue(K))
        return nullptr;
      V = H->getIncomingValue(K);
    }
  return V;
}
} // namespace

std::optional<BisectedInterval> bisectionOf(const LoadInst &Ld, const LoopInfo &LI) {
  const Loop *L = LI.getLoopFor(Ld.getParent());
  auto *G = dyn_cast<GetElementPtrInst>(Ld.getPointerOperand());
  if (!L || !Ld.isSimple() || !G || G->getNumIndices() != 1)
    return std::nullopt;
  auto [Cmp, Br] = searchStepOf(Ld, *L, LI);
  if (!Cmp)
    return std::nullopt;
  SmallPtrSet<PHINode *, 4> Phis;
  bool Halves = false;
  std::pair<Value *, Value *> Sub{nullptr, nullptr};
  if (!indexTree(stripCasts(G->getOperand(1)), *L, Phis, Halves, Sub) || !Halves ||
      Phis.size() != 2)
    return std::nullopt;
  PHINode *A = *Phis.begin(), *B = *std::next(Phis.begin());
  for (PHINode *H : {A, B})
    if (!steeredBy(H, *Cmp, Br, *L, LI) || !entryValue(H, *L))
      return std::nullopt;
  if (Sub.first == A && Sub.second == B)
    return BisectedInterval{entryValue(B, *L), entryValue(A, *L)};
  if (Sub.first == B && Sub.second == A)
    return BisectedInterval{entryValue(A, *L), entryValue(B, *L)};
  auto Zero = [&](PHINode *H) {
    auto *C = dyn_cast<ConstantInt>(entryValue(H, *L));
    return C && C->isZero();
  };
  if (Zero(A) != Zero(B))
    return Zero(A) ? BisectedInterval{entryValue(A, *L), entryValue(B, *L)}
                   : BisectedInterval{entryValue(B, *L), entryValue(A, *L)};
  return std::nullopt;
}

std::string mergeBoundSource() { return kBoundSource; }

std::string dataCompareSource(DataCompareKind K, bool Select) {
  std::string S = K == DataCompareKind::Merge ? kMergeSource : kSearchSource;
  return Select ? S + kSelectNote : S;
}

std::string selectArmSource() { return kSelectArmSource; }

std::string firstTestSource() { return kFirstTestSource; }

std::string aliasCheckSource() { return kAliasCheckSource; }

bool isSearchStepSource(const std::string &Source) {
  return Source.rfind(kSearchSource, 0) == 0;
}

bool isSelectStepSource(const std::string &Source) {
  return Source.size() > std::strlen(kSelectNote) &&
         Source.compare(Source.size() - std::strlen(kSelectNote), std::string::npos,
                        kSelectNote) == 0;
}

} // namespace irseg
} // namespace segtime
