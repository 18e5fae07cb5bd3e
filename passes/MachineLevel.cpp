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
/// USAGE:
///   clang-19 -O2 -fplugin=build/lib/segtime.so \
///       -fplugin-arg-segtime-targets=znver5,skylake,leon3 -c kernel.c
///   (adds "ICC:<cpu>" RUVs to the Stage nodes of level_segs.IR)
///   clang-19 ... -mllvm -segtime-icc-dump   (prints every block's
///       instructions and RUV to stderr, to compare with llc/llvm-mca)
///   clang-19 ... -mllvm -segtime-icc-clone  (target "compile" from a clone
///       too, as the other targets)
///
//===----------------------------------------------------------------------===//
#include "passes/MachineLevel.h"
#include "passes/Timing.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/CodeGen/AsmPrinter.h"
#include "llvm/CodeGen/AsmPrinterHandler.h"
#include "llvm/CodeGen/DebugHandlerBase.h"
#include "llvm/CodeGen/MachineDominators.h"
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/MachineLoopInfo.h"
#include "llvm/CodeGen/MachineModuleInfo.h"
#include "llvm/CodeGen/Passes.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetPassConfig.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DiagnosticHandler.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMRemarkStreamer.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/ValueMap.h"
#include "llvm/MC/MCAsmBackend.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCCodeEmitter.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCELFStreamer.h"
#include "llvm/MC/MCObjectWriter.h"
#include "llvm/MC/MCFixup.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrAnalysis.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCInstrItineraries.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSection.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/MCA/Context.h"
#include "llvm/MCA/CustomBehaviour.h"
#include "llvm/MCA/InstrBuilder.h"
#include "llvm/MCA/Pipeline.h"
#include "llvm/MCA/SourceMgr.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <fcntl.h>
#include <mutex>
#include <set>
#include <unistd.h>

using namespace llvm;

static cl::opt<bool>
    IccDump("segtime-icc-dump", cl::Hidden,
            cl::desc("segtime: print the instructions and ICC RUV of every "
                     "machine basic block of the ICC side compiles"));

static cl::opt<bool> IccCheckShortRun(
    "segtime-icc-check-short-run", cl::Hidden,
    cl::desc("segtime: simulate the short run of every loop block even when "
             "the long run gave its total, and count the blocks where the "
             "two differ (printed at the end of the compile)"));

namespace segtime {

namespace {

//===----------------------------------------------------------------------===//
// Target names
//===----------------------------------------------------------------------===//

constexpr const char *X86Triple = "x86_64-unknown-linux-gnu";
constexpr const char *SparcTriple = "sparc-unknown-linux-gnu";
const char *const X86Cpus[] = {
    "znver5",         "znver4",         "znver3",         "skylake",
    "skylake-avx512", "icelake-server", "sapphirerapids", "alderlake",
    "x86-64",         "x86-64-v3"};
const char *const SparcCpus[] = {"supersparc", "leon2", "leon3", "leon4", "v8"};

/// Registers the X86 and SPARC back ends. clang and opt have done it already;
/// this is for other hosts of the passes (the calls are idempotent).
void initialiseTargets() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    LLVMInitializeX86TargetInfo();
    LLVMInitializeX86Target();
    LLVMInitializeX86TargetMC();
    LLVMInitializeX86AsmPrinter();
    LLVMInitializeX86AsmParser(); // inline asm is parsed into MCInsts
    LLVMInitializeX86TargetMCA();
    LLVMInitializeX86Disassembler(); // BlockCoster::assembled
    LLVMInitializeSparcTargetInfo();
    LLVMInitializeSparcTarget();
    LLVMInitializeSparcTargetMC();
    LLVMInitializeSparcAsmPrinter();
    LLVMInitializeSparcAsmParser();
  });
}

/// Is CPU a processor of the target of Triple? Sets Err if not.
bool validCpu(const std::string &Triple, const std::string &CPU,
              std::string &Err) {
  std::string E;
  const Target *T = TargetRegistry::lookupTarget(Triple, E);
  if (!T) {
    Err = "no LLVM target for triple '" + Triple + "': " + E;
    return false;
  }
  // Created with the empty CPU: an unknown CPU would print a warning.
  std::unique_ptr<MCSubtargetInfo> STI(
      T->createMCSubtargetInfo(Triple, "", ""));
  if (!STI || !STI->isCPUStringValid(CPU)) {
    Err = "'" + CPU + "' is not a CPU of target '" + Triple + "'";
    return false;
  }
  return true;
}

std::string acceptedNames() {
  std::string S;
  for (const char *C : X86Cpus)
    S += std::string(S.empty() ? "" : ", ") + C;
  S += ", native (x86-64); ";
  for (const char *C : SparcCpus)
    S +=
        std::string(C) + (C == SparcCpus[std::size(SparcCpus) - 1] ? "" : ", ");
  return S + " (SPARC); any other x86-64 or SPARC -mcpu name; or TRIPLE:CPU";
}

//===----------------------------------------------------------------------===//
// What the side compile records
//===----------------------------------------------------------------------===//

/// One machine basic block of the clone, in layout order.
struct BlockRecord {
  const BasicBlock *Orig = nullptr; ///< block of the original module
  const Function *OrigFn = nullptr;
  bool InLoop =
      false;      ///< inside a MachineLoop: cost per steady-state iteration
  int Number = 0; ///< MBB number, for dumps
  int OrigNumber =
      -1; ///< position of Orig in its function ("bbN" in the SEG), for dumps
  bool Inherited = false; ///< no block of its own: Orig is a neighbour's
  /// A block of code generation's own on the IR edge Orig -> EdgeTo (one
  /// predecessor and one successor with blocks of their own: a split
  /// critical edge, a skip jump): it runs as often as that edge is taken.
  const BasicBlock *EdgeTo = nullptr;
  /// The block ends in "branch back into its loop; else jump out of it": the
  /// trailing jump (its last ExitJumpSize instructions, delay slot included)
  /// runs once per loop exit, not once per iteration, and is costed with
  /// the block it jumps to (record ExitJumpTo).
  int ExitJumpTo = -1;
  unsigned ExitJumpSize = 0;
  bool ExitJumpMoved = false;
  int ExitJumpNumber = -1;   ///< for dumps
  /// Code alignment of the block's start (MachineBasicBlock::getAlignment;
  /// loop headers: 16 bytes on x86) and the most padding bytes allowed for
  /// it (0: no limit), as the AsmPrinter hands them to the assembler.
  Align Alignment;
  unsigned AlignMaxBytes = 0;
  /// Control can reach the next block in the layout without a branch:
  /// FallsThrough always (no branch at the end), or on the not-taken side
  /// of a conditional branch (CondFallThrough). The assembler's padding
  /// before the next block then runs as instructions (multi-byte nops).
  bool FallsThrough = false;
  bool CondFallThrough = false;
  unsigned PaddingNops = 0;  ///< nops of the padding behind it, for dumps
  std::vector<MCInst> Insts; ///< as emitted; dropped once costed
  Ruv Cost;                  ///< the ICC RUV (BlockCoster::cost)
};

/// Shared by the collector pass (which runs right before the AsmPrinter on
/// each function) and the streamer the AsmPrinter writes to.
struct Recording {
  std::vector<BlockRecord> Blocks;
  DenseMap<const MCSymbol *, unsigned> BlockOfLabel;
  std::set<const Function *> CompiledFunctions; ///< original functions
  /// Original blocks whose own machine code leaves the block through a
  /// conditional jump (not if-converted into a select or cmov).
  std::set<const BasicBlock *> CondJumps;
  /// Blocks of the current function by machine block (collectBlocks).
  DenseMap<const MachineBasicBlock *, unsigned> MBBIndex;
  unsigned FunctionBegin = 0; ///< first block of the current function
  int Current = -1;           ///< block the next instruction belongs to
  bool InText = true;         ///< current section holds code
  unsigned Unattributed = 0;

