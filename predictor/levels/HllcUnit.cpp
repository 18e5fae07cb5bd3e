//===- HllcUnit.cpp - HLLC: high-level language constructs ----------------===//
///
/// \file
/// HLLC (Warwick-94 §3.3.3): the RUV counts C constructs per type (core
/// hllcVocabulary); the model is t = c^T f (eq. 4, HLLCModel) over a cost
/// vector per optimisation level, and a source loop adds the memory time of
/// the IR loop nests attributed to it. `segtime calibrate` fits c by least
/// squares, one construct benchmark per construct, then one multiplier per
/// group of constructs on the training kernels (docs/calibrate.md).
///
//===----------------------------------------------------------------------===//
#include "predictor/levels/LevelUnit.h"
#include "predictor/ResourceModel.h"

#include <algorithm>
#include <initializer_list>

namespace segtime {

namespace {
class HllcUnit final : public UnitOf<Level::HLLC> {
public:
  const char *entryWord() const override { return "construct"; }
  std::unique_ptr<ResourceModel> makeModel(const ModelRequest &R) const override {
    return std::make_unique<HLLCModel>(R.M, R.Opt);
  }
  MemoryTerm memoryTerm() const override { return MemoryTerm::SourceLoops; }

  const std::vector<std::string> &costGroups() const override {
    static const std::vector<std::string> Groups{"fp", "div", "math", "int", "mem", "control"};
    return Groups;
  }
  std::string costGroup(const std::string &Key) const override {
    auto In = [](const std::string &X, std::initializer_list<const char *> L) {
      return std::any_of(L.begin(), L.end(), [&](const char *S) { return X == S; });
    };
    size_t Dot = Key.find('.');
    std::string Type = Dot == std::string::npos ? "" : Key.substr(0, Dot);
    std::string Op = Dot == std::string::npos ? Key : Key.substr(Dot + 1);
    if (Type == "mem")
      return "mem";
    if (In(Key, {"loop", "if", "switch", "call"}))
      return "control";
    if (In(Op, {"div", "rem", "sqrt"}))
      return "div";
    if (In(Op, {"exp", "log", "trig", "pow", "libm"}))
      return "math";
    if (Type == "f32" || Type == "f64")
      return "fp";
    return "int"; // i32.*, i64.*, cvt.*
  }

  CalibFit calibFit() const override { return CalibFit::Costs; }
  FitColumns fitColumns() const override { return FitColumns::Vocabulary; }
  std::vector<std::string> vocabulary() const override {
    std::vector<std::string> R;
    for (const Construct &C : hllcVocabulary())
      R.push_back(C.Name);
    return R;
  }
};
} // namespace

const LevelUnit &hllcUnit() { return unitInstance<HllcUnit>(); }

} // namespace segtime
