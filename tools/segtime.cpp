//===- segtime.cpp - The segtime command ----------------------------------===//
///
/// \file
/// Subcommands: predict, compare, link, calibrate, show, dot, vocabulary, farm, dc, hetero,
/// comm calibrate.
///
/// USAGE:
///   segtime predict FILE.seg.json --machine t800 -p n=256 [--level poc|hllc|all]
///                   [--function NAME] [--json] [--max-terms N]
///                   [--max-callee-nodes N] [--breakdown]
///   segtime calibrate --level hllc,poc --out costvectors/local.yaml
///   segtime show FILE.seg.json [--function NAME]
///   segtime dot FILE.seg.json --function NAME > f.dot
///   segtime vocabulary [--level hllc|poc] [--json]
///
//===----------------------------------------------------------------------===//
#include "core/Ct.h"
#include "core/InlinedLevels.h"
#include "core/MergeIR.h"
#include "core/Vocabulary.h"
#include "predictor/ExprText.h"
#include "predictor/Formula.h"
#include "predictor/Install.h"
#include "predictor/Predict.h"
#include "predictor/PredictTiming.h"
#include "predictor/PredictedSpeed.h"
#include "predictor/levels/LevelUnit.h"
#include "tools/CommandLine.h"
#include "tools/PredictedArgs.h"
#include "tools/Process.h"

#include <algorithm>
#include <climits>
#include <csignal>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

using namespace segtime;

int calibrateMain(int Argc, char **Argv); // Calibrate.cpp
int farmMain(int Argc, char **Argv);      // Templates.cpp
int dcMain(int Argc, char **Argv);        // Templates.cpp
int heteroMain(int Argc, char **Argv);    // Templates.cpp
int commMain(int Argc, char **Argv);      // CommCalibrate.cpp
int compareMain(int Argc, char **Argv);   // CompareCommand.cpp
int linkMain(int Argc, char **Argv);      // LinkCommand.cpp
namespace segtime { // SummarySites.cpp
std::string summaryPerSite(SegFile &S, const std::string &MachineName,
                           const std::map<std::string, double> &Values, size_t Max,
                           const MergeIRServices &X,
                           const std::function<void(SegFile &)> &Resolve);
std::map<std::string, json> perSiteFigures(const std::vector<FunctionSeg> &Unresolved,
                                           SegFile &S, const Machine &M,
                                           const PredictOptions &O, Prediction &P,
                                           const MergeIRServices &X);
} // namespace segtime

