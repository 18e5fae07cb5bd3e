//===- Predict.cpp - Predicted times per function and level ---------------===//
///
/// \file
/// predict() (predictor/Predict.h): per selected function, the levels it can
/// be predicted at, the communication and library-call terms every level
/// shares, the parameter values (PredictParams.cpp), the notes at those
/// values, and per level the closed form's value at the given rank or the
/// slowest of the p ranks, with the dynamic counts. The loop models (ICC
/// overlap, memory term, ECM) are LoopModels.cpp; the text and JSON views
/// of the report PredictView.cpp.
///
//===----------------------------------------------------------------------===//
#include "predictor/Predict.h"
#include "core/Library.h"
#include "predictor/PredictDetail.h"
#include "predictor/PredictTiming.h"
#include "predictor/levels/LevelUnit.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <vector>

using namespace GiNaC;

namespace segtime {
using namespace predict_detail;

PredictTiming &PredictTiming::get() {
  static PredictTiming T;
  return T;
}

void PredictTiming::print(std::ostream &OS, size_t Top) const {
  OS << "segtime predict timing (CPU s):\n";
  for (auto &[K, V] : Phase)
    OS << "  " << std::left << std::setw(44) << K << std::fixed << std::setprecision(3) << V
       << "\n";
  std::map<std::string, double> C = Counter;
  const SumWork &SW = sumWork();
  C["sum evaluations (seg_sum)"] = double(SW.Evals);
  C["numeric sums computed"] = double(SW.Sums);
  C["numeric sums reused"] = double(SW.MemoHits);
  C["numeric sum terms (compiled)"] = double(SW.Terms);
  C["numeric sum terms (substituted)"] = double(SW.Substituted);
  for (auto &[K, V] : C)
    OS << "  " << std::left << std::setw(44) << K << std::fixed << std::setprecision(0) << V
       << "\n";
  std::vector<std::pair<double, std::string>> F;
  for (auto &[K, V] : Function)
    F.push_back({V, K});
  std::sort(F.begin(), F.end(), [](auto &A, auto &B) { return A.first > B.first; });
  OS << "  slowest functions:\n";
  for (size_t I = 0; I < F.size() && I < Top; ++I)
    OS << "    " << std::fixed << std::setprecision(3) << F[I].first << " " << F[I].second << "\n";
  OS << std::defaultfloat;
}

std::optional<std::string> iccTarget(const SegFile &S, const Machine &M,
                                     const std::string &Wanted) {
  if (!Wanted.empty())
    return S.Targets.count(Wanted) ? std::optional<std::string>(Wanted) : std::nullopt;
  // A target the machine has its own ICC cost vector for; then the machine's
  // own CPU (identity llvm_cpu, which `segtime calibrate` records); then the
  // first target an `any` cost vector serves.
  auto Icc = M.Levels.find(Level::ICC);
  for (auto &[T, Info] : S.Targets)
    if (Icc != M.Levels.end() && Icc->second.count(T) && !Info.count("error"))
      return T;
  if (auto Cpu = M.Identity.find("llvm_cpu"); Cpu != M.Identity.end())
    if (auto T = S.Targets.find(Cpu->second);
        T != S.Targets.end() && M.has(Level::ICC, T->first) && !T->second.count("error"))
      return T->first;
  for (auto &[T, Info] : S.Targets)
    if (M.has(Level::ICC, T) && !Info.count("error"))
      return T;
  return std::nullopt;
}

/// iccTarget, or an error that says what each side has.
static std::string chooseTarget(const SegFile &S, const Machine &M, const std::string &Wanted) {
  if (auto T = iccTarget(S, M, Wanted))
    return *T;
  std::string Have, InSeg;
  auto Icc = M.Levels.find(Level::ICC);
  if (Icc != M.Levels.end())
    for (auto &[V, CV] : Icc->second)
      Have += (Have.empty() ? "" : ", ") + V;
  for (auto &[T, Info] : S.Targets)
    InSeg += (InSeg.empty() ? "" : ", ") + T;
  if (!Wanted.empty())
    throw std::runtime_error("the SEG file has no ICC data for target '" + Wanted +
                             "' (it has: " + (InSeg.empty() ? "none" : InSeg) +
                             "; compile with -fplugin-arg-segtime-targets=" + Wanted + ")");
  throw std::runtime_error("no ICC target in common: the SEG file has " +
                           (InSeg.empty() ? std::string("none") : InSeg) + ", machine '" +
                           M.Name + "' has " + (Have.empty() ? std::string("none") : Have));
}

namespace {
/// Stage weight 1 for a node with a non-zero count under RUV key Key, else
/// 0: FormulaBuilder::dependsOn over it gives the names any of the level's
/// counts depends on.
StageWeight anyCountWeight(const std::string &Key) {
  return [Key](const Node &N) -> ex {
    auto It = N.Ruvs.find(Key);
    if (It == N.Ruvs.end())
      return 0;
    for (auto &[Op, C] : It->second.counts())
      if (C != 0)
        return 1;
    return 0;
  };
}
} // namespace

FilePredictor::FilePredictor(const SegFile &S, const Machine &M, const PredictOptions &O,
                             Prediction &P)
    : S(S), M(M), O(O), P(P), FB(S), Declared(FB.declaredParameters()) {
  TimedScope Setup("predict: set-up (models, loop models)");
  if (PredictTiming::get().On)
    PredictTiming::get().Counter["predictions (file passes)"] += 1;
  FB.setMaxTerms(O.MaxTerms);
  FB.setMaxCalleeNodes(O.MaxCalleeNodes);
  // A count form does not build the forms of callees that reach nothing of
  // its operation (0 whatever the values): a whole program's functions
  // count a hundred operations, each a form over everything they call.
  if (O.CountOps.empty())
    FB.setCallFilter([this](const std::string &Callee, const std::string &Key) {
      return countsNothing(Callee, Key);
    });
  Known = knownOutcomes(O, Declared);
  setUp();
}

void FilePredictor::setUp() {
  Models.clear();
  for (Level L : O.Levels) {
    if (levelUnit(L).perTarget())
      P.Target = chooseTarget(S, M, O.Target);
    Models.push_back(makeModel(L, M, S.OptLevel, P.Target, Known));
  }
  // Library calls: the functions the machine has a cost for.
  std::set<std::string> Costed;
  for (const LibraryFunction &F : libraryFunctions()) {
    const CostEntry *A = M.param(libraryKey(F, "per_call"));
    const CostEntry *B = M.param(libraryKey(F, "per_B"));
    if (!A || (F.Sized && !B))
      continue;
    Costed.insert(F.Name);
    LibraryCosts[libraryKey(F, "per_call")] = A->Value;
    if (B)
      LibraryCosts[libraryKey(F, "per_B")] = B->Value;
  }
  // At INTCC and ICC a call left in the optimised code to one of them is
  // costed by its entry (the IR SEG's Call node), not by the vector's
  // "call.<name>" (nor ICC's math-library cost).
  for (auto &Model : Models)
    if (auto *V = dynamic_cast<CostVectorModel *>(Model.get()); V && irLevel(V->level()))
      V->setCostedElsewhere([Costed](const std::string &Callee) {
        return libraryCallInIR(Callee) && Costed.count(libraryFunction(Callee)->Name);
      });
  LibraryCostedNames = Costed;
  FB.setLibraryCosts(std::move(Costed), M.Name);
  // ICC loops: overlap of iterations and the memory term.
  for (auto &Model : Models)
    installLoopModels(FB, S, M, P.Target, *Model, Mem, MemWhy, O.Values, Cores);
  for (auto &Model : Models)
    if (auto *I = dynamic_cast<const ICCModel *>(Model.get()))
      CycleS = cycleTime(*I);
}

void FilePredictor::newRun(bool KeepCut) {
  if (PredictTiming::get().On)
    PredictTiming::get().Counter["predictions (file passes)"] += 1;
  if (!KeepCut)
    FB.keepContextFree();
  else if (PredictTiming::get().On)
    PredictTiming::get().Counter["predictions keeping the cut forms"] += 1;
  FB.setClampTrips(false);
  Used.clear();
}

void FilePredictor::replaced(const std::string &Fn) {
  TimedScope Setup("predict: set-up (models, loop models)");
  // Declared as FB.declaredParameters() gives it (the last declaration of a
  // name wins), again for the names Fn declared or declares only.
  if (DeclaredBy.empty())
    for (size_t I = 0; I < S.Functions.size(); ++I)
      for (const Parameter &X : S.Functions[I].Parameters)
        if (NamesOf[I].insert(X.Name).second)
          DeclaredBy[X.Name].push_back(I);
  size_t Fi = 0;
  while (Fi < S.Functions.size() && S.Functions[Fi].Name != Fn)
    ++Fi;
  std::set<std::string> Affected = NamesOf[Fi];
  std::set<std::string> Now;
  if (Fi < S.Functions.size())
    for (const Parameter &X : S.Functions[Fi].Parameters)
      Now.insert(X.Name);
  Affected.insert(Now.begin(), Now.end());
  std::set<std::string> K = Known;
  for (const std::string &Name : Affected) {
    std::vector<size_t> &By = DeclaredBy[Name];
    auto At = std::lower_bound(By.begin(), By.end(), Fi);
    bool Has = At != By.end() && *At == Fi;
    if (Now.count(Name) && !Has)
      By.insert(At, Fi);
    else if (!Now.count(Name) && Has)
      By.erase(At);
    const Parameter *Last = nullptr;
    if (!By.empty())
      for (const Parameter &X : S.Functions[By.back()].Parameters)
        if (X.Name == Name)
          Last = &X;
    if (Last)
      Declared[Name] = *Last;
    else
      Declared.erase(Name);
    // (knownOutcomes for this name)
    bool Outcome = O.Values.count(Name) || O.ProfileValues.count(Name) ||
                   (Last && (!Last->DefaultExpr.empty() ||
                             (Name.rfind("Pir_", 0) == 0 && Last->Source.rfind("static: ", 0) == 0)));
    if (Outcome)
      K.insert(Name);
    else
      K.erase(Name);
  }
  NamesOf[Fi] = Now;
  OpsMemo.clear();
  Reach.clear();
  if (K != Known) {
    // (the stage weights change: no closed form is kept)
    Known = std::move(K);
    FB.forgetAll();
    Cores->clear();
    setUp();
  } else {
    // The loop models read the file's IR loops (HLLC's source loops).
    for (auto &Model : Models)
      installLoopModels(FB, S, M, P.Target, *Model, Mem, MemWhy, O.Values, Cores);
  }
  FB.forget(Fn);
}

bool FilePredictor::countsNothing(const std::string &Callee, const std::string &WeightKey) {
  auto C = CountKeys.find(WeightKey);
  if (C == CountKeys.end())
    return false;
  const auto &[Key, Op, Level] = C->second;
  auto [It, New] = Reach.try_emplace({Key, Level});
  std::map<std::string, std::set<std::string>> &R = It->second;
  if (New) {
    std::map<std::string, std::vector<std::string>> Calls;
    for (const FunctionSeg &F : S.Functions) {
      std::set<std::string> &Ops = R[F.Name];
      std::vector<std::string> &To = Calls[F.Name];
      forEachNode(F.bodyFor(Level), [&](const Node &N) {
        if (auto U = N.Ruvs.find(Key); U != N.Ruvs.end())
          for (auto &[X, Count] : U->second.counts())
            Ops.insert(X);
        if (N.Kind == NodeKind::Call)
          To.push_back(N.Callee);
      });
    }
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (auto &[Fn, To] : Calls)
        for (const std::string &G : To)
          if (auto Gi = R.find(G); Gi != R.end() && Gi->first != Fn)
            for (const std::string &X : Gi->second)
              Changed |= R[Fn].insert(X).second;
    }
  }
  auto F = R.find(Callee);
  return F != R.end() && !F->second.count(Op);
}

