//===- IccUnit.cpp - ICC: machine-code constructs -------------------------===//
///
/// \file
/// ICC (Warwick-94 §3.3.5): the RUV counts each target's machine code per
/// IR block (instructions, µops, llvm-mca cycles, loads, stores, branches;
/// RUV key "ICC:<target>"), on the IR-level SEG; the cost vector is per
/// target. The model (ICCModel, docs/models.md "ICC"): cycles x t_cyc, the
/// math-library calls at their ICC or HLLC cost, branch mispredictions, the
/// out-of-order overlap of loop iterations; each IR loop nest adds its memory
/// term, which is part of the model (ECM where the nest's streams are known,
/// predictor/LoopModels.cpp). `segtime calibrate` measures t_cyc (a chain of
/// dependent adds) and the misprediction penalty (tools/calib/CalibIcc.cpp).
///
//===----------------------------------------------------------------------===//
#include "predictor/levels/LevelUnit.h"
#include "core/Vocabulary.h"
#include "predictor/Expr.h"
#include "predictor/Overlap.h"
#include "predictor/ResourceModel.h"

#include <algorithm>
#include <functional>

using namespace GiNaC;

namespace segtime {

/// The class of masked vector stores (passes/IccChains.h addMaskedStores;
/// machine entry throughput.store.masked).
static constexpr const char *kMaskedStore = "store.masked";
/// Vector loads across a cache line (passes/IccChains.h addSplitLoads;
/// machine entry throughput.load.split).
static constexpr const char *kSplitLoad = "load.split";

ICCModel::ICCModel(const Machine &M, const std::string &Target, const std::string &Opt)
    : CostVectorModel(M, Level::ICC, Target) {
  const CostVector &ICC = M.vector(Level::ICC, Target);
  for (auto &[Op, E] : ICC.Costs)
    if (Op.rfind("call.", 0) == 0)
      CallCost[Op.substr(5)] = ICC.si(Op);
  if (M.has(Level::HLLC, Opt)) {
    const CostVector &H = M.vector(Level::HLLC, Opt);
    for (auto &[Op, E] : H.Costs)
      HllcCost[Op] = H.si(Op);
  }
  Uncosted.insert("branch.cond.data");
  Uncosted.insert("branch.chain.load");
  for (const std::string &Class : latencyClasses())
    if (ICC.Costs.count("latency." + Class))
      Latency[Class] = ICC.si("latency." + Class) / cost("cycles");
  for (const std::string &Class : throughputClasses())
    if (ICC.Costs.count("throughput." + Class))
      Throughput[Class] = ICC.si("throughput." + Class) / cost("cycles");
  for (const std::string Extra : {kMaskedStore, kSplitLoad})
    if (ICC.Costs.count("throughput." + Extra))
      Throughput[Extra] = ICC.si("throughput." + Extra) / cost("cycles");
  if (auto R = ICC.Costs.find("reorder_buffer"); R != ICC.Costs.end() && R->second.Value > 0)
    Rob = R->second.Value; // micro-ops, not a time: never an RUV key
  if (auto R = ICC.Costs.find("reorder_window"); R != ICC.Costs.end() && R->second.Value > 0)
    RetireWindow = R->second.Value; // micro-ops
  if (auto R = ICC.Costs.find("branch.replay_half"); R != ICC.Costs.end() && R->second.Value > 0)
    ReplayHalf = R->second.Value; // outcomes per call, not a time: never an RUV key
  if (auto R = ICC.Costs.find("branch.replay_half_search");
      R != ICC.Costs.end() && R->second.Value > 0)
    ReplayHalfSearch = R->second.Value; // outcomes per call
  if (auto P = ICC.Costs.find("branch.mispredict"); P != ICC.Costs.end()) {
    Penalty = ICC.si("branch.mispredict");
    PenaltyFrom = P->second.Provenance + ": " + P->second.Ref;
  } else {
    Penalty = kDatasheetMispredictCycles * cost("cycles");
    PenaltyFrom = "datasheet: " + std::to_string(int(kDatasheetMispredictCycles)) +
                  " cycles (Intel Ice Lake, Agner Fog's microarchitecture guide) x the "
                  "entry 'cycles'; machine file has no ICC 'branch.mispredict'";
  }
}

const std::vector<std::string> &ICCModel::latencyClasses() {
  // As passes/IccChains.cpp records them ("other" has no entry).
  static const std::vector<std::string> C{"fp.add", "fp.mul", "fp.fma",
                                          "fp.div", "int.mul", "load"};
  return C;
}

const std::vector<std::string> &ICCModel::throughputClasses() {
  // As passes/IccChains.cpp addPortClass records them.
  static const std::vector<std::string> C{"fp.add", "fp.mul", "fp.fma",
                                          "fp.div", "int.mul", "fp.cvt"};
  return C;
}

/// The reciprocal throughput of a block with the port class of
/// passes/IccChains.cpp addPortClass at its measured throughput (Throughput,
/// cycles per instruction), or the model's (rthroughput).
static double classBound(const Ruv &C, const std::map<std::string, double> &Throughput) {
  double R = C.get("rthroughput");
  double Ports = 0;
  bool Any = false;
  for (const std::string &Class : ICCModel::throughputClasses()) {
    double N = C.get("tp." + Class);
    if (N <= 0)
      continue;
    auto T = Throughput.find(Class);
    if (T == Throughput.end())
      return R; // a class without a measured throughput: the model's bound
    Ports += N * T->second;
    Any = true;
  }
  return Any ? std::max(C.get("tp.rest"), C.get("tp.shared") + Ports) : R;
}

double ICCModel::blockRThroughput(const Ruv &C) const {
  double R = C.get("rthroughput");
  if (Throughput.empty())
    return R;
  R = classBound(C, Throughput);
  // Masked stores (addMaskedStores) at their measured throughput: the
  // bound without them, or the other instructions' share of their
  // resource plus theirs; the lower of this and the class's bound (each
  // corrects one part of the model's).
  const std::string Masked = "tp." + std::string(kMaskedStore);
  auto T = Throughput.find(kMaskedStore);
  if (double N = C.get(Masked); N > 0 && T != Throughput.end())
    R = std::min(R, std::max(C.get(Masked + ".rest"), C.get(Masked + ".shared") + N * T->second));
  // Vector loads across a cache line (addSplitLoads) at their measured
  // throughput: the load pipes' bound, the other cycles on them plus s
  // crossing loads, raises the bound where it is above (the model prices
  // every load alike).
  const std::string Split = "tp." + std::string(kSplitLoad);
  auto S = Throughput.find(kSplitLoad);
  if (double N = C.get(Split); N > 0 && S != Throughput.end())
    R = std::max(R, C.get(Split + ".shared") + N * S->second);
  return R;
}

double ICCModel::blockCycles(const Ruv &C) const {
  double Cycles = C.get("cycles");
  if (Latency.empty() && Throughput.empty())
    return Cycles;
  double R = C.get("rthroughput"), RPorts = blockRThroughput(C);
  double Model = C.get("lcd.other.model"), Measured = Model;
  bool AnyMeasured = false;
  for (const std::string &Class : latencyClasses()) {
    double Steps = C.get("lcd." + Class), M = C.get("lcd." + Class + ".model");
    Model += M;
    auto L = Latency.find(Class);
    if (Steps > 0 && L != Latency.end()) {
      Measured += Steps * L->second;
      AnyMeasured = true;
    } else {
      Measured += M;
    }
  }
  bool Chain = AnyMeasured && Model > 0;
  if (Chain && Model >= R) // the chain binds
    return std::max(RPorts, Cycles - Model + Measured);
  // A block at its port bound moves with the measured ports' bound.
  if (RPorts != R && Cycles <= 1.1 * R)
    Cycles = Cycles - R + RPorts;
  else
    Cycles = std::max(Cycles, RPorts); // no faster than the measured ports allow
  return Chain ? std::max(Cycles, Measured) : Cycles;
}

double ICCModel::chainLatency() const {
  auto It = Latency.find("load");
  return It == Latency.end() ? 0 : It->second * cost("cycles");
}

ex ICCModel::mispredictTime(double Count, const std::string &Prob, double Chain) const {
  if (Prob.empty())
    throw std::runtime_error("ICC RUV key 'branch.cond.data' on a stage without a branch "
                             "probability (branch_prob)");
  ex P = parseExpr(Prob);
  for (const std::string &X : freeSymbols(P))
    if (!KnownOutcomes.count(X))
      return 0;
  return segtime::min(P, 1 - P) * numeric(Count * Penalty + Chain * chainLatency());
}

/// The data-dependent branches (branch.cond.data) of stage N's ICC RUV Key
/// that a replayed call can learn, search steps' too (the memory term
/// counts a bisection's lines: docs/models.md "Bisections"); 0 for a stage
/// with none.
static double learnableCount(const Node &N, const std::string &Key) {
  auto B = N.Ruvs.find(Key);
  return B == N.Ruvs.end() ? 0 : B->second.get("branch.cond.data");
}

StageWeight ICCModel::learnableWeight() const {
  return [this, Key = ruvKey(Level::ICC, variant())](const Node &N) -> ex {
    double Count = learnableCount(N, Key);
    // (a learned search step exposes no latency either: its chain's term)
    return Count ? mispredictTime(Count, N.BranchProb,
                                  N.Ruvs.at(Key).get("branch.chain.load"))
                 : ex(0);
  };
}

/// The outcomes are counted in units of the replayed random bytes'
/// (branch.replay_half H): with the machine file's
/// branch.replay_half_search H_s, a search step (branch.chain.load) counts
/// H / H_s of them, so that a function of search steps alone has the share
/// unlearnedShare(O, H_s) of its O outcomes (docs/models.md ICC 4, "Replayed
/// calls": at one node of the search tree every key has the same history
/// within its search, the predictor tells keys apart by the searches
/// before; a bisection is learned up to fewer outcomes than a byte pattern).
StageWeight ICCModel::learnableOutcomes() const {
  double SearchWeight = ReplayHalf && ReplayHalfSearch ? *ReplayHalf / *ReplayHalfSearch : 1;
  return [this, SearchWeight, Key = ruvKey(Level::ICC, variant())](const Node &N) -> ex {
    double Count = learnableCount(N, Key);
    // (as mispredictTime: only probabilities of known outcomes count)
    if (!Count || mispredictTime(Count, N.BranchProb).is_zero())
      return 0;
    double Steps = std::min(Count, N.Ruvs.at(Key).get("branch.chain.load"));
    ex P = parseExpr(N.BranchProb);
    return numeric(2 * (Count - Steps + Steps * SearchWeight)) * segtime::min(P, 1 - P);
  };
}

std::optional<double> ICCModel::libraryCallCost(const std::string &Name) const {
  auto It = CallCost.find(Name);
  if (It != CallCost.end())
    return It->second;
  std::string C = mathLibraryConstruct(Name);
  if (C.empty())
    return std::nullopt;
  It = HllcCost.find(C);
  if (It == HllcCost.end())
    return std::nullopt;
  return It->second;
}

StageWeight ICCModel::timeWeight() const {
  StageWeight Base = CostVectorModel::timeWeight();
  return [this, Base, Key = ruvKey(Level::ICC, variant())](const Node &N) -> ex {
    ex T = Base(N);
    if (auto B = N.Ruvs.find(Key); B != N.Ruvs.end()) {
      if (double Count = B->second.get("branch.cond.data"))
        T += mispredictTime(Count, N.BranchProb, B->second.get("branch.chain.load"));
      if (!Latency.empty() || !Throughput.empty()) // measured latencies and ports
        T += numeric((blockCycles(B->second) - B->second.get("cycles")) * cost("cycles"));
    }
    auto It = N.Ruvs.find(levelKey(Level::IntCC));
    if (It == N.Ruvs.end())
      return T;
    for (auto &[Op, Count] : It->second.counts())
      if (Op.rfind("call.", 0) == 0 && !costedElsewhere(Op))
        if (auto C = libraryCallCost(Op.substr(5)))
          T += numeric(Count) * numeric(*C);
    return T;
  };
}

/// Whether E depends on an IR loop's iteration counter (k_<fn>_irN) other
/// than Free.
static bool dependsOnLoopIndex(const ex &E, const std::string &Free = "") {
  for (const std::string &X : freeSymbols(E))
    if (X.rfind("k_", 0) == 0 && X != Free)
      return true;
  return false;
}

/// Per execution of List: the sum over its stages of Freq x RUV[Key][Op],
/// nested loops times their trip; nullopt if List calls a function (its
/// micro-ops are not in the SEG) or the sum depends on a loop index (it
/// would need index sums: triangular nests) other than Free (the counter
/// of the loop whose body List is, summed by the caller).
static std::optional<ex> perExecution(const NodeList &List, const std::string &Key,
                                      const std::function<double(const Ruv &)> &Op,
                                      const std::string &Free = "") {
  ex Sum = 0;
  for (const Node &S : List) {
    ex F = frequencyOf(S);
    if (S.Kind == NodeKind::Stage) {
      if (auto It = S.Ruvs.find(Key); It != S.Ruvs.end())
        Sum += F * Op(It->second);
    } else if (S.Kind == NodeKind::Loop) {
      std::optional<ex> In = perExecution(S.Body, Key, Op, Free);
      if (!In)
        return std::nullopt;
      Sum += F * parseExpr(S.Trip) * *In;
    } else {
      return std::nullopt;
    }
  }
  if (dependsOnLoopIndex(Sum, Free))
    return std::nullopt;
  return Sum;
}

/// Cycles per execution of List on its floating-point chains: the loops
/// with a recurrence (Node::Chain), each trip x (its one block's cycles
/// (ICCModel::blockCycles), or
/// the chains of its inner loops); nullopt if the sum depends on a loop
/// index other than Free.
static std::optional<ex> chainCycles(const NodeList &List, const std::string &Key,
                                     const ICCModel &M, const std::string &Free = "") {
  ex Sum = 0;
  for (const Node &S : List) {
    if (S.Kind != NodeKind::Loop || S.Chain.empty())
      continue;
    ex PerIt = 0;
    bool OneBlock = S.Body.size() == 1 && S.Body[0].Kind == NodeKind::Stage;
    if (OneBlock) {
      if (auto It = S.Body[0].Ruvs.find(Key); It != S.Body[0].Ruvs.end())
        PerIt = M.blockCycles(It->second);
    } else if (std::optional<ex> In = chainCycles(S.Body, Key, M, Free)) {
      PerIt = *In;
    } else {
      return std::nullopt;
    }
    Sum += frequencyOf(S) * parseExpr(S.Trip) * PerIt;
  }
  if (dependsOnLoopIndex(Sum, Free))
    return std::nullopt;
  return Sum;
}

std::optional<ex> ICCModel::smoothWindow(const Node &L, const ex &Trip) const {
  if (!RetireWindow)
    return std::nullopt;
  std::string Key = ruvKey(Level::ICC, variant());
  // Summed over the loop's counter where an iteration's work depends on it
  // (a triangular nest).
  const std::string &Free = L.Index;
  std::optional<ex> Chain = chainCycles(L.Body, Key, *this, Free);
  if (!Chain || Chain->is_zero())
    return std::nullopt;
  auto Count = [](const char *Op) { return [Op](const Ruv &C) { return C.get(Op); }; };
  std::optional<ex> U = perExecution(L.Body, Key, Count("uops"), Free);
  std::optional<ex> Fused = perExecution(L.Body, Key, Count("uops.macro_fused"), Free);
  std::optional<ex> R =
      perExecution(L.Body, Key, [this](const Ruv &C) { return blockRThroughput(C); }, Free);
  if (!U || !Fused || !R)
    return std::nullopt;
  // The chains that start afresh in an iteration (its loops whose chain is
  // their own, Node::Chain "own": trmv's eight rows of an iteration of its
  // row loop unrolled by 8) are independent and follow one another in the
  // window like iterations: each spans U / Starts micro-ops.
  ex Starts = 0;
  for (const Node &S : L.Body)
    if (S.Kind == NodeKind::Loop && S.Chain == "own")
      Starts += frequencyOf(S);
  // U: the reorder buffer's micro-ops per chain.
  ex PerChain = (*U - *Fused) / max(Starts, 1);
  ex PerIt = windowTime(1, *Chain, PerChain, *R, *RetireWindow, cost("cycles"));
  if (!Free.empty() && PerIt.has(sym(Free)))
    return sumOver(PerIt, sym(Free), Trip);
  return Trip * PerIt;
}

ex ICCModel::window(const Node &L, const ex &Core, const ex &Trip, double Rob) const {
  if (RetireWindow)
    return smoothWindow(L, Trip).value_or(Core);
  std::string Key = ruvKey(Level::ICC, variant());
  std::optional<ex> Chain = chainCycles(L.Body, Key, *this);
  if (!Chain || Chain->is_zero())
    return Core;
  auto Count = [](const char *Op) { return [Op](const Ruv &C) { return C.get(Op); }; };
  std::optional<ex> U = perExecution(L.Body, Key, Count("uops"));
  std::optional<ex> Fused = perExecution(L.Body, Key, Count("uops.macro_fused"));
  std::optional<ex> R =
      perExecution(L.Body, Key, [this](const Ruv &C) { return blockRThroughput(C); });
  if (!U || !Fused || !R)
    return Core;
  ex TCyc = numeric(cost("cycles"));
  ex InBuffer = *U - *Fused; // the reorder buffer's micro-ops per iteration
  ex Resource = TCyc * Trip * *R;
  ex Little = TCyc * Trip * *Chain * InBuffer / numeric(Rob);
  // An iteration larger than the window: no whole iteration overlaps the
  // next; the nested loops' own overlap (rule (b)) stands.
  ex Fits = 1 - cmp_lt(numeric(Rob), InBuffer);
  return Fits * overlapTime(Resource, Little, kWindowExponent) + (1 - Fits) * Core;
}

ex ICCModel::windowTime(const ex &Trip, const ex &Chain, const ex &U, const ex &R, double W,
                          double TCyc) {
  return numeric(TCyc) * Trip * max(R, Chain * U / (U + numeric(W)));
}

ex ICCModel::overlap(const Node &L, const ex &Core, int Depth, double Rob) const {
  if (Rob <= 0)
    return Core;
  if (L.Chain.empty() && std::any_of(L.Body.begin(), L.Body.end(), [](const Node &S) {
        return S.Kind == NodeKind::Loop;
      }))
    if (std::optional<ex> W = smoothWindow(L, parseExpr(L.Trip)))
      return *W; // also where the body's frequencies vary with the counter
  std::string Key = ruvKey(Level::ICC, variant());
  double TCyc = cost("cycles");
  // Stages directly in the body; give up on frequencies that vary with the
  // iteration (the saving would need a sum).
  ex Cyc = 0, Thr = 0, Uops = 0;
  bool Nested = false;
  size_t Blocks = 0;
  for (const Node &S : L.Body) {
    if (S.Kind == NodeKind::Loop)
      Nested = true;
    auto It = S.Ruvs.find(Key);
    if (S.Kind != NodeKind::Stage || It == S.Ruvs.end())
      continue;
    ex F = frequencyOf(S);
    if (!L.Index.empty() && F.has(sym(L.Index)))
      return Core;
    ++Blocks;
    Cyc += F * blockCycles(It->second);
    Thr += F * blockRThroughput(It->second);
    Uops += F * It->second.get("uops");
  }
  ex Trip = parseExpr(L.Trip);
  if (Nested || Blocks > 1) {
    ex C = Core - numeric(TCyc) * Trip * (Cyc - Thr);
    return Nested && L.Chain.empty() ? window(L, C, Trip, Rob) : C;
  }
  if (Depth == 0 || Uops.is_zero() || L.Chain == "continued")
    return Core;
  return Core - numeric(TCyc) * (Cyc - Thr) * min(Trip, numeric(Rob) / Uops);
}

namespace {
class IccUnit final : public UnitOf<Level::ICC> {
public:
  bool perTarget() const override { return true; }
  std::unique_ptr<ResourceModel> makeModel(const ModelRequest &R) const override {
    if (R.Target.empty())
      throw std::invalid_argument("level " + key() + " needs a target");
    auto I = std::make_unique<ICCModel>(R.M, R.Target, R.Opt);
    I->setKnownOutcomes(R.KnownOutcomes);
    return I;
  }
  bool machineHas(const Machine &M, const std::string &Target) const override {
    return M.has(level(), Target);
  }
  MemoryTerm memoryTerm() const override { return MemoryTerm::IrNests; }
  bool memoryTermInModel() const override { return true; }
  CalibFit calibFit() const override { return CalibFit::Clock; }
  std::vector<std::string> machineFileComments() const override {
    return {"Out-of-order model: t = scheduling-model cycles x t_cyc (docs/models.md);",
            "valid for the ICC targets of this machine's architecture."};
  }
  void printCounts(std::ostream &OS, const std::map<std::string, double> &Counts,
                   const std::string &Target) const override {
    OS << "   (" << Target;
    for (const char *K : {"instructions", "cycles"})
      if (Counts.count(K))
        OS << ", " << Counts.at(K) << " " << K;
    OS << ")";
  }
  bool hasBreakdown() const override { return true; }
};
} // namespace

const LevelUnit &iccUnit() { return unitInstance<IccUnit>(); }

} // namespace segtime
