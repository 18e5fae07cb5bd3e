//===- IRSeg.cpp - SEG of the optimised IR with IntCC RUVs ---------------===//
///
/// \file
/// USAGE:
///   opt-19 -load-pass-plugin build/lib/segtime-passes.so \
///          -passes='print<segtime-ir>' -disable-output kernel.ll
///   (through clang the same analysis runs after the -O pipeline when the
///   plugin is loaded with -fplugin=build/lib/segtime.so)
///
//===----------------------------------------------------------------------===//
#include "passes/IRSeg.h"
#include "passes/IRSegBuilder.h"
#include "core/Library.h"
#include "core/Vocabulary.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace segtime {

static std::string typeKey(Type *T) {
  if (auto *VT = dyn_cast<FixedVectorType>(T))
    return "v" + std::to_string(VT->getNumElements()) + typeKey(VT->getElementType());
  if (T->isFloatTy())
    return "f32";
  if (T->isDoubleTy())
    return "f64";
  if (T->isX86_FP80Ty())
    return "f80";
  if (T->isHalfTy())
    return "f16";
  if (T->isIntegerTy())
    return "i" + std::to_string(T->getIntegerBitWidth());
  if (T->isPointerTy())
    return "ptr";
  if (T->isVoidTy())
    return "void";
  return "other";
}

std::string irLibraryCallee(const CallBase &C) {
  if (auto *M = dyn_cast<MemIntrinsic>(&C)) {
    // x86-64's SelectionDAG expands a constant length of up to 8 stores of
    // 16 B inline (MaxStoresPerMemcpy/Memset/Memmove); any other length
    // stays a call of the C library.
    auto *Len = dyn_cast<ConstantInt>(M->getLength());
    if (Len && Len->getZExtValue() <= 128)
      return "";
    switch (M->getIntrinsicID()) {
    case Intrinsic::memcpy:
      return "memcpy";
    case Intrinsic::memmove:
      return "memmove";
    case Intrinsic::memset:
      return "memset";
    default:
      return "";
    }
  }
  const Function *F = C.getCalledFunction();
  if (!F || F->isIntrinsic() || !F->isDeclaration())
    return "";
  std::string Name = F->getName().str();
  return libraryCallInIR(Name) ? Name : "";
}

std::string intccKey(const Instruction &I) {
  if (isa<DbgInfoIntrinsic>(I))
    return "";
  if (auto *II = dyn_cast<IntrinsicInst>(&I)) {
    switch (II->getIntrinsicID()) {
    case Intrinsic::lifetime_start:
    case Intrinsic::lifetime_end:
    case Intrinsic::assume:
    case Intrinsic::experimental_noalias_scope_decl:
    case Intrinsic::pseudoprobe:
    case Intrinsic::dbg_label:
      return "";
    default:
      return intccKey("call", intccKey(Intrinsic::getBaseName(II->getIntrinsicID()).str(),
                                       typeKey(II->getType()->isVoidTy() && II->arg_size()
                                                   ? II->getArgOperand(0)->getType()
                                                   : II->getType())));
    }
  }
  if (auto *C = dyn_cast<CallBase>(&I)) {
    const Function *F = C->getCalledFunction();
    return intccKey("call", F ? F->getName().str() : "indirect");
  }
  if (auto *B = dyn_cast<BranchInst>(&I))
    return intccKey("br", B->isConditional() ? "cond" : "");
  if (auto *S = dyn_cast<StoreInst>(&I))
    return intccKey("store", typeKey(S->getValueOperand()->getType()));
  if (auto *C = dyn_cast<CmpInst>(&I))
    return intccKey(I.getOpcodeName(), typeKey(C->getOperand(0)->getType()));
  return intccKey(I.getOpcodeName(), I.getType()->isVoidTy() ? "" : typeKey(I.getType()));
}

IRFunctionSeg buildIRSeg(Function &F, LoopInfo &LI, ScalarEvolution &SE,
                         BranchProbabilityInfo &BPI, DominatorTree &DT,
                         const std::vector<std::string> &Params, uint64_t Budget,
                         const CallSiteArgMap *Sites, bool NameCopies) {
  IRFunctionSeg R;
  R.Name = F.getName().str();
  irseg::Builder B(F, LI, SE, BPI, DT, Params, Budget, R, Sites);
  B.NameCopies = NameCopies;
  B.run();
  return R;
}

void packSeg(IRFunctionSeg &FS) {
  if (FS.Seg.empty())
    return;
  FS.PackedSeg = packNodes(FS.Seg);
  FS.Seg = {};
  // The image's vector grows by doubling: the slack would be held until
  // code generation reaches F.
  FS.PackedSeg.shrink_to_fit();
}