bool FilePredictor::needComm() {
  if (!Comm && CommError.empty()) {
    try {
      Comm = CollectiveModel::fromMachine(M);
      CommScope = std::make_unique<CommModelScope>(*Comm);
      P.CommModel = Comm->describe();
    } catch (const std::exception &E) {
      CommError = E.what();
    }
  }
  return Comm.has_value();
}

const std::set<std::string> &FilePredictor::opsOf(const std::string &Fn, const std::string &Key,
                                                  const std::string &LevelKey) {
  auto It = OpsMemo.find({Fn, Key});
  if (It != OpsMemo.end())
    return It->second;
  std::set<std::string> &Ops = OpsMemo[{Fn, Key}]; // (a recursive call finds it)
  std::vector<std::string> Callees;
  const FunctionSeg *F = S.find(Fn);
  if (F)
    forEachNode(F->bodyFor(LevelKey), [&](const Node &N) {
      auto R = N.Ruvs.find(Key);
      if (R != N.Ruvs.end())
        for (auto &[Op, C] : R->second.counts())
          Ops.insert(Op);
      if (N.Kind == NodeKind::Call)
        Callees.push_back(N.Callee);
    });
  for (const std::string &C : Callees)
    if (C != Fn && S.find(C)) {
      std::set<std::string> Sub = opsOf(C, Key, LevelKey); // (a copy: the map may grow)
      OpsMemo[{Fn, Key}].insert(Sub.begin(), Sub.end());
    }
  return OpsMemo[{Fn, Key}];
}

