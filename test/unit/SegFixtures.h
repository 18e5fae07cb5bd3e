//===- SegFixtures.h - SEGs and machines the unit tests build by hand -*- C++ -*-===//
///
/// \file
/// Small builders shared by the predictor's unit tests: a machine of POC and
/// HLLC cost vectors, stages, counted loops and the one-loop function
/// f(n): for (i < n) { s += 1.0 }.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_TEST_UNIT_SEGFIXTURES_H
#define SEGTIME_TEST_UNIT_SEGFIXTURES_H

#include "core/Seg.h"
#include "predictor/Machine.h"

#include <map>
#include <string>

namespace segtime_test {

/// Machine "unit" (path unit.yaml): POC at MflopS Mflop/s and the HLLC costs
/// HllcNs (ns per construct), both for every -O ("any").
inline segtime::Machine unitMachine(double MflopS, const std::map<std::string, double> &HllcNs) {
  segtime::Machine M;
  M.Name = "unit";
  M.Path = "unit.yaml";
  segtime::CostVector &P = M.Levels[segtime::Level::POC]["any"];
  P.Unit = "Mflop/s";
  P.Costs["flop"].Value = MflopS;
  segtime::CostVector &H = M.Levels[segtime::Level::HLLC]["any"];
  H.Unit = "ns";
  for (const auto &[K, V] : HllcNs)
    H.Costs[K].Value = V;
  return M;
}

/// A stage Id counting the HLLC constructs Hllc and Flop POC flop (no POC
/// RUV if Flop is 0).
inline segtime::Node stageNode(const std::string &Id, const std::map<std::string, double> &Hllc,
                               double Flop) {
  segtime::Node N;
  N.Id = Id;
  for (const auto &[K, V] : Hllc)
    N.Ruvs["HLLC"].add(K, V);
  if (Flop)
    N.Ruvs["POC"].add("flop", Flop);
  return N;
}

/// A `for` loop Id over Index from 0 by 1, Trip iterations, around Body.
inline segtime::Node forLoop(const std::string &Id, const std::string &Index,
                             const std::string &Trip, segtime::NodeList Body) {
  segtime::Node L;
  L.Kind = segtime::NodeKind::Loop;
  L.Id = Id;
  L.LoopKind = "for";
  L.Index = Index;
  L.Start = "0";
  L.Step = "1";
  L.Trip = Trip;
  L.Body = std::move(Body);
  return L;
}

/// f(n): for (i < n) { s += 1.0 } at -O2: HLLC n x (loop + f64.add), POC n flop.
inline segtime::SegFile addLoopFile() {
  segtime::SegFile S;
  S.OptLevel = "O2";
  segtime::FunctionSeg F;
  F.Name = "f";
  F.Params = {"n"};
  F.Body = {forLoop("v1", "i", "n", {stageNode("v2", {{"loop", 1}, {"f64.add", 1}}, 1)})};
  S.Functions.push_back(F);
  return S;
}

} // namespace segtime_test

#endif
