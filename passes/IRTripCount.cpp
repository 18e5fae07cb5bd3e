//===- IRTripCount.cpp - Trip counts of the loops of the IR SEG -----------===//
///
/// \file
/// Loop trip counts from ScalarEvolution in source names, the N_<fn>_<line>
/// parameter where it cannot count them, the parts of runtime-unrolled loops
/// (idiv/umod of the source loop's count), zero-trip guards and the
/// vectoriser's runtime checks (taken), and the counts of a nest's loops for
/// the memory model.
///
//===----------------------------------------------------------------------===//
#include "passes/IRSegBuilder.h"
#include "passes/SourceLoc.h"

#include <regex>

using namespace llvm;

namespace segtime {
namespace irseg {

/// L's backedge-taken count: ScalarEvolution's, or where it has none, the
/// count its predicated analysis gives with no predicate to assume (as
/// exact: the unrolled part of a loop the runtime unroller split, whose
/// exit ScalarEvolution counts only that way: cholesky's outer loop once
/// its bound is inlined); CouldNotCompute if neither.
const SCEV *Builder::backedgeCount(const Loop *L) {
  const SCEV *B = SE.getBackedgeTakenCount(L);
  if (!isa<SCEVCouldNotCompute>(B))
    return B;
  SmallVector<const SCEVPredicate *, 4> Preds;
  const SCEV *P = SE.getPredicatedBackedgeTakenCount(L, Preds);
  return Preds.empty() ? P : B;
}

/// The trip count of L in source names (tripOf's text, without adding a
/// parameter); nullopt if ScalarEvolution cannot express it.
std::optional<std::string> Builder::tripText(Loop *L) {
  auto It = LoopTrip.find(L);
  std::string T;
  if (It != LoopTrip.end())
    T = It->second;
  else if (const SCEV *BTC = backedgeCount(L); !isa<SCEVCouldNotCompute>(BTC)) {
    auto S = Text.str(BTC);
    if (!S)
      return std::nullopt;
    T = "(" + *S + ") + 1";
  } else
    return std::nullopt;
  // "(-1 + n) + 1" -> "n", "((-2 + n)) + 1" -> "-1 + n"
  static const std::regex PlusOne("\\(+-([0-9]+) \\+ ([A-Za-z0-9_.]+)\\)+ \\+ 1");
  std::smatch M;
  if (!std::regex_match(T, M, PlusOne))
    return T;
  long C = std::stol(M[1].str()) - 1;
  return C ? "-" + std::to_string(C) + " + " + M[2].str() : M[2].str();
}

/// "a*b*c" with each factor parenthesised unless it is a name or number;
/// "1" for none.
std::string Builder::product(const std::vector<std::string> &Fs) {
  static const std::regex Atom("[A-Za-z0-9_.]+");
  if (Fs.size() == 1)
    return Fs[0];
  std::string P;
  for (const std::string &F : Fs)
    P += (P.empty() ? "" : "*") + (std::regex_match(F, Atom) ? F : "(" + F + ")");
  return P.empty() ? "1" : P;
}

/// A phi in the header of an enclosing loop L that is multiplied by a
/// constant on every iteration (for (w = 1; w < n; w *= 2): no
/// ScalarEvolution recurrence) as start*C^k_L, k_L the iteration number.
std::optional<std::string> Builder::geometricPhi(PHINode *P) {
  Loop *L = LI.getLoopFor(P->getParent());
  auto K = L ? Text.LoopIndex.find(L) : Text.LoopIndex.end();
  if (K == Text.LoopIndex.end() || L->getHeader() != P->getParent() ||
      P->getNumIncomingValues() != 2 || !SE.isSCEVable(P->getType()))
    return std::nullopt;
  unsigned Back = L->contains(P->getIncomingBlock(0)) ? 0 : 1;
  if (L->contains(P->getIncomingBlock(1 - Back)))
    return std::nullopt;
  auto *M = dyn_cast<SCEVMulExpr>(SE.getSCEV(P->getIncomingValue(Back)));
  if (!M || M->getNumOperands() != 2 || M->getOperand(1) != SE.getSCEV(P))
    return std::nullopt;
  auto *C = dyn_cast<SCEVConstant>(M->getOperand(0));
  auto Start = Text.str(SE.getSCEV(P->getIncomingValue(1 - Back)));
  if (!C || !Start || C->getAPInt().getSignificantBits() > 32)
    return std::nullopt;
  return "(" + *Start + ")*(" + std::to_string(C->getAPInt().getSExtValue()) + ")^" +
         K->second;
}

/// Can From reach To within one execution of region L (one iteration of
/// loop L, or one call of the function), i.e. without taking L's back edge?
bool Builder::reachesWithin(Loop *L, BasicBlock *From, BasicBlock *To) {
  std::set<BasicBlock *> Seen;
  std::vector<BasicBlock *> Work{From};
  while (!Work.empty()) {
    BasicBlock *B = Work.back();
    Work.pop_back();
    if (B == To)
      return true;
    if (!Seen.insert(B).second || (L && (!L->contains(B) || B == L->getHeader())))
      continue;
    for (BasicBlock *S : successors(B))
      Work.push_back(S);
  }
  return false;
}

/// If B ends in a zero-trip guard of a subloop SL of region L -- a
/// conditional branch on a comparison of a value that occurs in SL's
/// backedge-taken count (n > 0 for a loop of n iterations), or any branch
/// before a vectorised SL (the vectoriser's runtime checks), one side of
/// which leads into SL (dominates its header) and the other cannot reach
/// it -- returns SL. A guard counts as taken: SL's trip count says how often
/// its body runs, 0 included (Warwick-94 eq. 1 needs no separate P).
const void *Builder::guardedLoop(Loop *L, BasicBlock *B) {
  auto *Br = dyn_cast<BranchInst>(B->getTerminator());
  if (!Br || !Br->isConditional())
    return nullptr;
  auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition());
  // The atoms of the compared values (computed at the first subloop).
  std::optional<std::set<const void *>> CmpAtoms;
  for (Loop *SL : (L ? L->getSubLoops() : LI.getTopLevelLoops())) {
    const GuardFacts &G = guardFacts(SL);
    bool Related = false;
    if (Cmp) {
      if (!CmpAtoms) {
        CmpAtoms.emplace();
        for (Value *Op : Cmp->operands())
          if (!isa<Constant>(Op) && SE.isSCEVable(Op->getType()))
            scevAtoms(SE.getSCEV(Op), *CmpAtoms);
      }
      for (const void *A : *CmpAtoms)
        Related |= G.TripAtoms.count(A) != 0;
    }
    // A loop ScalarEvolution cannot count (a while loop: its trip count
    // is the parameter N_..., iterations per reach of the loop statement,
    // also measured so) and the test of its rotated copy before it (at
    // the loop statement's location) guard together.
    const DebugLoc &BL = Br->getDebugLoc();
    const DebugLoc &SLoc = G.Start;
    if (!G.Counted && BL && SLoc && BL.getLine() == SLoc.getLine() &&
        BL.getCol() == SLoc.getCol())
      Related = true;
    // The vectoriser's runtime checks (enough iterations, no aliasing)
    // before a vector loop are assumed to pass, like a zero-trip guard.
    if (!Related && !G.Vectorised)
      continue;
    for (unsigned I = 0; I < 2; ++I) {
      BasicBlock *In = Br->getSuccessor(I), *Out = Br->getSuccessor(1 - I);
      if (DT.dominates(In, SL->getHeader()) && !reachesWithin(L, Out, SL->getHeader()))
        return SL;
    }
  }
  return nullptr;
}

/// The atoms a SCEV depends on, added to A: unknown values (n) and
/// recurrences (by loop).
void Builder::scevAtoms(const SCEV *X, std::set<const void *> &A) {
  SCEVExprContains(X, [&](const SCEV *Y) {
    if (auto *U = dyn_cast<SCEVUnknown>(Y))
      A.insert(U->getValue());
    if (auto *R = dyn_cast<SCEVAddRecExpr>(Y))
      A.insert(R->getLoop());
    return false;
  });
}

/// What guardedLoop asks of subloop SL, computed at its first question
/// (a function's every conditional branch asks it of every subloop of its
/// region).
DebugLoc Builder::startLoc(const Loop &L) {
  auto [It, New] = StartLocs.try_emplace(&L);
  if (New)
    It->second = loopStartLoc(L);
  return It->second;
}

const Builder::GuardFacts &Builder::guardFacts(Loop *SL) {
  auto [It, New] = Guards.try_emplace(SL);
  GuardFacts &G = It->second;
  if (!New)
    return G;
  const SCEV *BTC = SE.getBackedgeTakenCount(SL);
  G.Counted = !isa<SCEVCouldNotCompute>(BTC);
  if (G.Counted)
    scevAtoms(BTC, G.TripAtoms);
  G.Start = startLoc(*SL);
  G.Vectorised = transformations(SL) == "vectorised";
  return G;
}

/// "vectorised" if L computes with vector instructions in its own blocks (not
/// in an inner loop: the loop vectoriser transforms innermost loops, and a
/// row loop around a vectorised loop still runs its source iterations), else
/// "". Unrolling is recognised later, by comparing trip counts with the
/// source loop (plugin/Plugin.cpp).
std::string Builder::transformations(Loop *L) {
  // (llvm.loop.isvectorized also marks the scalar epilogue: not used)
  for (BasicBlock *B : L->blocks()) {
    if (llvm::any_of(L->getSubLoops(), [&](const Loop *S) { return S->contains(B); }))
      continue;
    for (Instruction &I : *B)
      if (I.getType()->isVectorTy())
        return "vectorised";
  }
  return "";
}

std::string Builder::tripOf(Loop *L, const std::string &Fn) {
  const SCEV *BTC = backedgeCount(L);
  if (!isa<SCEVCouldNotCompute>(BTC))
    if (auto S = Text.str(BTC))
      return "(" + *S + ") + 1";
  DebugLoc Start = startLoc(*L);
  unsigned Line = Start ? Start.getLine() : 0;
  std::string Name = "N_" + Fn + "_" + std::to_string(Line);
  // A data-dependent loop the unroller split into an unrolled part and a
  // remainder: both count in the iterations N of the source loop.
  auto Part = unrolledPart(L);
  std::string Trip = !Part ? Name
                     : Part->second
                         ? "umod(" + Name + ", " + std::to_string(Part->first) + ")"
                         : "idiv(" + Name + ", " + std::to_string(Part->first) + ")";
  if (Parameter *P = findParameter(Name)) {
    if (Part)
      P->Meaning = unrolledMeaning(Line, Part->first);
    return Trip;
  }
  addParameter({Name, "loop", std::nullopt, "none",
                Start ? Start->getFilename().str() + ":" + std::to_string(Line) : "",
                Part ? unrolledMeaning(Line, Part->first)
                     : "iterations of the optimised loop at line " + std::to_string(Line) +
                           " (ScalarEvolution could not count them)"});
  return Trip;
}

/// Br's condition as "SL runs at least once" (cmp_lt(0, trip)), if SL is
/// a part of an unrolled data-dependent loop (unrolledPart) and one side
/// of Br goes straight into SL (its header or preheader: the unroller's
/// own test, not the source loop's guard before both parts); nullopt
/// otherwise.
std::optional<std::string> Builder::unrolledGuard(BranchInst *Br, const Loop *SL) {
  if (!Br || !Br->isConditional() || !unrolledPart(SL))
    return std::nullopt;
  for (unsigned I = 0; I < 2; ++I) {
    BasicBlock *S = Br->getSuccessor(I);
    if (S != SL->getHeader() && S != SL->getLoopPreheader())
      continue;
    std::string Runs = "cmp_lt(0, " + tripOf(const_cast<Loop *>(SL), Out.Name) + ")";
    return I == 0 ? Runs : negation(Runs);
  }
  return std::nullopt;
}

std::string Builder::unrolledMeaning(unsigned Line, unsigned U) {
  return "iterations of the loop at line " + std::to_string(Line) +
         " per entry (data-dependent; the optimiser unrolled it by " + std::to_string(U) +
         ": idiv(N, " + std::to_string(U) + ") unrolled iterations and umod(N, " +
         std::to_string(U) + ") in the remainder loop)";
}

/// The constant step of L's first integer induction variable (a header
/// phi that is an affine recurrence of L), as a magnitude; 0 if none.
uint64_t Builder::ivStep(const Loop *L) {
  for (PHINode &P : L->getHeader()->phis()) {
    if (!P.getType()->isIntegerTy() || !SE.isSCEVable(P.getType()))
      continue;
    auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&P));
    auto *C = AR && AR->getLoop() == L && AR->isAffine()
                  ? dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE))
                  : nullptr;
    if (C && C->getAPInt().getSignificantBits() <= 64 && C->getAPInt().getSExtValue() != 0)
      return std::abs(C->getAPInt().getSExtValue());
  }
  return 0;
}

