//===- PredictedArgs.cpp - Predicted times as template options ------------===//
///
/// \file
/// Rewrites `--seg ... --function ... --machines/--machine ... -p ...` of
/// `segtime hetero`, `farm` and `dc` into --times / --te from
/// predictFunctionTimes (predictor/PredictedSpeed.h).
///
//===----------------------------------------------------------------------===//
#include "tools/PredictedArgs.h"
#include "tools/CommandLine.h"
#include "predictor/Predict.h"

#include "core/Vocabulary.h"
#include "predictor/PredictedSpeed.h"
#include "predictor/levels/LevelUnit.h"

#include <cmath>
#include <cstdio>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace segtime {

std::string predictedArgsUsage(const std::string &Cmd) {
  bool Hetero = Cmd == "hetero";
  return std::string("Times predicted by segtime (docs/templates.md), instead of ") +
         (Hetero ? "--speeds/--times" : "--te") +
         ":\n"
         "  --seg FILE.seg.json  the program, compiled with the segtime plugin\n"
         "  --function F         the function whose predicted time is " +
         (Hetero ? "the program's\n                       time on each workstation\n"
                 : "the task time\n") +
         (Hetero ? "  --machines LIST      machine files with counts: sparc5-70:5,sparc10-30:3\n"
                 : "  --machine NAME|PATH  the machine file of the processors\n") +
         "  -p NAME=VALUE        parameter values (repeatable), as for segtime predict\n"
         "  --level L            icc, intcc, hllc or poc (default: the most detailed\n"
         "                       level every machine predicts)\n"
         "  --target NAME        ICC target (default: as segtime predict)\n\n";
}

PredictedArgs::PredictedArgs(const std::string &Cmd, int Argc, char **Argv) {
  const bool Hetero = Cmd == "hetero";
  std::string Seg, Function;
  std::map<std::string, double> Values;
  std::vector<MachineTime> Times;
  std::vector<unsigned> Counts;
  const std::string MachineFlag = Hetero ? "--machines" : "--machine";
  std::vector<std::string> Machines;
  std::optional<segtime::Level> AtLevel;
  std::string Target, FirstOwn, Conflict;
  bool Own = false;
  cli::ArgReader R(Argc, Argv);
  while (R.next()) {
    std::string A = R.flag();
    auto Next = [&] { return R.value(); };
    bool Mine = true;
    if (A == "--seg") {
      Seg = Next();
    } else if (A == "--function") {
      Function = Next();
    } else if (A == MachineFlag) {
      if (!Hetero) {
        Machines = {Next()};
        Counts = {1};
        continue;
      }
      std::string L = Next();
      for (const std::string &Item : cli::splitList(A, L)) {
        size_t C = Item.rfind(':');
        std::string Name = Item.substr(0, C);
        try {
          Counts.push_back(C == std::string::npos
                               ? 1
                               : cli::parseWhole(A, Item.substr(C + 1), 1, 999999));
        } catch (const cli::UsageError &) {
          Name.clear();
        }
        if (Name.empty())
          throw cli::UsageError(MachineFlag + ": '" + Item +
                                "' is not NAME or NAME:COUNT (COUNT >= 1)");
        Machines.push_back(Name);
      }
    } else if (A == "-p" || A == "--param") {
      auto [Name, V] = parseParamAssignment(Next());
      Values[Name] = V;
    } else if (A == "--level") {
      std::string L = Next();
      segtime::Level Lv;
      if (!parseLevel(L, Lv) || !segtime::costedLevel(Lv))
        throw std::runtime_error("--level: '" + L + "' is not one of icc, intcc, hllc, poc");
      AtLevel = Lv;
    } else if (A == "--target") {
      Target = Next();
    } else {
      Mine = false;
      if (Hetero ? (A == "--times" || A == "--speeds") : A == "--te")
        Conflict = A;
      Args.push_back(A);
    }
    if (Mine && A != "--seg" && FirstOwn.empty())
      FirstOwn = A;
    Own = Own || Mine;
  }
  if (Own) {
    if (Seg.empty())
      throw std::runtime_error(FirstOwn + " needs --seg FILE.seg.json (see segtime " + Cmd +
                               " --help)");
    if (!Conflict.empty())
      throw std::runtime_error("--seg predicts the times: drop " + Conflict);
    if (Function.empty())
      throw std::runtime_error("--seg needs --function F (the function to predict)");
    if (Machines.empty())
      throw std::runtime_error("--seg needs " + MachineFlag +
                               (Hetero ? " NAME:COUNT,..." : " NAME|PATH"));
    SegFile S = SegFile::read(Seg);
    if (!S.find(Function))
      throw std::runtime_error(Seg + ": no function '" + Function + "' (--function)");
    Times = predictFunctionTimes(S, Function, Machines, Values, AtLevel, Target);
    std::string List;
    char Buf[64];
    for (size_t J = 0; J < Times.size(); ++J)
      for (unsigned K = 0; K < Counts[J]; ++K) {
        std::snprintf(Buf, sizeof Buf, "%.17g", Times[J].TimeS);
        List += (List.empty() ? "" : ",") + std::string(Buf);
        if (!Hetero)
          break;
      }
    Args.push_back(Hetero ? "--times" : "--te");
    Args.push_back(List);

    Active = true;
    json Ms = json::array();
    for (size_t J = 0; J < Times.size(); ++J)
      Ms.push_back({{"name", Times[J].Machine},
                    {"file", Times[J].Path},
                    {"count", Counts[J]},
                    {"time_s", Times[J].TimeS},
                    {"target", Times[J].Target}});
    Info = {{"seg", Seg},
            {"function", Function},
            {"level", levelKey(Times[0].Level)},
            {"values", Values},
            {"machines", Ms}};
    std::ostringstream OS;
    OS << "predicted time of " << Function << " (" << Seg << ", " << levelKey(Times[0].Level)
       << (Times[0].Target.empty() ? "" : " " + Times[0].Target) << ")";
    const char *Sep = " at ";
    for (const auto &[N, V] : Values) {
      OS << Sep << N << "=" << V;
      Sep = ", ";
    }
    OS << ":\n";
    for (size_t J = 0; J < Times.size(); ++J)
      OS << "  " << Times[J].Machine << " x" << Counts[J] << "  "
         << formatSeconds(Times[J].TimeS) << "  (" << Times[J].Path << ")\n";
    OS << "\n";
    Text = OS.str();
  }
  for (std::string &A : Args)
    Ptrs.push_back(A.data());
}

} // namespace segtime