void unpackSeg(IRFunctionSeg &FS) {
  if (FS.PackedSeg.empty())
    return;
  FS.Seg = unpackNodes(FS.PackedSeg);
  FS.PackedSeg = {};
}

std::string calleeParamName(const std::map<std::string, std::vector<std::string>> &ParamNames,
                            const std::string &Callee, unsigned K) {
  auto Ps = ParamNames.find(Callee);
  return Ps != ParamNames.end() && K < Ps->second.size() && !Ps->second[K].empty()
             ? Ps->second[K]
             : "arg" + std::to_string(K);
}

void recordCallArgs(Module &M, const std::map<std::string, std::vector<std::string>> &ParamNames,
                    const std::map<std::string, std::string> &SourceNames, CallSiteArgMap &Out) {
  for (Function &F : M)
    for (Instruction &I : instructions(F)) {
      auto *C = dyn_cast<CallBase>(&I);
      Function *Callee = C ? C->getCalledFunction() : nullptr;
      const DILocation *DL = I.getDebugLoc().get();
      if (!Callee || Callee->isDeclaration() || !DL)
        continue;
      std::string Name = Callee->getName().str();
      auto Src = SourceNames.find(Name);
      CallSiteArgs &A = Out.Calls[DL];
      // Two calls of one callee at one location: the last one's; calls of
      // other callees there (one macro expansion) keep theirs.
      for (size_t K = A.Args.size(); K-- > 0;)
        if (A.Callees[K] == Name) {
          A.Args.erase(A.Args.begin() + K);
          A.Callees.erase(A.Callees.begin() + K);
        }
      for (unsigned K = 0; K < C->arg_size(); ++K) {
        Value *V = C->getArgOperand(K);
        if (isa<Constant>(V) || !V->getType()->isIntegerTy())
          continue;
        A.Args.push_back({WeakTrackingVH(V), (Src != SourceNames.end() ? Src->second : Name) +
                                                 "." + calleeParamName(ParamNames, Name, K)});
        A.Callees.push_back(Name);
      }
    }
  Out.index();
}

AnalysisKey IRSegAnalysis::Key;

IRSegAnalysis::Result IRSegAnalysis::run(Function &F, FunctionAnalysisManager &FAM) {
  std::vector<std::string> Params(F.arg_size());
  for (Argument &A : F.args())
    Params[A.getArgNo()] = A.hasName() ? A.getName().str() : "arg" + std::to_string(A.getArgNo());
  if (DISubprogram *SP = F.getSubprogram())
    for (DINode *N : SP->getRetainedNodes())
      if (auto *V = dyn_cast<DILocalVariable>(N))
        if (V->getArg() && V->getArg() <= Params.size())
          Params[V->getArg() - 1] = V->getName().str();
  return buildIRSeg(F, FAM.getResult<LoopAnalysis>(F), FAM.getResult<ScalarEvolutionAnalysis>(F),
                    FAM.getResult<BranchProbabilityAnalysis>(F),
                    FAM.getResult<DominatorTreeAnalysis>(F), Params);
}

PreservedAnalyses IRSegPrinter::run(Function &F, FunctionAnalysisManager &FAM) {
  if (F.isDeclaration())
    return PreservedAnalyses::all();
  const IRFunctionSeg &R = FAM.getResult<IRSegAnalysis>(F);
  json J = {{"name", R.Name}};
  json Seg = json::array();
  for (const Node &N : R.Seg)
    Seg.push_back(N.toJSON());
  J["ir_seg"] = Seg;
  json Ps = json::array();
  for (const Parameter &P : R.Parameters)
    Ps.push_back(P.toJSON());
  J["parameters"] = Ps;
  json In = json::array();
  for (const InlinedSite &S : R.Inlined)
    In.push_back({{"callee", S.Callee}, {"where", S.Where}, {"nodes", S.Nodes}});
  J["inlined"] = In;
  outs() << J.dump(1) << "\n";
  return PreservedAnalyses::all();
}

std::pair<Value *, const char *> logicalBranchOp(Value *Cond) {
  using namespace PatternMatch;
  Value *A = nullptr, *B = nullptr;
  if (match(Cond, m_LogicalAnd(m_Value(A), m_Value(B))))
    return {A, "and"};
  if (match(Cond, m_LogicalOr(m_Value(A), m_Value(B))))
    return {A, "or"};
  return {nullptr, nullptr};
}

} // namespace segtime
