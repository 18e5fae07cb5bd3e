//===- Register.cpp - Registration of segtime's LLVM passes ---------------===//
#include "passes/Register.h"
#include "core/ByteImage.h"
#include "passes/IRDataCompare.h"
#include "passes/IccBlocks.h"
#include "passes/MachineLevel.h"
#include "passes/SourceLoc.h"
#include "passes/Timing.h"

#include "llvm/IR/CFG.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Compression.h"

#include <set>
#include <utility>

using namespace llvm;

namespace segtime {

static cl::opt<bool>
    IccClone("segtime-icc-clone", cl::Hidden,
             cl::desc("segtime: cost the compile's own target on a clone of the module "
                      "compiled a second time, not on the compile's own code generation"));

static cl::opt<bool> UnpackedWaiting(
    "segtime-unpacked-ir-segs", cl::Hidden,
    cl::desc("segtime: keep the IR SEGs waiting for code generation as nodes, not packed "
             "(packSeg; the .seg.json is the same either way)"));

IRCollection &irCollection() {
  static IRCollection C;
  return C;
}

namespace {

/// Blocks of each function by IR function name, in function order.
using BlockLists = std::map<std::string, std::vector<const BasicBlock *>>;

/// The target of the compile itself: its triple, and the CPU and features
/// clang put on the functions (-march=native -mno-avx512f and so on).
std::optional<TargetSpec> compileTarget(const Module &M) {
  TargetSpec S;
  S.Triple = M.getTargetTriple();
  for (const Function &F : M)
    if (!F.isDeclaration() && F.hasFnAttribute("target-cpu")) {
      S.CPU = F.getFnAttribute("target-cpu").getValueAsString().str();
      if (F.hasFnAttribute("target-features"))
        S.Features = F.getFnAttribute("target-features").getValueAsString().str();
      break;
    }
  if (S.CPU.empty())
    S.CPU = "generic";
  S.Name = S.CPU;
  return S;
}

/// Runs at the end of the optimisation pipeline (also at -O0): builds the
/// IR-level SEG of every defined function, adds the ICC RUVs of each
/// requested target, then removes the line tables the plugin added
/// (SourceLoc.h).
/// Machine blocks of code generation's own on IR edges (split critical
/// edges, skip jumps, loop-exit jumps and epilogues) of the function whose
/// blocks are Blocks (in their order in the function): a Stage
/// node run as often as the edge, after the edge's source block
/// (IRFunctionSeg::EdgeFreq) or, for an edge that leaves a loop, after that
/// Loop node, once per execution of the loop (IRFunctionSeg::LoopExits). An
/// edge whose frequency the IR level does not know is charged to its source
/// block, a loop-exit edge to its destination block (once per exit, not
/// once per iteration).
/// For a machine block between From's code and To's where From -> To is
/// no IR edge the IR level knows: the one IR edge From -> X it knows
/// (IRFunctionSeg::EdgeFreq, LoopExits) from which To is reached through
/// blocks with a single successor that emitted no code (the preheader of
/// a vectorised loop's scalar remainder, which the vector loop's "too few
/// iterations" jump skips); nullptr if From -> To is known, or none or
/// several such X.
const BasicBlock *edgeVia(const IRFunctionSeg &FS, const BasicBlock *From, const BasicBlock *To) {
  auto Known = [&](const BasicBlock *X) {
    return FS.EdgeFreq.count({From, X}) || FS.LoopExits.count({From, X});
  };
  if (!To || Known(To))
    return nullptr;
  const BasicBlock *Via = nullptr;
  for (const BasicBlock *S : successors(From)) {
    if (S == Via || !Known(S))
      continue;
    const BasicBlock *X = S;
    for (int Hops = 0; X != To && Hops < 4 && X->getSingleSuccessor(); ++Hops)
      X = X->getSingleSuccessor();
    if (X != To)
      continue;
    if (Via)
      return nullptr; // two ways: not decided here
    Via = S;
  }
  return Via;
}

void attachEdges(IRFunctionSeg &FS, const std::vector<const BasicBlock *> &Blocks,
                 const EdgeRuvs &Edges, const std::string &Key) {
  // F's edges by (source, destination) block position in F: Edges is keyed
  // by block addresses, whose order changes from run to run, and the order
  // decides where edge Stages of one source go in the node list.
  std::map<const BasicBlock *, unsigned> Pos;
  for (const BasicBlock *B : Blocks)
    Pos.emplace(B, static_cast<unsigned>(Pos.size()));
  auto PosOf = [&](const BasicBlock *B) {
    auto It = Pos.find(B);
    return It == Pos.end() ? ~0u : It->second;
  };
  std::vector<const EdgeRuvs::value_type *> Ordered;
  for (const auto &E : Edges)
    if (Pos.count(E.first.first))
      Ordered.push_back(&E);
  llvm::sort(Ordered, [&](const auto *A, const auto *B) {
    return std::make_pair(PosOf(A->first.first), PosOf(A->first.second)) <
           std::make_pair(PosOf(B->first.first), PosOf(B->first.second));
  });
  for (const auto *E : Ordered) {
    std::pair<const BasicBlock *, const BasicBlock *> Edge = E->first;
    // The only way out of a loop (icc::BlockRecord::ExitFrom): on the edge
    // if it is a loop exit of known frequency, else with the block the
    // loop leaves to.
    bool ExitOnly = E->second.get("edge.loop.exit") > 0;
    Ruv R;
    for (auto &[Op, N] : E->second.counts())
      if (Op != "edge.loop.exit")
        R.add(Op, N);
    auto To = FS.StageOf.find(Edge.second);
    if (const BasicBlock *Via = edgeVia(FS, Edge.first, Edge.second))
      Edge.second = Via;
    auto Src = FS.StageOf.find(Edge.first);
    if (Src == FS.StageOf.end())
      continue;
    auto Dst = FS.StageOf.find(Edge.second);
    std::string Id = Src->second + "e" + (Dst != FS.StageOf.end() ? Dst->second : "x");
    // The node the edge's Stage follows, and the edge's frequency in that
    // node's list (nullopt: unknown; the cost goes into node Anchor).
    std::string Anchor = Src->second;
    std::optional<std::string> Freq;
    if (auto It = FS.EdgeFreq.find(Edge); It != FS.EdgeFreq.end())
      Freq = It->second;
    if (auto Exit = FS.LoopExits.find(Edge); Exit != FS.LoopExits.end()) {
      Freq = Exit->second.Freq;
      if (Freq)
        Anchor = Exit->second.LoopId;
      else if (Dst != FS.StageOf.end())
        Anchor = Dst->second;
    }
    if (ExitOnly && !(FS.LoopExits.count(Edge) && Freq)) {
      if (To == FS.StageOf.end())
        continue;
      Freq.reset();
      Anchor = To->second;
    }
    bool Done = false;
    std::function<void(NodeList &)> Insert = [&](NodeList &L) {
      for (size_t I = 0; I < L.size() && !Done; ++I) {
        if (L[I].Id == Anchor) {
          if (!Freq) {
            L[I].Ruvs[Key].add(R);
            Done = true;
            return;
          }
          icc::addToStageAfter(L, I, Src->second + "e", Id, "edge", *Freq, Key, R);
          Done = true;
          return;
        }
        Insert(L[I].Body);
      }
    };
    Insert(FS.Seg);
  }
}

/// The blocks of each function of C in M, in function order: the keys the
/// ICC RUVs are attached by.
BlockLists blockLists(const Module &M, const IRCollection &C) {
  BlockLists L;
  for (const auto &[Name, FS] : C.Functions)
    if (const Function *F = M.getFunction(Name)) {
      std::vector<const BasicBlock *> &Blocks = L[Name];
      for (const BasicBlock &B : *F)
        Blocks.push_back(&B);
    }
  return L;
}

/// Puts the ICC RUVs of one target (RUV key Key) onto the IR SEG of every
/// function of C: per Stage the RUV of its block, the data-dependent
/// branches that stay conditional jumps, the edge Stages (attachEdges).
/// Blocks: each function's blocks, the keys of Ruvs, Edges and CondJumps.
void attachFunction(IRFunctionSeg &FS, const std::string &Key,
                    const std::vector<const BasicBlock *> &Blocks,
                    const std::map<const BasicBlock *, Ruv> &Ruvs, const EdgeRuvs &Edges,
                    const std::set<const BasicBlock *> &CondJumps) {
    std::map<std::string, const Ruv *> ByStage;
    // Stages ending in a data-dependent branch that is still a
    // conditional jump in the machine code: one possible misprediction
    // per execution (docs/models.md "branch mispredictions").
    std::map<std::string, std::string> DataBranchOf;
    // Search steps (a load chain) and selects of merge and search steps,
    // by their probabilities as DataBranch gives them.
    std::set<std::string> SearchSteps, SelectSteps;
    for (const Parameter &P : FS.Parameters)
      for (const std::string &Prob : {P.Name, "(1 - " + P.Name + ")"}) {
        if (irseg::isSearchStepSource(P.Source))
          SearchSteps.insert(Prob);
        if (irseg::isSelectStepSource(P.Source))
          SelectSteps.insert(Prob);
      }
    // The machine level's count of selects made into branches (key
    // "branch.select") decides for a select's comparison and is dropped.
    std::map<const BasicBlock *, Ruv> Kept;
    // The sides of selects made into jumps (icc::selectArmKey), per stage:
    // by probability expression, and at the estimated 1/2 for the stages
    // that repeat a block (CopyOf).
    std::map<std::string, std::map<std::string, Ruv>> ArmsOf;
    std::map<std::string, Ruv> HalfArmsOf;
    for (const BasicBlock *B : Blocks) {
      auto R = Ruvs.find(B);
      auto S = FS.StageOf.find(B);
      if (R == Ruvs.end() || S == FS.StageOf.end())
        continue;
      bool SelectJump = R->second.get("branch.select") > 0;
      Ruv &K = Kept[B];
      for (auto &[Op, Count] : R->second.counts()) {
        std::string ArmOp;
        bool True = false, Second = false;
        if (icc::parseSelectArmKey(Op, True, ArmOp, Second)) {
          HalfArmsOf[S->second].add(ArmOp, Count / 2);
          if (auto P = Second ? icc::secondTestProbability(FS, B, True)
                              : icc::selectArmProbability(FS, B, True))
            ArmsOf[S->second][*P].add(ArmOp, Count);
          else
            K.add(ArmOp, Count / 2); // no name for it: the estimated 1/2
        } else if (Op != "branch.select")
          K.add(Op, Count);
      }
      ByStage[S->second] = &K;
      auto D = FS.DataBranch.find(B);
      if (D != FS.DataBranch.end() &&
          (SelectSteps.count(D->second) ? SelectJump : CondJumps.count(B) > 0))
        DataBranchOf[S->second] = D->second;
    }
    std::function<void(NodeList &)> Attach = [&](NodeList &L) {
      for (Node &N : L) {
        auto C = FS.CopyOf.find(N.Id);
        auto X = ByStage.find(C != FS.CopyOf.end() ? C->second : N.Id);
        if (N.Kind == NodeKind::Stage && X != ByStage.end()) {
          Ruv &R = N.Ruvs[Key] = *X->second;
          if (auto H = HalfArmsOf.find(X->first); H != HalfArmsOf.end() && C != FS.CopyOf.end())
            R.add(H->second);
          if (auto D = DataBranchOf.find(N.Id); D != DataBranchOf.end() && C == FS.CopyOf.end()) {
            R.add("branch.cond.data", 1);
            N.BranchProb = D->second;
            // A search step's load chain (docs/models.md ICC step 4d).
            if (SearchSteps.count(D->second))
              R.add("branch.chain.load", 1);
          }
        }
        Attach(N.Body);
      }
    };
    Attach(FS.Seg);
    icc::insertSelectArms(FS.Seg, ArmsOf, Key);
    attachEdges(FS, Blocks, Edges, Key);
}

/// attachFunction for every function of C (Blocks: by name).
void attachTarget(IRCollection &C, const std::string &Key, const BlockLists &Blocks,
                  const std::map<const BasicBlock *, Ruv> &Ruvs, const EdgeRuvs &Edges,
                  const std::set<const BasicBlock *> &CondJumps) {
  TimeRegion AttachTime(phaseTimer("icc-attach", "ICC RUVs onto the IR SEG"));
  for (auto &[Name, FS] : C.Functions)
    if (auto BL = Blocks.find(Name); BL != Blocks.end()) {
      bool Packed = !FS.PackedSeg.empty();
      unpackSeg(FS);
      attachFunction(FS, Key, BL->second, Ruvs, Edges, CondJumps);
      if (Packed)
        packSeg(FS);
    }
}

/// Releases the IR SEG's maps keyed by M's blocks.
void releaseBlockMaps(IRFunctionSeg &FS) {
  FS.StageOf = {};
  FS.EdgeFreq = {};
  FS.LoopExits = {};
  FS.CopyOf = {};
  FS.DataBranch = {};
  FS.SelectLocs = {};
  FS.SplitLocs = {};
}

void releaseBlockMaps(IRCollection &C) {
  for (auto &[Name, FS] : C.Functions)
    releaseBlockMaps(FS);
}

/// Hands the final IR SEG of It (unpacked) to C.OnFinal, if set, and
/// erases it.
void handOver(IRCollection &C, std::map<std::string, IRFunctionSeg>::iterator It) {
  unpackSeg(It->second);
  if (!C.OnFinal)
    return;
  C.OnFinal(It->first, It->second);
  C.Functions.erase(It);
}

/// handOver for every function of C.
void handOverAll(IRCollection &C) {
  if (!C.OnFinal) { // (kept in C.Functions, as nodes)
    for (auto &[Name, FS] : C.Functions)
      unpackSeg(FS);
    return;
  }
  while (!C.Functions.empty())
    handOver(C, C.Functions.begin());
}

/// An IR SEG waiting for code generation, shelved (shelve): its packed
/// nodes and its block maps as one CompressedImage. The maps' formula texts
/// and the nodes compress several times; an amalgamation's waiting SEGs are
/// tens of MB as maps and packed nodes, and they are held from their
/// function's collection until code generation reaches it.
using Shelved = CompressedImage;

/// IR SEGs waiting for code generation, by IR name.
using Shelf = std::map<std::string, Shelved>;

/// A block's address in a shelved image (the block outlives the image).
void putBlock(ByteWriter &W, const BasicBlock *B) { W.num(reinterpret_cast<uintptr_t>(B)); }
const BasicBlock *getBlock(ByteReader &R) {
  return reinterpret_cast<const BasicBlock *>(uintptr_t(R.num()));
}

/// Moves FS's packed nodes, block maps and parameters (a branch
/// probability each, tens of thousands in an amalgamation) into a Shelved
/// image (FS keeps its name, inlined sites and notes). Nothing if FS's nodes
/// are not packed.
Shelved shelve(IRFunctionSeg &FS) {
  if (FS.PackedSeg.empty())
    return {};
  ByteWriter W;
  W.bytes(FS.PackedSeg);
  W.num(FS.StageOf.size());
  for (const auto &[B, Id] : FS.StageOf) {
    putBlock(W, B);
    W.str(Id);
  }
  W.num(FS.EdgeFreq.size());
  for (const auto &[E, Freq] : FS.EdgeFreq) {
    putBlock(W, E.first);
    putBlock(W, E.second);
    W.str(Freq);
  }
  W.num(FS.LoopExits.size());
  for (const auto &[E, X] : FS.LoopExits) {
    putBlock(W, E.first);
    putBlock(W, E.second);
    W.str(X.LoopId);
    W.num(X.Freq.has_value());
    W.str(X.Freq.value_or(""));
  }
  W.num(FS.CopyOf.size());
  for (const auto &[Id, Of] : FS.CopyOf) {
    W.str(Id);
    W.str(Of);
  }
  W.num(FS.DataBranch.size());
  for (const auto &[B, P] : FS.DataBranch) {
    putBlock(W, B);
    W.str(P);
  }
  packParameters(W, FS.Parameters);
  FS.Parameters = {};
  FS.PackedSeg = {};
  releaseBlockMaps(FS);
  return compressImage(std::move(W.Out));
}

/// Gives FS back what shelve took, in the same maps and order (the maps
/// are sorted: each entry goes at the end). False if the image does not
/// decompress (FS then has neither nodes nor block maps).
bool unshelve(IRFunctionSeg &FS, Shelved &S) {
  if (S.empty())
    return true;
  std::vector<uint8_t> Raw;
  if (!decompressImage(S, Raw))
    return false;
  ByteReader R{Raw};
  FS.PackedSeg = R.bytes();
  for (size_t K = R.num(); K > 0; --K) {
    const BasicBlock *B = getBlock(R);
    FS.StageOf.emplace_hint(FS.StageOf.end(), B, R.str());
  }
  for (size_t K = R.num(); K > 0; --K) {
    const BasicBlock *A = getBlock(R), *B = getBlock(R);
    FS.EdgeFreq.emplace_hint(FS.EdgeFreq.end(), std::make_pair(A, B), R.str());
  }
  for (size_t K = R.num(); K > 0; --K) {
    const BasicBlock *A = getBlock(R), *B = getBlock(R);
    IRFunctionSeg::LoopExit X;
    X.LoopId = R.str();
    bool HasFreq = R.num();
    std::string Freq = R.str();
    if (HasFreq)
      X.Freq = std::move(Freq);
    FS.LoopExits.emplace_hint(FS.LoopExits.end(), std::make_pair(A, B), std::move(X));
  }
  for (size_t K = R.num(); K > 0; --K) {
    std::string Id = R.str();
    FS.CopyOf.emplace_hint(FS.CopyOf.end(), std::move(Id), R.str());
  }
  for (size_t K = R.num(); K > 0; --K) {
    const BasicBlock *B = getBlock(R);
    FS.DataBranch.emplace_hint(FS.DataBranch.end(), B, R.str());
  }
  FS.Parameters = unpackParameters(R);
  S = {};
  return true;
}

/// The compile target whose code generation is being recorded
/// (recordCompileCodegen), until finishIccLevels.
struct PendingIcc {
  std::string Key;  ///< "ICC:<cpu>"
  std::string Name; ///< target name in IRCollection::TargetInfo
  BlockLists Blocks;
  /// The IR SEGs waiting for code generation (shelve).
  segtime::Shelf Shelf;
};

std::optional<PendingIcc> &pending() {
  static std::optional<PendingIcc> P;
  return P;
}

/// Unshelves the IR SEG of function Name (FS) if it is on shelf S; an
/// image that does not decompress is an error (of ICC level Key; FS then
/// has no nodes).
void takeOffShelf(Shelf &S, const std::string &Key, const std::string &Name,
                  IRFunctionSeg &FS) {
  auto It = S.find(Name);
  if (It == S.end())
    return;
  if (!unshelve(FS, It->second))
    irCollection().Errors.push_back(Key + ": the IR SEG of '" + Name +
                                    "' waiting for code generation could not be restored");
  S.erase(It);
}

/// Unshelves every IR SEG of C that is on shelf S (for the levels that
/// need the IR SEGs of all functions at once).
void takeAllOffShelf(Shelf &S, const std::string &Key, IRCollection &C) {
  for (auto &[Name, FS] : C.Functions)
    takeOffShelf(S, Key, Name, FS);
}

/// FunctionIccSink of the recording: attaches F's RUVs as soon as F is
/// costed, then releases F's block maps and block list.
void attachRecorded(const Function &F, const std::map<const BasicBlock *, Ruv> &Ruvs,
                    const EdgeRuvs &Edges, const std::set<const BasicBlock *> &CondJumps) {
  std::optional<PendingIcc> &P = pending();
  auto FS = irCollection().Functions.find(F.getName().str());
  if (!P || FS == irCollection().Functions.end())
    return;
  auto BL = P->Blocks.find(FS->first);
  if (BL == P->Blocks.end())
    return;
  std::optional<TimeRegion> AttachTime(std::in_place,
                                       phaseTimer("icc-attach", "ICC RUVs onto the IR SEG"));
  takeOffShelf(P->Shelf, P->Key, FS->first, FS->second);
  unpackSeg(FS->second);
  attachFunction(FS->second, P->Key, BL->second, Ruvs, Edges, CondJumps);
  releaseBlockMaps(FS->second);
  P->Blocks.erase(BL);
  AttachTime.reset();
  handOver(irCollection(), FS);
}

/// The ICC level of target Spec from a clone of M compiled a second time
/// (machineLevelRuvs), attached to the IR SEGs of C at once; a note per
/// function the target cannot compile, the target's "error" if it fails.
void cloneTarget(Module &M, IRCollection &C, const TargetSpec &Spec) {
  std::map<const BasicBlock *, Ruv> Ruvs;
  EdgeRuvs Edges;
  std::set<const BasicBlock *> CondJumps;
  std::map<std::string, std::string> Skipped;
  std::string Err;
  bool Ok = machineLevelRuvs(M, Spec, Ruvs, Err, &C.TargetInfo[Spec.Name], &Edges,
                             &CondJumps, &Skipped);
  // Functions the target cannot compile: no ICC level for them, a note.
  for (auto &[Name, Why] : Skipped)
    if (Function *F = M.getFunction(Name)) {
      std::string Note = "ICC " + Spec.Name + ": '" + Name + "' not compiled for " +
                         Spec.CPU + ": " + Why + " (no ICC level for it on this target)";
      C.Errors.push_back(Note);
      M.getContext().diagnose(
          DiagnosticInfoUnsupported(*F, "segtime: " + Note, F->getSubprogram(), DS_Warning));
    }
  if (!Ok) {
    C.Errors.push_back("ICC " + Spec.Name + ": " + Err);
    C.TargetInfo[Spec.Name]["error"] = Err;
    return;
  }
  attachTarget(C, ruvKey(Level::ICC, Spec.Name), blockLists(M, C), Ruvs, Edges, CondJumps);
}

/// First pass of the pipeline: IRCollection::OnBackendStart, once.
struct BackendStartPass : PassInfoMixin<BackendStartPass> {
  PreservedAnalyses run(Module &, ModuleAnalysisManager &) {
    if (std::function<void()> F = std::exchange(irCollection().OnBackendStart, nullptr))
      F();
    return PreservedAnalyses::all();
  }
};

/// Fills irCollection().CallArgs; changes nothing.
struct RecordCallArgsPass : PassInfoMixin<RecordCallArgsPass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    IRCollection &C = irCollection();
    C.CallArgs.clear();
    recordCallArgs(M, C.ParamNames, C.SourceNames, C.CallArgs);
    return PreservedAnalyses::all();
  }
};

