//===- MachineLevel.cpp - ICC: machine instructions per basic block -------===//
///
/// \file
/// The ICC level (Warwick-94 §3.3.5 "instruction code characterisation",
/// design.md §5 and §7): every machine basic block of a code generation of
/// the optimised module is mapped back to the IR basic block it came from,
/// and the instructions the target's AsmPrinter emits for it are counted
/// and costed. The code generation is, by target:
///
/// - the compile's own (target "compile", when clang writes an x86-64 ELF
///   object: recordCompileCodegen). At the end of the optimisation pipeline
///   the target registry's ELF streamer and AsmPrinter constructors are
///   replaced, for the one streamer and AsmPrinter clang's code generation
///   builds next, by a RecordingELFStreamer (an MCELFStreamer that records
///   each MCInst before writing it, as X86ELFStreamer does when no branch
///   alignment is asked for) and the target's own AsmPrinter with two
///   handlers: FunctionHooks (collectBlocks before a function's first
///   instruction, FunctionCosting after its last) and InstructionHook (the
///   machine block of each instruction). The object is byte for byte the
///   one clang writes without the plugin; code generation runs once.
///
///   clang's ISel + machine passes ── T's AsmPrinter (FunctionHooks,
///   InstructionHook) ── RecordingELFStreamer ── object file
///
/// - a clone of the module, compiled a second time, in process, for every
///   other target (another CPU or architecture), for the compile's target
///   when the compile writes no object file (-S, -emit-llvm, -flto) or
///   another object format, and with -mllvm -segtime-icc-clone; the clone's
///   blocks are mapped back through the clone's value map:
///
///   clone of M ── ISel + machine passes (target T) ── BlockCollector
///        (collectBlocks: original IR block, label, in a loop?)
///   ── T's AsmPrinter ── RecordingStreamer (MCInsts per machine basic block)
///   ── BlockCosting (FunctionCosting)
///
/// Both then cost per block the same way: counts; cycles from llvm::mca
/// (scheduling model) or from the instruction itineraries (in-order cores)
/// ── Ruv per IR block. For the compile's CPU the two give the same RUVs
/// when clang generates code at the default level (-O2, -Os, -Oz: lit
/// passes/icc-recorded.c), except where IR passes that run after the
/// collection pass change the code (RelLookupTableConverter's relative
/// lookup tables); at -O0, -O1 and -O3 the clone, compiled at the default
/// level, is not the object's code. The recording always is.
///
/// Counting on the emitted MCInsts rather than on MachineInstrs means that the
/// counts are exactly the instructions of `clang -S` for that target:
/// pseudo, meta and debug instructions (PHI, IMPLICIT_DEF, KILL, CFI, DBG_*)
/// emit nothing and count zero, and pseudos that the AsmPrinter expands count
/// as the instructions they expand into; SPARC delay-slot instructions count.
///
/// RUV keys, per execution of the block:
///   instructions   machine instructions, plus one per call.external (the
///                  PLT's indirect jump, which runs in the caller's name)
///   uops           micro-ops from the scheduling model (1 per instruction
///                  without a model)
///   cycles         core cycles (BlockCoster::costWithMca for out-of-order
///                  cores, costWithItineraries for in-order); absent when the
///                  target has neither a scheduling model nor itineraries
///                  (supersparc, v8): the predictor then uses an
///                  instruction-count model
///   mem.load, mem.store   instructions that may read / write memory
///   branch, call   branch and call instructions
///   call.external  calls to functions the module does not define (libm, ...)
///   fp             SPARC only: instructions on FP registers or F* opcodes
///   mca.skipped    instructions llvm::mca could not model (0 cycles each)
///
/// Attribution. A machine block made by code generation (split edge, new
/// preheader) counts for its only predecessor, else for the block before it
/// in the layout. A loop block ending in "branch back into the loop, else
/// jump out" has its exit jump counted with the block it jumps to, since it
/// runs once per loop exit, not once per iteration. The clone is given M's
/// use-list order, so that for the compile's own CPU the code costed is the
/// code in the object file, block for block.
///
/// The code generated for the clone never reaches the compile's output:
/// diagnostics and optimisation remarks of the side compile are swallowed,
/// and the object file is byte-identical to one built without the plugin.
/// The recording of the compile's own code generation changes nothing in
/// it either: no label is forced (the AsmPrinter's instruction hook says
/// where each block starts), IR blocks that code generation's own IR passes
/// delete or create are told apart through ValueMaps, and the RUVs are
/// attached to the IR SEG after code generation (finishIccLevels,
/// passes/Register.h).
///
/// Files: MachineLevel.cpp (the clone's code generation, machineLevelRuvs),
/// IccCompileRecording.cpp (the recording of the compile's own), IccBlocks
/// (machine blocks and their attribution), IccBlockCoster (a block's cost),
/// IccTargets (target names, target machines, the clone's preparation).
///
/// USAGE:
///   clang-19 -O2 -fplugin=build/lib/segtime.so \
///       -fplugin-arg-segtime-targets=znver5,skylake,leon3 -c kernel.c
///   (adds "ICC:<cpu>" RUVs to the Stage nodes of level_segs.IR)
///   clang-19 ... -mllvm -segtime-icc-dump   (prints every block's
///       instructions and RUV to stderr, to compare with llc/llvm-mca)
///   clang-19 ... -mllvm -segtime-icc-clone  (target "compile" from a clone
///       too, as the other targets)
///   clang-19 ... -mllvm -segtime-icc-check-short-run  (simulates every loop
///       block's short run too; prints the blocks where it differs from the
///       one read off the long run)
///   clang-19 ... -mllvm -segtime-icc-check-sim-memo  (simulates every block
///       whose cycles the memo of pipeline inputs gave; prints the blocks
///       where they differ)
///
//===----------------------------------------------------------------------===//
#include "passes/MachineLevel.h"
#include "passes/IccBlockCoster.h"
#include "passes/IccBlocks.h"
#include "passes/IccTargets.h"
#include "passes/Timing.h"

