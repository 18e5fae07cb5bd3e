//===- ResourceModel.cpp - One resource model per level -------------------===//
#include "predictor/ResourceModel.h"

using namespace GiNaC;

namespace segtime {

POCModel::POCModel(const Machine &M, const std::string &Opt) {
  const CostVector &V = M.vector("POC", Opt);
  try {
    Rate = V.si("flop");
  } catch (const std::out_of_range &) {
    throw std::runtime_error("machine '" + M.Name + "', level POC: no 'flop' rate");
  }
  if (Rate <= 0)
    throw std::runtime_error("machine '" + M.Name + "', level POC: flop rate must be > 0");
}

StageWeight POCModel::timeWeight() const {
  double R = Rate;
  return [R](const Node &N) -> ex {
    auto It = N.Ruvs.find("POC");
    if (It == N.Ruvs.end())
      return 0;
    return numeric(It->second.get("flop")) / numeric(R);
  };
}

HLLCModel::HLLCModel(const Machine &M, const std::string &O) : MachineName(M.Name), Opt(O) {
  const CostVector &V = M.vector("HLLC", Opt);
  for (auto &[Op, E] : V.Costs)
    Cost[Op] = V.si(Op);
}

StageWeight HLLCModel::timeWeight() const {
  return [this](const Node &N) -> ex {
    auto It = N.Ruvs.find("HLLC");
    if (It == N.Ruvs.end())
      return 0;
    ex T = 0;
    for (auto &[Op, Count] : It->second.counts()) {
      auto C = Cost.find(Op);
      if (C == Cost.end())
        throw std::runtime_error("machine '" + MachineName + "', level HLLC (-" + Opt +
                                 "): no cost for construct '" + Op + "'");
      T += numeric(Count) * numeric(C->second);
    }
    return T;
  };
}

std::unique_ptr<ResourceModel> makeModel(const std::string &Level, const Machine &M,
                                         const std::string &Opt) {
  if (Level == "POC")
    return std::make_unique<POCModel>(M, Opt);
  if (Level == "HLLC")
    return std::make_unique<HLLCModel>(M, Opt);
  throw std::invalid_argument("no resource model for level " + Level + " (available: POC, HLLC)");
}

} // namespace segtime
