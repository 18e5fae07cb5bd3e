//===- PredictDetail.h - predict()'s parts, shared by its files -*- C++ -*-===//
///
/// \file
/// Internal to predictor/Predict*.cpp and predictor/LoopModels.cpp: the
/// levels as `enum class Level` (core/Vocabulary.h) where the resource
/// models and machine files give them as strings, the loop models' parts
/// that predict() reports (LoopModels.cpp), and FilePredictor, predict()'s
/// work over one file: parameter binding (PredictParams.cpp), level
/// evaluation and ranks (Predict.cpp). The report prints itself
/// (PredictView.cpp).
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PREDICTOR_PREDICTDETAIL_H
#define SEGTIME_PREDICTOR_PREDICTDETAIL_H

#include "core/Vocabulary.h"
#include "predictor/Collectives.h"
#include "predictor/Formula.h"
#include "predictor/MemoryModel.h"
#include "predictor/Predict.h"
#include "predictor/ResourceModel.h"

#include <array>
#include <memory>
#include <optional>
#include <set>

namespace segtime {
namespace predict_detail {


/// FormulaBuilder's weight key of a level's time, "time:<level>".
inline std::string timeKey(Level L) { return "time:" + levelKey(L); }

/// s per core cycle (the ICC entry "cycles"); 0 if the cost vector has none
/// (an in-order target costed per instruction class: no ECM then).
double cycleTime(const ICCModel &Icc);

/// The ECM breakdown of the IR loop nests of F at Values (ICC, target
/// Target, s per cycle TCyc); Cores: their core times (installLoopModels).
/// Mem null: no memory term, Why says why.
std::vector<NestBreakdown> breakdownOf(const FunctionSeg &F, const MemoryModel *Mem,
                                       const std::string &Why, const std::string &Target,
                                       double TCyc,
                                       const std::map<const Node *, GiNaC::ex> &Cores,
                                       const std::map<std::string, double> &Values);

/// Notes on the memory term (ICC, INTCC, HLLC) of each loop nest of F: footprint, the
/// level it lives in, traffic and transfer time, and the references it
/// bounds or leaves out (Node::MemoryNotes).
void memoryNotes(const FunctionSeg &F, const std::optional<MemoryModel> &Mem,
                 const std::string &Why, const std::map<std::string, double> &Values,
                 std::vector<std::string> &Notes);

/// The values of the names of E that Values gives, "n=1, m=2" (for messages).
std::string valuesOf(const GiNaC::ex &E, const std::map<std::string, double> &Values);

/// Notes for the loops of L whose trip count, evaluated at Values, is
/// negative (the loop runs 0 times: FormulaBuilder::setClampTrips), and for
/// those of the functions L calls (Values bound through the calls'
/// arguments; In names the callee, Depth bounds the walk). Trip counts with
/// names Values lacks (an enclosing loop's index) are skipped.
void negativeTrips(const SegFile &S, const NodeList &L,
                   const std::map<std::string, double> &Values, std::vector<std::string> &Notes,
                   const std::string &In = "", int Depth = 0);

/// Adds V to Ms, or V's levels to the entry of the same name.
void addMissing(std::vector<MissingValue> &Ms, MissingValue V);

/// Names a level's forms need that have no value (evaluateLevel): thrown
/// to predictFunction, which leaves the level out or the function incomplete.
struct MissingNames : std::runtime_error {
  MissingNames(Level L, std::set<std::string> Names)
      : std::runtime_error("missing values"), L(L), Names(std::move(Names)) {}
  Level L;
  std::set<std::string> Names;
};

/// What predictFunction works out for one function, step by step.
struct FunctionWork {
  /// The levels asked for that the function can be predicted at (an
  /// optional IR level without an IR-level SEG left out).
  std::vector<ResourceModel *> Active;
  /// Of those, the levels whose values are all known (an optional level
  /// needing a value nobody gave left out).
  std::vector<ResourceModel *> Kept;
  /// Per active level, the names its time and counts depend on.
  std::map<Level, std::set<std::string>> FreeOf;
  std::set<std::string> Free; ///< the names the kept levels depend on
  /// Communication (Comm nodes) and library calls' time (of the source,
  /// and of the optimised code), closed forms in s, with their names.
  GiNaC::ex CommE, LibE, LibIrE;
  std::set<std::string> CommDeps, LibDeps, LibIrDeps;
  /// main(argc, ...) with no value for argc: the program run without arguments.
  bool AssumeArgc = false;
  std::map<std::string, double> Values; ///< the values resolved, of Free
  /// Names still without a value, and for those that only an expression
  /// default needs, the parameter whose default it is.
  std::vector<std::string> Missing;
  std::map<std::string, std::string> ForDefault;
  std::map<std::string, double> Bound; ///< Values and every -p value
  bool RankScan = false; ///< every rank 0..NumRanks-1 evaluated, the slowest kept
  int NumRanks = 0;
};

/// predict()'s work over one file: the resource, memory and comm models and
/// one formula builder (its memo of closed forms serves every function).
class FilePredictor {
public:
  FilePredictor(const SegFile &S, const Machine &M, const PredictOptions &O, Prediction &P);

  /// Another prediction over the same builder (Predictor::predict): the
  /// closed forms that depend on where they were built are dropped, trip
  /// counts are not clamped, no -p name is used yet.
  void newRun(bool KeepCut = false);
  /// Fn's SEG in the file was replaced (Predictor::replaced): the file's
  /// parameters, the models if the outcomes they know changed, the loop
  /// models and Fn's closed forms and its callers' are made again.
  void replaced(const std::string &Fn);
  size_t formsBuilt() const { return FB.formsBuilt(); }