#include "llvm/CodeGen/AsmPrinter.h"
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/MachineLoopInfo.h"
#include "llvm/CodeGen/MachineModuleInfo.h"
#include "llvm/CodeGen/Passes.h"
#include "llvm/CodeGen/TargetPassConfig.h"
#include "llvm/IR/DiagnosticHandler.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMRemarkStreamer.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/MC/MCSection.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace segtime {
namespace icc {

cl::opt<bool>
    IccDump("segtime-icc-dump", cl::Hidden,
            cl::desc("segtime: print the instructions and ICC RUV of every "
                     "machine basic block of the ICC side compiles"));

cl::opt<bool> IccCheckShortRun(
    "segtime-icc-check-short-run", cl::Hidden,
    cl::desc("segtime: simulate the short run of every loop block even when "
             "the long run gave its total, and count the blocks where the "
             "two differ (printed at the end of the compile)"));

cl::opt<bool> IccCheckSimMemo(
    "segtime-icc-check-sim-memo", cl::Hidden,
    cl::desc("segtime: simulate every block whose cycles the memo of llvm-mca "
             "pipeline inputs gives, and count the blocks where the two "
             "differ (printed at the end of the compile)"));

namespace {

//===----------------------------------------------------------------------===//
// The clone's code generation: streamer and passes around the AsmPrinter
//===----------------------------------------------------------------------===//

/// An MCStreamer that writes nothing and records the instructions, split into
/// machine basic blocks at the blocks' labels.
class RecordingStreamer final : public MCStreamer {
public:
  RecordingStreamer(MCContext &Ctx, Recording &R) : MCStreamer(Ctx), R(R) {}

  void emitLabel(MCSymbol *S, SMLoc Loc) override {
    MCStreamer::emitLabel(S, Loc);
    R.label(S);
  }
  void emitInstruction(const MCInst &I, const MCSubtargetInfo &) override {
    R.instruction(I);
  }
  void changeSection(MCSection *S, uint32_t Sub) override {
    MCStreamer::changeSection(S, Sub);
    R.InText = S && S->isText();
  }
  // What MCNullStreamer does, except that inline asm is parsed (no raw text)
  // so that its instructions are recorded too.
  bool emitSymbolAttribute(MCSymbol *, MCSymbolAttr) override { return true; }
  void emitCommonSymbol(MCSymbol *, uint64_t, Align) override {}
  void emitZerofill(MCSection *, MCSymbol *, uint64_t, Align, SMLoc) override {}
  void emitGPRel32Value(const MCExpr *) override {}
  void beginCOFFSymbolDef(const MCSymbol *) override {}
  void emitCOFFSymbolStorageClass(int) override {}
  void emitCOFFSymbolType(int) override {}
  void endCOFFSymbolDef() override {}

private:
  Recording &R;
};

/// Runs after the last machine pass, right before the AsmPrinter, on each
/// machine function of the clone: collectBlocks with labels forced.
class BlockCollector : public MachineFunctionPass {
public:
  static char ID;
  BlockCollector(Recording &R, const BlockMap &CloneToOrig,
                 const DenseMap<const Function *, const Function *> &FnOrig)
      : MachineFunctionPass(ID), R(R), CloneToOrig(CloneToOrig),
        FnOrig(FnOrig) {}

