//===- HllcUnit.cpp - HLLC: high-level language constructs ----------------===//
///
/// \file
/// HLLC (Warwick-94 §3.3.3): the RUV counts C constructs per type (core
/// hllcVocabulary); the model is t = c^T f (eq. 4, HLLCModel) over a cost
/// vector per optimisation level, and a source loop adds the memory time of
/// the IR loop nests attributed to it. `segtime calibrate` fits c by least
/// squares, one construct benchmark per construct, then one multiplier per
/// group of constructs on the training kernels (docs/calibrate.md). At -O0
/// a loop iteration lasts at least its longest loop-carried scalar chain
/// (HLLCModel::chainBound, docs/models.md "HLLC at -O0").
///
//===----------------------------------------------------------------------===//
#include "predictor/levels/LevelUnit.h"
#include "predictor/ResourceModel.h"

#include "predictor/Expr.h"

#include <algorithm>
#include <initializer_list>

namespace segtime {

HLLCModel::HLLCModel(const Machine &M, const std::string &Opt)
    : CostVectorModel(M, Level::HLLC, Opt) {
  const CostVector &CV = M.vector(Level::HLLC, Opt);
  for (const std::string &E : chainEntries())
    if (CV.Costs.count(E))
      Chain[E] = CV.si(E);
  if (CV.Costs.count(windowEntry()))
    Window = CV.si(windowEntry());
}

const std::vector<std::string> &HLLCModel::chainEntries() {
  static const std::vector<std::string> E{"chain.int.forward", "chain.fp.forward",
                                          "chain.int.op",      "chain.fp.add",
                                          "chain.fp.mul",      "chain.mem.read"};
  return E;
}

double HLLCModel::chainLatency(const std::string &Key, const Ruv &C) const {
  // "chain.<type>:<name>"
  std::string Type = Key.substr(6, Key.find(':') == std::string::npos ? std::string::npos
                                                                      : Key.find(':') - 6);
  bool Fp = Type == "f32" || Type == "f64";
  double Reads = 0, Writes = 0, T = 0;
  for (auto &[Op, N] : C.counts()) {
    if (Op == restartCount())
      continue; // a mark, not a construct
    size_t Dot = Op.find('.');
    std::string Ty = Dot == std::string::npos ? Op : Op.substr(0, Dot);
    std::string What = Dot == std::string::npos ? "" : Op.substr(Dot + 1);
    if (Ty == "mem") {
      if (What.size() > 5 && What.compare(What.size() - 5, 5, ".read") == 0)
        Reads += N;
      else if (What.size() > 6 && What.compare(What.size() - 6, 6, ".write") == 0)
        Writes += N;
      continue;
    }
    bool FpOp = Ty == "f32" || Ty == "f64";
    if (Ty == "cvt" || (FpOp && (What == "add" || What == "sub" || What == "abs" || What == "cmp")))
      T += N * Chain.at("chain.fp.add");
    else if (FpOp && What == "mul")
      T += N * Chain.at("chain.fp.mul");
    else if (!FpOp && (What == "add" || What == "sub" || What == "bit" || What == "shift" ||
                       What == "cmp"))
      T += N * Chain.at("chain.int.op");
    else if (!FpOp && What == "mul")
      T += N * 3 * Chain.at("chain.int.op");
    else
      T += N * cost(Op);
  }
  T += Writes * Chain.at(Fp ? "chain.fp.forward" : "chain.int.forward");
  if (Reads > Writes)
    T += (Reads - Writes) * Chain.at("chain.mem.read");
  return T;
}

double HLLCModel::loopChainLatency(const Node &L, std::optional<bool> Restarted) const {
  if (!hasChainCosts())
    return 0;
  double Longest = 0;
  for (auto &[Key, C] : L.Ruvs)
    if (isChainKey(Key) && (!Restarted || (C.get(restartCount()) > 0) == *Restarted))
      Longest = std::max(Longest, chainLatency(Key, C));
  return Longest;
}

GiNaC::ex HLLCModel::chainPerIteration(const Node &L, const GiNaC::ex &Core) const {
  if (Window <= 0)
    return GiNaC::numeric(loopChainLatency(L));
  double Carried = loopChainLatency(L, false), Restart = loopChainLatency(L, true);
  if (Restart <= Carried)
    return GiNaC::numeric(Carried);
  // Little's law over the executions of L: one execution's chain lasts
  // Trip x Restart; the window holds T_w / Core executions (at least one),
  // so an iteration costs Restart x min(1, Core / T_w) of chain.
  GiNaC::ex Share = Core / GiNaC::numeric(Window);
  GiNaC::ex R;
  if (GiNaC::is_a<GiNaC::numeric>(Share))
    R = GiNaC::numeric(Restart * std::min(1.0, GiNaC::ex_to<GiNaC::numeric>(Share).to_double()));
  else
    R = GiNaC::numeric(Restart) * min(GiNaC::numeric(1), Share);
  if (Carried <= 0)
    return R;
  if (GiNaC::is_a<GiNaC::numeric>(R))
    return GiNaC::numeric(std::max(Carried, GiNaC::ex_to<GiNaC::numeric>(R).to_double()));
  return max(GiNaC::numeric(Carried), R);
}

GiNaC::ex HLLCModel::chainBound(const Node &L, const GiNaC::ex &Core) const {
  if (loopChainLatency(L) <= 0)
    return Core;
  GiNaC::ex Trip = parseExpr(L.Trip);
  if (Trip.is_zero())
    return Core;
  // Per iteration where the body's cost is a number (the usual innermost
  // loop: Core = trip x body): trip x max(body, chain), a polynomial that
  // enclosing (triangular) loops still sum in closed form (the window of
  // restarted chains adds a min in the trip when the trip is a symbol).
  GiNaC::ex Lat = chainPerIteration(L, Core);
  GiNaC::ex PerIter = GiNaC::expand(Core / Trip);
  if (GiNaC::is_a<GiNaC::numeric>(PerIter)) {
    double P = GiNaC::ex_to<GiNaC::numeric>(PerIter).to_double();
    if (GiNaC::is_a<GiNaC::numeric>(Lat))
      return Trip * GiNaC::numeric(std::max(P, GiNaC::ex_to<GiNaC::numeric>(Lat).to_double()));
    return Trip * max(GiNaC::numeric(P), Lat);
  }
  // Otherwise (branch probabilities, parameters in the body) for an
  // innermost loop, the symbolic max; a loop with inner loops keeps its
  // core: its own chains (its counter) are short against its inner loops.
  bool Inner = false;
  forEachNode(L.Body, [&](const Node &Y) { Inner |= Y.Kind == NodeKind::Loop; });
  if (Inner)
    return Core;
  return max(Core, Trip * Lat);
}

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