  void label(const MCSymbol *S) {
    auto It = BlockOfLabel.find(S);
    if (It != BlockOfLabel.end())
      Current = It->second;
    // Other labels (function symbol, CFI and temporary labels) do not start
    // a block: the instructions after them stay in the current block.
  }
  void block(const MachineBasicBlock *MBB) {
    auto It = MBBIndex.find(MBB);
    if (It != MBBIndex.end())
      Current = It->second;
  }
  void instruction(const MCInst &I) {
    if (Current < 0 || !InText) {
      ++Unattributed;
      return;
    }
    Blocks[Current].Insts.push_back(I);
  }
};

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

//===----------------------------------------------------------------------===//
// Costing a block
//===----------------------------------------------------------------------===//

/// llvm::mca's InstrBuilder warns on stderr the first time after clear() it
/// lowers a call or a return ("found a call in the input assembly
/// sequence"): advice for llvm-mca's users that must not appear in a
/// compile's output.
class ScopedSilentStderr {
public:
  ScopedSilentStderr() {
    errs().flush();
    int Null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (Null < 0)
      return;
    Saved = ::dup(2);
    if (Saved >= 0)
      ::dup2(Null, 2);
    ::close(Null);
  }
  ~ScopedSilentStderr() {
    if (Saved < 0)
      return;
    errs().flush();
    ::dup2(Saved, 2);
    ::close(Saved);
  }
  ScopedSilentStderr(const ScopedSilentStderr &) = delete;
  ScopedSilentStderr &operator=(const ScopedSilentStderr &) = delete;

private:
  int Saved = -1;
};

/// Watches a circular llvm-mca run for the instructions of its first Prefix
/// (source indices below Prefix) and gives the Total Cycles that a run of
/// those instructions alone would take, when the later instructions provably
/// did not change their timing. The pipeline is deterministic and the two runs
/// are the same until the source of the shorter one is exhausted. After that,
/// later (younger) instructions are dispatched in order behind the prefix and
/// retire in order after it, and the scheduler has no issue width: the only
/// way they act on a prefix instruction is by being issued before it and
/// using a processor resource unit its descriptor names (directly or through
/// a group holding the unit), which changes that unit's and its groups'
/// availability and unit selection (mca::ResourceManager::use). So if every
/// younger instruction issued while prefix instructions wait for issue uses
/// none of their units, each prefix instruction issues, executes and retires
/// at the same cycle as in the shorter run, which ends in the cycle its last
/// instruction retires: total() = that cycle + 1. Otherwise total() is
/// nullopt and the shorter run must be simulated. Out-of-order pipelines only
/// (mca::Context::createDefaultPipeline).
class PrefixRunWatch : public mca::HWEventListener {
public:
  PrefixRunWatch(unsigned Prefix, unsigned BlockSize,
                 const SmallVectorImpl<mca::SourceMgr::UniqueInst> &Seq)
      : Prefix(Prefix), Started(Prefix, false) {
    // Units of the prefix's instructions that are not issued yet, counted.
    for (unsigned I = 0; I < Prefix; ++I)
      forEachUnit(Seq[I % BlockSize]->getDesc(), [&](unsigned U) { ++Waiting[U]; });
  }

  void onCycleBegin() override { ++Cycle; }
  void onEvent(const mca::HWInstructionEvent &E) override {
    unsigned Index = E.IR.getSourceIndex();
    const mca::InstrDesc &D = E.IR.getInstruction()->getDesc();
    if (Index >= Prefix) {
      if (E.Type == mca::HWInstructionEvent::Issued && NumStarted < Prefix)
        forEachUnit(D, [&](unsigned U) { Interfered |= Waiting[U] != 0; });
      return;
    }
    if ((E.Type == mca::HWInstructionEvent::Issued ||
         E.Type == mca::HWInstructionEvent::Executed) &&
        !Started[Index]) { // executed without issue: an eliminated move
      Started[Index] = true;
      ++NumStarted;
      forEachUnit(D, [&](unsigned U) { --Waiting[U]; });
    }
    if (E.Type == mca::HWInstructionEvent::Retired && Index == Prefix - 1)
      LastRetired = Cycle; // cycles begun so far: this one's index + 1
  }

  /// Total Cycles of the run of the prefix alone; nullopt if unknown.
  std::optional<unsigned> total() const {
    if (Interfered || !LastRetired)
      return std::nullopt;
    return LastRetired;
  }

private:
  /// Calls F with the bit index of every processor resource unit that D's
  /// resources name: a unit's mask is one bit, a group's its own (highest)
  /// bit and its units' bits (mca::computeProcResourceMasks).
  template <typename Fn> static void forEachUnit(const mca::InstrDesc &D, Fn F) {
    uint64_t Units = 0;
    for (const auto &[Mask, Use] : D.Resources)
      Units |= llvm::popcount(Mask) > 1 ? Mask & ~(uint64_t(1) << Log2_64(Mask)) : Mask;
    for (; Units; Units &= Units - 1)
      F(llvm::countr_zero(Units));
  }

  unsigned Prefix;
  std::vector<bool> Started; ///< issued (or executed without issue), by index
  unsigned NumStarted = 0;
  unsigned Waiting[64] = {}; ///< by unit: prefix instructions naming it, not started
  unsigned Cycle = 0;
  bool Interfered = false;
  std::optional<unsigned> LastRetired;
};

/// The target's machine-code information needed to cost blocks.
class BlockCoster {
public:
  BlockCoster(const Target &T, const TargetMachine &TM)
      : T(T), STI(*TM.getMCSubtargetInfo()), MCII(*TM.getMCInstrInfo()),
        MRI(*TM.getMCRegisterInfo()), SM(STI.getSchedModel()),
        Itins(STI.getInstrItineraryForCPU(TM.getTargetCPU())) {
    const Triple &TT = TM.getTargetTriple();
    IsX86 = TT.isX86();
    IsSparc = TT.getArch() == Triple::sparc ||
              TT.getArch() == Triple::sparcv9 ||
              TT.getArch() == Triple::sparcel;
    if (SM.hasInstrSchedModel()) {
      MCIA.reset(T.createMCInstrAnalysis(&MCII));
      IM.reset(T.createInstrumentManager(STI, MCII));
      if (!IM)
        IM = std::make_unique<mca::InstrumentManager>(STI, MCII);
      IPP.reset(T.createInstrPostProcess(STI, MCII));
      if (!IPP)
        IPP = std::make_unique<mca::InstrPostProcess>(STI, MCII);
      IB = std::make_unique<mca::InstrBuilder>(STI, MCII, MRI, MCIA.get(), *IM,
                                               CallLatency);
    }
    CanonCtx = std::make_unique<MCContext>(TT, TM.getMCAsmInfo(), &MRI, &STI);
    Emitter.reset(T.createMCCodeEmitter(MCII, *CanonCtx));
    Disasm.reset(T.createMCDisassembler(STI, *CanonCtx));
    Backend.reset(T.createMCAsmBackend(STI, MRI, TM.Options.MCOptions));
    if (IsSparc) // FP registers: those of the register classes named *FP*, FCC*
      for (const MCRegisterClass &RC : MRI.regclasses()) {
        StringRef Name = MRI.getRegClassName(&RC);
        if (Name.contains("FP") || Name.starts_with("FCC"))
          for (MCPhysReg Reg : RC)
            FPRegs.insert(Reg);
      }
    if (IccDump)
      Printer.reset(
          T.createMCInstPrinter(TT, 0, *TM.getMCAsmInfo(), MCII, MRI));
  }

  /// Names of the functions the module defines (calls to others are external).
  std::set<std::string> Defined;

  /// Whether "cycles" is modelled for this target.
  bool hasCycles() const { return IB || !Itins.isEmpty(); }

  /// Makes the recorded instructions those the assembler would build from
  /// the assembly text, which is what llvm-mca (and the hardware) sees: the
  /// X86 AsmPrinter lists the registers of the returned value as operands
  /// of RET, and llvm::mca would make the return wait for them.
  void canonicalise(std::vector<MCInst> &Insts) const {
    for (MCInst &I : Insts) {
      const MCInstrDesc &D = MCII.get(I.getOpcode());
      if (D.isReturn() && D.isVariadic())
        while (I.getNumOperands() > D.getNumOperands())
          I.erase(I.end() - 1);
    }
  }

  /// Whether the byte layout of code (addLayoutPadding) can be computed:
  /// the target has an instruction encoder and an assembler back end.
  bool hasLayout() const { return Emitter && Backend && Disasm; }

