//===- IccBlockCoster.h - ICC: the cost of one machine basic block -*- C++ -*-===//
///
/// \file
/// BlockCoster: the ICC RUV of one machine basic block of a target, from
/// the instructions the AsmPrinter emitted for it (IccBlocks.h): counts,
/// "cycles" and "uops" from llvm::mca's pipeline (out-of-order cores) or the
/// instruction itineraries (in-order cores), and the assembler's view of
/// the code (encoded sizes, relaxation, padding nops) for the layout.
/// Internal to passes/.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PASSES_ICCBLOCKCOSTER_H
#define SEGTIME_PASSES_ICCBLOCKCOSTER_H

#include "passes/IccBlocks.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/MC/MCAsmBackend.h"
#include "llvm/MC/MCCodeEmitter.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCFixup.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrAnalysis.h"
#include "llvm/MC/MCInstrItineraries.h"
#include "llvm/MCA/CustomBehaviour.h"
#include "llvm/MCA/HWEventListener.h"
#include "llvm/MCA/InstrBuilder.h"
#include "llvm/MCA/SourceMgr.h"

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace llvm {
class Target;
class TargetMachine;
} // namespace llvm

namespace segtime {
namespace icc {

/// The target's machine-code information needed to cost blocks.
class BlockCoster {
public:
  BlockCoster(const llvm::Target &T, const llvm::TargetMachine &TM);

  /// Names of the functions the module defines (calls to others are external).
  std::set<std::string> Defined;

  /// Whether "cycles" is modelled for this target.
  bool hasCycles() const { return IB || !Itins.isEmpty(); }

  /// Makes the recorded instructions those the assembler would build from
  /// the assembly text, which is what llvm-mca (and the hardware) sees: the
  /// X86 AsmPrinter lists the registers of the returned value as operands
  /// of RET, and llvm::mca would make the return wait for them.
  void canonicalise(std::vector<llvm::MCInst> &Insts) const;

  /// Whether the byte layout of code (addLayoutPadding) can be computed:
  /// the target has an instruction encoder and an assembler back end.
  bool hasLayout() const { return Emitter && Backend && Disasm; }

  /// Bytes of I as the assembler encodes it; Fixups receives its fixups.
  uint64_t encodedSize(const llvm::MCInst &I, llvm::SmallVectorImpl<llvm::MCFixup> &Fixups) const;

  /// Whether the assembler replaces I by a longer form (a branch whose
  /// short displacement does not reach): I may need relaxation
  /// (MCAsmBackend::mayNeedRelaxation) and its fixup's value, Disp = target
  /// - end of I in bytes, or an unknown target (Disp = nullopt: a symbol
  /// outside the function, resolved by the linker) needs it.
  bool needsRelaxation(const llvm::MCInst &I, const llvm::SmallVectorImpl<llvm::MCFixup> &Fixups,
                       std::optional<int64_t> Disp) const;

  /// I relaxed by the assembler back end (MCAsmBackend::relaxInstruction).
  llvm::MCInst relaxed(llvm::MCInst I) const;

  /// The instructions the assembler writes as Bytes bytes of padding in code
  /// (MCAsmBackend::writeNopData: on x86 nops of up to 15 bytes each, the
  /// CPU's longest fast nop, X86AsmBackend::getMaximumNopSize), decoded.
  /// Empty if the target writes no decodable nops.
  std::vector<llvm::MCInst> paddingNops(uint64_t Bytes) const;

  bool isUnconditionalBranch(const llvm::MCInst &I) const;

  ~BlockCoster();

  /// The ICC RUV of one execution of block B (per iteration if B is in a
  /// loop). Memoised: blocks with the same instructions (memoKey) and the
  /// same InLoop cost the same, and real code repeats blocks (spills,
  /// returns, calls with the same argument set-up), so llvm-mca runs once
  /// per distinct block of the target.
  Ruv cost(const BlockRecord &B);

private:
  /// Everything of B that costOnce reads, as bytes: InLoop, and per
  /// instruction its opcode, flags and operands (registers, immediates,
  /// nested instructions). An expression operand (branch target, symbol
  /// address) costs the same whatever it names, but for the callee of a
  /// call, whose being defined in the module or not (call.external) is in
  /// the key. Two blocks with equal keys have equal costs.
  std::string memoKey(const BlockRecord &B) const;

  /// Appends I's part of memoKey to Key.
  void appendKey(std::string &Key, const llvm::MCInst &I) const;

  /// cost() without the memo.
  Ruv costOnce(const BlockRecord &B);

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
  runMca(const llvm::SmallVectorImpl<llvm::mca::SourceMgr::UniqueInst> &Seq,
         unsigned Iterations, llvm::mca::HWEventListener *Watch = nullptr);