/// IR instructions of a module below which its IR SEGs are not packed
/// while they wait for code generation (-segtime-unpacked-ir-segs: none).
constexpr size_t UnpackedBelow = 50000;

struct CollectPass : PassInfoMixin<CollectPass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &MAM) {
    IRCollection &C = irCollection();
    if (!C.Enabled)
      return PreservedAnalyses::all();
    auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
    notePeakMemory("optimised");
    std::optional<TimeRegion> IRTime(phaseTimer("ir-seg", "IR SEG (IntCC)"));
    // When the compile's own code generation is to be recorded, each IR SEG
    // waits for it on the shelf (shelve), put there as soon as it is built:
    // the module's IR SEGs are held from here until code generation
    // reaches each function, and never all as nodes and block maps at once.
    // A small module's IR SEGs wait as built: packing and unpacking them
    // would cost more than the memory they take.
    size_t Instructions = 0;
    for (const Function &F : M)
      Instructions += F.getInstructionCount();
    bool Pack = C.EmitsObject && !IccClone && !UnpackedWaiting &&
                llvm::is_contained(C.Targets, "compile") && Instructions > UnpackedBelow;
    bool PackFinal = C.Targets.empty() && C.OnFinal && !UnpackedWaiting &&
                     Instructions > UnpackedBelow;
    Shelf Waiting;
    for (Function &F : M) {
      if (F.isDeclaration())
        continue;
      std::vector<std::string> Params;
      auto It = C.ParamNames.find(F.getName().str());
      if (It != C.ParamNames.end())
        Params = It->second;
      IRFunctionSeg &FS = C.Functions[F.getName().str()] =
          buildIRSeg(F, FAM.getResult<LoopAnalysis>(F), FAM.getResult<ScalarEvolutionAnalysis>(F),
                     FAM.getResult<BranchProbabilityAnalysis>(F),
                     FAM.getResult<DominatorTreeAnalysis>(F), Params, C.Budget, &C.CallArgs, C.NameCopies);
      // F's analyses are not needed again (code generation computes its
      // own): released now rather than held for the whole module.
      FAM.clear(F, F.getName());
      for (const std::string &N : FS.Notes)
        C.Errors.push_back("IR level of '" + FS.Name + "': " + N);
      if (FS.BudgetExceeded) // (a warning: the compile goes on)
        M.getContext().diagnose(DiagnosticInfoUnsupported(
            F,
            "segtime: IR level of '" + FS.Name + "': " + FS.Notes.back() +
                " (-fplugin-arg-segtime-budget=N raises the budget)",
            F.getSubprogram(), DS_Warning));
      if (Pack) {
        packSeg(FS);
        Waiting[F.getName().str()] = shelve(FS);
      } else if (PackFinal) {
        // No ICC level to wait for: held packed, without its block maps,
        // until all are built (the plugin's writer needs every function's
        // inlined sites before it writes the first: handOverAll).
        releaseBlockMaps(FS);
        packSeg(FS);
      }
    }
    C.CallArgs.clear();
    IRTime.reset();
    notePeakMemory("optimised; IR SEGs built");
    // Each target from a clone compiled a second time (cloneTarget), but
    // the compile's own, when it writes an object file: its own code
    // generation is recorded (attachRecorded attaches each function's RUVs
    // as it is costed). The recording is set up last: the clones' code
    // generation builds AsmPrinters through the same target registry. A
    // clone's level is attached to every IR SEG at once: they come off the
    // shelf first.
    std::optional<TargetSpec> Recorded;
    for (const std::string &T : C.Targets) {
      std::string Err;
      std::optional<TargetSpec> Spec =
          T == "compile" ? compileTarget(M) : parseTargetSpec(T, Err);
      if (!Spec) {
        C.Errors.push_back(Err);
        continue;
      }
      C.TargetInfo[Spec->Name] = {{"triple", Spec->Triple}, {"cpu", Spec->CPU}};
      if (T == "compile" && C.EmitsObject && !IccClone && !Recorded)
        Recorded = Spec;
      else {
        takeAllOffShelf(Waiting, ruvKey(Level::ICC, Spec->Name), C);
        cloneTarget(M, C, *Spec);
      }
    }
    std::string Why;
    if (Recorded && recordCompileCodegen(M, *Recorded, attachRecorded, Why,
                                         &C.TargetInfo[Recorded->Name])) {
      PendingIcc &P = pending().emplace(
          PendingIcc{ruvKey(Level::ICC, Recorded->Name), Recorded->Name, blockLists(M, C), {}});
      // (those a clone's level took off the shelf go back)
      for (auto &[Name, FS] : C.Functions)
        if (!FS.PackedSeg.empty())
          Waiting[Name] = shelve(FS);
      P.Shelf = std::move(Waiting);
    } else if (Recorded) { // (not recordable: Why)
      takeAllOffShelf(Waiting, ruvKey(Level::ICC, Recorded->Name), C);
      cloneTarget(M, C, *Recorded);
    }
    // The maps from M's blocks served the ICC levels only: released now
    // rather than held until the plugin writes the SEG file after code
    // generation -- unless the compile's own code generation is being
    // recorded: then finishIccLevels attaches its RUVs and releases them.
    if (!pending()) {
      releaseBlockMaps(C);
      handOverAll(C);
    }
    if (C.StripDebugInfo) {
      TimeRegion StripTime(phaseTimer("strip-debug", "line tables stripped"));
      stripLineTables(M);
    }
    notePeakMemory("code generation starts");
    return PreservedAnalyses::none();
  }
};

} // namespace

