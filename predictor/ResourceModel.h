//===- ResourceModel.h - One resource model per level -----------*- C++ -*-===//
///
/// \file
/// A resource model turns a SEG node's RUV into time on one machine
/// (Warwick-94 §3.3). One class per level, same interface:
///  - POCModel:  t_x = N_flops / R_fpu            (Warwick-94 eq. 6)
///  - CostVectorModel: t_x = c^T f                (Warwick-94 eq. 4; HLLC,
///    INTCC and ICC, each over its own vocabulary)
/// Each level's unit (predictor/levels/LevelUnit.h) makes its model
/// (makeModel); POCModel is implemented in levels/PocUnit.cpp, ICCModel in
/// levels/IccUnit.cpp.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PREDICTOR_RESOURCEMODEL_H
#define SEGTIME_PREDICTOR_RESOURCEMODEL_H

#include "predictor/Formula.h"
#include "predictor/Machine.h"

#include <functional>
#include <memory>
#include <set>
#include <optional>
#include <utility>
#include <vector>

namespace segtime {

class ResourceModel {
public:
  virtual ~ResourceModel() = default;
  /// The level whose RUVs this model reads.
  virtual Level level() const = 0;
  /// Time in seconds of one execution of a node's own RUV. Throws
  /// std::runtime_error naming machine, level and operation if a cost is missing.
  virtual StageWeight timeWeight() const = 0;
  /// The part of timeWeight() that a branch predictor which has learned the
  /// call's sequence of data-dependent outcomes does not pay (ICC: the
  /// misprediction term), with replayHalf(); nullptr if none.
  virtual StageWeight learnableWeight() const { return nullptr; }
  /// The hard outcomes of each execution that learnableWeight() charges:
  /// count x 2 min(P, 1 - P) (one per branch of P = 1/2, as in the
  /// calibrating benchmark's random bytes; ICC: a search step weighs
  /// "branch.replay_half" / "branch.replay_half_search" where the machine
  /// file has both); nullptr if none.
  virtual StageWeight learnableOutcomes() const { return nullptr; }
  /// Data-dependent branch outcomes per call at which half of a replayed
  /// sequence is learned (ICC "branch.replay_half", `segtime calibrate`);
  /// nullopt without the entry.
  virtual std::optional<double> replayHalf() const { return std::nullopt; }
};

/// The share of a call's misprediction term that remains when the same
/// call is run again on the same data (the steady state the predictions
/// describe, as the memory term's warm caches; docs/models.md "branch
/// mispredictions"): f(M) = min(1, max(0, log2(M / H) + 1/2)) of M hard
/// outcomes per call (learnableOutcomes), H the measured half point:
/// 0 (learned) up to H / sqrt(2), 1 from H sqrt(2) on, a ramp of one octave.
GiNaC::ex unlearnedShare(const GiNaC::ex &M, double H);

/// The half point of a sweep of replayed passes (`segtime calibrate`,
/// "branch.replay_half" and "branch.replay_half_search"): Points are
/// (outcomes per pass, ascending; the unlearned share measured there,
/// 0 learned .. 1 as a pass that is never replayed). The outcomes where the
/// share last crosses 1/2 from below (scanning down from the longest pass:
/// a noisy short pass above 1/2 does not count), log-linear between the two
/// points around the crossing; 0 if there is none (the longest pass at or
/// below 1/2, or no point at or below it).
double replayHalfPoint(const std::vector<std::pair<double, double>> &Points);

/// Warwick-94 eq. 6: t_x = N_flops / R_fpu, with R_fpu the sustained rate
/// (Mflop/s) of the machine's POC cost vector, entry "flop".
class POCModel : public ResourceModel {
public:
  POCModel(const Machine &M, const std::string &Opt);
  Level level() const override { return Level::POC; }
  StageWeight timeWeight() const override;
  double rateFlopPerS() const { return Rate; }

private:
  double Rate = 0;
};

/// Warwick-94 eq. 4 for every counted level: t_x = c^T f, the inner product
/// of a cost vector c (seconds per operation) and the node's RUV f. Serves
/// HLLC (C constructs, variant = optimisation level), INTCC (IR opcode x
/// type, variant = optimisation level) and ICC (machine-level quantities such
/// as "cycles" or "instructions", variant = target CPU; Warwick-94 eq. 7 is
/// linear in its RUV and fits the same form). An operation without an entry
/// takes the entry "<opcode>.*" (INTCC: "fadd.*"), then "*"; with none of
/// them the model throws, naming machine, level, variant and operation.
class CostVectorModel : public ResourceModel {
public:
  /// Throws std::runtime_error if M has no such level or variant.
  CostVectorModel(const Machine &M, Level L, const std::string &Variant);
  Level level() const override { return Lv; }
  StageWeight timeWeight() const override;
  /// Seconds per operation Op (see the class comment for the lookup).
  double cost(const std::string &Op) const;
  /// The entry cost(Op) uses: Op, "<opcode>.*" or "*". Throws like cost.
  std::string costKey(const std::string &Op) const;
  /// The variant (optimisation level, or ICC target) of the cost vector.
  const std::string &variant() const { return Variant; }
  /// Leaves out of the inner product the calls "call.<callee>" for which
  /// Elsewhere(callee) is true: another term costs them (the INTCC and ICC
  /// library calls, costed by the machine's `library` section).
  void setCostedElsewhere(std::function<bool(const std::string &)> Elsewhere) {
    CostedElsewhere = std::move(Elsewhere);
  }

protected:
  /// RUV operations the inner product leaves out (a subclass costs them).
  std::set<std::string> Uncosted;
  /// Whether RUV operation Op is a call that setCostedElsewhere excludes.
  bool costedElsewhere(const std::string &Op) const {
    return CostedElsewhere && Op.rfind("call.", 0) == 0 && CostedElsewhere(Op.substr(5));
  }

private:
  std::function<bool(const std::string &)> CostedElsewhere;
  std::string MachineName;
  Level Lv;
  std::string Variant, RuvKey;
  std::map<std::string, double> Cost; ///< s per operation
};

/// HLLC: CostVectorModel over the HLLC RUV, variant = optimisation level.
/// At -O0 a source loop's iteration is also bounded below by its
/// loop-carried scalar chains, which the plugin records on the loop node as
/// RUVs "chain.<type>:<name>" (docs/seg-json.md): chainBound.
class HLLCModel : public CostVectorModel {
public:
  HLLCModel(const Machine &M, const std::string &Opt);
  /// The cost-vector entries of the chain latencies, s each, measured by
  /// `segtime calibrate --level hllc --opt O0` (docs/calibrate.md "Loop-carried
  /// chains"): store-to-load forwarding round trip of an integer or pointer
  /// and of a floating-point stack variable (reload + store), one integer
  /// operation, one fp add, one fp mul, one load whose address is on the chain.
  static const std::vector<std::string> &chainEntries();
  /// True if the variant has every entry of chainEntries().
  bool hasChainCosts() const { return Chain.size() == chainEntries().size(); }
  /// Whether Key is a chain's RUV key ("chain.f64:s").
  static bool isChainKey(const std::string &Key) { return Key.rfind("chain.", 0) == 0; }
  /// The optional entry of the window of restarted chains (ns in the
  /// machine file): the span T_w, in the constructs' time, of the work
  /// that overlaps one execution's chain (docs/models.md "HLLC at -O0",
  /// measured by `segtime calibrate`, docs/calibrate.md).
  static const char *windowEntry() { return "chain.window"; }
  /// The count in a chain's RUV that marks it restarted: its scalar starts
  /// afresh in each iteration of the enclosing loop (docs/seg-json.md).
  static const char *restartCount() { return "restart"; }
  /// The window T_w, s; 0 if the machine file has no chain.window.
  double chainWindow() const { return Window; }
  /// Latency of one iteration of one chain, s (docs/models.md "HLLC at
  /// -O0"): writes x forward(type) + (reads - writes) x chain.mem.read +
  /// sum over the chain's operations of their latency (fp add, sub, abs,
  /// compare and conversions: chain.fp.add; fp mul: chain.fp.mul; integer
  /// add, sub, bit, shift, compare: chain.int.op; integer mul: 3 x
  /// chain.int.op (estimated: a 3-cycle multiplier); others (div, rem,
  /// sqrt, math calls): their construct cost). forward(type) is
  /// chain.fp.forward for f32/f64 chains, else chain.int.forward. Key is the
  /// chain's RUV key, C its constructs. Requires hasChainCosts().
  double chainLatency(const std::string &Key, const Ruv &C) const;
  /// The longest chain of loop node L, s per iteration; 0 if L records none
  /// or the machine has no chain costs. Restarted: only the chains with
  /// the `restart` count (true), only the others (false), all (nullopt).
  double loopChainLatency(const Node &L, std::optional<bool> Restarted = std::nullopt) const;
  /// The chain latency per iteration of loop L that bounds it, s (an
  /// expression of Core): max(C_carried, C_restart x min(1, Core / T_w))
  /// with C_carried the longest chain without, C_restart the longest with
  /// the `restart` count, T_w = chainWindow() (docs/models.md "HLLC at -O0:
  /// restarted chains": consecutive executions' chains are independent and
  /// overlap in the window as in Little's law; the factor is the share of
  /// one execution's chain that the window does not hide). Without the
  /// window entry: the longest chain (no overlap). Core: the constructs'
  /// time of one execution of L, s.
  GiNaC::ex chainPerIteration(const Node &L, const GiNaC::ex &Core) const;
  /// The HLLC time of one execution of loop L with the chain bound (Core:
  /// the constructs' time of one execution, s; Trip: L's trip count;
  /// C = chainPerIteration(L, Core)): Trip x max(Core / Trip, C) when
  /// Core / Trip, the time of one iteration, is a number; else
  /// max(Core, Trip x C) for a loop without inner loops, and Core for one
  /// with inner loops. Core itself if L has no chain (or Trip is 0).
  GiNaC::ex chainBound(const Node &L, const GiNaC::ex &Core) const;

private:
  std::map<std::string, double> Chain; ///< chainEntries() present, s
  double Window = 0;                   ///< chain.window, s (0: absent)
};

/// ICC: CostVectorModel over the ICC:<target> RUV (core cycles x t_cyc on
/// out-of-order targets, docs/models.md), plus the time of the calls to
/// math-library functions the block makes (their code is not in the module,
/// so the machine level cannot count it): the ICC entry "call.<name>" if the
/// machine file has one, else the HLLC cost of the function's construct at
/// the same optimisation level (e.g. sin -> f64.trig; provenance: derived).
class ICCModel : public CostVectorModel {
public:
  ICCModel(const Machine &M, const std::string &Target, const std::string &Opt);
  StageWeight timeWeight() const override;
  /// Seconds per call of math-library function Name; nullopt if unknown.
  std::optional<double> libraryCallCost(const std::string &Name) const;

