//===- PluginOptions.h - The plugin's options -------------------*- C++ -*-===//
///
/// \file
/// The options of one compile with the plugin and their parser. docs/cli.md
/// lists them; `-fplugin-arg-segtime-help` prints them.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PLUGIN_PLUGINOPTIONS_H
#define SEGTIME_PLUGIN_PLUGINOPTIONS_H

#include "passes/IRSeg.h"

#include "clang/Basic/Diagnostic.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace segtime {

struct PluginOptions {
  bool Quiet = false;
  bool IR = true;          ///< run the IR passes (IntCC) and the machine level (ICC)
  std::string Machine;     ///< empty: none named (chooseDefaultMachine)
  std::string MachineNote; ///< which machine is used and why, when none is named
  std::string Out;
  std::vector<std::string> Targets;        ///< ICC targets; empty: none
  uint64_t Budget = DefaultAnalysisBudget; ///< IR level, per function (buildIRSeg)
  bool Instrument = false;                 ///< component timing (CT)
  bool TimeInnermostLoops = false;         ///< instrument=all
  bool NoClock = false;                    ///< instrument=no-clock
  bool LateCounts = false;                 ///< instrument=late (passes/InstrumentLate.cpp)
  bool IrCopies = false;                   ///< ir-copies (IRCollection::NameCopies)
  bool Timing = false;                     ///< print the plugin's phase times
  std::map<std::string, double> Values;    ///< p=NAME=VALUE, for the printed ICC times
  /// inlined[=NAME,...]: functions with no code of their own (every call
  /// inlined) that get IR and machine levels from the code of their calls
  /// (all of them, the default, or only those named; none: no-inlined).
  /// Each refers to its callers' code (core/Seg.h InlinedRef, written as
  /// runs of nodes): Lua's .seg.json 4.96x its objects; predict resolves
  /// each site on its own function (Lua's lparser.c --level all: 0.5 s
  /// user against 0.06 s without).
  bool InlinedAll = true;
  std::set<std::string> Inlined;
};

/// Reads -fplugin-arg-segtime-KEY[=VALUE] (Args: KEY[=VALUE] each) into
/// Opts. An analysis option never fails the compile: an unknown key, a
/// value where none is expected, a missing or bad value, or an unknown ICC
/// target is a warning (through D) naming the argument and what is
/// accepted, and the argument is ignored (the defaults stand). Only an
/// output that cannot be written is an error (the AST consumer's).
/// docs/cli.md lists both.
void parsePluginArgs(clang::DiagnosticsEngine &D, const std::vector<std::string> &Args,
                     PluginOptions &Opts);

/// The text of -fplugin-arg-segtime-help, on OS.
void printPluginHelp(llvm::raw_ostream &OS);

} // namespace segtime

#endif
