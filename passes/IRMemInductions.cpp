//===- IRMemInductions.cpp - Addresses of opaque phis in IR loop nests ----===//
///
/// \file
/// The values that ScalarEvolution leaves opaque in a loop nest's addresses
/// and that the memory streams (IRMemStream.cpp) take as inductions or as
/// where a loop starts (passes/IRMemInductions.h).
///
//===----------------------------------------------------------------------===//
#include "passes/IRMemInductions.h"

#include "llvm/Analysis/ScalarEvolutionExpressions.h"

using namespace llvm;

namespace segtime {
namespace irseg {

/// Whether phi P is the start of a loop in nest Top: the value a header phi
/// of that loop takes from the block Entry names (its preheader, or its one
/// predecessor outside it when the loop has no preheader).
static bool startsLoopIn(const PHINode &P, const Loop *Top, const LoopInfo &LI,
                         BasicBlock *(Loop::*Entry)() const) {
  return llvm::any_of(P.users(), [&](const User *U) {
    auto *H = dyn_cast<PHINode>(U);
    Loop *L = H ? LI.getLoopFor(H->getParent()) : nullptr;
    BasicBlock *In = L ? (L->*Entry)() : nullptr;
    return L && Top->contains(L) && L->getHeader() == H->getParent() && In &&
           H->getIncomingValueForBlock(In) == &P;
  });
}

/// Integer header phis of nest Top's loops that ScalarEvolution leaves
/// opaque but that step by a constant C: phi [Start, preheader], [Next,
/// latch] with Next = phi + C, or Next a phi whose every incoming value is
/// phi + C (stencil2d5's row counter once the vectoriser's versions of the
/// row each increment it). Each is mapped to the AddRec {Start,+,C}<L>, so
/// that addresses in it are affine in L (without it the rows do not move
/// with the loop and the nest's footprint is one row).
ValueToSCEVMapTy opaqueInductions(Loop *Top, ScalarEvolution &SE) {
  ValueToSCEVMapTy Map;
  for (Loop *L : Top->getLoopsInPreorder()) {
    BasicBlock *Pre = L->getLoopPreheader(), *Latch = L->getLoopLatch();
    if (!Pre || !Latch)
      continue;
    for (PHINode &P : L->getHeader()->phis()) {
      const SCEV *S = SE.getSCEV(&P);
      if (!P.getType()->isIntegerTy() || !isa<SCEVUnknown>(S))
        continue;
      auto StepOf = [&](Value *V) -> const SCEV * {
        const SCEV *D = SE.getMinusSCEV(SE.getSCEV(V), S);
        return isa<SCEVConstant>(D) && !D->isZero() ? D : nullptr;
      };
      Value *Next = P.getIncomingValueForBlock(Latch);
      const SCEV *Step = StepOf(Next);
      if (auto *Q = dyn_cast<PHINode>(Next); !Step && Q && Q->getParent() != L->getHeader()) {
        for (Value *V : Q->incoming_values()) {
          const SCEV *D = StepOf(V);
          if (!D || (Step && D != Step)) {
            Step = nullptr;
            break;
          }
          Step = D;
        }
      }
      if (Step)
        Map[&P] = SE.getAddRecExpr(SE.getSCEV(P.getIncomingValueForBlock(Pre)), Step, L,
                                   SCEV::FlagAnyWrap);
    }
  }
  return Map;
}

/// The resume values of the loops in nest Top (a phi outside any loop
/// header that starts a header phi of a loop of the nest: where the scalar
/// remainder of a vectorised loop starts, the vector loop's end or, when it
/// was bypassed, the loop's own start) -> the SCEV of the simplest of its
/// incoming values (ScalarEvolution's expression size), the loop's own
/// start. Opaque, the resume value did not move with the enclosing loops:
/// cholesky's fallback walk down column j from row j, behind a vector loop
/// versioned for n = 1, kept row j's start fixed (only the column moved),
/// and trsv_col's remainder rows stayed in one row. The version's own trip
/// (its frequency-scaled count) says how much of the walk it does; where it
/// starts within the walk is left out (as for the lanes of a vector loop).
void addResumeValues(Loop *Top, LoopInfo &LI, ScalarEvolution &SE,
                            ValueToSCEVMapTy &Map) {
  // (a remainder's resume value may come from an earlier one: trsv_col's
  // vector loop, its remainder and its unrolled epilogue; a few passes)
  for (int Pass = 0; Pass < 3; ++Pass) {
    for (BasicBlock *B : Top->blocks()) {
      if (LI.isLoopHeader(B))
        continue;
      for (PHINode &P : B->phis()) {
        if (Map.count(&P) || !isa<SCEVUnknown>(SE.getSCEV(&P)) ||
            !(P.getType()->isIntegerTy() || P.getType()->isPointerTy()))
          continue;
        if (!startsLoopIn(P, Top, LI, &Loop::getLoopPreheader))
          continue;
        const SCEV *Best = nullptr;
        for (Value *V : P.incoming_values()) {
          auto Known = Map.find(V);
          const SCEV *S = Known != Map.end() ? Known->second : SE.getSCEV(V);
          if (isa<SCEVCouldNotCompute>(S) ||
              (Known == Map.end() && isa<SCEVUnknown>(S) && isa<PHINode>(V)))
            continue;
          if (!Best || S->getExpressionSize() < Best->getExpressionSize())
            Best = S;
        }
        if (Best)
          Map[&P] = Best;
      }
    }
  }
}

/// V without its integer casts (sext, zext, trunc).
static Value *uncast(Value *V) {
  while (auto *C = dyn_cast<CastInst>(V))
    if (C->getOperand(0)->getType()->isIntegerTy() && C->getType()->isIntegerTy())
      V = C->getOperand(0);
    else
      break;
  return V;
}

/// Header phis P of nest Top's loops L (integer, opaque to ScalarEvolution)
/// with: a loop inside L whose header phi starts at P (its value from the
/// loop's one predecessor outside it) (through integer
/// casts, or through a resume phi one of whose values is P: the unrolled
/// part of a data-dependent loop after its remainder), and a loop inside L
/// whose exit test compares with P's next value (its incoming value from
/// L's latch, through casts). spmv's row loop: p runs from rowptr[i] to
/// rowptr[i + 1], and rowptr[i + 1] is the next row's rowptr[i] (the
/// compiler keeps it in a phi instead of loading it again). Before, the
/// start was a value the nest does not move: val and col stayed in one
/// row (spmv_csr n = 2260: 0 lines into L1, cachegrind 3820).
std::map<PHINode *, Loop *> continuedStarts(Loop *Top, ScalarEvolution &SE) {
  std::map<PHINode *, Loop *> Out;
  for (Loop *L : Top->getLoopsInPreorder()) {
    BasicBlock *Pre = L->getLoopPreheader(), *Latch = L->getLoopLatch();
    if (!Pre || !Latch || L->getSubLoops().empty())
      continue;
    for (PHINode &P : L->getHeader()->phis()) {
      if (!P.getType()->isIntegerTy() || !isa<SCEVUnknown>(SE.getSCEV(&P)))
        continue;
      Value *Next = uncast(P.getIncomingValueForBlock(Latch));
      if (Next == &P)
        continue;
      bool Starts = false;
      Loop *Ends = nullptr;
      for (Loop *In : L->getLoopsInPreorder()) {
        if (In == L)
          continue;
        if (BasicBlock *IP = In->getLoopPredecessor()) // (no preheader after -O2's CFG cleanup)
          for (PHINode &H : In->getHeader()->phis()) {
            Value *S = uncast(H.getIncomingValueForBlock(IP));
            if (S == &P)
              Starts = true;
            else if (auto *R = dyn_cast<PHINode>(S); R && R->getParent() != In->getHeader())
              Starts |= llvm::any_of(R->incoming_values(),
                                     [&](Value *V) { return uncast(V) == &P; });
          }
        SmallVector<BasicBlock *, 4> Exiting;
        In->getExitingBlocks(Exiting);
        for (BasicBlock *E : Exiting) {
          auto *Br = dyn_cast<BranchInst>(E->getTerminator());
          auto *Cmp = Br && Br->isConditional() ? dyn_cast<ICmpInst>(Br->getCondition()) : nullptr;
          if (Cmp && !Ends && (uncast(Cmp->getOperand(0)) == Next ||
                               uncast(Cmp->getOperand(1)) == Next))
            Ends = In;
        }
      }
      if (Starts && Ends)
        Out[&P] = Ends;
    }
  }
  return Out;
}

void addContinuedResumes(Loop *Top, LoopInfo &LI, ScalarEvolution &SE,
                         ValueToSCEVMapTy &Continued, ValueToSCEVMapTy &Map) {
  for (BasicBlock *B : Top->blocks()) {
    if (LI.isLoopHeader(B))
      continue;
    for (PHINode &R : B->phis()) {
      if (Map.count(&R))
        continue;
      if (!startsLoopIn(R, Top, LI, &Loop::getLoopPredecessor))
        continue;
      for (Value *V : R.incoming_values())
        if (Continued.count(uncast(V))) {
          Map[&R] = SCEVParameterRewriter::rewrite(SE.getSCEV(V), SE, Continued);
          break;
        }
    }
  }
}

NamedPlaceholders::~NamedPlaceholders() {
  for (Instruction *V : Values) {
    Named.erase(V);
    V->deleteValue();
  }
}

Value *NamedPlaceholders::make(Type *Ty, const std::string &Name) {
  Values.push_back(new FreezeInst(PoisonValue::get(Ty)));
  Named[Values.back()] = Name;
  return Values.back();
}

ValueToSCEVMapTy nestInductions(Loop *Top, LoopInfo &LI, ScalarEvolution &SE,
                                const std::map<const Loop *, std::string> &LoopTrip,
                                NamedPlaceholders &Rows) {
  ValueToSCEVMapTy Inductions = opaqueInductions(Top, SE);
  ValueToSCEVMapTy Continued;
  for (auto &[P, In] : continuedStarts(Top, SE)) {
    Loop *L = LI.getLoopFor(P->getParent());
    auto T = LoopTrip.find(In);
    size_t At = T == LoopTrip.end() ? std::string::npos : T->second.find("N_");
    if (Inductions.count(P) || At == std::string::npos || !L->getLoopPreheader())
      continue;
    size_t End = At + 2;
    while (End < T->second.size() && (isalnum(T->second[End]) || T->second[End] == '_'))
      ++End;
    Value *N = Rows.make(P->getType(), T->second.substr(At, End - At));
    Continued[P] = SE.getAddRecExpr(SE.getSCEV(P->getIncomingValueForBlock(L->getLoopPreheader())),
                                    SE.getUnknown(N), L, SCEV::FlagAnyWrap);
    Inductions[P] = Continued[P];
  }
  addResumeValues(Top, LI, SE, Inductions);
  if (!Continued.empty()) { // (a resume value that starts at such a phi moves with it)
    for (auto &[V, S] : Inductions)
      if (!Continued.count(V))
        S = SCEVParameterRewriter::rewrite(S, SE, Continued);
    addContinuedResumes(Top, LI, SE, Continued, Inductions);
  }
  return Inductions;
}

/// S with its integer casts taken as exact, in type Ty (i64): zero and sign
/// extensions and truncations of subexpressions dropped, leaves sign-extended.
/// Address arithmetic of int indices (signed: no wrap) then cancels where
/// the casts kept SCEV from it: two unrolled rows of backsub start
/// zext((i - 2) n) and zext((i - 1) n) elements in, n apart once widened.
/// Nullptr for a subexpression it does not know (a min, max or division).
const SCEV *widened(const SCEV *S, Type *Ty, ScalarEvolution &SE) {
  if (auto *C = dyn_cast<SCEVConstant>(S))
    return SE.getConstant(C->getAPInt().sextOrTrunc(Ty->getIntegerBitWidth()));
  if (isa<SCEVUnknown>(S))
    return S->getType()->isPointerTy() || S->getType() == Ty ? S
           : S->getType()->getIntegerBitWidth() < Ty->getIntegerBitWidth()
               ? SE.getSignExtendExpr(S, Ty)
               : nullptr;
  if (auto *C = dyn_cast<SCEVCastExpr>(S)) {
    if (isa<SCEVPtrToIntExpr>(C))
      return nullptr;
    return widened(C->getOperand(0), Ty, SE);
  }
  if (auto *N = dyn_cast<SCEVNAryExpr>(S)) {
    SmallVector<const SCEV *, 4> Ops;
    for (const SCEV *O : N->operands()) {
      const SCEV *W = widened(O, Ty, SE);
      if (!W)
        return nullptr;
      Ops.push_back(W);
    }
    if (isa<SCEVAddExpr>(N))
      return SE.getAddExpr(Ops);
    if (isa<SCEVMulExpr>(N))
      return SE.getMulExpr(Ops);
  }
  return nullptr;
}

} // namespace irseg
} // namespace segtime