  /// Loop-carried chains with measured latencies (docs/models.md "ICC",
  /// loop-carried chains): the cycles of one execution of a block whose ICC
  /// RUV is C. The plugin records a loop block's critical loop-carried chain
  /// (OSACA's LCD; passes/IccChains.h) as steps per latency class
  /// ("lcd.<class>") and their model cycles ("lcd.<class>.model",
  /// "lcd.other.model"); L_model is the sum of the model cycles, L_meas the
  /// same with each class the machine file measures (ICC entries
  /// "latency.<class>", s per operation, `segtime calibrate`) at steps x its
  /// latency in cycles. With R = "rthroughput" and c = "cycles" (llvm-mca):
  ///   L_model >= R (the chain binds the block):  max(R, c - L_model + L_meas)
  ///   otherwise:                                 max(c, L_meas)
  /// i.e. cycles' = max(throughput bound, chain with measured latencies),
  /// keeping what llvm-mca adds beyond the chain. c itself when the machine
  /// file has no latency entries or C no chain of a measured class.
  /// With measured port classes (blockRThroughput: R' in place of R), a
  /// block at its port bound (c <= 1.1 R, no binding chain) moves with it:
  /// c - R + R' (at least L_meas); a block above it takes max(c, R').
  double blockCycles(const Ruv &C) const;
  /// The block's reciprocal throughput with measured port classes
  /// (docs/models.md "ICC" 4c): C's "rthroughput" R, or where the plugin
  /// recorded the class that binds it (tp.<class> = n instructions, tp.rest
  /// = the bound without them, tp.shared = the other instructions' cycles on
  /// the class's resource; passes/IccChains.h addPortClass) and the machine
  /// file has "throughput.<class>" (s per instruction, measured by `segtime
  /// calibrate` on independent operations; tau cycles): R' = max(tp.rest,
  /// tp.shared + sum over the recorded classes of n x tau). R when a
  /// recorded class has no entry. Masked vector stores (tp.store.masked = m,
  /// .rest, .shared; passes/IccChains.h addMaskedStores) with the entry
  /// "throughput.store.masked" (tau_m cycles): min(R', max(.rest, .shared +
  /// m x tau_m)); without the entry they leave R' as it was. Vector loads
  /// across a cache line (tp.load.split = s expected per iteration,
  /// .shared; passes/IccChains.h addSplitLoads, docs/models.md "ICC" 4f)
  /// with the entry "throughput.load.split" (tau_s cycles): max(that,
  /// .shared + s x tau_s).
  double blockRThroughput(const Ruv &C) const;
  /// Measured reciprocal throughputs, cycles per instruction, by class
  /// (also "store.masked").
  const std::map<std::string, double> &portThroughputs() const { return Throughput; }
  /// The port classes a machine file may measure (throughput.<class>).
  static const std::vector<std::string> &throughputClasses();
  /// Measured latencies, cycles per operation, by class ("fp.add", ...).
  const std::map<std::string, double> &chainLatencies() const { return Latency; }
  /// The latency classes a machine file may measure (latency.<class>).
  static const std::vector<std::string> &latencyClasses();
  /// The reorder buffer's capacity in micro-ops from the machine file (ICC
  /// entry "reorder_buffer", datasheet or measured): the window of
  /// overlap() in place of the scheduling model's MicroOpBufferSize, which
  /// LLVM 19 gives Zen 5 from the Zen 4 model. nullopt without the entry.
  std::optional<double> reorderBuffer() const { return Rob; }
  /// The window beyond the retiring iteration, micro-ops (ICC entry
  /// "reorder_window", measured by `segtime calibrate --level icc`): with it
  /// window() takes the smooth form (K = 1 + W / U iterations in flight,
  /// combined with the ports by max). nullopt without the entry.
  std::optional<double> retireWindow() const { return RetireWindow; }

