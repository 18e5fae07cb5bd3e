//===- PredictSummary.cpp - The plugin's compile-time summary -------------===//
///
/// \file
/// compileTimeSummary() (predictor/Predict.h): the text the clang plugin
/// prints per main-file function at compile time (it runs `segtime predict
/// --summary N` on the .seg.json it wrote, plugin/CompileSummary.h): the
/// structural formula, the POC flop count, the POC and HLLC closed-form
/// times and the ICC prediction of predict() or what it needs.
///
//===----------------------------------------------------------------------===//
#include "predictor/Predict.h"
#include "predictor/PredictDetail.h"
#include "predictor/PredictedSpeed.h"
#include "predictor/levels/LevelUnit.h"

#include <iomanip>
#include <sstream>

using namespace GiNaC;

namespace segtime {
using namespace predict_detail;

bool printIccSummaryLine(std::ostream &OS, const std::string &Head, const FunctionPrediction &FP) {
  auto It = FP.Levels.find(Level::ICC);
  if (It != FP.Levels.end()) {
    const LevelPrediction &LP = It->second;
    OS << Head << " = " << formatSeconds(LP.TimeS);
    std::string Sep = "   (";
    for (const char *K : {"instructions", "cycles"})
      if (LP.Counts.count(K)) {
        OS << Sep << LP.Counts.at(K) << " " << K;
        Sep = ", ";
      }
    if (Sep == ", ")
      OS << ")";
    std::string At;
    for (const ParamValue &V : FP.Params) {
      std::ostringstream X;
      X << V.Name << "=" << V.Value << (V.Source == "user" ? "" : " [" + V.Source + "]");
      At += (At.empty() ? " at " : ", ") + X.str();
    }
    OS << At << "\n";
    return true;
  }
  if (FP.Missing.empty())
    return false;
  std::string Needs;
  for (const MissingValue &V : FP.Missing)
    Needs += (Needs.empty() ? "" : ", ") + V.Name;
  OS << Head << ": needs " << Needs << " (-fplugin-arg-segtime-p=NAME=VALUE)\n";
  return true;
}

/// The ICC line of the compile-time summary for one function: its
/// prediction by predict() (time, instructions, cycles) or, where values
/// are missing, what it needs and the closed-form instruction count if it
/// is short.
static void printIccLine(std::ostream &OS, FormulaBuilder &FB, const FunctionPrediction &FP,
                         const std::string &MachineName, const std::string &Target) {
  const std::string Head = "  ICC   t on " + MachineName + " (" + Target + ")";
  if (!printIccSummaryLine(OS, Head, FP)) {
    const std::string Pre = levelKey(Level::ICC) + " not predicted: ";
    std::string Why = FP.Error;
    for (const std::string &N : FP.Notes)
      if (Why.empty() && N.compare(0, Pre.size(), Pre) == 0)
        Why = N.substr(Pre.size());
    OS << Head << ": not predicted: " << (Why.empty() ? "no ICC data" : Why) << "\n";
    return;
  }
  if (FP.Levels.count(Level::ICC))
    return;
  // Values were missing: the instruction count's closed form, if short.
  try {
    const std::string Key = ruvKey(Level::ICC, Target);
    ex I = FB.closedForm(FP.Name, countWeight(Key, "instructions"),
                         "count:" + Key + ":instructions", levelKey(Level::ICC));
    // Only a short one: the exact IR-level forms (remainders of unrolled
    // loops, guards) of most loops are not for reading at compile time.
    FormulaText Text = toFormulaText(I);
    if (!I.is_zero() && Text.Defs.empty() && Text.Formula.size() <= 160)
      OS << "  ICC   instructions = " << Text.Formula << "\n";
  } catch (const std::exception &) {
    // (the time line above already says what is missing)
  }
}

std::string compileTimeSummary(const SegFile &File, const std::string &MachineName,
                               const std::map<std::string, double> &Values,
                               size_t MaxFunctions) {
  std::ostringstream OS;
  std::unique_ptr<Machine> M;
  std::string MachineNote;
  try {
    M = std::make_unique<Machine>(readMachine(findMachine(MachineName)));
  } catch (const std::exception &E) {
    MachineNote = E.what();
  }
  std::vector<const FunctionSeg *> Shown;
  size_t NotShown = 0;
  for (const FunctionSeg &F : File.Functions)
    if (F.InMainFile && Shown.size() < MaxFunctions)
      Shown.push_back(&F);
    else if (F.InMainFile)
      ++NotShown;
  // ICC: the prediction of segtime predict itself (the same models: overlap
  // of iterations, memory term) for the first target of the file that the
  // machine has a cost vector for.
  std::string Target, IccNote;
  Prediction Icc;
  std::map<std::string, const FunctionPrediction *> IccOf;
  if (M && !Shown.empty()) {
    if (auto T = iccTarget(File, *M, "")) {
      Target = *T;
      PredictOptions PO;
      PO.Levels = {Level::ICC};
      PO.Optional = {Level::ICC};
      PO.Values = Values;
      for (const FunctionSeg *F : Shown)
        PO.Functions.push_back(F->Name);
      try {
        checkValues(File, PO);
        Icc = predict(File, *M, PO);
        for (const FunctionPrediction &FP : Icc.Functions)
          IccOf[FP.Name] = &FP;
        for (const std::string &U : Icc.UnusedValues)
          IccNote += "segtime: -fplugin-arg-segtime-p: no function uses '" + U + "'\n";
      } catch (const std::exception &E) {
        IccNote = "segtime: no ICC predictions: " + std::string(E.what()) + "\n";
      }
    }
  }
  FormulaBuilder FB(File);
  // Long closed forms (a whole main()) are cut.
  const std::string Whole = "in segtime predict --json";
  for (const FunctionSeg *FPtr : Shown) {
    const FunctionSeg &F = *FPtr;
    OS << "segtime: " << F.Name << " (" << F.Range.File << ":" << F.Range.Line << ", -"
       << File.OptLevel << ")\n";
    OS << "  " << FB.structural(F.Name) << "\n";
    try {
      const std::string Poc = levelKey(Level::POC);
      ex Flop = FB.closedForm(F.Name, countWeight(Poc, "flop"), "count:" + Poc + ":flop");
      OS << "  POC   flop = " << cutFormula(toFormulaText(Flop), 240, Whole) << "\n";
      ex C = FB.closedForm(F.Name, commWeight(), "comm");
      if (!C.is_zero())
        OS << "  COMM  t = " << cutFormula(toFormulaText(C), 240, Whole) << " s (docs/mpi.md)\n";
      if (M)
        for (const LevelUnit *U : levelUnits()) {
          const Level L = U->level(); // the source levels: the closed forms of the plugin
          if (!U->costed() || irLevel(L))
            continue;
          auto Model = makeModel(L, *M, File.OptLevel);
          ex T = FB.closedForm(F.Name, Model->timeWeight(), timeKey(L));
          OS << "  " << std::left << std::setw(5) << levelKey(L) << " t on " << M->Name << " = "
             << cutFormula(toFormulaText(T), 240, Whole) << " s\n";
        }
    } catch (const std::exception &E) {
      OS << "  (no closed form: " << E.what() << ")\n";
    }
    if (auto It = IccOf.find(F.Name); It != IccOf.end())
      printIccLine(OS, FB, *It->second, M->Name, Target);
  }
  if (NotShown)
    OS << "segtime: " << NotShown << " more functions of the main file not shown "
       << "(segtime predict FILE.seg.json)\n";
  OS << IccNote;
  if (!MachineNote.empty())
    OS << "segtime: no times printed: " << MachineNote << "\n";
  return OS.str();
}
} // namespace segtime
