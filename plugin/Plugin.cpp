//===- Plugin.cpp - The plugin's AST consumer: SEGs built, merged, written ===//
///
/// \file
/// The AST consumer that `-fplugin=build/lib/segtime.so` adds after the main
/// compile action (plugin/PluginAction.cpp): it builds the SEG of every
/// function with a body, prints each main-file function's timing formula
/// and writes <output>.seg.json. Each function is built, merged with its IR
/// levels and written as soon as its IR SEG is final (during code
/// generation), then released: memory holds the IR SEGs still waiting for
/// code generation, not the whole file's SEGs. The plugin never changes the
/// AST or the generated code, except with `instrument` (component timing),
/// whose point is to add timers.
///
//===----------------------------------------------------------------------===//
#include "plugin/Plugin.h"
#include "passes/MachineLevel.h"
#include "passes/Register.h"
#include "passes/Timing.h"
#include "plugin/CallGraph.h"
#include "plugin/CompileSummary.h"
#include "plugin/IRLevels.h"
#include "plugin/SegBuilder.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Mangle.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <optional>
#include <set>

using namespace clang;

namespace segtime {
namespace {

class SegConsumer : public ASTConsumer {
public:
  /// ReleaseAst: the AST may be released when the back end starts
  /// (backendStarts).
  SegConsumer(CompilerInstance &CI, PluginOptions O, std::string InFile, bool ReleaseAst)
      : CI(CI), Opts(std::move(O)), InFile(std::move(InFile)), ReleaseAst(ReleaseAst) {}

  /// Functions are merged and written as their IR SEGs become final
  /// (irFinal), during code generation; the rest in HandleTranslationUnit.
  void Initialize(ASTContext &Ctx) override {
    Names.emplace(Ctx);
    this->Ctx = &Ctx;
    if (Opts.IR) {
      irCollection().OnFinal = [this](const std::string &Mangled, IRFunctionSeg &IR) {
        irFinal(Mangled, IR);
      };
      irCollection().OnBackendStart = [this] { backendStarts(); };
    }
  }

  /// Source parameter names of every function, by IR name, for the IR
  /// passes (which run before HandleTranslationUnit; IR keeps no names).
  bool HandleTopLevelDecl(DeclGroupRef DG) override {
    for (Decl *D : DG)
      record(D);
    return true;
  }
  void record(Decl *D) {
    if (auto *FD = dyn_cast<FunctionDecl>(D)) {
      if (!FD->doesThisDeclarationHaveABody() || FD->isDependentContext())
        return;
      std::vector<std::string> Ps;
      for (const ParmVarDecl *P : FD->parameters())
        Ps.push_back(P->getNameAsString());
      std::string Mangled = Names->getName(FD);
      irCollection().ParamNames[Mangled] = Ps;
      irCollection().SourceNames[Mangled] = FD->getNameAsString();
      auto &Instrumented = irCollection().Instrument.Functions;
      if (Instrumented && !CI.getSourceManager().isInSystemHeader(FD->getLocation()))
        Instrumented->insert(Mangled);
    } else if (auto *DC = dyn_cast<DeclContext>(D)) {
      if (isa<NamespaceDecl, LinkageSpecDecl>(D))
        for (Decl *Inner : DC->decls())
          record(Inner);
    }
  }