  /// Branch mispredictions (docs/models.md "branch mispredictions"): the
  /// llvm-mca cycles assume perfect prediction. A stage whose block ends in
  /// a data-dependent conditional jump (RUV key "branch.cond.data", count
  /// per execution; probability P = Node::BranchProb) adds
  /// count x min(P, 1 - P) x penalty: the expected mispredictions of a
  /// predictor that learns the majority direction of independent outcomes.
  /// Penalty (s per misprediction): the ICC entry "branch.mispredict" if the
  /// machine file has one (`segtime calibrate`), else
  /// kDatasheetMispredictCycles x the entry "cycles" (provenance datasheet).
  double mispredictPenalty() const { return Penalty; }
  /// Where the penalty comes from ("measured: ...", "datasheet: ...").
  const std::string &mispredictProvenance() const { return PenaltyFrom; }
  /// Misprediction time (s) of one execution of a stage: Count x min(P,
  /// 1 - P) x Penalty, P the probability expression of its branch -- when
  /// every parameter of P is a measured or given outcome (setKnownOutcomes),
  /// else 0: BranchProbabilityInfo's static guesses (50 % for a
  /// floating-point compare) are not outcome frequencies, and min(P, 1 - P)
  /// of a guess charged floyd's rarely taken `if` half a misprediction per
  /// execution (+546 %; docs/models.md "branch mispredictions").
  /// Chain: the stage's search steps (RUV key "branch.chain.load", a load
  /// whose address the branch's outcome steers; docs/models.md ICC step
  /// 4d): each mispredicted one also waits for its load, + Chain x min(P,
  /// 1 - P) x chainLatency().
  GiNaC::ex mispredictTime(double Count, const std::string &Prob, double Chain = 0) const;
  /// mispredictTime of each stage (ResourceModel::learnableWeight).
  StageWeight learnableWeight() const override;
  StageWeight learnableOutcomes() const override;
  std::optional<double> replayHalf() const override { return ReplayHalf; }
  /// Latency (s) a mispredicted search step exposes: the ICC entry
  /// "latency.load" (the measured dependent-load latency, an L1 hit), 0
  /// without it.
  double chainLatency() const;
  /// Parameters whose values are measured (CT profile) or given by the
  /// user: the branch probabilities the misprediction term may use.
  void setKnownOutcomes(std::set<std::string> Names) { KnownOutcomes = std::move(Names); }
  /// Datasheet fallback of the penalty, cycles: Intel Ice Lake / Sunny Cove
  /// ~17 cycles (Agner Fog, The microarchitecture of Intel, AMD and VIA
  /// CPUs, "Ice Lake and Tiger Lake: branch misprediction penalty").
  static constexpr double kDatasheetMispredictCycles = 17;