  /// Bytes of I as the assembler encodes it; Fixups receives its fixups.
  uint64_t encodedSize(const MCInst &I, SmallVectorImpl<MCFixup> &Fixups) const {
    SmallVector<char, 16> Bytes;
    Fixups.clear();
    Emitter->encodeInstruction(I, Bytes, Fixups, STI);
    return Bytes.size();
  }

  /// Whether the assembler replaces I by a longer form (a branch whose
  /// short displacement does not reach): I may need relaxation
  /// (MCAsmBackend::mayNeedRelaxation) and its fixup's value, Disp = target
  /// - end of I in bytes, or an unknown target (Disp = nullopt: a symbol
  /// outside the function, resolved by the linker) needs it.
  bool needsRelaxation(const MCInst &I, const SmallVectorImpl<MCFixup> &Fixups,
                       std::optional<int64_t> Disp) const {
    if (!Backend->mayNeedRelaxation(I, STI) || Fixups.empty())
      return false;
    return !Disp || Backend->fixupNeedsRelaxation(Fixups.front(), *Disp);
  }

  /// I relaxed by the assembler back end (MCAsmBackend::relaxInstruction).
  MCInst relaxed(MCInst I) const {
    Backend->relaxInstruction(I, STI);
    return I;
  }

  /// The instructions the assembler writes as Bytes bytes of padding in code
  /// (MCAsmBackend::writeNopData: on x86 nops of up to 15 bytes each, the
  /// CPU's longest fast nop, X86AsmBackend::getMaximumNopSize), decoded.
  /// Empty if the target writes no decodable nops.
  std::vector<MCInst> paddingNops(uint64_t Bytes) const {
    SmallString<32> Data;
    raw_svector_ostream OS(Data);
    if (!Bytes || !Backend->writeNopData(OS, Bytes, &STI))
      return {};
    std::vector<MCInst> Nops;
    ArrayRef<uint8_t> Code(reinterpret_cast<const uint8_t *>(Data.data()),
                           Data.size());
    for (uint64_t At = 0; At < Code.size();) {
      MCInst I;
      uint64_t Size = 0;
      if (Disasm->getInstruction(I, Size, Code.slice(At), At, nulls()) !=
              MCDisassembler::Success ||
          !Size)
        return {};
      Nops.push_back(I);
      At += Size;
    }
    return Nops;
  }

  bool isUnconditionalBranch(const MCInst &I) const {
    return MCII.get(I.getOpcode()).isUnconditionalBranch();
  }

  ~BlockCoster() {
    if (IccDump)
      errs() << "segtime-icc " << STI.getCPU() << ": " << MemoHits << " of " << Costed
             << " blocks costed from the memo (" << Memo.size() << " distinct); "
             << ShortFromLong << " of " << LoopRuns
             << " loop blocks' short runs taken from the long run\n";
    if (IccCheckShortRun)
      errs() << "segtime-icc-check-short-run " << STI.getCPU() << ": " << ShortFromLong
             << " of " << LoopRuns << " loop blocks' short runs taken from the long run, "
             << ShortMismatches << " differ from the simulated short run\n";
  }

  /// The ICC RUV of one execution of block B (per iteration if B is in a
  /// loop). Memoised: blocks with the same instructions (memoKey) and the
  /// same InLoop cost the same, and real code repeats blocks (spills,
  /// returns, calls with the same argument set-up), so llvm-mca runs once
  /// per distinct block of the target.
  Ruv cost(const BlockRecord &B) {
    ++Costed;
    auto [It, New] = Memo.try_emplace(memoKey(B));
    if (New)
      It->second = costOnce(B);
    else
      ++MemoHits;
    if (IccDump)
      dump(B, It->second);
    return It->second;
  }

private:
  /// Everything of B that costOnce reads, as bytes: InLoop, and per
  /// instruction its opcode, flags and operands (registers, immediates,
  /// nested instructions). An expression operand (branch target, symbol
  /// address) costs the same whatever it names, but for the callee of a
  /// call, whose being defined in the module or not (call.external) is in
  /// the key. Two blocks with equal keys have equal costs.
  std::string memoKey(const BlockRecord &B) const {
    std::string Key(1, B.InLoop ? 'L' : 'S');
    for (const MCInst &I : B.Insts)
      appendKey(Key, I);
    return Key;
  }

  /// Appends I's part of memoKey to Key.
  void appendKey(std::string &Key, const MCInst &I) const {
    auto Put = [&Key](auto V) { Key.append(reinterpret_cast<const char *>(&V), sizeof V); };
    const MCInstrDesc &D = MCII.get(I.getOpcode());
    Put(I.getOpcode());
    Put(I.getFlags());
    Put(uint32_t(I.getNumOperands()));
    for (unsigned K = 0; K < I.getNumOperands(); ++K) {
      const MCOperand &Op = I.getOperand(K);
      if (Op.isReg()) {
        Key += 'r';
        Put(unsigned(Op.getReg()));
      } else if (Op.isImm()) {
        Key += 'i';
        Put(Op.getImm());
      } else if (Op.isSFPImm()) {
        Key += 's';
        Put(Op.getSFPImm());
      } else if (Op.isDFPImm()) {
        Key += 'd';
        Put(Op.getDFPImm());
      } else if (Op.isExpr()) {
        Key += 'e';
        if (K == 0 && D.isCall())
          if (auto *Sym = dyn_cast<MCSymbolRefExpr>(Op.getExpr()))
            Key += Defined.count(Sym->getSymbol().getName().str()) ? 'D' : 'X';
      } else if (Op.isInst()) {
        Key += 'n';
        appendKey(Key, *Op.getInst());
      } else {
        Key += '?';
      }
    }
  }

  /// cost() without the memo.
  Ruv costOnce(const BlockRecord &B) {
    Ruv R;
    R.add("instructions", B.Insts.size());
    for (const MCInst &I : B.Insts) {
      const MCInstrDesc &D = MCII.get(I.getOpcode());
      if (D.mayLoad())
        R.add("mem.load");
      if (D.mayStore())
        R.add("mem.store");
      if (D.isBranch())
        R.add("branch");
      if (D.isCall()) {
        R.add("call");
        // A call to a function this module does not define goes through the
        // dynamic linker's PLT: one more instruction (its indirect jump)
        // runs per call, counted with the caller as callgrind does.
        if (I.getNumOperands() && I.getOperand(0).isExpr())
          if (auto *Sym = dyn_cast<MCSymbolRefExpr>(I.getOperand(0).getExpr()))
            if (!Defined.count(Sym->getSymbol().getName().str())) {
              R.add("call.external");
              R.add("instructions");
            }
      }
      if (IsSparc && isFP(I))
        R.add("fp");
    }
    if (IsX86 && macroFused(B))
      R.add("uops.macro_fused");
    if (IB)
      costWithMca(B, R);
    else
      costWithItineraries(B, R);
    return R;
  }

  /// llvm-mca's default latency of a call instruction (-call-latency).
  static constexpr unsigned CallLatency = 100;
  /// Iterations of the two runs whose difference is the steady state of a
  /// loop block (as `llvm-mca -iterations=N`, without the fill and drain of
  /// the pipeline; 24 - 8 iterations cost a third of llvm-mca's default 100).
  static constexpr unsigned LoopIterations = 24, ShortIterations = 8;

  /// Total cycles of a run of Iterations iterations of Seq (llvm-mca's
  /// "Total Cycles"); nullopt if the pipeline fails.
  /// Watch (if any) listens to the run.
  std::optional<unsigned>
  runMca(const SmallVectorImpl<mca::SourceMgr::UniqueInst> &Seq,
         unsigned Iterations, mca::HWEventListener *Watch = nullptr) {
    mca::CircularSourceMgr Source(Seq, Iterations);
    std::unique_ptr<mca::CustomBehaviour> CB(
        T.createCustomBehaviour(STI, Source, MCII));
    if (!CB)
      CB = std::make_unique<mca::CustomBehaviour>(STI, Source, MCII);
    mca::Context Ctx(MRI, STI);
    // llvm-mca's defaults: widths and queue sizes from the model.
    mca::PipelineOptions PO(0, 0, 0, 0, 0, 0, /*AssumeNoAlias=*/true);
    std::unique_ptr<mca::Pipeline> P =
        SM.isOutOfOrder() ? Ctx.createDefaultPipeline(PO, Source, *CB)
                          : Ctx.createInOrderPipeline(PO, Source, *CB);
    if (Watch)
      P->addEventListener(Watch);
    Expected<unsigned> Total = P->run();
    if (Total)
      return *Total;
    consumeError(Total.takeError());
    return std::nullopt;
  }

