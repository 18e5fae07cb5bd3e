//===- Templates.cpp - segtime farm, dc, hetero: parallel templates -------===//
///
/// \file
/// The commands of the parallel-template models (predictor/Templates.h):
/// processor farm and divide and conquer on k-ary trees (UBC-91) and
/// heterogeneous networks of workstations (UTSA-95). Each prints a table, or
/// one JSON object with --json (stable keys; docs in each --help), and farm
/// and dc draw speedup-vs-N and granularity plots with gnuplot (--plot DIR).
/// Times take an optional unit: 10ms, 250us, 1e-3 (seconds), 2s, 40ns.
///
/// USAGE:
///   segtime farm --arity 2 --levels 3 --te 10ms --beta-e 1ms --beta-f 2ms
///                --tasks 1000 [--transfer 0.5ms] [--json] [--plot DIR]
///   segtime farm --parents -1,0,0,1 --te 10ms --beta-e 1ms --beta-f 2ms --tasks 1000
///   segtime dc --arity 2 --levels 3 --te 40ms --ts 1ms --tj 1ms --beta-e 1ms
///              --beta-f 2ms --tasks 100 [--transfer 0.5ms] [--json] [--plot DIR]
///   segtime hetero --speeds 2,1,1 [--owner-util 0.1,0,0] [--comm 5ms] [--json]
///   segtime hetero --times 10,20,40 [--work 0.5,0.3,0.2]
///
/// Entry points (Argv holds the options after the command name, as
/// tools/segtime.cpp passes them): farmMain, dcMain, heteroMain.
/// Exit status: 0 ok, 2 usage or input error.
///
//===----------------------------------------------------------------------===//
#include "predictor/Templates.h"
#include "tools/PredictedArgs.h"
#include "tools/TemplateCommon.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace segtime;
using namespace segtime::tmpl;

int farmMain(int Argc, char **Argv);
int dcMain(int Argc, char **Argv);
int heteroMain(int Argc, char **Argv);

