//===- Gnuplot.h - PNG and SVG plots with gnuplot ---------------*- C++ -*-===//
///
/// \file
/// The plotting helper of the segtime commands that draw (farm, dc,
/// compare, comm calibrate): writes a gnuplot script next to its data and
/// runs gnuplot once for a PNG (pngcairo) and once for an SVG of the same
/// plot.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_TOOLS_GNUPLOT_H
#define SEGTIME_TOOLS_GNUPLOT_H

#include <string>
#include <vector>

namespace segtime {

/// S quoted for a POSIX shell.
std::string shellQuote(const std::string &S);
/// S as a gnuplot double-quoted string.
std::string gpString(const std::string &S);
/// Colours of the plotted series, in order (colour-blind safe Dark2).
const char *seriesColour(size_t I);

/// Creates Dir, writes Dir/Name.gp = Setup (set commands) followed by Plot
/// (the plot command, run once per terminal), runs gnuplot in Dir and
/// returns {Dir/Name.png, Dir/Name.svg} (900x600). Throws std::runtime_error
/// if Dir or the script cannot be written or gnuplot fails (its messages are
/// left in Dir/Name.gnuplot.log).
std::vector<std::string> gnuplotImages(const std::string &Dir, const std::string &Name,
                                       const std::string &Setup, const std::string &Plot);

} // namespace segtime

#endif
