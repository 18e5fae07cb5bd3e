//===- IRSeg.cpp - SEG of the optimised IR with IntCC RUVs ---------------===//
///
/// \file
/// USAGE:
///   opt-19 -load-pass-plugin build/lib/segtime-passes.so \
///          -passes='print<segtime-ir>' -disable-output kernel.ll
///   (through clang the same analysis runs after the -O pipeline when the
///   plugin is loaded with -fplugin=build/lib/segtime.so)
///
//===----------------------------------------------------------------------===//
#include "passes/IRSeg.h"
#include "passes/SourceLoc.h"
#include "core/Library.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <functional>
#include <optional>
#include <regex>
#include <set>
#include <tuple>
#include <algorithm>

using namespace llvm;

namespace segtime {

/// A top-tested loop (-O0): its header is its only exiting block and also
/// branches into the loop, so it runs once more per execution of the loop
/// than the body: the final test that leaves.
static bool topTested(const Loop *L) {
  const BasicBlock *H = L->getHeader();
  return L->getExitingBlock() == H && llvm::any_of(successors(H), [&](const BasicBlock *S) {
           return S != H && L->contains(S);
         });
}

/// Whether V depends, within loop P but outside loop L, on a floating-point
/// phi (a recurrence of P, or the value a loop before L in P's iteration
/// left: the LCSSA phi of an unrolled loop's main part).
static bool dependsOnFPPhi(const Value *V, const Loop *P, const Loop *L) {
  SmallPtrSet<const Value *, 16> Seen;
  SmallVector<const Value *, 16> Work{V};
  while (!Work.empty()) {
    auto *I = dyn_cast<Instruction>(Work.pop_back_val());
    if (!I || !P->contains(I) || L->contains(I) || !Seen.insert(I).second)
      continue;
    if (isa<PHINode>(I)) {
      if (I->getType()->isFPOrFPVectorTy())
        return true;
      continue; // an integer phi (a counter) carries no floating-point chain
    }
    for (const Use &U : I->operands())
      Work.push_back(U.get());
  }
  return false;
}

/// The floating-point recurrences of loop L (Node::Chain, docs/models.md
/// "ICC", overlap of iterations): "" none; "own" a header phi of
/// floating-point (or floating-point vector) type whose start value is new
/// in each execution of L (a dot product's sum starting at 0 or b[i]);
/// "continued" one whose start value depends on another floating-point phi
/// of the enclosing loop's iteration (its own recurrence, or the value an
/// earlier loop of the same iteration left), so the chain runs on across
/// executions of L (conv2d's inner loop over one kernel row, an unrolled
/// loop's remainder).
static std::string chainOf(const Loop *L) {
  std::string Kind;
  const Loop *P = L->getParentLoop();
  for (const PHINode &Phi : L->getHeader()->phis()) {
    if (!Phi.getType()->isFPOrFPVectorTy())
      continue;
    Kind = "own";
    for (unsigned I = 0; P && I < Phi.getNumIncomingValues(); ++I)
      if (!L->contains(Phi.getIncomingBlock(I)) && dependsOnFPPhi(Phi.getIncomingValue(I), P, L))
        return "continued";
  }
  return Kind;
}

static std::string typeKey(Type *T) {
  if (auto *VT = dyn_cast<FixedVectorType>(T))
    return "v" + std::to_string(VT->getNumElements()) + typeKey(VT->getElementType());
  if (T->isFloatTy())
    return "f32";
  if (T->isDoubleTy())
    return "f64";
  if (T->isX86_FP80Ty())
    return "f80";
  if (T->isHalfTy())
    return "f16";
  if (T->isIntegerTy())
    return "i" + std::to_string(T->getIntegerBitWidth());
  if (T->isPointerTy())
    return "ptr";
  if (T->isVoidTy())
    return "void";
  return "other";
}

std::string irLibraryCallee(const CallBase &C) {
  if (auto *M = dyn_cast<MemIntrinsic>(&C)) {
    // x86-64's SelectionDAG expands a constant length of up to 8 stores of
    // 16 B inline (MaxStoresPerMemcpy/Memset/Memmove); any other length
    // stays a call of the C library.
    auto *Len = dyn_cast<ConstantInt>(M->getLength());
    if (Len && Len->getZExtValue() <= 128)
      return "";
    switch (M->getIntrinsicID()) {
    case Intrinsic::memcpy:
      return "memcpy";
    case Intrinsic::memmove:
      return "memmove";
    case Intrinsic::memset:
      return "memset";
    default:
      return "";
    }
  }
  const Function *F = C.getCalledFunction();
  if (!F || F->isIntrinsic() || !F->isDeclaration())
    return "";
  std::string Name = F->getName().str();
  return libraryCallInIR(Name) ? Name : "";
}

std::string intccKey(const Instruction &I) {
  if (isa<DbgInfoIntrinsic>(I))
    return "";
  if (auto *II = dyn_cast<IntrinsicInst>(&I)) {
    switch (II->getIntrinsicID()) {
    case Intrinsic::lifetime_start:
    case Intrinsic::lifetime_end:
    case Intrinsic::assume:
    case Intrinsic::experimental_noalias_scope_decl:
    case Intrinsic::pseudoprobe:
    case Intrinsic::dbg_label:
      return "";
    default:
      return "call." + Intrinsic::getBaseName(II->getIntrinsicID()).str() + "." +
             typeKey(II->getType()->isVoidTy() && II->arg_size()
                         ? II->getArgOperand(0)->getType()
                         : II->getType());
    }
  }
  if (auto *C = dyn_cast<CallBase>(&I)) {
    const Function *F = C->getCalledFunction();
    return F ? "call." + F->getName().str() : "call.indirect";
  }
  if (auto *B = dyn_cast<BranchInst>(&I))
    return B->isConditional() ? "br.cond" : "br";
  if (auto *S = dyn_cast<StoreInst>(&I))
    return "store." + typeKey(S->getValueOperand()->getType());
  if (auto *C = dyn_cast<CmpInst>(&I))
    return std::string(I.getOpcodeName()) + "." + typeKey(C->getOperand(0)->getType());
  if (I.getType()->isVoidTy())
    return I.getOpcodeName();
  return std::string(I.getOpcodeName()) + "." + typeKey(I.getType());
}

namespace {

/// Renders SCEV expressions in source names (the syntax of core/Seg.h).
struct ScevText {
  const std::vector<std::string> &Params;
  std::map<const Loop *, std::string> LoopIndex;
  /// Value of a phi on the path the program takes (set by the builder).
  std::function<std::optional<std::string>(PHINode *)> Phi;
  /// Values that were arguments of an inlined call, in the callee's names
  /// ("kernel.n"): those of the calls whose code is being written
  /// (Context, before the function's own parameters), and those of any
  /// call (Named, for values that are not the function's parameters).
  std::map<const Value *, std::string> Context, Named;

  static std::string join(const SCEVNAryExpr *E, const char *Sep, ScevText &T, bool &Ok) {
    std::string S;
    for (const SCEV *Op : E->operands()) {
      auto X = T.str(Op);
      if (!X) {
        Ok = false;
        return "";
      }
      S += (S.empty() ? "" : Sep) + *X;
    }
    return S;
  }
  std::string fold(const SCEVNAryExpr *E, const char *Fn, bool &Ok) {
    std::string S;
    for (const SCEV *Op : E->operands()) {
      auto X = str(Op);
      if (!X) {
        Ok = false;
        return "";
      }
      S = S.empty() ? *X : std::string(Fn) + "(" + S + ", " + *X + ")";
    }
    return S;
  }

  std::optional<std::string> str(const SCEV *S) {
    bool Ok = true;
    std::string R;
    if (auto *C = dyn_cast<SCEVConstant>(S)) {
      const APInt &V = C->getAPInt();
      return V.getBitWidth() <= 64 ? std::to_string(V.getSExtValue()) : std::optional<std::string>();
    }
    if (auto *U = dyn_cast<SCEVUnknown>(S)) {
      if (auto C = Context.find(U->getValue()); C != Context.end())
        return C->second;
      if (auto C = Named.find(U->getValue()); C != Named.end())
        return C->second;
      if (auto *A = dyn_cast<Argument>(U->getValue()))
        if (A->getArgNo() < Params.size() && !Params[A->getArgNo()].empty())
          return Params[A->getArgNo()];
      if (auto *P = dyn_cast<PHINode>(U->getValue()); P && Phi)
        return Phi(P);
      return std::nullopt;
    }
    if (auto *T = dyn_cast<SCEVTruncateExpr>(S)) {
      // trunc to a narrow type is a remainder ((n & 3) is zext(trunc n to i2))
      auto X = str(T->getOperand());
      unsigned W = T->getType()->getIntegerBitWidth();
      if (!X || W > 16)
        return X; // wide truncations (i64 -> i32, masks like & 0x7ffffffc) keep the value
      return "umod(" + *X + ", " + std::to_string(1ull << W) + ")";
    }
    if (auto *C = dyn_cast<SCEVCastExpr>(S))
      return str(C->getOperand()); // zext, sext, ptrtoint: values are non-negative
    if (auto *A = dyn_cast<SCEVAddExpr>(S))
      R = "(" + join(A, " + ", *this, Ok) + ")";
    else if (auto *M = dyn_cast<SCEVMulExpr>(S))
      R = join(M, "*", *this, Ok);
    else if (auto *D = dyn_cast<SCEVUDivExpr>(S)) {
      auto L = str(D->getLHS()), Rt = str(D->getRHS());
      if (!L || !Rt)
        return std::nullopt;
      R = "idiv(" + *L + ", " + *Rt + ")";
    } else if (auto *AR = dyn_cast<SCEVAddRecExpr>(S)) {
      // {start,+,step}<L> = start + step * k_L (k_L: iteration number of L)
      auto It = LoopIndex.find(AR->getLoop());
      if (!AR->isAffine() || It == LoopIndex.end())
        return std::nullopt;
      auto St = str(AR->getStart()), Sp = str(AR->getOperand(1));
      if (!St || !Sp)
        return std::nullopt;
      R = "(" + *St + " + " + *Sp + "*" + It->second + ")";
    } else if (isa<SCEVSMaxExpr, SCEVUMaxExpr>(S))
      R = fold(cast<SCEVNAryExpr>(S), "max", Ok);
    else if (isa<SCEVSMinExpr, SCEVUMinExpr, SCEVSequentialUMinExpr>(S))
      R = fold(cast<SCEVNAryExpr>(S), "min", Ok);
    else
      return std::nullopt;
    if (!Ok)
      return std::nullopt;
    // arithmetic in a narrow type wraps: ({1,+,1} in i2 is (k + 1) mod 4)
    if (S->getType()->isIntegerTy() && S->getType()->getIntegerBitWidth() <= 16)
      R = "umod(" + R + ", " + std::to_string(1ull << S->getType()->getIntegerBitWidth()) + ")";
    return R;
  }
};

/// Builds the IR-level SEG of one function.
class Builder {
public:
  Builder(Function &F, LoopInfo &LI, ScalarEvolution &SE, BranchProbabilityInfo &BPI,
          DominatorTree &DT, const std::vector<std::string> &Params, uint64_t Budget,
          IRFunctionSeg &Out, const CallSiteArgMap *Sites)
      : F(F), LI(LI), SE(SE), BPI(BPI), DT(DT), Text{Params, {}}, Out(Out), Budget(Budget) {
    if (Sites)
      nameCallArgs(*Sites);
    for (BasicBlock *B : ReversePostOrderTraversal<Function *>(&F))
      Order.push_back(B);
    unsigned N = 0;
    for (BasicBlock &B : F)
      Number[&B] = N++;
    // A phi before a loop (the start of a vector epilogue: 0 or n.vec) takes
    // the value of its most frequent incoming edge.
    Text.Phi = [this](PHINode *P) -> std::optional<std::string> {
      if (PhiDepth >= 8) // a chain of phis: give up
        return std::nullopt;
      // A loop-carried phi changes from iteration to iteration: only a
      // geometric one has a value in source names (merge's i and j, moved
      // by data-dependent branches, have none).
      if (this->LI.isLoopHeader(P->getParent()))
        return geometricPhi(P);
      ++PhiDepth;
      auto Exact = exactPhi(P);
      --PhiDepth;
      if (Exact)
        return Exact;
      BasicBlock *Best = nullptr;
      double BestF = -1;
      for (BasicBlock *Pred : P->blocks()) {
        auto It = EdgeFreq.find({Pred, P->getParent()});
        double F = It == EdgeFreq.end() ? -1 : It->second;
        if (F > BestF) {
          BestF = F;
          Best = Pred;
        }
      }
      if (!Best || BestF < 0 || PhiDepth >= 8) // a chain of phis: give up
        return std::nullopt;
      ++PhiDepth;
      auto R = this->Text.str(this->SE.getSCEV(P->getIncomingValueForBlock(Best)));
      --PhiDepth;
      return R;
    };
  }