namespace {

/// A list-valued option of dc or hetero: its flag, where its values go, and
/// whether they are times (parseTimeList: units allowed) or plain numbers
/// (parseNumberList).
struct ListOption {
  const char *Flag;
  std::vector<double> *Into;
  bool Times;
};

/// Takes F's values (from A) into the entry of Lists whose flag is F;
/// returns false if there is none.
bool readListOption(const std::string &F, ArgReader &A, std::initializer_list<ListOption> Lists) {
  for (const ListOption &L : Lists)
    if (F == L.Flag) {
      *L.Into = L.Times ? parseTimeList(F, A.value()) : parseNumberList(F, A.value());
      return true;
    }
  return false;
}

//===--- farm -------------------------------------------------------------===//

const char *FarmUsage =
    "usage: segtime farm --levels N --te T_e --beta-e B_e --beta-f B_f --tasks M [options]\n"
    "\n"
    "Processor farm on a balanced k-ary tree of N levels (UBC-91 §3.2): steady-state\n"
    "throughput S_N (recurrence (d), closed form (f)), task fractions f_i, start-up,\n"
    "time for M tasks T = T_startup + (M-1)/S_N (eq. (g)), speedup M*T_e/T, and the\n"
    "peak operating point (UBC-91 §5).\n"
    "\n"
    "  --arity K         children per processor (default 2; 1 = linear chain)\n"
    "  --levels N        levels of the tree (level 1 = leaves, N = root)\n"
    "  --te T            execution time of one task\n"
    "  --beta-e T        non-overlapped communication start-up per task executed locally\n"
    "  --beta-f T        start-up per task forwarded to a child and returned\n"
    "  --tasks M         number of tasks\n"
    "  --transfer T      transfer time of a task on a link, T_tau (default 0)\n"
    "  --parents LIST    an irregular tree instead of --arity/--levels: the parent of\n"
    "                    each processor, -1 for the root (e.g. -1,0,0,2); solved as the\n"
    "                    linear system of UBC-91 §3.1; --te may then list one time per\n"
    "                    processor\n"
    "  --threshold X     peak operating point: the N after which one more level adds\n"
    "                    less than X (relative) speedup (default 0.01)\n"
    "  --max-levels N    levels searched for the peak and plotted (default 32 for a\n"
    "                    chain, 16 for a tree)\n"
    "  --grains LIST     granularities (tasks per message) of the granularity study\n"
    "                    (default 1,2,4,8,16)\n"
    "  --plot DIR        write DIR/farm_speedup.{png,svg} (speedup vs N for T_e/2, T_e,\n"
    "                    2*T_e) and DIR/farm_granularity.{png,svg} (speedup vs N per\n"
    "                    granularity) with gnuplot, plus their .dat and .gp files\n"
    "  --json            print one JSON object\n"
    "\n"
    "Times are seconds, or take a unit: 10ms, 250us, 40ns, 2s.\n"
    "\n"
    "JSON keys: throughput (tasks/s), fractions (f_1..f_N, level totals, leaves\n"
    "first; per processor with --parents), startup_s, time_s, speedup, and\n"
    "throughput_recurrence, throughput_closed_form, level_throughputs, limited_by\n"
    "(steady-state | forwarding | transfer), fractions_steady_state, speedup_closed_form,\n"
    "efficiency, processors, a, forward_limit, transfer_limit (null: none),\n"
    "sequential_time_s, peak_levels, peak_processors, peak_speedup, peak_found,\n"
    "granularity [{granularity, te_s, peak_levels, peak_speedup}], params, plots.\n"
    "\n"
    "Exit status: 0 ok, 2 usage or input error.\n";

/// A farm's "params" object: Extra, then beta_e_s, beta_f_s, transfer_s and
/// tasks (in this order: the JSON keeps insertion order).
template <typename ParamsT> json taskParamsJson(const ParamsT &P, json Extra) {
  Extra.update(json{{"beta_e_s", P.BetaE},
                    {"beta_f_s", P.BetaF},
                    {"transfer_s", P.TransferTime},
                    {"tasks", P.Tasks}});
  return Extra;
}

json farmParamsJson(const FarmParams &P) {
  return taskParamsJson(P, {{"arity", P.Arity}, {"levels", P.Levels}, {"te_s", P.TaskTime}});
}

void warnLimit(ThroughputLimit L, const std::string &What) {
  if (L == ThroughputLimit::Forwarding)
    std::cerr << "segtime: warning: the steady state of UBC-91 does not exist here: " << What
              << "; the throughput is that limit and some processors idle\n";
  else if (L == ThroughputLimit::Transfer)
    std::cerr << "segtime: warning: the root cannot receive tasks faster than 1/(T_tau + "
                 "beta_e) (UBC-91 §3.1); the throughput is that limit\n";
}

/// Appends startup_s, time_s, sequential_time_s and speedup of a farm or dc
/// result R to J (in this order, as the --help of each documents).
template <typename ResultT> void addTimesJson(json &J, const ResultT &R) {
  J["startup_s"] = R.Startup;
  J["time_s"] = R.Time;
  J["sequential_time_s"] = R.SequentialTime;
  J["speedup"] = R.Speedup;
}

/// The farm on an irregular tree (--parents), as text or JSON; Predicted (not
/// null) is the --seg prediction the task times came from, for the JSON.
int farmTree(const TreeFarmParams &P, bool Json, const json &Predicted) {
  const std::vector<int> &Parent = P.Parent;
  const std::vector<double> &Te = P.TaskTime;
  TreeFarmResult R = analyzeFarmOnTree(P);
  if (!R.Framework.Feasible && R.Limit == ThroughputLimit::SteadyState)
    std::cerr << "segtime: warning: the §3.1 system has negative fractions\n";
  warnLimit(R.Limit, "a processor cannot forward more than 1/beta_f tasks/s");
  if (Json) {
    json J = {{"template", "farm"},
              {"topology", "parents"},
              {"params", taskParamsJson(P, {{"parents", Parent}, {"te_s", Te}})},
              {"processors", countJson(R.Processors)},
              {"depth", R.Depth},
              {"throughput", R.Throughput},
              {"throughput_framework", R.Framework.Throughput},
              {"framework_feasible", R.Framework.Feasible},
              {"limited_by", throughputLimitName(R.Limit)},
              {"transfer_limit", finiteOrNull(R.TransferLimit)},
              {"fractions", R.Fractions},
              {"fractions_steady_state", R.Framework.Fractions},
              {"forwarded", R.Framework.Forwarded}};
    addTimesJson(J, R);
    J["efficiency"] = R.Efficiency;
    if (!Predicted.is_null())
      J["predicted"] = Predicted;
    std::cout << J.dump(2) << "\n";
    return 0;
  }
  std::cout << "processor farm on a tree of " << R.Processors << " processors (depth " << R.Depth
            << "), UBC-91 §3.1 linear system\n"
            << "  beta_e = " << fmtTime(P.BetaE) << ", beta_f = " << fmtTime(P.BetaF)
            << ", T_tau = " << fmtTime(P.TransferTime) << ", M = " << P.Tasks << " tasks\n\n"
            << "  proc  parent      T_e    fraction  forwarded F_i\n";
  for (size_t I = 0; I < Parent.size(); ++I)
    std::cout << pad(std::to_string(I), 6) << pad(std::to_string(Parent[I]), 8)
              << pad(fmtTime(Te.size() == 1 ? Te[0] : Te[I]), 9) << pad(fmt(R.Fractions[I]), 12)
              << pad(fmt(R.Framework.Forwarded[I]), 15) << "\n";
  std::cout << "\n  throughput        " << fmt(R.Throughput) << " tasks/s  (limited by "
            << throughputLimitName(R.Limit) << "; linear system " << fmt(R.Framework.Throughput)
            << ")\n"
            << "  start-up          " << fmtTime(R.Startup) << "\n"
            << "  time for M tasks  " << fmtTime(R.Time) << "  (eq. (g))\n"
            << "  speedup           " << fmt(R.Speedup) << "  (against M x fastest T_e)\n"
            << "  efficiency        " << fmt(R.Efficiency) << "\n";
  return 0;
}

} // namespace

