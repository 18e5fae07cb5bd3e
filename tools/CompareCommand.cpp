//===- CompareCommand.cpp - segtime compare: Warwick-94 Tables 6 and 7 ----===//
///
/// \file
/// Compares a kernel's predicted times per SEG node and level with what an
/// instrumented run measured (component timing, CT), in the layout of
/// Warwick-94 Table 6, and summarises the errors per level as Warwick-94
/// Table 7 (predictor/Compare.h). With --plot DIR it draws the counterparts
/// of Warwick-94 Figs. 6-12: predicted vs measured, times and error vs
/// problem size, and the accuracy bounds per level (PNG and SVG).
///
/// USAGE:
///   segtime compare k.seg.json --machine local --profile k.ct.json
///   segtime compare k.seg.json --machine local \
///       --profile k-256.ct.json --size 256 --measured 0.0121 \
///       --profile k-512.ct.json --size 512 --measured 0.0973 --plot plots/
///   segtime compare a.seg.json b.seg.json --machine local \
///       --profile a.ct.json --profile b.ct.json --csv
///
/// Entry point: compareMain (tools/segtime.cpp passes the options after the
/// command name). Exit status: 0 ok, 2 usage or input error.
///
//===----------------------------------------------------------------------===//
#include "predictor/Compare.h"
#include "tools/CommandLine.h"
#include "tools/Gnuplot.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

using namespace segtime;

int compareMain(int Argc, char **Argv);