  void HandleTranslationUnit(ASTContext &Ctx) override {
    DiagnosticsEngine &D = CI.getDiagnostics();
    if (D.hasErrorOccurred()) {
      abandon();
      return;
    }
    expect();
    notePeakMemory("code generation done");
    if (Opts.IR)
      finishIccLevels(); // code generation has run (hands over the rest)
    // Functions with no IR SEG: not emitted (unused static, inline), or no
    // code generation (-fsyntax-only), or no-ir.
    for (size_t I = 0; I < Functions.size(); ++I)
      if (!Written[I])
        writeFunction(I, nullptr);
    flush();
    irCollection().Functions.clear(); // (those with no source-level SEG)

    SourceManager &SM = Ctx.getSourceManager();
    unsigned WarnID = D.getCustomDiagID(DiagnosticsEngine::Warning, "%0");
    bool Warn = !D.getIgnoreAllWarnings(); // -w (custom IDs do not follow it)
    // One warning per function for its calls to external functions (malloc,
    // printf, ...), one per node for everything else; all go into the file.
    // In source order, whatever order the functions were done in.
    std::map<std::string, std::pair<SourceLocation, std::map<std::string, int>>> External;
    std::vector<BuilderWarning> Warnings;
    std::vector<std::pair<std::string, std::string>> Rec;
    for (size_t I = 0; I < Functions.size(); ++I) {
      Warnings.insert(Warnings.end(), Done[I].Warnings.begin(), Done[I].Warnings.end());
      Rec.insert(Rec.end(), Done[I].Recursive.begin(), Done[I].Recursive.end());
    }
    for (const BuilderWarning &W : Warnings) {
      PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(W.Loc));
      File.Warnings.push_back((P.isValid() ? std::string(P.getFilename()) + ":" +
                                                 std::to_string(P.getLine()) + ": "
                                           : std::string()) +
                              W.Message);
      if (!Warn || !SM.isInMainFile(SM.getExpansionLoc(W.Loc)))
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
      if (Warn)
        D.Report(Where[Fn], WarnID) << Msg;
      File.Warnings.push_back(Msg);
    }
    for (const DoneFunction &X : Done)
      File.Warnings.insert(File.Warnings.end(), X.MergeWarnings.begin(), X.MergeWarnings.end());
    if (Opts.IR)
      mergeIRFile(File, irCollection());
    {
      llvm::TimeRegion T(phaseTimer("write-json", ".seg.json written"));
      // The keys after "functions" (all sort after it), as SegFileWriter.
      emit(AnyWritten ? "]," : "{\"functions\":[],");
      writeCompactHeader(File, Vocab, [this](const std::string &T) { emit(T); });
      OS.reset();
    }
    irCollection().OnFinal = nullptr;
    if (!Opts.Quiet)
      print();
    if (Opts.Timing) {
      notePeakMemory(".seg.json written");
      printPhaseTimes(llvm::errs());
    }
  }

