//===- MachineCompare.cpp - Agreement of two machine files ----------------===//
///
/// \file
/// `segtime calibrate --compare A B` (see MachineCompare.h).
///
//===----------------------------------------------------------------------===//
#include "tools/calib/MachineCompare.h"

#include "predictor/Machine.h"
#include "predictor/Parkbench.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <map>
#include <sstream>
#include <vector>

using json = nlohmann::json;

namespace segtime {

namespace {

std::string pct(double V) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%.1f%%", V * 100);
  return Buf;
}

std::string num(double V, int Digits) { return yamlNumber(V, Digits); }

} // namespace

int compareMachineFiles(const std::string &PathA, const std::string &PathB, double Tolerance,
                        bool Json, std::ostream &Out) {
  Machine A = readMachine(PathA), B = readMachine(PathB);
  struct Diff {
    std::string Key;
    double A, B, Rel;
  };
  std::map<std::string, std::vector<Diff>> Groups;
  auto Add = [&](const std::string &Group, const std::string &Key, const CostEntry &X,
                 const CostEntry &Y, double Floor) {
    if (X.Provenance != "measured" || Y.Provenance != "measured")
      return;
    if (std::fabs(X.Value) < Floor && std::fabs(Y.Value) < Floor)
      return;
    double Rel = X.Value != 0 ? std::fabs(Y.Value - X.Value) / std::fabs(X.Value) : INFINITY;
    Groups[Group].push_back({Key, X.Value, Y.Value, Rel});
  };
  for (const auto &[Lv, Variants] : A.Levels)
    for (const auto &[Variant, CV] : Variants) {
      auto L = B.Levels.find(Lv);
      if (L == B.Levels.end() || !L->second.count(Variant))
        continue;
      const CostVector &CB = L->second.at(Variant);
      double Floor = CV.Unit == "ns" ? 0.1 : 0;
      for (const auto &[Op, E] : CV.Costs)
        if (CB.Costs.count(Op))
          Add(levelKey(Lv) + " " + Variant, Op, E, CB.Costs.at(Op), Floor);
    }
  for (const auto &[Key, E] : A.Params)
    if (const CostEntry *F = B.param(Key)) {
      size_t D2 = Key.find('.', Key.find('.') + 1);
      Add(Key.substr(0, D2), Key, E, *F, 0);
    }
  int Status = 0;
  json J;
  J["a"] = PathA;
  J["b"] = PathB;
  J["tolerance"] = Tolerance;
  std::ostringstream OS;
  OS << "A = " << PathA << "\nB = " << PathB
     << "\nrelative difference |B - A| / |A| of the numbers measured in both (ns costs under "
        "0.1 ns left out)\n";
  OS << std::left << std::setw(24) << "group" << std::right << std::setw(5) << "n"
     << std::setw(10) << "median" << std::setw(10) << "max" << "  largest difference\n";
  for (auto &[Group, Ds] : Groups) {
    std::vector<double> R;
    for (const Diff &D : Ds)
      R.push_back(D.Rel);
    double Med = median(R);
    auto Worst = std::max_element(Ds.begin(), Ds.end(),
                                  [](const Diff &X, const Diff &Y) { return X.Rel < Y.Rel; });
    bool Ok = Med <= Tolerance;
    if (!Ok)
      Status = 1;
    OS << std::left << std::setw(24) << Group << std::right << std::setw(5) << Ds.size()
       << std::setw(10) << pct(Med) << std::setw(10) << pct(Worst->Rel) << "  " << Worst->Key
       << " (" << num(Worst->A, 4) << " vs " << num(Worst->B, 4) << ")" << (Ok ? "" : "  > tolerance")
       << "\n";
    json G;
    G["n"] = Ds.size();
    G["median"] = Med;
    G["max"] = Worst->Rel;
    G["within_tolerance"] = Ok;
    for (const Diff &D : Ds)
      G["entries"][D.Key] = {{"a", D.A}, {"b", D.B}, {"relative_difference", D.Rel}};
    J["groups"][Group] = G;
  }
  if (Json)
    Out << J.dump(2) << "\n";
  else
    Out << OS.str();
  return Status;
}

} // namespace segtime
