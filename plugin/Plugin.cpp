//===- Plugin.cpp - The segtime clang plugin entry point -------------------===//
///
/// \file
/// `-fplugin=build/lib/segtime.so` adds, after the main compile action, an AST
/// consumer that builds the SEG of every function with a body, prints each
/// main-file function's timing formula and writes <output>.seg.json. The
/// plugin never changes the AST or the generated code.
///
/// USAGE:
///   clang-19 -O2 -fplugin=build/lib/segtime.so -c kernel.c
///   clang-19 -O2 -fplugin=build/lib/segtime.so -fplugin-arg-segtime-quiet -c kernel.c
///   clang-19 ... -fplugin-arg-segtime-machine=t800 -fplugin-arg-segtime-out=k.seg.json
///
/// Options (-fplugin-arg-segtime-KEY[=VALUE]):
///   quiet            print nothing (still write the .seg.json)
///   machine=NAME     machine for the printed closed forms (default t800)
///   out=PATH         where to write the SEG file (default <output>.seg.json)
///   help             list the options
///
//===----------------------------------------------------------------------===//
#include "plugin/SegBuilder.h"
#include "predictor/Predict.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>

using namespace clang;

namespace segtime {
namespace {

struct PluginOptions {
  bool Quiet = false;
  std::string Machine = "t800";
  std::string Out;
};

class FunctionCollector : public RecursiveASTVisitor<FunctionCollector> {
public:
  explicit FunctionCollector(SourceManager &SM) : SM(SM) {}
  std::vector<const FunctionDecl *> Functions;
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody() && !FD->isDependentContext() &&
        !SM.isInSystemHeader(FD->getLocation()))
      Functions.push_back(FD);
    return true;
  }

private:
  SourceManager &SM;
};

/// Turns calls that close a cycle of the call graph into Unknown nodes.
void markRecursion(SegFile &S, std::vector<std::pair<std::string, std::string>> &Found) {
  std::map<std::string, std::set<std::string>> Calls;
  for (const FunctionSeg &F : S.Functions)
    forEachNode(F.Body, [&](const Node &N) {
      if (N.Kind == NodeKind::Call)
        Calls[F.Name].insert(N.Callee);
    });
  auto Reaches = [&](const std::string &From, const std::string &To) {
    std::set<std::string> Seen;
    std::vector<std::string> Work{From};
    while (!Work.empty()) {
      std::string X = Work.back();
      Work.pop_back();
      if (X == To)
        return true;
      if (!Seen.insert(X).second)
        continue;
      for (const std::string &Y : Calls[X])
        Work.push_back(Y);
    }
    return false;
  };
  std::function<void(NodeList &, const std::string &)> Walk = [&](NodeList &L,
                                                                  const std::string &Fn) {
    for (Node &N : L) {
      if (N.Kind == NodeKind::Call && Reaches(N.Callee, Fn)) {
        N.Kind = NodeKind::Unknown;
        N.Reason = "recursive call to '" + N.Callee + "'";
        Found.push_back({Fn, N.Id});
      }
      Walk(N.Body, Fn);
      for (Arm &A : N.Arms)
        Walk(A.Body, Fn);
    }
  };
  for (FunctionSeg &F : S.Functions)
    Walk(F.Body, F.Name);
}

class SegConsumer : public ASTConsumer {
public:
  SegConsumer(CompilerInstance &CI, PluginOptions O, std::string InFile)
      : CI(CI), Opts(std::move(O)), InFile(std::move(InFile)) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    DiagnosticsEngine &D = CI.getDiagnostics();
    if (D.hasErrorOccurred())
      return;
    SourceManager &SM = Ctx.getSourceManager();
    FunctionCollector FC(SM);
    FC.TraverseDecl(Ctx.getTranslationUnitDecl());