  void run() {
    Out.Seg = region(nullptr);
    if (CappedFrequencies)
      Out.Notes.push_back(std::to_string(CappedFrequencies) +
                          " block frequencies have more than " + std::to_string(MaxTerms) +
                          " terms in exact conditions: BranchProbabilityInfo's estimates used");
    if (overBudget()) {
      Out.BudgetExceeded = true;
      Out.Notes.push_back("analysis budget exceeded (" + std::to_string(Work) +
                          " units of symbolic work, budget " + std::to_string(Budget) +
                          "): the rest of the function's frequencies are "
                          "BranchProbabilityInfo's estimates");
    }
  }

private:
  /// One call of an inlinedAt chain: the inlined function (IR name) and
  /// the call's location.
  struct InlineLink {
    std::string Callee;
    const DILocation *Site;
  };

  /// A call's location as the inliner copies it into the inlinedAt of the
  /// inlined code (a distinct node of the same line, column and scope).
  using SiteKey = std::tuple<unsigned, unsigned, const DIScope *>;
  static SiteKey siteKey(const DILocation *L) {
    return {L->getLine(), L->getColumn(), L->getScope()};
  }

  /// The calls DL's code was inlined through, innermost first.
  static std::vector<InlineLink> inlineChain(const DILocation *DL) {
    std::vector<InlineLink> C;
    for (const DILocation *L = DL; L && L->getInlinedAt(); L = L->getInlinedAt()) {
      const DISubprogram *SP = L->getScope()->getSubprogram();
      if (!SP)
        break;
      StringRef Name = SP->getLinkageName().empty() ? SP->getName() : SP->getLinkageName();
      C.push_back({Name.str(), L->getInlinedAt()});
    }
    return C;
  }

  /// The location that most of B's costed instructions carry, by their
  /// inlinedAt (the first such instruction's location; ties: the first
  /// seen); null if none has one.
  static const DILocation *majorityLoc(const BasicBlock &B) {
    std::vector<std::pair<const DILocation *, unsigned>> Count; // by inlinedAt, first seen first
    std::vector<const DILocation *> First;
    for (const Instruction &I : B) {
      const DILocation *DL = I.getDebugLoc().get();
      if (!DL || !DL->getLine() || intccKey(I).empty())
        continue;
      auto It = llvm::find_if(Count, [&](auto &P) { return P.first == DL->getInlinedAt(); });
      if (It == Count.end()) {
        Count.push_back({DL->getInlinedAt(), 0});
        First.push_back(DL);
        It = std::prev(Count.end());
      }
      ++It->second;
    }
    const DILocation *Best = nullptr;
    unsigned Most = 0;
    for (size_t K = 0; K < Count.size(); ++K)
      if (Count[K].second > Most) {
        Most = Count[K].second;
        Best = First[K];
      }
    return Best;
  }

  /// The callee-name of every value of F that was an argument of a call
  /// in Sites (a cast's operand too: ScalarEvolution looks through it).
  void nameCallArgs(const CallSiteArgMap &Sites) {
    std::map<const Value *, std::set<std::string>> NamesOf;
    std::map<std::string, std::set<const Value *>> ValuesOf;
    // Only calls inlined into F (a call left as a call keeps its own
    // arguments' names).
    std::set<SiteKey> Inlined;
    for (const Instruction &I : instructions(F))
      for (const DILocation *L = I.getDebugLoc().get(); L; L = L->getInlinedAt())
        if (L->getInlinedAt())
          Inlined.insert(siteKey(L->getInlinedAt()));
    for (const auto &[Site, Args] : Sites)
      for (const auto &[VH, Name] : Args.Args) {
        if (!Inlined.count(siteKey(Site)))
          continue;
        const Value *V = VH;
        auto Local = [&](const Value *X) {
          if (auto *I = dyn_cast_or_null<Instruction>(X))
            return I->getFunction() == &F;
          if (auto *A = dyn_cast_or_null<Argument>(X))
            return A->getParent() == &F;
          return false;
        };
        if (!Local(V))
          continue;
        std::vector<const Value *> Vs{V};
        if (auto *C = dyn_cast<CastInst>(V); C && Local(C->getOperand(0)))
          Vs.push_back(C->getOperand(0));
        for (const Value *X : Vs) {
          SiteNames[siteKey(Site)].try_emplace(X, Name);
          if (!isa<Argument>(X)) {
            NamesOf[X].insert(Name);
            ValuesOf[Name].insert(X);
          }
        }
      }
    // Outside the code of its calls a value goes by a callee's name only
    // if that name is its alone (two calls of kernel with different values
    // of n: kernel.n names neither), the first by text if it has several
    // (independent of the order of Sites, pointers).
    for (auto &[X, Names] : NamesOf)
      for (const std::string &Name : Names)
        if (ValuesOf[Name].size() == 1) {
          Text.Named.emplace(X, Name);
          break;
        }
  }

  /// Enters the code of node N located at DL (null: its parent's): the
  /// arguments of the calls it was inlined through take the callees'
  /// names, and N is recorded as the first node of each call's code that
  /// its parent is not already part of. Returns what to restore.
  std::pair<std::map<const Value *, std::string>, std::vector<const DILocation *>>
  enterInlined(const Node &N, const DILocation *DL) {
    auto Saved = std::make_pair(Text.Context, ParentSites);
    if (!DL)
      return Saved;
    std::vector<InlineLink> Chain = inlineChain(DL);
    std::map<const Value *, std::string> Ctx;
    std::vector<const DILocation *> Mine;
    for (const InlineLink &L : Chain) {
      if (auto It = SiteNames.find(siteKey(L.Site)); It != SiteNames.end())
        for (auto &[V, Name] : It->second)
          Ctx.try_emplace(V, Name);
      Mine.push_back(L.Site);
      if (llvm::is_contained(ParentSites, L.Site))
        continue;
      auto [It, New] = SiteIndex.try_emplace(L.Site, Out.Inlined.size());
      if (New) {
        InlinedSite S;
        S.Callee = L.Callee;
        S.Line = L.Site->getLine();
        S.Col = L.Site->getColumn();
        for (const DILocation *At = L.Site; At; At = At->getInlinedAt())
          S.Where += (S.Where.empty() ? "" : " in ") + At->getFilename().str() + ":" +
                     std::to_string(At->getLine()) + ":" + std::to_string(At->getColumn());
        Out.Inlined.push_back(std::move(S));
      }
      Out.Inlined[It->second].Nodes.push_back(N.Id);
    }
    Text.Context = std::move(Ctx);
    ParentSites = std::move(Mine);
    return Saved;
  }

  /// The member of region L (nullptr: the function body) that contains B:
  /// B itself, or the outermost loop below L that contains it; nullptr if B
  /// is outside L.
  const void *unitOf(Loop *L, BasicBlock *B) {
    Loop *BL = LI.getLoopFor(B);
    if (BL == L)
      return B;
    if (L && !L->contains(B))
      return nullptr;
    while (BL && BL->getParentLoop() != L)
      BL = BL->getParentLoop();
    return BL;
  }

  static SourceRange rangeOf(const DebugLoc &DL) {
    SourceRange R;
    if (DL) {
      R.File = DL->getFilename().str();
      R.Line = R.EndLine = DL.getLine();
      R.Col = R.EndCol = DL.getCol();
    }
    return R;
  }

  static SourceRange rangeOf(const BasicBlock &B) {
    for (const Instruction &I : B)
      if (I.getDebugLoc() && I.getDebugLoc().getLine())
        return rangeOf(I.getDebugLoc());
    return {};
  }

  static std::string num(double V) {
    char Buf[32];
    snprintf(Buf, sizeof Buf, "%.6g", V);
    return Buf;
  }

  /// A block frequency as a polynomial in exact branch conditions:
  /// monomial ("c1*c2", "" for 1) -> coefficient.
  using Poly = std::map<std::string, double>;