namespace {

const char *Usage =
    "usage: segtime compare FILE.seg.json... --machine NAME|PATH --profile P.ct.json\n"
    "                       [run options] [--profile P2.ct.json [run options]]...\n"
    "                       [--csv | --json] [--plot DIR]\n"
    "\n"
    "Per SEG node of a kernel (its loops, branches and calls), the time component\n"
    "timing (CT) measured and the time each level predicts, per call, with each\n"
    "level's error against CT (Warwick-94 Table 6); the kernel totals against the\n"
    "measured whole-run time; and per level the error statistics (Warwick-94\n"
    "Table 7: mean, standard deviation, min, max of |error| and the 90% confidence\n"
    "interval of the mean, Student t with n-1 dof) over nodes and runs.\n"
    "\n"
    "  --machine NAME|PATH  machine file: a path, or NAME.yaml in the machine search\n"
    "                       path (docs/cli.md, \"Machines\")\n"
    "  --profile FILE       .ct.json of an instrumented run\n"
    "                       (-fplugin-arg-segtime-instrument); each --profile is a\n"
    "                       run. Loop counts and branch probabilities come from it,\n"
    "                       as in segtime predict --profile\n"
    "  --target NAME        ICC target (default as segtime predict)\n"
    "  --csv                Table 6 rows as CSV, a blank line, Table 7 as CSV\n"
    "  --json               one JSON object (schema segtime.compare/1, docs/cli.md)\n"
    "  --plot DIR           draw into DIR (PNG and SVG, with .dat and .gp):\n"
    "                       predicted_vs_measured (nodes and totals, all runs),\n"
    "                       accuracy_bounds (Table 7 per level), and with several\n"
    "                       sizes of a kernel FN_times and FN_error vs size\n"
    "run options (after a --profile: that run; before any: every run)\n"
    "  --function NAME      the kernel (default: the function other than main with\n"
    "                       the largest CT time)\n"
    "  --measured SECONDS   measured whole-run time per kernel call of the plain\n"
    "                       (uninstrumented) program; default: CT's own time of the\n"
    "                       kernel, which makes the structure error 0\n"
    "  --size LABEL         problem size, the x axis of the plots (e.g. 256)\n"
    "  -p NAME=VALUE        parameter value; wins over the profile\n"
    "\n"
    "SEG files: one for every run, or one per --profile in the same order.\n"
    "Errors (percent): node e = 100 (t_L - t_CT)/t_CT; overall e_L = 100 (T_L -\n"
    "T_meas)/T_meas; structure e_CT = 100 (T_CT - T_meas)/T_meas; resource-model\n"
    "error of the total e_L - e_CT (Warwick-94 §5.2).\n"
    "Exit status: 0 ok, 2 usage or input error.\n";

using cli::UsageError;

struct RunSpec {
  std::string Ct;
  CompareOptions O;
};

//===--- Plots ------------------------------------------------------------===//

std::string g(double V) {
  std::ostringstream OS;
  OS.precision(9);
  OS << V;
  return OS.str();
}

std::ofstream openDat(const std::string &Dir, const std::string &Name) {
  std::error_code EC;
  std::filesystem::create_directories(Dir, EC);
  std::string P = (std::filesystem::path(Dir) / (Name + ".dat")).string();
  std::ofstream F(P);
  if (!F)
    throw UsageError("--plot: cannot write " + P);
  return F;
}

std::string styles(size_t N) {
  std::string S;
  for (size_t I = 0; I < N; ++I)
    S += "set style line " + std::to_string(I + 1) + " lc rgb \"" + seriesColour(I) +
         "\" lw 2 pt " + std::to_string(I % 2 ? 9 : 7) + " ps 1.1\n";
  return S;
}

/// Warwick-94 Figs. 6-8 in one picture for all runs: predicted against
/// measured time per node (CT) and per kernel (whole run), log-log, y = x.
std::vector<std::string> plotScatter(const CompareReport &R, const std::string &Dir) {
  const std::string Name = "predicted_vs_measured";
  auto Dat = openDat(Dir, Name);
  double Lo = INFINITY, Hi = 0;
  auto Seen = [&](double A, double B) {
    if (A > 0 && B > 0) {
      Lo = std::min({Lo, A, B});
      Hi = std::max({Hi, A, B});
    }
  };
  for (Level L : R.Levels) {
    Dat << "# " << levelKey(L) << ": measured_s predicted_s (nodes: CT; totals: whole run)\n";
    for (const CompareRun &Run : R.Runs) {
      for (const CompareRow &Row : Run.Rows)
        if (Row.CtS && Row.LevelS.count(L) && *Row.CtS > 0 && Row.LevelS.at(L) > 0) {
          Dat << g(*Row.CtS) << " " << g(Row.LevelS.at(L)) << " node\n";
          Seen(*Row.CtS, Row.LevelS.at(L));
        }
      if (Run.TotalS.count(L) && Run.TotalS.at(L) > 0) {
        Dat << g(Run.wholeS()) << " " << g(Run.TotalS.at(L)) << " total\n";
        Seen(Run.wholeS(), Run.TotalS.at(L));
      }
    }
    Dat << "\n\n";
  }
  Dat.close();
  if (!(Hi > 0))
    throw UsageError("--plot: no positive times to plot");
  std::ostringstream Setup, Plot;
  Setup << "set title \"Predicted vs measured time per call (nodes: vs CT; kernels: vs whole run)\"\n"
        << "set xlabel \"measured time (s)\"\nset ylabel \"predicted time (s)\"\n"
        << "set logscale xy\nset format x \"10^{%L}\"\nset format y \"10^{%L}\"\n"
        << "set key right bottom\nset grid\n"
        << "set xrange [" << g(Lo / 2) << ":" << g(Hi * 2) << "]\nset yrange [" << g(Lo / 2) << ":"
        << g(Hi * 2) << "]\n"
        << styles(R.Levels.size());
  Plot << "plot x title \"predicted = measured\" lc rgb \"#999999\" dt 2";
  for (size_t I = 0; I < R.Levels.size(); ++I)
    Plot << ", \\\n     " << gpString(Name + ".dat") << " index " << I
         << " using 1:2 with points ls " << I + 1 << " title " << gpString(levelKey(R.Levels[I]));
  Plot << "\n";
  return gnuplotImages(Dir, Name, Setup.str(), Plot.str());
}

/// Warwick-94 Fig. 12: per level, the mean |error| of the nodes with the
/// min-max range and the 90% confidence interval of the mean.
std::vector<std::string> plotBounds(const CompareReport &R, const std::string &Dir) {
  const std::string Name = "accuracy_bounds";
  auto Dat = openDat(Dir, Name);
  Dat << "# x level scope mean min max ci_low ci_high (|error| %)\n";
  std::vector<std::string> Tics;
  int X = 0;
  for (const CompareStat &S : R.Stats) {
    if (S.Scope != "nodes" && S.Scope != "totals")
      continue;
    ++X;
    Dat << X << " " << levelKey(S.Level) << " " << S.Scope << " " << g(S.S.Mean) << " " << g(S.S.Min) << " "
        << g(S.S.Max) << " " << g(S.S.CILow.value_or(S.S.Mean)) << " "
        << g(S.S.CIHigh.value_or(S.S.Mean)) << "\n";
    Tics.push_back(gpString(levelKey(S.Level) + " " + S.Scope) + " " + std::to_string(X));
  }
  Dat.close();
  if (Tics.empty())
    throw UsageError("--plot: no statistics to plot");
  std::string TicList;
  for (const std::string &T : Tics)
    TicList += (TicList.empty() ? "" : ", ") + T;
  // Log scale when the levels' errors span orders of magnitude (POC).
  double Top = 0, Low = INFINITY;
  for (const CompareStat &S : R.Stats)
    if (S.Scope == "nodes" || S.Scope == "totals") {
      Top = std::max(Top, S.S.Max);
      if (S.S.Mean > 0)
        Low = std::min(Low, S.S.Mean);
    }
  bool Log = Top > 50 * std::max(Low, 0.1);
  std::ostringstream Setup, Plot;
  Setup << (Log ? "set logscale y\n" : "") << "set title \"Accuracy bounds of the resource models (|error| %, Warwick-94 Fig. 12)\"\n"
        << "set ylabel \"|error| (%)\"\nset xtics (" << TicList << ") rotate by -30\n"
        << "set xrange [0.3:" << X + 0.7 << "]\n" << (Log ? "set yrange [0.01:*]\n" : "set yrange [0:*]\n")
        << "set grid ytics\n"
        << "set key left top\nset bars 2\n";
  std::string D = gpString(Name + ".dat");
  Plot << "plot " << D
       << " using 1:4:5:6 with yerrorbars lc rgb \"#7570b3\" lw 2 pt 7 ps 1.2 "
          "title \"mean, min-max\", \\\n     "
       << D << " using ($1+0.12):4:7:8 with yerrorbars lc rgb \"#d95f02\" lw 2 pt 5 ps 0.8 "
          "title \"90% CI of the mean\"\n";
  return gnuplotImages(Dir, Name, Setup.str(), Plot.str());
}

/// Warwick-94 Figs. 6-8 and 9-11 over problem size for one kernel: whole-run,
/// CT and predicted time per call, and the overall error e_L per level.
std::vector<std::string> plotSizes(const CompareReport &R, const std::string &Fn,
                                   const std::string &Dir) {
  std::vector<const CompareRun *> Runs;
  for (const CompareRun &Run : R.Runs)
    if (Run.Function == Fn)
      Runs.push_back(&Run);
  bool Numeric = std::all_of(Runs.begin(), Runs.end(), [](const CompareRun *Run) {
    char *End = nullptr;
    std::strtod(Run->Size.c_str(), &End);
    return !Run->Size.empty() && End && *End == 0;
  });
  auto XOf = [&](size_t I) { return Numeric ? std::strtod(Runs[I]->Size.c_str(), nullptr) : I + 1.0; };
  std::vector<size_t> Order(Runs.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) { return XOf(A) < XOf(B); });
  std::string XTics;
  if (!Numeric)
    for (size_t I = 0; I < Runs.size(); ++I)
      XTics += (XTics.empty() ? "" : ", ") + gpString(Runs[I]->Size.empty() ? "run " + std::to_string(I + 1) : Runs[I]->Size) +
               " " + std::to_string(I + 1);
  std::string XAxis = Numeric ? "set logscale x 2\n"
                              : "set xtics (" + XTics + ")\nset xrange [0.5:" +
                                    std::to_string(Runs.size()) + ".5]\n";
  // A data file: size, the columns Lead writes for a run, then per level
  // Cell(run, level) (NaN where the run has no such level).
  auto WriteDat = [&](const std::string &Name, const std::string &Header,
                      const std::string &Suffix, auto Lead, auto Cell) {
    auto Dat = openDat(Dir, Name);
    Dat << "# size " << Header;
    for (Level L : R.Levels)
      Dat << " " << levelKey(L) << Suffix;
    Dat << "\n";
    for (size_t I : Order) {
      Dat << g(XOf(I)) << " " << Lead(*Runs[I]);
      for (Level L : R.Levels)
        Dat << " " << (Runs[I]->TotalS.count(L) ? g(Cell(*Runs[I], L)) : "NaN");
      Dat << "\n";
    }
  };
  // The plot's level lines, the first in data column First.
  auto LevelLines = [&](std::ostream &Plot, const std::string &D, size_t First) {
    for (size_t I = 0; I < R.Levels.size(); ++I)
      Plot << ", \\\n     " << D << " using 1:" << I + First << " with linespoints ls " << I + 1
           << " title " << gpString(levelKey(R.Levels[I]));
    Plot << "\n";
  };
  std::vector<std::string> Out;
  // Times.
  {
    const std::string Name = Fn + "_times";
    WriteDat(
        Name, "whole_run_s ct_s", "_s",
        [](const CompareRun &X) { return g(X.wholeS()) + " " + g(X.CtTotalS); },
        [](const CompareRun &X, Level L) { return X.TotalS.at(L); });
    std::ostringstream Setup, Plot;
    Setup << "set title " << gpString(Fn + ": measured and predicted time per call (Warwick-94 Figs. 6-8)")
          << "\nset xlabel \"problem size\"\nset ylabel \"time per call (s)\"\n"
          << "set logscale y\nset format y \"10^{%L}\"\nset key left top\nset grid\n" << XAxis
          << styles(R.Levels.size());
    std::string D = gpString(Name + ".dat");
    Plot << "plot " << D << " using 1:2 with linespoints lc rgb \"black\" lw 3 pt 7 title \""
         << (std::all_of(Runs.begin(), Runs.end(), [](const CompareRun *X) { return X->MeasuredS.has_value(); })
                 ? "measured (plain run)" : "measured")
         << "\", \\\n     " << D << " using 1:3 with linespoints lc rgb \"#999999\" dt 2 lw 2 pt 6 title \"CT\"";
    LevelLines(Plot, D, 4);
    for (auto &F : gnuplotImages(Dir, Name, Setup.str(), Plot.str()))
      Out.push_back(F);
  }
  // Errors.
  {
    const std::string Name = Fn + "_error";
    WriteDat(
        Name, "structure_err_pct", "_err_pct",
        [](const CompareRun &X) { return g(X.structureErr()); },
        [](const CompareRun &X, Level L) { return X.overallErr(L); });
    std::ostringstream Setup, Plot;
    Setup << "set title " << gpString(Fn + ": error of the predicted total vs measured (Warwick-94 Figs. 9-11)")
          << "\nset xlabel \"problem size\"\nset ylabel \"error (%)\"\nset key outside right top\nset grid\n"
          << XAxis << "set xzeroaxis lt -1\n" << styles(R.Levels.size());
    std::string D = gpString(Name + ".dat");
    Plot << "plot " << D << " using 1:2 with linespoints lc rgb \"#999999\" dt 2 lw 2 pt 6 title \"CT (structure)\"";
    LevelLines(Plot, D, 3);
    for (auto &F : gnuplotImages(Dir, Name, Setup.str(), Plot.str()))
      Out.push_back(F);
  }
  return Out;
}

} // namespace

