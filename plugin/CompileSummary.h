//===- CompileSummary.h - The compile-time summary, by segtime -*- C++ -*-===//
///
/// \file
/// The summary the plugin prints once the .seg.json is written (docs/cli.md,
/// "What the plugin prints") is the text of
///   segtime predict FILE.seg.json --summary N --machine MACHINE -p NAME=VALUE...
/// (predictor compileTimeSummary), run as a child process: the plugin links
/// the expression code it needs itself, not the predictor (machine files,
/// models, yaml-cpp). The command is toolPath() (predictor/Install.h):
/// $SEGTIME, else the one next to the plugin.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PLUGIN_COMPILESUMMARY_H
#define SEGTIME_PLUGIN_COMPILESUMMARY_H

#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <map>
#include <string>

namespace segtime {

/// Writes to OS the compile-time summary of the first MaxFunctions
/// main-file functions of SegPath (a .seg.json just written) on Machine (a
/// name or path, as -fplugin-arg-segtime-machine) at Values (the p=
/// values). If the command is not found, cannot be run or fails, one line
/// "segtime: no compile-time summary: ..." says why and how to get it
/// instead; never fails the compile.
void printCompileTimeSummary(llvm::raw_ostream &OS, const std::string &SegPath,
                             const std::string &Machine,
                             const std::map<std::string, double> &Values, size_t MaxFunctions);

} // namespace segtime

#endif