  /// Relative execution frequency of each member of region L per execution
  /// of its entry (the loop header, or the function entry). Branch
  /// probabilities from BranchProbabilityInfo, except that a loop guard is
  /// taken (a loop whose trip count formula is positive is entered).
  /// SymFreq receives the same frequencies with exact conditions
  /// (exactCondition) in place of the estimates where there are some.
  std::map<const void *, double> frequencies(Loop *L, std::map<const void *, Poly> &SymFreq) {
    std::map<const void *, double> Freq;
    BasicBlock *Entry = L ? L->getHeader() : &F.getEntryBlock();
    Freq[Entry] = 1;
    SymFreq[Entry] = Poly{{"", 1.0}};

    for (BasicBlock *B : Order) {
      const void *U = unitOf(L, B);
      if (!U)
        continue;
      // All of U's edges in the region are in (reverse post-order): its
      // frequency is complete, and simplified before it is passed on.
      if (U == B || B == static_cast<const Loop *>(U)->getHeader())
        settle(Freq[U], SymFreq[U]);
      if (U != B) { // a subloop: propagate from its header to its exits
        Loop *SL = const_cast<Loop *>(static_cast<const Loop *>(U));
        if (B != SL->getHeader())
          continue;
        SmallVector<std::pair<BasicBlock *, BasicBlock *>, 4> Exits;
        SL->getExitEdges(Exits);
        double Total = 0;
        for (auto &[From, To] : Exits)
          Total += BPI.getEdgeProbability(From, To).getNumerator() /
                   double(BranchProbability::getDenominator());
        for (auto &[From, To] : Exits) {
          const void *UT = unitOf(L, To);
          if (!UT)
            continue;
          double P = BPI.getEdgeProbability(From, To).getNumerator() /
                     double(BranchProbability::getDenominator());
          double Share = Total > 0 ? P / Total : 1.0 / Exits.size();
          Freq[UT] += Freq[U] * Share;
          addScaled(SymFreq[UT], SymFreq[U], Share, "");
          addScaled(SymEdge[{From, To}], SymFreq[U], Share, "");
        }
        continue;
      }
      double FB = Freq[B];
      const void *Guarded = guardedLoop(L, B);
      // An exact condition (a comparison of values in source names) instead
      // of BranchProbabilityInfo's estimate.
      std::optional<std::string> Exact;
      auto *Br = dyn_cast<BranchInst>(B->getTerminator());
      if (Br && Br->isConditional() && Br->getSuccessor(0) != Br->getSuccessor(1))
        Exact = exactCondition(Br);
      // The vectoriser's runtime checks: the alias checks (addresses of
      // different objects) pass, the rest -- enough iterations, a symbolic
      // stride speculated to be 1 (loop versioning) -- exactly.
      if (!Exact && Guarded)
        Exact = checksPassing(Br, static_cast<const Loop *>(Guarded));
      // The zero-trip guard of a part of an unrolled data-dependent loop:
      // taken when that part runs at least once (umod(N, 8) > 0).
      if (!Exact && Guarded)
        Exact = unrolledGuard(Br, static_cast<const Loop *>(Guarded));
      // A data-dependent branch inside the region: a named probability
      // (BPI's estimate by default, a profile's measurement if given).
      std::optional<std::string> Named;
      if (Br && !Exact && !Guarded && Br->isConditional() &&
          Br->getSuccessor(0) != Br->getSuccessor(1) &&
          llvm::all_of(successors(B), [&](BasicBlock *S) {
            return !(L && S == L->getHeader()) && unitOf(L, S);
          }))
        Named = branchParameter(Br);
      if (Named)
        Out.DataBranch[B] = *Named;
      for (BasicBlock *S : successors(B)) {
        if (L && S == L->getHeader())
          continue; // back edge: counted by the trip count
        const void *US = unitOf(L, S);
        if (!US)
          continue; // leaves the region
        double P = BPI.getEdgeProbability(B, S).getNumerator() /
                   double(BranchProbability::getDenominator());
        // The exit test of a top-tested loop (-O0: the header is the only
        // exiting block): its in-loop edge is taken on every iteration the
        // trip count counts, the exit once per execution of the loop.
        if (L && B == L->getHeader() && topTested(L) && !Exact)
          P = 1;
        if (Guarded)
          P = (US == Guarded || DT.dominates(S, static_cast<const Loop *>(Guarded)->getHeader()))
                  ? 1
                  : 0;
        Freq[US] += FB * P;
        EdgeFreq[{B, S}] = FB * P;
        Poly Edge;
        if (Exact || Named)
          addScaled(Edge, SymFreq[B], 1,
                    S == Br->getSuccessor(0) ? Exact ? *Exact : *Named
                                             : negation(Exact ? *Exact : *Named));
        else
          addScaled(Edge, SymFreq[B], P, "");
        addScaled(SymFreq[US], Edge, 1, "");
        SymEdge[{B, S}] = Edge;
        if (auto E = render(Edge)) // S: a block of the region, or a subloop's header
          Out.EdgeFreq[{B, S}] = *E;
      }
    }
    return Freq;
  }


  /// The value of phi P as a sum over its incoming edges of (edge taken) x
  /// (incoming value), when every incoming edge's frequency is a sum of
  /// exact conditions (coefficients 1: 0/1 indicators of the path taken in
  /// one execution of the region): e.g. the start of a scalar loop after the
  /// vectoriser's runtime checks, 0 if the checks failed and n.vec if the
  /// vector loop ran. Where P's block is not reached every term is 0.
  /// nullopt if an edge frequency is an estimate (see Text.Phi).
  std::optional<std::string> exactPhi(PHINode *P) {
    // The incoming edges' frequencies, without the factors common to all of
    // them (those hold whenever P's block is reached).
    std::vector<std::pair<Poly, Value *>> In;
    std::optional<std::set<std::string>> Common;
    for (unsigned I = 0; I < P->getNumIncomingValues(); ++I) {
      auto It = SymEdge.find({P->getIncomingBlock(I), P->getParent()});
      if (It == SymEdge.end())
        return std::nullopt;
      for (auto &[M, C] : It->second) {
        if (C != 1 || M.find("Pir_") != std::string::npos) // probabilities: no 0/1 path
          return std::nullopt;
        std::set<std::string> Fs = factors(M);
        if (!Common)
          Common = Fs;
        for (auto F = Common->begin(); F != Common->end();)
          F = Fs.count(*F) ? std::next(F) : Common->erase(F);
      }
      In.push_back({It->second, P->getIncomingValue(I)});
    }
    std::vector<std::pair<std::string, Value *>> Terms; // (weight, value)
    for (auto &[Edge, V] : In) {
      Poly W;
      for (auto &[M, C] : Edge) {
        std::set<std::string> Fs = factors(M);
        for (const std::string &F : *Common)
          Fs.erase(F);
        W[monomial(Fs)] += C;
      }
      auto R = render(W);
      if (!R || !inScope(*R))
        return std::nullopt;
      if (*R != "0")
        Terms.push_back({*R, V});
    }
    // Two edges: exactly one is taken, so the longer weight is 1 - the other.
    if (Terms.size() == 2) {
      size_t Long = Terms[0].first.size() > Terms[1].first.size() ? 0 : 1;
      Terms[Long].first = Terms[1 - Long].first.empty() ? "0" : negation(Terms[1 - Long].first);
    }
    std::string Sum;
    for (auto &[W, In] : Terms) {
      // (the exit value of a subloop's recurrence, at P's loop)
      auto V = Text.str(SE.getSCEVAtScope(In, LI.getLoopFor(P->getParent())));
      if (!V || !inScope(*V))
        return std::nullopt;
      if (*V == "0" || W == "0")
        continue;
      Sum += (Sum.empty() ? "" : " + ") + (W.empty() ? *V : "(" + W + ")*(" + *V + ")");
    }
    return Sum.empty() ? "0" : "(" + Sum + ")";
  }

  /// The probability that data-dependent branch Br takes its first
  /// successor as a parameter Pir_<function>_<line>_<col> (the branch's
  /// location; copies made by unrolling share it, "(1 - P)" if a copy's
  /// successors are swapped), default BranchProbabilityInfo's estimate;
  /// nullopt without a debug location.
  std::optional<std::string> branchParameter(BranchInst *Br) {
    const DebugLoc &DL = Br->getDebugLoc();
    if (!DL || !DL.getLine())
      return std::nullopt;
    auto At = [](const BasicBlock *B) {
      SourceRange R = rangeOf(*B);
      return std::to_string(R.Line) + ":" + std::to_string(R.Col);
    };
    std::string Taken = At(Br->getSuccessor(0)), Other = At(Br->getSuccessor(1));
    std::string Name = "Pir_" + Out.Name + "_" + std::to_string(DL.getLine()) + "_" +
                       std::to_string(DL.getCol());
    for (const Parameter &P : Out.Parameters)
      if (P.Name == Name)
        return P.TakenAt == Other && P.OtherAt == Taken ? negation(Name) : Name;
    double P0 = BPI.getEdgeProbability(Br->getParent(), 0u).getNumerator() /
                double(BranchProbability::getDenominator());
    Parameter P{Name, "branch", P0, "BPI",
                DL->getFilename().str() + ":" + std::to_string(DL.getLine()) + ":" +
                    std::to_string(DL.getCol()),
                "probability that the optimised branch goes to " + Taken +
                    " (BranchProbabilityInfo's estimate)"};
    if (auto R = recordTest(Br))
      if (auto N = recordTestCount(*R, Br)) {
        // H_N ~ ln N + gamma + 1/(2N) - 1/(12N^2) (Knuth TAOCP vol. 1
        // 1.2.7 eq. 3; 0.994 at N = 1, so the probability stays <= 1).
        std::string M = "max(" + *N + ", 1)";
        std::string Rec = "(log(" + M + ") + 0.5772156649 + 1/(2*" + M + ") - 1/(12*" + M +
                          "^2))/" + M;
        P.Default.reset();
        P.DefaultExpr = R->RecordSucc == 0 ? Rec : "1 - " + Rec;
        P.Source = "static: min-update idiom, H_N/N with N = " + *N;
        P.Meaning = "probability that the optimised branch goes to " + Taken +
                    " (a min/max update of a location tested N times: H_N/N records)";
      }
    P.TakenAt = Taken;
    P.OtherAt = Other;
    Out.Parameters.push_back(P);
    return Name;
  }

  /// A min/max-update (record) test: a conditional branch comparing a value
  /// v with the current content m of a location, whose successor RecordSucc
  /// updates the location with v.
  struct RecordTest {
    const SCEV *Addr = nullptr; ///< memory form: the location's address
    PHINode *Phi = nullptr;     ///< or the loop-carried phi holding m
    unsigned RecordSucc = 0;
  };

  /// Br as a record test: its condition is an ordering comparison (<, <=,
  /// >, >=) of v with m, where m is a load from address A and the successor
  /// reached only on one outcome (an if-then arm) first writes v (the same
  /// value, or the same expression recomputed) to A; or m is a phi in Br's
  /// loop (the running value: recordChain checks that it is carried around
  /// the loop) and a phi after Br takes v from one outcome's side and m from
  /// the other's (joinOf). nullopt otherwise.
  std::optional<RecordTest> recordTest(BranchInst *Br) {
    auto *C = dyn_cast<CmpInst>(Br->getCondition());
    if (!C || !isOrdering(*C) || Br->getSuccessor(0) == Br->getSuccessor(1))
      return std::nullopt;
    BasicBlock *B = Br->getParent();
    for (unsigned I = 0; I < 2; ++I) {
      BasicBlock *S = Br->getSuccessor(I);
      if (S->getSinglePredecessor() != B || S->getSingleSuccessor() != Br->getSuccessor(1 - I))
        continue;
      StoreInst *St = nullptr;
      for (Instruction &In : *S)
        if (In.mayWriteToMemory()) {
          St = dyn_cast<StoreInst>(&In);
          break;
        }
      if (!St || !St->isSimple())
        continue;
      const SCEV *A = SE.getSCEV(St->getPointerOperand());
      for (unsigned K = 0; K < 2; ++K) {
        auto *Ld = dyn_cast<LoadInst>(C->getOperand(K));
        if (Ld && Ld->isSimple() && SE.getSCEV(Ld->getPointerOperand()) == A &&
            sameValue(C->getOperand(1 - K), St->getValueOperand()))
          return RecordTest{A, nullptr, I};
      }
    }
    Loop *L = LI.getLoopFor(B);
    for (unsigned K = 0; K < 2 && L; ++K) {
      auto *M = dyn_cast<PHINode>(C->getOperand(K));
      unsigned Side;
      if (M && L->contains(M) && joinOf(Br, M, C->getOperand(1 - K), Side))
        return RecordTest{nullptr, M, Side};
    }
    return std::nullopt;
  }

  /// Phi form: the phi Q after branch Br that takes V (or V recomputed) on
  /// the side of one outcome (RecordSucc) and M on the other's; nullptr if
  /// none.
  PHINode *joinOf(BranchInst *Br, PHINode *M, Value *V, unsigned &RecordSucc) {
    for (User *U : M->users()) {
      auto *Q = dyn_cast<PHINode>(U);
      if (!Q || Q == M || LI.isLoopHeader(Q->getParent()))
        continue;
      std::optional<unsigned> New, Kept; // the sides V and M come from
      bool Ok = true;
      for (unsigned J = 0; J < Q->getNumIncomingValues() && Ok; ++J) {
        auto Side = sideOf(Br, Q->getIncomingBlock(J), Q->getParent());
        Value *In = Q->getIncomingValue(J);
        auto &Into = In == M ? Kept : New;
        Ok = Side && (In == M || sameValue(In, V)) && (!Into || *Into == *Side);
        if (Ok)
          Into = Side;
      }
      if (Ok && New && Kept && *New != *Kept) {
        RecordSucc = *New;
        return Q;
      }
    }
    return nullptr;
  }

