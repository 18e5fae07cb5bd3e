//===- IRRegion.cpp - Regions and block frequencies of the IR SEG ---------===//
///
/// \file
/// The IR-level SEG of a function region by region (the function body, then
/// each loop): a stage per basic block, a Loop node per loop with its trip
/// count, Call nodes for calls; each with its frequency relative to the
/// region's entry (BranchProbabilityInfo, exact conditions where the branch
/// has one: IRFreqPoly.cpp, IRBranchCond.cpp).
///
//===----------------------------------------------------------------------===//
#include "passes/IRSegBuilder.h"
#include "passes/SourceLoc.h"
#include "core/Library.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"

#include <cstdio>
#include <functional>

using namespace llvm;

namespace segtime {
namespace irseg {

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

/// Whether the floating-point recurrence of loop L starts from what the
/// previous iteration of its parent P stored: P stores a floating-point
/// value (a row's result) at an address, and a load of L reads, in L's
/// first iteration, the address P's store wrote one iteration of P earlier
/// or in the same iteration (the rows of an unrolled P)
/// (back substitution: row i's sum starts with U[i][i+1]·x[i+1], x[i+1]
/// the previous row's result). The rows then run one after another through
/// the store and its forwarding, not overlapped.
static bool startsFromPreviousStore(const Loop *L, ScalarEvolution &SE) {
  const Loop *P = L->getParentLoop();
  if (!P)
    return false;
  SmallVector<const SCEVAddRecExpr *, 4> Stores;
  for (BasicBlock *B : P->blocks()) {
    if (L->contains(B))
      continue;
    for (Instruction &I : *B)
      if (auto *St = dyn_cast<StoreInst>(&I))
        if (St->getValueOperand()->getType()->isFloatingPointTy())
          if (auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(St->getPointerOperand())))
            if (AR->getLoop() == P && AR->isAffine())
              Stores.push_back(AR);
  }
  if (Stores.empty())
    return false;
  for (BasicBlock *B : L->blocks())
    for (Instruction &I : *B) {
      auto *Ld = dyn_cast<LoadInst>(&I);
      if (!Ld || !Ld->getType()->isFloatingPointTy())
        continue;
      auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(Ld->getPointerOperand()));
      if (!AR || AR->getLoop() != L)
        continue;
      for (const SCEVAddRecExpr *St : Stores) {
        // (P's previous iteration's store, or the same iteration's: an
        // earlier row of an unrolled P)
        const SCEV *Prev = SE.getMinusSCEV(St, St->getStepRecurrence(SE));
        if (SE.getMinusSCEV(AR->getStart(), Prev)->isZero() ||
            SE.getMinusSCEV(AR->getStart(), St)->isZero())
          return true;
        // Where the start's distance from the stores is not known (the
        // rows of an unrolled P start from the remainder's exit values):
        // the same object, the start moving with P in step with the stores,
        // and L walking away from them, towards the rows already stored.
        auto *StartP = dyn_cast<SCEVAddRecExpr>(AR->getStart());
        const auto *LStep = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
        const auto *PStep = dyn_cast<SCEVConstant>(St->getStepRecurrence(SE));
        if (StartP && StartP->getLoop() == P && LStep && PStep &&
            SE.getPointerBase(AR) == SE.getPointerBase(St) &&
            StartP->getStepRecurrence(SE) == St->getStepRecurrence(SE) &&
            LStep->getAPInt().isNegative() != PStep->getAPInt().isNegative())
          return true;
      }
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
/// loop's remainder), or one whose first iteration loads what the previous
/// iteration of the enclosing loop stored from it (startsFromPreviousStore:
/// back substitution).
static std::string chainOf(const Loop *L, ScalarEvolution &SE) {
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
  if (Kind == "own" && startsFromPreviousStore(L, SE))
    return "continued";
  return Kind;
}

Builder::Builder(Function &F, LoopInfo &LI, ScalarEvolution &SE, BranchProbabilityInfo &BPI,
                 DominatorTree &DT, const std::vector<std::string> &Params, uint64_t Budget,
                 IRFunctionSeg &Out, const CallSiteArgMap *Sites)
    : F(F), LI(LI), SE(SE), BPI(BPI), DT(DT), Text{Params, {}}, Out(Out), Budget(Budget) {
  Text.SE = &SE;
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
    auto R = this->Text.str(exitValue(this->SE.getSCEV(P->getIncomingValueForBlock(Best)),
                                      this->LI.getLoopFor(P->getParent())));
    --PhiDepth;
    return R;
  };
}

/// S as its value in loop Scope (nullptr: the function body): the value
/// an inner loop's recurrence has when that loop exits (the start of a
/// runtime-unrolled loop's remainder: the unrolled counter's exit value),
/// from its backedge-taken count (backedgeCount, the predicated analysis
/// too); S itself if that count is unknown.
const SCEV *Builder::exitValue(const SCEV *S, const Loop *Scope) {
  S = SE.getSCEVAtScope(S, const_cast<Loop *>(Scope));
  auto *AR = dyn_cast<SCEVAddRecExpr>(S);
  // (a recurrence of Scope or of a loop around it has its value there)
  if (!AR || !AR->isAffine() || (Scope && AR->getLoop()->contains(Scope)))
    return S;
  const SCEV *BTC = backedgeCount(AR->getLoop());
  if (isa<SCEVCouldNotCompute>(BTC))
    return S;
  return AR->evaluateAtIteration(SE.getTruncateOrZeroExtend(BTC, AR->getType()), SE);
}

void Builder::run() {
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

/// The member of region L (nullptr: the function body) that contains B:
/// B itself, or the outermost loop below L that contains it; nullptr if B
/// is outside L.
const void *Builder::unitOf(Loop *L, BasicBlock *B) {
  Loop *BL = LI.getLoopFor(B);
  if (BL == L)
    return B;
  if (L && !L->contains(B))
    return nullptr;
  while (BL && BL->getParentLoop() != L)
    BL = BL->getParentLoop();
  return BL;
}

SourceRange Builder::rangeOf(const DebugLoc &DL) {
  SourceRange R;
  if (DL) {
    R.File = DL->getFilename().str();
    R.Line = R.EndLine = DL.getLine();
    R.Col = R.EndCol = DL.getCol();
  }
  return R;
}

SourceRange Builder::rangeOf(const BasicBlock &B) {
  for (const Instruction &I : B)
    if (I.getDebugLoc() && I.getDebugLoc().getLine())
      return rangeOf(I.getDebugLoc());
  return {};
}

std::string Builder::num(double V) {
  char Buf[32];
  snprintf(Buf, sizeof Buf, "%.6g", V);
  return Buf;
}

/// Relative execution frequency of each member of region L per execution
/// of its entry (the loop header, or the function entry). Branch
/// probabilities from BranchProbabilityInfo, except that a loop guard is
/// taken (a loop whose trip count formula is positive is entered).
/// SymFreq receives the same frequencies with exact conditions
/// (exactCondition) in place of the estimates where there are some.
DenseMap<const void *, double> Builder::frequencies(Loop *L,
                                                   std::map<const void *, Poly> &SymFreq) {
  DenseMap<const void *, double> Freq;
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
        double Add = Freq[U] * Share; // (before Freq[UT] may grow the table)
        Freq[UT] += Add;
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
    // Else a merge or search step's select (docs/models.md ICC step 4).
    if (!Named && L)
      Named = selectParameter(B);
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
      if (auto E = render(Edge)) // S: a block of the region, or a subloop's header
        Out.EdgeFreq[{B, S}] = *E;
      SymEdge[{B, S}] = std::move(Edge);
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
std::optional<std::string> Builder::exactPhi(PHINode *P) {
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
    auto V = Text.str(exitValue(SE.getSCEV(In), LI.getLoopFor(P->getParent())));
    if (!V || !inScope(*V))
      return std::nullopt;
    if (*V == "0" || W == "0")
      continue;
    Sum += (Sum.empty() ? "" : " + ") + (W.empty() ? *V : "(" + W + ")*(" + *V + ")");
  }
  return Sum.empty() ? "0" : "(" + Sum + ")";
}

/// Call nodes for calls in B to functions defined in the module, and to
/// the C library functions segtime costs (irLibraryCallee, with their
/// size in bytes); Unknown nodes for other functions without a body.
void Builder::calls(BasicBlock &B, const std::string &Freq, NodeList &Out) {
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
std::string Builder::libraryBytes(const CallInst &C, const std::string &Lib,
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

NodeList Builder::region(Loop *L) {
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
    // (SymFreq[U] as settle left it: frequencies settles every unit's)
    if (auto Sym = SymFreq.count(U) ? renderSettled(SymFreq[U]) : std::nullopt)
      FreqS = *Sym;
    if (U == B) {
      Node N;
      N.Kind = NodeKind::Stage;
      N.Id = "ir" + std::to_string(NextId++);
      N.Label = "bb" + std::to_string(Number[B]);
      N.Range = rangeOf(*B);
      N.Freq = FreqS;
      Ruv &R = N.Ruvs[levelKey(Level::IntCC)];
      for (Instruction &I : *B) {
        std::string K = intccKey(I);
        if (!K.empty())
          R.add(K);
      }
      Out.StageOf[B] = N.Id;
      // Where its scalar selects are, for the sides of those code
      // generation makes into jumps (IRFunctionSeg::SelectLocs).
      for (Instruction &I : *B)
        if (auto *Sel = dyn_cast<SelectInst>(&I); Sel && !Sel->getType()->isVectorTy()) {
          const DebugLoc &DL = Sel->getDebugLoc();
          Out.SelectLocs[B].push_back(DL && DL.getLine() ? fileLineCol(DL) : std::string());
        }
      if (auto *Br = dyn_cast<BranchInst>(B->getTerminator());
          Br && Br->isConditional() && Br->getDebugLoc() && Br->getDebugLoc().getLine() &&
          logicalBranchOp(Br->getCondition()).first)
        Out.SplitLocs[B] = fileLineCol(Br->getDebugLoc());
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
    N.Range = rangeOf(startLoc(*SL));
    N.Freq = FreqS;
    N.Index = "k_" + Out.Name + "_" + N.Id;
    N.Start = "0";
    N.Step = "1";
    // The call a loop was inlined through: its header's code says (its
    // start location, copied before inlining, does not; a vector loop
    // has none).
    const DILocation *At = majorityLoc(*SL->getHeader());
    auto Saved = enterInlined(N, At ? At : startLoc(*SL).get());
    auto Mine = std::make_pair(Text.Context, ParentSites);
    N.Trip = tripOf(SL, Out.Name);
    N.Label = transformations(SL);
    N.Chain = chainOf(SL, SE);
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

} // namespace irseg
} // namespace segtime