  /// I as the assembler would build it from its text, as llvm-mca sees it:
  /// code generation uses codegen-only twins of some instructions (e.g.
  /// X86's VMOVSDrm_alt for VMOVSDrm, same encoding) whose scheduling class
  /// can differ. Encodes I and decodes the bytes; I itself if that fails
  /// or changes nothing.
  MCInst assembled(const MCInst &I) const {
    if (!Emitter || !Disasm)
      return I;
    SmallVector<char, 16> Bytes;
    SmallVector<MCFixup, 4> Fixups;
    Emitter->encodeInstruction(I, Bytes, Fixups, STI);
    MCInst D;
    uint64_t Size = 0;
    ArrayRef<uint8_t> Code(reinterpret_cast<const uint8_t *>(Bytes.data()),
                           Bytes.size());
    if (Bytes.empty() ||
        Disasm->getInstruction(D, Size, Code, 0, nulls()) !=
            MCDisassembler::Success ||
        Size != Bytes.size() || D.getOpcode() == I.getOpcode())
      return I;
    return D;
  }

  /// Whether B ends in an x86 macro-fused pair: a conditional jump after an
  /// integer CMP, TEST, ADD, SUB, AND, INC or DEC that does not have both a
  /// memory operand and an immediate, which the decoders of Intel cores
  /// since Sandy Bridge make one micro-op (Intel 64 and IA-32 Architectures
  /// Optimization Reference Manual, "Macro-Fusion"). llvm-mca counts two;
  /// the ICC window (ICCModel::window) counts the reorder buffer's micro-ops
  /// as uops - uops.macro_fused.
  bool macroFused(const BlockRecord &B) const {
    size_t N = B.Insts.size(); // the conditional jump, before a final jmp if any
    if (N >= 2 && MCII.get(B.Insts[N - 1].getOpcode()).isUnconditionalBranch())
      --N;
    if (N < 2 || !MCII.get(B.Insts[N - 1].getOpcode()).isConditionalBranch())
      return false;
    // The opcode's name: operation, operand width, forms (r, m, i, ...).
    StringRef Forms = MCII.getName(B.Insts[N - 2].getOpcode());
    if (!llvm::any_of(std::initializer_list<StringRef>{"CMP", "TEST", "ADD", "SUB", "AND", "INC",
                                                       "DEC"},
                      [&](StringRef Op) { return Forms.consume_front(Op); }) ||
        !llvm::any_of(std::initializer_list<StringRef>{"8", "16", "32", "64"},
                      [&](StringRef W) { return Forms.consume_front(W); }) ||
        !llvm::all_of(Forms, [](char C) { return isLower(C) || isDigit(C) || C == '_'; }))
      return false;
    return !(Forms.contains('m') && Forms.contains('i'));
  }

  bool isFP(const MCInst &I) const {
    if (MCII.getName(I.getOpcode()).starts_with("F"))
      return true;
    for (const MCOperand &Op : I)
      if (Op.isReg() && FPRegs.count(Op.getReg()))
        return true;
    return false;
  }

  /// Out-of-order cores (a SchedMachineModel): "cycles" from llvm-mca's
  /// Total Cycles: one execution outside loops; inside loops the steady state
  /// per iteration, (T(24) - T(8)) / 16 from two circular runs (design.md §5:
  /// scheduling-model throughput; llvm-mca -iterations=100 reports T(100)/100,
  /// which still includes the fill and drain of the pipeline). "uops" are the
  /// scheduling model's micro-ops.
  void costWithMca(const BlockRecord &B, Ruv &R) {
    if (B.Insts.empty()) {
      R.add("cycles", 0);
      R.add("uops", 0);
      return;
    }
    IB->clear(); // variant descriptors are keyed by MCInst address
    IPP->resetState();
    std::vector<MCInst> Insts;
    for (const MCInst &I : B.Insts)
      Insts.push_back(assembled(I));
    SmallVector<mca::SourceMgr::UniqueInst, 16> Seq;
    const SmallVector<mca::Instrument *> NoInstruments;
    unsigned Skipped = 0;
    double Uops = 0;
    for (const MCInst &I : Insts) {
      const MCInstrDesc &D = MCII.get(I.getOpcode());
      std::optional<ScopedSilentStderr> Silence;
      if (D.isCall() || D.isReturn())
        Silence.emplace();
      Expected<std::unique_ptr<mca::Instruction>> X =
          IB->createInstruction(I, NoInstruments);
      Silence.reset();
      if (!X) {
        consumeError(X.takeError());
        ++Skipped;
        Uops += 1;
        continue;
      }
      IPP->postProcessInstruction(*X, I);
      Uops += (*X)->getNumMicroOps();
      Seq.push_back(std::move(*X));
    }
    R.add("uops", Uops);
    if (Skipped)
      R.add("mca.skipped", Skipped);
    R.add("rthroughput", blockRThroughput(Seq));
    double Cycles = 0;
    if (!Seq.empty()) {
      // In a loop: the steady state, the slope between a short and a longer
      // run (the pipeline's fill and drain cancel); outside loops: one
      // execution.
      // The short run of an out-of-order pipeline is most often read off the
      // long one (PrefixRunWatch: the same figure, a quarter fewer cycles
      // simulated).
      std::optional<unsigned> Long, Short(0);
      if (B.InLoop) {
        ++LoopRuns;
        PrefixRunWatch Watch(ShortIterations * Seq.size(), Seq.size(), Seq);
        Long = runMca(Seq, LoopIterations, SM.isOutOfOrder() ? &Watch : nullptr);
        Short = Watch.total();
        if (Short)
          ++ShortFromLong;
        if (!Short || IccCheckShortRun) {
          std::optional<unsigned> Simulated = runMca(Seq, ShortIterations);
          ShortMismatches += Short && Simulated != Short;
          Short = Simulated;
        }
      } else {
        Long = runMca(Seq, 1);
      }
      if (Long && Short)
        Cycles = B.InLoop ? double(*Long - *Short) / (LoopIterations - ShortIterations) : *Long;
      else
        R.add("mca.skipped", Seq.size());
    }
    R.add("cycles", Cycles);
  }

  /// In-order cores with instruction itineraries (LEON2/3/4): "cycles" is
  /// the sum over the block's instructions of their itinerary latency, an
  /// in-order cycle sum in the style of Warwick-94 eq. 7 (design.md §5).
  /// The latency of an instruction is the larger of its stage latency and the
  /// cycle of its first operand (LLVM's LEON itineraries have one-cycle stages
  /// and put the latency there, e.g. FDIVD, ST); instructions whose class has
  /// no itinerary (LD, BA) take LLVM's default (2 for a load, else 1).
  /// Without itineraries (supersparc, v8) "cycles" is omitted.
  void costWithItineraries(const BlockRecord &B, Ruv &R) {
    double Cycles = 0, Uops = 0;
    for (const MCInst &I : B.Insts) {
      if (Itins.isEmpty()) {
        Uops += 1;
        continue;
      }
      Cycles += itineraryLatency(I);
      int U = Itins.getNumMicroOps(MCII.get(I.getOpcode()).getSchedClass());
      Uops += U > 0 ? U : 1; // classes without an itinerary say 0
    }
    R.add("uops", Uops);
    if (!Itins.isEmpty())
      R.add("cycles", Cycles);
  }