CompressedImage compressImage(std::vector<uint8_t> Raw) {
  CompressedImage Out;
  Out.RawSize = Raw.size();
  // zlib's set-up per call (deflateInit, its 64 KiB hash table cleared, the
  // block's trees) is about 170,000 instructions: more than a small image
  // is worth (sqlite3.c: 902 of 4,168 images under 1 KiB, 0.6% of the raw
  // bytes; a csmith program: about half of them).
  if (compression::zlib::isAvailable() && Raw.size() >= MinCompressedImage) {
    SmallVector<uint8_t, 0> Z;
    compression::zlib::compress(Raw, Z, compression::zlib::BestSpeedCompression);
    Out.Bytes.assign(Z.begin(), Z.end());
    Out.Compressed = true;
  } else {
    Out.Bytes = std::move(Raw);
  }
  return Out;
}

bool decompressImage(const CompressedImage &Image, std::vector<uint8_t> &Raw) {
  if (!Image.Compressed) {
    Raw = Image.Bytes;
    return true;
  }
  Raw.resize(Image.RawSize);
  size_t Size = Image.RawSize;
  if (Error E = compression::zlib::decompress(Image.Bytes, Raw.data(), Size)) {
    consumeError(std::move(E));
    return false;
  }
  return Size == Image.RawSize;
}