  /// I as the assembler would build it from its text, as llvm-mca sees it:
  /// code generation uses codegen-only twins of some instructions (e.g.
  /// X86's VMOVSDrm_alt for VMOVSDrm, same encoding) whose scheduling class
  /// can differ. Encodes I and decodes the bytes; I itself if that fails
  /// or changes nothing. The decoding, a function of the bytes alone, is
  /// remembered per encoding of up to 15 bytes (Decoded).
  llvm::MCInst assembled(const llvm::MCInst &I);

  /// The pipeline inputs of a block: what llvm::mca's out-of-order and
  /// in-order pipelines read of its instructions (per instruction its
  /// descriptor, opcode, flags and the registers, latencies and zero-idiom
  /// marks of its writes and reads; not its immediates or symbols, which
  /// only a target's CustomBehaviour could read, and then they are in it
  /// too) and InLoop, hashed to 128 bits (xxh3). Blocks with equal keys
  /// simulate the same cycles.
  using SimKey = std::pair<uint64_t, uint64_t>;
  SimKey simKey(bool InLoop,
                const llvm::SmallVectorImpl<llvm::mca::SourceMgr::UniqueInst> &Seq,
                llvm::ArrayRef<llvm::MCInst> Insts) const;

  /// "cycles" of Seq from llvm::mca's pipeline (see costWithMca); nullopt
  /// if the pipeline fails.
  std::optional<double>
  simulate(bool InLoop, const llvm::SmallVectorImpl<llvm::mca::SourceMgr::UniqueInst> &Seq);

  /// Whether B ends in an x86 macro-fused pair: a conditional jump after an
  /// integer CMP, TEST, ADD, SUB, AND, INC or DEC that does not have both a
  /// memory operand and an immediate, which the decoders of Intel cores
  /// since Sandy Bridge make one micro-op (Intel 64 and IA-32 Architectures
  /// Optimization Reference Manual, "Macro-Fusion"). llvm-mca counts two;
  /// the ICC window (ICCModel::window) counts the reorder buffer's micro-ops
  /// as uops - uops.macro_fused.
  bool macroFused(const BlockRecord &B) const;

  bool isFP(const llvm::MCInst &I) const;

  /// Out-of-order cores (a SchedMachineModel): "cycles" from llvm-mca's
  /// Total Cycles: one execution outside loops; inside loops the steady state
  /// per iteration, (T(24) - T(8)) / 16 from two circular runs (design.md §5:
  /// scheduling-model throughput; llvm-mca -iterations=100 reports T(100)/100,
  /// which still includes the fill and drain of the pipeline). "uops" are the
  /// scheduling model's micro-ops.
  void costWithMca(const BlockRecord &B, Ruv &R);

  /// In-order cores with instruction itineraries (LEON2/3/4): "cycles" is
  /// the sum over the block's instructions of their itinerary latency, an
  /// in-order cycle sum in the style of Warwick-94 eq. 7 (design.md §5).
  /// The latency of an instruction is the larger of its stage latency and the
  /// cycle of its first operand (LLVM's LEON itineraries have one-cycle stages
  /// and put the latency there, e.g. FDIVD, ST); instructions whose class has
  /// no itinerary (LD, BA) take LLVM's default (2 for a load, else 1).
  /// Without itineraries (supersparc, v8) "cycles" is omitted.
  void costWithItineraries(const BlockRecord &B, Ruv &R);

  /// llvm-mca's Block RThroughput of one iteration of Seq: the larger of
  /// micro-ops / issue width and, for every processor resource, the cycles
  /// it is busy / its units (mca::computeBlockRThroughput). Register
  /// dependences are ignored: the cost when iterations overlap freely.
  double blockRThroughput(const llvm::SmallVectorImpl<llvm::mca::SourceMgr::UniqueInst> &Seq) const;

  /// Zen 5 with the Zen 4 scheduling model (docs/models.md "ICC" 4e): a
  /// store that does not load, called for the scalar FP stores
  /// (scalarFpStore), no longer takes a cycle of the model's FP load pipes
  /// (Zn4FP45, two units shared with the loads into FP registers); it keeps
  /// the store pipe (Zn4FPSt, one per cycle) and the load-store unit's
  /// resources. Changes I's descriptor (IB's, shared by every instruction of
  /// its opcode and scheduling class) once, before any simulation uses it; a
  /// no-op for other CPUs and instructions.
  void storeOffLoadPipes(const llvm::mca::Instruction &I);

  /// Whether I is an x86 store of at most 8 bytes from an FP or vector
  /// register (movsd, movss, movlpd, movq, movd to memory; VEX and EVEX
  /// forms): naturally aligned, it never crosses a cache line.
  bool scalarFpStore(const llvm::MCInst &I) const;

  /// The itinerary latency of I in cycles (see costWithItineraries).
  unsigned itineraryLatency(const llvm::MCInst &I) const;

