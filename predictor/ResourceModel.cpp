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

CostVectorModel::CostVectorModel(const Machine &M, const std::string &L, const std::string &V,
                                 const std::string &K)
    : MachineName(M.Name), Level(L), Variant(V), RuvKey(K) {
  const CostVector &CV = M.vector(Level, Variant);
  for (auto &[Op, E] : CV.Costs)
    Cost[Op] = CV.si(Op);
}

double CostVectorModel::cost(const std::string &Op) const {
  auto C = Cost.find(Op);
  if (C == Cost.end()) {
    size_t Dot = Op.find('.');
    if (Dot != std::string::npos)
      C = Cost.find(Op.substr(0, Dot) + ".*");
  }
  if (C == Cost.end())
    C = Cost.find("*");
  if (C == Cost.end())
    throw std::runtime_error("machine '" + MachineName + "', level " + Level + " (" +
                             (Level == "ICC" ? "target " + Variant : "-" + Variant) +
                             "): no cost for " + (Level == "HLLC" ? "construct" : "operation") +
                             " '" + Op + "'");
  return C->second;
}

StageWeight CostVectorModel::timeWeight() const {
  return [this](const Node &N) -> ex {
    auto It = N.Ruvs.find(RuvKey);
    if (It == N.Ruvs.end())
      return 0;
    ex T = 0;
    for (auto &[Op, Count] : It->second.counts())
      T += numeric(Count) * numeric(cost(Op));
    return T;
  };
}

std::unique_ptr<ResourceModel> makeModel(const std::string &Level, const Machine &M,
                                         const std::string &Opt, const std::string &Target) {
  if (Level == "POC")
    return std::make_unique<POCModel>(M, Opt);
  if (Level == "HLLC")
    return std::make_unique<HLLCModel>(M, Opt);
  if (Level == "INTCC")
    return std::make_unique<CostVectorModel>(M, "INTCC", Opt, "INTCC");
  if (Level == "ICC") {
    if (Target.empty())
      throw std::invalid_argument("level ICC needs a target");
    return std::make_unique<CostVectorModel>(M, "ICC", Target, "ICC:" + Target);
  }
  throw std::invalid_argument("no resource model for level " + Level +
                              " (available: POC, HLLC, INTCC, ICC)");
}

} // namespace segtime