void finishIccLevels() {
  std::optional<PendingIcc> &P = pending();
  if (!P)
    return;
  IRCollection &C = irCollection();
  std::string Err;
  if (!finishCompileCodegen(Err)) {
    C.Errors.push_back(P->Key + ": " + Err);
    C.TargetInfo[P->Name]["error"] = Err;
  }
  takeAllOffShelf(P->Shelf, P->Key, C); // (code generation did not reach them)
  releaseBlockMaps(C);
  P.reset();
  handOverAll(C); // (functions code generation did not reach)
}

void registerSegtimePasses(PassBuilder &PB) {
  PB.registerAnalysisRegistrationCallback(
      [](FunctionAnalysisManager &FAM) { FAM.registerPass([] { return IRSegAnalysis(); }); });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, FunctionPassManager &FPM, ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "print<segtime-ir>") {
          FPM.addPass(IRSegPrinter());
          return true;
        }
        return false;
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM, ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "segtime-instrument") {
          MPM.addPass(InstrumentPass(InstrumentConfig()));
          return true;
        }
        return false;
      });
  PB.registerPipelineStartEPCallback([](ModulePassManager &MPM, OptimizationLevel) {
    if (irCollection().OnBackendStart)
      MPM.addPass(BackendStartPass());
  });
  // Component timing: before the optimiser, so that counts are source-level.
  PB.registerPipelineStartEPCallback([](ModulePassManager &MPM, OptimizationLevel) {
    IRCollection &C = irCollection();
    if (!C.Instrument.Enabled || C.Instrument.Late)
      return;
    InstrumentConfig IC = C.Instrument;
    IC.SourceNames = C.SourceNames;
    MPM.addPass(InstrumentPass(IC));
  });
  // Line tables the plugin turned on: without the loop locations that
  // change the optimiser's block order (SourceLoc.h).
  PB.registerPipelineStartEPCallback([](ModulePassManager &MPM, OptimizationLevel) {
    if (irCollection().StripDebugInfo)
      MPM.addPass(LoopLocationsPass());
  });
  // The calls' arguments before inlining (IRCollection::CallArgs).
  PB.registerPipelineStartEPCallback([](ModulePassManager &MPM, OptimizationLevel) {
    if (irCollection().Enabled)
      MPM.addPass(RecordCallArgsPass());
  });
  // Component timing of the optimised code (instrument=late): after the
  // optimiser, before the IR SEGs are built, so that the code counted is,
  // up to here, a plain compile's (InstrumentLate.cpp).
  PB.registerOptimizerLastEPCallback([](ModulePassManager &MPM, OptimizationLevel) {
    IRCollection &C = irCollection();
    if (!C.Instrument.Enabled || !C.Instrument.Late)
      return;
    InstrumentConfig IC = C.Instrument;
    IC.SourceNames = C.SourceNames;
    MPM.addPass(InstrumentPass(IC));
  });
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) { MPM.addPass(CollectPass()); });
}

} // namespace segtime
