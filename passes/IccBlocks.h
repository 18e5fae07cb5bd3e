//===- IccBlocks.h - ICC: machine blocks recorded and attributed -*- C++ -*-===//
///
/// \file
/// What the ICC level (MachineLevel.h) records of a code generation, and
/// how: per machine basic block its instructions as the AsmPrinter emits
/// them and the IR block of the costed module they count for
/// (collectBlocks), the function's blocks costed once it is printed
/// (FunctionCosting: layout padding, loop-exit jumps, BlockCoster), and the
/// RUVs handed on per IR block and IR edge (addResults). Shared by the
/// clone's code generation (MachineLevel.cpp) and the recording of the
/// compile's own (IccCompileRecording.cpp); internal to passes/.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PASSES_ICCBLOCKS_H
#define SEGTIME_PASSES_ICCBLOCKS_H

#include "passes/MachineLevel.h"
#include "passes/IRSeg.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/ValueMap.h"
#include "llvm/MC/MCInst.h"
#include "llvm/Support/Alignment.h"
#include "llvm/Support/CommandLine.h"

#include <map>
#include <set>
#include <vector>

namespace llvm {
class MachineBasicBlock;
class MachineFunction;
class MachineLoopInfo;
class MCSymbol;
class Timer;
} // namespace llvm