/// Whether ScalarEvolution cannot write L's count in source names.
bool Builder::uncounted(const Loop *L) {
  const SCEV *BTC = backedgeCount(L);
  return isa<SCEVCouldNotCompute>(BTC) || !Text.str(BTC);
}

/// If L is a part of a loop the runtime unroller split (LoopUnrollRuntime:
/// an unrolled loop and a remainder loop after or before it, both from
/// the same source loop, at its line, in the same parent) whose count
/// ScalarEvolution cannot write in source names (a data-dependent count,
/// spmv's rowptr[i+1] - rowptr[i]): (U, true) for the remainder -- at most
/// U - 1 iterations, U a power of two, umod(N, U) of the source loop's N
/// -- or (U, false) for the unrolled part, whose induction step is U times
/// the remainder's (idiv(N, U) iterations); nullopt otherwise.
std::optional<std::pair<unsigned, bool>> Builder::unrolledPart(const Loop *L) {
  if (!uncounted(L))
    return std::nullopt;
  DebugLoc Start = startLoc(*L);
  if (!Start)
    return std::nullopt;
  auto RemainderFactor = [&](const Loop *R) -> unsigned {
    const SCEV *Max = SE.getConstantMaxBackedgeTakenCount(R);
    auto *C = dyn_cast<SCEVConstant>(Max);
    if (!C || isa<SCEVCouldNotCompute>(SE.getBackedgeTakenCount(R)) ||
        C->getAPInt().getActiveBits() > 8)
      return 0;
    uint64_t U = C->getAPInt().getZExtValue() + 2;
    return isPowerOf2_64(U) ? unsigned(U) : 0;
  };
  const auto &Siblings = L->getParentLoop() ? L->getParentLoop()->getSubLoops()
                                            : LI.getTopLevelLoops();
  for (const Loop *O : Siblings) {
    DebugLoc OS = O == L ? DebugLoc() : startLoc(*O);
    if (!OS || OS.getLine() != Start.getLine() || OS.getCol() != Start.getCol() ||
        !uncounted(O))
      continue;
    uint64_t SL = ivStep(L), SO = ivStep(O);
    if (!SL || !SO)
      continue;
    if (unsigned U = RemainderFactor(L); U && SO == U * SL)
      return std::make_pair(U, true);
    if (unsigned U = RemainderFactor(O); U && SL == U * SO)
      return std::make_pair(U, false);
  }
  return std::nullopt;
}