int compareMain(int Argc, char **Argv) {
  std::vector<std::string> Segs;
  std::string MachineName, PlotDir;
  bool Csv = false, Json = false;
  CompareOptions Defaults;
  std::vector<RunSpec> Runs;
  auto Cur = [&]() -> CompareOptions & { return Runs.empty() ? Defaults : Runs.back().O; };
  cli::ArgReader Args(Argc, Argv);
  while (Args.next()) {
    std::string A = Args.flag();
    if (A == "--help" || A == "-h") {
      std::cout << Usage;
      return 0;
    } else if (A == "--machine" || A == "-m") {
      MachineName = Args.value();
    } else if (A == "--profile") {
      Runs.push_back({Args.value(), Defaults});
    } else if (A == "--function" || A == "-f") {
      Cur().Function = Args.value();
    } else if (A == "--measured") {
      double V = cli::parseNumber(A, Args.value());
      if (!(V > 0))
        throw UsageError("--measured: the time must be > 0 s");
      Cur().MeasuredS = V;
    } else if (A == "--size") {
      Cur().Size = Args.value();
    } else if (A == "-p" || A == "--param") {
      auto [Name, V] = parseParamAssignment(Args.value());
      Cur().Values[Name] = V;
    } else if (A == "--target" || A == "-t") {
      std::string T = Args.value();
      Defaults.Target = T;
      for (RunSpec &R : Runs)
        R.O.Target = T;
    } else if (A == "--csv") {
      Csv = true;
    } else if (A == "--json") {
      Json = true;
    } else if (A == "--plot") {
      PlotDir = Args.value();
    } else if (Args.isOption()) {
      cli::unknownOption("compare", A);
    } else {
      Segs.push_back(A);
    }
  }
  if (Segs.empty())
    throw UsageError("no SEG file given (see segtime compare --help)");
  if (Runs.empty())
    throw UsageError("no --profile given: compare needs the .ct.json of an instrumented run");
  if (MachineName.empty())
    throw UsageError("no --machine given (see segtime compare --help)");
  if (Csv && Json)
    throw UsageError("--csv and --json exclude each other");
  if (Segs.size() != 1 && Segs.size() != Runs.size())
    throw UsageError(std::to_string(Segs.size()) + " SEG files for " +
                     std::to_string(Runs.size()) +
                     " profiles: give one SEG file, or one per --profile in order");
  Machine M = readMachine(findMachine(MachineName));
  CompareReport Report;
  Report.MachineName = M.Name;
  Report.MachinePath = M.Path;
  std::map<std::string, SegFile> SegCache;
  for (size_t I = 0; I < Runs.size(); ++I) {
    const std::string &SegPath = Segs.size() == 1 ? Segs[0] : Segs[I];
    if (!SegCache.count(SegPath))
      SegCache.emplace(SegPath, SegFile::read(SegPath));
    CtFile Ct = CtFile::read(Runs[I].Ct);
    CompareRun R;
    try {
      R = compareRun(SegCache.at(SegPath), Ct, M, Runs[I].O);
    } catch (const std::exception &E) {
      throw std::runtime_error(SegPath + " + " + Runs[I].Ct + ": " + E.what());
    }
    R.SegPath = SegPath;
    R.CtPath = Runs[I].Ct;
    Report.Runs.push_back(std::move(R));
  }
  Report.finish();
  if (Json)
    std::cout << Report.toJSON().dump(2) << "\n";
  else if (Csv)
    Report.printCSV(std::cout);
  else
    Report.printText(std::cout);
  if (!PlotDir.empty()) {
    std::vector<std::string> Files = plotScatter(Report, PlotDir);
    for (auto &F : plotBounds(Report, PlotDir))
      Files.push_back(F);
    std::map<std::string, int> PerFn;
    for (const CompareRun &R : Report.Runs)
      ++PerFn[R.Function];
    for (auto &[Fn, N] : PerFn)
      if (N > 1)
        for (auto &F : plotSizes(Report, Fn, PlotDir))
          Files.push_back(F);
    for (const std::string &F : Files)
      std::cerr << "segtime compare: wrote " << F << "\n";
  }
  return 0;
}
