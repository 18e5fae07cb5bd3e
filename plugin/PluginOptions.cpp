//===- PluginOptions.cpp - The plugin's -fplugin-arg-segtime- options -----===//
///
/// \file
/// Options (-fplugin-arg-segtime-KEY[=VALUE]):
///   quiet            print nothing (still write the .seg.json)
///   machine=NAME     machine for the printed closed forms (default: this
///                    machine if `segtime calibrate` calibrated it, then also
///                    targets=compile; else t800; predictor/Install.h)
///   out=PATH         where to write the SEG file (default <output>.seg.json)
///   targets=LIST     ICC targets (znver5,skylake,leon3,... or TRIPLE:CPU)
///   no-ir            skip the IR (IntCC) and machine (ICC) levels
///   instrument       component timing: build with timers and counters around
///                    every SEG node (passes/Instrument.h); link
///                    build/lib/libsegtime-rt.a, run: <program>.ct.json
///   instrument=all   also time innermost loops (counted only by default)
///   instrument=no-clock  the same instrumentation with every timer read an
///                    opaque zero: a measurement aid (what the reads cost)
///   instrument=late  count the optimised code instead (passes/InstrumentLate.cpp):
///                    each IR branch copy's and loop header's counts, untimed
///   ir-copies        each copy of an optimised branch gets a parameter of its
///                    own, Pir_<fn>_<line>_<col>_c<k>, defaulting to the shared
///                    one (for instrument=late profiles)
///   p=NAME=VALUE     parameter value for the printed ICC times (repeatable)
///   inlined[=NAME,...]  IR and machine levels of functions with no code of
///                    their own from the code of their inlined calls (by
///                    reference, per call site; default: all)
///   no-inlined       none of them
///   timing           print the plugin's own phase times (passes/Timing.h)
///   budget=N         units of symbolic work per function for the IR level
///                    (default 1000000, passes/IRSeg.h); beyond, numeric
///                    estimates and a warning
///   help             list the options
///
//===----------------------------------------------------------------------===//
#include "plugin/PluginOptions.h"
#include "core/Seg.h"
#include "passes/MachineLevel.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <stdexcept>

using namespace clang;