int farmMain(int Argc, char **Argv) {
  PredictedArgs Pred("farm", Argc, Argv); // --seg: predicted times
  TreeOptions O;
  double Transfer = 0;
  std::vector<int> Parents;
  auto Take = [&](const std::string &F, ArgReader &A) {
    if (readTreeOption(F, A, O))
      return true;
    if (F == "--transfer") {
      Transfer = parseTime(F, A.value());
    } else if (F == "--parents") {
      for (const std::string &X : splitList(F, A.value()))
        Parents.push_back(
            static_cast<int>(cli::parseWhole(F, X, -1, 1000000000, "processor number or -1")));
    } else {
      return false;
    }
    return true;
  };
  if (!readOptions(Pred, "farm", FarmUsage, O.Json, Take))
    return 0;
  requireOptions("farm", {{!O.Te.empty(), "--te"},
                          {O.HaveBetaE, "--beta-e"},
                          {O.HaveBetaF, "--beta-f"},
                          {O.Tasks > 0, "--tasks"},
                          {!Parents.empty() || O.HaveLevels, "--levels"}});

  if (!Parents.empty()) {
    if (O.HaveLevels || O.HaveArity)
      throw UsageError("--parents gives the whole topology: drop --arity and --levels");
    if (!O.PlotDir.empty())
      throw UsageError("--plot needs a balanced tree (--arity, --levels), not --parents");
    return farmTree({Parents, O.Te, O.BetaE, O.BetaF, Transfer, O.Tasks}, O.Json,
                    Pred.active() ? json(Pred.toJSON()) : json());
  }
  if (O.Te.size() != 1)
    throw UsageError("--te: one task time for a balanced tree (lists are for --parents)");
  FarmParams P;
  P.Arity = O.Arity;
  P.Levels = O.Levels;
  P.TaskTime = O.Te[0];
  P.BetaE = O.BetaE;
  P.BetaF = O.BetaF;
  P.TransferTime = Transfer;
  P.Tasks = O.Tasks;
  checkGrains(O.Grains);
  const double Threshold = O.Threshold;
  const unsigned MaxLevels =
      O.MaxLevels ? O.MaxLevels : std::max(P.Arity == 1 ? 32u : 16u, P.Levels);

  FarmResult R = analyzeFarm(P);
  PeakPoint Peak = farmPeak(P, Threshold, MaxLevels);
  std::vector<GranularityRow> Gran = farmGranularity(P, O.Grains, MaxLevels, Threshold);
  warnLimit(R.Limit, "the processors would have to forward more than 1/beta_f tasks/s");

  std::vector<std::string> Plots;
  if (!O.PlotDir.empty()) {
    std::vector<Series> Sp = taskTimeSeries(P.TaskTime, [&](double Te) {
      FarmParams Q = P;
      Q.TaskTime = Te;
      return std::make_pair(farmSpeedupCurve(Q, MaxLevels), farmPeak(Q, Threshold, MaxLevels));
    });
    std::string XLabel = P.Arity == 1 ? "processors N (linear chain)" : levelsLabel(P.Arity);
    std::string Common = "beta_e = " + fmtTime(P.BetaE) + ", beta_f = " + fmtTime(P.BetaF) +
                         ", M = " + std::to_string(P.Tasks);
    Plots = plotTemplate(O.PlotDir, "farm", "Processor farm", Common,
                         ", T_e = " + fmtTime(P.TaskTime) + " per task", XLabel, Sp, Gran);
  }

  if (O.Json) {
    json J = {{"template", "farm"},
              {"topology", P.Arity == 1 ? "chain" : "k-ary tree"},
              {"params", farmParamsJson(P)},
              {"processors", countJson(R.Processors)},
              {"a", R.A},
              {"throughput", R.Throughput},
              {"throughput_recurrence", R.ThroughputRecurrence},
              {"throughput_closed_form", R.ThroughputClosedForm},
              {"level_throughputs", R.LevelThroughputs},
              {"limited_by", throughputLimitName(R.Limit)},
              {"forward_limit", finiteOrNull(R.ForwardLimit)},
              {"transfer_limit", finiteOrNull(R.TransferLimit)},
              {"fractions", R.Fractions},
              {"fractions_steady_state", R.SteadyFractions}};
    addTimesJson(J, R);
    J["speedup_closed_form"] = R.SpeedupClosedForm;
    J["efficiency"] = R.Efficiency;
    addPeakJson(J, Threshold, Peak, Gran);
    J["plots"] = Plots;
    if (Pred.active())
      J["predicted"] = Pred.toJSON();
    std::cout << J.dump(2) << "\n";
    return 0;
  }

  std::cout << "processor farm: "
            << (P.Arity == 1 ? std::string("linear chain")
                             : std::to_string(P.Arity) + "-ary tree")
            << ", N = " << P.Levels << " levels, " << fmt(R.Processors) << " processors\n"
            << "  T_e = " << fmtTime(P.TaskTime) << ", beta_e = " << fmtTime(P.BetaE)
            << ", beta_f = " << fmtTime(P.BetaF) << ", T_tau = " << fmtTime(P.TransferTime)
            << ", M = " << P.Tasks << " tasks\n\n"
            << "  level  processors  fraction f_i  per processor  S_i (tasks/s)\n";
  for (unsigned L = P.Levels; L >= 1; --L) {
    double Procs = std::pow(static_cast<double>(P.Arity), P.Levels - L);
    std::cout << pad(std::to_string(L), 7) << pad(fmt(Procs), 12)
              << pad(fmt(R.Fractions[L - 1]), 14) << pad(fmt(R.Fractions[L - 1] / Procs), 15)
              << pad(fmt(R.LevelThroughputs[L - 1]), 15) << "\n";
  }
  std::cout << "\n  throughput          " << fmt(R.Throughput) << " tasks/s  (limited by "
            << throughputLimitName(R.Limit) << "; S_N by (d) " << fmt(R.ThroughputRecurrence)
            << ", by (f) " << fmt(R.ThroughputClosedForm) << ")\n"
            << "  start-up            " << fmtTime(R.Startup) << "\n"
            << "  time for M tasks    " << fmtTime(R.Time) << "  (eq. (g))\n"
            << "  speedup SP_N        " << fmt(R.Speedup) << "  (closed form "
            << fmt(R.SpeedupClosedForm) << ")\n"
            << "  efficiency          " << fmt(R.Efficiency) << "\n";
  printPeakAndGranularity(Peak, Gran);
  printPlots(Plots);
  return 0;
}

