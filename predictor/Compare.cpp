//===- Compare.cpp - Predicted vs measured per SEG node (Warwick-94 §5) ---===//
#include "predictor/Compare.h"
#include "predictor/Expr.h"
#include "predictor/Formula.h"
#include "predictor/MemoryModel.h"
#include "predictor/PredictedSpeed.h"
#include "predictor/ResourceModel.h"
#include "predictor/levels/LevelUnit.h"

#include <boost/math/distributions/students_t.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <set>
#include <stdexcept>

using namespace GiNaC;

namespace segtime {

//===--- Statistics -------------------------------------------------------===//

double studentT90(unsigned Dof) {
  if (Dof == 0)
    throw std::invalid_argument("studentT90: 0 degrees of freedom");
  return boost::math::quantile(boost::math::students_t_distribution<double>(Dof), 0.95);
}

ErrorStats errorStats(const std::vector<double> &E) {
  if (E.empty())
    throw std::invalid_argument("errorStats: no errors to summarise");
  ErrorStats S;
  S.N = E.size();
  S.Min = INFINITY;
  S.Max = -INFINITY;
  for (double X : E) {
    if (!std::isfinite(X))
      throw std::invalid_argument("errorStats: non-finite error value");
    double A = std::fabs(X);
    S.Mean += A;
    S.Bias += X;
    S.Min = std::min(S.Min, A);
    S.Max = std::max(S.Max, A);
  }
  S.Mean /= S.N;
  S.Bias /= S.N;
  if (S.N > 1) {
    double Q = 0;
    for (double X : E)
      Q += (std::fabs(X) - S.Mean) * (std::fabs(X) - S.Mean);
    S.SD = std::sqrt(Q / (S.N - 1));
    double H = studentT90(S.N - 1) * S.SD / std::sqrt(double(S.N));
    S.CILow = S.Mean - H;
    S.CIHigh = S.Mean + H;
  }
  return S;
}

json ErrorStats::toJSON() const {
  json J = {{"n", N},       {"mean_pct", Mean}, {"sd_pct", SD},
            {"min_pct", Min}, {"max_pct", Max}, {"bias_pct", Bias}};
  J["ci90_pct"] = CILow ? json::array({*CILow, *CIHigh}) : json(nullptr);
  return J;
}

//===--- One run ----------------------------------------------------------===//

LevelMap<double> CompareRow::errors() const {
  LevelMap<double> R;
  if (CtS && *CtS > 0)
    for (auto &[L, T] : LevelS)
      R[L] = 100 * (T - *CtS) / *CtS;
  return R;
}

double CompareRun::overallErr(Level L) const {
  return 100 * (TotalS.at(L) - wholeS()) / wholeS();
}
double CompareRun::structureErr() const { return 100 * (CtTotalS - wholeS()) / wholeS(); }
double CompareRun::resourceErr(Level L) const {
  return overallErr(L) - structureErr();
}

namespace {

/// A JSON object {level key: value}.
json byKey(const LevelMap<double> &V) {
  json J = json::object();
  for (auto &[L, X] : V)
    J[levelKey(L)] = X;
  return J;
}

std::string rowLabel(const Node &N) {
  if (!N.Label.empty())
    return N.Label;
  switch (N.Kind) {
  case NodeKind::Loop:
    return N.LoopKind + (N.Index.empty() ? "" : " " + N.Index);
  case NodeKind::Call:
    return "call " + N.Callee;
  case NodeKind::Branch:
    return "branch";
  default:
    return nodeKindName(N.Kind);
  }
}

/// The node and its descendants (arms included).
std::set<const Node *> subtree(const Node &N) {
  std::set<const Node *> R{&N};
  auto Add = [&R](const Node &X) { R.insert(&X); };
  forEachNode(N.Body, Add);
  for (const Arm &A : N.Arms)
    forEachNode(A.Body, Add);
  return R;
}

/// Table 6 rows: the loops, branches and calls of L in tree order.
void collectRows(const NodeList &L, int Depth, std::vector<const Node *> &Nodes,
                 std::vector<int> &Depths) {
  for (const Node &N : L) {
    bool Row = N.Kind == NodeKind::Loop || N.Kind == NodeKind::Branch || N.Kind == NodeKind::Call;
    if (Row) {
      Nodes.push_back(&N);
      Depths.push_back(Depth);
    }
    collectRows(N.Body, Depth + Row, Nodes, Depths);
    for (const Arm &A : N.Arms)
      collectRows(A.Body, Depth + Row, Nodes, Depths);
  }
}

std::string chooseFunction(const SegFile &S, const CtFile &Ct, const std::string &CtPath) {
  const CtFunction *Best = nullptr;
  for (const CtFunction &F : Ct.Functions)
    if (F.Name != "main" && S.find(F.Name) && (!Best || F.InclusiveS > Best->InclusiveS))
      Best = &F;
  if (!Best)
    throw std::runtime_error(CtPath + ": no function other than main that the SEG file has");
  return Best->Name;
}

} // namespace

CompareRun compareRun(const SegFile &S, CtFile &Ct, const Machine &M, const CompareOptions &O) {
  CompareRun R;
  R.Size = O.Size;
  R.MeasuredS = O.MeasuredS;
  R.Function = O.Function.empty() ? chooseFunction(S, Ct, Ct.Program) : O.Function;
  const FunctionSeg *FS = S.find(R.Function);
  if (!FS)
    throw std::runtime_error("the SEG file has no function '" + R.Function + "'");
  const CtFunction *CF = Ct.find(R.Function);
  if (!CF || CF->Calls == 0)
    throw std::runtime_error("the profile has no call of '" + R.Function +
                             "' (was it built with -fplugin-arg-segtime-instrument?)");
  if (!matchSeg(Ct, S))
    R.Notes.push_back("the profile matches no node of the SEG file (another program or source?)");
  R.Calls = double(CF->Calls);
  R.CtTotalS = CF->InclusiveS / R.Calls;
  if (CF->Recursive)
    R.Notes.push_back(R.Function + " is recursive: CT times its outermost activations only");

  // Levels and parameter values exactly as `segtime predict --profile`.
  PredictOptions PO;
  PO.Functions = {R.Function};
  PO.Values = O.Values;
  PO.Target = O.Target;
  for (const ProfileValue &V : profileParameters(Ct, S))
    PO.ProfileValues[V.Name] = V.Value;
  addOptionalIrLevels(S, M, FS->LevelSegs.count(IrSegKey) > 0, PO);
  Prediction P = predict(S, M, PO);
  const FunctionPrediction &FP = P.Functions.at(0);
  if (!FP.Error.empty())
    throw std::runtime_error(FP.Error);
  for (const std::string &N : FP.Notes)
    R.Notes.push_back(N);
  for (const std::string &U : FP.Unresolved)
    R.Notes.push_back("not costed: " + U);
  R.Params = FP.Params;
  std::map<std::string, double> Values;
  for (const ParamValue &V : FP.Params)
    Values[V.Name] = V.Value;
  for (auto &[L, LP] : FP.Levels)
    R.TotalS[L] = LP.TimeS;

  // Per-node closed forms under each level's model (same models and ICC
  // memory term as predict()).
  FormulaBuilder FB(S);
  LevelMap<std::unique_ptr<ResourceModel>> Models;
  std::set<std::string> Known = knownOutcomes(PO, FB.declaredParameters());
  for (auto &[L, LP] : FP.Levels)
    Models[L] = makeModel(L, M, S.OptLevel, P.Target, Known);
  std::string Why;
  std::optional<MemoryModel> Mem;
  for (auto &[L, Model] : Models)
    installLoopModels(FB, S, M, P.Target, *Model, Mem, Why, Values);

  std::vector<const Node *> Nodes;
  std::vector<int> Depths;
  collectRows(FS->Body, 0, Nodes, Depths);
  auto IR = FS->LevelSegs.find(IrSegKey);
  for (size_t I = 0; I < Nodes.size(); ++I) {
    const Node &N = *Nodes[I];
    CompareRow Row;
    Row.Id = N.Id;
    Row.Kind = nodeKindName(N.Kind);
    Row.Label = rowLabel(N);
    Row.Line = N.Range.Line;
    Row.Depth = Depths[I];
    // CT: the inclusive times of the CT nodes matched to this SEG node.
    double Ct = 0;
    bool Timed = false, Untimed = false;
    for (const CtNode &C : CF->Nodes)
      if (C.SegId == N.Id) {
        if (C.InclusiveS) {
          Ct += *C.InclusiveS;
          Timed = true;
        } else {
          Untimed = true;
        }
      }
    if (Timed && !Untimed)
      Row.CtS = Ct / R.Calls;
    std::set<const Node *> Src = subtree(N), IRNodes;
    if (IR != FS->LevelSegs.end()) {
      std::set<std::string> Ids;
      for (const Node *X : Src)
        Ids.insert(X->Id);
      forEachNode(IR->second, [&](const Node &X) {
        if (Ids.count(X.SourceNode))
          IRNodes.insert(&X);
      });
    }
    bool NoIR = IR != FS->LevelSegs.end() && IRNodes.empty();
    if (NoIR)
      R.Notes.push_back(N.Id + " (line " + std::to_string(N.Range.Line) +
                        "): no IR-level node comes from it (inlined callee or code "
                        "moved); INTCC/ICC not shown for it");
    for (auto &[Lv, Model] : Models) {
      bool IRLevel = irLevel(Lv) && IR != FS->LevelSegs.end();
      if (IRLevel && NoIR)
        continue;
      const std::string L = levelKey(Lv);
      ex E = FB.nodeForm(R.Function, IRLevel ? IRNodes : Src, Model->timeWeight(), "time:" + L, L);
      Row.LevelS[Lv] = evaluate(E, Values);
    }
    R.Rows.push_back(Row);
  }
  return R;
}

//===--- Report -----------------------------------------------------------===//

void CompareReport::finish() {
  Levels.clear();
  for (Level L : costedLevelsMostDetailedFirst()) // the order of the report's columns
    if (std::any_of(Runs.begin(), Runs.end(),
                    [&](const CompareRun &R) { return R.TotalS.count(L); }))
      Levels.push_back(L);
  Stats.clear();
  for (Level L : Levels) {
    std::vector<double> Nodes, Totals, Overall;
    for (const CompareRun &R : Runs) {
      if (!R.TotalS.count(L))
        continue;
      for (const CompareRow &Row : R.Rows) {
        auto E = Row.errors();
        if (E.count(L))
          Nodes.push_back(E[L]);
      }
      Totals.push_back(R.resourceErr(L));
      Overall.push_back(R.overallErr(L));
    }
    if (!Nodes.empty())
      Stats.push_back({L, "nodes", errorStats(Nodes)});
    Stats.push_back({L, "totals", errorStats(Totals)});
    Stats.push_back({L, "overall", errorStats(Overall)});
  }
  std::vector<double> Structure;
  for (const CompareRun &R : Runs)
    Structure.push_back(R.structureErr());
  if (!Runs.empty())
    Stats.push_back({Level::CT, "structure", errorStats(Structure)});
}

json CompareReport::toJSON() const {
  json J = {{"schema", "segtime.compare/1"}, {"machine", MachineName},
            {"machine_path", MachinePath}, {"levels", levelKeys(Levels)}};
  json Runs_ = json::array();
  for (const CompareRun &R : Runs) {
    json Rows = json::array();
    for (const CompareRow &Row : R.Rows) {
      json X = {{"id", Row.Id},       {"kind", Row.Kind},   {"line", Row.Line},
                {"depth", Row.Depth}, {"label", Row.Label}, {"ct_s", nullptr}};
      if (Row.CtS)
        X["ct_s"] = *Row.CtS;
      X["predicted_s"] = byKey(Row.LevelS);
      X["error_pct"] = byKey(Row.errors());
      Rows.push_back(X);
    }
    json Params = json::array();
    for (const ParamValue &V : R.Params)
      Params.push_back({{"name", V.Name}, {"value", V.Value}, {"source", V.Source}});
    json Tot = {{"ct_s", R.CtTotalS},
                {"measured_s", R.MeasuredS ? json(*R.MeasuredS) : json(nullptr)},
                {"whole_s", R.wholeS()},
                {"predicted_s", byKey(R.TotalS)},
                {"structure_error_pct", R.structureErr()}};
    for (auto &[L, T] : R.TotalS) {
      Tot["overall_error_pct"][levelKey(L)] = R.overallErr(L);
      Tot["resource_error_pct"][levelKey(L)] = R.resourceErr(L);
    }
    Runs_.push_back({{"seg", R.SegPath},   {"profile", R.CtPath}, {"function", R.Function},
                     {"size", R.Size},     {"calls", uint64_t(R.Calls)},    {"params", Params},
                     {"rows", Rows},       {"totals", Tot},       {"notes", R.Notes}});
  }
  J["runs"] = Runs_;
  json St = json::array();
  for (const CompareStat &S : Stats) {
    json X = S.S.toJSON();
    X["level"] = levelKey(S.Level);
    X["scope"] = S.Scope;
    St.push_back(X);
  }
  J["stats"] = St;
  return J;
}

namespace {

std::string num(double V, const char *F = "%.4g") {
  char B[64];
  std::snprintf(B, sizeof B, F, V);
  return B;
}

std::string pad(const std::string &S, size_t W, bool Left = false) {
  if (S.size() >= W)
    return S;
  return Left ? S + std::string(W - S.size(), ' ') : std::string(W - S.size(), ' ') + S;
}

/// Unit for a run's table: s, ms or µs (Warwick-94 Table 6 is in µs).
std::pair<double, std::string> unitFor(double S) {
  if (S >= 1)
    return {1, "s"};
  if (S >= 1e-3)
    return {1e3, "ms"};
  return {1e6, "us"};
}

std::string pct(double V) { return num(V, "%+.1f"); }

} // namespace

void CompareReport::printText(std::ostream &OS) const {
  OS << "machine " << MachineName << " (" << MachinePath << ")\n";
  for (size_t RI = 0; RI < Runs.size(); ++RI) {
    const CompareRun &R = Runs[RI];
    auto [Scale, Unit] = unitFor(R.wholeS());
    OS << "\nrun " << RI + 1 << ": " << R.Function << (R.Size.empty() ? "" : ", size " + R.Size)
       << ", " << R.Calls << " calls; " << R.SegPath << " + " << R.CtPath << "\n";
    OS << "Table 6 - SEG node times per call (" << Unit
       << "); error (%) of each level against CT\n";
    std::string H = pad("node", 22, true) + pad("line", 5) + pad(levelKey(Level::CT), 10);
    for (Level L : Levels)
      H += pad(levelKey(L), 10);
    for (Level L : Levels)
      H += pad(levelKey(L) + "%", 10);
    OS << H << "\n";
    for (const CompareRow &Row : R.Rows) {
      std::string Name = std::string(2 * Row.Depth, ' ') + Row.Id + " " + Row.Label;
      std::string S = pad(Name.substr(0, 21), 22, true) + pad(std::to_string(Row.Line), 5) +
                      pad(Row.CtS ? num(*Row.CtS * Scale) : "-", 10);
      for (Level L : Levels) {
        auto It = Row.LevelS.find(L);
        S += pad(It == Row.LevelS.end() ? "-" : num(It->second * Scale), 10);
      }
      auto E = Row.errors();
      for (Level L : Levels)
        S += pad(E.count(L) ? pct(E[L]) : "-", 10);
      OS << S << "\n";
    }
    std::string T = pad("total T (CT sum)", 27, true) + pad(num(R.CtTotalS * Scale), 10);
    for (Level L : Levels)
      T += pad(R.TotalS.count(L) ? num(R.TotalS.at(L) * Scale) : "-", 10);
    OS << T << "\n";
    OS << pad(R.MeasuredS ? "measured whole run" : "measured (= CT, no --measured)", 27, true)
       << pad(num(R.wholeS() * Scale), 10) << "\n";
    std::string E1 = pad("overall error e_L %", 37, true), E2 = pad("resource-model e_L-e_CT %", 37, true);
    for (Level L : Levels) {
      E1 += pad(R.TotalS.count(L) ? pct(R.overallErr(L)) : "-", 10);
      E2 += pad(R.TotalS.count(L) ? pct(R.resourceErr(L)) : "-", 10);
    }
    OS << E1 << "\n" << E2 << "\n";
    OS << "structure error e_CT (CT sum vs whole run): " << pct(R.structureErr()) << "%\n";
    std::string Ps;
    for (const ParamValue &V : R.Params)
      Ps += (Ps.empty() ? "" : ", ") + V.Name + "=" + num(V.Value, "%.10g") + " [" + V.Source + "]";
    if (!Ps.empty())
      OS << "parameters: " << Ps << "\n";
    for (const std::string &N : R.Notes)
      OS << "note: " << N << "\n";
  }
  OS << "\nTable 7 - error (%) statistics per level: magnitudes |e|; bias = mean signed e;\n"
        "90% CI of the mean with Student t (n-1 dof)\n";
  OS << pad("level", 7, true) << pad("scope", 10, true) << pad("n", 4) << pad("mean", 10)
     << pad("sd", 10) << pad("min", 10) << pad("max", 10) << pad("90% CI of mean", 24)
     << pad("bias", 11) << "\n";
  for (const CompareStat &S : Stats) {
    std::string CI = S.S.CILow ? "(" + num(*S.S.CILow, "%.2f") + ", " + num(*S.S.CIHigh, "%.2f") + ")"
                               : "-";
    OS << pad(levelKey(S.Level), 7, true) << pad(S.Scope, 10, true) << pad(std::to_string(S.S.N), 4)
       << pad(num(S.S.Mean, "%.2f"), 10) << pad(num(S.S.SD, "%.2f"), 10)
       << pad(num(S.S.Min, "%.2f"), 10) << pad(num(S.S.Max, "%.2f"), 10) << pad(CI, 24)
       << pad(num(S.S.Bias, "%+.2f"), 11) << "\n";
  }
  OS << "scopes: nodes = e_node over CT-timed nodes and runs; totals = e_L - e_CT over runs;\n"
        "overall = e_L over runs; structure = e_CT over runs (Warwick-94 §5.2)\n";
}

namespace {
std::string csvField(const std::string &S) {
  if (S.find_first_of(",\"\n") == std::string::npos)
    return S;
  std::string R = "\"";
  for (char C : S)
    R += C == '"' ? std::string("\"\"") : std::string(1, C);
  return R + "\"";
}
std::string g(double V) { return num(V, "%.9g"); }
} // namespace

void CompareReport::printCSV(std::ostream &OS) const {
  OS << "run,size,function,id,kind,line,depth,label,ct_s,measured_s";
  for (Level L : Levels)
    OS << "," << levelKey(L) << "_s";
  for (Level L : Levels)
    OS << "," << levelKey(L) << "_err_pct";
  OS << "\n";
  for (size_t RI = 0; RI < Runs.size(); ++RI) {
    const CompareRun &R = Runs[RI];
    std::string Pre = std::to_string(RI + 1) + "," + csvField(R.Size) + "," + csvField(R.Function);
    for (const CompareRow &Row : R.Rows) {
      OS << Pre << "," << Row.Id << "," << Row.Kind << "," << Row.Line << "," << Row.Depth << ","
         << csvField(Row.Label) << "," << (Row.CtS ? g(*Row.CtS) : "") << ",";
      for (Level L : Levels)
        OS << "," << (Row.LevelS.count(L) ? g(Row.LevelS.at(L)) : "");
      auto E = Row.errors();
      for (Level L : Levels)
        OS << "," << (E.count(L) ? num(E[L], "%.3f") : "");
      OS << "\n";
    }
    // Totals: errors are the overall errors e_L against the whole-run time.
    OS << Pre << ",total,function,,," << "," << g(R.CtTotalS) << "," << g(R.wholeS());
    for (Level L : Levels)
      OS << "," << (R.TotalS.count(L) ? g(R.TotalS.at(L)) : "");
    for (Level L : Levels)
      OS << "," << (R.TotalS.count(L) ? num(R.overallErr(L), "%.3f") : "");
    OS << "\n";
  }
  OS << "\nlevel,scope,n,mean_pct,sd_pct,min_pct,max_pct,ci90_low_pct,ci90_high_pct,bias_pct\n";
  for (const CompareStat &S : Stats)
    OS << levelKey(S.Level) << "," << S.Scope << "," << S.S.N << "," << num(S.S.Mean, "%.4f") << ","
       << num(S.S.SD, "%.4f") << "," << num(S.S.Min, "%.4f") << "," << num(S.S.Max, "%.4f")
       << "," << (S.S.CILow ? num(*S.S.CILow, "%.4f") : "") << ","
       << (S.S.CIHigh ? num(*S.S.CIHigh, "%.4f") : "") << "," << num(S.S.Bias, "%.4f") << "\n";
}

} // namespace segtime
