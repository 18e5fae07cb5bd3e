//===- IccTargets.cpp - ICC: targets and the clone compiled for them ------===//
///
/// \file
/// See IccTargets.h and MachineLevel.h (parseTargetSpec): the accepted
/// target names, the target machines, and what makes a clone of the module
/// compile for another CPU or architecture (functions and globals the
/// target's back end cannot lower are left out, with the reason).
///
//===----------------------------------------------------------------------===//
#include "passes/IccTargets.h"

#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/Instructions.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>

using namespace llvm;

namespace segtime {
namespace icc {

namespace {

constexpr const char *X86Triple = "x86_64-unknown-linux-gnu";
constexpr const char *SparcTriple = "sparc-unknown-linux-gnu";
const char *const X86Cpus[] = {
    "znver5",         "znver4",         "znver3",         "skylake",
    "skylake-avx512", "icelake-server", "sapphirerapids", "alderlake",
    "x86-64",         "x86-64-v3"};
const char *const SparcCpus[] = {"supersparc", "leon2", "leon3", "leon4", "v8"};

} // namespace

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

namespace {

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

} // namespace

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

void describeTarget(const TargetMachine &TM, std::map<std::string, std::string> &Info) {
  const MCSchedModel &SM = TM.getMCSubtargetInfo()->getSchedModel();
  if (SM.isOutOfOrder() && SM.MicroOpBufferSize > 0)
    Info["micro_op_buffer"] = std::to_string(SM.MicroOpBufferSize);
  Info["issue_width"] = std::to_string(SM.IssueWidth);
}

namespace {

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

} // namespace

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

} // namespace icc

using namespace icc;

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

} // namespace segtime