namespace {

const char *PredictUsage =
    "usage: segtime predict FILE.seg.json [--machine NAME|PATH] [options]\n"
    "\n"
    "  --machine NAME|PATH  machine file: a path, or NAME.yaml in $SEGTIME_MACHINE_PATH,\n"
    "                       the user's machines ($XDG_DATA_HOME/segtime/machines),\n"
    "                       the installed ones (docs/cli.md); default: this machine\n"
    "                       if `segtime calibrate` calibrated it (default.yaml there),\n"
    "                       else t800 (a note on stderr says which). Repeated\n"
    "                       (--machine A --machine B ...): the machines side by\n"
    "                       side, with t(A)/t(machine) per function and level\n"
    "                       (--json: {\"machines\": [one report per machine, with\n"
    "                       \"ratio_to_first\"]})\n"
    "  --level L            poc, hllc, intcc, icc, or all (the default: poc and\n"
    "                       hllc, plus intcc and icc when both the machine\n"
    "                       file and the SEG file have them); comma lists\n"
    "  --target NAME        ICC target (a CPU the SEG file was compiled for with\n"
    "                       -fplugin-arg-segtime-targets=); default: one the\n"
    "                       machine file has its own ICC cost vector for, else\n"
    "                       the machine's CPU (identity llvm_cpu), else the first\n"
    "                       one its 'any' vector serves\n"
    "  --function NAME      only this function (repeatable; default: every\n"
    "                       function of the main file)\n"
    "  -p NAME=VALUE        parameter value (repeatable): a source name such as n,\n"
    "                       a loop count N_<fn>_<line>, a probability P_<fn>_<line>\n"
    "  --profile FILE.ct.json  loop counts and branch probabilities measured by an\n"
    "                       instrumented build (-fplugin-arg-segtime-instrument):\n"
    "                       N_ = mean iterations per entry, P_ = arm frequency;\n"
    "                       -p values win; the parameters taken are listed on stderr;\n"
    "                       repeatable (a later file's value wins): with a build's\n"
    "                       instrument=late profile, each optimised branch copy's\n"
    "                       Pir_..._c<k> its own measured rate (docs/ct-json.md)\n"
    "  --np P               MPI programs: number of processes (same as -p p=P)\n"
    "  --rank R             MPI programs: predict rank R (same as -p rank=R);\n"
    "                       default: every rank, the slowest is reported\n"
    "                       (docs/mpi.md)\n"
    "  --site K             a function with no code of its own (every call\n"
    "                       inlined): its INTCC and ICC levels from its K-th\n"
    "                       inlined call only (one call there); default: the\n"
    "                       sum of one call at each site, and each site's\n"
    "                       figures (docs/cli.md \"Inlined functions\")\n"
    "  --json               print one JSON object (layout: docs/cli.md)\n"
    "  --breakdown          per ICC loop nest: the ECM terms (core, L1, L2, L3,\n"
    "                       memory), cache lines, core cycles per iteration, the\n"
    "                       bound and its share (text table, or in --json)\n"
    "  --timing             print on stderr the CPU time per phase and level, the\n"
    "                       number of closed forms built and the slowest functions\n"
    "  --max-terms N        expand a closed form only if it stays within N terms\n"
    "                       (default 4000; 0: always); a larger one is printed\n"
    "                       and evaluated factored, with a note\n"
    "  --summary N          print instead the clang plugin's compile-time summary\n"
    "                       of the first N functions of the main file (the plugin\n"
    "                       runs this; docs/cli.md, \"What the plugin prints\");\n"
    "                       takes only --machine (one) and -p\n"
    "\n"
    "Every function that can be predicted is; the others are listed last\n"
    "(\"incomplete\" in --json) with what they lack.\n"
    "Exit status: 0 every function predicted; 1 some incomplete: a value is\n"
    "missing (the others are predicted); 2 usage or input error, or some\n"
    "function failed for another reason (the message names it).\n";

using cli::UsageError;

std::vector<Level> parseLevels(const std::string &S, bool &All) {
  std::vector<Level> R;
  All = false;
  for (const std::string &X : cli::splitList("--level", S, /*SkipEmpty=*/true)) {
    Level L;
    if (X == "all" || X == "ALL") {
      All = true; // resolved against the machine and SEG files
      continue;
    }
    if (!parseLevel(X, L) || !costedLevel(L))
      throw UsageError("--level: '" + X + "' is not one of poc, hllc, intcc, icc, all");
    R.push_back(L);
  }
  return R;
}

/// Warns about the -p values Unused that no predicted function has, then
/// prints Report (a Prediction or a MachineComparison) as JSON or text.
/// The predictor's expression algebra for core/MergeIR.h, with the
/// compile's parameter names of inlined code.
MergeIRServices mergeServices() {
  MergeIRServices X;
  X.ParamName = [](const std::string &, unsigned K) { return "arg" + std::to_string(K); };
  X.Simplify = simplifyExprText;
  X.SameValue = sameValue;
  X.ValueRatio = valueRatio;
  return X;
}

/// core/MergeIR.h resolveInlinedLevels on S with the predictor's
/// expression algebra: the IR levels of the functions with no code of their
/// own from their call sites (Site: 1-based, 0 all). Its warnings are added
/// to S's; a call site left out is also reported on stderr.
void resolveInlined(SegFile &S, unsigned Site) {
  std::vector<std::string> W;
  resolveInlinedLevels(S, mergeServices(), Site, W);
  for (const std::string &L : W)
    if (L.find("left out of the IR level") != std::string::npos)
      std::cerr << "segtime: warning: " << L << "\n";
  S.Warnings.insert(S.Warnings.end(), W.begin(), W.end());
}

/// Calls Swap when made and again when it goes out of scope, also on an
/// exception: function copies swapped into a SegFile for one prediction and
/// swapped back.
template <class SwapFn> class SwappedIn {
public:
  explicit SwappedIn(SwapFn Swap) : Swap(std::move(Swap)) { this->Swap(); }
  ~SwappedIn() { Swap(); }
  SwappedIn(const SwappedIn &) = delete;
  SwappedIn &operator=(const SwappedIn &) = delete;

private:
  SwapFn Swap;
};

/// predict(S, M, O) with the functions that have no code of their own
/// (Unresolved: those functions as read; in S their IR levels resolved)
/// predicted apart: first every function named (O.Functions, or S's in
/// its main file) over S with Unresolved's copies swapped in, exactly as
/// without their levels; then the functions of Unresolved named whose
/// level was made, over S as it is, their predictions replacing the first
/// ones. The other functions' figures are so the same as without the
/// plugin option inlined: the file's loop models see every function's IR
/// loops, and a function's closed form is cut at a recursive call in
/// progress (FormulaBuilder::closedForm), so the order in which functions
/// are costed shapes the closed forms of recursive ones (predicted in one
/// go, Lua's statlist, with no code of its own and calling into the
/// parser's recursion, would change recfield's INTCC formula and make it
/// 200 times slower). A -p value is unused if both leave it unused.
Prediction predictInlinedApart(SegFile &S, const std::vector<FunctionSeg> &Unresolved,
                               const Machine &M, const PredictOptions &O) {
  std::vector<std::string> Names = O.Functions;
  if (Names.empty())
    for (const FunctionSeg &F : S.Functions)
      if (F.InMainFile)
        Names.push_back(F.Name);
  std::set<std::string> Made;
  for (const FunctionSeg &U : Unresolved)
    if (const FunctionSeg *F = S.find(U.Name); F && F->LevelSegs.count(IrSegKey) &&
                                               std::count(Names.begin(), Names.end(), U.Name))
      Made.insert(U.Name);
  if (Unresolved.empty())
    return predict(S, M, O);
  std::vector<FunctionSeg> Swap = Unresolved;
  auto SwapAll = [&] {
    for (FunctionSeg &U : Swap)
      for (FunctionSeg &F : S.Functions)
        if (F.Name == U.Name) {
          std::swap(F, U);
          break;
        }
  };
  Prediction P;
  {
    SwappedIn Swapped(SwapAll);
    P = predict(S, M, O);
  }
  if (Made.empty())
    return P;
  PredictOptions OI = O;
  OI.Functions.clear();
  for (const std::string &N : Names) // in the order of the first
    if (Made.count(N) && !std::count(OI.Functions.begin(), OI.Functions.end(), N))
      OI.Functions.push_back(N);
  Prediction Q = predict(S, M, OI);
  for (FunctionPrediction &FP : P.Functions)
    for (FunctionPrediction &FQ : Q.Functions)
      if (FQ.Name == FP.Name && Made.count(FP.Name))
        FP = FQ;
  std::vector<std::string> Unused;
  for (const std::string &U : P.UnusedValues)
    if (std::count(Q.UnusedValues.begin(), Q.UnusedValues.end(), U))
      Unused.push_back(U);
  P.UnusedValues = Unused;
  return P;
}

template <typename ReportT>
void printReport(const ReportT &Report, const std::vector<std::string> &Unused, bool Json,
                 const std::function<void(json &)> &Patch = nullptr) {
  for (const std::string &U : Unused)
    std::cerr << "segtime: warning: -p " << U
              << " is not a parameter of the predicted functions (ignored)\n";
  if (Json) {
    json J = Report.toJSON();
    if (Patch)
      Patch(J);
    std::cout << J.dump(2) << "\n";
  } else {
    Report.printText(std::cout);
  }
}

/// predict --profile: the CT profile's measured outcomes and trips as
/// values of O (a -p value of the same name wins), each said on stderr; a
/// warning if the profile matches no node of SegPath's file S.
static void applyProfile(const std::string &Profile, const std::string &SegPath,
                         const SegFile &S, PredictOptions &O) {
  CtFile Ct = CtFile::read(Profile);
  bool Late = std::any_of(Ct.Functions.begin(), Ct.Functions.end(),
                          [](const CtFunction &F) { return !F.Late.empty(); });
  if (!matchSeg(Ct, S) && !Late)
    std::cerr << "segtime: warning: " << Profile << " matches no node of " << SegPath
              << " (another program or source?)\n";
  for (const ProfileValue &V : profileParameters(Ct, S)) {
    bool User = O.Values.count(V.Name);
    if (!User)
      O.ProfileValues[V.Name] = V.Value;
    std::cerr << "segtime: profile " << Profile << ": " << V.Name << " = " << V.Value << " ("
              << V.Note << ")" << (User ? "; -p given, not used" : "") << "\n";
  }
}

int predictMain(int Argc, char **Argv) {
  std::string Seg;
  std::vector<std::string> Profiles; // in order: a later one's value wins
  std::vector<std::string> MachineNames; // several: side by side
  PredictOptions O;
  bool Json = false, LevelsGiven = false;
  long long SummaryMax = -1; // --summary N
  std::string NotForSummary; // the first option --summary does not take
  unsigned Site = 0;
  cli::ArgReader R(Argc, Argv);
  while (R.next()) {
    std::string A = R.flag();
    if (NotForSummary.empty() && R.isOption() &&
        !(A == "--machine" || A == "-m" || A == "-p" || A == "--param" || A == "--summary"))
      NotForSummary = A;
    if (A == "--help" || A == "-h") {
      std::cout << PredictUsage;
      return 0;
    } else if (A == "--summary") {
      SummaryMax = cli::parseWhole(A, R.value(), 0, LLONG_MAX, "number of functions (0, 1, ...)");
    } else if (A == "--machine" || A == "-m") {
      MachineNames.push_back(R.value());
    } else if (A == "--level") {
      bool All;
      O.Levels = parseLevels(R.value(), All);
      LevelsGiven = !All;
      if (All)
        O.Levels = PredictOptions().Levels;
    } else if (A == "--target" || A == "-t") {
      O.Target = R.value();
    } else if (A == "--function" || A == "-f") {
      O.Functions.push_back(R.value());
    } else if (A == "-p" || A == "--param") {
      auto [Name, V] = parseParamAssignment(R.value());
      O.Values[Name] = V;
    } else if (A == "--profile") {
      Profiles.push_back(R.value());
    } else if (A == "--np") {
      O.Values["p"] = cli::parseWhole(A, R.value(), 1, INT_MAX, "positive number of processes");
    } else if (A == "--rank") {
      O.Values["rank"] = cli::parseWhole(A, R.value(), 0, INT_MAX, "rank (0, 1, ...)");
    } else if (A == "--json") {
      Json = true;
    } else if (A == "--site") {
      Site = cli::parseWhole(A, R.value(), 1, INT_MAX, "call site number (1, 2, ...)");
    } else if (A == "--breakdown") {
      O.Breakdown = true;
    } else if (A == "--timing") {
      PredictTiming::get().On = true;
      // A run stopped by a time-out still says where its time went (the
      // phases so far; not async-signal-safe, a diagnostic at the end).
      for (int Sig : {SIGTERM, SIGINT})
        std::signal(Sig, [](int) {
          PredictTiming::get().print(std::cerr);
          std::_Exit(124);
        });
    } else if (A == "--max-terms") {
      O.MaxTerms = cli::parseWhole(A, R.value(), 0, LLONG_MAX, "number of terms (0, 1, ...)");
    } else if (A == "--max-callee-nodes") {
      O.MaxCalleeNodes =
          cli::parseWhole(A, R.value(), 0, LLONG_MAX, "number of nodes (0, 1, ...)");
    } else if (R.isOption()) {
      cli::unknownOption("predict", A);
    } else if (Seg.empty()) {
      Seg = A;
    } else {
      throw UsageError("more than one SEG file given ('" + Seg + "', '" + A + "')");
    }
  }
  if (Seg.empty())
    throw UsageError("no SEG file given (see segtime predict --help)");
  if (SummaryMax >= 0 && (!NotForSummary.empty() || MachineNames.size() > 1))
    throw UsageError("--summary takes only --machine (one) and -p, not " +
                     (NotForSummary.empty() ? std::string("a second --machine") : NotForSummary));
  if (MachineNames.empty()) {
    DefaultMachine D = defaultMachine();
    std::cerr << D.Note << "\n";
    MachineNames.push_back(D.Path);
  }
  const std::string &MachineName = MachineNames[0];
  std::optional<TimedScope> Phase(std::in_place, "read the SEG file");
  SegFile S = SegFile::read(Seg);
  Phase.reset();
  for (const std::string &Name : O.Functions)
    if (const FunctionSeg *F = S.find(Name); F && Site > F->InlinedAt.size())
      throw UsageError("--site " + std::to_string(Site) + ": " + Name + " has " +
                       std::to_string(F->InlinedAt.size()) + " inlined call sites");
  if (SummaryMax >= 0) { // (never fails on the machine: the text says why)
    std::cout << summaryPerSite(S, MachineName, O.Values, SummaryMax, mergeServices(),
                                [](SegFile &F) { resolveInlined(F, 0); });
    return 0;
  }
  std::vector<FunctionSeg> Unresolved; // the functions with no code of their own, as read
  for (const FunctionSeg &F : S.Functions)
    if (!F.InlinedAt.empty())
      Unresolved.push_back(F);
  Phase.emplace("resolve inlined levels");
  resolveInlined(S, Site);
  Phase.reset();
  Machine M = readMachine(findMachine(MachineName));
  for (const std::string &Profile : Profiles)
    applyProfile(Profile, Seg, S, O);
  if (MachineNames.size() > 1) { // side by side (predictor/PredictedSpeed.h)
    MachineComparison C;
    for (size_t I = 0; I < MachineNames.size(); ++I) {
      Machine Mi = I == 0 ? M : readMachine(findMachine(MachineNames[I]));
      PredictOptions Oi = O;
      if (!LevelsGiven)
        addDefaultLevels(S, Mi, Oi);
      C.Predictions.push_back(predictInlinedApart(S, Unresolved, Mi, Oi));
      C.Predictions.back().SegPath = Seg;
    }
    printReport(C, C.Predictions[0].UnusedValues, Json);
    for (const Prediction &P : C.Predictions)
      for (auto &F : P.Functions)
        if (!F.Error.empty() && (Json || F.Failed))
          std::cerr << "segtime: error: " << P.MachineName << ": " << F.Error << "\n";
    return C.exitStatus();
  }
  if (!LevelsGiven)
    addDefaultLevels(S, M, O);
  if (O.Breakdown && std::none_of(O.Levels.begin(), O.Levels.end(),
                                  [](Level L) { return levelUnit(L).hasBreakdown(); }))
    throw UsageError("--breakdown needs the ICC level (--level icc or all; the SEG file needs "
                     "ICC data for a target of the machine file)");
  Phase.emplace("predict (all functions)");
  Prediction P = predictInlinedApart(S, Unresolved, M, O);
  Phase.reset();
  P.SegPath = Seg;
  std::map<std::string, json> Sites;
  Phase.emplace("per-site figures of inlined functions");
  if (Site == 0)
    Sites = perSiteFigures(Unresolved, S, M, O, P, mergeServices());
  Phase.emplace("print the report");
  printReport(P, P.UnusedValues, Json, [&](json &J) {
    for (json &E : J["functions"])
      if (auto It = Sites.find(E.value("name", "")); It != Sites.end())
        E["inlined_sites"] = It->second;
  });
  Phase.reset();
  if (PredictTiming::get().On)
    PredictTiming::get().print(std::cerr);
  // On stderr: each function's error when the report may not show it
  // (--json, --function), and always a failure other than a missing value.
  for (auto &F : P.Functions)
    if (!F.Error.empty() && (Json || !O.Functions.empty() || F.Failed))
      std::cerr << "segtime: error: " << F.Error << "\n";
  return P.exitStatus();
}

/// segtime show --chains: print the -O0 loop-carried chains of the loops.
static bool ShowChains = false;

void showList(const NodeList &L, int Depth) {
  for (const Node &N : L) {
    std::string Ind(Depth * 2, ' ');
    std::cout << Ind << N.Id << " " << nodeKindName(N.Kind) << " @" << N.Range.Line;
    if (N.Kind == NodeKind::Loop)
      std::cout << " " << N.LoopKind << " trip=" << N.Trip
                << (N.Index.empty() ? "" : " index=" + N.Index)
                << (N.Label.empty() ? "" : " [" + N.Label + "]");
    if (!N.Freq.empty())
      std::cout << " freq=" << N.Freq;
    if (!N.SourceNode.empty())
      std::cout << " <- " << N.SourceNode;
    if (N.Kind == NodeKind::Call)
      std::cout << " " << N.Callee << (N.Bytes.empty() ? "" : " bytes=" + N.Bytes);
    if (N.Kind == NodeKind::Unknown)
      std::cout << " reason: " << N.Reason;
    if (N.Kind == NodeKind::Comm)
      std::cout << " " << N.CommOp << " " << N.Pattern << " bytes=" << N.Bytes
                << (N.Peer.empty() ? "" : " peer=" + N.Peer)
                << (N.Root.empty() ? "" : " root=" + N.Root);
    if (!N.BranchProb.empty())
      std::cout << " branch_prob=" << N.BranchProb;
    if (!N.Chain.empty())
      std::cout << " chain=" << N.Chain;
    std::cout << "\n";
    if (!N.Footprint.empty())
      std::cout << Ind << "    memory: footprint=" << simplifyExprText(N.Footprint)
                << " B traffic=" << simplifyExprText(N.Traffic) << " B\n";
    for (const MemStream &M : N.Streams) {
      // One line per stream: strides per loop, innermost first.
      std::cout << Ind << "    stream " << (M.Base.empty() ? "?" : M.Base) << ":"
                << (M.Load ? " load" : "") << (M.Store ? " store" : "") << " " << M.Size
                << " B, stride B x trip:";
      for (const MemStream::Step &S : M.Loops)
        std::cout << " " << simplifyExprText(S.Stride) << " x " << simplifyExprText(S.Trip)
                  << (S.Index.empty() ? "" : " [" + S.Index + "]");
      if (!M.Offsets.empty()) {
        std::cout << ", offsets";
        for (const std::string &O : M.Offsets)
          std::cout << " " << simplifyExprText(O);
      }
      std::cout << "\n";
    }
    for (const std::string &M : N.MemoryNotes)
      std::cout << Ind << "    memory note: " << M << "\n";
    for (auto &[Lv, R] : N.Ruvs) {
      if (!ShowChains && Lv.rfind("chain.", 0) == 0)
        continue;
      std::cout << Ind << "    " << Lv << ":";
      for (auto &[Op, C] : R.counts())
        std::cout << " " << Op << "=" << C;
      std::cout << "\n";
    }
    showList(N.Body, Depth + 1);
    for (const Arm &A : N.Arms) {
      std::cout << Ind << "  arm " << A.Label << " p=" << A.Prob << "\n";
      showList(A.Body, Depth + 2);
    }
  }
}

/// The arguments of show and dot: FILE.seg.json, --function NAME and the
/// flags of Flags (set when given).
struct SegArgs {
  std::string Seg, Only;
};

/// Reads them for command Cmd; prints Usage and returns false after --help.
/// Without arguments prints Usage and exits 2.
bool readSegArgs(const std::string &Cmd, const char *Usage, int Argc, char **Argv, SegArgs &S,
                 std::initializer_list<std::pair<const char *, bool *>> Flags) {
  if (Argc < 1) {
    std::cout << Usage;
    std::exit(2);
  }
  cli::ArgReader R(Argc, Argv);
  while (R.next()) {
    std::string A = R.flag();
    auto Flag = std::find_if(Flags.begin(), Flags.end(), [&](auto &F) { return A == F.first; });
    if (A == "--help" || A == "-h") {
      std::cout << Usage;
      return false;
    } else if (A == "--function" || A == "-f") {
      S.Only = R.value();
    } else if (Flag != Flags.end()) {
      *Flag->second = true;
    } else if (R.isOption()) {
      cli::unknownOption(Cmd, A);
    } else if (S.Seg.empty()) {
      S.Seg = A;
    } else {
      throw UsageError("more than one SEG file given ('" + S.Seg + "', '" + A + "')");
    }
  }
  if (S.Seg.empty())
    throw UsageError("no SEG file given (see segtime " + Cmd + " --help)");
  return true;
}

int showMain(int Argc, char **Argv) {
  const char *Usage = "usage: segtime show FILE.seg.json [--function NAME] [--ir] [--chains] "
                      "[--json]\n"
                      "  --function NAME  only this function\n"
                      "  --chains         also print the loops' loop-carried scalar chains\n"
                      "                   (files compiled at -O0: chain.<type>:<name>)\n"
                      "  --ir             also print the IR-level SEG (optimised loops, basic\n"
                      "                   blocks with frequencies, '<- vN': the source node\n"
                      "                   they came from)\n"
                      "  --json           print the file (or the function) as indented JSON in\n"
                      "                   the expanded form (schema segtime.seg/1: no shared\n"
                      "                   texts)\n";
  SegArgs Args;
  bool IR = false, Json = false;
  if (!readSegArgs("show", Usage, Argc, Argv, Args,
                   {{"--ir", &IR}, {"--chains", &ShowChains}, {"--json", &Json}}))
    return 0;
  const std::string &Only = Args.Only;
  SegFile S = SegFile::read(Args.Seg);
  if (Json) {
    if (!Only.empty()) {
      const FunctionSeg *F = S.find(Only);
      if (!F)
        throw UsageError(Args.Seg + ": no function '" + Only + "'");
      std::cout << F->toJSON().dump(1) << "\n";
    } else {
      std::cout << S.toJSON().dump(1) << "\n";
    }
    return 0;
  }
  resolveInlined(S, 0);
  FormulaBuilder FB(S);
  for (const FunctionSeg &F : S.Functions) {
    if (!Only.empty() && F.Name != Only)
      continue;
    std::cout << "function " << F.Name << " (" << F.Range.File << ":" << F.Range.Line << ")\n";
    std::cout << "  " << FB.structural(F.Name) << "\n";
    for (const Parameter &P : F.Parameters)
      std::cout << "  param " << P.Name << " default="
                << P.defaultText() << " [" << P.Source
                << "] " << P.Meaning << "\n";
    showList(F.Body, 1);
    auto IRSeg = F.LevelSegs.find(IrSegKey);
    if (IR && IRSeg != F.LevelSegs.end()) {
      std::cout << "  IR-level SEG (-" << S.OptLevel << "):\n";
      // A function with no code of its own: the code of its inlined calls.
      for (size_t K = 0; K < F.InlinedAt.size(); ++K) {
        const InlinedRef &R = F.InlinedAt[K];
        std::cout << "    inlined call " << K + 1 << (R.Where.empty() ? "" : " at " + R.Where)
                  << " (in '" << R.Caller << "'): its nodes";
        for (const std::string &Id : R.Nodes)
          std::cout << " " << (F.InlinedAt.size() > 1 ? "c" + std::to_string(K + 1) + "_" : "")
                    << Id;
        std::cout << "\n";
      }
      showList(IRSeg->second, 2);
    }
  }
  for (const std::string &W : S.Warnings)
    std::cout << "warning: " << W << "\n";
  return 0;
}

std::string dotEscape(const std::string &S) {
  std::string R;
  for (char C : S)
    R += (C == '"' || C == '\\') ? std::string("\\") + C : std::string(1, C);
  return R;
}

void dotList(const NodeList &L, const std::string &Parent, std::ostream &OS) {
  std::string Prev = Parent;
  for (const Node &N : L) {
    std::string Shape = N.Kind == NodeKind::Loop     ? "ellipse"
                        : N.Kind == NodeKind::Branch ? "diamond"
                        : N.Kind == NodeKind::Unknown ? "octagon"
                        : N.Kind == NodeKind::Call   ? "box3d"
                                                     : "box";
    std::string Label = N.Id + ": " + nodeKindName(N.Kind);
    if (N.Kind == NodeKind::Loop)
      Label += "\\nN = " + dotEscape(N.Trip);
    if (N.Kind == NodeKind::Call)
      Label += "\\n" + N.Callee;
    if (N.Kind == NodeKind::Unknown)
      Label += "\\n" + dotEscape(N.Reason);
    if (N.Kind == NodeKind::Comm)
      Label += "\\n" + N.CommOp + "\\n" + dotEscape(N.Bytes) + " B";
    auto H = N.Ruvs.find(levelKey(Level::POC));
    if (H != N.Ruvs.end() && H->second.get("flop") != 0)
      Label += "\\n" + std::to_string(static_cast<long>(H->second.get("flop"))) + " flop";
    OS << "  " << N.Id << " [shape=" << Shape << ", label=\"" << Label << "\"];\n";
    OS << "  " << Prev << " -> " << N.Id << ";\n";
    Prev = N.Id;
    if (!N.Body.empty())
      dotList(N.Body, N.Id, OS);
    for (const Arm &A : N.Arms) {
      if (A.Body.empty())
        continue;
      std::string ArmId = N.Id + "_" + std::to_string(&A - &N.Arms[0]);
      OS << "  " << ArmId << " [shape=point];\n  " << N.Id << " -> " << ArmId
         << " [label=\"" << dotEscape(A.Label + ": " + A.Prob) << "\"];\n";
      dotList(A.Body, ArmId, OS);
    }
  }
}

int dotMain(int Argc, char **Argv) {
  SegArgs Args;
  if (!readSegArgs("dot", "usage: segtime dot FILE.seg.json [--function NAME] | dot -Tsvg\n",
                   Argc, Argv, Args, {}))
    return 0;
  SegFile S = SegFile::read(Args.Seg);
  const std::string &Only = Args.Only;
  std::cout << "digraph seg {\n  rankdir=TB;\n  node [fontname=\"Helvetica\"];\n";
  for (const FunctionSeg &F : S.Functions) {
    if ((!Only.empty() && F.Name != Only) || (Only.empty() && !F.InMainFile))
      continue;
    std::string Root = "f_" + F.Name;
    std::cout << "  subgraph cluster_" << F.Name << " {\n  label=\"" << F.Name << "\";\n  "
              << Root << " [shape=plaintext, label=\"" << F.Name << "\"];\n";
    std::ostringstream OS;
    dotList(F.Body, Root, OS);
    std::string Body = OS.str();
    // Node ids are per function: prefix them.
    std::cout << std::regex_replace(Body, std::regex("\\bv([0-9]+)"), F.Name + "_v$1")
              << "  }\n";
  }
  std::cout << "}\n";
  return 0;
}

int vocabularyMain(int Argc, char **Argv) {
  bool Json = false;
  cli::ArgReader R(Argc, Argv);
  while (R.next())
    if (R.flag() == "--json")
      Json = true;
    else if (R.flag() == "--help" || R.flag() == "-h")
      return std::cout << "usage: segtime vocabulary [--json]\n"
                          "  the HLLC constructs with their McMahon flop weights\n",
             0;
    else
      cli::unknownOption("vocabulary", R.flag());
  json J = json::array();
  for (const Construct &C : hllcVocabulary()) {
    if (Json)
      J.push_back({{"name", C.Name}, {"description", C.Description},
                   {"mcmahon_flop", mcmahonWeight(C.Name)}});
    else
      std::cout << "  " << C.Name << std::string(C.Name.size() < 18 ? 18 - C.Name.size() : 1, ' ')
                << C.Description << "  [" << mcmahonWeight(C.Name) << " flop]\n";
  }
  if (Json)
    std::cout << J.dump(2) << "\n";
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  // The commands that measure this machine run with its usual address-space
  // layout; the others print formulas, whose text must not depend on it.
  if (Argc < 2 || (std::strcmp(Argv[1], "calibrate") != 0 && std::strcmp(Argv[1], "comm") != 0))
    fixAddressLayout(Argv);
  static const std::vector<cli::Command> Commands = {
      {"predict", "  predict FILE.seg.json   predicted time per function and level on a machine\n",
       predictMain, "segtime"},
      {"compare",
       "  compare FILE.seg.json   predicted vs measured per SEG node (Warwick-94 Tables 6, 7)\n",
       compareMain, "segtime compare"},
      {"calibrate",
       "  calibrate               measure this machine: cost vectors (HLLC, INTCC, POC, ICC clock),\n"
       "                          PARKBENCH-93 TICK1/2, RINF1, POLY1/2, memory bandwidths\n",
       calibrateMain, "segtime: error: calibrate"},
      {"link", "  link A.seg.json ... -o P.seg.json  join the SEG files of one program's files\n",
       linkMain, "segtime link"},
      {"show", "  show FILE.seg.json      print the SEG tree with RUVs and parameters\n", showMain,
       "segtime"},
      {"dot", "  dot FILE.seg.json       the SEG of one function as Graphviz\n", dotMain,
       "segtime"},
      {"vocabulary", "  vocabulary              the operations each level counts\n",
       vocabularyMain, "segtime"},
      {"farm", "  farm                    processor farm on a k-ary tree (UBC-91)\n", farmMain,
       "segtime farm"},
      {"dc", "  dc                      divide and conquer on a k-ary tree (UBC-91)\n", dcMain,
       "segtime dc"},
      {"hetero", "  hetero                  heterogeneous network of workstations (UTSA-95)\n",
       heteroMain, "segtime hetero"},
      {"comm", "  comm calibrate          measure MPI communication (COMMS1/2/3, SYNCH1, LogGP)\n",
       commMain, "segtime comm"},
  };
  static const std::string Usage =
      cli::commandsUsage("usage: segtime COMMAND [options]\n\ncommands:\n", Commands,
                         "\n'segtime COMMAND --help' describes each command.\n");
  return cli::runCommand(Commands, Argc - 1, Argv + 1, Usage, "segtime", "command");
}