  /// Out-of-order overlap of loop iterations (docs/models.md, "ICC"): the
  /// per-block "cycles" are llvm-mca steady states of the block repeated on
  /// its own, which serialise on the block's register dependences. Where
  /// iterations overlap in the core's window of MicroOpBuffer micro-ops the
  /// resource bound "rthroughput" applies instead:
  ///  - a loop whose body has several blocks (or inner loops): its blocks
  ///    cost rthroughput (a block's dependences are not a loop-carried
  ///    chain of the real loop);
  ///  - a loop with inner loops and no floating-point recurrence of its own
  ///    (Node::Chain empty: its iterations are independent) overlaps its
  ///    iterations in the window (ICCModel::window);
  ///  - a single-block loop nested in another loop: it overlaps with the
  ///    next execution for W = MicroOpBuffer / uops iterations, saving
  ///    (cycles - rthroughput) x min(trip, W) cycles per execution; not if
  ///    its floating-point chain goes on into the next execution (Node::Chain
  ///    "continued").
  /// Returns the adjusted Core (s). MicroOpBuffer <= 0: Core.
  GiNaC::ex overlap(const Node &Loop, const GiNaC::ex &Core, int Depth,
                    double MicroOpBuffer) const;
  /// Overlap of independent iterations that contain dependence chains
  /// (Little's law, docs/models.md "ICC"): each iteration of Loop carries
  /// chains of C cycles (the loops with a floating-point recurrence in its
  /// body, Node::Chain: trip x their block's cycles); the window holds
  /// W = MicroOpBuffer / U iterations (U the reorder buffer's micro-ops per
  /// iteration: uops - uops.macro_fused), so the chains bound the execution
  /// to trip x C x U / MicroOpBuffer x t_cyc (Little's law: latency over
  /// iterations in flight), the ports to trip x rthroughput x t_cyc. Near
  /// the window's limit the two bounds do not overlap perfectly: they
  /// combine as a p-norm with exponent kWindowExponent (the form of core and
  /// memory, predictor/Overlap.h); this replaces Core (s), in which the
  /// nested loops' own overlap assumed all their executions overlap. Core
  /// if an iteration does not fit the window (U > MicroOpBuffer), the body
  /// has no chain, calls a function or its sums depend on a loop index.
  /// With the machine file's "reorder_window" W (retireWindow) the smooth
  /// form instead (windowTime): K = 1 + W / U iterations in flight at any
  /// U, max(ports, chains / K); MicroOpBuffer is not used.
  GiNaC::ex window(const Node &Loop, const GiNaC::ex &Core, const GiNaC::ex &Trip,
                   double MicroOpBuffer) const;
  /// Exponent of the window's p-norm (see window): assumed, not measured.
  static constexpr double kWindowExponent = 2;
  /// The smooth window form (docs/models.md "ICC" 2c), seconds per
  /// execution of a loop of Trip iterations, each with chains of Chain
  /// cycles, U reorder-buffer micro-ops and a port bound of R cycles, at the
  /// cycle time TCyc (s) and the window W beyond the retiring iteration
  /// (micro-ops): the oldest iteration in flight is retiring, W / U more
  /// are in the window, so K = 1 + W / U iterations overlap their chains
  /// (Little's law: chains / K per iteration) and the throughput bound
  /// (OSACA, Laukemann et al. 2019) is the larger of that and the ports:
  ///   t = TCyc x Trip x max(R, Chain x U / (U + W)).
  /// No step in U: one iteration much larger than the window (U >> W)
  /// keeps its whole chain, one much smaller is Little's law over W / U.
  static GiNaC::ex windowTime(const GiNaC::ex &Trip, const GiNaC::ex &Chain,
                              const GiNaC::ex &U, const GiNaC::ex &R, double W, double TCyc);

private:
  double Penalty = 0;      ///< s per misprediction
  std::optional<double> ReplayHalf; ///< "branch.replay_half", outcomes per call
  /// "branch.replay_half_search", outcomes per call: the half point of
  /// replayed binary searches (learnableOutcomes)
  std::optional<double> ReplayHalfSearch;
  std::set<std::string> KnownOutcomes; ///< see setKnownOutcomes
  std::string PenaltyFrom; ///< provenance of Penalty
  std::map<std::string, double> CallCost; ///< ICC "call.<name>" entries, s per call
  std::map<std::string, double> HllcCost; ///< HLLC construct -> s, same -O variant
  std::map<std::string, double> Latency;  ///< "latency.<class>" entries, cycles
  std::map<std::string, double> Throughput; ///< "throughput.<class>" entries, cycles
  std::optional<double> Rob;               ///< "reorder_buffer", micro-ops
  std::optional<double> RetireWindow;      ///< "reorder_window", micro-ops
  /// The smooth window form of Loop's execution (s; windowTime per
  /// iteration, summed over Loop's counter where the iteration's chains,
  /// micro-ops or ports depend on it: a triangular nest); nullopt without
  /// "reorder_window", or if the body has no chain, calls a function or
  /// depends on an enclosing loop's counter.
  std::optional<GiNaC::ex> smoothWindow(const Node &Loop, const GiNaC::ex &Trip) const;
};

/// Model for level L (POC, HLLC, INTCC, ICC: levelUnit(L).makeModel); Opt is the SEG's
/// optimisation level, Target the ICC target, KnownOutcomes the parameters
/// whose values are measured or given (ICCModel::setKnownOutcomes). Throws
/// std::invalid_argument for other levels, std::runtime_error for missing
/// machine data.
std::unique_ptr<ResourceModel> makeModel(Level L, const Machine &M,
                                         const std::string &Opt,
                                         const std::string &Target = "",
                                         std::set<std::string> KnownOutcomes = {});

} // namespace segtime

#endif