//===--- dc ---------------------------------------------------------------===//

namespace {

const char *DCUsage =
    "usage: segtime dc --levels N --te T_e --ts T_s --tj T_j --beta-e B_e --beta-f B_f\n"
    "                  --tasks M [options]\n"
    "\n"
    "Divide and conquer on a balanced k-ary tree of N levels (UBC-91 §3.3): throughput\n"
    "by recurrence (j), the limit S_max (k), start-up, time and speedup.\n"
    "\n"
    "  --arity K        degree of the tree and of the task graph (default 2)\n"
    "  --levels N       levels (1 = leaves, N = root)\n"
    "  --te T|LIST      one value: the time of a whole task, T_e(N); level i then\n"
    "                   executes a piece of T_e / K^(N-i). A list: T_e(1),...,T_e(N)\n"
    "  --ts T|LIST      split time per level: one value for every level, or a list\n"
    "                   for levels 2..N (N-1 values) or 1..N (N values; level 1,\n"
    "                   the leaves, never splits)\n"
    "  --tj T|LIST      join time per level (as --ts)\n"
    "  --transfer T|LIST  transmission time of a subtask's data per level, T_tau(i)\n"
    "                   (as --ts; default 0)\n"
    "  --beta-e T       start-up per (sub)task executed locally\n"
    "  --beta-f T       start-up per task split and joined\n"
    "  --tasks M        number of tasks\n"
    "  --threshold X    peak operating point threshold (default 0.01)\n"
    "  --max-levels N   levels searched for the peak and plotted (default 16)\n"
    "  --grains LIST    granularities of the granularity study (default 1,2,4,8,16)\n"
    "  --plot DIR       DIR/dc_speedup.{png,svg} and DIR/dc_granularity.{png,svg}\n"
    "                   (needs single values for --te, --ts, --tj, --transfer)\n"
    "  --json           print one JSON object\n"
    "\n"
    "Times are seconds, or take a unit: 10ms, 250us, 40ns, 2s.\n"
    "\n"
    "JSON keys: throughput (tasks/s), fractions (f_1..f_N, leaves first), startup_s,\n"
    "time_s, speedup, and throughput_recurrence, s_max (null: none),\n"
    "throughput_paper_rule, level_throughputs, limited_by (steady-state | forwarding),\n"
    "fractions_steady_state, sequential_time_s, efficiency, processors, peak_levels,\n"
    "peak_processors, peak_speedup, peak_found, granularity, params, plots.\n"
    "\n"
    "Exit status: 0 ok, 2 usage or input error.\n";

/// Per-level values from one value or a list of N − 1 (levels 2..N) or N.
std::vector<double> perLevel(const std::string &Flag, const std::vector<double> &V, unsigned N) {
  if (V.size() == 1)
    return std::vector<double>(N, V[0]);
  if (V.size() == N)
    return V;
  if (N >= 2 && V.size() == N - 1) {
    std::vector<double> R = {0};
    R.insert(R.end(), V.begin(), V.end());
    return R;
  }
  throw UsageError(Flag + ": give one value, " + std::to_string(N - 1) + " (levels 2..N) or " +
                   std::to_string(N) + " (levels 1..N), got " + std::to_string(V.size()));
}

/// Speedup of uniform D&C with G tasks packed into one: computation and
/// transfer times scale by G, the start-ups β stay, ceil(M/G) packets.
double dcPackedSpeedup(unsigned K, unsigned N, double Te, double Ts, double Tj, double Tt,
                       double BE, double BF, std::uint64_t M, unsigned G) {
  DCParams P = dcUniform(K, N, G * Te, G * Ts, G * Tj, G * Tt, BE, BF, (M + G - 1) / G);
  return static_cast<double>(M) * Te / analyzeDC(P).Time;
}

/// The granularity study of uniform D&C: per granularity G of Grains, the
/// speedup for N = 1..MaxLevels with G tasks packed into one, and its peak.
std::vector<GranularityRow> dcGranularity(unsigned K, double Te, double Ts, double Tj, double Tt,
                                          double BE, double BF, std::uint64_t M,
                                          const std::vector<unsigned> &Grains,
                                          unsigned MaxLevels, double Threshold) {
  std::vector<GranularityRow> Gran;
  for (unsigned G : Grains) {
    GranularityRow Row;
    Row.Granularity = G;
    Row.TaskTime = G * Te;
    for (unsigned L = 1; L <= MaxLevels; ++L)
      Row.Speedup.push_back(dcPackedSpeedup(K, L, Te, Ts, Tj, Tt, BE, BF, M, G));
    // The peak of this row, by the same rule as dcPeak.
    Row.Peak.Levels = MaxLevels;
    Row.Peak.Speedup = Row.Speedup.back();
    for (unsigned L = 1; L < MaxLevels; ++L)
      if (Row.Speedup[L] < (1 + Threshold) * Row.Speedup[L - 1]) {
        Row.Peak = {L, treeProcessors(K, L), Row.Speedup[L - 1], true};
        break;
      }
    if (!Row.Peak.Found)
      Row.Peak.Processors = treeProcessors(K, MaxLevels);
    Gran.push_back(std::move(Row));
  }
  return Gran;
}

} // namespace