namespace segtime {

void printPluginHelp(llvm::raw_ostream &OS) {
  OS << "segtime plugin options (-fplugin-arg-segtime-KEY[=VALUE]):\n"
        "  quiet          print nothing; still write the .seg.json\n"
        "  machine=NAME   machine for printed closed forms (default: this\n"
        "                 machine if calibrated, then also targets=compile;\n"
        "                 else t800)\n"
        "  out=PATH       SEG file to write (default <output>.seg.json)\n"
        "  targets=LIST   ICC targets: znver5, znver4, skylake, "
        "sapphirerapids,\n"
        "                 native, supersparc, leon3, compile, or TRIPLE:CPU\n"
        "                 (default none)\n"
        "  no-ir          skip the IR (IntCC) and machine (ICC) levels\n"
        "  instrument     component timing: timers and counters around every\n"
        "                 function, loop, call and branch; link\n"
        "                 build/lib/libsegtime-rt.a; the program writes\n"
        "                 <program>.ct.json (or $SEGTIME_CT_FILE) at exit;\n"
        "                 innermost loops are counted, not timed\n"
        "  instrument=all also time innermost loops (perturbs short loops)\n"
        "  instrument=no-clock\n"
        "                 the same code with every timer read an opaque 0\n"
        "                 (measures what the reads cost: ct_overhead.py)\n"
        "  instrument=late\n"
        "                 count the optimised code: every IR branch (each\n"
        "                 copy the optimiser made) and loop header, untimed\n"
        "                 (the CT file's \"late\" records, for predict --profile)\n"
        "  ir-copies      a parameter per copy of an optimised branch,\n"
        "                 Pir_<fn>_<line>_<col>_c<k>, defaulting to the shared\n"
        "                 one; an instrument=late profile gives each its rate\n"
        "  p=NAME=VALUE   a parameter value for the printed ICC times (as\n"
        "                 segtime predict -p; repeatable)\n"
        "  inlined[=NAME,...]\n"
        "                 a function with no code of its own (every call\n"
        "                 inlined; all, or only those named) gets IR and\n"
        "                 machine levels from the code of its calls, one per\n"
        "                 call site, by reference (default: all)\n"
        "  no-inlined     no function gets them\n"
        "  timing         print the plugin's own phase times (AST SEG, IR "
        "SEG,\n"
        "                 ICC clone, code generation, block costing, JSON)\n"
        "  budget=N       units of symbolic work per function at the IR level\n"
        "                 (default " +
            std::to_string(DefaultAnalysisBudget) +
            "); beyond it the\n"
            "                 function's frequencies are numeric estimates, "
            "with a\n"
            "                 warning, and the compile goes on\n"
            "A mistake in these arguments is a warning and the argument is "
            "ignored;\n"
            "only an output that cannot be written fails the compile.\n";
}

void parsePluginArgs(DiagnosticsEngine &D, const std::vector<std::string> &Args,
                     PluginOptions &Opts) {
  unsigned WarnID =
      D.getCustomDiagID(DiagnosticsEngine::Warning, "segtime: plugin argument '%0' ignored: %1");
  unsigned TargetID = D.getCustomDiagID(
      DiagnosticsEngine::Warning, "segtime: plugin argument '%0': %1; the target is left out");
  auto Bad = [&](const std::string &A, const std::string &Why) { D.Report(WarnID) << A << Why; };
  for (const std::string &A : Args) {
    llvm::StringRef Key = llvm::StringRef(A).split('=').first;
    llvm::StringRef Val = llvm::StringRef(A).split('=').second;
    bool HasVal = A.find('=') != std::string::npos;
    // A key that takes no value, given one; a key that needs one, without.
    auto NoValue = [&] {
      if (HasVal)
        Bad(A, "'" + Key.str() + "' takes no value");
      return !HasVal;
    };
    auto NeedValue = [&](const char *What) {
      if (!HasVal || Val.empty())
        Bad(A, "'" + Key.str() + "' needs a value: " + Key.str() + "=" + What);
      return HasVal && !Val.empty();
    };
    if (Key == "quiet") {
      if (NoValue())
        Opts.Quiet = true;
    } else if (Key == "machine") {
      if (NeedValue("NAME"))
        Opts.Machine = Val.str();
    } else if (Key == "out") {
      if (NeedValue("PATH"))
        Opts.Out = Val.str();
    } else if (Key == "no-ir") {
      if (NoValue())
        Opts.IR = false;
    } else if (Key == "instrument") {
      if (!HasVal || Val == "all" || Val == "no-clock" || Val == "late") {
        Opts.Instrument = true;
        Opts.TimeInnermostLoops = Val == "all";
        Opts.NoClock = Val == "no-clock";
        Opts.LateCounts = Val == "late";
      } else {
        Bad(A, "expected instrument, instrument=all, instrument=no-clock or instrument=late");
      }
    } else if (Key == "ir-copies") {
      if (NoValue())
        Opts.IrCopies = true;
    } else if (Key == "targets") {
      if (!NeedValue("CPU,..."))
        continue;
      Opts.Targets.clear();
      llvm::SmallVector<llvm::StringRef> Parts;
      Val.split(Parts, ',', -1, false);
      for (llvm::StringRef P : Parts) {
        // Checked here, so that a misspelt target is said at once rather
        // than only in the SEG file's warnings.
        std::string Err;
        if (P != "compile" && !parseTargetSpec(P.str(), Err))
          D.Report(TargetID) << A << Err + ", or compile";
        else
          Opts.Targets.push_back(P.str());
      }
    } else if (Key == "p") {
      if (!NeedValue("NAME=VALUE"))
        continue;
      try {
        auto [Name, V] = parseParamAssignment(Val.str());
        Opts.Values[Name] = V;
      } catch (const std::runtime_error &) {
        Bad(A, "expected p=NAME=VALUE with a finite number, as segtime "
               "predict's -p");
      }
    } else if (Key == "no-inlined") {
      if (NoValue()) {
        Opts.InlinedAll = false;
        Opts.Inlined.clear();
      }
    } else if (Key == "inlined") {
      if (!HasVal) {
        Opts.InlinedAll = true;
        continue;
      }
      if (!NeedValue("NAME,..."))
        continue;
      Opts.InlinedAll = false;
      llvm::SmallVector<llvm::StringRef> Parts;
      Val.split(Parts, ',', -1, false);
      for (llvm::StringRef P : Parts)
        Opts.Inlined.insert(P.str());
    } else if (Key == "timing") {
      if (NoValue())
        Opts.Timing = true;
    } else if (Key == "budget") {
      unsigned long long N = 0;
      if (!NeedValue("N"))
        continue;
      // (getAsInteger returns true on error)
      if (Val.getAsInteger(10, N) || N == 0 || N > static_cast<unsigned long long>(INT64_MAX))
        Bad(A, "expected a whole number > 0, got '" + Val.str() + "' (default " +
                   std::to_string(DefaultAnalysisBudget) + ")");
      else
        Opts.Budget = static_cast<decltype(Opts.Budget)>(N);
    } else if (Key == "help") {
      printPluginHelp(llvm::errs());
    } else {
      Bad(A, "unknown key '" + Key.str() +
                 "' (expected quiet, machine=NAME, out=PATH, targets=CPU,..., "
                 "no-ir, inlined[=NAME,...], no-inlined, "
                 "instrument[=all|no-clock|late], ir-copies, p=NAME=VALUE, timing, budget=N, "
                 "help)");
    }
  }
}

} // namespace segtime
