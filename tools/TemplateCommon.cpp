//===- TemplateCommon.cpp - What segtime farm, dc and hetero share --------===//
///
/// \file
/// Option parsing, formatting, plots and shared reports of the
/// parallel-template commands (see TemplateCommon.h).
///
//===----------------------------------------------------------------------===//
#include "tools/TemplateCommon.h"
#include "tools/Gnuplot.h"
#include "predictor/PredictedSpeed.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

namespace segtime::tmpl {

//===--- Formatting -------------------------------------------------------===//

std::string fmt(double V, int Digits) {
  if (std::isinf(V))
    return "unlimited";
  std::ostringstream OS;
  OS.precision(Digits);
  OS << V;
  return OS.str();
}

std::string fmtTime(double S) { return formatSeconds(S, 6); }

std::string pad(const std::string &S, size_t W) {
  return S.size() >= W ? S : std::string(W - S.size(), ' ') + S;
}

/// A processor count: an integer while exact in a double.
json countJson(double V) {
  return V <= 9007199254740992.0 ? json(static_cast<std::uint64_t>(V)) : json(V);
}

/// A finite number, or null for "no limit".
json finiteOrNull(double V) { return std::isfinite(V) ? json(V) : json(nullptr); }

//===--- Plots ------------------------------------------------------------===//

/// Plot text: Greek letters and µ for the ASCII spellings of the tables.
std::string plotText(std::string S) {
  for (auto [From, To] : {std::pair<std::string, std::string>{"beta_", "\u03B2_"},
                          {"T_tau", "T_\u03C4"},
                          {" us", " \u00B5s"}})
    for (size_t P = S.find(From); P != std::string::npos; P = S.find(From, P + To.size()))
      S.replace(P, From.size(), To);
  return S;
}

/// Writes DIR/NAME.dat and DIR/NAME.gp and runs gnuplot for NAME.png and
/// NAME.svg. Returns the paths of the two images.
std::vector<std::string> plot(const std::string &Dir, const std::string &Name,
                              const std::string &Title, const std::string &XLabel,
                              const std::vector<Series> &All) {
  namespace fs = std::filesystem;
  std::error_code EC;
  fs::create_directories(Dir, EC);
  if (EC)
    throw UsageError("--plot: cannot create directory '" + Dir + "': " + EC.message());
  fs::path Base = fs::path(Dir) / Name;
  {
    std::ofstream Dat(Base.string() + ".dat");
    if (!Dat)
      throw UsageError("--plot: cannot write " + Base.string() + ".dat");
    Dat.precision(10);
    for (size_t S = 0; S < All.size(); ++S) {
      Dat << "# " << All[S].Title << "\n# N speedup\n";
      for (size_t I = 0; I < All[S].Y.size(); ++I)
        Dat << I + 1 << " " << All[S].Y[I] << "\n";
      Dat << "\n\n";
    }
    Dat << "# peak operating points (N speedup)\n";
    for (const Series &S : All)
      if (S.Peak.Found)
        Dat << S.Peak.Levels << " " << S.Peak.Speedup << "\n";
  }
  const bool AnyPeak =
      std::any_of(All.begin(), All.end(), [](const Series &S) { return S.Peak.Found; });
  std::string Dat = gpString(Name + ".dat");
  std::ostringstream Plot;
  Plot << "plot ";
  for (size_t S = 0; S < All.size(); ++S)
    Plot << (S ? ", \\\n     " : "") << Dat << " index " << S << " using 1:2 with linespoints ls "
         << S + 1 << " title " << gpString(plotText(All[S].Title));
  if (AnyPeak)
    Plot << ", \\\n     " << Dat << " index " << All.size()
         << " using 1:2 with points pt 7 ps 1.6 lc rgb \"black\" title \"peak operating point\"";
  Plot << "\n";
  std::ostringstream Setup;
  Setup << "# segtime: " << Title << "\n"
        << "set title " << gpString(plotText(Title)) << "\n"
        << "set xlabel " << gpString(XLabel) << "\nset ylabel \"speedup\"\n"
        << "set key left top\nset grid\nset xrange [0.5:" << All.front().Y.size() + 0.5 << "]\n"
        << "set yrange [0:*]\n";
  for (size_t S = 0; S < All.size(); ++S)
    Setup << "set style line " << S + 1 << " lc rgb \"" << seriesColour(S) << "\" lw 2 pt 7 ps 0.6\n";
  try {
    return gnuplotImages(Dir, Name, Setup.str(), Plot.str());
  } catch (const std::runtime_error &E) {
    throw UsageError(E.what());
  }
}

//===--- farm and dc: shared options, peak and granularity ----------------===//

/// Takes F (and its value from A) into O if farm and dc share it; returns
/// false for any other option.
bool readTreeOption(const std::string &F, ArgReader &A, TreeOptions &O) {
  if (F == "--arity" || F == "-k") {
    O.Arity = parseUnsigned(F, A.value());
    O.HaveArity = true;
  } else if (F == "--levels" || F == "-N") {
    O.Levels = parseUnsigned(F, A.value());
    O.HaveLevels = true;
  } else if (F == "--te") {
    O.Te = parseTimeList(F, A.value());
  } else if (F == "--beta-e") {
    O.BetaE = parseTime(F, A.value());
    O.HaveBetaE = true;
  } else if (F == "--beta-f") {
    O.BetaF = parseTime(F, A.value());
    O.HaveBetaF = true;
  } else if (F == "--tasks" || F == "-M") {
    O.Tasks = parseCount(F, A.value());
  } else if (F == "--threshold") {
    O.Threshold = parseNumber(F, A.value());
  } else if (F == "--max-levels") {
    O.MaxLevels = parseUnsigned(F, A.value());
  } else if (F == "--grains") {
    O.Grains = parseUnsignedList(F, A.value());
  } else if (F == "--plot") {
    O.PlotDir = A.value();
  } else if (F == "--json") {
    O.Json = true;
  } else {
    return false;
  }
  return true;
}

void checkGrains(const std::vector<unsigned> &Grains) {
  for (unsigned G : Grains)
    if (G < 1)
      throw UsageError("--grains: a granularity must be >= 1");
}

/// The table lines of the peak operating point and the granularity study.
void printPeakAndGranularity(const PeakPoint &Peak, const std::vector<GranularityRow> &Gran) {
  std::cout << "  peak operating pt   N = " << Peak.Levels << " (" << fmt(Peak.Processors)
            << " processors, speedup " << fmt(Peak.Speedup) << ")"
            << (Peak.Found ? "" : "  [not reached within --max-levels]") << "\n\n"
            << "  granularity  T_e/message  peak N  peak speedup\n";
  for (const GranularityRow &G : Gran)
    std::cout << pad(std::to_string(G.Granularity), 13) << pad(fmtTime(G.TaskTime), 13)
              << pad(std::to_string(G.Peak.Levels) + (G.Peak.Found ? "" : "+"), 8)
              << pad(fmt(G.Peak.Speedup), 14) << "\n";
}

void printPlots(const std::vector<std::string> &Plots) {
  for (const std::string &F : Plots)
    std::cout << "wrote " << F << "\n";
}

/// Appends peak_threshold, peak_levels, peak_processors, peak_speedup,
/// peak_found and granularity to J.
void addPeakJson(json &J, double Threshold, const PeakPoint &Peak,
                 const std::vector<GranularityRow> &Gran) {
  json G = json::array();
  for (const GranularityRow &Row : Gran)
    G.push_back({{"granularity", Row.Granularity},
                 {"te_s", Row.TaskTime},
                 {"speedup", Row.Speedup},
                 {"peak_levels", Row.Peak.Levels},
                 {"peak_speedup", Row.Peak.Speedup},
                 {"peak_found", Row.Peak.Found}});
  J["peak_threshold"] = Threshold;
  J["peak_levels"] = Peak.Levels;
  J["peak_processors"] = countJson(Peak.Processors);
  J["peak_speedup"] = Peak.Speedup;
  J["peak_found"] = Peak.Found;
  J["granularity"] = G;
}

std::string levelsLabel(unsigned Arity) {
  return "levels N of the " + std::to_string(Arity) + "-ary tree";
}

/// Draws DIR/NAME_speedup (the series Speedup) and DIR/NAME_granularity (one
/// series per row of Gran), titled "Model: ... (Common)", with GranNote
/// appended to Common in the granularity title. Returns the images.
std::vector<std::string> plotTemplate(const std::string &Dir, const std::string &Name,
                                      const std::string &Model, const std::string &Common,
                                      const std::string &GranNote, const std::string &XLabel,
                                      const std::vector<Series> &Speedup,
                                      const std::vector<GranularityRow> &Gran) {
  std::vector<std::string> Files =
      plot(Dir, Name + "_speedup", Model + ": speedup vs N (" + Common + ")", XLabel, Speedup);
  std::vector<Series> Gs;
  for (const GranularityRow &G : Gran)
    Gs.push_back({std::to_string(G.Granularity) + " task" + (G.Granularity == 1 ? "" : "s") +
                      "/message (T_e = " + fmtTime(G.TaskTime) + ")",
                  G.Speedup, G.Peak});
  for (auto &F : plot(Dir, Name + "_granularity",
                      Model + ": granularity (" + Common + GranNote + ")", XLabel, Gs))
    Files.push_back(F);
  return Files;
}

} // namespace segtime::tmpl