  /// llvm-mca's Block RThroughput of one iteration of Seq: the larger of
  /// micro-ops / issue width and, for every processor resource, the cycles
  /// it is busy / its units (mca::computeBlockRThroughput). Register
  /// dependences are ignored: the cost when iterations overlap freely.
  double blockRThroughput(const SmallVectorImpl<mca::SourceMgr::UniqueInst> &Seq) const {
    SmallVector<uint64_t, 32> Masks(SM.getNumProcResourceKinds());
    mca::computeProcResourceMasks(SM, Masks);
    DenseMap<uint64_t, unsigned> Kind;
    for (unsigned I = 1; I < Masks.size(); ++I)
      Kind[Masks[I]] = I;
    SmallVector<unsigned, 32> Usage(SM.getNumProcResourceKinds(), 0);
    unsigned Uops = 0;
    for (const auto &I : Seq) {
      const mca::InstrDesc &D = I->getDesc();
      Uops += D.NumMicroOps;
      for (const auto &[Mask, Use] : D.Resources) {
        auto It = Kind.find(Mask);
        if (It != Kind.end())
          Usage[It->second] += Use.size();
      }
    }
    return mca::computeBlockRThroughput(SM, SM.IssueWidth, Uops, Usage);
  }

  /// The itinerary latency of I in cycles (see costWithItineraries).
  unsigned itineraryLatency(const MCInst &I) const {
    const MCInstrDesc &D = MCII.get(I.getOpcode());
    unsigned Class = D.getSchedClass();
    const InstrItinerary &It = Itins.Itineraries[Class];
    if (It.FirstStage == It.LastStage &&
        It.FirstOperandCycle == It.LastOperandCycle)
      return D.mayLoad() ? 2 : 1; // no itinerary for this class
    unsigned Lat = std::max(1u, Itins.getStageLatency(Class));
    if (std::optional<unsigned> C = Itins.getOperandCycle(Class, 0))
      Lat = std::max(Lat, *C);
    return Lat;
  }

  void dump(const BlockRecord &B, const Ruv &R) {
    errs() << "segtime-icc " << STI.getCPU() << " "
           << (B.OrigFn ? B.OrigFn->getName() : StringRef("?")) << " bb."
           << B.Number << (B.InLoop ? " (loop)" : "") << " -> bb"
           << B.OrigNumber << (B.Inherited ? " (inherited)" : "");
    if (B.ExitJumpMoved)
      errs() << " (exit jump of " << B.ExitJumpSize << " to bb."
             << B.ExitJumpNumber << ")";
    if (B.PaddingNops)
      errs() << (B.EdgeTo ? " (edge: " : " (") << B.PaddingNops
             << " nops of alignment padding)";
    errs() << ":";
    for (auto &[K, V] : R.counts())
      errs() << " " << K << "=" << format("%g", V);
    errs() << "\n";
    for (const MCInst &I : B.Insts) {
      errs() << "   ";
      if (Printer)
        Printer->printInst(&I, 0, "", STI, errs());
      if (!IB && !Itins.isEmpty())
        errs() << "\t; " << itineraryLatency(I) << " cycles";
      errs() << "\n";
    }
  }

  const Target &T;
  const MCSubtargetInfo &STI;
  const MCInstrInfo &MCII;
  const MCRegisterInfo &MRI;
  const MCSchedModel &SM;
  InstrItineraryData Itins;
  bool IsSparc = false;
  bool IsX86 = false;
  std::set<unsigned> FPRegs;
  /// cost() of the blocks costed so far, by memoKey.
  StringMap<Ruv> Memo;
  unsigned MemoHits = 0, Costed = 0; ///< for the dump's hit rate
  /// Loop blocks simulated, those whose short run the long one gave, and
  /// (segtime-icc-check-short-run) those where the two differ.
  unsigned LoopRuns = 0, ShortFromLong = 0, ShortMismatches = 0;
  std::unique_ptr<MCInstrAnalysis> MCIA;
  std::unique_ptr<mca::InstrumentManager> IM;
  std::unique_ptr<mca::InstrPostProcess> IPP;
  std::unique_ptr<mca::InstrBuilder> IB;
  std::unique_ptr<MCContext> CanonCtx; ///< for assembled()
  std::unique_ptr<MCCodeEmitter> Emitter;
  std::unique_ptr<MCDisassembler> Disasm;
  std::unique_ptr<MCAsmBackend> Backend; ///< code layout: relaxation, nops
  std::unique_ptr<MCInstPrinter> Printer;
};

//===----------------------------------------------------------------------===//
// The passes around the AsmPrinter
//===----------------------------------------------------------------------===//

using BlockMap = ValueMap<const BasicBlock *, const BasicBlock *>;

/// The blocks of F, in order.
std::vector<const BasicBlock *> blocksOf(const Function *F) {
  std::vector<const BasicBlock *> Blocks;
  for (const BasicBlock &B : *F)
    Blocks.push_back(&B);
  return Blocks;
}

/// If machine block MBB, whose only predecessor is P, lies outside a loop
/// that contains P: the one block of the costed module (OrigOf) that P's IR
/// block leaves the loop to -- through blocks of code generation's own with
/// one successor (a split exit edge) -- i.e. the block the loop exits to;
/// nullptr otherwise.
static const BasicBlock *
exitTarget(const Recording &R, const MachineLoopInfo &MLI, const MachineBasicBlock &P,
           const MachineBasicBlock &MBB,
           function_ref<const BasicBlock *(const BasicBlock *)> OrigOf) {
  const MachineLoop *L = MLI.getLoopFor(&P);
  const BasicBlock *From = P.getBasicBlock();
  if (!L || L->contains(&MBB) || !From)
    return nullptr;
  SmallPtrSet<const BasicBlock *, 8> InLoop;
  for (const MachineBasicBlock *X : L->blocks())
    if (const BasicBlock *O = R.Blocks[R.MBBIndex.lookup(X)].Orig)
      InLoop.insert(O);
  const BasicBlock *Out = nullptr;
  for (const BasicBlock *S : successors(From)) {
    const BasicBlock *O = OrigOf(S);
    for (int Hops = 0; !O && Hops < 4 && S->getSingleSuccessor(); ++Hops) {
      S = S->getSingleSuccessor();
      O = OrigOf(S);
    }
    if (!O || InLoop.count(O) || O == Out)
      continue;
    if (Out)
      return nullptr; // two ways out: not decided here
    Out = O;
  }
  return Out;
}