/// The largest value of S over the iterations of the loops of nest Top
/// (an affine AddRec of a loop in the nest takes its value at the first or
/// the last iteration), in source names; nullopt if not expressible.
std::optional<std::string> Builder::maxOverNest(const SCEV *S, Loop *Top) {
  auto *AR = dyn_cast<SCEVAddRecExpr>(S);
  if (!AR || !Top->contains(AR->getLoop()))
    return Text.str(S);
  if (!AR->isAffine())
    return std::nullopt;
  const SCEV *BTC = SE.getBackedgeTakenCount(AR->getLoop());
  if (isa<SCEVCouldNotCompute>(BTC))
    return std::nullopt;
  auto Start = maxOverNest(AR->getStart(), Top);
  auto Step = maxOverNest(AR->getStepRecurrence(SE), Top);
  auto Trip = maxOverNest(BTC, Top);
  if (!Start || !Step || !Trip)
    return std::nullopt;
  return "max(" + *Start + ", " + *Start + " + " + *Step + "*(" + *Trip + "))";
}

/// S in source names with the loops of the nest being measured written
/// as their iteration counters k_<fn>_irN (NestIndex); nullopt if not
/// expressible.
std::optional<std::string> Builder::indexedText(const SCEV *S) {
  auto Saved = Text.LoopIndex;
  for (auto &[L, K] : NestIndex)
    Text.LoopIndex[L] = K;
  auto R = Text.str(S);
  Text.LoopIndex = std::move(Saved);
  return R;
}