  StringRef getPassName() const override {
    return "segtime ICC block collector";
  }

  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.addRequired<MachineLoopInfoWrapperPass>();
    AU.setPreservesAll();
    MachineFunctionPass::getAnalysisUsage(AU);
  }

  bool runOnMachineFunction(MachineFunction &MF) override {
    collectBlocks(
        R, MF, getAnalysis<MachineLoopInfoWrapperPass>().getLI(),
        FnOrig.lookup(&MF.getFunction()),
        [&](const BasicBlock *BB) -> const BasicBlock * {
          auto It = CloneToOrig.find(BB);
          return It == CloneToOrig.end() ? nullptr : It->second;
        },
        blocksOf, /*ForceLabels=*/true);
    return false;
  }

private:
  Recording &R;
  const BlockMap &CloneToOrig;
  const DenseMap<const Function *, const Function *> &FnOrig;
};

char BlockCollector::ID = 0;

/// Runs right after the AsmPrinter on each machine function of the clone:
/// FunctionCosting.
class BlockCosting : public MachineFunctionPass {
public:
  static char ID;
  BlockCosting(Recording &R, BlockCoster &Coster)
      : MachineFunctionPass(ID), R(R), Coster(Coster) {}

  StringRef getPassName() const override { return "segtime ICC block costing"; }

  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.setPreservesAll();
    MachineFunctionPass::getAnalysisUsage(AU);
  }

  bool runOnMachineFunction(MachineFunction &) override {
    FunctionCosting(R, Coster).run();
    return false;
  }

private:
  Recording &R;
  BlockCoster &Coster;
};

char BlockCosting::ID = 0;

/// Runs last on each function of the clone, once its machine code has been
/// costed and freed: the function's IR is not needed again, and the clone
/// would otherwise stay whole until the end of code generation. Its body
/// becomes a single `unreachable` block, still a definition with its
/// linkage, visibility and comdat, so that the functions after it compile
/// as before (the map back to M forgets the deleted blocks: a ValueMap). A
/// function with a block whose address is taken keeps its body (another
/// function's blockaddress would become a constant).
class ReleaseCloneBody : public FunctionPass {
public:
  static char ID;
  ReleaseCloneBody() : FunctionPass(ID) {}

  StringRef getPassName() const override { return "segtime ICC clone body release"; }

  void getAnalysisUsage(AnalysisUsage &AU) const override { AU.setPreservesAll(); }

  bool runOnFunction(Function &F) override {
    if (F.isDeclaration() || any_of(F, [](const BasicBlock &B) { return B.hasAddressTaken(); }))
      return false;
    GlobalValue::LinkageTypes Linkage = F.getLinkage();
    GlobalValue::VisibilityTypes Visibility = F.getVisibility();
    bool DSOLocal = F.isDSOLocal();
    Comdat *C = F.getComdat();
    F.deleteBody();
    F.setLinkage(Linkage);
    F.setVisibility(Visibility);
    F.setDSOLocal(DSOLocal);
    F.setComdat(C);
    new UnreachableInst(F.getContext(), BasicBlock::Create(F.getContext(), "", &F));
    return false;
  }
};

char ReleaseCloneBody::ID = 0;

/// Swallows the diagnostics and optimisation remarks of the side compile
/// (they would otherwise be reported as the user's, or written to the
/// user's -fsave-optimization-record file) and keeps the first error.
class ScopedQuietContext {
  struct Handler : DiagnosticHandler {
    std::string &FirstError;
    explicit Handler(std::string &E) : FirstError(E) {}
    bool handleDiagnostics(const DiagnosticInfo &DI) override {
      if (DI.getSeverity() == DS_Error && FirstError.empty()) {
        raw_string_ostream OS(FirstError);
        DiagnosticPrinterRawOStream DP(OS);
        DI.print(DP);
      }
      return true;
    }
  };

public:
  ScopedQuietContext(LLVMContext &Ctx, std::string &FirstError) : Ctx(Ctx) {
    Old = Ctx.getDiagnosticHandler();
    Ctx.setDiagnosticHandler(std::make_unique<Handler>(FirstError));
    HadRemarkStreamer = Ctx.getLLVMRemarkStreamer() != nullptr;
    if (HadRemarkStreamer)
      Ctx.setLLVMRemarkStreamer(nullptr);
  }
  ~ScopedQuietContext() {
    Ctx.setDiagnosticHandler(std::move(Old));
    if (HadRemarkStreamer && Ctx.getMainRemarkStreamer())
      Ctx.setLLVMRemarkStreamer(
          std::make_unique<LLVMRemarkStreamer>(*Ctx.getMainRemarkStreamer()));
  }

private:
  LLVMContext &Ctx;
  std::unique_ptr<DiagnosticHandler> Old;
  bool HadRemarkStreamer = false;
};

} // namespace
} // namespace icc