  void dump(const BlockRecord &B, const Ruv &R);

  const llvm::Target &T;
  const llvm::MCSubtargetInfo &STI;
  const llvm::MCInstrInfo &MCII;
  const llvm::MCRegisterInfo &MRI;
  const llvm::MCSchedModel &SM;
  llvm::InstrItineraryData Itins;
  bool IsSparc = false;
  bool IsX86 = false;
  std::set<unsigned> FPRegs;
  /// cost() of the blocks costed so far, by memoKey, as (index of the
  /// count's name in MemoNames, count) pairs: a tenth of a Ruv's memory.
  using PackedRuv = llvm::SmallVector<std::pair<unsigned, double>, 0>;
  llvm::StringMap<PackedRuv> Memo;
  std::vector<std::string> MemoNames;
  llvm::StringMap<unsigned> MemoNameIndex;
  PackedRuv pack(const Ruv &R);
  Ruv unpack(const PackedRuv &P) const;
  unsigned MemoHits = 0, Costed = 0; ///< for the dump's hit rate
  /// simulate() of the blocks simulated so far, by simKey: blocks that
  /// differ only in immediates, displacements or symbols (memoKey differs)
  /// are simulated once. Unused with segtime-icc-check-short-run (every
  /// distinct block's short run is checked).
  struct SimResult {
    bool Ok = false;
    double Cycles = 0;
  };
  llvm::DenseMap<SimKey, SimResult> SimMemo;
  /// Blocks whose cycles came from SimMemo, and
  /// (segtime-icc-check-sim-memo) those where a simulation differs.
  unsigned SimHits = 0, SimMismatches = 0;
  /// assembled()'s decodings, by the encoding's bytes (up to 15, their
  /// count in the key's top byte): the decoded opcode and, when it differed from
  /// the encoded instruction's, the decoded instruction (DecodedInsts);
  /// Index -1: not kept; Failed: the bytes do not decode to one instruction
  /// of their length. Emptied past MaxDecoded entries (a bound on memory).
  struct Decoding {
    unsigned Opcode = 0;
    int Index = -1;
    bool Failed = false;
  };
  llvm::DenseMap<SimKey, Decoding> Decoded;
  std::vector<llvm::MCInst> DecodedInsts;
  static constexpr size_t MaxDecoded = 1 << 14;
  /// Whether the target has a CustomBehaviour (which may read operands).
  bool HasCustomBehaviour = false;
  /// Loop blocks simulated, those whose short run the long one gave, and
  /// (segtime-icc-check-short-run) those where the two differ.
  unsigned LoopRuns = 0, ShortFromLong = 0, ShortMismatches = 0;
  std::unique_ptr<llvm::MCInstrAnalysis> MCIA;
  std::unique_ptr<llvm::mca::InstrumentManager> IM;
  std::unique_ptr<llvm::mca::InstrPostProcess> IPP;
  std::unique_ptr<llvm::mca::InstrBuilder> IB;
  /// IB has lowered a call, a return: it warns (ScopedSilentStderr) only on
  /// the first of each.
  bool CallLowered = false, ReturnLowered = false;
  /// The processor resource kind of each resource mask of the scheduling
  /// model (mca::computeProcResourceMasks), for blockRThroughput.
  llvm::DenseMap<uint64_t, unsigned> ResourceKind;
  /// The resource mask of the Zen 4 model's FP load pipes (Zn4FP45) when the
  /// CPU is znver5, else 0; the descriptors storeOffLoadPipes has changed.
  uint64_t StoreOffLoadPipes = 0;
  llvm::SmallPtrSet<const llvm::mca::InstrDesc *, 32> StoresOffLoadPipes;
  std::unique_ptr<llvm::MCContext> CanonCtx; ///< for assembled()
  std::unique_ptr<llvm::MCCodeEmitter> Emitter;
  std::unique_ptr<llvm::MCDisassembler> Disasm;
  std::unique_ptr<llvm::MCAsmBackend> Backend; ///< code layout: relaxation, nops
  std::unique_ptr<llvm::MCInstPrinter> Printer;
  /// x86: a printer of Intel syntax, whose memory operands name their
  /// width (splitLoadShare), and the resource masks of a plain vector load
  /// (vmovups ymm from memory) in the scheduling model: the load pipes that
  /// a line-crossing load takes twice (addSplitLoads, docs/models.md "ICC"
  /// 4f). Empty for other targets.
  std::unique_ptr<llvm::MCInstPrinter> IntelPrinter;
  llvm::SmallVector<uint64_t, 4> VectorLoadPipes;
  /// Sets IntelPrinter and VectorLoadPipes (x86 with a scheduling model).
  void findVectorLoadPipes(const llvm::TargetMachine &TM);
};

} // namespace icc
} // namespace segtime

#endif
