//===- IccCompileRecording.cpp - ICC: recording the compile's code generation -===//
///
/// \file
/// recordCompileCodegen and finishCompileCodegen (MachineLevel.h): for the
/// compile's own x86-64 ELF object, the target registry's ELF streamer and
/// AsmPrinter constructors are replaced, for one streamer and one
/// AsmPrinter, by a RecordingELFStreamer (an MCELFStreamer that records each
/// MCInst before writing it) and the target's own AsmPrinter with two
/// handlers: FunctionHooks (collectBlocks before a function's first
/// instruction, FunctionCosting after its last) and InstructionHook (the
/// machine block of each instruction). The object file stays byte for byte
/// the one clang writes without the plugin.
///
//===----------------------------------------------------------------------===//
#include "passes/IccBlockCoster.h"
#include "passes/IccBlocks.h"
#include "passes/IccTargets.h"
#include "passes/MachineLevel.h"
#include "passes/Timing.h"

#include "llvm/CodeGen/AsmPrinter.h"
#include "llvm/CodeGen/AsmPrinterHandler.h"
#include "llvm/CodeGen/DebugHandlerBase.h"
#include "llvm/CodeGen/MachineDominators.h"
#include "llvm/CodeGen/MachineLoopInfo.h"
#include "llvm/CodeGen/TargetPassConfig.h"
#include "llvm/MC/MCAsmBackend.h"
#include "llvm/MC/MCCodeEmitter.h"
#include "llvm/MC/MCELFStreamer.h"
#include "llvm/MC/MCObjectWriter.h"
#include "llvm/MC/MCSection.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

using namespace llvm;

namespace segtime {
namespace icc {
namespace {

/// The ELF streamer of the compile's object file, recording each instruction
/// into the current machine block (Recording) before writing it as the
/// target's own streamer does. For x86-64 that is X86ELFStreamer, whose
/// emitInstruction differs from MCObjectStreamer's only by the assembler
/// back end's hooks for branch alignment and prefix padding, which do
/// nothing unless those are asked for (x86AlignmentRequested): then
/// recordCompileCodegen does not record.
class RecordingELFStreamer final : public MCELFStreamer {
public:
  RecordingELFStreamer(MCContext &Ctx, std::unique_ptr<MCAsmBackend> TAB,
                       std::unique_ptr<MCObjectWriter> OW,
                       std::unique_ptr<MCCodeEmitter> CE, Recording &R)
      : MCELFStreamer(Ctx, std::move(TAB), std::move(OW), std::move(CE)), R(R) {}

