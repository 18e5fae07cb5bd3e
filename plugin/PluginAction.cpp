//===- PluginAction.cpp - The segtime clang plugin entry point ------------===//
///
/// \file
/// `-fplugin=build/lib/segtime.so` registers this action: it reads the
/// plugin's options (plugin/PluginOptions.h), turns on the IR passes
/// (passes/Register.h) through the code generator's pass-builder callbacks,
/// and adds, after the main compile action, the AST consumer that builds,
/// merges and writes the SEGs (plugin/Plugin.h).
///
/// USAGE:
///   clang-19 -O2 -fplugin=build/lib/segtime.so -c kernel.c
///   clang-19 -O2 -fplugin=build/lib/segtime.so -fplugin-arg-segtime-quiet -c
///   kernel.c clang-19 ... -fplugin-arg-segtime-machine=t800
///   -fplugin-arg-segtime-out=k.seg.json clang-19 ... -fplugin-arg-segtime-help
///
//===----------------------------------------------------------------------===//
#include "passes/Register.h"
#include "passes/Timing.h"
#include "plugin/Plugin.h"
#include "predictor/Install.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"

using namespace clang;

namespace segtime {
namespace {

class SegtimeAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef InFile) override {
    chooseDefaultMachine();
    enablePhaseTimers(Opts.Timing);
    if (Opts.IR || Opts.Instrument) {
      IRCollection &C = irCollection();
      C = IRCollection();
      C.Enabled = Opts.IR;
      C.Targets = Opts.Targets;
      C.Budget = Opts.Budget;
      C.NameCopies = Opts.IrCopies;
      const CodeGenOptions &CGO = CI.getCodeGenOpts();
      C.EmitsObject = CI.getFrontendOpts().ProgramAction == frontend::EmitObj &&
                      !CGO.PrepareForLTO && !CGO.PrepareForThinLTO;
      C.Instrument.Enabled = Opts.Instrument;
      C.Instrument.TimeInnermostLoops = Opts.TimeInnermostLoops;
      C.Instrument.NoClock = Opts.NoClock;
      C.Instrument.Late = Opts.LateCounts;
      C.Instrument.Functions.emplace(); // filled by HandleTopLevelDecl
      // Line tables let the IR levels attribute optimised code to source.
      // If the user did not ask for debug info, the first pass of the
      // pipeline removes the loop locations that would change the
      // optimiser's block order (passes/SourceLoc.h) and the collection pass
      // strips the rest before code generation: the object code is unchanged.
      CodeGenOptions &CG = CI.getCodeGenOpts();
      if (CG.getDebugInfo() == llvm::codegenoptions::NoDebugInfo) {
        CG.setDebugInfo(llvm::codegenoptions::DebugLineTablesOnly);
        C.StripDebugInfo = true;
        C.Instrument.StripDebugInfo = !Opts.IR; // else the collection pass does
      }
      CG.PassBuilderCallbacks.push_back(registerSegtimePasses);
    }
    // Clang keeps the AST through its back end because a plugin runs after
    // the main action (it sets ClearASTBeforeBackend to false once the
    // plugins' consumers are made); the consumer releases it itself when the
    // back end starts (SegConsumer::backendStarts) if the compile asked for
    // that and no other plugin might need it.
    bool ReleaseAst =
        CI.getCodeGenOpts().ClearASTBeforeBackend &&
        std::distance(FrontendPluginRegistry::begin(), FrontendPluginRegistry::end()) == 1;
    return makeSegConsumer(CI, Opts, InFile.str(), ReleaseAst);
  }

  /// Reads -fplugin-arg-segtime-KEY[=VALUE] (parsePluginArgs): a mistake
  /// is a warning, never a failed compile.
  bool ParseArgs(const CompilerInstance &CI, const std::vector<std::string> &Args) override {
    parsePluginArgs(CI.getDiagnostics(), Args, Opts);
    return true;
  }

  ActionType getActionType() override { return AddAfterMainAction; }

private:
  /// No machine= given: the user's calibrated machine, and then ICC for the
  /// compile target unless targets= names others; else t800 (defaultMachine).
  void chooseDefaultMachine() {
    if (!Opts.Machine.empty())
      return;
    DefaultMachine D = defaultMachine();
    Opts.Machine = D.Path;
    Opts.MachineNote = D.Note;
    if (D.ThisMachine && Opts.Targets.empty())
      Opts.Targets = {"compile"};
  }

  PluginOptions Opts;
};

} // namespace
} // namespace segtime

static FrontendPluginRegistry::Add<segtime::SegtimeAction>
    X("segtime", "software execution graphs, RUVs and timing formulas");