using namespace icc;

//===----------------------------------------------------------------------===//
// Interface
//===----------------------------------------------------------------------===//

bool machineLevelRuvs(const Module &M, const TargetSpec &T,
                      std::map<const BasicBlock *, Ruv> &Out, std::string &Err,
                      std::map<std::string, std::string> *Info, EdgeRuvs *EdgeOut,
                      std::set<const BasicBlock *> *CondJumpsOut,
                      std::map<std::string, std::string> *SkippedOut) {
  initialiseTargets();
  const Triple TT(Triple::normalize(T.Triple));
  std::string E;
  const Target *Tgt = TargetRegistry::lookupTarget(TT.str(), E);
  if (!Tgt) {
    Err = "no LLVM target for '" + TT.str() + "': " + E;
    return false;
  }
  if (!TargetPassConfig::willCompleteCodeGenPipeline()) {
    Err =
        "the code generation pipeline is cut short (-stop-after/-stop-before)";
    return false;
  }
  std::unique_ptr<TargetMachine> TM = costingMachine(*Tgt, TT, T, Err);
  if (!TM)
    return false;
  // Every target with a code generator has an LLVMTargetMachine.
  auto &LTM = static_cast<LLVMTargetMachine &>(*TM);

  // The clone, and the way back from its blocks to M's.
  std::optional<TimeRegion> CloneTime(phaseTimer("icc-clone", "ICC clone of the module"));
  ValueToValueMapTy VMap;
  std::unique_ptr<Module> Clone = CloneModule(M, VMap);
  BlockMap CloneToOrig;
  DenseMap<const Function *, const Function *> FnOrig;
  for (const Function &F : M) {
    if (F.isDeclaration())
      continue;
    if (auto *CF = dyn_cast_or_null<Function>(VMap.lookup(&F)))
      FnOrig[CF] = &F;
    for (const BasicBlock &B : F)
      if (auto *CB = dyn_cast_or_null<BasicBlock>(VMap.lookup(&B)))
        CloneToOrig[CB] = &B;
  }
  copyUseListOrder(M, VMap);
  bool Foreign = Triple(M.getTargetTriple()).getArch() != TT.getArch();
  std::map<std::string, std::string> Skipped;
  prepareClone(*Clone, *TM, Foreign, SkippedOut ? *SkippedOut : Skipped);
  CloneTime.reset();

  // The pipeline of LLVMTargetMachine::addPassesToEmitFile, with our
  // collector before the AsmPrinter and a recording streamer behind it.
  Recording Rec;
  BlockCoster Coster(*Tgt, *TM);
  if (Info)
    describeTarget(*TM, *Info);
  for (const Function &F : *Clone)
    if (!F.isDeclaration())
      Coster.Defined.insert(F.getName().str());
  legacy::PassManager PM;
  TargetPassConfig *PC = LTM.createPassConfig(PM);
  PC->setDisableVerify(true);
  PM.add(PC);
  auto *MMIWP = new MachineModuleInfoWrapperPass(&LTM);
  PM.add(MMIWP);
  if (PC->addISelPasses()) {
    Err = "instruction selector not available for " + TT.str();
    return false;
  }
  PC->addMachinePasses();
  PC->setInitialized();
  PM.add(new BlockCollector(Rec, CloneToOrig, FnOrig));
  auto Streamer =
      std::make_unique<RecordingStreamer>(MMIWP->getMMI().getContext(), Rec);
  Tgt->createNullTargetStreamer(*Streamer); // owned by the streamer
  AsmPrinter *Printer = Tgt->createAsmPrinter(*TM, std::move(Streamer));
  if (!Printer) {
    Err = "no AsmPrinter for " + TT.str();
    return false;
  }
  PM.add(Printer);
  PM.add(new BlockCosting(Rec, Coster));
  PM.add(createFreeMachineFunctionPass());
  PM.add(new ReleaseCloneBody());

  std::string FirstError;
  {
    ScopedQuietContext Quiet(Clone->getContext(), FirstError);
    TimeRegion Time(codegenTimer());
    PM.run(*Clone);
  }
  if (!FirstError.empty()) {
    Err = "code generation for " + T.CPU + " failed: " + FirstError;
    return false;
  }

  addResults(Rec, Out, EdgeOut, CondJumpsOut);
  addEmptyBlocks(Rec.CompiledFunctions, Coster.hasCycles(), blocksOf, Out);
  dumpUnattributed(T.CPU, Rec.Unattributed);
  return true;
}

} // namespace segtime
