//===- IRMemStream.cpp - Memory footprint and streams of IR loop nests ----===//
///
/// \file
/// Footprint, traffic and the reference streams of each outermost loop nest
/// (Node::Footprint, Node::Traffic, Node::Streams) for the cache-line memory
/// term of the ICC level: affine addresses split into steps per loop,
/// triangular nests summed, indirect references bounded or noted.
///
//===----------------------------------------------------------------------===//
#include "passes/IRSegBuilder.h"
#include "passes/IRMemInductions.h"
#include "passes/IRMemBisect.h"

#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>

using namespace llvm;

namespace segtime {
namespace irseg {

/// Does S vary with a loop of nest Top (contain one of its AddRecs)?
bool Builder::dependsOnNest(const SCEV *S, Loop *Top) {
  return SCEVExprContains(S, [&](const SCEV *Y) {
    auto *AR = dyn_cast<SCEVAddRecExpr>(Y);
    return AR && Top->contains(AR->getLoop());
  });
}

/// Does expression text E mention the identifier Name?
bool Builder::mentions(const std::string &E, const std::string &Name) {
  return substitute(E, Name, "") != E;
}

/// E with the identifier Name (whole words only) replaced by (Value).
std::string Builder::substitute(const std::string &E, const std::string &Name,
                                       const std::string &Value) {
  auto IdChar = [](char C) { return std::isalnum(static_cast<unsigned char>(C)) || C == '_'; };
  std::string R;
  for (size_t I = 0; I < E.size();) {
    if (E.compare(I, Name.size(), Name) == 0 && (I == 0 || !IdChar(E[I - 1])) &&
        (I + Name.size() == E.size() || !IdChar(E[I + Name.size()]))) {
      R += Value.empty() ? "" : "(" + Value + ")";
      I += Name.size();
    } else {
      R += E[I++];
    }
  }
  return R;
}

/// Splits address S into its steps per loop of nest Top (added to Steps)
/// and the rest (returned): AddRecs {a,+,s}<L> anywhere in sums, constant
/// multiples and integer casts (the row offset zext(8*{0,+,n}<i>) of a
/// 32-bit i*n, which ScalarEvolution cannot prove free of wrapping: like
/// ScevText, the values are assumed not to wrap). Sets Ok to false for a
/// non-affine AddRec of the nest.
const SCEV *Builder::peel(const SCEV *S, Loop *Top,
                          std::map<const Loop *, const SCEV *> &Steps, bool &Ok) {
  auto Add = [&](const Loop *L, const SCEV *Step) {
    const SCEV *&Slot = Steps[L];
    Slot = Slot ? SE.getAddExpr(Slot, Step) : Step;
  };
  if (auto *AR = dyn_cast<SCEVAddRecExpr>(S); AR && Top->contains(AR->getLoop())) {
    if (!AR->isAffine()) {
      Ok = false;
      return S;
    }
    Add(AR->getLoop(), AR->getStepRecurrence(SE));
    return peel(AR->getStart(), Top, Steps, Ok);
  }
  if (!dependsOnNest(S, Top))
    return S;
  if (auto *A = dyn_cast<SCEVAddExpr>(S)) {
    SmallVector<const SCEV *, 4> Rest;
    for (const SCEV *Op : A->operands())
      Rest.push_back(peel(Op, Top, Steps, Ok));
    return SE.getAddExpr(Rest);
  }
  std::map<const Loop *, const SCEV *> Sub;
  if (auto *M = dyn_cast<SCEVMulExpr>(S);
      M && M->getNumOperands() == 2 && isa<SCEVConstant>(M->getOperand(0))) {
    const SCEV *Rest = peel(M->getOperand(1), Top, Sub, Ok);
    for (auto &[L, St] : Sub)
      Add(L, SE.getMulExpr(M->getOperand(0), St));
    return SE.getMulExpr(M->getOperand(0), Rest);
  }
  if (auto *C = dyn_cast<SCEVZeroExtendExpr>(S)) {
    const SCEV *Rest = peel(C->getOperand(), Top, Sub, Ok);
    for (auto &[L, St] : Sub)
      Add(L, SE.getZeroExtendExpr(St, C->getType()));
    return SE.getZeroExtendExpr(Rest, C->getType());
  }
  if (auto *C = dyn_cast<SCEVSignExtendExpr>(S)) {
    const SCEV *Rest = peel(C->getOperand(), Top, Sub, Ok);
    for (auto &[L, St] : Sub)
      Add(L, SE.getSignExtendExpr(St, C->getType()));
    return SE.getSignExtendExpr(Rest, C->getType());
  }
  return S; // (an AddRec under a division or a product of two: not followed)
}

/// The bytes reference R touches in one execution of nest Top, as text.
/// Per loop from R's innermost outwards, a loop that moves the address by
/// s bytes per iteration over b + 1 iterations (b the backedge-taken
/// count) extends the range swept so far by s x b (the span of the
/// address range: exact for dense walks, rows that fill a matrix).
///
/// In a triangular nest (Triangular: an inner loop's count depends on an
/// enclosing loop's counter k, trisolve's j < i, LU's trailing rows), the
/// range alone counts the whole rectangle, so the bytes touched are
/// bounded apart from the range: per loop, touched' = min(range',
/// per-iteration sum), both upper bounds of the union. The range' is the
/// larger of range(0) and s x b + range(b) (the rows move on as they
/// shrink or grow; 0 where a loop runs no iteration); the per-iteration
/// sum is the exact symbolic sum seg_sum(max(0, touched(k)), k, 0, b) when
/// touched depends on k (the lower triangle: sum_i 8 i B), else (b + 1) x
/// max(touched, 64) (one 64 B line at least per iteration: a diagonal
/// walk a[i*n + i] touches n lines, not its 8 n^2 B range); a loop that
/// does not move the address takes the largest touched(k). "Largest" over
/// k is the larger of the values at k = 0 and k = b: exact for values
/// monotone in k (linear counts), an assumption otherwise. Dense steps (a
/// number of at most 64 B) keep touched = range. nullopt if a step or
/// count cannot be written.
std::optional<std::string> Builder::spanOf(const MemRef &R, Loop *Top) {
  std::string Range = std::to_string(R.Size), Touched = Range;
  std::set<const Loop *> Done;
  // (Step null: the loop does not move the address)
  auto Extend = [&](const Loop *L, const SCEV *Step) -> bool {
    auto StepS = Step ? maxOverNest(Step, Top) : std::optional<std::string>("0");
    auto TripS = btcText(L, Top);
    if (!StepS || !TripS)
      return false;
    Done.insert(L);
    std::string Moved = *StepS + "*(" + *TripS + ")";
    if (!Triangular) {
      Range += " + " + Moved;
      Touched = Range;
      return true;
    }
    const std::string &K = NestIndex.at(L);
    bool Moves = Step && !Step->isZero();
    if (!mentions(Range, K) && !mentions(Touched, K)) {
      auto *C = Step ? dyn_cast<SCEVConstant>(Step) : nullptr;
      bool Dense = C && C->getAPInt().abs().ule(64);
      bool Same = Touched == Range;
      Range += " + " + Moved;
      Touched = Same && Dense ? Range
                              : "min(" + Range + ", (" + *TripS + " + 1)*max(" + Touched +
                                    ", 64))";
      return true;
    }
    auto At = [&](const std::string &E, const std::string &V) {
      return "max(0, " + substitute(E, K, V) + ")";
    };
    Range = "max(" + At(Range, "0") + ", " + (Moves ? Moved + " + " : "") +
            At(Range, *TripS) + ")";
    std::string Each = Moves ? "seg_sum(max(0, " + Touched + "), " + K + ", 0, " + *TripS + ")"
                             : "max(" + At(Touched, "0") + ", " + At(Touched, *TripS) + ")";
    Touched = "min(" + Range + ", " + Each + ")";
    return true;
  };
  for (Loop *L = R.Inner; L && Top->contains(L); L = L->getParentLoop()) {
    auto It = R.Steps.find(L);
    if (It != R.Steps.end() || mentions(Range, NestIndex.at(L)) ||
        mentions(Touched, NestIndex.at(L)))
      if (!Extend(L, It != R.Steps.end() ? It->second : nullptr))
        return std::nullopt;
  }
  // (an address that moves with a loop it is not in; in the nest's
  // preorder, not by Loop address, so that the text is reproducible)
  for (const Loop *L : Top->getLoopsInPreorder())
    if (auto It = R.Steps.find(L); It != R.Steps.end() && !Done.count(L) &&
                                   !Extend(L, It->second))
      return std::nullopt;
  return Touched;
}

/// Does step S walk down for non-negative parameters: a negative
/// constant, a negative multiple of a value (or a positive multiple of a
/// negative one, through integer casts), or a sum of such (backsub's
/// rows, -8 n - 8 B per row)? Sizes are taken as non-negative, as the
/// text of trip counts does.
static bool negativeStep(const SCEV *S) {
  if (auto *C = dyn_cast<SCEVConstant>(S))
    return C->getAPInt().isNegative();
  if (auto *M = dyn_cast<SCEVMulExpr>(S); M && M->getNumOperands() == 2) {
    auto *C = dyn_cast<SCEVConstant>(M->getOperand(0));
    return C && C->getAPInt().isNegative() != negativeStep(M->getOperand(1));
  }
  if (auto *A = dyn_cast<SCEVAddExpr>(S))
    return llvm::all_of(A->operands(), negativeStep);
  if (auto *X = dyn_cast<SCEVIntegralCastExpr>(S)) // (values taken not to wrap)
    return negativeStep(X->getOperand());
  return false;
}

/// Does call C touch no memory the nest's references model: a library
/// function (TargetLibraryInfo) without pointer arguments that may only
/// write (sin, cos, sqrt: errno)?
static bool errnoOnlyCall(const CallBase &C, std::optional<TargetLibraryInfoImpl> &Impl) {
  const Function *Callee = C.getCalledFunction();
  if (!Callee || !Callee->isDeclaration() || !C.onlyWritesMemory())
    return false;
  for (const Use &A : C.args())
    if (A->getType()->isPtrOrPtrVectorTy())
      return false;
  if (!Impl)
    Impl.emplace(Triple(C.getModule()->getTargetTriple()));
  TargetLibraryInfo TLI(*Impl, C.getFunction());
  LibFunc LF;
  return TLI.getLibFunc(*Callee, LF) && TLI.has(LF);
}

/// The name of base pointer Base: the source parameter's for an argument
/// (IR names are dropped in release builds), else the IR name.
std::string Builder::baseName(const SCEV *Base) {
  auto *U = dyn_cast<SCEVUnknown>(Base);
  if (!U)
    return "";
  auto *A = dyn_cast<Argument>(U->getValue());
  return A && A->getArgNo() < Text.Params.size() ? Text.Params[A->getArgNo()]
                                                 : U->getValue()->getName().str();
}

/// Bytes of the object Base points to when they are known (a global or
/// a fixed-size local array), as text; else the length of a memset or
/// memcpy of this function that starts at Base (the histogram's bins
/// cleared before the counting loop: a lower bound of the object, taken
/// as the part the function uses); nullopt otherwise (a pointer argument
/// the function only indexes).
std::optional<std::string> Builder::extentOf(const SCEV *Base) {
  auto *U = dyn_cast<SCEVUnknown>(Base);
  if (!U)
    return std::nullopt;
  const DataLayout &DL = F.getParent()->getDataLayout();
  if (auto *G = dyn_cast<GlobalVariable>(U->getValue()))
    return std::to_string(DL.getTypeAllocSize(G->getValueType()).getFixedValue());
  if (auto *A = dyn_cast<AllocaInst>(U->getValue()))
    if (auto Size = A->getAllocationSize(DL); Size && !Size->isScalable())
      return std::to_string(Size->getFixedValue());
  for (Instruction &I : instructions(F))
    if (auto *M = dyn_cast<MemIntrinsic>(&I); M && SE.getSCEV(M->getRawDest()) == Base)
      if (!isa<SCEVCouldNotCompute>(SE.getSCEV(M->getLength())))
        if (auto T = Text.str(SE.getSCEV(M->getLength())))
          return T;
  return std::nullopt;
}

/// The stream of an indirect reference in loop Inner of nest Top (Size
/// bytes, a store if Store) whose object is Extent bytes (an estimate for
/// the cache-line model): the object's lines, touched once (a pseudo-loop
/// of Extent / 64 steps of 64 B inside the reference's loops), and again
/// on every iteration of its loops (stride 0: kept while an iteration's
/// lines fit, else brought in again). Refs references of the kind
/// (loads or stores) reach the object in one iteration of Inner (the lanes
/// of a vectorised gather): each further one is an offset "0" (an access
/// of its own at an unknown element). TripOf and IdOf give a loop's
/// backedge-taken count as text and its node id; empty if a count cannot
/// be written.
static MemStream indexedStream(Loop *Inner, Loop *Top, unsigned Size, bool Store, unsigned Refs,
                               const std::string &Name, const std::string &Extent,
                               function_ref<std::optional<std::string>(Loop *)> TripOf,
                               function_ref<std::string(Loop *)> IdOf) {
  MemStream M;
  M.Base = Name;
  (Store ? M.Store : M.Load) = true;
  M.Size = Size;
  M.Offsets.assign(Refs > 1 ? Refs - 1 : 0, "0");
  M.Loops.push_back({IdOf(Inner) + ".object", "64", "(" + Extent + ")/64", ""});
  for (Loop *L = Inner; L && Top->contains(L); L = L->getParentLoop()) {
    auto Trip = TripOf(L);
    if (!Trip)
      return {};
    M.Loops.push_back({IdOf(L), "0", "(" + *Trip + ") + 1", ""});
  }
  return M;
}

/// The bytes of the object of an indirect reference (Size bytes, in loop
/// Inner of nest Top) whose size the code does not give (x[idx[i]] of a
/// pointer argument), estimated: the reference touches at most one element
/// per access, and the object is taken to have one element per iteration
/// of the nest's outermost loop when that is fewer (a vector indexed by row
/// or element number: x of y = A x, y[i] += a x[idx[i]]): min(Refs x
/// accesses, P x outermost trip) x Size, Refs the references to it in one
/// iteration of Inner (refsTo), P = Refs if Inner is the outermost loop (a
/// vectorised gather: its lanes are iterations of the source loop), else 1. TripOf gives a loop's
/// backedge-taken count as text; nullopt if a count cannot be written.
static std::optional<std::string>
guessedExtent(Loop *Inner, Loop *Top, unsigned Size, unsigned Refs,
              function_ref<std::optional<std::string>(Loop *)> TripOf) {
  std::string Accesses = "1";
  for (Loop *L = Inner; L && Top->contains(L); L = L->getParentLoop()) {
    auto Trip = TripOf(L);
    if (!Trip)
      return std::nullopt;
    Accesses += "*((" + *Trip + ") + 1)";
  }
  auto Outer = TripOf(Top);
  if (!Outer)
    return std::nullopt;
  // (a reference in the outermost loop itself: its Refs lanes are
  // iterations of the source loop)
  std::string PerIter = Inner == Top ? std::to_string(Refs) : "1";
  return std::to_string(Size) + "*min(" + std::to_string(Refs) + "*" + Accesses + ", " +
         PerIter + "*((" + *Outer + ") + 1))";
}

/// How guessedExtent estimates (the note of an indirect reference).
static const std::string GuessNote = "one element per access, at most one per reference and "
                                     "iteration of the outermost loop";

/// Loads (or, with Store, stores) in loop L itself (not its subloops) whose
/// address has base pointer Base: the references to one object in one
/// iteration (the eight scalar loads of a gather vectorised by 8).
static unsigned refsTo(const SCEV *Base, Loop *L, bool Store, ScalarEvolution &SE,
                       LoopInfo &LI) {
  unsigned N = 0;
  for (BasicBlock *B : L->blocks())
    for (Instruction &I : *B) {
      Value *P = Store ? (isa<StoreInst>(I) ? cast<StoreInst>(I).getPointerOperand() : nullptr)
                       : (isa<LoadInst>(I) ? cast<LoadInst>(I).getPointerOperand() : nullptr);
      N += P && LI.getLoopFor(B) == L && SE.getPointerBase(SE.getSCEV(P)) == Base;
    }
  return N;
}

/// The largest of the ranges Spans (text), "max(..)" of them.
static std::string largestOf(const std::set<std::string> &Spans) {
  std::string R;
  for (const std::string &X : Spans)
    R = R.empty() ? "(" + X + ")" : "max(" + R + ", " + X + ")";
  return R;
}

/// Adds indexed stream M to Indexed, or its load or store to the stream of
/// the same object in the same loop (hist[d[i]]++: the load and the store
/// touch one object); a copy of a bisection (sameBisection) is one more
/// search per iteration: an offset "0".
static void addIndexed(std::vector<MemStream> &Indexed, MemStream M) {
  auto Same = llvm::find_if(Indexed, [&](const MemStream &X) {
    return isBisection(M) ? sameBisection(X, M)
                          : X.Base == M.Base && X.Loops[0].Loop == M.Loops[0].Loop;
  });
  if (Same == Indexed.end()) {
    Indexed.push_back(std::move(M));
    return;
  }
  if (isBisection(M))
    Same->Offsets.push_back("0");
  Same->Load |= M.Load;
  Same->Store |= M.Store;
}

/// A load, store or masked vector load or store: its address, the type it
/// accesses and whether it stores.
struct MemAccess {
  Value *Ptr;
  Type *Ty;
  bool Store;
};

/// The access of instruction I (accessOf), nullopt if it is none; Opaque
/// set if I is a call that may touch memory the references do not model
/// (memcpy, gathers, calls other than errnoOnlyCall's). Libs: made on the
/// first call met.
static std::optional<MemAccess> accessOf(Instruction &I, bool &Opaque,
                                      std::optional<TargetLibraryInfoImpl> &Libs) {
  auto *II = dyn_cast<IntrinsicInst>(&I);
  if (II && (II->getIntrinsicID() == Intrinsic::masked_load ||
             II->getIntrinsicID() == Intrinsic::masked_store)) {
    // A masked vector access (a vectorised if): its lanes' lines, as an
    // unmasked access of the vector would touch.
    bool Store = II->getIntrinsicID() == Intrinsic::masked_store;
    return MemAccess{II->getArgOperand(Store ? 1 : 0),
                  Store ? II->getArgOperand(0)->getType() : II->getType(), Store};
  }
  if (auto *L = dyn_cast<LoadInst>(&I))
    return MemAccess{L->getPointerOperand(), L->getType(), false};
  if (auto *St = dyn_cast<StoreInst>(&I))
    return MemAccess{St->getPointerOperand(), St->getValueOperand()->getType(), true};
  if (auto *C = dyn_cast<CallBase>(&I))
    Opaque = C->mayReadOrWriteMemory() && !isa<DbgInfoIntrinsic>(C) &&
             !(II && II->isAssumeLikeIntrinsic()) && !errnoOnlyCall(*C, Libs);
  return std::nullopt;
}

/// Are loops A and B copies of one source loop that an unrolled enclosing
/// loop made (trmv's rows i .. i+7, each with its own copy of the j loop)?
/// Walking up from both to their first common loop, each pair must lie at
/// the same depth and start at the same source line and column. Returns the
/// pairs (B's loop -> A's), empty if A is B; nullopt if they are no copies.
static std::optional<std::map<const Loop *, const Loop *>> copiesOf(const Loop *A,
                                                                    const Loop *B) {
  std::map<const Loop *, const Loop *> Map;
  for (; A != B; A = A->getParentLoop(), B = B->getParentLoop()) {
    if (!A || !B || A->getLoopDepth() != B->getLoopDepth())
      return std::nullopt;
    DebugLoc LA = A->getStartLoc(), LB = B->getStartLoc();
    if (!LA || !LB || LA.getLine() != LB.getLine() || LA.getCol() != LB.getCol())
      return std::nullopt;
    Map[B] = A;
  }
  return Map;
}

/// Steps of a reference per loop (Builder::MemRef::Steps).
using LoopSteps = std::map<const Loop *, const SCEV *>;

/// Do two references of one base pointer, with steps LS in innermost loop
/// LI and RS in RI, move alike: the same step per loop, where R's loops may
/// be copies of L's (copiesOf: the unrolled copies of a row walk)? Then R
/// is L's stream, at offset Start(R) - Start(L), and the line model decides
/// whether they share lines (a copy a few elements on: x[j] of the rows
/// i+1 .. i+7) or not (another row).
static bool sameWalk(const Loop *LI, const LoopSteps &LS, const Loop *RI, const LoopSteps &RS) {
  if (LI == RI)
    return LS == RS;
  auto Map = copiesOf(LI, RI);
  if (!Map || LS.size() != RS.size())
    return false;
  for (auto &[Lp, St] : RS) {
    auto M = Map->find(Lp);
    auto It = LS.find(M == Map->end() ? Lp : M->second);
    if (It == LS.end() || It->second != St)
      return false;
  }
  return true;
}

/// How a reference R relates to an earlier one J of the same base pointer
/// in another loop: NotCopy, unless their loops are copies (sameWalk) that
/// an unrolled enclosing loop P made: SameLines if R starts less than a
/// line from J (x[j] of the rows i+1 .. i+7 of trmv: one walk), Ahead if
/// it starts m <= 8 iterations of one of J's loops on and then less than a
/// line away (transpose_ip's column walks of the columns i+1 .. i+3: the
/// same lines, a few rows down), OtherRow if R's offset is a fraction r / U
/// of J's step in P (U <= 16: the row i+r of U unrolled rows). Two versions
/// of a loop (a vector loop and its remainder, which starts where the
/// other stopped) are NotCopy.
enum class CopyKind { NotCopy, SameLines, Ahead, OtherRow };
template <class Ref> // (a template: Builder::MemRef is private)
static CopyKind copyKind(const Ref &J, const Ref &R, ScalarEvolution &SE) {
  if (J.Base != R.Base || J.Inner == R.Inner || !sameWalk(J.Inner, J.Steps, R.Inner, R.Steps))
    return CopyKind::NotCopy;
  const SCEV *D = SE.getMinusSCEV(R.Start, J.Start);
  auto Near = [](const SCEV *X) {
    auto *C = dyn_cast<SCEVConstant>(X);
    return C && C->getAPInt().abs().ult(64);
  };
  if (isa<SCEVCouldNotCompute>(D))
    return CopyKind::NotCopy;
  if (Near(D))
    return CopyKind::SameLines;
  for (auto &[L, St] : J.Steps)
    for (int M = 1; M <= 8 && !St->isZero() && St->getType() == D->getType(); ++M)
      if (Near(SE.getMinusSCEV(D, SE.getMulExpr(St, SE.getConstant(St->getType(), M)))) ||
          Near(SE.getAddExpr(D, SE.getMulExpr(St, SE.getConstant(St->getType(), M)))))
        return CopyKind::Ahead;
  const Loop *P = J.Inner, *Q = R.Inner;
  for (; P != Q; P = P->getParentLoop(), Q = Q->getParentLoop())
    ;
  auto It = J.Steps.find(P);
  if (!P || It == J.Steps.end() ||
      D->getType() != It->second->getType())
    return CopyKind::NotCopy;
  auto Fraction = [&](const SCEV *X, const SCEV *Step) {
    for (unsigned U = 2; U <= 16; ++U)
      for (unsigned Rw = 1; Rw < U; ++Rw) {
        const SCEV *Lhs = SE.getMulExpr(X, SE.getConstant(X->getType(), U));
        const SCEV *Rhs = SE.getMulExpr(Step, SE.getConstant(X->getType(), Rw));
        if (Lhs == Rhs || Lhs == SE.getNegativeSCEV(Rhs))
          return true;
      }
    return false;
  };
  if (Fraction(D, It->second))
    return CopyKind::OtherRow;
  // (again with the int casts taken as exact: widened)
  if (D->getType()->isIntegerTy())
    if (const SCEV *Dw = widened(D, D->getType(), SE))
      if (const SCEV *Sw = widened(It->second, D->getType(), SE); Sw && Fraction(Dw, Sw))
        return CopyKind::OtherRow;
  return CopyKind::NotCopy;
}

/// The part of its base pointer's footprint that reference R (not yet in
/// Refs, the nest's earlier references) adds to: a part of its own per
/// copy loop (1 + the index of the first reference in it) if it is another
/// row's copy of an earlier reference (copyKind OtherRow: trmv's unrolled
/// rows), else 0. The footprint sums the parts (rows apart) and takes the
/// largest range within one (the ranges of one walk overlap).
template <class Ref>
static unsigned copyPart(const std::vector<Ref> &Refs, const Ref &R, ScalarEvolution &SE) {
  for (const Ref &J : Refs) {
    CopyKind K = copyKind(J, R, SE);
    if (K == CopyKind::SameLines || K == CopyKind::Ahead)
      return 0;
    if (K == CopyKind::NotCopy)
      continue;
    auto First = llvm::find_if(Refs, [&](const Ref &X) { return X.Inner == R.Inner; });
    return 1 + static_cast<unsigned>(First - Refs.begin());
  }
  return 0;
}

/// The reference streams of nest Top for the cache-line memory term
/// (MemStream): references with one base pointer, the same steps per loop
/// (sameWalk: in one loop, or in the copies of a loop that an unrolled
/// enclosing loop made, less than a line apart) and start addresses that differ by an expressible
/// amount form one stream. Empty if a trip count or a step cannot be
/// written in source names.
std::vector<MemStream> Builder::streamsOf(Loop *Top, const std::vector<MemRef> &Refs) {
  std::vector<MemStream> Out;
  std::vector<const MemRef *> Leader; // first reference of each stream
  // Per stream: offsets of its loop's copies (SameLines) and the unrolled loop.
  std::vector<std::set<int64_t>> CopyAt;
  std::vector<const Loop *> CopiedBy;
  for (const MemRef &R : Refs) {
    std::optional<std::string> Offset;
    const SCEV *D = nullptr;
    size_t K = 0;
    for (; K < Out.size(); ++K) {
      const MemRef &L = *Leader[K];
      // (a copy of a loop joins a stream of the first copy only if it
      // shares its lines: copyKind)
      if (L.Base != R.Base || !sameWalk(L.Inner, L.Steps, R.Inner, R.Steps) ||
          (L.Inner != R.Inner && copyKind(L, R, SE) != CopyKind::SameLines))
        continue;
      D = SE.getMinusSCEV(R.Start, L.Start);
      if (isa<SCEVCouldNotCompute>(D))
        continue;
      if ((Offset = Text.str(D)))
        break;
    }
    if (K < Out.size()) {
      MemStream &M = Out[K];
      (R.Store ? M.Store : M.Load) = true;
      M.Size = std::max(M.Size, R.Size);
      const MemRef &L = *Leader[K];
      if (auto *C = dyn_cast<SCEVConstant>(D); C && L.Inner != R.Inner) {
        const Loop *P = L.Inner, *Q = R.Inner; // (to the unrolled loop)
        for (; P != Q; P = P->getParentLoop(), Q = Q->getParentLoop())
          ;
        CopyAt[K].insert(C->getAPInt().getSExtValue());
        CopiedBy[K] = P;
      }
      if (*Offset != "0" &&
          std::find(M.Offsets.begin(), M.Offsets.end(), *Offset) == M.Offsets.end())
        M.Offsets.push_back(*Offset);
      continue;
    }
    CopyAt.emplace_back();
    CopiedBy.push_back(nullptr);
    MemStream M;
    M.Base = baseName(R.Base);
    (R.Store ? M.Store : M.Load) = true;
    M.Size = R.Size;
    for (Loop *L = R.Inner; L && Top->contains(L); L = L->getParentLoop()) {
      auto Trip = btcText(L, Top);
      auto It = R.Steps.find(L);
      auto Stride = It == R.Steps.end() ? std::optional<std::string>("0")
                                        : maxOverNest(It->second, Top);
      if (!Trip || !Stride)
        return {};
      M.Loops.push_back({LoopNodeId.at(L), *Stride, "(" + *Trip + ") + 1", ""});
      // A loop whose counter an inner loop's count depends on (triangular)
      // names it, for the line model to sum over.
      for (size_t J = 0; J + 1 < M.Loops.size(); ++J)
        if (mentions(M.Loops[J].Trip, NestIndex.at(L)))
          M.Loops.back().Index = NestIndex.at(L);
    }
    Out.push_back(std::move(M));
    Leader.push_back(&R);
  }
  // The U copies of a stream's loop that an unrolled loop P made, c, 2c, ..
  // bytes apart (nbody's x[j] of bodies i+1, i+2), run one after the other:
  // a copy finds the previous one's lines only if a walk fits the cache. So
  // they are a loop "<P's id>.copies" (stride c, U iterations) between the
  // copied loops and P, not offsets (which always shared the lines).
  for (size_t K = 0; K < Out.size(); ++K) {
    const std::set<int64_t> &At = CopyAt[K];
    const Loop *P = CopiedBy[K];
    int64_t C = At.empty() ? 0 : *At.begin() ? *At.begin() : At.size() > 1 ? *++At.begin() : 0;
    if (C <= 0 || !P || !LoopNodeId.count(P))
      continue;
    int64_t U = 1;
    bool Regular = true;
    for (int64_t X : At)
      Regular = Regular && (X == 0 || (X % C == 0 && X / C == U++));
    MemStream &M = Out[K];
    std::string PId = LoopNodeId.at(P);
    auto Pos = std::find_if(M.Loops.begin(), M.Loops.end(), [&](auto &S) { return S.Loop == PId; });
    if (!Regular || Pos == M.Loops.end())
      continue;
    for (int64_t X : At) // (0: no offset written)
      llvm::erase(M.Offsets, std::to_string(X));
    M.Loops.insert(Pos, {PId + ".copies", std::to_string(C), std::to_string(U), ""});
  }
  return Out;
}

/// Traffic of nest Top repeated by its loops that no address moves with but
/// that enclose loops that sweep memory (Sweeping): a time-step loop streams
/// the footprint again per iteration, its trip (TripOf: backedge-taken count
/// as text) multiplies the traffic. "" if a trip cannot be written.
static std::string repeatedTraffic(Loop *Top, const std::set<const Loop *> &Sweeping,
                                   std::string Traffic,
                                   function_ref<std::optional<std::string>(Loop *)> TripOf) {
  std::function<void(Loop *)> Repeat = [&](Loop *L) {
    bool Encloses = false;
    for (const Loop *S : Sweeping)
      Encloses |= S != L && L->contains(S);
    if (!Sweeping.count(L) && Encloses) {
      std::optional<std::string> T = TripOf(L);
      if (!T) {
        Traffic.clear();
        return;
      }
      Traffic = "(" + *T + " + 1)*(" + Traffic + ")";
    }
    for (Loop *Sub : L->getSubLoops())
      if (!Traffic.empty())
        Repeat(Sub);
  };
  Repeat(Top);
  return Traffic;
}

/// Footprint and traffic of the outermost loop Top (Node::Footprint,
/// Node::Traffic): each load and store sweeps |step| x (backedge-taken
/// count) bytes per loop of the nest plus its own size; ranges of one base
/// pointer are merged (largest), loads and stores counted apart for the
/// traffic (spanOf: triangular loops sum their rows). An indirect
/// reference (an address that varies with data) is bounded by its
/// object's extent when known, else left out; either way a MemoryNotes
/// entry says so. Left empty when an address is not an affine function of
/// the nest's loops otherwise, or a call in the nest may touch memory.
/// A footprint range's key: base pointer number, store, copyPart.
using RangeKey = std::tuple<unsigned, bool, unsigned>;

void Builder::memoryOf(Loop *Top, Node &N) {
  static bool Debug = getenv("SEGTIME_DEBUG_MEM");
  auto Fail = [&](const char *Why, Instruction &I) {
    if (Debug) { errs() << "memoryOf: " << Why << ": " << I << "\n"; }
  };
  const DataLayout &DL = F.getParent()->getDataLayout();
  // Base pointers numbered in the order the nest's instructions first use
  // them: the footprint and traffic texts list bases in that order (not by
  // SCEV address, which changes from run to run).
  std::map<const SCEV *, unsigned> BaseNo;
  auto NumberOf = [&](const SCEV *Base) {
    return BaseNo.emplace(Base, static_cast<unsigned>(BaseNo.size())).first->second;
  };
  std::map<RangeKey, std::set<std::string>> Ranges;
  std::set<const Loop *> Sweeping; // loops some address moves with
  std::vector<MemRef> Refs;
  std::set<std::string> Notes; // references left out or bounded (indirect)
  std::vector<MemStream> Indexed; // streams of indirect references (estimated)
  std::map<std::string, unsigned> BisectBase; // a bisection's table: its base number
  // A triangular nest: a loop's count depends on an enclosing loop's
  // counter (spanOf bounds the bytes touched apart from the range).
  Triangular = false;
  for (auto &[L, K] : NestIndex) {
    const SCEV *B = SE.getBackedgeTakenCount(L);
    if (!isa<SCEVCouldNotCompute>(B))
      Triangular |= dependsOnNest(B, Top) || (!maxOverNest(B, Top) && indexedText(B));
  }
  NamedPlaceholders Rows(Text.Named); // (continued starts' steps, named while the texts are written)
  ValueToSCEVMapTy Inductions = nestInductions(Top, LI, SE, LoopTrip, Rows);
  std::optional<TargetLibraryInfoImpl> Libs;
  for (BasicBlock *B : Top->blocks())
    for (Instruction &I : *B) {
      bool Opaque = false;
      std::optional<MemAccess> A = accessOf(I, Opaque, Libs);
      if (Opaque)
        return Fail("call", I); // memcpy, gathered accesses, calls: not modelled
      if (!A)
        continue;
      auto [Ptr, Ty, Store] = *A;
      unsigned Size = DL.getTypeStoreSize(Ty).getFixedValue();
      MemRef R{nullptr, nullptr, {}, LI.getLoopFor(B), Size, Store};
      bool Affine = true;
      const SCEV *Addr = SCEVParameterRewriter::rewrite(SE.getSCEV(Ptr), SE, Inductions);
      const SCEV *S = peel(Addr, Top, R.Steps, Affine);
      if (!Affine)
        return Fail("non-affine", I);
      // What is left must not vary with data inside the nest (x[idx[i]]);
      // a phi (the start of an epilogue loop) is a resume value.
      bool Varies = SCEVExprContains(S, [&](const SCEV *Y) {
        auto *U = dyn_cast<SCEVUnknown>(Y);
        auto *In = U ? dyn_cast<Instruction>(U->getValue()) : nullptr;
        return In && Top->contains(In) && !isa<PHINode>(In);
      });
      const SCEV *Base = SE.getPointerBase(S);
      if (!isa<SCEVUnknown>(Base))
        return Fail(Varies ? "address varies but not affinely" : "base", I);
      if (Varies) {
        // An indirect reference (hist[data[i]]): bounded by its object's
        // extent if known, else by guessedExtent's (a stream, estimated);
        // else left out (MemoryNotes).
        std::string Name = baseName(Base), Access = Store ? "store" : "load";
        if (Name.empty())
          Name = "a pointer loaded from memory"; // -O0: the argument's stack slot
        // A bisection's table: its own line rule (MemoryModelBisect.h).
        if (auto *Ld = dyn_cast<LoadInst>(&I))
          if (auto M = bisectionStream(
                  *Ld, Top, R.Size, Name, LI, SE, [&](const SCEV *X) { return Text.str(X); },
                  [&](Loop *L) { return btcText(L, Top); },
                  [&](Loop *L) { return LoopNodeId.at(L); })) {
            Notes.insert("estimated: " + Name + ": bisection of " + M->Loops[0].Trip +
                         " elements: the lines of its levels (docs/models.md \"Bisections\")");
            BisectBase[Name] = NumberOf(Base);
            addIndexed(Indexed, std::move(*M));
            continue;
          }
        unsigned Refs = std::max(1u, refsTo(Base, R.Inner, Store, SE, LI));
        std::optional<std::string> Extent = extentOf(Base), Guess;
        if (!Extent && (Guess = guessedExtent(R.Inner, Top, R.Size, Refs,
                                              [&](Loop *L) { return btcText(L, Top); })))
          Extent = Guess;
        if (Extent) {
          Ranges[{NumberOf(Base), Store, 0}].insert(*Extent);
          MemStream M = indexedStream(
              R.Inner, Top, R.Size, Store, Refs, Name, *Extent,
              [&](Loop *L) { return btcText(L, Top); },
              [&](Loop *L) { return LoopNodeId.at(L); });
          if (M.Loops.empty()) {
            Notes.insert(Name + ": indirect " + Access + ", bounded by its object's " +
                         *Extent + " B; not a stream of the cache-line model");
          } else {
            // ("estimated: ": the prefix the predictor's ECM test accepts)
            Notes.insert("estimated: " + Name + ": indirect " + Access +
                         (Guess ? ", object size not in the code: " + GuessNote + ", "
                                : std::string(", its object's ")) +
                         *Extent + " B taken as a stream touched once per execution of the nest");
            addIndexed(Indexed, std::move(M));
          }
        } else {
          Notes.insert(Name + ": indirect " + Access +
                       ", object size unknown: left out of the footprint and traffic");
        }
        continue;
      }
      for (auto &[L, Step] : R.Steps) {
        if (negativeStep(Step))
          Step = SE.getNegativeSCEV(Step);
        if (!Step->isZero())
          Sweeping.insert(L);
      }
      auto Span = spanOf(R, Top);
      if (!Span)
        return Fail("text", I);
      R.Base = Base;
      R.Start = S;
      Ranges[{NumberOf(Base), Store, copyPart(Refs, R, SE)}].insert(*Span);
      Refs.push_back(std::move(R));
    }
  for (const MemStream &M : Indexed) // (a bisection's bytes: bisectionBytes)
    if (isBisection(M))
      Ranges[{BisectBase.at(M.Base), false, 0}].insert(bisectionBytes(M));
  N.MemoryNotes.assign(Notes.begin(), Notes.end());
  if (Ranges.empty()) {
    // No load, store or call that touches memory (Simpson's rule, a DFT
    // whose terms are sin/cos): nothing moves between the caches.
    if (Notes.empty())
      N.Footprint = N.Traffic = "0";
    return;
  }
  std::map<std::pair<unsigned, unsigned>, std::set<std::string>> ByBase; // (base no., part)
  std::string Traffic, Footprint;
  for (auto &[Key, Spans] : Ranges) {
    Traffic += (Traffic.empty() ? "" : " + ") + largestOf(Spans);
    ByBase[{std::get<0>(Key), std::get<2>(Key)}].insert(Spans.begin(), Spans.end());
  }
  for (auto &[Base, Spans] : ByBase)
    Footprint += (Footprint.empty() ? "" : " + ") + largestOf(Spans);
  Traffic = repeatedTraffic(Top, Sweeping, Traffic, [&](Loop *L) { return btcText(L, Top); });
  if (Traffic.empty())
    return Fail("repetition trip", *Top->getHeader()->getTerminator());
  N.Traffic = Traffic;
  N.Footprint = Footprint;
  N.Streams = streamsOf(Top, Refs);
  if (!Indexed.empty() && (Refs.empty() || !N.Streams.empty()))
    N.Streams.insert(N.Streams.end(), Indexed.begin(), Indexed.end());
  if (Debug)
    errs() << "memoryOf: " << F.getName() << ": F = " << Footprint << "\n";
}

} // namespace irseg
} // namespace segtime