  /// Phi form: the record tests of a running value in loop L, from header
  /// phi H through each test's join phi back to H's back-edge value (one
  /// per unrolled copy); empty if H's back-edge value is not reached so.
  std::vector<BranchInst *> recordChain(PHINode *H, Loop *L) {
    std::vector<BranchInst *> Chain;
    BasicBlock *Latch = L->getLoopLatch();
    if (!Latch || H->getParent() != L->getHeader())
      return {};
    Value *End = H->getIncomingValueForBlock(Latch);
    for (PHINode *Cur = H; Chain.size() < 64;) {
      PHINode *Next = nullptr;
      for (User *U : Cur->users()) {
        auto *C = dyn_cast<CmpInst>(U);
        if (!C || !isOrdering(*C))
          continue;
        for (User *UC : C->users()) {
          auto *Br = dyn_cast<BranchInst>(UC);
          unsigned Side;
          if (Br && Br->isConditional() && Br->getCondition() == C && L->contains(Br) &&
              (Next = joinOf(Br, Cur, C->getOperand(C->getOperand(0) == Cur ? 1 : 0), Side))) {
            Chain.push_back(Br);
            break;
          }
        }
        if (Next)
          break;
      }
      if (!Next)
        return {};
      if (Next == End)
        return Chain;
      Cur = Next;
    }
    return {};
  }

  static bool isOrdering(const CmpInst &C) {
    if (auto *IC = dyn_cast<ICmpInst>(&C))
      return IC->isRelational();
    switch (C.getPredicate()) {
    case CmpInst::FCMP_OLT: case CmpInst::FCMP_OLE: case CmpInst::FCMP_OGT:
    case CmpInst::FCMP_OGE: case CmpInst::FCMP_ULT: case CmpInst::FCMP_ULE:
    case CmpInst::FCMP_UGT: case CmpInst::FCMP_UGE:
      return true;
    default:
      return false;
    }
  }

  /// The successor of Br whose outcome edge In -> Join is reached by (In
  /// is Br's block, or dominated by the edge to that successor); nullopt if
  /// neither.
  std::optional<unsigned> sideOf(BranchInst *Br, BasicBlock *In, BasicBlock *Join) {
    BasicBlock *B = Br->getParent();
    for (unsigned I = 0; I < 2; ++I)
      if (In == B ? Br->getSuccessor(I) == Join
                  : DT.dominates(BasicBlockEdge(B, Br->getSuccessor(I)), In))
        return I;
    return std::nullopt;
  }

  /// Whether A and B compute the same value: the same SSA value, or the same
  /// operation on the same operands, loads from the same address (by
  /// ScalarEvolution): the source's expression recomputed.
  bool sameValue(Value *A, Value *B, int Depth = 0) {
    if (A == B)
      return true;
    auto *IA = dyn_cast<Instruction>(A), *IB = dyn_cast<Instruction>(B);
    if (!IA || !IB || Depth > 6 || !IA->isSameOperationAs(IB) || isa<PHINode>(IA))
      return false;
    if (auto *LA = dyn_cast<LoadInst>(IA))
      return LA->isSimple() &&
             SE.getSCEV(LA->getPointerOperand()) ==
                 SE.getSCEV(cast<LoadInst>(IB)->getPointerOperand());
    if (IA->mayHaveSideEffects())
      return false;
    for (unsigned I = 0; I < IA->getNumOperands(); ++I)
      if (!sameValue(IA->getOperand(I), IB->getOperand(I), Depth + 1))
        return false;
    return true;
  }

  /// N, the number of tests of record test R's location (Br one of them)
  /// whose outcomes form one sequence, in source names: for a phi, the trip
  /// count of its loop; for an address A, the tests of A (record tests with
  /// the same address, unrolled copies included) in one iteration of the
  /// innermost loop enclosing Br in which A varies (one call if none) times
  /// the trip counts of the loops around that one in which A is invariant.
  /// nullopt if a count is not expressible in source names, a test does not
  /// run once per iteration of its loops, or A is tested only once.
  std::optional<std::string> recordTestCount(const RecordTest &R, BranchInst *Br) {
    std::vector<std::string> Factors;
    auto Trip = [&](Loop *L) -> bool {
      auto T = tripText(L);
      if (T)
        Factors.push_back(*T);
      return T.has_value();
    };
    if (R.Phi) {
      // The chains of this source test (unrolled copies share its
      // location) in Br's loop and its sibling loops (a remainder loop
      // continues the unrolled loop's running value).
      Loop *L = LI.getLoopFor(Br->getParent());
      const DebugLoc &DL = Br->getDebugLoc();
      auto SameTest = [&](BranchInst *B2) {
        const DebugLoc &D2 = B2->getDebugLoc();
        return D2 && DL && D2.getLine() == DL.getLine() && D2.getCol() == DL.getCol();
      };
      std::vector<Loop *> Siblings;
      if (Loop *P = L->getParentLoop())
        Siblings.assign(P->begin(), P->end());
      else
        Siblings.assign(LI.begin(), LI.end());
      std::vector<std::string> Terms;
      bool Found = false;
      for (Loop *S : Siblings)
        for (PHINode &H : S->getHeader()->phis()) {
          std::vector<BranchInst *> Chain = recordChain(&H, S);
          if (Chain.empty() || !llvm::all_of(Chain, SameTest))
            continue;
          auto T = tripText(S);
          if (!T || !llvm::all_of(Chain, [&](BranchInst *B2) {
                return oncePerIteration(B2->getParent(), S);
              }))
            return std::nullopt;
          Found |= llvm::is_contained(Chain, Br);
          Terms.push_back(product(
              Chain.size() == 1 ? std::vector<std::string>{*T}
                                : std::vector<std::string>{std::to_string(Chain.size()), *T}));
        }
      if (!Found)
        return std::nullopt;
      std::string Sum;
      for (const std::string &T : Terms)
        Sum += (Sum.empty() ? "" : " + ") + T;
      Factors.push_back(Sum);
    } else {
      Loop *V = LI.getLoopFor(Br->getParent());
      while (V && !varies(R.Addr, V))
        V = V->getParentLoop();
      std::vector<std::string> Terms; // per iteration of V
      for (BasicBlock &BB : F) {
        auto *Br2 = dyn_cast<BranchInst>(BB.getTerminator());
        if ((V && !V->contains(&BB)) || !Br2 || !Br2->isConditional())
          continue;
        auto R2 = Br2 == Br ? std::optional<RecordTest>(R) : recordTest(Br2);
        if (!R2 || R2->Addr != R.Addr)
          continue;
        std::vector<std::string> Term;
        for (Loop *L = LI.getLoopFor(&BB); L != V; L = L->getParentLoop()) {
          auto T = tripText(L);
          if (!T || !oncePerIteration(&BB, L))
            return std::nullopt;
          Term.push_back(*T);
        }
        if (V && !oncePerIteration(&BB, V))
          return std::nullopt;
        Terms.push_back(product(Term));
      }
      if (Terms.size() > 1) {
        std::string Sum;
        for (const std::string &T : Terms)
          Sum += (Sum.empty() ? "" : " + ") + T;
        Factors.push_back(Sum);
      } else if (Terms.size() == 1 && Terms[0] != "1")
        Factors.push_back(Terms[0]);
      for (Loop *L = V ? V->getParentLoop() : nullptr; L; L = L->getParentLoop())
        if (!varies(R.Addr, L) && !Trip(L))
          return std::nullopt;
    }
    static const std::regex Index("k_[A-Za-z0-9_.$]*?_ir[0-9]+");
    std::string N = product(Factors);
    if (Factors.empty() || std::regex_search(N, Index))
      return std::nullopt; // tested once, or a count that changes with a loop index
    return N;
  }

  /// Whether the value of S changes from one iteration of L to the next
  /// (at the same iterations of the loops inside L): S has an AddRec of L,
  /// or a value computed in L other than a (non-header) phi choosing among
  /// values that do not change with L — the start of a scalar loop after a
  /// vector loop, 0 or n.vec, makes a[j] no different location per
  /// iteration of an outer loop.
  bool varies(const SCEV *S, Loop *L, int Depth = 0) {
    return SCEVExprContains(S, [&](const SCEV *X) {
      if (auto *AR = dyn_cast<SCEVAddRecExpr>(X))
        return AR->getLoop() == L;
      auto *U = dyn_cast<SCEVUnknown>(X);
      auto *I = U ? dyn_cast<Instruction>(U->getValue()) : nullptr;
      if (!I || !L->contains(I))
        return false;
      auto *P = dyn_cast<PHINode>(I);
      if (!P || LI.isLoopHeader(P->getParent()) || Depth >= 4)
        return true;
      return llvm::any_of(P->incoming_values(),
                          [&](Value *In) { return varies(SE.getSCEV(In), L, Depth + 1); });
    });
  }

  /// Whether B runs once per iteration of L (it dominates L's latch).
  bool oncePerIteration(BasicBlock *B, Loop *L) {
    BasicBlock *Latch = L->getLoopLatch();
    return Latch && DT.dominates(B, Latch);
  }

