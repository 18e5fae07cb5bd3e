//===- Gnuplot.cpp - PNG and SVG plots with gnuplot -----------------------===//
#include "tools/Gnuplot.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace segtime {

std::string shellQuote(const std::string &S) {
  std::string R = "'";
  for (char C : S)
    R += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return R + "'";
}

std::string gpString(const std::string &S) {
  std::string R = "\"";
  for (char C : S)
    R += (C == '"' || C == '\\') ? std::string("\\") + C : std::string(1, C);
  return R + "\"";
}

const char *seriesColour(size_t I) {
  static const char *Colours[] = {"#1b9e77", "#d95f02", "#7570b3", "#e7298a",
                                  "#66a61e", "#e6ab02", "#a6761d", "#666666"};
  return Colours[I % 8];
}

std::vector<std::string> gnuplotImages(const std::string &Dir, const std::string &Name,
                                       const std::string &Setup, const std::string &Plot) {
  namespace fs = std::filesystem;
  std::error_code EC;
  fs::create_directories(Dir, EC);
  if (EC)
    throw std::runtime_error("--plot: cannot create directory '" + Dir + "': " + EC.message());
  fs::path Base = fs::path(Dir) / Name;
  std::ofstream Gp(Base.string() + ".gp");
  if (!Gp)
    throw std::runtime_error("--plot: cannot write " + Base.string() + ".gp");
  Gp << Setup << "set terminal pngcairo size 900,600 font \"Sans,11\"\n"
     << "set output " << gpString(Name + ".png") << "\n"
     << Plot << "set terminal svg size 900,600 font \"Sans,11\" background \"white\"\n"
     << "set output " << gpString(Name + ".svg") << "\n"
     << Plot << "unset output\n";
  Gp.close();
  std::string Cmd = "cd " + shellQuote(Dir) + " && gnuplot " + shellQuote(Name + ".gp") +
                    " >/dev/null 2>" + shellQuote(Name + ".gnuplot.log");
  if (std::system(Cmd.c_str()) != 0)
    throw std::runtime_error("--plot: gnuplot failed (is it installed?); the data and script are in " +
                             Base.string() + ".dat/.gp, its messages in " + Base.string() +
                             ".gnuplot.log");
  fs::remove(Base.string() + ".gnuplot.log", EC);
  return {Base.string() + ".png", Base.string() + ".svg"};
}

} // namespace segtime