namespace segtime {
namespace icc {

/// -segtime-icc-dump: print every costed block's instructions and RUV.
extern llvm::cl::opt<bool> IccDump;
/// -segtime-icc-check-short-run: simulate every loop block's short run.
extern llvm::cl::opt<bool> IccCheckShortRun;
/// -segtime-icc-check-sim-memo: simulate every block whose cycles the
/// memo of pipeline inputs gives, and count those where the two differ.
extern llvm::cl::opt<bool> IccCheckSimMemo;

/// One machine basic block of the clone, in layout order.
struct BlockRecord {
  const llvm::BasicBlock *Orig = nullptr; ///< block of the original module
  const llvm::Function *OrigFn = nullptr;
  bool InLoop =
      false;      ///< inside a MachineLoop: cost per steady-state iteration
  int Number = 0; ///< MBB number, for dumps
  int OrigNumber =
      -1; ///< position of Orig in its function ("bbN" in the SEG), for dumps
  bool Inherited = false; ///< no block of its own: Orig is a neighbour's
  /// Conditional jumps to code of the same IR block that is not a loop
  /// header: selects that code generation made into branches (x86 cmov
  /// conversion, selects without a cmov). addResults hands them on as the
  /// RUV key "branch.select", which the IR SEG's attach reads and drops
  /// (docs/models.md ICC step 4).
  unsigned SelectJumps = 0;
  /// The share of the executions of its IR block in which this machine
  /// block runs (selectShares): 1, or for an arm of a select that code
  /// generation made into a branch 1/2 per such branch on the way
  /// (estimated: the outcome is data); the cost is scaled by it.
  double SelectShare = 1;
  /// One side of a select made into a branch whose side is known
  /// (selectArm): Arm, and whether this block runs when the condition of
  /// the selects of its IR block is true (ArmTrue). Its cost is then not
  /// scaled (SelectShare 1): addResults hands it on under the RUV keys
  /// selectArmKey(ArmTrue, op), which the IR SEG's attach makes into a
  /// stage run with the selects' named probability.
  bool Arm = false;
  bool ArmTrue = false;
  /// An Arm that is the second test of a branch on a logical and/or that
  /// code generation split into two jumps (selectShares): it runs when the
  /// first test is ArmTrue (`a && b`: true, `a || b`: false); handed on
  /// under selectArmKey(ArmTrue, op, true).
  bool SecondTest = false;
  /// A block of code generation's own on the IR edge Orig -> EdgeTo (one
  /// predecessor and one successor with blocks of their own: a split
  /// critical edge, a skip jump): it runs as often as that edge is taken.
  const llvm::BasicBlock *EdgeTo = nullptr;
  /// The block ends in a conditional jump and an unconditional one
  /// ("jcc T; jmp F"): the trailing jump (its last ExitJumpSize
  /// instructions, delay slot included) runs only when the conditional one
  /// is not taken, as often as the IR edge to F's block, not on every
  /// execution of the block, and is costed on that edge (record
  /// ExitJumpTo: F). ExitJumpLoop: "branch back into its loop; else jump
  /// out of it", the trailing jump runs once per loop exit, costed with
  /// the block it jumps to where no edge of its own is clear.
  int ExitJumpTo = -1;
  unsigned ExitJumpSize = 0;
  bool ExitJumpLoop = false;
  bool ExitJumpMoved = false;
  int ExitJumpNumber = -1;   ///< for dumps
  /// The only way out of a loop, charged with the block the loop leaves to
  /// (Orig): the loop's block it follows. addResults hands it on as the IR
  /// edge ExitFrom -> Orig, marked (RUV key "edge.loop.exit"): once per
  /// execution of the loop where the IR SEG knows that edge's frequency,
  /// else with Orig.
  const llvm::BasicBlock *ExitFrom = nullptr;
  /// Code alignment of the block's start (MachineBasicBlock::getAlignment;
  /// loop headers: 16 bytes on x86) and the most padding bytes allowed for
  /// it (0: no limit), as the AsmPrinter hands them to the assembler.
  llvm::Align Alignment;
  unsigned AlignMaxBytes = 0;
  /// Control can reach the next block in the layout without a branch:
  /// FallsThrough always (no branch at the end), or on the not-taken side
  /// of a conditional branch (CondFallThrough). The assembler's padding
  /// before the next block then runs as instructions (multi-byte nops).
  bool FallsThrough = false;
  bool CondFallThrough = false;
  unsigned PaddingNops = 0;  ///< nops of the padding behind it, for dumps
  std::vector<llvm::MCInst> Insts; ///< as emitted; dropped once costed
  Ruv Cost;                  ///< the ICC RUV (BlockCoster::cost)
};

/// The RUV key under which addResults hands on the count of operation Op
/// of a select's side (BlockRecord::Arm, ArmTrue): "select.arm|t|<op>"
/// (run when the condition is true) or "select.arm|f|<op>"; of a split
/// branch's second test (SecondTest): "split.second|t|<op>" (run when the
/// first test is true) or "split.second|f|<op>".
std::string selectArmKey(bool True, const std::string &Op, bool SecondTest = false);

/// Splits a key of selectArmKey into its side, operation and kind; false
/// if Key is not one.
bool parseSelectArmKey(const std::string &Key, bool &True, std::string &Op, bool &SecondTest);

/// The probability that the side of a select of block B made into a jump
/// runs, the side run when the select's condition is True:
/// "Pir_<fn>_<line>_<col>" or "(1 - Pir_...)", the parameter that the
/// condition is true, of the select's location (added to FS with the
/// estimated 1/2, irseg::selectArmSource, unless a select's parameter of
/// that name is there), or B's merge or search step's select parameter
/// (FS.DataBranch, the comparison's location); nullopt if B's selects
/// are not all at one location (FS.SelectLocs: the jump's is not known) or
/// the name is a branch's (another meaning).
std::optional<std::string> selectArmProbability(IRFunctionSeg &FS, const llvm::BasicBlock *B,
                                                bool True);

/// The probability that the second test of block B's branch on a logical
/// and/or, split by code generation into two jumps, runs, the test run when
/// the first test is True: "Pir_<fn>_<line>_<col>_first" (the probability
/// that the first test is true; added to FS with the estimated 1/2,
/// irseg::firstTestSource, the branch's location FS.SplitLocs) or
/// "(1 - Pir_..._first)"; nullopt if B's branch has no location.
/// instrument=late counts the first test (a "first-and" / "first-or"
/// record), which a CT profile gives it.
std::optional<std::string> secondTestProbability(IRFunctionSeg &FS, const llvm::BasicBlock *B,
                                                 bool True);

/// Adds R (level key Key) to the stage Id among the stages right after
/// L[I] whose ids start with Prefix, or inserts that stage after them
/// (label Label, frequency Freq, L[I]'s source range) if there is none:
/// an edge's stage after its block or loop, a select side's after its block.
void addToStageAfter(NodeList &L, size_t I, const std::string &Prefix, const std::string &Id,
                     const std::string &Label, const std::string &Freq, const std::string &Key,
                     const Ruv &R);

/// Puts each select side's RUV (ArmsOf: per stage id, per probability
/// expression of selectArmProbability, the side's ICC RUV for level key
/// Key) into list L and the lists inside it as a stage after its block's
/// ("<id>s<line>_<col>t|f", label "select arm", Freq the block's times the
/// probability), or into that stage if another target made it already.
void insertSelectArms(NodeList &L,
                      const std::map<std::string, std::map<std::string, Ruv>> &ArmsOf,
                      const std::string &Key);

/// Shared by the collector pass (which runs right before the AsmPrinter on
/// each function) and the streamer the AsmPrinter writes to.
struct Recording {
  std::vector<BlockRecord> Blocks;
  llvm::DenseMap<const llvm::MCSymbol *, unsigned> BlockOfLabel;
  std::set<const llvm::Function *> CompiledFunctions; ///< original functions
  /// Original blocks whose own machine code leaves the block through a
  /// conditional jump (not if-converted into a select or cmov).
  std::set<const llvm::BasicBlock *> CondJumps;
  /// Blocks of the current function by machine block (collectBlocks).
  llvm::DenseMap<const llvm::MachineBasicBlock *, unsigned> MBBIndex;
  unsigned FunctionBegin = 0; ///< first block of the current function
  int Current = -1;           ///< block the next instruction belongs to
  bool InText = true;         ///< current section holds code
  unsigned Unattributed = 0;

