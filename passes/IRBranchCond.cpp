//===- IRBranchCond.cpp - Branch conditions of the IR SEG -----------------===//
///
/// \file
/// Exact conditions (comparisons of values in source names: cmp_eq, cmp_lt,
/// cmp_le) for branches that have one, the named probability Pir_<fn>_<line>_<col>
/// of a data-dependent branch, the min/max-update idiom whose probability
/// is H_N/N (Knuth TAOCP vol. 1 1.2.7), and merge and search steps, 1/2
/// (IRDataCompare.h).
///
//===----------------------------------------------------------------------===//
#include "passes/IRDataCompare.h"
#include "passes/IRSegBuilder.h"
#include "passes/SourceLoc.h"
#include "core/ParamNames.h"

#include <functional>
#include <regex>

using namespace llvm;

namespace segtime {
namespace irseg {

std::string Builder::firstAt(const BasicBlock *B) {
  SourceRange R = rangeOf(*B);
  return std::to_string(R.Line) + ":" + std::to_string(R.Col);
}

/// The name of a parameter of function Fn at DL: Prefix, Fn, DL's line and
/// column, "Pir_f_12_9".
static std::string nameAt(const char *Prefix, const std::string &Fn, const DebugLoc &DL) {
  return Prefix + Fn + "_" + std::to_string(DL.getLine()) + "_" + std::to_string(DL.getCol());
}

/// The probability that data-dependent branch Br takes its first
/// successor as a parameter Pir_<function>_<line>_<col> (the branch's
/// location; copies made by unrolling share it, "(1 - P)" if a copy's
/// successors are swapped), default BranchProbabilityInfo's estimate, or
/// an outcome model: the min-update idiom's H_N/N, a merge or search
/// step's estimated 1/2 (dataComparison); nullopt without a debug location.
/// With NameCopies, copy k >= 1 of the branch (copyNumber) has its own
/// parameter Pir_<function>_<line>_<col>_c<k> instead, the probability that
/// it takes its own first successor, by default the shared one's value
/// (DefaultExpr: the shared name, or 1 minus it for swapped successors).
std::optional<std::string> Builder::branchParameter(BranchInst *Br) {
  std::optional<std::string> Shared = sharedBranchParameter(Br);
  int Copy = Shared && NameCopies ? copyNumber(Br) : 0;
  if (Copy == 0)
    return Shared;
  // Copy k of the branch: a parameter of its own, in its own orientation,
  // whose default is the shared one's value for it.
  std::string Base = Shared->rfind("(1 - ", 0) == 0 ? Shared->substr(5, Shared->size() - 6) : *Shared;
  std::string Name = Base + "_c" + std::to_string(Copy);
  if (!findParameter(Name)) {
    const Parameter *B = findParameter(Base);
    Parameter P{Name, "branch", std::nullopt, B->Source, B->Where,
                "probability that copy " + std::to_string(Copy) + " of the optimised branch " +
                    Base + " goes to its first successor (unless measured: " + Base + "'s)"};
    P.DefaultExpr = Shared->rfind("(1 - ", 0) == 0 ? "1 - " + Base : Base;
    P.TakenAt = firstAt(Br->getSuccessor(0));
    P.OtherAt = firstAt(Br->getSuccessor(1));
    addParameter(std::move(P));
  }
  return Name;
}

int Builder::copyNumber(const BranchInst *Br) {
  if (CopyNumbers.empty()) {
    std::map<std::pair<unsigned, unsigned>, int> Next;
    for (const BasicBlock &B : F) {
      const auto *X = dyn_cast<BranchInst>(B.getTerminator());
      if (!X || !X->isConditional() || X->getSuccessor(0) == X->getSuccessor(1))
        continue;
      const DebugLoc &L = X->getDebugLoc();
      CopyNumbers[X] = L ? Next[{L.getLine(), L.getCol()}]++ : 0;
    }
  }
  auto It = CopyNumbers.find(Br);
  return It == CopyNumbers.end() ? 0 : It->second;
}

/// branchParameter without NameCopies: one parameter for all copies of
/// the branch (the doc comment above).
std::optional<std::string> Builder::sharedBranchParameter(BranchInst *Br) {
  const DebugLoc &DL = Br->getDebugLoc();
  if (!DL || !DL.getLine())
    return std::nullopt;
  std::string Taken = firstAt(Br->getSuccessor(0)), Other = firstAt(Br->getSuccessor(1));
  std::string Name = nameAt("Pir_", Out.Name, DL);
  if (Parameter *P = findParameter(Name)) {
    // A copy in a loop of a branch first met outside it (the prologue that
    // an unrolled loop peels) gives it the merge or search step's model.
    if (P->Source == "BPI") {
      bool Swapped = P->TakenAt == Other && P->OtherAt == Taken;
      if (auto K = dataComparison(*Br, LI))
        setDataComparison(*P, *K);
      else if (auto Past = mergeBoundTest(*Br, LI))
        setMergeBound(*P, *Past != Swapped);
    }
    return P->TakenAt == Other && P->OtherAt == Taken ? negation(Name) : Name;
  }
  double P0 = BPI.getEdgeProbability(Br->getParent(), 0u).getNumerator() /
              double(BranchProbability::getDenominator());
  Parameter P{Name, "branch", P0, "BPI",
              fileLineCol(DL),
              "probability that the optimised branch goes to " + Taken +
                  " (BranchProbabilityInfo's estimate)"};
  bool Record = false;
  if (auto R = recordTest(Br))
    if (auto N = recordTestCount(*R, Br)) {
      Record = true;
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
  // A merge or search step: an estimated outcome frequency of 1/2
  // (IRDataCompare.h; docs/models.md ICC step 4).
  if (!Record) {
    if (auto K = dataComparison(*Br, LI))
      setDataComparison(P, *K);
    else if (auto Past = mergeBoundTest(*Br, LI))
      setMergeBound(P, *Past);
  }
  P.TakenAt = Taken;
  P.OtherAt = Other;
  addParameter(std::move(P));
  return Name;
}

/// P, the probability of a branch (Source "BPI"), as a merge or search
/// step's: the estimated default 1/2 (dataCompareSource).
void Builder::setDataComparison(Parameter &P, DataCompareKind K) {
  P.Default = 0.5;
  P.DefaultExpr.clear();
  P.Source = dataCompareSource(K);
  auto Paren = P.Meaning.find(" (");
  P.Meaning = P.Meaning.substr(0, Paren) +
              (K == DataCompareKind::Merge ? " (a merge step: estimated 1/2 on random input)"
                                           : " (a search step: estimated 1/2 for a random key)");
}

/// P, the probability of a branch (Source "BPI"), as the bound test of a
/// merge index (mergeBoundTest): 0 if its first successor is the side past
/// the bound (PastFirst), else 1.
void Builder::setMergeBound(Parameter &P, bool PastFirst) {
  P.Default = PastFirst ? 0.0 : 1.0;
  P.DefaultExpr.clear();
  P.Source = mergeBoundSource();
  auto Paren = P.Meaning.find(" (");
  P.Meaning = P.Meaning.substr(0, Paren) +
              " (the bound test of a merge index: estimated, past the bound only once its "
              "run is exhausted)";
}

/// The probability that the condition of a merge or search step's select
/// in loop block B is true (dataSelect), as a parameter
/// Pir_<function>_<line>_<col> of the comparison's location with the
/// estimated default 1/2 (the machine level charges it only where code
/// generation made the select a branch); nullopt if B has no such select
/// or the comparison no debug location.
std::optional<std::string> Builder::selectParameter(BasicBlock *B) {
  auto S = dataSelect(*B, LI);
  if (!S)
    return std::nullopt;
  auto *C = cast<Instruction>(S->Select->getCondition());
  const DebugLoc &DL = C->getDebugLoc();
  if (!DL || !DL.getLine())
    return std::nullopt;
  std::string Name = nameAt("Pir_", Out.Name, DL);
  if (!findParameter(Name))
    addParameter(Parameter{Name, "branch", 0.5, dataCompareSource(S->Kind, true),
                           fileLineCol(DL),
                           "probability that the condition of the select is true (a " +
                               std::string(S->Kind == DataCompareKind::Merge
                                               ? "merge step: estimated 1/2 on random input)"
                                               : "search step: estimated 1/2 for a random key)")});
  return Name;
}

/// Br as a record test: its condition is an ordering comparison (<, <=,
/// >, >=) of v with m, where m is a load from address A and the successor
/// reached only on one outcome (an if-then arm) first writes v (the same
/// value, or the same expression recomputed) to A; or m is a phi in Br's
/// loop (the running value: recordChain checks that it is carried around
/// the loop) and a phi after Br takes v from one outcome's side and m from
/// the other's (joinOf). nullopt otherwise.
std::optional<Builder::RecordTest> Builder::recordTest(BranchInst *Br) {
  auto *C = dyn_cast<CmpInst>(Br->getCondition());
  if (!C || !isOrderingCompare(C) || Br->getSuccessor(0) == Br->getSuccessor(1))
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
PHINode *Builder::joinOf(BranchInst *Br, PHINode *M, Value *V, unsigned &RecordSucc) {
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
std::vector<BranchInst *> Builder::recordChain(PHINode *H, Loop *L) {
  std::vector<BranchInst *> Chain;
  BasicBlock *Latch = L->getLoopLatch();
  if (!Latch || H->getParent() != L->getHeader())
    return {};
  Value *End = H->getIncomingValueForBlock(Latch);
  for (PHINode *Cur = H; Chain.size() < 64;) {
    PHINode *Next = nullptr;
    for (User *U : Cur->users()) {
      auto *C = dyn_cast<CmpInst>(U);
      if (!C || !isOrderingCompare(C))
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

/// The successor of Br whose outcome edge In -> Join is reached by (In
/// is Br's block, or dominated by the edge to that successor); nullopt if
/// neither.
std::optional<unsigned> Builder::sideOf(BranchInst *Br, BasicBlock *In, BasicBlock *Join) {
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
bool Builder::sameValue(Value *A, Value *B, int Depth) {
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
std::optional<std::string> Builder::recordTestCount(const RecordTest &R, BranchInst *Br) {
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
bool Builder::varies(const SCEV *S, Loop *L, int Depth) {
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
bool Builder::oncePerIteration(BasicBlock *B, Loop *L) {
  BasicBlock *Latch = L->getLoopLatch();
  return Latch && DT.dominates(B, Latch);
}

/// The probability that conditional branch Br takes its first successor,
/// exactly, when its condition is a function of comparisons of integers
/// that are expressions in source names (parameters, enclosing loops'
/// iteration numbers): e.g. the vectoriser's "n is a multiple of VF*UF"
/// test before the scalar epilogue. Uses cmp_eq, cmp_lt, cmp_le (1 or 0)
/// (predictor/Expr.h); nullopt for data-dependent conditions
/// (BranchProbabilityInfo estimates those).
std::optional<std::string> Builder::exactCondition(BranchInst *Br) {
  return exactValue(Br->getCondition(), 0);
}

/// The condition of Br, a runtime check before the vectorised loop SL
/// (its one side leads into SL), with the tests exact: the minimum
/// iteration count, a symbolic stride speculated to be 1 (the vectoriser's
/// loop version for unit stride, which a column walk of stride n never
/// takes), and every comparison of addresses of different objects (an
/// alias check: the addresses are data) the indicator that the checks find
/// the ranges overlapping, a parameter Pov_<fn>_<line>_<col> of the
/// branch's location (_c<k> for its copy k, copyNumber), default 0: the
/// checks pass, as guardedLoop assumes (source aliasCheckSource, estimated).
/// Its TakenAt is the arm ("true" / "false") of the branch that leaves SL
/// out, which an instrument=late record counts. nullopt if a test is
/// none of these.
std::optional<std::string> Builder::checksPassing(BranchInst *Br, const Loop *SL) {
  if (!Br || !Br->isConditional() || transformations(const_cast<Loop *>(SL)) != "vectorised")
    return std::nullopt;
  // The value of the condition that leads into SL.
  bool IntoOnTrue = DT.dominates(Br->getSuccessor(0), SL->getHeader());
  const DebugLoc &DL = Br->getDebugLoc();
  int Copy = copyNumber(Br);
  std::string Name = DL && DL.getLine()
                         ? nameAt(IndicatorPrefix, Out.Name, DL) +
                               (Copy ? "_c" + std::to_string(Copy) : std::string())
                         : std::string();
  AliasIndicator = Name;
  std::optional<std::string> R = exactValue(Br->getCondition(), 0, IntoOnTrue);
  AliasIndicator.clear();
  if (R && !Name.empty() && R->find(Name) != std::string::npos && !findParameter(Name)) {
    Parameter P{Name, "branch", 0.0, aliasCheckSource(), fileLineCol(DL),
                "probability that the vectoriser's runtime checks at " +
                    std::to_string(DL.getLine()) +
                    " find the ranges overlapping (the scalar loop runs; estimated 0: the "
                    "addresses are data)"};
    P.TakenAt = IntoOnTrue ? "false" : "true";
    P.OtherAt = IntoOnTrue ? "true" : "false";
    addParameter(std::move(P));
  }
  return R;
}

/// Whether Cmp compares addresses of different objects, or integers made
/// of them (the vectoriser's difference checks, `(a - b) < VF*UF*size` on
/// ptrtoint): no source value.
static bool comparesAddresses(ICmpInst *Cmp, ScalarEvolution &SE) {
  if (Cmp->getOperand(0)->getType()->isPointerTy())
    return true;
  return llvm::any_of(Cmp->operands(), [&](Value *X) {
    return SE.isSCEVable(X->getType()) && SCEVExprContains(SE.getSCEV(X), [](const SCEV *Y) {
             auto *U = dyn_cast<SCEVUnknown>(Y);
             return U && U->getType()->isPointerTy();
           });
  });
}

/// The 0/1 value of the i1 value V as an expression (see exactCondition).
/// Passing: an address comparison of different objects under V takes the
/// value that makes V Passing (checksPassing; nullopt: none is exact).
std::optional<std::string> Builder::exactValue(Value *V, int Depth,
                                               std::optional<bool> Passing) {
  if (Depth > 6)
    return std::nullopt;
  if (auto *C = dyn_cast<ConstantInt>(V))
    return C->isZero() ? "0" : "1";
  if (auto *Cmp = dyn_cast<ICmpInst>(V)) {
    auto R = exactCompare(Cmp);
    if (!R && Passing && comparesAddresses(Cmp, SE)) {
      if (AliasIndicator.empty())
        return *Passing ? "1" : "0";
      // Passing when the ranges do not overlap.
      return *Passing ? negation(AliasIndicator) : AliasIndicator;
    }
    return R;
  }
  auto Sub = [&](Value *X, bool Flip = false) {
    return exactValue(X, Depth + 1,
                      Passing ? std::optional<bool>(*Passing != Flip) : std::nullopt);
  };
  auto And = [](const std::string &A, const std::string &B) -> std::string {
    if (A == "0" || B == "0")
      return "0";
    // (0/1 values: x*x = x, the alias indicator of several checks)
    return A == "1" || A == B ? B : B == "1" ? A : A + "*" + B;
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

/// A comparison of two integers in source names.
std::optional<std::string> Builder::exactCompare(ICmpInst *Cmp) {
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
const SCEV *Builder::distribute(const SCEV *S) {
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

} // namespace irseg
} // namespace segtime