bool FilePredictor::selectLevels(FunctionPrediction &FP, const FunctionSeg &FS,
                                 FunctionWork &W) {
  std::string IRError;
  for (auto &[L, Why] : O.LeftOut)
    FP.Notes.push_back(levelKey(L) + " not predicted: " + Why);
  for (auto &Model : Models) {
    const Level L = Model->level();
    if (irLevel(L) && !FS.LevelSegs.count(IrSegKey)) {
      IRError = "no IR-level SEG for " + FS.Name +
                " (the file was written with -fplugin-arg-segtime-no-ir, or the function "
                "was not emitted)";
      if (O.Optional.count(L)) {
        FP.Notes.push_back(levelKey(L) + " not predicted: " + IRError);
        continue;
      }
    }
    W.Active.push_back(Model.get());
  }
  if (!IRError.empty() && W.Active.size() < Models.size() - FP.Notes.size()) {
    FP.Error = IRError;
    FP.Failed = true;
    return false;
  }
  return true;
}

bool FilePredictor::commAndLibrary(FunctionPrediction &FP, const FunctionSeg &FS,
                                   FunctionWork &W) {
  const std::string &Name = FS.Name;
  // Communication time from the source-level SEG's Comm nodes.
  W.CommE = FB.closedForm(Name, commWeight(), "comm", "");
  if (!W.CommE.is_zero()) {
    FP.CommFormula = toFormulaText(W.CommE);
    W.CommDeps = FB.dependsOn(Name, commWeight(), "comm", "");
    if (!needComm()) {
      FP.Error = Name + " communicates (MPI calls) but: " + CommError;
      FP.Failed = true;
      return false;
    }
  }
  // Library calls' time, the same way: POC and HLLC those of the source,
  // INTCC and ICC those left in the optimised code (the IR-level SEG).
  StageWeight LibW = libraryWeight(LibraryCosts);
  W.LibE = FB.closedForm(Name, LibW, "library", "");
  if (!W.LibE.is_zero()) {
    FP.LibraryFormula = toFormulaText(W.LibE);
    W.LibDeps = FB.dependsOn(Name, LibW, "library", "");
  }
  W.LibIrE = W.LibE;
  W.LibIrDeps = W.LibDeps;
  if (FS.LevelSegs.count(IrSegKey)) {
    const std::string Key = "library:" + IrSegKey, IrLevel = levelKey(Level::IntCC);
    W.LibIrE = FB.closedForm(Name, LibW, Key, IrLevel);
    W.LibIrDeps = W.LibIrE.is_zero() ? std::set<std::string>()
                                     : FB.dependsOn(Name, LibW, Key, IrLevel);
  }
  if (!W.LibIrE.is_zero())
    FP.LibraryIrFormula = toFormulaText(W.LibIrE);
  return true;
}

