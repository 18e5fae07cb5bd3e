//===- IRSegBuilder.h - Builder of the IR-level SEG of a function -*- C++ -*-===//
///
/// \file
/// The builder behind buildIRSeg (IRSeg.h), private to the passes. One
/// builder walks one function's regions (the function body and its loops,
/// innermost last) and writes its SEG; its parts live in one file each:
///   IRRegion.cpp     regions, block frequencies, stages, loops and calls
///   IRFreqPoly.cpp   frequencies as polynomials in exact branch conditions
///   IRInlined.cpp    the inlined calls a node's code came from
///   IRTripCount.cpp  trip counts, loop guards, unrolled loop parts
///   IRBranchCond.cpp exact branch conditions and branch-probability
///                    parameters (min/max-update records)
///   IRMemStream.cpp  footprint, traffic and reference streams of loop nests
///   IRScevText.cpp   SCEV expressions written in source names
/// Each function's description is at its definition.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PASSES_IRSEGBUILDER_H
#define SEGTIME_PASSES_IRSEGBUILDER_H

#include "passes/IRDataCompare.h"
#include "passes/IRSeg.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Instructions.h"

#include <algorithm>
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace segtime {
namespace irseg {

using llvm::Argument;
using llvm::BasicBlock;
using llvm::BranchInst;
using llvm::BranchProbabilityInfo;
using llvm::CallInst;
using llvm::CmpInst;
using llvm::DebugLoc;
using llvm::DILocation;
using llvm::DIScope;
using llvm::DominatorTree;
using llvm::Function;
using llvm::ICmpInst;
using llvm::Loop;
using llvm::LoopInfo;
using llvm::PHINode;
using llvm::SCEV;
using llvm::ScalarEvolution;
using llvm::Value;

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
  /// ScalarEvolution of the function (set by the builder): a named value
  /// whose SCEV is a sum (trunc(n + n % 2) is trunc(n) + zext(trunc n to
  /// i1)) is written by its name wherever that sum's terms occur, since
  /// ScalarEvolution looks through the value (namedSum).
  ScalarEvolution *SE = nullptr;
  /// The values of Named whose SCEV is a sum, with their names (made when
  /// Named has grown since: Named is large in large functions).
  std::vector<std::pair<const llvm::SCEVAddExpr *, std::string>> NamedSums;
  size_t NamedSumsFor = size_t(-1);

  static std::string join(const llvm::SCEVNAryExpr *E, const char *Sep, ScevText &T, bool &Ok);
  std::string fold(const llvm::SCEVNAryExpr *E, const char *Fn, bool &Ok);
  /// S in source names; nullopt if S names a value that has none.
  std::optional<std::string> str(const SCEV *S);
  /// If sum A holds all the terms of the SCEV of a value of Context or
  /// Named (Context first) that is a sum of its own: that value's name and
  /// the terms of A left over; nullopt otherwise.
  std::optional<std::pair<std::string, llvm::SmallVector<const SCEV *, 4>>>
  namedSum(const llvm::SCEVAddExpr *A);
};

/// Monomial (its factors' texts joined by '\x1f', "" for 1) -> coefficient,
/// in the monomials' order, as a std::map<std::string, double> iterates
/// them, but held in one sorted vector: a block frequency has a few
/// monomials and is looked up and added to far more often than it grows,
/// and the vector spares a heap node per monomial.
class FlatPoly {
public:
  using Term = std::pair<std::string, double>;
  using const_iterator = std::vector<Term>::const_iterator;

  FlatPoly() = default;
  FlatPoly(std::initializer_list<Term> Ts) {
    for (const Term &T : Ts)
      (*this)[T.first] += T.second;
  }
  /// The coefficient of monomial M, 0 added first if M is not there (M
  /// copied only then).
  double &operator[](const std::string &M) { return at(M); }
  double &operator[](std::string &&M) { return at(std::move(M)); }
  /// Monomial M with coefficient C, M after every monomial there (else
  /// M is added to in its place, as operator[] does).
  void append(std::string M, double C) {
    if (Terms.empty() || Terms.back().first < M)
      Terms.emplace_back(std::move(M), C);
    else
      at(std::move(M)) += C;
  }
  const_iterator find(llvm::StringRef M) const {
    auto It = std::lower_bound(Terms.begin(), Terms.end(), M, [](const Term &T, llvm::StringRef K) {
      return llvm::StringRef(T.first) < K;
    });
    return It != Terms.end() && It->first == M ? It : Terms.end();
  }
  const_iterator begin() const { return Terms.begin(); }
  const_iterator end() const { return Terms.end(); }
  size_t size() const { return Terms.size(); }
  bool empty() const { return Terms.empty(); }
  void clear() { Terms.clear(); }
  void reserve(size_t N) { Terms.reserve(N); }

private:
  std::vector<Term> Terms;
  template <typename S> double &at(S &&M) {
    if (Terms.empty() || Terms.back().first < M) {
      Terms.emplace_back(std::forward<S>(M), 0.0);
      return Terms.back().second;
    }
    auto It = std::lower_bound(Terms.begin(), Terms.end(), M,
                               [](const Term &T, const std::string &K) { return T.first < K; });
    if (It == Terms.end() || It->first != M)
      It = Terms.emplace(It, std::forward<S>(M), 0.0);
    return It->second;
  }
};

/// Builds the IR-level SEG of one function.
class Builder {
public:
  Builder(Function &F, LoopInfo &LI, ScalarEvolution &SE, BranchProbabilityInfo &BPI,
          DominatorTree &DT, const std::vector<std::string> &Params, uint64_t Budget,
          IRFunctionSeg &Out, const CallSiteArgMap *Sites);

  void run();

  /// Name each copy k >= 1 of a branch (copyNumber) with a parameter of its
  /// own, Pir_<fn>_<line>_<col>_c<k>, whose default is the branch's shared
  /// parameter (or 1 minus it): the predictions do not change, and a CT
  /// profile of the optimised code (instrument=late) can give each copy its
  /// own rate (-fplugin-arg-segtime-ir-copies).
  bool NameCopies = false;

private:
  /// Br's copy number: 0, 1, ... among F's conditional branches with two
  /// different successors at Br's debug location (line and column), in
  /// block order: the numbering of instrument=late's records
  /// (passes/InstrumentLate.cpp), which count the same IR.
  int copyNumber(const BranchInst *Br);
  std::map<const BranchInst *, int> CopyNumbers;

  //--- IRRegion.cpp: regions, block frequencies, stages, loops, calls ---//

  /// A block frequency as a polynomial in exact branch conditions:
  /// monomial ("c1*c2", "" for 1) -> coefficient (FlatPoly).
  using Poly = FlatPoly;

  /// loopStartLoc(L) (passes/SourceLoc.h), looked up once per loop: it
  /// may scan all of L's blocks, and the same loops are asked for often.
  DebugLoc startLoc(const Loop &L);
  llvm::DenseMap<const Loop *, DebugLoc> StartLocs;
  const void *unitOf(Loop *L, BasicBlock *B);
  static SourceRange rangeOf(const DebugLoc &DL);
  static SourceRange rangeOf(const BasicBlock &B);
  /// The first source location of block B, "line:col" (a successor's, by
  /// which a CT profile tells a branch's arms apart).
  static std::string firstAt(const BasicBlock *B);
  static std::string num(double V);
  llvm::DenseMap<const void *, double> frequencies(Loop *L,
                                                    std::map<const void *, Poly> &SymFreq);
  std::optional<std::string> exactPhi(PHINode *P);
  void calls(BasicBlock &B, const std::string &Freq, NodeList &Out);
  static std::string libraryBytes(const CallInst &C, const std::string &Lib,
                                  const std::vector<std::string> &Args);
  NodeList region(Loop *L);

  //--- IRFreqPoly.cpp: polynomials in exact conditions ---//

  static std::vector<std::string> factorList(const std::string &M);
  static std::set<std::string> factors(const std::string &M);
  bool inScope(const std::string &E) const;
  /// The monomial of a Poly with factors Fs: their texts joined by '\x1f'.
  /// Every monomial of a Poly has its factors sorted and distinct (as a
  /// std::set lists them), which addScaled and render rely on.
  template <typename Range> static std::string monomial(const Range &Fs) {
    std::string K;
    for (const std::string &X : Fs)
      K += (K.empty() ? "" : "\x1f") + X;
    return K;
  }
  void addScaled(Poly &To, const Poly &From, double Scale, const std::string &Factor);
  bool mergeable(const Poly &P);
  void simplify(Poly &P);
  /// Most monomials a block frequency keeps: beyond, its block takes the
  /// numeric frequency (conditions that do not rejoin, such as a chain of
  /// short-circuit tests, multiply the monomials of the blocks after them).
  static constexpr size_t MaxTerms = 64;
  void settle(double Numeric, Poly &P);
  std::optional<std::string> render(const Poly &P);
  /// render(P) for a P that settle completed and nothing changed since
  /// (it has nothing to merge): the same text and the same symbolic work
  /// spent, without looking for merges again.
  std::optional<std::string> renderSettled(const Poly &P);
  static std::optional<std::string> text(const Poly &P);
  static std::optional<std::string> negated(const std::string &A);
  static std::string negation(const std::string &A);

  //--- IRInlined.cpp: the inlined calls a node's code came from ---//

  /// One call of an inlinedAt chain: the inlined function (IR name) and
  /// the call's location.
  struct InlineLink {
    std::string Callee;
    const DILocation *Site;
  };
  using SiteKey = CallSiteKey;
  static SiteKey siteKey(const DILocation *L) { return callSiteKey(L); }
  static std::vector<InlineLink> inlineChain(const DILocation *DL);
  static const DILocation *majorityLoc(const BasicBlock &B);
  void nameCallArgs(const CallSiteArgMap &Sites);
  std::pair<std::map<const Value *, std::string>, std::vector<const DILocation *>>
  enterInlined(const Node &N, const DILocation *DL);

  //--- IRTripCount.cpp: trip counts, loop guards, unrolled parts ---//

  std::optional<std::string> tripText(Loop *L);
  const SCEV *exitValue(const SCEV *S, const Loop *Scope);
  const SCEV *backedgeCount(const Loop *L);
  static std::string product(const std::vector<std::string> &Fs);
  std::optional<std::string> geometricPhi(PHINode *P);
  bool reachesWithin(Loop *L, BasicBlock *From, BasicBlock *To);
  const void *guardedLoop(Loop *L, BasicBlock *B);
  /// A subloop as guardedLoop sees it: ScalarEvolution counts it, the
  /// atoms of its backedge-taken count, its start, vectorised or not.
  struct GuardFacts {
    bool Counted = false;
    std::set<const void *> TripAtoms;
    DebugLoc Start;
    bool Vectorised = false;
  };
  static void scevAtoms(const SCEV *X, std::set<const void *> &A);
  const GuardFacts &guardFacts(Loop *SL);
  static std::string transformations(Loop *L);
  std::string tripOf(Loop *L, const std::string &Fn);
  std::optional<std::string> unrolledGuard(BranchInst *Br, const Loop *SL);
  static std::string unrolledMeaning(unsigned Line, unsigned U);
  uint64_t ivStep(const Loop *L);
  bool uncounted(const Loop *L);
  std::optional<std::pair<unsigned, bool>> unrolledPart(const Loop *L);
  std::optional<std::string> maxOverNest(const SCEV *S, Loop *Top);
  std::optional<std::string> indexedText(const SCEV *S);
  std::optional<std::string> btcText(const Loop *L, Loop *Top);

  //--- IRBranchCond.cpp: exact conditions, branch parameters ---//

  /// A min/max-update (record) test: a conditional branch comparing a value
  /// v with the current content m of a location, whose successor RecordSucc
  /// updates the location with v.
  struct RecordTest {
    const SCEV *Addr = nullptr; ///< memory form: the location's address
    PHINode *Phi = nullptr;     ///< or the loop-carried phi holding m
    unsigned RecordSucc = 0;
  };
  std::optional<std::string> branchParameter(BranchInst *Br);
  std::optional<std::string> sharedBranchParameter(BranchInst *Br);
  std::optional<std::string> selectParameter(BasicBlock *B);
  void setDataComparison(Parameter &P, DataCompareKind K);
  void setMergeBound(Parameter &P, bool PastFirst);
  std::optional<RecordTest> recordTest(BranchInst *Br);
  PHINode *joinOf(BranchInst *Br, PHINode *M, Value *V, unsigned &RecordSucc);
  std::vector<BranchInst *> recordChain(PHINode *H, Loop *L);
  std::optional<unsigned> sideOf(BranchInst *Br, BasicBlock *In, BasicBlock *Join);
  bool sameValue(Value *A, Value *B, int Depth = 0);
  std::optional<std::string> recordTestCount(const RecordTest &R, BranchInst *Br);
  bool varies(const SCEV *S, Loop *L, int Depth = 0);
  bool oncePerIteration(BasicBlock *B, Loop *L);
  std::optional<std::string> exactCondition(BranchInst *Br);
  std::optional<std::string> checksPassing(BranchInst *Br, const Loop *SL);
  std::optional<std::string> exactValue(Value *V, int Depth,
                                        std::optional<bool> Passing = std::nullopt);
  /// While checksPassing reads a branch: the name of its alias-check
  /// indicator (Pov_<fn>_<line>_<col>[_c<k>]), which exactValue writes for
  /// a comparison of addresses of different objects; "" otherwise.
  std::string AliasIndicator;
  std::optional<std::string> exactCompare(ICmpInst *Cmp);
  const SCEV *distribute(const SCEV *S);

  //--- IRMemStream.cpp: memory of loop nests ---//

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
  static bool dependsOnNest(const SCEV *S, Loop *Top);
  static bool mentions(const std::string &E, const std::string &Name);
  static std::string substitute(const std::string &E, const std::string &Name,
                                const std::string &Value);
  const SCEV *peel(const SCEV *S, Loop *Top, std::map<const Loop *, const SCEV *> &Steps,
                   bool &Ok);
  std::optional<std::string> spanOf(const MemRef &R, Loop *Top);
  std::string baseName(const SCEV *Base);
  std::optional<std::string> extentOf(const SCEV *Base);
  std::vector<MemStream> streamsOf(Loop *Top, const std::vector<MemRef> &Refs);
  void memoryOf(Loop *Top, Node &N);

  //--- state ---//

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
  /// Block numbers (the order of F's block list), edge frequencies
  /// (BranchProbabilityInfo's, per execution of the edge's region) and the
  /// same with exact conditions (frequencies(), for exactPhi): looked up,
  /// never iterated, so hashed by address.
  llvm::DenseMap<const BasicBlock *, unsigned> Number;
  using Edge = std::pair<const BasicBlock *, const BasicBlock *>;
  llvm::DenseMap<Edge, double> EdgeFreq;
  llvm::DenseMap<Edge, Poly> SymEdge;
  /// guardFacts of each subloop asked about (looked up, never iterated).
  llvm::DenseMap<const Loop *, GuardFacts> Guards;
  /// Out.Parameters' index of each parameter's name (addParameter).
  llvm::StringMap<size_t> ParameterIndex;
  unsigned NextId = 1;
  int PhiDepth = 0;
  /// Units of symbolic work done for the function so far (monomials of
  /// block frequencies built, and compared per factor), and the most
  /// allowed (buildIRSeg's Budget).
  uint64_t Work = 0, Budget;
  /// Block frequencies that kept the numeric estimate (settle).
  unsigned CappedFrequencies = 0;

  /// Out.Parameters' entry named Name, null if none.
  Parameter *findParameter(const std::string &Name) {
    auto It = ParameterIndex.find(Name);
    return It == ParameterIndex.end() ? nullptr : &Out.Parameters[It->second];
  }
  /// Appends P to Out.Parameters (its name not there yet).
  void addParameter(Parameter P) {
    ParameterIndex[P.Name] = Out.Parameters.size();
    Out.Parameters.push_back(std::move(P));
  }

  void spend(uint64_t Units) { Work += Units; }
  bool overBudget() const { return Work > Budget; }
};

} // namespace irseg
} // namespace segtime

#endif
