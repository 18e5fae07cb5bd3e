//===- Predict.h - Predicted times per function and level -------*- C++ -*-===//
///
/// \file
/// The prediction report of `segtime predict`: per function and level, the
/// closed-form timing formula on one machine, its value for the given
/// parameters (s), and the dynamic operation counts (flop for POC, per
/// construct for HLLC). Computes; printing is text or JSON from the same
/// object (the JSON layout is a contract, see docs/cli.md).
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PREDICTOR_PREDICT_H
#define SEGTIME_PREDICTOR_PREDICT_H

#include "core/Seg.h"
#include "predictor/ExprText.h"
#include "predictor/Machine.h"

#include <memory>
#include <optional>
#include <ostream>
#include <set>

namespace GiNaC {
class ex;
}

namespace segtime {

struct ParamValue {
  std::string Name;
  double Value;
  std::string Source; ///< "user", "profile", or the SEG default's source
};

struct LevelPrediction {
  double TimeS = 0;  ///< compute + communication, s
  double CommS = 0;  ///< of which communication (Comm nodes, docs/mpi.md), s
  double LibraryS = 0; ///< of which library calls (the machine's `library` section), s
                       ///< (INTCC, ICC: those of the optimised code)
  /// MPI rank the time is for: the given --rank, else the slowest of the p
  /// ranks; -1 if the formula does not depend on the rank.
  int Rank = -1;
  FormulaText Formula;                  ///< closed form in seconds (comm terms included)
  std::map<std::string, double> Counts; ///< dynamic totals
};

/// A value that a level of a function needs and that nobody gave (-p,
/// --profile, a default in the SEG file).
struct MissingValue {
  std::string Name;    ///< parameter (N_f_27, P_f_9) or source name (n, callee.param)
  std::string Where;   ///< file:line it comes from (declaration or first use)
  std::string Meaning; ///< e.g. "iterations of the while loop", "parameter of f, ..."
  std::vector<Level> Levels; ///< the levels that need it
};

/// One IR loop nest's time by the ECM model at the ICC level (`segtime
/// predict --breakdown`, docs/models.md "ECM"), per execution of the nest.
struct NestBreakdown {
  std::string Id;      ///< IR loop id ("ir3")
  unsigned Line = 0;   ///< source line of the nest
  double Executions = 1; ///< executions per call of the function
  double TimeS = 0;    ///< predicted time, s per execution
  double Iterations = 0; ///< iterations of its innermost loops per execution
  double CoreCycles = 0; ///< T_OL (the scheduling model's core time), cycles per execution
  double CycleS = 0;   ///< s per cycle (the ICC entry "cycles")
  /// Cache lines per execution: "L1" into L1, "L2" into L2, "L3" and
  /// "memory" the lines into L2 that come from there.
  std::map<std::string, double> Lines;
  /// Lines brought in per execution by layer conditions alone (linesInto,
  /// no write-back weighting): "L1", "L2", one per cache level but the
  /// last; what a cache simulator counts as misses (scripts/cache_lines.py).
  std::map<std::string, double> LinesIn;
  struct Term {
    std::string Name;  ///< "T_OL", "T_nOL", "T_L1L2", "T_L2L3", "T_L3Mem"
    std::string Bound; ///< "core", "L1", "L2", "L3", "memory"
    double TimeS = 0;
    bool Overlaps = true;
  };
  std::vector<Term> Terms;
  std::string Bound; ///< the largest term's level (of the non-overlapping sum's largest member when that sum wins)
  double Share = 0;  ///< its share of TimeS (0..1)
  /// The measured core/data overlap exponent used (0: the ECM max).
  double OverlapExponent = 0;
  /// "" if the ECM model applies, else why not and what is used instead.
  std::string NotAnalysable;
};

/// A callee's parameter that a call binds to the caller's argument
/// expression (FormulaBuilder substitutes it): listed by predict so that
/// every value a prediction used is shown with where it comes from.
struct BoundValue {
  std::string Name;  ///< "callee.param"
  std::string Expr;  ///< the argument, in the predicted function's names
  std::optional<double> Value; ///< Expr at the values used, if they give it
  std::string Where; ///< the call site, "file:line"
};

/// What a function's prediction leaves out: the SEG nodes (source level,
/// the function and every function it calls, each function once) that are
/// costed and those that are not (Unknown nodes, calls to functions with no
/// SEG), with the callees that have no SEG.
struct CostedSummary {
  unsigned Nodes = 0;     ///< nodes looked at
  unsigned NotCosted = 0; ///< of which not costed
  std::set<std::string> NoSeg; ///< callees with no SEG (library, other files)
  std::set<std::string> Functions; ///< the function and those it calls
};

struct FunctionPrediction {
  std::string Name;
  std::string Where; ///< the function's file:line
  std::string Structural; ///< Warwick-94 eq. 1 form
  std::vector<ParamValue> Params;
  /// Callees' parameters bound at call sites (at most MaxBound of them).
  std::vector<BoundValue> Bound;
  CostedSummary Costed;
  LevelMap<LevelPrediction> Levels; ///< POC, HLLC, INTCC, ICC
  std::vector<std::string> Unresolved; ///< Unknown nodes inside (not costed)
  /// Non-empty: could not predict: a value is missing (Missing lists what),
  /// or something else failed (Failed; the message names the function).
  std::string Error;
  /// Values needed and missing: for the function (Error set), or for an
  /// optional level left out (a note says so).
  std::vector<MissingValue> Missing;
  bool Failed = false; ///< Error is not (only) missing values
  std::vector<std::string> Notes; ///< optional levels left out, and why
  /// ICC loop nests, with PredictOptions::Breakdown.
  std::vector<NestBreakdown> Breakdown;
  /// Communication time of the Comm nodes, in t_<pattern>(bytes, p) terms
  /// (predictor/Collectives.h); "" if the function does not communicate.
  /// The same at every level: it is built from the source-level SEG.
  FormulaText CommFormula;
  /// Time of the calls to C library functions (core/Library.h), from the
  /// machine's `library` section; "" if there are none or none is costed.
  /// POC and HLLC: built from the source-level SEG (memcpy, memset and the
  /// libm functions are constructs there, costed by the levels' vectors).
  FormulaText LibraryFormula;
  /// The same for INTCC and ICC, built from the IR-level SEG: the library
  /// calls left in the optimised code, memcpy/memmove/memset and libm
  /// calls included, those the compiler removed or expanded excluded.
  FormulaText LibraryIrFormula;
};

struct PredictOptions {
  std::vector<Level> Levels = {Level::POC, Level::HLLC};
  std::vector<std::string> Functions; ///< empty: every function of the main file
  std::map<std::string, double> Values; ///< -p name=value
  /// Measured values (segtime predict --profile, core/Ct.h
  /// profileParameters); -p values win over them, they win over the SEG
  /// file's static defaults. Source reported as "profile".
  std::map<std::string, double> ProfileValues;
  /// ICC target (e.g. "znver5"); empty: a target of the SEG file the
  /// machine file has its own ICC cost vector for, else the machine's CPU
  /// (identity llvm_cpu), else the first target an `any` vector serves.
  std::string Target;
  /// Levels added by default rather than asked for: a function for which
  /// one cannot be predicted (no IR-level SEG, parameters only that level
  /// has) leaves it out with a note instead of failing.
  std::set<Level> Optional;
  /// Default levels the machine file has no cost vector for (a reference
  /// file of ICC and memory only): level -> why; each function notes it.
  LevelMap<std::string> LeftOut;
  /// Closed forms are expanded only when they stay within this many terms
  /// (FormulaBuilder::setMaxTerms; 0: always).
  size_t MaxTerms = 4000;
  /// The operations whose counts each level gives (LevelPrediction::Counts);
  /// empty: every operation the function's code counts. Each count is a
  /// closed form of its own: the per-site figures of an inlined function
  /// need only "instructions".
  std::set<std::string> CountOps;
  /// A callee's closed form of more than this many DAG nodes is kept as a
  /// call T_f(args) in its callers' forms rather than substituted
  /// (FormulaBuilder::setMaxCalleeNodes; 0: always substituted).
  size_t MaxCalleeNodes = 5000;
  /// Per ICC loop nest: the ECM terms, lines and bound (FunctionPrediction::Breakdown).
  bool Breakdown = false;
};

struct Prediction {
  std::string MachineName, MachinePath, OptLevel, SegPath;
  std::string Target; ///< ICC target used ("" if ICC was not predicted)
  /// Communication model used (CollectiveModel::describe), "" if no
  /// predicted function communicates.
  std::string CommModel;
  std::vector<FunctionPrediction> Functions;
  /// -p names that no predicted function uses (likely typos).
  std::vector<std::string> UnusedValues;
  json toJSON() const;
  void printText(std::ostream &OS) const;
  /// `segtime predict`'s exit status (docs/cli.md): 0 every function
  /// predicted; 1 some incomplete (a value missing; Missing says which), the
  /// others predicted; 2 some function failed for another reason.
  int exitStatus() const;
};

class FormulaBuilder;
class ResourceModel;
class MemoryModel;
/// The parameters whose values O gives (-p) or measures (--profile), and
/// those whose default is an outcome frequency derived from a model (the
/// min-update idiom's H_N/N, Parameter::DefaultExpr; an IR-level name
/// "Pir_..." whose source is "static: ...": a merge or search step's
/// estimated 1/2, docs/models.md ICC step 4): the branch probabilities
/// ICCModel's misprediction term may use. Declared: the SEG
/// file's parameters (FormulaBuilder::declaredParameters).
std::set<std::string> knownOutcomes(const PredictOptions &O,
                                    const std::map<std::string, Parameter> &Declared);

/// Installs the loop models of Model's level in FB (for the closed forms of
/// weight key "time:<level>"): ICC the out-of-order overlap of iterations
/// (ICCModel::overlap, with the target's micro-op buffer from the SEG file)
/// and the memory term (t_core^p + t_mem^p)^(1/p) per IR loop nest
/// (MemoryModel, read from M into Mem; MemWhy says why not when M has no
/// memory numbers); INTCC the same memory term on its cᵀf; HLLC the memory
/// term of the outermost IR nests on the source loop they are attributed
/// to (docs/models.md "Memory term of HLLC and INTCC"). POC: nothing. Mem
/// must outlive FB's use. Values: the parameter values; an
/// MPI process count p >= 2 (--np) means ranks sharing one node's L3 and
/// memory (MemoryModel::setRanksSharing: all ranks on one node assumed).
/// Cores, if given, receives the ICC core time (s, per execution) of every
/// loop nest with a memory term, before the memory term (for the breakdown).
void installLoopModels(FormulaBuilder &FB, const SegFile &S, const Machine &M,
                       const std::string &Target, const ResourceModel &Model,
                       std::optional<MemoryModel> &Mem, std::string &MemWhy,
                       const std::map<std::string, double> &Values,
                       std::shared_ptr<std::map<const Node *, GiNaC::ex>> Cores = nullptr);

/// The callees' parameters that the calls in F (source level), and in the
/// functions it calls, bind to argument expressions, in F's names (nested
/// calls substituted), each call site once, depth first, at most Max;
/// Values evaluates those whose names they give.
std::vector<BoundValue> boundFromCalls(const SegFile &S, const FunctionSeg &F,
                                       const std::map<std::string, double> &Values,
                                       size_t Max = 40);

/// CostedSummary of F in S (see there). LibraryCosted: the library
/// functions (core/Library.h names) the machine costs; a call to one of
/// them counts as costed.
CostedSummary costedSummary(const SegFile &S, const FunctionSeg &F,
                            const std::set<std::string> &LibraryCosted = {});

/// The ICC target to predict for: Wanted if the SEG file has it, else the
/// first target of the SEG file (whose code generation succeeded) that M has
/// an ICC cost vector for; nullopt if there is none.
std::optional<std::string> iccTarget(const SegFile &S, const Machine &M,
                                     const std::string &Wanted);

/// Checks the -p values O.Values against S: finite; a branch probability
/// in [0, 1]; a loop's number of iterations, a source name that is a whole
/// trip count (a size), `rank` >= 0; `p` >= 1. Throws std::runtime_error
/// "-p NAME=VALUE: parameter 'NAME' is ...: expected ...". (A value that
/// only makes some trip count such as n - 2 negative is allowed: that loop
/// runs 0 times, and the prediction says so in a note.)
void checkValues(const SegFile &S, const PredictOptions &O);

/// Predicts every selected function. Per-function problems (missing
/// parameters, no comm model in the machine file for a function that
/// communicates, a cost the machine file lacks) go into
/// FunctionPrediction::Error, named by the function, and the other functions
/// are predicted; an unknown function, level or ICC target, or a value
/// checkValues refuses, throws std::runtime_error. Trip counts are
/// max(0, trip) (FormulaBuilder::setClampTrips) once one is negative at the
/// values given, with a note naming the loop; a time or count that is still
/// negative or not finite fails the function with the formula and values.
///
/// MPI programs (docs/mpi.md): the time of a level is its compute formula
/// plus the communication formula of the source-level SEG's Comm nodes
/// (the optimiser neither adds nor removes MPI calls, so one comm formula
/// serves every level). `p` (processes) must be given; `rank` may be: if it
/// is not, every rank 0..p-1 is evaluated and the slowest is reported.
Prediction predict(const SegFile &S, const Machine &M, const PredictOptions &O);

namespace predict_detail {
class FilePredictor;
}
/// predict() over one file again and again (the same machine and options;
/// other functions, or a function whose SEG the caller swaps into S between
/// two calls, e.g. an inlined function resolved at each of its call sites):
/// each predict(Functions) gives what predict(S, M, O with those
/// functions) gives, with the closed forms of the callees built once and
/// kept across calls (FormulaBuilder::keepContextFree: not those cut at a
/// recursion in progress, which depend on where they were built). S must
/// outlive the Predictor; after swapping a function's SEG in or out, call
/// replaced(name) before the next predict. Throws as predict() does.
class Predictor {
public:
  Predictor(const SegFile &S, const Machine &M, const PredictOptions &O);
  ~Predictor();
  Predictor(const Predictor &) = delete;
  Predictor &operator=(const Predictor &) = delete;
  /// predict(S, M, O) with O.Functions = Functions (empty: every function
  /// of S's main file).
  Prediction predict(const std::vector<std::string> &Functions);
  /// Fn's SEG in S was replaced: its closed forms, and those of every
  /// function whose forms used them, are built again.
  void replaced(const std::string &Fn);
  /// Closed forms built so far (FormulaBuilder::formsBuilt).
  size_t formsBuilt() const;
  /// The next predict() keeps the closed forms and dependency sets cut at a
  /// recursion that the one before built (FormulaBuilder::keepContextFree
  /// drops them otherwise). Sound only when the next prediction starts from
  /// the same function, replaced by a copy whose calls are the same callees
  /// in the same order in every level body: its walk then meets those
  /// recursions along the same paths, and builds the same cut forms.
  void keepCutForms() { KeepCut = true; }

private:
  bool KeepCut = false;
  const SegFile &S;
  const Machine &M;
  const PredictOptions &O;
  Prediction Work; ///< the header every predict() gives (machine, target, comm model)
  std::unique_ptr<predict_detail::FilePredictor> FP; ///< made by the first predict()
};

/// The ICC line of the compile-time summary for FP, when predict() gave it
/// an ICC level or it misses values: Head, then " = t s   (N instructions,
/// C cycles) at n=..., m=... [source]" or ": needs NAME, ...
/// (-fplugin-arg-segtime-p=NAME=VALUE)", with a newline. Returns false and
/// writes nothing if FP has neither (the caller says why it was not
/// predicted).
bool printIccSummaryLine(std::ostream &OS, const std::string &Head, const FunctionPrediction &FP);

/// Text the plugin prints at compile time (segtime predict --summary, which
/// the plugin runs on the file it wrote): per main-file function (the
/// first MaxFunctions; a line counts the others), the structural formula,
/// the POC flop count, the POC and HLLC closed-form times on machine
/// MachineName (a name or path; if it cannot be read the text says why)
/// and, when S has ICC data for a target the machine has a cost vector for,
/// the ICC prediction of predict() (s, instructions, cycles) at Values
/// (-fplugin-arg-segtime-p=NAME=VALUE), or the names it needs and the
/// closed-form instruction count. ICC needs the IR-level SEGs (LevelSegs)
/// of S. Never throws.
std::string compileTimeSummary(const SegFile &S, const std::string &MachineName,
                               const std::map<std::string, double> &Values = {},
                               size_t MaxFunctions = 50);

} // namespace segtime

#endif