void FilePredictor::levelDependencies(const std::string &Name, FunctionWork &W) {
  // Per level, the names its time and counts depend on, from the SEG's
  // structure (FormulaBuilder::dependsOn): a name whose coefficient cancels
  // in value is still needed, so that needing it does not depend on
  // floating-point round-off. The closed forms are built once the values
  // are known to be there.
  for (ResourceModel *Model : W.Active) {
    const Level Lv = Model->level();
    const std::string L = levelKey(Lv), Key = ruvKey(Lv, P.Target);
    std::set<std::string> &Deps = W.FreeOf[Lv];
    Deps = FB.dependsOn(Name, Model->timeWeight(), timeKey(Lv), L);
    for (const std::string &X : FB.dependsOn(Name, anyCountWeight(Key), "any:" + Key, L))
      Deps.insert(X);
    Deps.insert(W.CommDeps.begin(), W.CommDeps.end());
    const std::set<std::string> &Lib = irLevel(Lv) ? W.LibIrDeps : W.LibDeps;
    Deps.insert(Lib.begin(), Lib.end());
    Used.insert(Deps.begin(), Deps.end());
  }
}

bool FilePredictor::ranks(FunctionPrediction &FP, FunctionWork &W) {
  const std::map<std::string, double> &Values = W.Values;
  if (Values.count("rank") && O.Values.count("p") &&
      (Values.at("rank") < 0 || Values.at("rank") >= O.Values.at("p"))) {
    FP.Error = "rank " + std::to_string(static_cast<long>(Values.at("rank"))) +
               " is not one of the ranks 0.." +
               std::to_string(static_cast<long>(O.Values.at("p")) - 1) + " of p processes";
    FP.Failed = true;
    return false;
  }
  if (W.RankScan) {
    // p bounds the ranks even where the formula itself does not use it.
    auto D = Declared.find("p");
    double Pv = O.Values.count("p") ? O.Values.at("p")
                : D != Declared.end() && D->second.Default ? *D->second.Default
                                                           : 0;
    Used.insert("p");
    if (Pv < 1 || Pv > 65536 || Pv != std::floor(Pv)) {
      FP.Error = "p = " + std::to_string(Pv) +
                 " is not a number of processes (a whole number, 1 to 65536)";
      FP.Failed = true;
      return false;
    }
    W.NumRanks = static_cast<int>(Pv);
  }
  return true;
}

