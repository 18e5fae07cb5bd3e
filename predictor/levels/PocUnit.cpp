//===- PocUnit.cpp - POC: principal operation counts ----------------------===//
///
/// \file
/// POC (Warwick-94 §3.3.2): the RUV counts McMahon-weighted flop (core
/// pocFlop, mcmahonWeight); the model is t = N_flop / R_fpu (eq. 6), R_fpu
/// the machine's POC rate in Mflop/s, which `segtime calibrate` measures as
/// total flop / total time of in-cache kernels (PARKBENCH-93 RINF1 style).
/// No memory term: the level counts flop only.
///
//===----------------------------------------------------------------------===//
#include "predictor/levels/LevelUnit.h"
#include "predictor/ResourceModel.h"

using namespace GiNaC;

namespace segtime {

POCModel::POCModel(const Machine &M, const std::string &Opt) {
  const CostVector &V = M.vector(Level::POC, Opt);
  try {
    Rate = V.si(pocFlop());
  } catch (const std::out_of_range &) {
    throw std::runtime_error("machine '" + M.Name + "', level POC: no 'flop' rate");
  }
  if (Rate <= 0)
    throw std::runtime_error("machine '" + M.Name + "', level POC: flop rate must be > 0");
}

StageWeight POCModel::timeWeight() const {
  double R = Rate;
  return [R](const Node &N) -> ex {
    auto It = N.Ruvs.find(levelKey(Level::POC));
    if (It == N.Ruvs.end())
      return 0;
    return numeric(It->second.get(pocFlop())) / numeric(R);
  };
}

namespace {
class PocUnit final : public UnitOf<Level::POC> {
public:
  bool costIsRate() const override { return true; }
  std::unique_ptr<ResourceModel> makeModel(const ModelRequest &R) const override {
    return std::make_unique<POCModel>(R.M, R.Opt);
  }
  CalibFit calibFit() const override { return CalibFit::FlopRate; }
  std::vector<std::string> vocabulary() const override { return {pocFlop()}; }
  std::vector<std::string> alwaysCounted() const override { return {pocFlop()}; }
  void printCounts(std::ostream &OS, const std::map<std::string, double> &Counts,
                   const std::string &) const override {
    OS << "   (" << Counts.at(pocFlop()) << " flop)";
  }
};
} // namespace

const LevelUnit &pocUnit() { return unitInstance<PocUnit>(); }

} // namespace segtime