int dcMain(int Argc, char **Argv) {
  PredictedArgs Pred("dc", Argc, Argv); // --seg: predicted times
  TreeOptions O;
  O.MaxLevels = 16;
  std::vector<double> Ts, Tj, Tt = {0};
  auto Take = [&](const std::string &F, ArgReader &A) {
    if (readTreeOption(F, A, O)) {
      if (O.HaveLevels && O.Levels == 0) // as soon as --levels 0 is read
        throw UsageError("--levels: the number of levels N must be >= 1");
      return true;
    }
    return readListOption(F, A,
                          {{"--ts", &Ts, true}, {"--tj", &Tj, true}, {"--transfer", &Tt, true}});
  };
  if (!readOptions(Pred, "dc", DCUsage, O.Json, Take))
    return 0;
  requireOptions("dc", {{O.HaveLevels, "--levels"},
                        {!O.Te.empty(), "--te"},
                        {!Ts.empty(), "--ts"},
                        {!Tj.empty(), "--tj"},
                        {O.HaveBetaE, "--beta-e"},
                        {O.HaveBetaF, "--beta-f"},
                        {O.Tasks > 0, "--tasks"}});
  checkGrains(O.Grains);
  const unsigned K = O.Arity, N = O.Levels, MaxLevels = O.MaxLevels;
  const std::vector<double> &Te = O.Te;
  const double BetaE = O.BetaE, BetaF = O.BetaF, Threshold = O.Threshold;
  const std::uint64_t M = O.Tasks;

  const bool Uniform = Te.size() == 1 && Ts.size() == 1 && Tj.size() == 1 && Tt.size() == 1;
  DCParams P;
  if (Uniform) {
    P = dcUniform(K, N, Te[0], Ts[0], Tj[0], Tt[0], BetaE, BetaF, M);
  } else {
    if (Te.size() != 1 && Te.size() != N)
      throw UsageError("--te: give one value (a whole task) or " + std::to_string(N) +
                       " (levels 1..N), got " + std::to_string(Te.size()));
    P = dcUniform(K, N, Te.size() == 1 ? Te[0] : 1, 0, 0, 0, BetaE, BetaF, M);
    if (Te.size() == N)
      P.TaskTime = Te;
    P.SplitTime = perLevel("--ts", Ts, N);
    P.JoinTime = perLevel("--tj", Tj, N);
    P.TransferTime = perLevel("--transfer", Tt, N);
  }
  DCResult R = analyzeDC(P);
  warnLimit(R.Limit, "a level would have to split more than 1/(T_s + T_j + beta_f) tasks/s");

  PeakPoint Peak;
  std::vector<GranularityRow> Gran;
  if (Uniform) {
    Peak = dcPeak(K, Te[0], Ts[0], Tj[0], Tt[0], BetaE, BetaF, M, Threshold, MaxLevels);
    Gran = dcGranularity(K, Te[0], Ts[0], Tj[0], Tt[0], BetaE, BetaF, M, O.Grains, MaxLevels,
                         Threshold);
  }

  std::vector<std::string> Plots;
  if (!O.PlotDir.empty()) {
    if (!Uniform)
      throw UsageError("--plot needs single values for --te, --ts, --tj and --transfer");
    std::vector<Series> Sp = taskTimeSeries(Te[0], [&](double T) {
      return std::make_pair(
          dcSpeedupCurve(K, T, Ts[0], Tj[0], Tt[0], BetaE, BetaF, M, MaxLevels),
          dcPeak(K, T, Ts[0], Tj[0], Tt[0], BetaE, BetaF, M, Threshold, MaxLevels));
    });
    std::string Common = "T_s = " + fmtTime(Ts[0]) + ", T_j = " + fmtTime(Tj[0]) +
                         ", beta_f = " + fmtTime(BetaF) + ", M = " + std::to_string(M);
    Plots = plotTemplate(O.PlotDir, "dc", "Divide and conquer", Common, "", levelsLabel(K), Sp,
                         Gran);
  }

  if (O.Json) {
    json J = {{"template", "dc"},
              {"params",
               {{"arity", P.Arity},
                {"levels", P.Levels},
                {"te_s", P.TaskTime},
                {"ts_s", P.SplitTime},
                {"tj_s", P.JoinTime},
                {"transfer_s", P.TransferTime},
                {"beta_e_s", P.BetaE},
                {"beta_f_s", P.BetaF},
                {"tasks", P.Tasks}}},
              {"processors", countJson(R.Processors)},
              {"throughput", R.Throughput},
              {"throughput_recurrence", R.ThroughputRecurrence},
              {"s_max", finiteOrNull(R.SMax)},
              {"throughput_paper_rule", R.ThroughputPaperRule},
              {"level_throughputs", R.LevelThroughputs},
              {"limited_by", throughputLimitName(R.Limit)},
              {"fractions", R.Fractions},
              {"fractions_steady_state", R.SteadyFractions}};
    addTimesJson(J, R);
    J["efficiency"] = R.Efficiency;
    J["plots"] = Plots;
    if (Uniform)
      addPeakJson(J, Threshold, Peak, Gran);
    if (Pred.active())
      J["predicted"] = Pred.toJSON();
    std::cout << J.dump(2) << "\n";
    return 0;
  }

  std::cout << "divide and conquer: " << K << "-ary tree, N = " << N << " levels, "
            << fmt(R.Processors) << " processors\n"
            << "  beta_e = " << fmtTime(BetaE) << ", beta_f = " << fmtTime(BetaF) << ", M = " << M
            << " tasks\n\n"
            << "  level        T_e        T_s        T_j      T_tau  fraction f_i  S_i "
               "(tasks/s)\n";
  for (unsigned L = N; L >= 1; --L) {
    bool Leaf = L == 1;
    std::cout << pad(std::to_string(L), 7) << pad(fmtTime(P.TaskTime[L - 1]), 11)
              << pad(Leaf ? "-" : fmtTime(P.SplitTime[L - 1]), 11)
              << pad(Leaf ? "-" : fmtTime(P.JoinTime[L - 1]), 11)
              << pad(Leaf ? "-" : fmtTime(P.TransferTime[L - 1]), 11)
              << pad(fmt(R.Fractions[L - 1]), 14) << pad(fmt(R.LevelThroughputs[L - 1]), 15)
              << "\n";
  }
  std::cout << "\n  throughput          " << fmt(R.Throughput) << " tasks/s  (limited by "
            << throughputLimitName(R.Limit) << "; S_N by (j) " << fmt(R.ThroughputRecurrence)
            << ", S_max (k) " << fmt(R.SMax) << ")\n"
            << "  start-up            " << fmtTime(R.Startup) << "\n"
            << "  time for M tasks    " << fmtTime(R.Time) << "\n"
            << "  speedup SP_N        " << fmt(R.Speedup)
            << "  (against M x T_e(N) = " << fmtTime(R.SequentialTime) << ")\n"
            << "  efficiency          " << fmt(R.Efficiency) << "\n";
  if (Uniform)
    printPeakAndGranularity(Peak, Gran);
  printPlots(Plots);
  return 0;
}