  void label(const llvm::MCSymbol *S) {
    auto It = BlockOfLabel.find(S);
    if (It != BlockOfLabel.end())
      Current = It->second;
    // Other labels (function symbol, CFI and temporary labels) do not start
    // a block: the instructions after them stay in the current block.
  }
  void block(const llvm::MachineBasicBlock *MBB) {
    auto It = MBBIndex.find(MBB);
    if (It != MBBIndex.end())
      Current = It->second;
  }
  void instruction(const llvm::MCInst &I) {
    if (Current < 0 || !InText) {
      ++Unattributed;
      return;
    }
    Blocks[Current].Insts.push_back(I);
  }
};

class BlockCoster;

/// Blocks of a code-generated module mapped to those of the costed module
/// (a ValueMap: an entry vanishes with its block).
using BlockMap = llvm::ValueMap<const llvm::BasicBlock *, const llvm::BasicBlock *>;

/// The blocks of F, in order.
std::vector<const llvm::BasicBlock *> blocksOf(const llvm::Function *F);

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
void collectBlocks(
    Recording &R, llvm::MachineFunction &MF, const llvm::MachineLoopInfo &MLI,
    const llvm::Function *OrigFn,
    llvm::function_ref<const llvm::BasicBlock *(const llvm::BasicBlock *)> OrigOf,
    llvm::function_ref<std::vector<const llvm::BasicBlock *>(const llvm::Function *)> BlocksOf,
    bool ForceLabels);

/// The phase timer of the side compile's code generation (Timing.h).
llvm::Timer *codegenTimer();

/// Costs the blocks of the function just printed (Recording::FunctionBegin
/// on), while the MCContext that owns their instructions' symbols and
/// expressions is alive, then drops the instructions: the layout padding
/// (addLayoutPadding), the loop-exit jumps moved (moveExitJumps), and
/// BlockCoster::cost per block.
class FunctionCosting {
public:
  FunctionCosting(Recording &R, BlockCoster &Coster) : R(R), Coster(Coster) {}

  void run();

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
  void addLayoutPadding();

  /// Takes each loop-exit jump out of its loop block, when the emitted
  /// instructions are as expected (an unconditional branch): to a block on
  /// the IR edge it takes (a loop exit: once per execution of the loop,
  /// IRFunctionSeg::LoopExits) when it jumps to a block of its own, else to
  /// the front of the block it jumps to.
  void moveExitJumps();

  Recording &R;
  BlockCoster &Coster;
};

/// Adds the RUVs of the costed blocks of Rec to those per block of the
/// costed module (and per IR edge with EdgeOut), and its conditional jumps
/// to CondJumpsOut.
void addResults(const Recording &Rec, std::map<const llvm::BasicBlock *, Ruv> &Out,
                EdgeRuvs *EdgeOut, std::set<const llvm::BasicBlock *> *CondJumpsOut);

/// The blocks of the compiled functions (BlocksOf(F): F's blocks) that
/// produced no code (merged or emptied by code generation) cost nothing:
/// said rather than left out.
void addEmptyBlocks(
    const std::set<const llvm::Function *> &Compiled, bool HasCycles,
    llvm::function_ref<std::vector<const llvm::BasicBlock *>(const llvm::Function *)> BlocksOf,
    std::map<const llvm::BasicBlock *, Ruv> &Out);

/// With -segtime-icc-dump: how many instructions of CPU's code generation
/// were outside every machine basic block.
void dumpUnattributed(llvm::StringRef CPU, unsigned Unattributed);

} // namespace icc
} // namespace segtime

#endif