/// Records the machine blocks of MF in layout order, with what the costing
/// needs (in a loop?, exit jumps, alignment, fall-through, blocks on IR
/// edges, conditional jumps), and points the recording at the entry block.
/// OrigFn: the function of the costed module MF was compiled from (nullptr:
/// none); OrigOf maps the IR block of a machine block to the block of the
/// costed module whose RUV it adds to (nullptr: a block of code generation's
/// own, which inherits a neighbour's). ForceLabels: make the AsmPrinter emit
/// the label of every block that has a predecessor (it omits those of
/// fall-through blocks), for a streamer that splits the instructions at the
/// labels; it changes the label symbols of the object, so only for code
/// that is not the compile's output. BlocksOf(OrigFn): its blocks, which
/// -segtime-icc-dump numbers.
void collectBlocks(Recording &R, MachineFunction &MF, const MachineLoopInfo &MLI,
                   const Function *OrigFn,
                   function_ref<const BasicBlock *(const BasicBlock *)> OrigOf,
                   function_ref<std::vector<const BasicBlock *>(const Function *)> BlocksOf,
                   bool ForceLabels) {
  if (OrigFn)
    R.CompiledFunctions.insert(OrigFn);
  DenseMap<const MachineBasicBlock *, unsigned> &Index = R.MBBIndex;
  Index.clear();
  unsigned First = R.Blocks.size();
  for (MachineBasicBlock &MBB : MF) {
    BlockRecord B;
    B.OrigFn = OrigFn;
    B.InLoop = MLI.getLoopFor(&MBB) != nullptr;
    B.Number = MBB.getNumber();
    B.Alignment = MBB.getAlignment();
    B.AlignMaxBytes = MBB.getMaxBytesForAlignment();
    B.FallsThrough = MBB.canFallThrough();
    B.CondFallThrough =
        B.FallsThrough && MBB.getFirstTerminator() != MBB.end();
    if (const BasicBlock *BB = MBB.getBasicBlock())
      B.Orig = OrigOf(BB);
    unsigned I = R.Blocks.size();
    Index[&MBB] = I;
    R.Blocks.push_back(std::move(B));
    if (ForceLabels && !MBB.pred_empty())
      MBB.setLabelMustBeEmitted();
    R.BlockOfLabel[MBB.getSymbol()] = I;
  }
  const TargetInstrInfo &TII = *MF.getSubtarget().getInstrInfo();
  for (MachineBasicBlock &MBB : MF) {
    MachineBasicBlock *TBB = nullptr, *FBB = nullptr;
    SmallVector<MachineOperand, 4> Cond;
    const MachineLoop *L = MLI.getLoopFor(&MBB);
    auto Last = MBB.getLastNonDebugInstr();
    if (!L || Last == MBB.end() || !Last->isUnconditionalBranch() ||
        TII.analyzeBranch(MBB, TBB, FBB, Cond, /*AllowModify=*/false) ||
        Cond.empty() || !TBB || !FBB || !L->contains(TBB) || L->contains(FBB))
      continue;
    BlockRecord &B = R.Blocks[Index[&MBB]];
    B.ExitJumpTo = Index[FBB];
    B.ExitJumpNumber = FBB->getNumber();
    B.ExitJumpSize = 1; // the jump and the instructions bundled with it
    for (auto I = std::next(Last.getInstrIterator());
         I != MBB.instr_end() && I->isInsideBundle(); ++I)
      ++B.ExitJumpSize;
  }
  // An IR block's branch is still a branch if one of the block's own
  // machine blocks ends in a conditional jump to another block's code.
  for (MachineBasicBlock &MBB : MF) {
    const BlockRecord &B = R.Blocks[Index[&MBB]];
    if (!B.Orig)
      continue;
    bool Cond = llvm::any_of(MBB.terminators(), [](const MachineInstr &MI) {
      return MI.isConditionalBranch();
    });
    bool Leaves = llvm::any_of(MBB.successors(), [&](MachineBasicBlock *S) {
      return R.Blocks[Index[S]].Orig != B.Orig;
    });
    if (Cond && Leaves)
      R.CondJumps.insert(B.Orig);
  }
  // Blocks made by code generation (split critical edges, blocks new in
  // the codegen IR passes) belong to their only predecessor, else to the
  // block before them in the layout.
  for (MachineBasicBlock &MBB : MF)
    R.Blocks[Index[&MBB]].Inherited = !R.Blocks[Index[&MBB]].Orig;
  for (MachineBasicBlock &MBB : MF) {
    BlockRecord &B = R.Blocks[Index[&MBB]];
    if (!B.Inherited)
      continue;
    if (MBB.pred_size() == 1 && MBB.succ_size() == 1) {
      const BlockRecord &P = R.Blocks[Index[*MBB.pred_begin()]];
      const BlockRecord &S = R.Blocks[Index[*MBB.succ_begin()]];
      // Also on an edge that leaves a loop (e.g. the restore of
      // callee-saved registers that shrink-wrapping moved onto the exit):
      // once per execution of the loop (IRFunctionSeg::LoopExits).
      if (!P.Inherited && !S.Inherited && P.Orig && S.Orig && P.Orig != S.Orig)
        B.EdgeTo = S.Orig;
    }
    if (MBB.pred_size() == 1 && R.Blocks[Index[*MBB.pred_begin()]].Orig) {
      B.Orig = R.Blocks[Index[*MBB.pred_begin()]].Orig;
      // The only way out of a loop (the tests after a runtime-unrolled
      // loop): it runs once per execution of the loop, with the IR block
      // the loop leaves to, not once per iteration with the loop's block
      // (a block on one IR edge is charged to that edge instead).
      if (const BasicBlock *Out =
              B.EdgeTo ? nullptr : exitTarget(R, MLI, **MBB.pred_begin(), MBB, OrigOf))
        B.Orig = Out;
    } else if (Index[&MBB] > First)
      B.Orig = R.Blocks[Index[&MBB] - 1].Orig;
  }
  if (IccDump && OrigFn) {
    DenseMap<const BasicBlock *, int> Position;
    int N = 0;
    for (const BasicBlock *BB : BlocksOf(OrigFn))
      Position[BB] = N++;
    for (unsigned I = First; I < R.Blocks.size(); ++I) {
      auto It = Position.find(R.Blocks[I].Orig);
      R.Blocks[I].OrigNumber = It == Position.end() ? -1 : It->second;
    }
  }
  R.FunctionBegin = First;
  R.Current = MF.empty() ? -1 : int(First);
}

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

/// The phase timer of the side compile's code generation (Timing.h).
Timer *codegenTimer() { return phaseTimer("icc-codegen", "ICC code generation"); }

/// Costs the blocks of the function just printed (Recording::FunctionBegin
/// on), while the MCContext that owns their instructions' symbols and
/// expressions is alive, then drops the instructions: the layout padding
/// (addLayoutPadding), the loop-exit jumps moved (moveExitJumps), and
/// BlockCoster::cost per block.
class FunctionCosting {
public:
  FunctionCosting(Recording &R, BlockCoster &Coster) : R(R), Coster(Coster) {}

  void run() {
    NestedPhaseRegion Time(codegenTimer(),
                           phaseTimer("icc-costing", "ICC block costing (llvm-mca, layout)"));
    addLayoutPadding();
    moveExitJumps();
    for (unsigned I = R.FunctionBegin; I < R.Blocks.size(); ++I) {
      BlockRecord &B = R.Blocks[I];
      Coster.canonicalise(B.Insts);
      if (B.Orig)
        B.Cost = Coster.cost(B);
      B.Insts = {};
    }
    R.Current = -1;
  }

private:
  /// The padding the assembler puts in front of aligned blocks (loop
  /// headers, MachineBasicBlock::getAlignment) is code: when the block
  /// before it falls through, the padding's nops run on that path (callgrind
  /// counts them; they emit no MCInst in the AsmPrinter's stream). Lays the
  /// function's code out as the assembler does, from offset 0 (the function
  /// start, aligned to at least its blocks' alignment): encoded sizes,
  /// branches relaxed until their targets are in reach (a fixed point, as
  /// MCAssembler::layout), padding = offsetToAlignment unless it exceeds the
  /// block's maximum. The padding's nops (MCAsmBackend::writeNopData) are
  /// added to the block before it when that block always falls through,
  /// else as a block on the IR edge of the fall-through.
  void addLayoutPadding() {
    if (!Coster.hasLayout())
      return;
    const unsigned Begin = R.FunctionBegin, End = R.Blocks.size();
    struct Slot {
      MCInst I;
      uint64_t Size = 0, Addr = 0;
      int Target = -1; ///< block index of a branch target label
      bool MayRelax = false;
      SmallVector<MCFixup, 2> Fixups;
    };
    std::vector<Slot> Slots;
    std::vector<unsigned> FirstSlot;
    for (unsigned B = Begin; B < End; ++B) {
      FirstSlot.push_back(Slots.size());
      for (const MCInst &I : R.Blocks[B].Insts) {
        Slot S{I};
        S.Size = Coster.encodedSize(I, S.Fixups);
        S.MayRelax = Coster.needsRelaxation(I, S.Fixups, std::nullopt);
        for (const MCOperand &Op : I)
          if (Op.isExpr())
            if (auto *Ref = dyn_cast<MCSymbolRefExpr>(Op.getExpr())) {
              auto It = R.BlockOfLabel.find(&Ref->getSymbol());
              if (It != R.BlockOfLabel.end() && It->second >= Begin &&
                  It->second < End)
                S.Target = It->second;
            }
        Slots.push_back(std::move(S));
      }
    }
    FirstSlot.push_back(Slots.size());
    std::vector<uint64_t> Start(End - Begin), Pad(End - Begin);
    for (unsigned Round = 0;; ++Round) {
      uint64_t Addr = 0;
      for (unsigned B = Begin; B < End; ++B) {
        const BlockRecord &Rec = R.Blocks[B];
        uint64_t P = offsetToAlignment(Addr, Rec.Alignment);
        Pad[B - Begin] = Rec.AlignMaxBytes && P > Rec.AlignMaxBytes ? 0 : P;
        Addr += Pad[B - Begin];
        Start[B - Begin] = Addr;
        for (unsigned S = FirstSlot[B - Begin]; S < FirstSlot[B - Begin + 1]; ++S) {
          Slots[S].Addr = Addr;
          Addr += Slots[S].Size;
        }
      }
      bool Changed = false;
      for (Slot &S : Slots) {
        if (!S.MayRelax)
          continue;
        std::optional<int64_t> Disp;
        if (S.Target >= 0)
          Disp = int64_t(Start[S.Target - Begin]) - int64_t(S.Addr + S.Size);
        if (!Coster.needsRelaxation(S.I, S.Fixups, Disp))
          continue;
        S.I = Coster.relaxed(S.I);
        S.Size = Coster.encodedSize(S.I, S.Fixups);
        S.MayRelax = Coster.needsRelaxation(S.I, S.Fixups, std::nullopt);
        Changed = true;
      }
      if (!Changed || Round == 64) // relaxation only grows: a few rounds
        break;
    }
    std::vector<BlockRecord> EdgeBlocks;
    for (unsigned B = Begin + 1; B < End; ++B) {
      BlockRecord &Prev = R.Blocks[B - 1];
      const BlockRecord &Next = R.Blocks[B];
      if (!Pad[B - Begin] || !Prev.FallsThrough)
        continue;
      std::vector<MCInst> Nops = Coster.paddingNops(Pad[B - Begin]);
      Prev.PaddingNops = Nops.size();
      if (Prev.CondFallThrough && Prev.Orig && Next.Orig &&
          Prev.Orig != Next.Orig && !Prev.EdgeTo) {
        BlockRecord E;
        E.Orig = Prev.Orig;
        E.OrigFn = Prev.OrigFn;
        E.EdgeTo = Next.Orig;
        E.InLoop = Prev.InLoop && Next.InLoop;
        E.Number = Prev.Number;
        E.OrigNumber = Prev.OrigNumber;
        E.PaddingNops = Nops.size();
        E.Insts = std::move(Nops);
        EdgeBlocks.push_back(std::move(E));
      } else {
        // Always falls through (or no IR edge to charge): runs with Prev.
        Prev.Insts.insert(Prev.Insts.end(), Nops.begin(), Nops.end());
      }
    }
    for (BlockRecord &E : EdgeBlocks)
      R.Blocks.push_back(std::move(E));
  }