/// Backedge-taken count of loop L of nest Top in source names: in a
/// Triangular nest, a count that depends on an enclosing loop of the nest
/// is written in that loop's counter (indexedText: trisolve's j < i runs
/// k_i times, LU's rows n - 1 - k_k); otherwise the largest over the nest,
/// or, where ScalarEvolution cannot write it so, its trip parameter
/// N_<fn>_<line> minus 1 (mergeIR replaces the parameter by the source
/// loop's count where it can).
std::optional<std::string> Builder::btcText(const Loop *L, Loop *Top) {
  const SCEV *BTC = backedgeCount(L);
  if (!isa<SCEVCouldNotCompute>(BTC)) {
    if (Triangular && dependsOnNest(BTC, Top))
      if (auto T = indexedText(BTC))
        return T;
    if (auto T = maxOverNest(BTC, Top))
      return T;
    // (a count that depends on the nest through a phi's value: the start
    // of LU's scalar remainder loop after the vector loop of row k)
    if (auto T = indexedText(BTC))
      return T;
  }
  auto It = LoopTrip.find(L);
  if (It != LoopTrip.end() && It->second.find("N_") != std::string::npos)
    return "(" + It->second + " - 1)";
  return std::nullopt;
}

} // namespace irseg
} // namespace segtime
