//===- ResourceModel.cpp - One resource model per level -------------------===//
///
/// \file
/// The cost-vector model every counted level shares and makeModel; the
/// level-specific models are with their level units (predictor/levels:
/// POCModel in PocUnit.cpp, ICCModel in IccUnit.cpp).
///
//===----------------------------------------------------------------------===//
#include "predictor/ResourceModel.h"
#include "predictor/Expr.h"
#include "core/Vocabulary.h"
#include "predictor/levels/LevelUnit.h"

#include <algorithm>
#include <cmath>

using namespace GiNaC;

namespace segtime {

CostVectorModel::CostVectorModel(const Machine &M, Level L, const std::string &V)
    : MachineName(M.Name), Lv(L), Variant(V), RuvKey(ruvKey(L, V)) {
  const CostVector &CV = M.vector(Lv, Variant);
  for (auto &[Op, E] : CV.Costs)
    Cost[Op] = CV.si(Op);
}

std::string CostVectorModel::costKey(const std::string &Op) const {
  if (Cost.count(Op))
    return Op;
  size_t Dot = Op.find('.');
  if (Dot != std::string::npos && Cost.count(Op.substr(0, Dot) + ".*"))
    return Op.substr(0, Dot) + ".*";
  if (Cost.count("*"))
    return "*";
  const LevelUnit &U = levelUnit(Lv);
  throw std::runtime_error("machine '" + MachineName + "', level " + U.key() + " (" +
                           (U.perTarget() ? "target " + Variant : "-" + Variant) +
                           "): no cost for " + U.entryWord() + " '" + Op + "'");
}

double CostVectorModel::cost(const std::string &Op) const { return Cost.at(costKey(Op)); }

StageWeight CostVectorModel::timeWeight() const {
  return [this](const Node &N) -> ex {
    auto It = N.Ruvs.find(RuvKey);
    if (It == N.Ruvs.end())
      return 0;
    ex T = 0;
    for (auto &[Op, Count] : It->second.counts())
      if (!Uncosted.count(Op) && !costedElsewhere(Op))
        T += numeric(Count) * numeric(cost(Op));
    return T;
  };
}

std::unique_ptr<ResourceModel> makeModel(Level L, const Machine &M,
                                         const std::string &Opt, const std::string &Target,
                                         std::set<std::string> KnownOutcomes) {
  return levelUnit(L).makeModel({M, Opt, Target, std::move(KnownOutcomes)});
}

ex unlearnedShare(const ex &M, double H) {
  if (is_a<numeric>(M) && ex_to<numeric>(M).to_double() <= 0)
    return 0;
  return segtime::min(ex(1), segtime::max(ex(0), log(M / numeric(H)) / log(numeric(2)) + numeric(1, 2)));
}

double replayHalfPoint(const std::vector<std::pair<double, double>> &Points) {
  if (Points.size() < 2 || Points.back().second <= 0.5)
    return 0;
  for (size_t I = Points.size() - 1; I-- > 0;)
    if (Points[I].second <= 0.5) {
      auto [M0, U0] = Points[I];
      auto [M1, U1] = Points[I + 1];
      return M0 * std::pow(M1 / M0, (0.5 - U0) / std::max(U1 - U0, 1e-12));
    }
  return 0;
}

} // namespace segtime