  /// Takes each loop-exit jump out of its loop block, when the emitted
  /// instructions are as expected (an unconditional branch): to a block on
  /// the IR edge it takes (a loop exit: once per execution of the loop,
  /// IRFunctionSeg::LoopExits) when it jumps to a block of its own, else to
  /// the front of the block it jumps to.
  void moveExitJumps() {
    const unsigned End = R.Blocks.size();
    for (unsigned I = R.FunctionBegin; I < End; ++I) {
      BlockRecord &B = R.Blocks[I];
      if (B.ExitJumpTo < 0 || B.ExitJumpSize > B.Insts.size())
        continue;
      auto Jump = B.Insts.end() - B.ExitJumpSize;
      const BlockRecord &To = R.Blocks[B.ExitJumpTo];
      if (!To.Orig || !Coster.isUnconditionalBranch(*Jump))
        continue;
      std::vector<MCInst> Insts(Jump, B.Insts.end());
      B.Insts.erase(Jump, B.Insts.end());
      B.ExitJumpMoved = true;
      if (To.Inherited || !B.Orig || B.Orig == To.Orig || B.EdgeTo) {
        BlockRecord &T = R.Blocks[B.ExitJumpTo];
        T.Insts.insert(T.Insts.begin(), Insts.begin(), Insts.end());
        continue;
      }
      BlockRecord E;
      E.Orig = B.Orig;
      E.OrigFn = B.OrigFn;
      E.EdgeTo = To.Orig;
      E.Number = B.Number;
      E.OrigNumber = B.OrigNumber;
      E.Insts = std::move(Insts);
      R.Blocks.push_back(std::move(E)); // invalidates B and To
    }
  }

  Recording &R;
  BlockCoster &Coster;
};

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

/// Adds the RUVs of the costed blocks of Rec to those per block of the
/// costed module (and per IR edge with EdgeOut), and its conditional jumps
/// to CondJumpsOut.
void addResults(const Recording &Rec, std::map<const BasicBlock *, Ruv> &Out, EdgeRuvs *EdgeOut,
                std::set<const BasicBlock *> *CondJumpsOut) {
  for (const BlockRecord &B : Rec.Blocks)
    if (B.Orig && B.EdgeTo && EdgeOut)
      (*EdgeOut)[{B.Orig, B.EdgeTo}].add(B.Cost);
    else if (B.Orig)
      Out[B.Orig].add(B.Cost);
  if (CondJumpsOut)
    CondJumpsOut->insert(Rec.CondJumps.begin(), Rec.CondJumps.end());
}

/// The blocks of the compiled functions (BlocksOf(F): F's blocks) that
/// produced no code (merged or emptied by code generation) cost nothing:
/// said rather than left out.
void addEmptyBlocks(const std::set<const Function *> &Compiled, bool HasCycles,
                    function_ref<std::vector<const BasicBlock *>(const Function *)> BlocksOf,
                    std::map<const BasicBlock *, Ruv> &Out) {
  for (const Function *F : Compiled)
    for (const BasicBlock *B : BlocksOf(F))
      if (!Out.count(B)) {
        Ruv &R = Out[B];
        R.add("instructions", 0);
        if (HasCycles)
          R.add("cycles", 0);
      }
}

void dumpUnattributed(StringRef CPU, unsigned Unattributed) {
  if (IccDump && Unattributed)
    errs() << "segtime-icc " << CPU << ": " << Unattributed
           << " instructions outside machine basic blocks\n";
}

/// The target machine whose scheduling model, encoder and assembler back
/// end cost the blocks of T (and which compiles the clone).
std::unique_ptr<TargetMachine> costingMachine(const Target &Tgt, const Triple &TT,
                                              const TargetSpec &T, std::string &Err) {
  TargetOptions Opts;
  std::unique_ptr<TargetMachine> TM(
      Tgt.createTargetMachine(TT.str(), T.CPU, T.Features, Opts, Reloc::PIC_,
                              std::nullopt, CodeGenOptLevel::Default));
  if (!TM)
    Err = "cannot create a target machine for " + TT.str() + " -mcpu=" + T.CPU;
  return TM;
}

/// The scheduling model's facts for the SEG file's "targets" entry.
void describeTarget(const TargetMachine &TM, std::map<std::string, std::string> &Info) {
  const MCSchedModel &SM = TM.getMCSubtargetInfo()->getSchedModel();
  if (SM.isOutOfOrder() && SM.MicroOpBufferSize > 0)
    Info["micro_op_buffer"] = std::to_string(SM.MicroOpBufferSize);
  Info["issue_width"] = std::to_string(SM.IssueWidth);
}

//===----------------------------------------------------------------------===//
// Preparing the clone
//===----------------------------------------------------------------------===//

/// Why type Ty cannot be compiled for a target of another architecture ("" if
/// it can): x86-only floating-point and matrix types, and integers wider than
/// 64 bits on 32-bit targets (no libcalls for them, a fatal error in
/// instruction selection).
std::string foreignTypeProblem(Type *Ty, bool Target32) {
  if (auto *VT = dyn_cast<VectorType>(Ty))
    return foreignTypeProblem(VT->getElementType(), Target32);
  if (auto *AT = dyn_cast<ArrayType>(Ty))
    return foreignTypeProblem(AT->getElementType(), Target32);
  if (auto *ST = dyn_cast<StructType>(Ty)) {
    for (Type *E : ST->elements())
      if (std::string P = foreignTypeProblem(E, Target32); !P.empty())
        return P;
    return "";
  }
  if (Ty->isX86_FP80Ty() || Ty->isFP128Ty() || Ty->isPPC_FP128Ty() ||
      Ty->isX86_AMXTy() || Ty->isHalfTy() || Ty->isBFloatTy())
    return "floating-point type of another target";
  if (Ty->isIntegerTy() && Ty->getIntegerBitWidth() > (Target32 ? 64u : 128u))
    return "integer wider than the target supports";
  return "";
}