void FilePredictor::notesAtValues(FunctionPrediction &FP, const FunctionSeg &FS,
                                  FunctionWork &W) {
  // The memory term's notes, once, if a level kept uses it. Without memory
  // numbers only a level whose model includes the term says so (ICC; HLLC
  // and INTCC, as on the T800, are then their cost vectors alone).
  bool InModel = false, Added = false;
  for (const ResourceModel *Model : W.Kept) {
    const LevelUnit &U = levelUnit(Model->level());
    if (U.memoryTerm() != MemoryTerm::None)
      (U.memoryTermInModel() ? InModel : Added) = true;
  }
  if (InModel || (Added && Mem))
    memoryNotes(FS, Mem, MemWhy, W.Values, FP.Notes);
  // HLLC at -O0: loops with loop-carried chains on a machine without their
  // latencies are costed by their constructs alone (docs/models.md).
  for (const ResourceModel *Model : W.Kept)
    if (auto *H = dynamic_cast<const HLLCModel *>(Model); H && !H->hasChainCosts()) {
      bool Any = false;
      forEachNode(FS.Body, [&](const Node &N) {
        for (auto &[K, R] : N.Ruvs)
          Any |= HLLCModel::isChainKey(K);
      });
      if (Any)
        FP.Notes.push_back("HLLC: no loop-carried chain term: machine '" + M.Name +
                           "' has no chain latencies for -" + H->variant() +
                           " (segtime calibrate --level hllc --opt " + H->variant() + ")");
    }
  // A value given with -p binds its name wherever it occurs, whether or not
  // the structure says the level needs it.
  W.Bound = W.Values;
  for (auto &[K, V] : O.Values)
    W.Bound.emplace(K, V);
  std::vector<std::string> Neg;
  negativeTrips(S, FS.Body, W.Bound, Neg);
  for (auto &[K, L] : FS.LevelSegs)
    negativeTrips(S, L, W.Bound, Neg);
  if (!Neg.empty())
    FB.setClampTrips(true);
  for (const std::string &N : Neg) // an IR loop may repeat its source loop
    if (std::find(FP.Notes.begin(), FP.Notes.end(), N) == FP.Notes.end())
      FP.Notes.push_back(N);
}

/// evaluate(), with what failed named: What (level and quantity), formula,
/// values (GiNaC's own message, "floating point NaN occurred", says none).
/// The names of Names, ", "-separated (a note's list).
static std::string commaList(const std::set<std::string> &Names) {
  std::string Out;
  for (const std::string &X : Names)
    Out += (Out.empty() ? "" : ", ") + X;
  return Out;
}

static double evaluateNamed(const ex &E, const std::map<std::string, double> &At,
                            const std::string &What) {
  try {
    return evaluate(E, At);
  } catch (const std::exception &X) {
    std::string F = toString(E);
    if (F.size() > 200)
      F = F.substr(0, 200) + "...";
    std::string Vals = valuesOf(E, At);
    throw std::runtime_error(What + " " + F + (Vals.empty() ? "" : " at " + Vals) + ": " +
                             X.what());
  }
}

