//===- IccBlockCoster.cpp - ICC: the cost of one machine basic block ------===//
///
/// \file
/// See IccBlockCoster.h. Out-of-order cores are costed by llvm::mca's
/// pipeline, in loops as the steady state of two circular runs
/// (PrefixRunWatch reads the shorter run off the longer one), in-order
/// cores by their itineraries; the result is memoised per distinct block.
///
//===----------------------------------------------------------------------===//
#include "passes/IccBlockCoster.h"
#include "passes/IccChains.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Function.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCSymbol.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/MCA/Context.h"
#include "llvm/MCA/Pipeline.h"
#include "llvm/MCA/Support.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include "llvm/Target/TargetMachine.h"

#include <cstring>
#include <fcntl.h>
#include <unistd.h>

using namespace llvm;

namespace segtime {
namespace icc {

namespace {

/// llvm::mca's InstrBuilder warns on stderr the first time it lowers a call
/// or a return ("found a call in the input assembly sequence"): advice for
/// llvm-mca's users that must not appear in a compile's output.
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

} // namespace

BlockCoster::BlockCoster(const Target &T, const TargetMachine &TM)
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
    const SmallVector<mca::SourceMgr::UniqueInst, 1> None;
    mca::CircularSourceMgr NoSource(None, 1);
    std::unique_ptr<mca::CustomBehaviour> CB(T.createCustomBehaviour(STI, NoSource, MCII));
    HasCustomBehaviour = CB != nullptr;
    SmallVector<uint64_t, 32> Masks(SM.getNumProcResourceKinds());
    mca::computeProcResourceMasks(SM, Masks);
    for (unsigned I = 1; I < Masks.size(); ++I)
      ResourceKind[Masks[I]] = I;
    // LLVM 19 schedules znver5 with the Zen 4 model, whose FP stores take a
    // cycle of the FP load pipes (Zn4FP45) besides the store pipe (Zn4FPSt).
    if (STI.getCPU() == "znver5")
      for (unsigned I = 1; I < Masks.size(); ++I)
        if (StringRef(SM.getProcResource(I)->Name) == "Zn4FP45")
          StoreOffLoadPipes = Masks[I];
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
  if (IsX86 && IB)
    findVectorLoadPipes(TM);
}

void BlockCoster::findVectorLoadPipes(const TargetMachine &TM) {
  IntelPrinter.reset(T.createMCInstPrinter(TM.getTargetTriple(), /*Intel syntax*/ 1,
                                           *TM.getMCAsmInfo(), MCII, MRI));
  // vmovups (%rax), %ymm0, built by name: the X86 enums are the target's own.
  auto Named = [](unsigned N, auto NameOf, StringRef Name) {
    for (unsigned I = 1; I < N; ++I)
      if (NameOf(I) == Name)
        return I;
    return 0u;
  };
  unsigned Op = Named(MCII.getNumOpcodes(), [&](unsigned I) { return MCII.getName(I); },
                      "VMOVUPSYrm");
  auto Reg = [&](StringRef Name) {
    return Named(MRI.getNumRegs(), [&](unsigned I) { return StringRef(MRI.getName(I)); }, Name);
  };
  unsigned Ymm0 = Reg("YMM0"), Rax = Reg("RAX");
  if (!IntelPrinter || !Op || !Ymm0 || !Rax)
    return;
  MCInst Load;
  Load.setOpcode(Op);
  for (MCOperand O : {MCOperand::createReg(Ymm0), MCOperand::createReg(Rax),
                      MCOperand::createImm(1), MCOperand::createReg(0), MCOperand::createImm(0),
                      MCOperand::createReg(0)})
    Load.addOperand(O);
  const SmallVector<mca::Instrument *> NoInstruments;
  Expected<std::unique_ptr<mca::Instruction>> X = IB->createInstruction(Load, NoInstruments);
  if (!X) {
    consumeError(X.takeError());
    return;
  }
  for (const auto &[Mask, Use] : (*X)->getDesc().Resources)
    VectorLoadPipes.push_back(Mask);
}

void BlockCoster::canonicalise(std::vector<MCInst> &Insts) const {
  for (MCInst &I : Insts) {
    const MCInstrDesc &D = MCII.get(I.getOpcode());
    if (D.isReturn() && D.isVariadic())
      while (I.getNumOperands() > D.getNumOperands())
        I.erase(I.end() - 1);
  }
}

uint64_t BlockCoster::encodedSize(const MCInst &I, SmallVectorImpl<MCFixup> &Fixups) const {
  SmallVector<char, 16> Bytes;
  Fixups.clear();
  Emitter->encodeInstruction(I, Bytes, Fixups, STI);
  return Bytes.size();
}

bool BlockCoster::needsRelaxation(const MCInst &I, const SmallVectorImpl<MCFixup> &Fixups,
                     std::optional<int64_t> Disp) const {
  if (!Backend->mayNeedRelaxation(I, STI) || Fixups.empty())
    return false;
  return !Disp || Backend->fixupNeedsRelaxation(Fixups.front(), *Disp);
}

MCInst BlockCoster::relaxed(MCInst I) const {
  Backend->relaxInstruction(I, STI);
  return I;
}

std::vector<MCInst> BlockCoster::paddingNops(uint64_t Bytes) const {
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

bool BlockCoster::isUnconditionalBranch(const MCInst &I) const {
  return MCII.get(I.getOpcode()).isUnconditionalBranch();
}

BlockCoster::~BlockCoster() {
  if (IccDump)
    errs() << "segtime-icc " << STI.getCPU() << ": " << MemoHits << " of " << Costed
           << " blocks costed from the memo (" << Memo.size() << " distinct); "
           << ShortFromLong << " of " << LoopRuns
           << " loop blocks' short runs taken from the long run; " << SimHits
           << " blocks' cycles from the memo of pipeline inputs (" << SimMemo.size()
           << " simulated)\n";
  if (IccCheckShortRun)
    errs() << "segtime-icc-check-short-run " << STI.getCPU() << ": " << ShortFromLong
           << " of " << LoopRuns << " loop blocks' short runs taken from the long run, "
           << ShortMismatches << " differ from the simulated short run\n";
  if (IccCheckSimMemo)
    errs() << "segtime-icc-check-sim-memo " << STI.getCPU() << ": " << SimHits
           << " blocks' cycles from the memo of pipeline inputs, " << SimMismatches
           << " differ from their simulation\n";
}

Ruv BlockCoster::cost(const BlockRecord &B) {
  ++Costed;
  auto [It, New] = Memo.try_emplace(memoKey(B));
  Ruv R;
  if (New) {
    R = costOnce(B);
    It->second = pack(R);
  } else {
    R = unpack(It->second);
    ++MemoHits;
  }
  if (IccDump)
    dump(B, R);
  return R;
}

BlockCoster::PackedRuv BlockCoster::pack(const Ruv &R) {
  PackedRuv P;
  P.reserve(R.counts().size());
  for (auto &[Name, Count] : R.counts()) {
    auto [It, New] = MemoNameIndex.try_emplace(Name, MemoNames.size());
    if (New)
      MemoNames.push_back(Name);
    P.emplace_back(It->second, Count);
  }
  return P;
}

Ruv BlockCoster::unpack(const PackedRuv &P) const {
  Ruv R;
  for (auto &[Name, Count] : P)
    R.set(MemoNames[Name], Count);
  return R;
}

std::string BlockCoster::memoKey(const BlockRecord &B) const {
  std::string Key(1, B.InLoop ? 'L' : 'S');
  for (const MCInst &I : B.Insts)
    appendKey(Key, I);
  return Key;
}

void BlockCoster::appendKey(std::string &Key, const MCInst &I) const {
  // Unsigned numbers as LEB128, signed ones zigzagged first: a key names
  // one sequence of instructions (each part's length is known from what
  // precedes it) in a third of the bytes of fixed-width fields.
  auto Num = [&Key](uint64_t V) {
    do {
      uint8_t B = V & 0x7f;
      V >>= 7;
      Key += char(B | (V ? 0x80 : 0));
    } while (V);
  };
  auto Signed = [&Num](int64_t V) { Num((uint64_t(V) << 1) ^ uint64_t(V >> 63)); };
  const MCInstrDesc &D = MCII.get(I.getOpcode());
  Num(I.getOpcode());
  Num(I.getFlags());
  Num(I.getNumOperands());
  for (unsigned K = 0; K < I.getNumOperands(); ++K) {
    const MCOperand &Op = I.getOperand(K);
    if (Op.isReg()) {
      Key += 'r';
      Num(unsigned(Op.getReg()));
    } else if (Op.isImm()) {
      Key += 'i';
      Signed(Op.getImm());
    } else if (Op.isSFPImm()) {
      Key += 's';
      Num(Op.getSFPImm());
    } else if (Op.isDFPImm()) {
      Key += 'd';
      Num(Op.getDFPImm());
    } else if (Op.isExpr()) {
      Key += 'e';
      if (K == 0 && D.isCall()) {
        auto *Sym = dyn_cast<MCSymbolRefExpr>(Op.getExpr());
        Key += !Sym ? '-' : Defined.count(Sym->getSymbol().getName().str()) ? 'D' : 'X';
      }
    } else if (Op.isInst()) {
      Key += 'n';
      appendKey(Key, *Op.getInst());
    } else {
      Key += '?';
    }
  }
}

Ruv BlockCoster::costOnce(const BlockRecord &B) {
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

std::optional<unsigned>
BlockCoster::runMca(const SmallVectorImpl<mca::SourceMgr::UniqueInst> &Seq,
       unsigned Iterations, mca::HWEventListener *Watch) {
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

MCInst BlockCoster::assembled(const MCInst &I) {
  if (!Emitter || !Disasm)
    return I;
  SmallVector<char, 16> Bytes;
  SmallVector<MCFixup, 4> Fixups;
  Emitter->encodeInstruction(I, Bytes, Fixups, STI);
  if (Bytes.empty())
    return I;
  // The key: the bytes, and their count in the top byte (never the
  // DenseMap's empty or tombstone key).
  std::optional<SimKey> Key;
  if (Bytes.size() < 16) {
    uint8_t Packed[16] = {};
    memcpy(Packed, Bytes.data(), Bytes.size());
    Packed[15] = uint8_t(Bytes.size());
    SimKey K;
    memcpy(&K.first, Packed, 8);
    memcpy(&K.second, Packed + 8, 8);
    Key = K;
    auto It = Decoded.find(K);
    if (It != Decoded.end()) {
      const Decoding &D = It->second;
      if (D.Failed || D.Opcode == I.getOpcode())
        return I;
      if (D.Index >= 0)
        return DecodedInsts[D.Index];
    }
  }
  MCInst D;
  uint64_t Size = 0;
  ArrayRef<uint8_t> Code(reinterpret_cast<const uint8_t *>(Bytes.data()),
                         Bytes.size());
  bool Failed = Disasm->getInstruction(D, Size, Code, 0, nulls()) !=
                    MCDisassembler::Success ||
                Size != Bytes.size();
  if (Key) {
    if (Decoded.size() >= MaxDecoded) {
      Decoded.clear();
      DecodedInsts.clear();
    }
    Decoding &E = Decoded[*Key];
    E.Failed = Failed;
    E.Opcode = D.getOpcode();
    if (!Failed && D.getOpcode() != I.getOpcode() && E.Index < 0) {
      E.Index = int(DecodedInsts.size());
      DecodedInsts.push_back(D);
    }
  }
  if (Failed || D.getOpcode() == I.getOpcode())
    return I;
  return D;
}

bool BlockCoster::macroFused(const BlockRecord &B) const {
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

bool BlockCoster::isFP(const MCInst &I) const {
  if (MCII.getName(I.getOpcode()).starts_with("F"))
    return true;
  for (const MCOperand &Op : I)
    if (Op.isReg() && FPRegs.count(Op.getReg()))
      return true;
  return false;
}

void BlockCoster::costWithMca(const BlockRecord &B, Ruv &R) {
  if (B.Insts.empty()) {
    R.add("cycles", 0);
    R.add("uops", 0);
    return;
  }
  // IB keeps its descriptors from block to block: they are keyed by opcode
  // and scheduling class, or for variant and variadic instructions by a hash
  // of the opcode, flags and register operands and the resolved class (LLVM
  // 19's InstrBuilder), and are a function of their key.
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
    if ((D.isCall() && !CallLowered) || (D.isReturn() && !ReturnLowered))
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
    CallLowered |= D.isCall(); // (a failed one did not warn)
    ReturnLowered |= D.isReturn();
    IPP->postProcessInstruction(*X, I);
    if (scalarFpStore(I))
      storeOffLoadPipes(**X);
    Uops += (*X)->getNumMicroOps();
    Seq.push_back(std::move(*X));
  }
  R.add("uops", Uops);
  if (Skipped)
    R.add("mca.skipped", Skipped);
  R.add("rthroughput", blockRThroughput(Seq));
  double Cycles = 0;
  if (!Seq.empty()) {
    // Blocks with the same pipeline inputs simulate the same cycles (not
    // consulted when every short run is checked).
    std::optional<double> Simulated;
    if (IccCheckShortRun) {
      Simulated = simulate(B.InLoop, Seq);
    } else {
      SimKey K = simKey(B.InLoop, Seq, Insts);
      bool Keyable = K != DenseMapInfo<SimKey>::getEmptyKey() &&
                     K != DenseMapInfo<SimKey>::getTombstoneKey();
      auto It = Keyable ? SimMemo.find(K) : SimMemo.end();
      if (It != SimMemo.end()) {
        ++SimHits;
        Simulated = It->second.Ok ? std::optional<double>(It->second.Cycles) : std::nullopt;
        if (IccCheckSimMemo)
          SimMismatches += simulate(B.InLoop, Seq) != Simulated;
      } else {
        Simulated = simulate(B.InLoop, Seq);
        if (Keyable)
          SimMemo[K] = {Simulated.has_value(), Simulated.value_or(0)};
      }
    }
    if (Simulated)
      Cycles = *Simulated;
    else
      R.add("mca.skipped", Seq.size());
  }
  R.add("cycles", Cycles);
  if (B.InLoop) { // the critical loop-carried chain, the port-bound class (IccChains.h)
    addLoopChain(Insts, Seq, MCII, MRI, STI, R);
    addPortClass(Insts, Seq, MCII, SM, ResourceKind, R);
    addMaskedStores(Insts, Seq, MCII, SM, ResourceKind, R);
    if (IntelPrinter && !VectorLoadPipes.empty()) {
      SmallVector<double, 16> Shares;
      for (const MCInst &I : Insts)
        Shares.push_back(splitLoadShare(I, MCII, MRI, STI, *IntelPrinter));
      addSplitLoads(Insts, Seq, Shares, VectorLoadPipes, MCII, SM, ResourceKind, R);
    }
  }
}

bool BlockCoster::scalarFpStore(const MCInst &I) const {
  StringRef N = MCII.getName(I.getOpcode());
  N.consume_front("V");
  return N.ends_with("mr") &&
         (N.starts_with("MOVSD") || N.starts_with("MOVSS") || N.starts_with("MOVSH") ||
          N.starts_with("MOVLP") || N.starts_with("MOVHP") || N.starts_with("MOVPQI2QI") ||
          N.starts_with("MOVPDI2DI") || N.starts_with("MOVSS2DI") || N.starts_with("MOVSDto64"));
}

void BlockCoster::storeOffLoadPipes(const mca::Instruction &I) {
  if (!StoreOffLoadPipes || !I.getMayStore() || I.getMayLoad())
    return;
  const mca::InstrDesc &D = I.getDesc();
  if (!StoresOffLoadPipes.insert(&D).second)
    return;
  // IB made D with make_unique<InstrDesc> and keeps it as a pointer to
  // const: D itself is not const, and every later store of its opcode and
  // scheduling class gets D from IB's cache, as changed here.
  auto &M = const_cast<mca::InstrDesc &>(D);
  llvm::erase_if(M.Resources, [this](const auto &P) { return P.first == StoreOffLoadPipes; });
  M.UsedProcResUnits &= ~StoreOffLoadPipes;
  M.UsedProcResGroups &= ~StoreOffLoadPipes;
}

std::optional<double>
BlockCoster::simulate(bool InLoop, const SmallVectorImpl<mca::SourceMgr::UniqueInst> &Seq) {
  // In a loop: the steady state, the slope between a short and a longer
  // run (the pipeline's fill and drain cancel); outside loops: one
  // execution.
  // The short run of an out-of-order pipeline is most often read off the
  // long one (PrefixRunWatch: the same figure, a quarter fewer cycles
  // simulated).
  std::optional<unsigned> Long, Short(0);
  if (InLoop) {
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
  if (!Long || !Short)
    return std::nullopt;
  return InLoop ? double(*Long - *Short) / (LoopIterations - ShortIterations) : double(*Long);
}

BlockCoster::SimKey
BlockCoster::simKey(bool InLoop, const SmallVectorImpl<mca::SourceMgr::UniqueInst> &Seq,
                    ArrayRef<MCInst> Insts) const {
  std::string Key;
  Key.reserve(64 * Seq.size());
  auto Put = [&Key](auto V) { Key.append(reinterpret_cast<const char *>(&V), sizeof V); };
  Put(uint8_t(InLoop));
  for (const mca::SourceMgr::UniqueInst &U : Seq) {
    const mca::Instruction &I = *U;
    Put(reinterpret_cast<uintptr_t>(&I.getDesc()));
    Put(uint32_t(I.getOpcode()));
    Put(uint16_t(I.isOptimizableMove() | I.isALoadBarrier() << 1 | I.isAStoreBarrier() << 2 |
                 I.getMayLoad() << 3 | I.getMayStore() << 4 | I.getHasSideEffects() << 5 |
                 I.getBeginGroup() << 6 | I.getEndGroup() << 7 | I.getRetireOOO() << 8));
    Put(I.getUsedBuffers());
    Put(uint32_t(I.getDefs().size()));
    for (const mca::WriteState &W : I.getDefs()) {
      Put(uint32_t(W.getRegisterID()));
      Put(uint32_t(W.getLatency()));
      Put(uint32_t(W.getWriteResourceID()));
      Put(uint8_t(W.clearsSuperRegisters() | W.isWriteZero() << 1));
    }
    Put(uint32_t(I.getUses().size()));
    for (const mca::ReadState &Rd : I.getUses()) {
      Put(reinterpret_cast<uintptr_t>(&Rd.getDescriptor()));
      Put(uint32_t(Rd.getRegisterID()));
      Put(uint8_t(Rd.isIndependentFromDef() | Rd.isReadZero() << 1));
    }
  }
  // A target's CustomBehaviour may read the instructions' operands.
  if (HasCustomBehaviour)
    for (const MCInst &MI : Insts)
      appendKey(Key, MI);
  XXH128_hash_t H = xxh3_128bits(
      ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Key.data()), Key.size()));
  return {H.low64, H.high64};
}

void BlockCoster::costWithItineraries(const BlockRecord &B, Ruv &R) {
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

double BlockCoster::blockRThroughput(const SmallVectorImpl<mca::SourceMgr::UniqueInst> &Seq) const {
  SmallVector<unsigned, 32> Usage(SM.getNumProcResourceKinds(), 0);
  unsigned Uops = 0;
  for (const auto &I : Seq) {
    const mca::InstrDesc &D = I->getDesc();
    Uops += D.NumMicroOps;
    for (const auto &[Mask, Use] : D.Resources) {
      auto It = ResourceKind.find(Mask);
      if (It != ResourceKind.end())
        Usage[It->second] += Use.size();
    }
  }
  return mca::computeBlockRThroughput(SM, SM.IssueWidth, Uops, Usage);
}

unsigned BlockCoster::itineraryLatency(const MCInst &I) const {
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

void BlockCoster::dump(const BlockRecord &B, const Ruv &R) {
  errs() << "segtime-icc " << STI.getCPU() << " "
         << (B.OrigFn ? B.OrigFn->getName() : StringRef("?")) << " bb."
         << B.Number << (B.InLoop ? " (loop)" : "") << " -> bb"
         << B.OrigNumber << (B.Inherited ? " (inherited)" : "");
  if (B.ExitJumpMoved)
    errs() << " (exit jump of " << B.ExitJumpSize << " to bb."
           << B.ExitJumpNumber << ")";
  if (B.SecondTest)
    errs() << " (second test, first " << (B.ArmTrue ? "true" : "false") << ")";
  else if (B.Arm)
    errs() << " (select side " << (B.ArmTrue ? "true" : "false") << ")";
  else if (B.SelectShare != 1)
    errs() << " (share " << format("%g", B.SelectShare) << ")";
  if (B.SelectJumps)
    errs() << " (select jumps " << B.SelectJumps << ")";
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

} // namespace icc
} // namespace segtime