//===--- hetero -----------------------------------------------------------===//

namespace {

const char *HeteroUsage =
    "usage: segtime hetero (--speeds S_1,...,S_m | --times T_1,...,T_m) [options]\n"
    "\n"
    "A parallel program on a heterogeneous network of workstations (UTSA-95): power\n"
    "weights W_j (eqs. 1, 2), heterogeneity H (eq. 4), parallelism degree P_deg\n"
    "(eq. 5), speedup (Definition 1; P_deg (1 - H), eq. 6), efficiency (eqs. 10, 12),\n"
    "average overhead latency and latency unit (eqs. 15, 16).\n"
    "\n"
    "  --speeds LIST      speed of the program on each workstation, dedicated (any\n"
    "                     one unit, e.g. Mflop/s)\n"
    "  --times LIST       or: the program's time on each workstation, dedicated\n"
    "                     (measured or predicted, e.g. by segtime predict)\n"
    "  --owner-util LIST  owner utilisation U_j in [0, 1) of each workstation, or\n"
    "                     one value for all (default 0: dedicated)\n"
    "  --work LIST        share of the work on each workstation (normalised; default\n"
    "                     proportional to (1 - U_j) S_j, i.e. balanced)\n"
    "  --comm T|LIST      communication time the parallel program adds on each\n"
    "                     workstation (default 0)\n"
    "  --size A           problem size |A| in the unit of --speeds x s (default: the\n"
    "                     work the fastest workstation does in 1 s; with --times,\n"
    "                     one program)\n"
    "  --json             print one JSON object\n"
    "\n"
    "Model: workstation j computes |A_j|/S_j, communicates --comm, and gets (1 - U_j)\n"
    "of its CPU, so T(A,HN) = max_j (|A_j|/S_j + comm_j)/(1 - U_j); single-machine\n"
    "times are |A|/(S_j (1 - U_j)).\n"
    "\n"
    "JSON keys: weights, heterogeneity, parallelism_degree, speedup, efficiency, and\n"
    "speedup_property1 (P_deg (1 - H)), efficiency_property2 (eq. 12), delta_a,\n"
    "linear_speedup (eq. 13), superlinear, total_power, work_shares, cpu_times_s,\n"
    "single_times_s, parallel_time_s, overheads_s, avg_overhead_latency_s,\n"
    "latency_unit_s, speeds, owner_util, size.\n"
    "\n"
    "Exit status: 0 ok, 2 usage or input error.\n";

std::vector<double> broadcast(const std::string &Flag, const std::vector<double> &V, size_t M) {
  if (V.empty() || V.size() == M)
    return V;
  if (V.size() == 1)
    return std::vector<double>(M, V[0]);
  throw UsageError(Flag + ": " + std::to_string(V.size()) + " values for " + std::to_string(M) +
                   " workstations (give one value or one per workstation)");
}

} // namespace