  void emitLabel(MCSymbol *S, SMLoc Loc) override {
    MCELFStreamer::emitLabel(S, Loc);
    R.label(S);
  }
  void emitInstruction(const MCInst &I, const MCSubtargetInfo &STI) override {
    R.instruction(I);
    MCELFStreamer::emitInstruction(I, STI);
  }
  void changeSection(MCSection *S, uint32_t Sub) override {
    MCELFStreamer::changeSection(S, Sub);
    R.InText = S && S->isText();
  }

private:
  Recording &R;
};

/// X86 assembler options under which X86ELFStreamer writes other bytes than
/// MCELFStreamer (X86AsmBackend: -mbranches-within-32B-boundaries,
/// -malign-branch-boundary=, -malign-branch=, prefix padding).
bool x86AlignmentRequested() {
  StringMap<cl::Option *> &Opts = cl::getRegisteredOptions();
  for (const char *Name :
       {"x86-branches-within-32B-boundaries", "x86-align-branch-boundary", "x86-align-branch",
        "x86-pad-max-prefix-size", "x86-pad-for-align", "x86-pad-for-branch-align"}) {
    auto It = Opts.find(Name);
    if (It != Opts.end() && It->second->getNumOccurrences())
      return true;
  }
  return false;
}

/// One recording of the compile's code generation, from recordCompileCodegen
/// (end of the optimisation pipeline) to finishCompileCodegen (after code
/// generation).
struct LiveRecording {
  const Target *Tgt = nullptr;
  TargetSpec Spec;
  std::unique_ptr<TargetMachine> CostTM; ///< the clone path's, for BlockCoster
  std::unique_ptr<BlockCoster> Coster;
  Recording Rec;
  /// M's blocks and functions when the recording started, each mapped to
  /// itself: an entry vanishes when code generation's IR passes delete the
  /// block, and blocks they create have none (they inherit a neighbour's
  /// RUV), so that a new block at a freed block's address is never taken
  /// for it.
  BlockMap BlockOrig;
  ValueMap<const Function *, const Function *> FnOrig;
  /// The blocks of each function when the recording started.
  std::map<const Function *, std::vector<const BasicBlock *>> Blocks;
  FunctionIccSink Sink; ///< receives each function's RUVs
  const Function *Current = nullptr; ///< M's function being printed
  bool Installed = false;
  const MCStreamer *Streamer = nullptr; ///< the RecordingELFStreamer made
  bool CodegenDone = false;             ///< the AsmPrinter finished the module
  unsigned FunctionsDone = 0;           ///< functions printed and costed
};

/// Functions between two returns of malloc's freed memory to the system
/// (releaseFreedMemory).
constexpr unsigned ReleaseEvery = 64;

/// Gives the pages that malloc holds freed back to the system (glibc's
/// malloc_trim; nothing elsewhere). During code generation the images of
/// the IR SEGs waiting on the shelf are unpacked, attached, written and
/// freed one function at a time while code generation allocates: freed
/// memory that later allocations do not fit in stays resident and would
/// count towards the compile's peak resident set (docs/cli.md, the memory
/// at the phase boundaries: freed and held by malloc rose from 13 MB to 75
/// MB during sqlite3.c's code generation).
void releaseFreedMemory() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

std::unique_ptr<LiveRecording> &liveRecording() {
  static std::unique_ptr<LiveRecording> L;
  return L;
}

/// Puts the target's own streamer and AsmPrinter constructors back (the
/// registry has no getter for them; the target's initialisers register
/// them again).
void restoreRegistry(LiveRecording &L) {
  if (!L.Installed)
    return;
  LLVMInitializeX86TargetMC();
  LLVMInitializeX86AsmPrinter();
  L.Installed = false;
}

/// Per function of the compile, around the AsmPrinter's work: the blocks
/// (collectBlocks, with a MachineLoopInfo of its own: no pass provides one
/// to the AsmPrinter) before the first instruction, their costing after the
/// last.
class FunctionHooks final : public AsmPrinterHandler {
public:
  explicit FunctionHooks(LiveRecording &L) : L(L) {}
  void beginFunction(const MachineFunction *MF) override {
    TimeRegion Time(phaseTimer("icc-record", "ICC recording of the compile's code generation"));
    auto &F = const_cast<MachineFunction &>(*MF); // (analyzeBranch, no change)
    MachineDominatorTree MDT(F);
    MachineLoopInfo MLI(MDT);
    L.Current = L.FnOrig.lookup(&MF->getFunction());
    collectBlocks(
        L.Rec, F, MLI, L.Current,
        [&](const BasicBlock *BB) { return L.BlockOrig.lookup(BB); },
        [&](const Function *Fn) { return L.Blocks[Fn]; }, /*ForceLabels=*/false);
  }
  void endFunction(const MachineFunction *) override {
    FunctionCosting(L.Rec, *L.Coster).run();
    // The function's RUVs handed on, its records dropped: the recording
    // holds one function's blocks at a time.
    if (L.Current) {
      std::map<const BasicBlock *, Ruv> Out;
      EdgeRuvs Edges;
      std::set<const BasicBlock *> CondJumps;
      addResults(L.Rec, Out, &Edges, &CondJumps);
      addEmptyBlocks({L.Current}, L.Coster->hasCycles(),
                     [&](const Function *F) { return L.Blocks[F]; }, Out);
      L.Sink(*L.Current, Out, Edges, CondJumps);
      L.Blocks.erase(L.Current);
    }
    L.Current = nullptr;
    L.Rec.Blocks.clear();
    L.Rec.BlockOfLabel.clear();
    L.Rec.CondJumps.clear();
    L.Rec.MBBIndex.clear();
    if (++L.FunctionsDone % ReleaseEvery == 0)
      releaseFreedMemory();
  }
  void endModule() override { L.CodegenDone = true; }

private:
  LiveRecording &L;
};

/// Points the recording at the machine block of each instruction the
/// AsmPrinter emits (the only per-instruction hook of LLVM 19's AsmPrinter:
/// a debug handler's beginInstruction; the AsmPrinter omits the labels of
/// fall-through blocks in object files). It handles no debug information:
/// its base class is told there is no AsmPrinter, so that it skips every
/// function.
class InstructionHook final : public DebugHandlerBase {
public:
  InstructionHook(AsmPrinter *A, Recording &R) : DebugHandlerBase(A), R(R) { Asm = nullptr; }
  void beginModule(Module *) override {}
  void endModule() override {}
  void beginInstruction(const MachineInstr *MI) override { R.block(MI->getParent()); }
  void endInstruction() override {}

protected:
  void beginFunctionImpl(const MachineFunction *) override {}
  void endFunctionImpl(const MachineFunction *) override {}

private:
  Recording &R;
};

/// Registered as the target's ELF streamer constructor for one streamer.
MCStreamer *createRecordingELFStreamer(const Triple &, MCContext &Ctx,
                                       std::unique_ptr<MCAsmBackend> &&TAB,
                                       std::unique_ptr<MCObjectWriter> &&OW,
                                       std::unique_ptr<MCCodeEmitter> &&CE) {
  LiveRecording &L = *liveRecording();
  auto *S = new RecordingELFStreamer(Ctx, std::move(TAB), std::move(OW), std::move(CE), L.Rec);
  L.Streamer = S;
  return S;
}

/// Registered as the target's AsmPrinter constructor for one AsmPrinter:
/// builds the target's own and, if it prints into the recording streamer,
/// adds the hooks; then puts the registry back.
AsmPrinter *createRecordingAsmPrinter(TargetMachine &TM, std::unique_ptr<MCStreamer> &&S) {
  LiveRecording &L = *liveRecording();
  bool Ours = L.Streamer && S.get() == L.Streamer;
  restoreRegistry(L);
  AsmPrinter *P = L.Tgt->createAsmPrinter(TM, std::move(S));
  if (P && Ours) {
    P->addAsmPrinterHandler(std::make_unique<FunctionHooks>(L));
    P->addDebugHandler(std::make_unique<InstructionHook>(P, L.Rec));
  }
  return P;
}

} // namespace
} // namespace icc

using namespace icc;

bool recordCompileCodegen(const Module &M, const TargetSpec &T, FunctionIccSink Sink,
                          std::string &Why, std::map<std::string, std::string> *Info) {
  initialiseTargets();
  const Triple TT(Triple::normalize(T.Triple));
  if (TT.getArch() != Triple::x86_64 || !TT.isOSBinFormatELF()) {
    Why = "recorded for x86-64 ELF objects only";
    return false;
  }
  if (x86AlignmentRequested()) {
    Why = "x86 branch alignment or prefix padding asked for";
    return false;
  }
  if (!TargetPassConfig::willCompleteCodeGenPipeline()) {
    Why = "the code generation pipeline is cut short (-stop-after/-stop-before)";
    return false;
  }
  std::unique_ptr<LiveRecording> &Slot = liveRecording();
  if (Slot) {
    Why = "a recording is already under way";
    return false;
  }
  std::string E;
  const Target *Tgt = TargetRegistry::lookupTarget(TT.str(), E);
  if (!Tgt) {
    Why = "no LLVM target for '" + TT.str() + "': " + E;
    return false;
  }
  auto L = std::make_unique<LiveRecording>();
  L->Tgt = Tgt;
  L->Spec = T;
  L->Sink = std::move(Sink);
  L->CostTM = costingMachine(*Tgt, TT, T, Why);
  if (!L->CostTM)
    return false;
  L->Coster = std::make_unique<BlockCoster>(*Tgt, *L->CostTM);
  if (Info)
    describeTarget(*L->CostTM, *Info);
  for (const Function &F : M) {
    if (F.isDeclaration())
      continue;
    L->Coster->Defined.insert(F.getName().str());
    L->FnOrig[&F] = &F;
    std::vector<const BasicBlock *> &Blocks = L->Blocks[&F];
    for (const BasicBlock &B : F) {
      L->BlockOrig[&B] = &B;
      Blocks.push_back(&B);
    }
  }
  auto &Mutable = const_cast<Target &>(*Tgt); // the registry hands out const
  TargetRegistry::RegisterELFStreamer(Mutable, createRecordingELFStreamer);
  TargetRegistry::RegisterAsmPrinter(Mutable, createRecordingAsmPrinter);
  L->Installed = true;
  Slot = std::move(L);
  releaseFreedMemory();
  return true;
}

bool finishCompileCodegen(std::string &Err) {
  std::unique_ptr<LiveRecording> L = std::move(liveRecording());
  if (!L) {
    Err = "no recording of code generation was started";
    return false;
  }
  restoreRegistry(*L);
  dumpUnattributed(L->Spec.CPU, L->Rec.Unattributed);
  if (!L->CodegenDone) {
    Err = "no code generation ran (the compile wrote no object code)";
    return false;
  }
  return true;
}

} // namespace segtime