/// LP.TimeS, the time T of level L at V: at the rank V gives (LP.Rank if
/// the level depends on it, RankDep), or with W.RankScan the slowest of
/// the W.NumRanks ranks, whose number V["rank"] and LP.Rank then hold.
static void timeAtRanks(LevelPrediction &LP, const ex &T, std::map<std::string, double> &V,
                        const FunctionWork &W, bool RankDep, const std::string &L) {
  if (W.RankScan) {
    LP.TimeS = -1;
    for (int R = 0; R < W.NumRanks; ++R) {
      V["rank"] = R;
      double Tr = evaluateNamed(T, V, L + " time");
      if (Tr > LP.TimeS) {
        LP.TimeS = Tr;
        LP.Rank = R;
      }
    }
    V["rank"] = LP.Rank;
  } else {
    LP.TimeS = evaluateNamed(T, V, L + " time");
    if (V.count("rank") && RankDep)
      LP.Rank = static_cast<int>(V.at("rank"));
  }
}

void FilePredictor::evaluateLevel(FunctionPrediction &FP, const FunctionSeg &FS,
                                  const ResourceModel &Model, const FunctionWork &W) {
  const std::string &Name = FS.Name;
  const Level Lv = Model.level();
  const LevelUnit &Unit = levelUnit(Lv);
  const std::string L = levelKey(Lv), Key = ruvKey(Lv, P.Target);
  const std::set<std::string> &Deps = W.FreeOf.at(Lv);
  const std::vector<std::string> Always = Unit.alwaysCounted();
  // The round-off a name of coefficient 0 leaves (levelDependencies) is
  // dropped, and a term that cancellation leaves with a coefficient of
  // round-off size (present or not depending on GiNaC's order of addition).
  auto Clean = [&](const ex &E) {
    std::set<std::string> Stray;
    for (const std::string &X : freeSymbols(E))
      if (!Deps.count(X))
        Stray.insert(X);
    return dropRoundoff(Stray.empty() ? E : dropTermsWith(E, Stray));
  };
  const ex &LibL = irLevel(Lv) ? W.LibIrE : W.LibE;
  std::optional<TimedScope> Part(std::in_place, "predict: " + L + " time form");
  ex Closed = FB.closedForm(Name, Model.timeWeight(), timeKey(Lv), L);
  // Repeated calls on the same data: the branch predictor learns a short
  // sequence of data-dependent outcomes (docs/models.md "branch
  // mispredictions"); only unlearnedShare of the misprediction term stays.
  if (auto H = Model.replayHalf())
    if (StageWeight Learnable = Model.learnableWeight()) {
      ex Mis = FB.closedForm(Name, Learnable, "mispredict:" + L, L);
      if (!Mis.is_zero()) {
        ex M = FB.closedForm(Name, Model.learnableOutcomes(), "outcomes:" + L, L);
        Closed -= (1 - unlearnedShare(M, *H)) * Mis;
      }
    }
  Closed = Clean(Closed + W.CommE + LibL);
  if (std::set<std::string> Kept = keptCalls(Closed); !Kept.empty()) {
    FP.Notes.push_back(L + " formula: calls kept as T_f(...), evaluated at the values (their "
                       "closed forms have more than " +
                       std::to_string(O.MaxCalleeNodes) +
                       " nodes, --max-callee-nodes): " + commaList(Kept));
  }
  if (FB.factored(Name, timeKey(Lv)))
    FP.Notes.push_back(L + " closed form left factored: its expansion has more than " +
                       std::to_string(O.MaxTerms) + " terms (--max-terms)");
  LevelPrediction LP;
  LP.Formula = toFormulaText(Closed);
  std::map<std::string, double> V = W.Bound;
  std::vector<std::pair<std::string, ex>> CountForms;
  Part.emplace("predict: " + L + " count forms");
  for (const std::string &Op : opsOf(Name, Key, L))
    if (O.CountOps.empty() || O.CountOps.count(Op)) {
      const std::string WeightKey = "count:" + Key + ":" + Op;
      CountKeys.try_emplace(WeightKey, std::array<std::string, 3>{Key, Op, L});
      CountForms.emplace_back(Op, Clean(FB.closedForm(Name, countWeight(Key, Op), WeightKey, L)));
    }
  // A name a form has that the level's dependencies do not list (a callee
  // reached through a recursive call, whose form was built from another
  // function first: its IR branch probabilities, its loop counts) and
  // that no term could be dropped for takes its value as any other name
  // does (-p, profile, the SEG's default); one without is a missing value.
  std::set<std::string> Late, Lacking;
  auto BindNames = [&](const std::set<std::string> &Names) {
    for (const std::string &X : Names) {
      if (V.count(X) || (X == "rank" && W.RankScan) || Late.count(X) || Lacking.count(X))
        continue;
      if (auto G = given(X, W.AssumeArgc)) {
        V[X] = G->Value;
        FP.Params.push_back({X, G->Value, G->Source});
        Late.insert(X);
      } else {
        Lacking.insert(X);
      }
    }
  };
  auto Forms = [&] {
    std::vector<ex> Fs = {Closed, W.CommE, LibL};
    for (auto &[Op, C] : CountForms)
      Fs.push_back(C);
    return Fs;
  };
  Part.emplace("predict: " + L + " evaluation");
  for (const ex &F : Forms())
    BindNames(freeSymbols(F));
  auto Evaluate = [&] {
    timeAtRanks(LP, Closed, V, W, Deps.count("rank") > 0, L);
    LP.CommS = W.CommE.is_zero() ? 0 : evaluateNamed(W.CommE, V, L + " communication time");
    LP.LibraryS = LibL.is_zero() ? 0 : evaluateNamed(LibL, V, L + " library-call time");
    for (auto &[Op, C] : CountForms) {
      double N = evaluateNamed(C, V, L + " count of " + Op);
      if (N != 0 || std::find(Always.begin(), Always.end(), Op) != Always.end())
        LP.Counts[Op] = N;
    }
  };
  if (Lacking.empty()) {
    try {
      Evaluate();
    } catch (const std::runtime_error &) {
      // A kept call's form with such a name (its terms are dropped when
      // it has no value, but not a product's factor): again with them.
      size_t Before = Late.size();
      for (const ex &F : Forms())
        BindNames(keptFormNames(F));
      if (Late.size() == Before && Lacking.empty())
        throw;
      if (Lacking.empty()) {
        LP.Counts.clear();
        Evaluate();
      }
    }
  }
  Part.reset();
  if (!Lacking.empty())
    throw MissingNames(Lv, Lacking);
  if (!Late.empty()) {
    FP.Notes.push_back(L + ": names of callees reached through a recursive call, with their "
                       "values: " + commaList(Late));
  }
  if (W.RankScan && Lv == W.Kept.front()->level())
    FP.Params.push_back({"rank", double(LP.Rank), "the slowest of the p ranks"});
  for (const std::string &Op : Always)
    LP.Counts.emplace(Op, 0);
  if (Unit.hasBreakdown() && O.Breakdown)
    FP.Breakdown = breakdownOf(FS, Mem ? &*Mem : nullptr, MemWhy, P.Target, CycleS, *Cores, V);
  FP.Levels[Lv] = LP;
}