  bool clampTrips() const { return FB.clampTrips(); }
  void setClampTrips(bool On) { FB.setClampTrips(On); }
  /// Predicts function FS into FP; throws on what is not a missing value.
  void predictFunction(FunctionPrediction &FP, const FunctionSeg &FS);
  /// Names given with -p that no predicted function uses.
  std::set<std::string> Used;

private:
  /// The models of O's levels, the library costs and the loop models
  /// (construction; replaced() when the known outcomes change).
  void setUp();
  std::set<std::string> Known; ///< knownOutcomes(O, Declared) the models were made with
  /// replaced(): parameter name -> the indexes in S.Functions of the
  /// functions declaring it, ascending; function index -> its names.
  std::map<std::string, std::vector<size_t>> DeclaredBy;
  std::map<size_t, std::set<std::string>> NamesOf;

  // Level selection and the terms every level shares (Predict.cpp).
  bool selectLevels(FunctionPrediction &FP, const FunctionSeg &FS, FunctionWork &W);
  bool commAndLibrary(FunctionPrediction &FP, const FunctionSeg &FS, FunctionWork &W);
  void levelDependencies(const std::string &Name, FunctionWork &W);

  // Parameter binding (PredictParams.cpp).
  /// Keeps the levels whose values are known, resolves the values (user,
  /// profile, SEG defaults, expression defaults), and fills in what is not
  /// costed and the callees' bound parameters; false, with FP.Error set,
  /// if a value is missing.
  bool bindParameters(FunctionPrediction &FP, const FunctionSeg &FS, FunctionWork &W);
  void keepLevels(FunctionPrediction &FP, const FunctionSeg &FS, FunctionWork &W);
  void resolveValues(FunctionPrediction &FP, FunctionWork &W);
  void missingError(FunctionPrediction &FP, const FunctionSeg &FS, const FunctionWork &W);
  /// A value of X from -p, --profile, the SEG file's numeric default or the
  /// assumed argc, with its source.
  struct Given {
    double Value;
    std::string Source;
  };
  std::optional<Given> given(const std::string &X, bool AssumeArgc) const;
  /// X has a value from any source (-p, --profile, a default, argc).
  bool hasValue(const std::string &X, bool AssumeArgc) const;
  /// X has a value that decides whether a level is kept: -p, a default,
  /// argc, or the rank when p is known (every rank is evaluated).
  bool knownForLevel(const std::string &X, bool AssumeArgc) const;
  /// What F lacks when X has no value: its declaration, or where F uses it.
  MissingValue describe(const FunctionSeg &F, const std::string &X) const;

  // Level evaluation and ranks (Predict.cpp).
  /// Checks the rank and p and counts the ranks to evaluate; false, with
  /// FP.Error set, if they are out of range.
  bool ranks(FunctionPrediction &FP, FunctionWork &W);
  /// Memory-term notes and the trip counts negative at the values.
  void notesAtValues(FunctionPrediction &FP, const FunctionSeg &FS, FunctionWork &W);
  /// The time (at the given rank or the slowest) and counts of one level.
  void evaluateLevel(FunctionPrediction &FP, const FunctionSeg &FS, const ResourceModel &Model,
                     const FunctionWork &W);

  /// The comm model is read when a function communicates; a machine file
  /// without one fails only those functions.
  bool needComm();
  /// The operations counted under Key by Fn's level body or its callees'
  /// (the others' counts are 0): the file's ones, once per key.
  const std::set<std::string> &opsOf(const std::string &Fn, const std::string &Key,
                                     const std::string &LevelKey);

  const SegFile &S;
  const Machine &M;
  const PredictOptions &O;
  Prediction &P;
  FormulaBuilder FB;
  std::map<std::string, Parameter> Declared;
  std::vector<std::unique_ptr<ResourceModel>> Models;
  std::string MemWhy;
  std::optional<MemoryModel> Mem;
  /// ICC core time per loop nest (the breakdown's T_OL).
  std::shared_ptr<std::map<const Node *, GiNaC::ex>> Cores =
      std::make_shared<std::map<const Node *, GiNaC::ex>>();
  double CycleS = 0; ///< the ICC entry "cycles"
  std::optional<CollectiveModel> Comm;
  std::string CommError;
  std::unique_ptr<CommModelScope> CommScope;
  std::map<std::pair<std::string, std::string>, std::set<std::string>> OpsMemo;
  /// The weight key of each count form ("count:KEY:OP") -> (KEY, OP, level).
  std::map<std::string, std::array<std::string, 3>> CountKeys;
  /// (KEY, level) -> function -> the operations its level body and every
  /// function it reaches through calls have under KEY (a fixpoint over the
  /// call graph, recursion included); cleared when a function is replaced.
  std::map<std::pair<std::string, std::string>, std::map<std::string, std::set<std::string>>>
      Reach;
  /// Does a call to Callee add nothing to the count form WeightKey (its
  /// operation is in nothing Callee reaches)? FormulaBuilder's call filter.
  bool countsNothing(const std::string &Callee, const std::string &WeightKey);
  std::map<std::string, double> LibraryCosts; ///< library.F.per_call / per_B, s and s/B
  std::set<std::string> LibraryCostedNames;   ///< the library functions costed
};

} // namespace predict_detail
} // namespace segtime

#endif