/// Why F of a module made for another architecture cannot be compiled for
/// this one ("" if it can): inline asm, target intrinsics, other calling
/// conventions, unsupported types. Code generation would stop clang with a
/// fatal error on them.
std::string foreignFunctionProblem(const Function &F, bool Target32) {
  auto CCOk = [](CallingConv::ID CC) {
    return CC == CallingConv::C || CC == CallingConv::Fast ||
           CC == CallingConv::Cold;
  };
  if (!CCOk(F.getCallingConv()))
    return "calling convention";
  for (const Argument &A : F.args())
    if (std::string P = foreignTypeProblem(A.getType(), Target32); !P.empty())
      return P;
  if (std::string P = foreignTypeProblem(F.getReturnType(), Target32);
      !P.empty())
    return P;
  for (const BasicBlock &B : F)
    for (const Instruction &I : B) {
      if (auto *C = dyn_cast<CallBase>(&I)) {
        if (C->isInlineAsm())
          return "inline asm";
        if (const Function *Callee = C->getCalledFunction();
            Callee && Callee->isTargetIntrinsic())
          return "target intrinsic " + Callee->getName().str();
        if (!CCOk(C->getCallingConv()))
          return "calling convention";
      }
      if (std::string P = foreignTypeProblem(I.getType(), Target32); !P.empty())
        return P;
      for (const Value *Op : I.operands())
        if (std::string P = foreignTypeProblem(Op->getType(), Target32);
            !P.empty())
          return P;
      if (auto *AI = dyn_cast<AllocaInst>(&I))
        if (std::string P =
                foreignTypeProblem(AI->getAllocatedType(), Target32);
            !P.empty())
          return P;
    }
  return "";
}

/// Why F cannot be compiled for a target whose stack is aligned to
/// StackAlign ("" if it can): a stack allocation of run-time size (a
/// variable-length array) aligned more strictly than the stack, which
/// SPARC's instruction selector rejects with a fatal error ("over-aligned
/// dynamic alloca not supported").
std::string stackProblem(const Function &F, MaybeAlign StackAlign) {
  if (!StackAlign)
    return "";
  for (const BasicBlock &B : F)
    for (const Instruction &I : B)
      if (auto *AI = dyn_cast<AllocaInst>(&I);
          AI && !AI->isStaticAlloca() && AI->getAlign() > *StackAlign)
        return "a stack allocation of run-time size aligned to " +
               std::to_string(AI->getAlign().value()) + " B, more than the target's " +
               std::to_string(StackAlign->value()) + " B stack alignment";
  return "";
}

/// Gives the clone's values the use-list order of M's. Code generation
/// walks users in use-list order in places (instruction selection, address
/// folding), and CloneModule creates the uses in another order: without this
/// a few blocks of the clone compile differently from M itself. Constants are
/// shared by the two modules and are left alone.
void copyUseListOrder(const Module &M, const ValueToValueMapTy &VMap) {
  DenseMap<const Value *, const Value *> Back; // clone -> original
  for (auto KV : VMap)
    if (const Value *C = KV.second)
      Back[C] = KV.first;
  auto Copy = [&](const Value &V) {
    const Value *C = VMap.lookup(&V);
    if (!C || C == &V || (isa<Constant>(C) && !isa<GlobalValue>(C)) ||
        V.hasOneUse() || V.use_empty())
      return;
    DenseMap<std::pair<const User *, unsigned>, unsigned> Pos;
    unsigned I = 0;
    for (const Use &U : V.uses())
      Pos[{U.getUser(), U.getOperandNo()}] = I++;
    auto Key = [&](const Use &U) {
      auto B = Back.find(U.getUser());
      if (B == Back.end())
        return ~0u;
      auto P = Pos.find({cast<User>(B->second), U.getOperandNo()});
      return P == Pos.end() ? ~0u : P->second;
    };
    const_cast<Value *>(C)->sortUseList(
        [&](const Use &L, const Use &R) { return Key(L) < Key(R); });
  };
  for (const GlobalValue &G : M.global_values())
    Copy(G);
  for (const Function &F : M) {
    for (const Argument &A : F.args())
      Copy(A);
    for (const BasicBlock &B : F) {
      Copy(B);
      for (const Instruction &I : B)
        Copy(I);
    }
  }
}

/// Makes the clone a module of target TM: no debug info, TM's triple and data
/// layout, no per-function CPU, features and tuning unless the function was
/// compiled for TM's CPU (so that TM's CPU applies, as with
/// `clang -march=CPU`), and, for a module made for another architecture,
/// no bodies that code generation for TM would reject (nor, for any target,
/// bodies with stack allocations it cannot lower): Skipped receives their
/// names and why.
void prepareClone(Module &C, TargetMachine &TM, bool Foreign,
                  std::map<std::string, std::string> &Skipped) {
  StripDebugInfo(C);
  C.setTargetTriple(TM.getTargetTriple().str());
  C.setDataLayout(TM.createDataLayout());
  C.setModuleInlineAsm(""); // emits no code; x86 asm would not parse for SPARC
  bool Target32 = !TM.getTargetTriple().isArch64Bit();
  for (Function &F : C) {
    // A function compiled for this very CPU keeps its features (-mavx2,
    // __attribute__((target(...)))): its code is then the compile's own.
    // Otherwise TM's CPU applies; on x86, CPU "x86-64" then tunes for
    // "generic", as clang does.
    if (Foreign || F.getFnAttribute("target-cpu").getValueAsString() !=
                       TM.getTargetCPU()) {
      F.removeFnAttr("target-cpu");
      F.removeFnAttr("target-features");
      F.removeFnAttr("tune-cpu");
    }
    if (F.isDeclaration())
      continue;
    std::string Problem = Foreign ? foreignFunctionProblem(F, Target32) : "";
    if (Problem.empty())
      Problem = stackProblem(F, C.getDataLayout().getStackAlignment());
    if (!Problem.empty()) {
      Skipped[F.getName().str()] = Problem;
      F.deleteBody(); // no ICC RUVs for its blocks (ValueMap drops them)
    }
  }
  if (Foreign)
    for (GlobalVariable &G : C.globals())
      if (G.hasInitializer() &&
          !foreignTypeProblem(G.getValueType(), Target32).empty()) {
        G.setInitializer(nullptr);
        G.setComdat(nullptr);
        G.setLinkage(GlobalValue::ExternalLinkage);
      }
}

//===----------------------------------------------------------------------===//
// Recording the compile's own code generation
//===----------------------------------------------------------------------===//

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
};

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

//===----------------------------------------------------------------------===//
// Interface
//===----------------------------------------------------------------------===//

std::optional<TargetSpec> parseTargetSpec(const std::string &S,
                                          std::string &Err) {
  initialiseTargets();
  TargetSpec T;
  if (S == "native") {
    Triple Host(sys::getProcessTriple());
    T.Triple = Host.getArch() == Triple::x86_64 ? X86Triple : Host.str();
    T.CPU = sys::getHostCPUName().str();
  } else if (size_t Colon = S.find(':'); Colon != std::string::npos) {
    T.Triple = Triple::normalize(S.substr(0, Colon));
    T.CPU = S.substr(Colon + 1);
  } else if (std::find(std::begin(X86Cpus), std::end(X86Cpus), S) !=
             std::end(X86Cpus)) {
    T.Triple = X86Triple;
    T.CPU = S;
  } else if (std::find(std::begin(SparcCpus), std::end(SparcCpus), S) !=
             std::end(SparcCpus)) {
    T.Triple = SparcTriple;
    T.CPU = S;
  } else {
    // Other CPU names of the two architectures.
    std::string Ignored;
    T.CPU = S;
    if (!S.empty() && validCpu(X86Triple, S, Ignored))
      T.Triple = X86Triple;
    else if (!S.empty() && validCpu(SparcTriple, S, Ignored))
      T.Triple = SparcTriple;
    else {
      Err = "unknown ICC target '" + S + "'; accepted: " + acceptedNames();
      return std::nullopt;
    }
  }
  if (T.CPU.empty() || !validCpu(T.Triple, T.CPU, Err)) {
    Err = "ICC target '" + S + "': " + (T.CPU.empty() ? "no CPU given" : Err) +
          "; accepted: " + acceptedNames();
    return std::nullopt;
  }
  T.Name = T.CPU;
  return T;
}

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