void FilePredictor::predictFunction(FunctionPrediction &FP, const FunctionSeg &FS) {
  TimedScope All("", FS.Name);
  FP.Structural = FB.structural(FS.Name);
  FunctionWork W;
  {
    TimedScope T("predict: communication and library terms");
    if (!selectLevels(FP, FS, W) || !commAndLibrary(FP, FS, W))
      return;
  }
  {
    TimedScope T("predict: dependencies (dependsOn)");
    levelDependencies(FS.Name, W);
  }
  {
    TimedScope T("predict: parameters and notes");
    if (!bindParameters(FP, FS, W) || !ranks(FP, W))
      return;
    notesAtValues(FP, FS, W);
  }
  std::vector<std::string> Lacking;
  for (ResourceModel *Model : W.Kept) {
    TimedScope T("predict: level " + levelKey(Model->level()));
    try {
      evaluateLevel(FP, FS, *Model, W);
    } catch (const MissingNames &M) {
      // A value only this level needs: a default level is left out with a
      // note, as keepLevels leaves it out; a level asked for makes the
      // function incomplete (its entry and the report's list say what).
      if (O.Optional.count(M.L)) {
        FP.Notes.push_back(levelKey(M.L) + " not predicted: no value for " + commaList(M.Names));
        for (const std::string &X : M.Names) {
          MissingValue V = describe(FS, X);
          V.Levels = {M.L};
          addMissing(FP.Missing, std::move(V));
        }
        continue;
      }
      for (const std::string &X : M.Names)
        if (std::find(Lacking.begin(), Lacking.end(), X) == Lacking.end())
          Lacking.push_back(X);
    }
  }
  if (!Lacking.empty()) {
    W.Missing = Lacking;
    FP.Levels.clear();
    missingError(FP, FS, W);
  }
}