int heteroMain(int Argc, char **Argv) {
  PredictedArgs Pred("hetero", Argc, Argv); // --seg: predicted times
  std::vector<double> Speeds, Times, Util, Work, Comm;
  double Size = 0;
  bool Json = false;
  auto Take = [&](const std::string &F, ArgReader &A) {
    if (readListOption(F, A, {{"--speeds", &Speeds, false},
                              {"--times", &Times, true},
                              {"--owner-util", &Util, false},
                              {"--work", &Work, false},
                              {"--comm", &Comm, true}}))
      return true;
    if (F == "--size") {
      Size = parseNumber(F, A.value());
      if (Size <= 0)
        throw UsageError("--size: the problem size must be > 0");
    } else if (F == "--json") {
      Json = true;
    } else {
      return false;
    }
    return true;
  };
  if (!readOptions(Pred, "hetero", HeteroUsage, Json, Take))
    return 0;
  if (Speeds.empty() == Times.empty())
    throw UsageError("give either --speeds or --times (see segtime hetero --help)");
  HeteroParams P;
  if (!Times.empty()) {
    for (double T : Times)
      if (!(T > 0))
        throw UsageError("--times: every time must be > 0, got " + fmt(T));
    P.Size = Size > 0 ? Size : 1;
    for (double T : Times)
      P.Speeds.push_back(P.Size / T);
  } else {
    P.Speeds = Speeds;
    for (double S : Speeds)
      if (!(S > 0))
        throw UsageError("--speeds: every speed must be > 0, got " + fmt(S));
    P.Size = Size > 0 ? Size : *std::max_element(Speeds.begin(), Speeds.end());
  }
  const size_t M = P.Speeds.size();
  P.OwnerUtil = broadcast("--owner-util", Util, M);
  P.CommTime = broadcast("--comm", Comm, M);
  if (!Work.empty() && Work.size() != M)
    throw UsageError("--work: " + std::to_string(Work.size()) + " values for " +
                     std::to_string(M) + " workstations");
  P.WorkShare = Work;
  HeteroResult R = analyzeHetero(P);
  std::vector<double> U = P.OwnerUtil.empty() ? std::vector<double>(M, 0) : P.OwnerUtil;
  const bool Superlinear = R.Speedup > R.LinearSpeedup * (1 + 1e-12);

  if (Json) {
    json J = {{"template", "hetero"},
              {"workstations", M},
              {"speeds", P.Speeds},
              {"owner_util", U},
              {"size", P.Size},
              {"weights", R.Weights},
              {"heterogeneity", R.Heterogeneity},
              {"total_power", R.TotalPower},
              {"work_shares", R.WorkShare},
              {"cpu_times_s", R.CpuTimes},
              {"single_times_s", R.SingleTimes},
              {"parallel_time_s", R.ParallelTime},
              {"parallelism_degree", R.ParallelismDegree},
              {"speedup", R.Speedup},
              {"speedup_property1", R.SpeedupProperty1},
              {"delta_a", R.DeltaA},
              {"efficiency", R.Efficiency},
              {"efficiency_property2", R.EfficiencyProperty2},
              {"linear_speedup", R.LinearSpeedup},
              {"superlinear", Superlinear},
              {"overheads_s", R.Overheads},
              {"avg_overhead_latency_s", R.AverageOverheadLatency},
              {"latency_unit_s", R.LatencyUnit}};
    if (Pred.active())
      J["predicted"] = Pred.toJSON();
    std::cout << J.dump(2) << "\n";
    return 0;
  }
  std::cout << "heterogeneous network of " << M << " workstations, |A| = " << fmt(P.Size)
            << "\n\n"
            << pad("ws", 4) << pad("speed", 12) << pad("W_j", 7) << pad("U_j", 7)
            << pad("share", 8) << pad("T_eff", 11) << pad("T(A,M_j)", 11) << pad("overhead", 11)
            << "\n";
  for (size_t J = 0; J < M; ++J)
    std::cout << pad(std::to_string(J + 1), 4) << pad(fmt(P.Speeds[J]), 12)
              << pad(fmt(R.Weights[J], 4), 7) << pad(fmt(U[J], 3), 7)
              << pad(fmt(R.WorkShare[J], 4), 8) << pad(fmtTime(R.CpuTimes[J]), 11)
              << pad(fmtTime(R.SingleTimes[J]), 11) << pad(fmtTime(R.Overheads[J]), 11) << "\n";
  std::cout << "\n  heterogeneity H          " << fmt(R.Heterogeneity) << "  (eq. 4)\n"
            << "  total power sum W_j      " << fmt(R.TotalPower) << "\n"
            << "  parallel time T(A,HN)    " << fmtTime(R.ParallelTime) << "\n"
            << "  parallelism degree       " << fmt(R.ParallelismDegree) << "  (eq. 5)\n"
            << "  speedup                  " << fmt(R.Speedup)
            << "  (Definition 1; P_deg (1 - H) = " << fmt(R.SpeedupProperty1) << ", eq. 6)\n"
            << "  Delta_A                  " << fmt(R.DeltaA) << "  (eq. 11)\n"
            << "  efficiency               " << fmt(R.Efficiency) << "  (eq. 10; eq. 12 "
            << fmt(R.EfficiencyProperty2) << ")\n"
            << "  linear speedup           " << fmt(R.LinearSpeedup) << "  (eq. 13"
            << (Superlinear ? "; the speedup is superlinear" : "") << ")\n"
            << "  avg overhead latency     " << fmtTime(R.AverageOverheadLatency)
            << "  (eq. 15)\n"
            << "  latency unit L           " << fmtTime(R.LatencyUnit) << "  (eq. 16)\n";
  return 0;
}
