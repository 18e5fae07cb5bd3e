//===- IccChains.h - ICC: loop-carried dependence chains of a block -*- C++ -*-===//
///
/// \file
/// The critical loop-carried dependence chain (LCD) of a loop block, as
/// OSACA computes it (Laukemann et al., "Automatic Throughput and Critical
/// Path Analysis of x86 and ARM Assembly Kernels", PMBS 2019): the longest
/// register dependence path from a register the block reads before writing
/// it to the block's last write of that register, i.e. the latency one
/// iteration of the block adds to the next when iterations run back to back.
/// Recorded as RUV counts per latency class (docs/models.md "ICC",
/// loop-carried chains), so that the predictor can put measured latencies
/// (`segtime calibrate`, ICC entries latency.<class>) in place of the
/// scheduling model's. Internal to passes/.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PASSES_ICCCHAINS_H
#define SEGTIME_PASSES_ICCCHAINS_H

#include "core/Seg.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/MCA/SourceMgr.h"

namespace llvm {
class MCInst;
class MCInstPrinter;
class MCInstrInfo;
struct MCSchedModel;
class MCRegisterInfo;
class MCSubtargetInfo;
} // namespace llvm

namespace segtime {
namespace icc {

/// Adds to R the critical loop-carried chain of a loop block: Insts are the
/// block's instructions (as llvm-mca sees them), Seq llvm::mca's
/// instructions built from them, one per instruction (otherwise nothing is
/// added). The path is followed through register reads and writes (each
/// register taken as its widest super-register), a step costing the
/// scheduling model's latency of the write less the read's ReadAdvance
/// (as mca::RegisterFile resolves a dependence); memory dependences are
/// not followed. Each step has a latency class: "load" when the chain
/// enters through an address operand, else by opcode "fp.add" (add, sub),
/// "fp.mul", "fp.fma", "fp.div" (div, sqrt), "int.mul", or "other".
/// RUV keys, only when the critical chain has a step of a class other than
/// "other" (an induction variable's add is no chain worth a correction):
///   lcd.<class>         steps of that class on the chain, per iteration
///   lcd.<class>.model   their scheduling-model latency, cycles
///   lcd.other.model     model cycles of the chain's other steps (if any)
/// Cost: O(candidate registers x instructions x operands), no simulation.
void addLoopChain(llvm::ArrayRef<llvm::MCInst> Insts,
                  const llvm::SmallVectorImpl<llvm::mca::SourceMgr::UniqueInst> &Seq,
                  const llvm::MCInstrInfo &MCII, const llvm::MCRegisterInfo &MRI,
                  const llvm::MCSubtargetInfo &STI, Ruv &R);

/// The port-bound class of a loop block (docs/models.md "ICC", 4c): the
/// class of scalar instructions ("fp.add", "fp.mul", "fp.fma", "fp.div"
/// without square roots, "int.mul" as for the chains, by opcode, register
/// or load-op form,
/// and "fp.cvt", conversions from floating point to integer; packed forms
/// are not classed) whose scheduling-model resource cycles bind the block's
/// reciprocal throughput (llvm-mca's Block RThroughput,
/// mca::computeBlockRThroughput over the resources of Seq): the bound
/// computed without the class's instructions is below the whole block's.
/// The class that lowers it most is recorded:
///   tp.<class>   its instructions per iteration
///   tp.rest      the bound without them (all micro-ops still dispatched),
///                cycles
///   tp.shared    the other instructions' cycles per unit on the resource
///                the class binds (FMAs and multiplies share Zen's FMA
///                pipes), cycles
/// so that the predictor can put a measured throughput (ICC entry
/// throughput.<class>) in place of the model's: LLVM 19's Zen 4 model
/// (also znver5's) gives scalar FMA 1 cycle and cvttss2si 2.5 cycles per
/// instruction, where the cores issue two FMAs and one conversion per
/// cycle. ResourceKind: resource mask -> its index in the scheduling model
/// (mca::computeProcResourceMasks). Nothing is added when no class binds.
void addPortClass(llvm::ArrayRef<llvm::MCInst> Insts,
                  const llvm::SmallVectorImpl<llvm::mca::SourceMgr::UniqueInst> &Seq,
                  const llvm::MCInstrInfo &MCII, const llvm::MCSchedModel &SM,
                  const llvm::DenseMap<uint64_t, unsigned> &ResourceKind, Ruv &R);

/// The masked vector stores of a loop block (docs/models.md "ICC", 4c):
/// the VEX masked stores (maskedMove, IccChainsOpcodes.h: vmaskmovps/pd,
/// vpmaskmovd/q to memory), which LLVM 19's Zen 4 model (znver4, znver5)
/// prices as microcoded sequences (vmaskmovps ymm: 42 micro-ops, 12 cycles
/// of the store unit; Zen 5 retires eight per 12 cycles in TSVC's vif).
/// Recorded only when they bind the block's reciprocal throughput
/// (mca::computeBlockRThroughput over Seq's resources):
///   tp.store.masked         masked stores per iteration
///   tp.store.masked.rest    the bound without their resource cycles and
///                           with one micro-op each, cycles
///   tp.store.masked.shared  the other instructions' cycles per unit on the
///                           resource the masked stores bind, cycles
/// so that the predictor can put a measured throughput (ICC entry
/// throughput.store.masked) in place of the model's. Independent of
/// addPortClass (the masked stores are in no class of it). ResourceKind as
/// for addPortClass.
void addMaskedStores(llvm::ArrayRef<llvm::MCInst> Insts,
                     const llvm::SmallVectorImpl<llvm::mca::SourceMgr::UniqueInst> &Seq,
                     const llvm::MCInstrInfo &MCII, const llvm::MCSchedModel &SM,
                     const llvm::DenseMap<uint64_t, unsigned> &ResourceKind, Ruv &R);

/// The expected share of the executions of x86 instruction I that load a
/// vector of 16 or 32 bytes (the widths measured) across a 64-byte cache line (docs/models.md
/// "ICC" 4f): lineCrossShare (IccChainsOpcodes.h) of the width its memory
/// operand names (Intel, an x86 printer of Intel syntax: intelOperandBytes)
/// and the constant part of its displacement, the base taken 16-byte aligned
/// (glibc malloc, x86-64 psABI arrays; estimated: the code does not say).
/// 0 for an instruction that does not load, another width, an aligned
/// move (alignedVectorMove), a masked load or a gather (not measured), and
/// a RIP-relative load without an index (a constant, aligned to its size).
double splitLoadShare(const llvm::MCInst &I, const llvm::MCInstrInfo &MCII,
                      const llvm::MCRegisterInfo &MRI, const llvm::MCSubtargetInfo &STI,
                      llvm::MCInstPrinter &Intel);

/// The vector loads of a loop block that cross a cache line (docs/models.md
/// "ICC" 4f): Shares[k] is instruction k's expected share (splitLoadShare),
/// LoadPipes the resource masks a plain vector load uses in the scheduling
/// model (vmovups ymm: the model's load pipes). LLVM's x86 models price a
/// load the same wherever it falls; Zen 5 takes two load-pipe slots for one
/// that crosses a line (measured: ICC entry throughput.load.split). When the
/// expected crossing loads per iteration s = sum of Shares is above 0:
///   tp.load.split         s
///   tp.load.split.shared  the cycles per unit, on the load-pipe resource
///                         that the block's loads use most, of everything
///                         but the crossing share of the vector loads
///                         (the model's cycles of a load weighted by
///                         1 - its share; masked stores, which
///                         addMaskedStores prices, left out), cycles
/// so that the predictor can bound the block by shared + s x the measured
/// time of a crossing load. ResourceKind as for addPortClass.
void addSplitLoads(llvm::ArrayRef<llvm::MCInst> Insts,
                   const llvm::SmallVectorImpl<llvm::mca::SourceMgr::UniqueInst> &Seq,
                   llvm::ArrayRef<double> Shares, llvm::ArrayRef<uint64_t> LoadPipes,
                   const llvm::MCInstrInfo &MCII, const llvm::MCSchedModel &SM,
                   const llvm::DenseMap<uint64_t, unsigned> &ResourceKind, Ruv &R);

/// The latency classes of addLoopChain, "other" last.
llvm::ArrayRef<const char *> chainClasses();

} // namespace icc
} // namespace segtime

#endif