/// A negative or non-finite time or count of FP, described; "" if none.
static std::string badResult(const FunctionPrediction &FP) {
  for (auto &[L, LP] : FP.Levels) {
    if (!std::isfinite(LP.TimeS) || LP.TimeS < 0) {
      std::ostringstream OS;
      OS << levelKey(L) << " time " << LP.TimeS << " s (formula " << LP.Formula.Formula << ")";
      return OS.str();
    }
    for (auto &[Op, C] : LP.Counts)
      if (!std::isfinite(C) || C < 0) {
        std::ostringstream OS;
        OS << levelKey(L) << " count of " << Op << " " << C;
        return OS.str();
      }
  }
  return "";
}

Predictor::Predictor(const SegFile &S, const Machine &M, const PredictOptions &O)
    : S(S), M(M), O(O) {
  Work.MachineName = M.Name;
  Work.MachinePath = M.Path;
  Work.OptLevel = S.OptLevel;
}

Predictor::~Predictor() = default;

size_t Predictor::formsBuilt() const { return FP ? FP->formsBuilt() : 0; }

void Predictor::replaced(const std::string &Fn) {
  if (FP)
    FP->replaced(Fn);
}

Prediction Predictor::predict(const std::vector<std::string> &Functions) {
  checkValues(S, O); // (a function swapped in may declare other parameters)
  std::vector<std::string> Names = Functions;
  if (Names.empty())
    for (const FunctionSeg &F : S.Functions)
      if (F.InMainFile)
        Names.push_back(F.Name);
  for (const std::string &N : Names)
    if (!S.find(N)) {
      std::string Known;
      for (const FunctionSeg &F : S.Functions)
        Known += (Known.empty() ? "" : ", ") + F.Name;
      throw std::runtime_error("no function '" + N + "' in the SEG file (functions: " + Known + ")");
    }
  if (FP)
    FP->newRun(KeepCut);
  else
    FP = std::make_unique<FilePredictor>(S, M, O, Work);
  KeepCut = false;
  FilePredictor &FPr = *FP;
  Work.Functions.clear();
  Work.UnusedValues.clear();
  for (const std::string &Name : Names) {
    FunctionPrediction FP;
    FP.Name = Name;
    const FunctionSeg &FS = *S.find(Name);
    FP.Where = FS.Range.File + ":" + std::to_string(FS.Range.Line);
    std::clock_t Start = std::clock();
    try {
      FPr.predictFunction(FP, FS);
      // A trip count negative at these values (in a callee, or one the
      // notes could not evaluate): again with every trip count max(0, .).
      if (!badResult(FP).empty() && !FPr.clampTrips()) {
        FPr.setClampTrips(true);
        FP = FunctionPrediction();
        FP.Name = Name;
        FP.Where = FS.Range.File + ":" + std::to_string(FS.Range.Line);
        FPr.predictFunction(FP, FS);
        FP.Notes.push_back("a trip count is negative at the values given: every trip count "
                           "taken as max(0, trip count)");
      }
      if (std::string Bad = badResult(FP); !Bad.empty())
        throw std::runtime_error("the formulas give a meaningless result, " + Bad +
                                 ": a value given is outside their domain");
    } catch (const std::exception &E) {
      // Whatever else fails fails this function only, and says which.
      FP.Levels.clear();
      FP.Failed = true;
      FP.Error = Name + " (" + FP.Where + "): " + E.what();
    }
    // (--timing: a function that took a second or more, as it ends)
    if (double Cpu = double(std::clock() - Start) / CLOCKS_PER_SEC; PredictTiming::get().On && Cpu >= 1)
      std::cerr << "segtime: timing: " << Name << " " << Cpu << " s\n";
    Work.Functions.push_back(std::move(FP));
  }
  for (auto &[K, V] : O.Values)
    if (!FPr.Used.count(K))
      Work.UnusedValues.push_back(K);
  Prediction P = Work;
  Work.Functions.clear();
  return P;
}

Prediction predict(const SegFile &S, const Machine &M, const PredictOptions &O) {
  return Predictor(S, M, O).predict(O.Functions);
}

} // namespace segtime