  ~SegConsumer() override {
    irCollection().OnFinal = nullptr;
    irCollection().OnBackendStart = nullptr;
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

  /// Once, when the AST is complete (when the back end starts, or code
  /// generation hands over the first IR SEG, or at the end): the functions
  /// to characterise, the call graph, the file's header and the open
  /// .seg.json.
  void prepare() {
    if (OS)
      return;
    llvm::TimeRegion T(phaseTimer("ast-seg", "AST SEG (POC, HLLC)"));
    FunctionCollector FC(Ctx->getSourceManager());
    FC.TraverseDecl(Ctx->getTranslationUnitDecl());
    Functions = std::move(FC.Functions);
    Written.assign(Functions.size(), false);
    Done.resize(Functions.size());
    // The summary covers files of at most SummaryMaxFunctions functions in
    // the main file; a larger one (an amalgamation) gets a note instead: no
    // file-wide prediction runs at the end.
    size_t InMain = 0;
    for (const FunctionDecl *FD : Functions)
      InMain += Ctx->getSourceManager().isInMainFile(
          Ctx->getSourceManager().getExpansionLoc(FD->getLocation()));
    if (!Opts.Quiet && InMain > SummaryMaxFunctions)
      SummarySkipped = InMain;
    for (size_t I = 0; I < Functions.size(); ++I)
      ByName[Functions[I]->getNameAsString()].push_back(I);
    Graph.emplace(Functions);
    for (auto &[Mangled, Source] : irCollection().SourceNames)
      IRName[Source] = Mangled;
    File.SourceFile = InFile;
    const CodeGenOptions &CG = CI.getCodeGenOpts();
    File.OptLevel = CG.OptimizeSize == 1   ? "Os"
                    : CG.OptimizeSize == 2 ? "Oz"
                                           : "O" + std::to_string(CG.OptimizationLevel);
    std::string Path = outputPath();
    OS.emplace(Path, EC, llvm::sys::fs::OF_Text);
    if (EC) {
      unsigned ID = CI.getDiagnostics().getCustomDiagID(DiagnosticsEngine::Error,
                                                        "segtime: cannot write '%0': %1");
      CI.getDiagnostics().Report(ID) << Path << EC.message();
    }
  }

  /// Once, when the IR passes have characterised the functions (the first
  /// IR SEG handed over, or at the end): Expect.
  void expect() {
    prepare();
    if (!Expect.empty() || Functions.empty())
      return;
    // An IR SEG comes for the first function of each source name whose IR
    // name the IR passes characterised (irFinal).
    Expect.assign(Functions.size(), false);
    for (auto &[Name, Is] : ByName) {
      auto IN = IRName.find(Name);
      Expect[Is.front()] = irCollection().Functions.count(IN != IRName.end() ? IN->second : Name);
    }
    // A function with no code of its own whose calls were inlined (option
    // inlined): its IR level comes from its callers' IR SEGs
    // (takeInlined), once all of them are final.
    for (auto &[Carrier, FS] : irCollection().Functions)
      for (const InlinedSite &S : FS.Inlined) {
        auto SN = irCollection().SourceNames.find(S.Callee);
        const std::string &Callee = SN != irCollection().SourceNames.end() ? SN->second : S.Callee;
        auto B = ByName.find(Callee);
        if (B != ByName.end() && !Expect[B->second.front()] &&
            (Opts.InlinedAll || Opts.Inlined.count(Callee)))
          Carriers[Callee].insert(Carrier);
      }
    for (auto &[Callee, Waiting] : Carriers)
      Expect[ByName[Callee].front()] = true;
  }

  /// IRCollection::OnBackendStart: clang's IR generation is done, the AST
  /// complete. Every function's source-level SEG is built now and held
  /// (as built up to HeldBudget bytes, then packed and compressed:
  /// packFunctionSeg, compressImage, a small fraction of the AST) until
  /// its IR SEG comes, and the AST is released as clang releases it before
  /// its back end when no plugin needs it afterwards
  /// (-clear-ast-before-backend): code generation then runs without it, as
  /// without the plugin. The SEGs are those writeFunction would have built
  /// later from the same AST.
  void backendStarts() {
    if (CI.getDiagnostics().hasErrorOccurred())
      return;
    notePeakMemory("IR generated (AST held)");
    prepare();
    Prebuilt.resize(Functions.size());
    Held.resize(Functions.size());
    // Held as built while they take at most HeldBudget bytes of the heap;
    // past it, packed and compressed, those held so far too.
    std::optional<size_t> Base = heapBytesInUse();
    bool Pack = !Base;
    size_t Since = 0; // functions held since the last look at the heap
    auto PackHeld = [&](size_t I) {
      llvm::TimeRegion T(phaseTimer("ast-seg", "AST SEG (POC, HLLC)"));
      Prebuilt[I] = compressImage(packFunctionSeg(*Held[I]));
      Held[I].reset();
    };
    for (size_t I = 0; I < Functions.size(); ++I)
      if (!Written[I]) {
        Held[I] = buildSourceSeg(I);
        if (!Pack && ++Since % HeapCheckEvery == 0) { // (mallinfo2 walks malloc's bins)
          std::optional<size_t> Now = heapBytesInUse();
          Pack = !Now || *Now > *Base + HeldBudget;
          for (size_t J = 0; Pack && J < I; ++J)
            if (Held[J])
              PackHeld(J);
        }
        if (Pack)
          PackHeld(I);
      }
    if (ReleaseAst) {
      Ctx->cleanup();
      Ctx->getAllocator().Reset();
      AstReleased = true;
    }
    notePeakMemory("source SEGs built, AST released");
  }

  /// The source-level SEG of Functions[I] from the AST, its recursive calls
  /// marked (needs the AST).
  FunctionSeg buildSourceSeg(size_t I) {
    llvm::TimeRegion T(phaseTimer("ast-seg", "AST SEG (POC, HLLC)"));
    FunctionSeg F = buildFunctionSeg(*Ctx, Functions[I], Done[I].Warnings);
    Where[F.Name] = Functions[I]->getLocation();
    markRecursion(F, *Graph, Done[I].Recursive);
    return F;
  }

  /// IRCollection::OnFinal: the IR SEG of IR function Mangled is final.
  /// The function it belongs to (the first not yet written of that source
  /// name, as before: IR names whose source name maps back to another IR
  /// name are not characterised) is built, merged and written now, so that
  /// neither level is held until the end of the compile.
  void irFinal(const std::string &Mangled, IRFunctionSeg &IR) {
    expect();
    takeInlined(Mangled, IR);
    auto SN = irCollection().SourceNames.find(Mangled);
    const std::string &Source = SN != irCollection().SourceNames.end() ? SN->second : Mangled;
    auto IN = IRName.find(Source);
    if (IN != IRName.end() ? IN->second != Mangled : Source != Mangled)
      return;
    auto B = ByName.find(Source);
    if (B == ByName.end())
      return;
    if (!Written[B->second.front()]) {
      writeFunction(B->second.front(), &IR);
      flush();
    }
  }

  /// Records the code of the calls inlined into IR function Carrier (by
  /// reference to its IR SEG's nodes: inlinedRef), and writes each callee
  /// with no code of its own whose callers are all done.
  void takeInlined(const std::string &Carrier, const IRFunctionSeg &IR) {
    auto &Names = irCollection().SourceNames;
    auto SourceOf = [&](const std::string &IRName) {
      auto It = Names.find(IRName);
      return It != Names.end() ? It->second : IRName;
    };
    for (const InlinedSite &S : IR.Inlined)
      if (Carriers.count(SourceOf(S.Callee)))
        Inlined[SourceOf(S.Callee)].push_back(inlinedRef(IR, S, SourceOf(Carrier)));
    for (auto &[Callee, Waiting] : Carriers) {
      if (!Waiting.erase(Carrier) || !Waiting.empty())
        continue;
      auto B = ByName.find(Callee);
      if (B == ByName.end() || Written[B->second.front()])
        continue;
      writeFunction(B->second.front(), nullptr, std::move(Inlined[Callee]));
      Inlined.erase(Callee);
      flush();
    }
  }

  /// The IR (mangled) name of source function Source.
  std::string irNameOf(const std::string &Source) const {
    auto IN = IRName.find(Source);
    return IN != IRName.end() ? IN->second : Source;
  }

  /// Builds the source-level SEG of Functions[I], merges IR (if any) into
  /// it, turns it into its .seg.json text (Ready[I], written by flush) and
  /// releases it (the summary reads the written file).
  void writeFunction(size_t I, IRFunctionSeg *IR, std::vector<InlinedRef> InlinedAt = {}) {
    FunctionSeg F;
    if (I < Held.size() && Held[I]) {
      F = std::move(*Held[I]);
      Held[I].reset();
    } else if (I < Prebuilt.size() && !Prebuilt[I].empty()) {
      llvm::TimeRegion T(phaseTimer("ast-seg", "AST SEG (POC, HLLC)"));
      std::vector<std::uint8_t> Image;
      if (decompressImage(Prebuilt[I], Image))
        F = unpackFunctionSeg(Image);
      else // (the AST is gone: the function cannot be built again)
        File.Warnings.push_back("segtime: the source-level SEG of function " +
                                std::to_string(I) + " could not be restored (not characterised)");
      Prebuilt[I] = {};
    } else {
      assert(!AstReleased && "a source-level SEG to build after the AST is released");
      F = buildSourceSeg(I);
    }
    Written[I] = true;
    F.InlinedAt = std::move(InlinedAt);
    if (Opts.IR) {
      llvm::TimeRegion T(phaseTimer("merge-ir", "IR levels merged into the SEG"));
      // A second function of the same source name (C++ overloads) gets the
      // empty IR level the first one left behind.
      IRFunctionSeg Empty;
      if (IR || Merged.count(F.Name))
        mergeIR(Done[I].MergeWarnings, F, IR ? *IR : Empty, irCollection().SourceNames,
                irCollection().ParamNames);
      if (IR)
        Merged.insert(F.Name);
    }
    {
      llvm::TimeRegion T(phaseTimer("write-json", ".seg.json written"));
      // Code generation finishes functions in its own order; the file
      // lists them in source order, so F's index there is I.
      Ready[I] = F.toCompactText(&Vocab, I);
    }
  }

  /// Writes the texts of the functions in source order as far as they are
  /// ready; a function with no IR SEG coming is built on the way. (Code
  /// generation finishes functions in its own order: a text waits until
  /// those before it are written.)
  void flush() {
    while (NextToWrite < Functions.size()) {
      auto R = Ready.find(NextToWrite);
      if (R == Ready.end() && !Expect[NextToWrite] && !Written[NextToWrite]) {
        writeFunction(NextToWrite, nullptr);
        R = Ready.find(NextToWrite);
      }
      if (R == Ready.end())
        return;
      emit((AnyWritten ? "," : "{\"functions\":[") + R->second);
      AnyWritten = true;
      Ready.erase(R);
      ++NextToWrite;
    }
  }

  void emit(const std::string &Text) {
    if (!EC)
      *OS << Text;
  }

  /// An error ended the compile: no .seg.json (a partly written one is
  /// removed).
  void abandon() {
    irCollection().OnFinal = nullptr;
    if (!OS)
      return;
    OS.reset();
    if (!EC)
      llvm::sys::fs::remove(outputPath());
  }

  /// The compile-time summary of the file written (or, for a file too
  /// large for it, a note) and the path written.
  void print() {
    if (SummarySkipped) {
      llvm::errs() << "segtime: " << SummarySkipped << " functions in the main file: no "
                   << "compile-time summary (printed for at most " << SummaryMaxFunctions
                   << "; segtime predict " << outputPath() << ")\n";
    } else if (!EC) {
      llvm::errs() << Opts.MachineNote << (Opts.MachineNote.empty() ? "" : "\n");
      printCompileTimeSummary(llvm::errs(), outputPath(), Opts.Machine, Opts.Values,
                              SummaryMaxFunctions);
    }
    llvm::errs() << "segtime: wrote " << outputPath() << "\n";
  }

  CompilerInstance &CI;
  PluginOptions Opts;
  std::string InFile;
  bool ReleaseAst = false;
  bool AstReleased = false; ///< by backendStarts: Functions' decls are gone
  /// backendStarts: the source-level SEG of each function not yet written
  /// and not Held, packed and compressed (packFunctionSeg, compressImage),
  /// until writeFunction takes it.
  std::vector<CompressedImage> Prebuilt;
  /// backendStarts: the source-level SEGs held as built (not packed) while
  /// they take at most HeldBudget bytes of the heap (small files: packing,
  /// compressing and unpacking them cost more than they save).
  std::vector<std::optional<FunctionSeg>> Held;
  static constexpr size_t HeldBudget = 16u << 20;
  /// Functions built between two looks at the heap (the budget may be
  /// passed by what so many functions take).
  static constexpr size_t HeapCheckEvery = 8;
  std::optional<ASTNameGenerator> Names;
  ASTContext *Ctx = nullptr;
  /// The functions to characterise, in source order (FunctionCollector),
  /// whether each is written, and their indices by source name.
  std::vector<const FunctionDecl *> Functions;
  std::vector<bool> Written;
  std::map<std::string, std::vector<size_t>> ByName;
  std::optional<CallGraph> Graph;
  std::map<std::string, std::string> IRName; ///< source name -> IR (mangled) name
  std::set<std::string> Merged; ///< source names whose IR SEG is merged
  /// Functions with no code of their own, inlined: the IR functions whose
  /// IR SEG (with their code) is not final yet, and the references to
  /// their code taken so far (takeInlined), by source name.
  std::map<std::string, std::set<std::string>> Carriers;
  std::map<std::string, std::vector<InlinedRef>> Inlined;
  /// Main-file functions of a file too large for the summary (0: not skipped).
  size_t SummarySkipped = 0;
  /// The largest number of main-file functions the summary is printed for
  /// (segtime predict --summary N): it predicts the whole file at the end.
  static constexpr size_t SummaryMaxFunctions = 50;
  SegFile File; ///< the file's header and warnings (functions: written as done)
  /// What building and merging Functions[I] reported: the builder's
  /// warnings, the recursive calls ({function, node id}), the merge's
  /// warnings.
  struct DoneFunction {
    std::vector<BuilderWarning> Warnings;
    std::vector<std::pair<std::string, std::string>> Recursive;
    std::vector<std::string> MergeWarnings;
  };
  std::vector<DoneFunction> Done;
  std::map<std::string, SourceLocation> Where;
  /// The .seg.json (the compact form, as SegFileWriter writes it, but
  /// functions numbered into the vocabulary in the order they are done):
  /// Expect[I] if an IR SEG comes for Functions[I]; texts done but not yet
  /// written (a function before them waits for code generation).
  std::vector<bool> Expect;
  std::map<size_t, std::string> Ready;
  size_t NextToWrite = 0;
  bool AnyWritten = false;
  SegVocabulary Vocab;
  std::error_code EC;
  std::optional<llvm::raw_fd_ostream> OS;
};
} // namespace

std::unique_ptr<ASTConsumer> makeSegConsumer(CompilerInstance &CI, PluginOptions Opts,
                                             std::string InFile, bool ReleaseAst) {
  return std::make_unique<SegConsumer>(CI, std::move(Opts), std::move(InFile), ReleaseAst);
}

} // namespace segtime
