//===- PredictedSpeed.cpp - Predicted times of one function on machines ---===//
///
/// \file
/// predictFunctionTimes (speeds for the parallel templates) and
/// MachineComparison (`segtime predict` with several --machine).
///
//===----------------------------------------------------------------------===//
#include "predictor/PredictedSpeed.h"
#include "predictor/levels/LevelUnit.h"

#include <algorithm>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace segtime {

void addOptionalIrLevels(const SegFile &S, const Machine &M, bool HasIR, PredictOptions &O) {
  std::optional<std::string> T = iccTarget(S, M, O.Target);
  for (const LevelUnit *U : levelUnits()) {
    if (!HasIR || !U->costed() || !irLevel(U->level()))
      continue;
    if (U->perTarget() ? T && U->machineHas(M, *T) : U->machineHas(M, "")) {
      O.Levels.push_back(U->level());
      O.Optional.insert(U->level());
    }
  }
}

void addDefaultLevels(const SegFile &S, const Machine &M, PredictOptions &O) {
  // The source levels (POC, HLLC) are in every default; a machine file
  // without them (ICC and memory only) leaves them out with a note.
  for (auto It = O.Levels.begin(); It != O.Levels.end();)
    if (!irLevel(*It) && !levelUnit(*It).machineHas(M, "")) {
      O.LeftOut[*It] = "machine '" + M.Name + "' has no " + levelKey(*It) + " cost vector";
      It = O.Levels.erase(It);
    } else {
      ++It;
    }
  bool HasIR = std::any_of(S.Functions.begin(), S.Functions.end(),
                           [](const FunctionSeg &F) { return F.LevelSegs.count(IrSegKey); });
  addOptionalIrLevels(S, M, HasIR, O);
}

std::vector<MachineTime> predictFunctionTimes(const SegFile &S, const std::string &Function,
                                              const std::vector<std::string> &Machines,
                                              const std::map<std::string, double> &Values,
                                              std::optional<Level> AtLevel,
                                              const std::string &Target) {
  if (Machines.empty())
    throw std::runtime_error("no machine given");
  if (!S.find(Function))
    throw std::runtime_error("no function '" + Function + "' in the SEG file");
  std::vector<Prediction> Ps;
  for (const std::string &Name : Machines) {
    Machine M = readMachine(findMachine(Name));
    PredictOptions O;
    O.Functions = {Function};
    O.Values = Values;
    O.Target = Target;
    if (!AtLevel)
      addDefaultLevels(S, M, O);
    else
      O.Levels = {*AtLevel};
    Prediction P = predict(S, M, O);
    const FunctionPrediction &F = P.Functions.at(0);
    if (!F.Error.empty())
      throw std::runtime_error("machine " + M.Name + ": " + F.Error);
    Ps.push_back(std::move(P));
  }
  std::optional<Level> Chosen = AtLevel;
  if (!Chosen) {
    for (Level L : costedLevelsMostDetailedFirst())
      if (std::all_of(Ps.begin(), Ps.end(),
                      [&](const Prediction &P) { return P.Functions[0].Levels.count(L); })) {
        Chosen = L;
        break;
      }
    if (!Chosen)
      throw std::runtime_error("no level predicts " + Function + " on every machine");
  }
  std::vector<MachineTime> R;
  for (const Prediction &P : Ps) {
    const LevelPrediction &LP = P.Functions[0].Levels.at(*Chosen);
    if (!(LP.TimeS > 0))
      throw std::runtime_error("machine " + P.MachineName + ": the predicted time of " + Function +
                               " at " + levelKey(*Chosen) + " is " + formatSeconds(LP.TimeS) +
                               "; a speed needs a time > 0");
    R.push_back({P.MachineName, P.MachinePath, *Chosen, levelUnit(*Chosen).perTarget() ? P.Target : "",
                 LP.TimeS});
  }
  return R;
}

namespace {

/// The time of Level of the function named Fn in P, or nullptr.
const LevelPrediction *levelOf(const Prediction &P, const std::string &Fn, Level L) {
  for (const FunctionPrediction &F : P.Functions)
    if (F.Name == Fn && F.Error.empty()) {
      auto It = F.Levels.find(L);
      return It == F.Levels.end() ? nullptr : &It->second;
    }
  return nullptr;
}

std::string pad(const std::string &S, size_t W) {
  return S.size() >= W ? S + " " : S + std::string(W - S.size(), ' ');
}

std::string rtrim(std::string S) {
  S.erase(S.find_last_not_of(' ') + 1);
  return S;
}

std::string fmtRatio(double R) {
  std::ostringstream OS;
  OS << std::setprecision(3) << R;
  return OS.str();
}

} // namespace

int MachineComparison::exitStatus() const {
  int St = 0;
  for (const Prediction &P : Predictions)
    St = std::max(St, P.exitStatus());
  return St;
}

json MachineComparison::toJSON() const {
  json Ms = json::array();
  const Prediction &First = Predictions.at(0);
  for (const Prediction &P : Predictions) {
    json J = P.toJSON();
    json Ratios = json::object();
    for (const FunctionPrediction &F : P.Functions)
      for (const auto &[L, LP] : F.Levels) {
        const LevelPrediction *A = levelOf(First, F.Name, L);
        if (A && LP.TimeS > 0)
          Ratios[F.Name][levelKey(L)] = A->TimeS / LP.TimeS;
      }
    J["ratio_to_first"] = Ratios;
    Ms.push_back(std::move(J));
  }
  return json{{"machines", Ms}};
}

void MachineComparison::printText(std::ostream &OS) const {
  const Prediction &First = Predictions.at(0);
  OS << "machines (ratio = time on " << First.MachineName
     << " / time on the machine, i.e. speed relative to it):\n";
  for (const Prediction &P : Predictions)
    OS << "  " << P.MachineName << " (" << P.MachinePath << ")"
       << (P.Target.empty() ? "" : ", ICC target " + P.Target) << "\n";
  OS << "code compiled at -" << First.OptLevel << "\n";
  const size_t W = 22;
  for (const FunctionPrediction &F : First.Functions) {
    std::string Head = "  " + pad("level", 7);
    for (const Prediction &P : Predictions)
      Head += pad(P.MachineName, W);
    OS << "\n" << F.Name << " (" << F.Where << ")\n" << rtrim(Head) << "\n";
    std::set<Level, LevelKeyOrder> Levels;
    for (const Prediction &P : Predictions)
      for (const FunctionPrediction &G : P.Functions)
        if (G.Name == F.Name)
          for (const auto &KV : G.Levels)
            Levels.insert(KV.first);
    for (Level L : Levels) {
      std::string Row = "  " + pad(levelKey(L), 7);
      const LevelPrediction *A = levelOf(First, F.Name, L);
      for (const Prediction &P : Predictions) {
        const LevelPrediction *B = levelOf(P, F.Name, L);
        std::string Cell = "-";
        if (B) {
          Cell = formatSeconds(B->TimeS);
          if (&P != &First && A && B->TimeS > 0)
            Cell += " (" + fmtRatio(A->TimeS / B->TimeS) + ")";
        }
        Row += pad(Cell, W);
      }
      OS << rtrim(Row) << "\n";
    }
    for (const Prediction &P : Predictions)
      for (const FunctionPrediction &G : P.Functions)
        if (G.Name == F.Name && !G.Error.empty())
          OS << "  " << P.MachineName << ": error: " << G.Error << "\n";
  }
}

} // namespace segtime