  /// The trip count of L in source names (tripOf's text, without adding a
  /// parameter); nullopt if ScalarEvolution cannot express it.
  std::optional<std::string> tripText(Loop *L) {
    auto It = LoopTrip.find(L);
    std::string T;
    if (It != LoopTrip.end())
      T = It->second;
    else if (const SCEV *BTC = SE.getBackedgeTakenCount(L); !isa<SCEVCouldNotCompute>(BTC)) {
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
  static std::string product(const std::vector<std::string> &Fs) {
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
  std::optional<std::string> geometricPhi(PHINode *P) {
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

  /// The factors of a monomial of a Poly, in order: the pieces between its
  /// '\x1f' separators (as std::getline reads them: none for "", no empty
  /// piece after a trailing separator).
  static std::vector<std::string> factorList(const std::string &M) {
    std::vector<std::string> Fs;
    for (size_t From = 0; From < M.size();) {
      size_t End = M.find('\x1f', From);
      if (End == std::string::npos)
        End = M.size();
      Fs.emplace_back(M, From, End - From);
      From = End + 1;
    }
    return Fs;
  }

  /// The factors of a monomial of a Poly.
  static std::set<std::string> factors(const std::string &M) {
    std::vector<std::string> Fs = factorList(M);
    return std::set<std::string>(Fs.begin(), Fs.end());
  }

  /// Does expression E name only iteration numbers of loops that Text can
  /// name now? (The nest's own loops are summed over in memoryOf.)
  bool inScope(const std::string &E) const {
    static const std::regex Index("k_[A-Za-z0-9_.$]*?_ir[0-9]+");
    std::set<std::string> Known;
    for (auto &[L, K] : Text.LoopIndex)
      Known.insert(K);
    for (auto It = std::sregex_iterator(E.begin(), E.end(), Index); It != std::sregex_iterator();
         ++It)
      if (!Known.count(It->str()))
        return false;
    return true;
  }

  /// The monomial of a Poly with factors Fs: their texts joined by '\x1f'.
  /// Every monomial of a Poly has its factors sorted and distinct (as a
  /// std::set lists them), which addScaled and render rely on.
  template <typename Range> static std::string monomial(const Range &Fs) {
    std::string K;
    for (const std::string &X : Fs)
      K += (K.empty() ? "" : "\x1f") + X;
    return K;
  }

  /// To += From * Scale * Factor (Factor: an expression, "" for 1, "0").
  /// Conditions are 0/1 indicators: a factor already in a monomial is not
  /// repeated (c*c = c), and c*(1 - c) = 0. Each monomial of From is one
  /// unit of the function's symbolic work (spend).
  void addScaled(Poly &To, const Poly &From, double Scale, const std::string &Factor) {
    if (Scale == 0 || Factor == "0")
      return;
    spend(From.size());
    if (Factor.empty() || Factor == "1") {
      for (auto &[M, C] : From)
        To[M] += C * Scale; // M's factors are sorted and distinct already
      return;
    }
    const std::string Neg = negation(Factor);
    for (auto &[M, C] : From) {
      std::vector<std::string> Fs = factorList(M); // sorted, distinct
      if (std::binary_search(Fs.begin(), Fs.end(), Neg))
        continue;
      auto At = std::lower_bound(Fs.begin(), Fs.end(), Factor);
      if (At == Fs.end() || *At != Factor)
        Fs.insert(At, Factor);
      To[monomial(Fs)] += C * Scale;
    }
  }

  /// M*c + M*(1 - c) = M in P (the two sides of one exact condition
  /// rejoin), until no two monomials merge; always the first mergeable
  /// monomial in P's order first, at its first factor "(1 - X)" such that
  /// the monomial with X in its place is in P with the same coefficient.
  ///
  /// The factors are numbered in their text's order, so that monomials as
  /// sorted vectors of numbers compare as their texts do; the mergeable
  /// monomials are kept in a set and, after each merge, only those next to
  /// the three changed (one factor swapped for its other side) are looked
  /// at again. Each monomial looked at costs its factors in units of
  /// symbolic work.
  void simplify(Poly &P) {
    // (nothing to merge without two monomials, one with a negated factor)
    if (P.size() < 2 || llvm::none_of(P, [](const auto &MC) {
          return MC.first.find("(1 - ") != std::string::npos;
        }))
      return;
    using Mono = std::vector<unsigned>;
    std::map<std::string, unsigned> Id;
    for (auto &[M, C] : P)
      for (std::string &F : factorList(M))
        Id.emplace(std::move(F), 0);
    std::vector<const std::string *> Text;
    for (auto &[F, N] : Id) {
      N = Text.size();
      Text.push_back(&F);
    }
    // Other side of each factor: X for "(1 - X)" (Neg), and the reverse
    // (Pos), where both are factors of P.
    const unsigned None = ~0u;
    std::vector<unsigned> Neg(Text.size(), None), Pos(Text.size(), None);
    for (unsigned I = 0; I < Text.size(); ++I)
      if (auto X = negated(*Text[I]))
        if (auto It = Id.find(*X); It != Id.end()) {
          Neg[I] = It->second;
          Pos[It->second] = I;
        }
    std::map<Mono, double> Q;
    for (auto &[M, C] : P) {
      Mono K;
      for (const std::string &F : factorList(M))
        K.push_back(Id.at(F));
      Q.emplace(std::move(K), C);
    }
    auto Swapped = [](const Mono &K, size_t I, unsigned F) {
      Mono R = K;
      R[I] = F;
      std::sort(R.begin(), R.end());
      return R;
    };
    // The monomial M merges with, and the factor position, if any.
    auto MergeOf = [&](const Mono &M, double C, Mono &Other, size_t &At) {
      spend(M.size() + 1);
      for (size_t I = 0; I < M.size(); ++I) {
        if (Neg[M[I]] == None)
          continue;
        Mono O = Swapped(M, I, Neg[M[I]]);
        auto It = Q.find(O);
        if (It == Q.end() || std::fabs(It->second - C) > 1e-12 * std::fabs(C))
          continue;
        Other = std::move(O);
        At = I;
        return true;
      }
      return false;
    };
    std::set<Mono> Ready;
    Mono Other;
    size_t At;
    auto Check = [&](const Mono &M) {
      auto It = Q.find(M);
      if (It != Q.end() && MergeOf(M, It->second, Other, At))
        Ready.insert(M);
      else
        Ready.erase(M);
    };
    for (auto &[M, C] : Q)
      Check(M);
    if (Ready.empty())
      return; // (P unchanged)
    while (!Ready.empty()) {
      Mono M = *Ready.begin();
      double Coef = Q.at(M);
      MergeOf(M, Coef, Other, At);
      Mono Merged = Other, Key = M;
      Key.erase(Key.begin() + At);
      Q.erase(Merged);
      Q.erase(M);
      Q[Key] += Coef;
      std::set<Mono> Again{M, Merged, Key};
      for (const Mono *X : {&M, &Merged, &Key})
        for (size_t I = 0; I < X->size(); ++I)
          for (unsigned F : {Neg[(*X)[I]], Pos[(*X)[I]]})
            if (F != None)
              Again.insert(Swapped(*X, I, F));
      for (const Mono &Y : Again)
        Check(Y);
    }
    P.clear();
    for (auto &[K, C] : Q) {
      std::string M;
      for (unsigned F : K)
        M += (M.empty() ? "" : "\x1f") + *Text[F];
      P.emplace_hint(P.end(), std::move(M), C);
    }
  }

  /// Most monomials a block frequency keeps: beyond, its block takes the
  /// numeric frequency (conditions that do not rejoin, such as a chain of
  /// short-circuit tests, multiply the monomials of the blocks after them).
  static constexpr size_t MaxTerms = 64;

  /// Completes the frequency P of a region member (all its incoming edges
  /// added): simplified; the numeric estimate Numeric instead if it has
  /// more than MaxTerms monomials or the function's symbolic work has
  /// passed its budget (each counted in Out.Notes).
  void settle(double Numeric, Poly &P) {
    simplify(P);
    bool Large = P.size() > MaxTerms;
    if (!Large && !overBudget())
      return;
    if (Large)
      ++CappedFrequencies;
    P = Poly{{"", Numeric}};
  }

  /// P as an expression ("" for 1), or nullopt if too large to be useful
  /// (the numeric frequency is used then).
  std::optional<std::string> render(Poly P) {
    simplify(P);
    std::string R;
    for (auto &[M, C] : P) {
      if (C == 0)
        continue;
      std::string Prod = M;
      std::replace(Prod.begin(), Prod.end(), '\x1f', '*');
      std::string T = M.empty() ? num(C) : C == 1 ? Prod : num(C) + "*" + Prod;
      R += (R.empty() ? "" : " + ") + T;
    }
    if (R.size() > 4000)
      return std::nullopt;
    return R == "1" ? "" : R.empty() ? "0" : R;
  }

  /// The probability that conditional branch Br takes its first successor,
  /// exactly, when its condition is a function of comparisons of integers
  /// that are expressions in source names (parameters, enclosing loops'
  /// iteration numbers): e.g. the vectoriser's "n is a multiple of VF*UF"
  /// test before the scalar epilogue. Uses cmp_eq, cmp_lt, cmp_le (1 or 0)
  /// (predictor/Expr.h); nullopt for data-dependent conditions
  /// (BranchProbabilityInfo estimates those).
  std::optional<std::string> exactCondition(BranchInst *Br) {
    return exactValue(Br->getCondition(), 0);
  }

  /// The condition of Br, a runtime check before the vectorised loop SL
  /// (its one side leads into SL), with every comparison of addresses of
  /// different objects (an alias check: no source value) taking the value
  /// that lets SL run -- the checks of no overlap pass, as guardedLoop
  /// assumes -- and the other tests exact: the minimum iteration count, and
  /// a symbolic stride speculated to be 1 (the vectoriser's loop version
  /// for unit stride, which a column walk of stride n never takes). nullopt
  /// if a test is neither.
  std::optional<std::string> checksPassing(BranchInst *Br, const Loop *SL) {
    if (!Br || !Br->isConditional() || transformations(const_cast<Loop *>(SL)) != "vectorised")
      return std::nullopt;
    // The value of the condition that leads into SL.
    bool IntoOnTrue = DT.dominates(Br->getSuccessor(0), SL->getHeader());
    return exactValue(Br->getCondition(), 0, IntoOnTrue);
  }

  /// The 0/1 value of the i1 value V as an expression (see exactCondition).
  /// Passing: an address comparison of different objects under V takes the
  /// value that makes V Passing (checksPassing; nullopt: none is exact).
  std::optional<std::string> exactValue(Value *V, int Depth,
                                        std::optional<bool> Passing = std::nullopt) {
    if (Depth > 6)
      return std::nullopt;
    if (auto *C = dyn_cast<ConstantInt>(V))
      return C->isZero() ? "0" : "1";
    if (auto *Cmp = dyn_cast<ICmpInst>(V)) {
      auto R = exactCompare(Cmp);
      if (!R && Passing && Cmp->getOperand(0)->getType()->isPointerTy())
        return *Passing ? "1" : "0";
      return R;
    }
    auto Sub = [&](Value *X, bool Flip = false) {
      return exactValue(X, Depth + 1,
                        Passing ? std::optional<bool>(*Passing != Flip) : std::nullopt);
    };
    auto And = [](const std::string &A, const std::string &B) -> std::string {
      if (A == "0" || B == "0")
        return "0";
      return A == "1" ? B : B == "1" ? A : A + "*" + B;
    };
    auto Not = [](const std::string &A) -> std::string {
      return negation(A);
    };
    auto Or = [&](const std::string &A, const std::string &B) {
      return Not(And(Not(A), Not(B)));
    };
    std::optional<std::string> R;
    if (auto *BO = dyn_cast<BinaryOperator>(V); BO && V->getType()->isIntegerTy(1)) {
      bool Flip = BO->getOpcode() == Instruction::Xor; // (not c: c's passing value flips)
      auto A = Sub(BO->getOperand(0), Flip), B = Sub(BO->getOperand(1), Flip);
      if (!A || !B)
        return std::nullopt;
      if (BO->getOpcode() == Instruction::And)
        R = And(*A, *B);
      else if (BO->getOpcode() == Instruction::Or)
        R = Or(*A, *B);
      else if (BO->getOpcode() == Instruction::Xor && *B == "1")
        R = Not(*A);
    } else if (auto *Sel = dyn_cast<SelectInst>(V); Sel && V->getType()->isIntegerTy(1)) {
      auto C = Sub(Sel->getCondition()), T = Sub(Sel->getTrueValue()),
           F = Sub(Sel->getFalseValue());
      if (!C || !T || !F)
        return std::nullopt;
      // select c, true, f is c || f; select c, t, false is c && t (the
      // vectoriser's "too few iterations or the checks fail")
      R = *T == "1"   ? Or(*C, *F)
          : *F == "0" ? And(*C, *T)
                      : Or(And(*C, *T), And(Not(*C), *F)); // the two terms exclude each other
    }
    if (R && R->size() > 1500)
      return std::nullopt;
    return R;
  }

  /// X if A is "(1 - X)" (one parenthesised negation), else nullopt: not
  /// not c is c.
  static std::optional<std::string> negated(const std::string &A) {
    if (A.rfind("(1 - ", 0) != 0 || A.back() != ')')
      return std::nullopt;
    int Depth = 0;
    for (size_t I = 0; I + 1 < A.size(); ++I) {
      Depth += A[I] == '(' ? 1 : A[I] == ')' ? -1 : 0;
      if (Depth == 0)
        return std::nullopt; // "(1 - a)*(1 - b)": the first parenthesis closes early
    }
    return A.substr(5, A.size() - 6);
  }

  /// 1 - A for a 0/1 condition A, written without a double negation.
  static std::string negation(const std::string &A) {
    if (A == "1" || A == "0")
      return A == "1" ? "0" : "1";
    if (auto X = negated(A))
      return *X;
    int Depth = 0; // a sum ("a + b", from render) is parenthesised
    bool Sum = false;
    for (char C : A) {
      Depth += C == '(' ? 1 : C == ')' ? -1 : 0;
      Sum |= Depth == 0 && C == ' ';
    }
    return "(1 - " + (Sum ? "(" + A + ")" : A) + ")";
  }

  /// A comparison of two integers in source names.
  std::optional<std::string> exactCompare(ICmpInst *Cmp) {
    Value *X0 = Cmp->getOperand(0), *X1 = Cmp->getOperand(1);
    if (!SE.isSCEVable(X0->getType()))
      return std::nullopt;
    const SCEV *L0 = SE.getSCEV(X0), *L1 = SE.getSCEV(X1);
    ICmpInst::Predicate Pred = Cmp->getPredicate();
    if (SE.isKnownPredicate(Pred, L0, L1))
      return "1";
    if (SE.isKnownPredicate(ICmpInst::getInversePredicate(Pred), L0, L1))
      return "0";
    const SCEV *S0 = L0, *S1 = L1;
    if (X0->getType()->isPointerTy()) {
      // Two addresses in one object (the vectoriser's alias checks on one
      // array): p < q exactly when q - p > 0, an integer in source names.
      // Addresses of different objects are not source values: guardedLoop()
      // lets such checks pass.
      const SCEV *D = SE.getMinusSCEV(L0, L1);
      if (isa<SCEVCouldNotCompute>(D))
        return std::nullopt;
      S0 = distribute(D);
      S1 = SE.getZero(D->getType());
      if (auto *C = dyn_cast<SCEVConstant>(S0)) // a constant distance: decided now
        return ICmpInst::compare(C->getAPInt(), APInt::getZero(C->getAPInt().getBitWidth()),
                                 ICmpInst::getSignedPredicate(Pred))
                   ? "1"
                   : "0";
      // A distance of known sign (8 + 8k for k >= 0): decided now too.
      Pred = ICmpInst::getSignedPredicate(Pred);
      if (SE.isKnownPredicate(Pred, S0, S1))
        return "1";
      if (SE.isKnownPredicate(ICmpInst::getInversePredicate(Pred), S0, S1))
        return "0";
    } else if (!X0->getType()->isIntegerTy()) {
      return std::nullopt;
    }
    std::string Op[2];
    const SCEV *Ops[2] = {S0, S1};
    for (unsigned I = 0; I < 2; ++I) {
      // Addresses of different arrays are not source values.
      bool Pointer = SCEVExprContains(Ops[I], [](const SCEV *Y) {
        auto *U = dyn_cast<SCEVUnknown>(Y);
        return U && U->getType()->isPointerTy();
      });
      auto T = Pointer ? std::nullopt : Text.str(Ops[I]);
      if (!T)
        return std::nullopt;
      Op[I] = *T;
    }
    const std::string &A = Op[0], &B = Op[1];
    auto F = [](const char *Fn, const std::string &X, const std::string &Y) {
      return std::string(Fn) + "(" + X + ", " + Y + ")";
    };
    switch (Pred) {
    case CmpInst::ICMP_EQ: return F("cmp_eq", A, B);
    case CmpInst::ICMP_NE: return "(1 - " + F("cmp_eq", A, B) + ")";
    case CmpInst::ICMP_SGT: case CmpInst::ICMP_UGT: return F("cmp_lt", B, A);
    case CmpInst::ICMP_SLT: case CmpInst::ICMP_ULT: return F("cmp_lt", A, B);
    case CmpInst::ICMP_SGE: case CmpInst::ICMP_UGE: return F("cmp_le", B, A);
    case CmpInst::ICMP_SLE: case CmpInst::ICMP_ULE: return F("cmp_le", A, B);
    default: return std::nullopt;
    }
  }

  /// S with products of sums multiplied out, so that ScalarEvolution folds
  /// the constants in the type's arithmetic: the vectoriser writes
  /// 8*n*(n - 1) as 8*(n + 2^61 - 1)*n, which only wraps to the right value
  /// modulo 2^64 (the text's arithmetic is exact).
  const SCEV *distribute(const SCEV *S) {
    if (auto *A = dyn_cast<SCEVAddExpr>(S)) {
      SmallVector<const SCEV *, 4> Ops;
      for (const SCEV *Op : A->operands())
        Ops.push_back(distribute(Op));
      return SE.getAddExpr(Ops);
    }
    if (auto *AR = dyn_cast<SCEVAddRecExpr>(S); AR && AR->isAffine())
      return SE.getAddRecExpr(distribute(AR->getStart()), distribute(AR->getOperand(1)),
                              AR->getLoop(), SCEV::FlagAnyWrap);
    auto *M = dyn_cast<SCEVMulExpr>(S);
    if (!M)
      return S;
    std::function<const SCEV *(const SCEV *, const SCEV *)> Mul = [&](const SCEV *X,
                                                                      const SCEV *Y) {
      for (auto [P, Q] : {std::pair{X, Y}, std::pair{Y, X}})
        if (auto *A = dyn_cast<SCEVAddExpr>(Q)) {
          SmallVector<const SCEV *, 4> Terms;
          for (const SCEV *Op : A->operands())
            Terms.push_back(Mul(P, Op));
          return SE.getAddExpr(Terms);
        }
      return SE.getMulExpr(X, Y);
    };
    const SCEV *R = nullptr;
    for (const SCEV *Op : M->operands())
      R = R ? Mul(R, distribute(Op)) : distribute(Op);
    return R;
  }

  /// Can From reach To within one execution of region L (one iteration of
  /// loop L, or one call of the function), i.e. without taking L's back edge?
  bool reachesWithin(Loop *L, BasicBlock *From, BasicBlock *To) {
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
  const void *guardedLoop(Loop *L, BasicBlock *B) {
    auto *Br = dyn_cast<BranchInst>(B->getTerminator());
    if (!Br || !Br->isConditional())
      return nullptr;
    auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition());
    // The atoms a SCEV depends on: unknown values (n) and recurrences (by loop).
    auto Atoms = [](const SCEV *X) {
      std::set<const void *> A;
      SCEVExprContains(X, [&](const SCEV *Y) {
        if (auto *U = dyn_cast<SCEVUnknown>(Y))
          A.insert(U->getValue());
        if (auto *R = dyn_cast<SCEVAddRecExpr>(Y))
          A.insert(R->getLoop());
        return false;
      });
      return A;
    };
    for (Loop *SL : (L ? L->getSubLoops() : LI.getTopLevelLoops())) {
      const SCEV *BTC = SE.getBackedgeTakenCount(SL);
      bool Related = false;
      if (isa<SCEVCouldNotCompute>(BTC))
        BTC = nullptr;
      std::set<const void *> TripAtoms = BTC ? Atoms(BTC) : std::set<const void *>();
      if (Cmp)
        for (Value *Op : Cmp->operands()) {
          if (isa<Constant>(Op) || !SE.isSCEVable(Op->getType()))
            continue;
          for (const void *A : Atoms(SE.getSCEV(Op)))
            Related |= TripAtoms.count(A) != 0;
        }
      // A loop ScalarEvolution cannot count (a while loop: its trip count
      // is the parameter N_..., iterations per reach of the loop statement,
      // also measured so) and the test of its rotated copy before it (at
      // the loop statement's location) guard together.
      const DebugLoc &BL = Br->getDebugLoc();
      DebugLoc SLoc = loopStartLoc(*SL);
      if (!BTC && BL && SLoc && BL.getLine() == SLoc.getLine() && BL.getCol() == SLoc.getCol())
        Related = true;
      // The vectoriser's runtime checks (enough iterations, no aliasing)
      // before a vector loop are assumed to pass, like a zero-trip guard.
      if (!Related && transformations(SL) != "vectorised")
        continue;
      for (unsigned I = 0; I < 2; ++I) {
        BasicBlock *In = Br->getSuccessor(I), *Out = Br->getSuccessor(1 - I);
        if (DT.dominates(In, SL->getHeader()) && !reachesWithin(L, Out, SL->getHeader()))
          return SL;
      }
    }
    return nullptr;
  }

  /// "vectorised" if L computes with vector instructions, else "". Unrolling is recognised later, by
  /// comparing trip counts with the source loop (plugin/Plugin.cpp).
  static std::string transformations(Loop *L) {
    // (llvm.loop.isvectorized also marks the scalar epilogue: not used)
    for (BasicBlock *B : L->blocks())
      for (Instruction &I : *B)
        if (I.getType()->isVectorTy())
          return "vectorised";
    return "";
  }

  std::string tripOf(Loop *L, const std::string &Fn) {
    const SCEV *BTC = SE.getBackedgeTakenCount(L);
    if (!isa<SCEVCouldNotCompute>(BTC))
      if (auto S = Text.str(BTC))
        return "(" + *S + ") + 1";
    DebugLoc Start = loopStartLoc(*L);
    unsigned Line = Start ? Start.getLine() : 0;
    std::string Name = "N_" + Fn + "_" + std::to_string(Line);
    // A data-dependent loop the unroller split into an unrolled part and a
    // remainder: both count in the iterations N of the source loop.
    auto Part = unrolledPart(L);
    std::string Trip = !Part ? Name
                       : Part->second
                           ? "umod(" + Name + ", " + std::to_string(Part->first) + ")"
                           : "idiv(" + Name + ", " + std::to_string(Part->first) + ")";
    for (Parameter &P : Out.Parameters)
      if (P.Name == Name) {
        if (Part)
          P.Meaning = unrolledMeaning(Line, Part->first);
        return Trip;
      }
    Out.Parameters.push_back({Name, "loop", std::nullopt, "none",
                              Start ? Start->getFilename().str() + ":" + std::to_string(Line)
                                    : "",
                              Part ? unrolledMeaning(Line, Part->first)
                                   : "iterations of the optimised loop at line " +
                                         std::to_string(Line) +
                                         " (ScalarEvolution could not count them)"});
    return Trip;
  }

  /// Br's condition as "SL runs at least once" (cmp_lt(0, trip)), if SL is
  /// a part of an unrolled data-dependent loop (unrolledPart) and one side
  /// of Br goes straight into SL (its header or preheader: the unroller's
  /// own test, not the source loop's guard before both parts); nullopt
  /// otherwise.
  std::optional<std::string> unrolledGuard(BranchInst *Br, const Loop *SL) {
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

  static std::string unrolledMeaning(unsigned Line, unsigned U) {
    return "iterations of the loop at line " + std::to_string(Line) +
           " per entry (data-dependent; the optimiser unrolled it by " + std::to_string(U) +
           ": idiv(N, " + std::to_string(U) + ") unrolled iterations and umod(N, " +
           std::to_string(U) + ") in the remainder loop)";
  }

  /// The constant step of L's first integer induction variable (a header
  /// phi that is an affine recurrence of L), as a magnitude; 0 if none.
  uint64_t ivStep(const Loop *L) {
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
  bool uncounted(const Loop *L) {
    const SCEV *BTC = SE.getBackedgeTakenCount(L);
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
  std::optional<std::pair<unsigned, bool>> unrolledPart(const Loop *L) {
    if (!uncounted(L))
      return std::nullopt;
    DebugLoc Start = loopStartLoc(*L);
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
      DebugLoc OS = O == L ? DebugLoc() : loopStartLoc(*O);
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
  std::optional<std::string> maxOverNest(const SCEV *S, Loop *Top) {
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
  std::optional<std::string> indexedText(const SCEV *S) {
    auto Saved = Text.LoopIndex;
    for (auto &[L, K] : NestIndex)
      Text.LoopIndex[L] = K;
    auto R = Text.str(S);
    Text.LoopIndex = std::move(Saved);
    return R;
  }

  /// Does S vary with a loop of nest Top (contain one of its AddRecs)?
  static bool dependsOnNest(const SCEV *S, Loop *Top) {
    return SCEVExprContains(S, [&](const SCEV *Y) {
      auto *AR = dyn_cast<SCEVAddRecExpr>(Y);
      return AR && Top->contains(AR->getLoop());
    });
  }

  /// Does expression text E mention the identifier Name?
  static bool mentions(const std::string &E, const std::string &Name) {
    return substitute(E, Name, "") != E;
  }
  /// E with the identifier Name (whole words only) replaced by (Value).
  static std::string substitute(const std::string &E, const std::string &Name,
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

  /// Backedge-taken count of loop L of nest Top in source names: in a
  /// Triangular nest, a count that depends on an enclosing loop of the nest
  /// is written in that loop's counter (indexedText: trisolve's j < i runs
  /// k_i times, LU's rows n - 1 - k_k); otherwise the largest over the nest,
  /// or, where ScalarEvolution cannot write it so, its trip parameter
  /// N_<fn>_<line> minus 1 (mergeIR replaces the parameter by the source
  /// loop's count where it can).
  std::optional<std::string> btcText(const Loop *L, Loop *Top) {
    const SCEV *BTC = SE.getBackedgeTakenCount(L);
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

  /// A load or store of a loop nest for the cache-line model: base pointer,
  /// |step| per loop of the nest, start address (SCEVs are uniqued: equal
  /// steps compare equal), innermost loop, bytes, store or load.
  struct MemRef {
    const SCEV *Base, *Start;
    std::map<const Loop *, const SCEV *> Steps;
    Loop *Inner;
    unsigned Size;
    bool Store;
  };

  /// Splits address S into its steps per loop of nest Top (added to Steps)
  /// and the rest (returned): AddRecs {a,+,s}<L> anywhere in sums, constant
  /// multiples and integer casts (the row offset zext(8*{0,+,n}<i>) of a
  /// 32-bit i*n, which ScalarEvolution cannot prove free of wrapping: like
  /// ScevText, the values are assumed not to wrap). Sets Ok to false for a
  /// non-affine AddRec of the nest.
  const SCEV *peel(const SCEV *S, Loop *Top, std::map<const Loop *, const SCEV *> &Steps,
                   bool &Ok) {
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
  std::optional<std::string> spanOf(const MemRef &R, Loop *Top) {
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

  /// The name of base pointer Base: the source parameter's for an argument
  /// (IR names are dropped in release builds), else the IR name.
  std::string baseName(const SCEV *Base) {
    auto *U = dyn_cast<SCEVUnknown>(Base);
    if (!U)
      return "";
    auto *A = dyn_cast<Argument>(U->getValue());
    return A && A->getArgNo() < Text.Params.size() ? Text.Params[A->getArgNo()]
                                                   : U->getValue()->getName().str();
  }

  /// Bytes of the object Base points to when they are known (a global or
  /// a fixed-size local array), as text; nullopt otherwise (a pointer
  /// argument).
  std::optional<std::string> extentOf(const SCEV *Base) {
    auto *U = dyn_cast<SCEVUnknown>(Base);
    if (!U)
      return std::nullopt;
    const DataLayout &DL = F.getParent()->getDataLayout();
    if (auto *G = dyn_cast<GlobalVariable>(U->getValue()))
      return std::to_string(DL.getTypeAllocSize(G->getValueType()).getFixedValue());
    if (auto *A = dyn_cast<AllocaInst>(U->getValue()))
      if (auto Size = A->getAllocationSize(DL); Size && !Size->isScalable())
        return std::to_string(Size->getFixedValue());
    return std::nullopt;
  }

  /// The reference streams of nest Top for the cache-line memory term
  /// (MemStream): references with one base pointer, the same steps per loop
  /// and start addresses that differ by an expressible amount form one
  /// stream. Empty if a trip count or a step cannot be written in source
  /// names.
  std::vector<MemStream> streamsOf(Loop *Top, const std::vector<MemRef> &Refs) {
    std::vector<MemStream> Out;
    std::vector<const MemRef *> Leader; // first reference of each stream
    for (const MemRef &R : Refs) {
      std::optional<std::string> Offset;
      size_t K = 0;
      for (; K < Out.size(); ++K) {
        const MemRef &L = *Leader[K];
        if (L.Base != R.Base || L.Steps != R.Steps || L.Inner != R.Inner)
          continue;
        const SCEV *D = SE.getMinusSCEV(R.Start, L.Start);
        if (isa<SCEVCouldNotCompute>(D))
          continue;
        if ((Offset = Text.str(D)))
          break;
      }
      if (K < Out.size()) {
        MemStream &M = Out[K];
        (R.Store ? M.Store : M.Load) = true;
        M.Size = std::max(M.Size, R.Size);
        if (*Offset != "0" &&
            std::find(M.Offsets.begin(), M.Offsets.end(), *Offset) == M.Offsets.end())
          M.Offsets.push_back(*Offset);
        continue;
      }
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
    return Out;
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
  void memoryOf(Loop *Top, Node &N) {
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
    std::map<std::pair<unsigned, bool>, std::set<std::string>> Ranges; // (base no., store)
    std::set<const Loop *> Sweeping; // loops some address moves with
    std::vector<MemRef> Refs;
    std::set<std::string> Notes; // references left out or bounded (indirect)
    // A triangular nest: a loop's count depends on an enclosing loop's
    // counter (spanOf bounds the bytes touched apart from the range).
    Triangular = false;
    for (auto &[L, K] : NestIndex) {
      const SCEV *B = SE.getBackedgeTakenCount(L);
      if (!isa<SCEVCouldNotCompute>(B))
        Triangular |= dependsOnNest(B, Top) || (!maxOverNest(B, Top) && indexedText(B));
    }
    for (BasicBlock *B : Top->blocks())
      for (Instruction &I : *B) {
        Value *Ptr = nullptr;
        Type *Ty = nullptr;
        bool Store = false;
        if (auto *L = dyn_cast<LoadInst>(&I)) {
          Ptr = L->getPointerOperand();
          Ty = L->getType();
        } else if (auto *St = dyn_cast<StoreInst>(&I)) {
          Ptr = St->getPointerOperand();
          Ty = St->getValueOperand()->getType();
          Store = true;
        } else if (auto *C = dyn_cast<CallBase>(&I)) {
          if (C->mayReadOrWriteMemory() && !isa<DbgInfoIntrinsic>(C) &&
              !(isa<IntrinsicInst>(C) && cast<IntrinsicInst>(C)->isAssumeLikeIntrinsic()))
            return Fail("call", I); // memcpy, masked or gathered accesses, calls: not modelled
          continue;
        } else {
          continue;
        }
        unsigned Size = DL.getTypeStoreSize(Ty).getFixedValue();
        MemRef R{nullptr, nullptr, {}, LI.getLoopFor(B), Size, Store};
        bool Affine = true;
        const SCEV *S = peel(SE.getSCEV(Ptr), Top, R.Steps, Affine);
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
          // An indirect reference (hist[data[i]]): its object's extent
          // bounds the bytes it touches if known; else it is left out of
          // the footprint, and the nest says so (MemoryNotes). Not a stream.
          std::string Name = baseName(Base), Access = Store ? "store" : "load";
          if (Name.empty())
            Name = "a pointer loaded from memory"; // -O0: the argument's stack slot
          if (auto Extent = extentOf(Base)) {
            Ranges[{NumberOf(Base), Store}].insert(*Extent);
            Notes.insert(Name + ": indirect " + Access + ", bounded by its object's " +
                         *Extent + " B; not a stream of the cache-line model");
          } else {
            Notes.insert(Name + ": indirect " + Access +
                         ", object size unknown: left out of the footprint and traffic");
          }
          continue;
        }
        for (auto &[L, Step] : R.Steps) {
          if (auto *C = dyn_cast<SCEVConstant>(Step); C && C->getAPInt().isNegative())
            Step = SE.getNegativeSCEV(Step);
          if (!Step->isZero())
            Sweeping.insert(L);
        }
        auto Span = spanOf(R, Top);
        if (!Span)
          return Fail("text", I);
        Ranges[{NumberOf(Base), Store}].insert(*Span);
        R.Base = Base;
        R.Start = S;
        Refs.push_back(std::move(R));
      }
    N.MemoryNotes.assign(Notes.begin(), Notes.end());
    if (Ranges.empty())
      return;
    auto Largest = [](const std::set<std::string> &Spans) {
      std::string R;
      for (const std::string &X : Spans)
        R = R.empty() ? "(" + X + ")" : "max(" + R + ", " + X + ")";
      return R;
    };
    std::map<unsigned, std::set<std::string>> ByBase; // by base number
    std::string Traffic, Footprint;
    for (auto &[Key, Spans] : Ranges) {
      Traffic += (Traffic.empty() ? "" : " + ") + Largest(Spans);
      ByBase[Key.first].insert(Spans.begin(), Spans.end());
    }
    for (auto &[Base, Spans] : ByBase)
      Footprint += (Footprint.empty() ? "" : " + ") + Largest(Spans);
    // A loop that no address moves with but that encloses loops that sweep
    // memory (a time-step loop) streams the footprint again on each
    // iteration: its trip count multiplies the traffic.
    std::function<void(Loop *)> Repeat = [&](Loop *L) {
      bool Encloses = false;
      for (const Loop *S : Sweeping)
        Encloses |= S != L && L->contains(S);
      if (!Sweeping.count(L) && Encloses) {
        std::optional<std::string> T = btcText(L, Top);
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
    if (Traffic.empty())
      return Fail("repetition trip", *Top->getHeader()->getTerminator());
    N.Traffic = Traffic;
    N.Footprint = Footprint;
    N.Streams = streamsOf(Top, Refs);
    if (Debug)
      errs() << "memoryOf: " << F.getName() << ": F = " << Footprint << "\n";
  }

  /// Call nodes for calls in B to functions defined in the module, and to
  /// the C library functions segtime costs (irLibraryCallee, with their
  /// size in bytes); Unknown nodes for other functions without a body.
  void calls(BasicBlock &B, const std::string &Freq, NodeList &Out) {
    for (Instruction &I : B) {
      auto *C = dyn_cast<CallInst>(&I);
      Function *Callee = C ? C->getCalledFunction() : nullptr;
      std::string Lib = C ? irLibraryCallee(*C) : "";
      if (!Callee || (Callee->isIntrinsic() && Lib.empty()))
        continue;
      Node N;
      N.Kind = NodeKind::Call;
      N.Id = "ir" + std::to_string(NextId++);
      N.Callee = Lib.empty() ? Callee->getName().str() : Lib;
      if (Callee->isDeclaration() && Lib.empty()) {
        // defined in another translation unit or a library: Unknown here,
        // with callee and arguments for `segtime link` (core/Link.h)
        N.Kind = NodeKind::Unknown;
        N.Reason = externalCallReason(N.Callee);
      }
      N.Range = rangeOf(C->getDebugLoc());
      N.Freq = Freq;
      auto Saved = enterInlined(N, C->getDebugLoc().get());
      for (Value *A : C->args()) {
        std::optional<std::string> S;
        if (A->getType()->isIntegerTy() && SE.isSCEVable(A->getType()))
          S = Text.str(SE.getSCEV(A));
        N.Args.push_back(S ? *S : "");
      }
      if (!Lib.empty())
        N.Bytes = libraryBytes(*C, Lib, N.Args);
      std::tie(Text.Context, ParentSites) = std::move(Saved);
      Out.push_back(std::move(N));
    }
  }

  /// Size in bytes of library call C to Lib (core/Library.h's arguments)
  /// in source names, the length of a constant string for the string
  /// functions; "" if it is not known or Lib has none.
  static std::string libraryBytes(const CallInst &C, const std::string &Lib,
                                  const std::vector<std::string> &Args) {
    std::vector<unsigned> Strings;
    std::string Size;
    for (unsigned I : librarySizeArgs(Lib, &Strings)) {
      if (I >= Args.size() || Args[I].empty())
        return "";
      Size += (Size.empty() ? "(" : "*(") + Args[I] + ")";
    }
    for (unsigned I : Strings) { // the shortest constant bounds strcmp's
      StringRef S;
      if (I < C.arg_size() && getConstantStringInfo(C.getArgOperand(I), S) &&
          (Size.empty() || std::stoul(Size) > S.size()))
        Size = std::to_string(S.size());
    }
    return Size;
  }

  NodeList region(Loop *L) {
    NodeList List;
    std::map<const void *, Poly> SymFreq; // the same with exact conditions
    auto Freq = frequencies(L, SymFreq);
    std::set<const void *> Done;
    for (BasicBlock *B : Order) {
      const void *U = unitOf(L, B);
      if (!U || !Done.insert(U).second)
        continue;
      double Fq = Freq.count(U) ? Freq[U] : 0;
      std::string FreqS = Fq == 1 ? "" : num(Fq);
      if (auto Sym = SymFreq.count(U) ? render(SymFreq[U]) : std::nullopt)
        FreqS = *Sym;
      if (U == B) {
        Node N;
        N.Kind = NodeKind::Stage;
        N.Id = "ir" + std::to_string(NextId++);
        N.Label = "bb" + std::to_string(Number[B]);
        N.Range = rangeOf(*B);
        N.Freq = FreqS;
        Ruv &R = N.Ruvs["INTCC"];
        for (Instruction &I : *B) {
          std::string K = intccKey(I);
          if (!K.empty())
            R.add(K);
        }
        Out.StageOf[B] = N.Id;
        auto Saved = enterInlined(N, majorityLoc(*B));
        std::tie(Text.Context, ParentSites) = std::move(Saved);
        List.push_back(std::move(N));
        calls(*B, FreqS, List);
        continue;
      }
      Loop *SL = const_cast<Loop *>(static_cast<const Loop *>(U));
      Node N;
      N.Kind = NodeKind::Loop;
      N.Id = "ir" + std::to_string(NextId++);
      N.LoopKind = "ir-loop";
      N.Range = rangeOf(loopStartLoc(*SL));
      N.Freq = FreqS;
      N.Index = "k_" + Out.Name + "_" + N.Id;
      N.Start = "0";
      N.Step = "1";
      // The call a loop was inlined through: its header's code says (its
      // start location, copied before inlining, does not; a vector loop
      // has none).
      const DILocation *At = majorityLoc(*SL->getHeader());
      auto Saved = enterInlined(N, At ? At : loopStartLoc(*SL).get());
      auto Mine = std::make_pair(Text.Context, ParentSites);
      N.Trip = tripOf(SL, Out.Name);
      N.Label = transformations(SL);
      N.Chain = chainOf(SL);
      SmallVector<Loop::Edge, 4> Exits; // before its subloops: outermost wins
      SL->getExitEdges(Exits);
      for (const Loop::Edge &E : Exits)
        Out.LoopExits.try_emplace(E, IRFunctionSeg::LoopExit{
            N.Id, Exits.size() == 1 ? std::optional<std::string>(FreqS) : std::nullopt});
      Text.LoopIndex[SL] = N.Index;
      LoopNodeId[SL] = N.Id;
      LoopTrip[SL] = N.Trip;
      N.Body = region(SL);
      std::tie(Text.Context, ParentSites) = Mine;
      // A top-tested loop runs its header once more per execution than the
      // trip count: the final test that leaves.
      std::optional<Node> FinalTest;
      BasicBlock *H = SL->getHeader();
      if (topTested(SL) && Out.StageOf.count(H)) {
        std::function<const Node *(const NodeList &)> Find = [&](const NodeList &Ns) -> const Node * {
          for (const Node &X : Ns) {
            if (X.Id == Out.StageOf[H])
              return &X;
            if (const Node *Y = Find(X.Body))
              return Y;
          }
          return nullptr;
        };
        if (const Node *HS = Find(N.Body)) {
          Node T = *HS;
          T.Id = HS->Id + "t";
          T.Label = "final loop test";
          T.Freq = FreqS;
          T.BranchProb.clear();
          Out.CopyOf[T.Id] = HS->Id;
          FinalTest = std::move(T);
        }
      }
      if (!L) {
        // After region(SL): the edge frequencies that resolve phis are
        // known. The nest's own loops are summed over, not indexed.
        auto Saved = Text.LoopIndex;
        NestIndex.clear();
        for (auto It = Text.LoopIndex.begin(); It != Text.LoopIndex.end();)
          if (SL->contains(It->first)) {
            NestIndex.insert(*It);
            It = Text.LoopIndex.erase(It);
          } else {
            ++It;
          }
        memoryOf(SL, N);
        Text.LoopIndex = std::move(Saved);
      }
      std::tie(Text.Context, ParentSites) = std::move(Saved);
      List.push_back(std::move(N));
      if (FinalTest)
        List.push_back(std::move(*FinalTest));
    }
    return List;
  }

  Function &F;
  LoopInfo &LI;
  ScalarEvolution &SE;
  BranchProbabilityInfo &BPI;
  DominatorTree &DT;
  ScevText Text;
  std::map<const Loop *, std::string> LoopNodeId; ///< IR loop -> its SEG node's id
  std::map<const Loop *, std::string> LoopTrip;   ///< IR loop -> its trip (tripOf)
  /// The loops of the nest memoryOf measures -> their counters (k_<fn>_irN).
  std::map<const Loop *, std::string> NestIndex;
  /// That nest is triangular: a loop's count depends on an enclosing loop
  /// of the nest (btcText then writes such counts in its counter, exactly,
  /// rather than their largest value).
  bool Triangular = false;
  IRFunctionSeg &Out;
  /// The values of F that were arguments of each call (nameCallArgs).
  std::map<SiteKey, std::map<const Value *, std::string>> SiteNames;
  /// Out.Inlined's entry of each call; the calls the node being built is
  /// inlined through (enterInlined).
  std::map<const DILocation *, size_t> SiteIndex;
  std::vector<const DILocation *> ParentSites;
  std::vector<BasicBlock *> Order;
  std::map<const BasicBlock *, unsigned> Number;
  std::map<std::pair<const BasicBlock *, const BasicBlock *>, double> EdgeFreq;
  /// The same with exact conditions (frequencies()), for exactPhi.
  std::map<std::pair<const BasicBlock *, const BasicBlock *>, Poly> SymEdge;
  unsigned NextId = 1;
  int PhiDepth = 0;
  /// Units of symbolic work done for the function so far (monomials of
  /// block frequencies built, and compared per factor), and the most
  /// allowed (buildIRSeg's Budget).
  uint64_t Work = 0, Budget;
  /// Block frequencies that kept the numeric estimate (settle).
  unsigned CappedFrequencies = 0;

  void spend(uint64_t Units) { Work += Units; }
  bool overBudget() const { return Work > Budget; }
};

} // namespace

IRFunctionSeg buildIRSeg(Function &F, LoopInfo &LI, ScalarEvolution &SE,
                         BranchProbabilityInfo &BPI, DominatorTree &DT,
                         const std::vector<std::string> &Params, uint64_t Budget,
                         const CallSiteArgMap *Sites) {
  IRFunctionSeg R;
  R.Name = F.getName().str();
  Builder(F, LI, SE, BPI, DT, Params, Budget, R, Sites).run();
  return R;
}

void packSeg(IRFunctionSeg &FS) {
  if (FS.Seg.empty())
    return;
  FS.PackedSeg = packNodes(FS.Seg);
  FS.Seg = {};
  // The image's vector grows by doubling: the slack would be held until
  // code generation reaches F.
  FS.PackedSeg.shrink_to_fit();
}

void unpackSeg(IRFunctionSeg &FS) {
  if (FS.PackedSeg.empty())
    return;
  FS.Seg = unpackNodes(FS.PackedSeg);
  FS.PackedSeg = {};
}

std::string calleeParamName(const std::map<std::string, std::vector<std::string>> &ParamNames,
                            const std::string &Callee, unsigned K) {
  auto Ps = ParamNames.find(Callee);
  return Ps != ParamNames.end() && K < Ps->second.size() && !Ps->second[K].empty()
             ? Ps->second[K]
             : "arg" + std::to_string(K);
}

void recordCallArgs(Module &M, const std::map<std::string, std::vector<std::string>> &ParamNames,
                    const std::map<std::string, std::string> &SourceNames, CallSiteArgMap &Out) {
  for (Function &F : M)
    for (Instruction &I : instructions(F)) {
      auto *C = dyn_cast<CallBase>(&I);
      Function *Callee = C ? C->getCalledFunction() : nullptr;
      const DILocation *DL = I.getDebugLoc().get();
      if (!Callee || Callee->isDeclaration() || !DL)
        continue;
      std::string Name = Callee->getName().str();
      auto Src = SourceNames.find(Name);
      CallSiteArgs &A = Out[DL];
      A.Args.clear(); // (two calls at one location: the last one's)
      for (unsigned K = 0; K < C->arg_size(); ++K) {
        Value *V = C->getArgOperand(K);
        if (isa<Constant>(V) || !V->getType()->isIntegerTy())
          continue;
        A.Args.push_back({WeakTrackingVH(V), (Src != SourceNames.end() ? Src->second : Name) +
                                                 "." + calleeParamName(ParamNames, Name, K)});
      }
    }
}

AnalysisKey IRSegAnalysis::Key;

IRSegAnalysis::Result IRSegAnalysis::run(Function &F, FunctionAnalysisManager &FAM) {
  std::vector<std::string> Params(F.arg_size());
  for (Argument &A : F.args())
    Params[A.getArgNo()] = A.hasName() ? A.getName().str() : "arg" + std::to_string(A.getArgNo());
  if (DISubprogram *SP = F.getSubprogram())
    for (DINode *N : SP->getRetainedNodes())
      if (auto *V = dyn_cast<DILocalVariable>(N))
        if (V->getArg() && V->getArg() <= Params.size())
          Params[V->getArg() - 1] = V->getName().str();
  return buildIRSeg(F, FAM.getResult<LoopAnalysis>(F), FAM.getResult<ScalarEvolutionAnalysis>(F),
                    FAM.getResult<BranchProbabilityAnalysis>(F),
                    FAM.getResult<DominatorTreeAnalysis>(F), Params);
}

PreservedAnalyses IRSegPrinter::run(Function &F, FunctionAnalysisManager &FAM) {
  if (F.isDeclaration())
    return PreservedAnalyses::all();
  const IRFunctionSeg &R = FAM.getResult<IRSegAnalysis>(F);
  json J = {{"name", R.Name}};
  json Seg = json::array();
  for (const Node &N : R.Seg)
    Seg.push_back(N.toJSON());
  J["ir_seg"] = Seg;
  json Ps = json::array();
  for (const Parameter &P : R.Parameters)
    Ps.push_back(P.toJSON());
  J["parameters"] = Ps;
  json In = json::array();
  for (const InlinedSite &S : R.Inlined)
    In.push_back({{"callee", S.Callee}, {"where", S.Where}, {"nodes", S.Nodes}});
  J["inlined"] = In;
  outs() << J.dump(1) << "\n";
  return PreservedAnalyses::all();
}

} // namespace segtime
