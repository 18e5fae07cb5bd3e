//===- IccChains.cpp - ICC: loop-carried dependence chains of a block -----===//
///
/// \file
/// See IccChains.h. One forward pass over the block per candidate register
/// (a register read before it is written and written later): the longest
/// path from the block's entry value of that register to each register,
/// with the steps of the path counted per latency class.
///
//===----------------------------------------------------------------------===//
#include "passes/IccChains.h"
#include "passes/IccChainsOpcodes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MCA/Instruction.h"
#include "llvm/MCA/Support.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <array>
#include <iterator>
#include <optional>

using namespace llvm;

namespace segtime {
namespace icc {

namespace {

constexpr const char *Classes[] = {"fp.add", "fp.mul", "fp.fma", "fp.div", "int.mul", "load",
                                   "other"};
constexpr unsigned NumClasses = std::size(Classes), Other = NumClasses - 1, Load = 5;

/// A dependence path: its model latency (cycles) and its steps per class.
struct Path {
  int Cycles = 0;
  std::array<unsigned, NumClasses> Steps{};
  std::array<int, NumClasses> ClassCycles{};
};

/// Whether S starts with one of the packed or scalar FP suffixes (SS, SD,
/// PS, PD, SH, PH) of an x86 opcode name.
bool fpSuffix(StringRef S) {
  return S.size() >= 2 && (S[0] == 'S' || S[0] == 'P') &&
         (S[1] == 'S' || S[1] == 'D' || S[1] == 'H');
}

/// The latency class of an opcode named Name (x86 and AArch64 names), for a
/// chain that enters through a data operand.
unsigned opcodeClass(StringRef Name) {
  // AArch64: FADDDrr, FMULDrr, FMADDDrrr, FMLAv2f64, FDIVDrr, MADDXrrr.
  if (Name.starts_with("FMADD") || Name.starts_with("FMSUB") || Name.starts_with("FNMADD") ||
      Name.starts_with("FNMSUB") || Name.starts_with("FMLA") || Name.starts_with("FMLS"))
    return 2;
  if (Name.starts_with("FADD") || Name.starts_with("FSUB"))
    return 0;
  if (Name.starts_with("FMUL"))
    return 1;
  if (Name.starts_with("FDIV") || Name.starts_with("FSQRT"))
    return 3;
  // x86: [V]ADDSDrr, VFMADD231PDYr, [V]MULSDrm, [V]DIVPDrr, [V]SQRTSDr, IMUL64rr, MULX64rr.
  if (Name.starts_with("VFMADD") || Name.starts_with("VFMSUB") || Name.starts_with("VFNMADD") ||
      Name.starts_with("VFNMSUB"))
    return 2;
  if (Name.starts_with("IMUL") || Name.starts_with("MULX") || Name.starts_with("MADD") ||
      (Name.starts_with("MUL") && Name.size() > 3 && isDigit(Name[3])))
    return 4;
  StringRef N = Name;
  N.consume_front("V");
  for (auto [Op, Class] : {std::pair<StringRef, unsigned>{"ADD", 0}, {"SUB", 0}, {"MUL", 1},
                           {"DIV", 3}, {"SQRT", 3}})
    if (N.consume_front(Op))
      return fpSuffix(N) ? Class : Other;
  return Other;
}

/// Whether an x86 or AArch64 floating-point opcode name is a scalar form
/// (VADDSDrr, VFMADD231SDm, FMADDDrrr; not VADDPDYrm, FMLAv2f64).
bool scalarForm(StringRef Name) {
  if (Name.starts_with("FMLA") || Name.starts_with("FMLS") || Name.contains('v'))
    return false; // AArch64 vector forms
  StringRef N = Name;
  N.consume_front("V");
  N = N.drop_while([](char C) { return C >= 'A' && C <= 'Z' && C != 'S' && C != 'P'; });
  // What follows the operation (and an FMA's operand order): SS, SD, SH or
  // PS, PD, PH on x86; "S" of SQRT or SUB was consumed only up to the S.
  for (StringRef Op : {"SQRT", "SUB"})
    if (N.consume_front(Op))
      break;
  N = N.drop_while([](char C) { return isDigit(C); });
  return !N.starts_with("P");
}

/// The port class of an opcode (addPortClass): its chain class for a
/// scalar form (the form `segtime calibrate` measures), NumClasses for a
/// scalar conversion from floating point to integer ("fp.cvt"), or Other.
unsigned portClass(StringRef Name) {
  unsigned C = opcodeClass(Name);
  if (C == 3 && Name.contains("SQRT"))
    return Other; // the calibration measures division, not square root
  if (C != Other)
    return C == 4 || scalarForm(Name) ? C : Other;
  // x86: [V]CVTTSS2SIrr, VCVTSD2SI64rm; AArch64: FCVTZSUWDr, FCVTASUXSr.
  StringRef N = Name;
  N.consume_front("V");
  if (N.starts_with("CVTTSS2SI") || N.starts_with("CVTTSD2SI") || N.starts_with("CVTSS2SI") ||
      N.starts_with("CVTSD2SI") ||
      (Name.starts_with("FCVT") && Name.size() > 5 && !Name.contains('v') &&
       (Name[4] == 'Z' || Name[4] == 'A' || Name[4] == 'M' || Name[4] == 'N' || Name[4] == 'P')))
    return NumClasses;
  return Other;
}

} // namespace

ArrayRef<const char *> chainClasses() { return Classes; }

/// Adds instruction D's resource cycles per kind (ResourceKind: a resource
/// mask's index) to All, and Weight times them to Of if given (mca's
/// SummaryView counts Block RThroughput so).
template <typename T>
static void addResourceCycles(const mca::InstrDesc &D,
                              const DenseMap<uint64_t, unsigned> &ResourceKind,
                              SmallVectorImpl<unsigned> &All, SmallVectorImpl<T> *Of,
                              T Weight = 1) {
  for (const auto &[Mask, Use] : D.Resources) {
    auto It = ResourceKind.find(Mask);
    if (It == ResourceKind.end())
      continue;
    All[It->second] += Use.size();
    if (Of)
      (*Of)[It->second] += Weight * T(Use.size());
  }
}

/// The other instructions' cycles per unit on the resource that the
/// instructions counted in Of bind: of the resources they use (and, if
/// Among is given, that it holds), the one with the most cycles per unit in
/// All (the whole block's).
template <typename T>
static double sharedOnBound(const SmallVectorImpl<unsigned> &All, const SmallVectorImpl<T> &Of,
                            const MCSchedModel &SM, ArrayRef<unsigned> Among = {}) {
  double Top = -1, Shared = 0;
  for (size_t I = 1; I < All.size(); ++I) {
    if (!(Of[I] > 0) || (!Among.empty() && !llvm::is_contained(Among, I)))
      continue;
    double Units = SM.getProcResource(I)->NumUnits;
    if (Units <= 0)
      continue;
    if (All[I] / Units > Top) {
      Top = All[I] / Units;
      Shared = (All[I] - Of[I]) / Units;
    }
  }
  return Shared;
}

void addPortClass(ArrayRef<MCInst> Insts,
                  const SmallVectorImpl<mca::SourceMgr::UniqueInst> &Seq,
                  const MCInstrInfo &MCII, const MCSchedModel &SM,
                  const DenseMap<uint64_t, unsigned> &ResourceKind, Ruv &R) {
  if (Insts.empty() || Insts.size() != Seq.size())
    return;
  // Resource cycles per kind: of the whole block, and of each class's
  // instructions (mca's SummaryView counts Block RThroughput so).
  constexpr unsigned NumPort = NumClasses + 1;
  SmallVector<unsigned, 32> All(SM.getNumProcResourceKinds(), 0);
  std::array<SmallVector<unsigned, 32>, NumPort> Of;
  std::array<unsigned, NumPort> Count{};
  unsigned Uops = 0;
  for (size_t K = 0; K < Seq.size(); ++K) {
    const mca::InstrDesc &D = Seq[K]->getDesc();
    Uops += D.NumMicroOps;
    unsigned C = portClass(MCII.getName(Insts[K].getOpcode()));
    if (C != Other && C != Load) {
      if (Of[C].empty())
        Of[C].assign(All.size(), 0);
      ++Count[C];
    }
    addResourceCycles<unsigned>(D, ResourceKind, All,
                                C != Other && C != Load ? &Of[C] : nullptr);
  }
  double Whole = mca::computeBlockRThroughput(SM, SM.IssueWidth, Uops, All);
  std::optional<unsigned> Bound;
  double Rest = Whole;
  for (unsigned C = 0; C < NumPort; ++C) {
    if (!Count[C])
      continue;
    SmallVector<unsigned, 32> Without(All);
    for (size_t I = 0; I < Without.size(); ++I)
      Without[I] -= Of[C][I];
    double W = mca::computeBlockRThroughput(SM, SM.IssueWidth, Uops, Without);
    if (W < Rest - 1e-9) {
      Rest = W;
      Bound = C;
    }
  }
  if (!Bound)
    return;
  R.add(std::string("tp.") + (*Bound == NumClasses ? "fp.cvt" : Classes[*Bound]),
        Count[*Bound]);
  R.add("tp.shared", sharedOnBound(All, Of[*Bound], SM));
  R.add("tp.rest", Rest);
}

void addMaskedStores(ArrayRef<MCInst> Insts,
                     const SmallVectorImpl<mca::SourceMgr::UniqueInst> &Seq,
                     const MCInstrInfo &MCII, const MCSchedModel &SM,
                     const DenseMap<uint64_t, unsigned> &ResourceKind, Ruv &R) {
  if (Insts.empty() || Insts.size() != Seq.size())
    return;
  // Resource cycles per kind of the whole block and of its masked stores,
  // as addPortClass counts them.
  SmallVector<unsigned, 32> All(SM.getNumProcResourceKinds(), 0), Of(All.size(), 0);
  unsigned Uops = 0, MaskedUops = 0, Count = 0;
  for (size_t K = 0; K < Seq.size(); ++K) {
    const mca::InstrDesc &D = Seq[K]->getDesc();
    bool Masked = maskedMove(MCII.getName(Insts[K].getOpcode())) == MaskedMove::Store;
    Uops += D.NumMicroOps;
    if (Masked) {
      ++Count;
      MaskedUops += D.NumMicroOps;
    }
    addResourceCycles<unsigned>(D, ResourceKind, All, Masked ? &Of : nullptr);
  }
  if (!Count)
    return;
  double Whole = mca::computeBlockRThroughput(SM, SM.IssueWidth, Uops, All);
  SmallVector<unsigned, 32> Without(All);
  for (size_t I = 0; I < Without.size(); ++I)
    Without[I] -= Of[I];
  // Each masked store still dispatches: one micro-op, not the model's
  // microcode sequence.
  unsigned RestUops = Uops - MaskedUops + Count;
  double Rest = mca::computeBlockRThroughput(SM, SM.IssueWidth, RestUops, Without);
  if (Rest >= Whole - 1e-9)
    return; // the masked stores do not bind
  R.add("tp.store.masked", Count);
  R.add("tp.store.masked.rest", Rest);
  R.add("tp.store.masked.shared", sharedOnBound(All, Of, SM));
}

/// The constant part of a displacement expression (a symbol's offset:
/// "a+8" gives 8); symbols count 0.
static int64_t constantPart(const MCExpr &E) {
  if (const auto *C = dyn_cast<MCConstantExpr>(&E))
    return C->getValue();
  if (const auto *B = dyn_cast<MCBinaryExpr>(&E)) {
    if (B->getOpcode() == MCBinaryExpr::Add)
      return constantPart(*B->getLHS()) + constantPart(*B->getRHS());
    if (B->getOpcode() == MCBinaryExpr::Sub)
      return constantPart(*B->getLHS()) - constantPart(*B->getRHS());
  }
  return 0;
}

double splitLoadShare(const MCInst &I, const MCInstrInfo &MCII, const MCRegisterInfo &MRI,
                      const MCSubtargetInfo &STI, MCInstPrinter &Intel) {
  const MCInstrDesc &D = MCII.get(I.getOpcode());
  if (!D.mayLoad())
    return 0;
  StringRef Name = MCII.getName(I.getOpcode());
  if (alignedVectorMove(Name) || maskedMove(Name) != MaskedMove::None || Name.contains("GATHER"))
    return 0;
  // The first memory operand: base, scale, index, displacement, segment.
  unsigned Mem = 0;
  while (Mem < D.getNumOperands() && D.operands()[Mem].OperandType != MCOI::OPERAND_MEMORY)
    ++Mem;
  if (Mem + 3 >= I.getNumOperands())
    return 0;
  const MCOperand &Base = I.getOperand(Mem), &Index = I.getOperand(Mem + 2),
                  &Disp = I.getOperand(Mem + 3);
  if (Base.isReg() && Base.getReg() && StringRef(MRI.getName(Base.getReg())) == "RIP" &&
      (!Index.isReg() || !Index.getReg()))
    return 0;
  int64_t Offset = Disp.isImm() ? Disp.getImm() : Disp.isExpr() ? constantPart(*Disp.getExpr()) : 0;
  std::string Text;
  raw_string_ostream OS(Text);
  Intel.printInst(&I, 0, "", STI, OS);
  unsigned Width = intelOperandBytes(OS.str());
  // The widths measured (throughput.load.split: xmm, ymm); zmm is not.
  return Width < 16 || Width > 32 ? 0 : lineCrossShare(Width, Offset);
}

void addSplitLoads(ArrayRef<MCInst> Insts,
                   const SmallVectorImpl<mca::SourceMgr::UniqueInst> &Seq,
                   ArrayRef<double> Shares, ArrayRef<uint64_t> LoadPipes,
                   const MCInstrInfo &MCII, const MCSchedModel &SM,
                   const DenseMap<uint64_t, unsigned> &ResourceKind, Ruv &R) {
  if (Insts.empty() || Insts.size() != Seq.size() || Shares.size() != Seq.size())
    return;
  // Resource cycles per kind of the block's instructions but its stores,
  // and of the loads weighted by their crossing shares. Stores do not take
  // a load's slot on Zen 5 (4e), and the model's charge of a vector store
  // on the load pipes stays in R, which the predictor keeps as a lower
  // bound; masked stores have their own measured throughput.
  SmallVector<unsigned, 32> All(SM.getNumProcResourceKinds(), 0);
  SmallVector<double, 32> Of(All.size(), 0);
  double Split = 0;
  for (size_t K = 0; K < Seq.size(); ++K) {
    const MCInstrDesc &D = MCII.get(Insts[K].getOpcode());
    if ((D.mayStore() && !D.mayLoad()) ||
        maskedMove(MCII.getName(Insts[K].getOpcode())) == MaskedMove::Store)
      continue;
    addResourceCycles<double>(Seq[K]->getDesc(), ResourceKind, All,
                              Shares[K] > 0 ? &Of : nullptr, Shares[K]);
    Split += Shares[K];
  }
  SmallVector<unsigned, 4> Pipes;
  for (uint64_t Mask : LoadPipes)
    if (auto It = ResourceKind.find(Mask); It != ResourceKind.end() && Of[It->second] > 0)
      Pipes.push_back(It->second);
  if (Split <= 0 || Pipes.empty())
    return; // none, or loads off the model's vector load pipes
  R.add("tp.load.split", Split);
  R.add("tp.load.split.shared", sharedOnBound(All, Of, SM, Pipes));
}

void addLoopChain(ArrayRef<MCInst> Insts,
                  const SmallVectorImpl<mca::SourceMgr::UniqueInst> &Seq,
                  const MCInstrInfo &MCII, const MCRegisterInfo &MRI,
                  const MCSubtargetInfo &STI, Ruv &R) {
  if (Insts.empty() || Insts.size() != Seq.size())
    return;
  const MCSchedModel &SM = STI.getSchedModel();
  DenseMap<unsigned, unsigned> Widest;
  auto Top = [&](unsigned Reg) {
    auto [It, New] = Widest.try_emplace(Reg, Reg);
    if (New)
      for (MCPhysReg S : MRI.superregs(Reg))
        if (MRI.superregs(S).empty()) {
          It->second = S;
          break;
        }
    return It->second;
  };
  // Candidates: registers read before any write in the block, and written.
  DenseMap<unsigned, bool> Seen; // register -> first access was a read
  for (const auto &I : Seq) {
    for (const mca::ReadState &U : I->getUses())
      if (U.getRegisterID() && !U.isIndependentFromDef())
        Seen.try_emplace(Top(U.getRegisterID()), true);
    for (const mca::WriteState &W : I->getDefs())
      if (W.getRegisterID())
        Seen.try_emplace(Top(W.getRegisterID()), false);
  }
  // Register -> the write resource id of its last write in the block: the
  // producer of the value the next iteration reads.
  DenseMap<unsigned, unsigned> Written;
  for (const auto &I : Seq)
    for (const mca::WriteState &W : I->getDefs())
      if (W.getRegisterID())
        Written[Top(W.getRegisterID())] = W.getWriteResourceID();

  std::optional<Path> Best;
  for (auto &[Start, ReadFirst] : Seen) {
    if (!ReadFirst || !Written.count(Start))
      continue;
    // Value: the longest path from Start's entry value; absent: independent.
    DenseMap<unsigned, Path> Reach;
    DenseMap<unsigned, unsigned> WriteRes = Written; // register -> its producer's resource id
    Reach[Start] = Path();
    for (size_t K = 0; K < Seq.size(); ++K) {
      const mca::Instruction &I = *Seq[K];
      const MCInstrDesc &D = MCII.get(Insts[K].getOpcode());
      std::optional<Path> In; // the longest path into I
      int InAdvance = 0;      // the ReadAdvance of the read it enters by
      bool ViaAddress = false;
      for (const mca::ReadState &U : I.getUses()) {
        if (!U.getRegisterID() || U.isIndependentFromDef())
          continue;
        auto It = Reach.find(Top(U.getRegisterID()));
        if (It == Reach.end())
          continue;
        // The read's ReadAdvance against the write that produced the value
        // (mca::RegisterFile::addRegisterRead).
        const mca::ReadDescriptor &RD = U.getDescriptor();
        int Advance = 0;
        if (auto W = WriteRes.find(It->first); W != WriteRes.end())
          Advance = STI.getReadAdvanceCycles(SM.getSchedClassDesc(RD.SchedClassID), RD.UseIndex,
                                             W->second);
        bool Address = !RD.isImplicitRead() && unsigned(RD.OpIndex) < D.getNumOperands() &&
                       D.operands()[RD.OpIndex].OperandType == MCOI::OPERAND_MEMORY;
        if (!In || It->second.Cycles - Advance > In->Cycles - InAdvance) {
          In = It->second;
          InAdvance = Advance;
          ViaAddress = Address;
        }
      }
      unsigned Class = ViaAddress ? Load : opcodeClass(MCII.getName(Insts[K].getOpcode()));
      for (const mca::WriteState &W : I.getDefs()) {
        if (!W.getRegisterID())
          continue;
        unsigned Reg = Top(W.getRegisterID());
        WriteRes[Reg] = W.getWriteResourceID();
        if (!In) { // overwritten by a value independent of Start
          Reach.erase(Reg);
          continue;
        }
        int Step = std::max(0, int(W.getLatency()) - InAdvance);
        Path P = *In;
        P.Cycles += Step;
        ++P.Steps[Class];
        P.ClassCycles[Class] += Step;
        Reach[Reg] = P; // the last write is the value the next iteration reads
      }
    }
    auto End = Reach.find(Start);
    if (End != Reach.end() && (!Best || End->second.Cycles > Best->Cycles))
      Best = End->second;
  }
  if (!Best || Best->Cycles <= 0)
    return;
  bool Classified = false;
  for (unsigned C = 0; C < Other; ++C)
    Classified |= Best->Steps[C] != 0;
  if (!Classified)
    return;
  for (unsigned C = 0; C < NumClasses; ++C) {
    if (!Best->Steps[C])
      continue;
    std::string Key = std::string("lcd.") + Classes[C];
    if (C != Other)
      R.add(Key, Best->Steps[C]);
    R.add(Key + ".model", Best->ClassCycles[C]);
  }
}

} // namespace icc
} // namespace segtime