    SegFile File;
    File.SourceFile = InFile;
    const CodeGenOptions &CG = CI.getCodeGenOpts();
    File.OptLevel = CG.OptimizeSize == 1   ? "Os"
                    : CG.OptimizeSize == 2 ? "Oz"
                                           : "O" + std::to_string(CG.OptimizationLevel);
    std::vector<BuilderWarning> Warnings;
    std::map<std::string, SourceLocation> Where;
    for (const FunctionDecl *FD : FC.Functions) {
      FunctionSeg F = buildFunctionSeg(Ctx, FD, Warnings);
      Where[F.Name] = FD->getLocation();
      File.Functions.push_back(std::move(F));
    }
    std::vector<std::pair<std::string, std::string>> Rec;
    markRecursion(File, Rec);
    unsigned WarnID = D.getCustomDiagID(DiagnosticsEngine::Warning, "%0");
    // One warning per function for its calls to external functions (malloc,
    // printf, ...), one per node for everything else; all go into the file.
    std::map<std::string, std::pair<SourceLocation, std::map<std::string, int>>> External;
    for (const BuilderWarning &W : Warnings) {
      PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(W.Loc));
      File.Warnings.push_back((P.isValid() ? std::string(P.getFilename()) + ":" +
                                                 std::to_string(P.getLine()) + ": "
                                           : std::string()) +
                              W.Message);
      if (!SM.isInMainFile(SM.getExpansionLoc(W.Loc)))
        continue;
      if (W.External.empty()) {
        D.Report(W.Loc, WarnID) << W.Message;
        continue;
      }
      auto &G = External[W.Function];
      if (G.first.isInvalid())
        G.first = W.Loc;
      ++G.second[W.External];
    }
    for (auto &[Fn, G] : External) {
      std::string List;
      for (auto &[Name, Count] : G.second)
        List += (List.empty() ? "" : ", ") + Name + (Count > 1 ? " (" + std::to_string(Count) + "x)" : "");
      D.Report(G.first, WarnID) << "segtime: not characterised in '" + Fn +
                                       "': calls to external functions " + List +
                                       " (Unknown SEG nodes, not costed)";
    }
    for (auto &[Fn, Id] : Rec) {
      std::string Msg = "segtime: not characterised: recursive call (SEG node " + Id +
                        " in '" + Fn + "')";
      D.Report(Where[Fn], WarnID) << Msg;
      File.Warnings.push_back(Msg);
    }

    writeFile(File);
    if (!Opts.Quiet)
      print(File);
  }

private:
  std::string outputPath() const {
    if (!Opts.Out.empty())
      return Opts.Out;
    std::string O = CI.getFrontendOpts().OutputFile;
    llvm::SmallString<256> P(O.empty() || O == "-" ? llvm::sys::path::filename(InFile) : O);
    llvm::sys::path::replace_extension(P, ".seg.json");
    return std::string(P.str());
  }

  void writeFile(const SegFile &File) {
    std::string Path = outputPath();
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC, llvm::sys::fs::OF_Text);
    if (EC) {
      unsigned ID = CI.getDiagnostics().getCustomDiagID(DiagnosticsEngine::Error,
                                                        "segtime: cannot write '%0': %1");
      CI.getDiagnostics().Report(ID) << Path << EC.message();
      return;
    }
    OS << File.toJSON().dump(1) << "\n";
  }

  void print(const SegFile &File) {
    llvm::errs() << compileTimeSummary(File, Opts.Machine) << "segtime: wrote "
                 << outputPath() << "\n";
  }

  CompilerInstance &CI;
  PluginOptions Opts;
  std::string InFile;
};

class SegtimeAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef InFile) override {
    return std::make_unique<SegConsumer>(CI, Opts, InFile.str());
  }

  bool ParseArgs(const CompilerInstance &CI, const std::vector<std::string> &Args) override {
    DiagnosticsEngine &D = CI.getDiagnostics();
    for (const std::string &A : Args) {
      llvm::StringRef Key = llvm::StringRef(A).split('=').first;
      llvm::StringRef Val = llvm::StringRef(A).split('=').second;
      bool HasVal = A.find('=') != std::string::npos;
      if (Key == "quiet" && !HasVal) {
        Opts.Quiet = true;
      } else if (Key == "machine" && HasVal && !Val.empty()) {
        Opts.Machine = Val.str();
      } else if (Key == "out" && HasVal && !Val.empty()) {
        Opts.Out = Val.str();
      } else if (Key == "help") {
        llvm::errs() << "segtime plugin options (-fplugin-arg-segtime-KEY[=VALUE]):\n"
                        "  quiet          print nothing; still write the .seg.json\n"
                        "  machine=NAME   machine for printed closed forms (default t800)\n"
                        "  out=PATH       SEG file to write (default <output>.seg.json)\n";
      } else {
        unsigned ID = D.getCustomDiagID(
            DiagnosticsEngine::Error,
            "segtime: bad plugin argument '%0' (expected quiet, machine=NAME, out=PATH, help)");
        D.Report(ID) << A;
        return false;
      }
    }
    return true;
  }

  ActionType getActionType() override { return AddAfterMainAction; }

private:
  PluginOptions Opts;
};

} // namespace
} // namespace segtime

static FrontendPluginRegistry::Add<segtime::SegtimeAction>
    X("segtime", "software execution graphs, RUVs and timing formulas");
