//===- Templates.h - Farm, D&C and heterogeneous-NOW models ----*- C++ -*-===//
///
/// \file
/// Analytic performance models of parallel templates. A library: it computes,
/// never prints (tools/Templates.cpp prints the reports).
///
///  - Processor farm on a balanced k-ary tree of N levels (UBC-91 §3.2):
///    steady-state throughput S_N by recurrence (d) and closed form (f) (eq.
///    (e) is the binary case), task fractions f_i, start-up cost, execution
///    time (g) and speedup. k = 1 is a linear chain.
///  - Divide and conquer (UBC-91 §3.3): recurrence (j), limit S_max (k),
///    start-up cost and speedup.
///  - Peak operating point and granularity (UBC-91 §5, Figs. 4 and 5).
///  - The general framework (UBC-91 §3.1): the linear system of N + 1
///    equations in f_1..f_N and T for any tree topology, solved with Eigen.
///  - Heterogeneous networks of workstations (UTSA-95): power weights (eqs.
///    1, 2), heterogeneity H (eq. 4), parallelism degree (eq. 5), speedup
///    (Definition 1 and Property 1, eq. 6), efficiency (eqs. 10-14), average
///    overhead latency and latency unit (eqs. 15, 16), scalability (eq. 17).
///
/// Units: times in seconds, throughputs in tasks per second. Levels are
/// numbered as in UBC-91: 1 at the leaves, N at the root. Per-level vectors
/// hold level 1 at index 0. Every function throws std::invalid_argument, with
/// the name of the offending parameter, for invalid input.
///
/// UTSA-95 uses the labels (1) and (2) twice (power weight and Definition 1's
/// speedup; power weight from times and the standard deviation); here
/// "eq. 1"/"eq. 2" are the power-weight equations and the speedup is cited
/// as "Definition 1".
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PREDICTOR_TEMPLATES_H
#define SEGTIME_PREDICTOR_TEMPLATES_H

#include <cstdint>
#include <string>
#include <vector>

namespace segtime {

//===----------------------------------------------------------------------===//
// Processor farm (UBC-91 §3.2)
//===----------------------------------------------------------------------===//

/// A processor farm on a balanced k-ary tree of N levels.
struct FarmParams {
  unsigned Arity = 2;      ///< k >= 1 children per processor (1: linear chain)
  unsigned Levels = 1;     ///< N >= 1 levels (1 = leaves, N = root)
  double TaskTime = 0;     ///< T_e > 0, s: execution time of one task
  double BetaE = 0;        ///< β_e >= 0, s: non-overlapped communication
                           ///< start-up per task executed locally
  double BetaF = 0;        ///< β_f >= 0, s: start-up per task forwarded to a
                           ///< child (and its result returned)
  double TransferTime = 0; ///< T_τ >= 0, s: link transfer time of one task
  std::uint64_t Tasks = 1; ///< M >= 1 tasks
};

/// Which constraint sets the farm's (or D&C's) throughput.
enum class ThroughputLimit {
  SteadyState, ///< the paper's steady state: every processor busy
  Forwarding,  ///< a processor spends all its time forwarding (1/β_f, or
               ///< 1/(T_s + T_j + β_f) for D&C, UBC-91 eq. (k))
  Transfer,    ///< the root cannot receive tasks faster (UBC-91 §3.1,
               ///< 1/(T_τ + β_e))
};
const char *throughputLimitName(ThroughputLimit L); ///< "steady-state", ...

/// Everything the farm model predicts for one FarmParams.
struct FarmResult {
  FarmParams Params;
  double Processors = 0;                ///< (k^N − 1)/(k − 1), N for k = 1
  double A = 0;                         ///< a = k(T_e + β_e − β_f)/(T_e + β_e)
  std::vector<double> LevelThroughputs; ///< S_1..S_N of recurrence (d), tasks/s
  double ThroughputRecurrence = 0;      ///< S_N by (d), tasks/s
  double ThroughputClosedForm = 0;      ///< S_N by (f), tasks/s
  double ForwardLimit = 0;              ///< 1/β_f, tasks/s (+inf when β_f = 0)
  double TransferLimit = 0;             ///< 1/(T_τ + β_e), tasks/s (+inf when 0)
  double Throughput = 0;                ///< what the system delivers, tasks/s (see
                                        ///< analyzeFarm)
  ThroughputLimit Limit = ThroughputLimit::SteadyState;
  std::vector<double> SteadyFractions; ///< f_i of the paper (may be < 0 when
                                       ///< the steady state is infeasible)
  std::vector<double> Fractions;       ///< f_i actually executed, level totals
  double Startup = 0;                  ///< T_startup, s
  double Time = 0;                     ///< T for M tasks, eq. (g), s
  double SequentialTime = 0;           ///< M·T_e, s
  double Speedup = 0;                  ///< SP_N = M·T_e / T
  double SpeedupClosedForm = 0;        ///< corrected closed form after eq. (g)
  double Efficiency = 0;               ///< SP_N / processors
};

/// Number of processors of a balanced k-ary tree of N levels: Σ_{i<N} k^i.
double treeProcessors(unsigned Arity, unsigned Levels);

/// UBC-91 eq. (d), generalised to k children: S_0 = 0,
///   S_i = k·S_{i−1}·(T_e + β_e − β_f)/(T_e + β_e) + 1/(T_e + β_e),
/// the throughput (tasks/s) of a subtree rooted at level i. Returns S_1..S_N.
std::vector<double> farmLevelThroughputs(const FarmParams &P);

/// UBC-91 eq. (f) (eq. (e) for k = 2), tasks/s:
///   S_N = [1 − a^N] / [(T_e + β_e) − k(T_e + β_e − β_f)],
///   a = k(T_e + β_e − β_f)/(T_e + β_e);  S_N = N/(T_e + β_e) when a = 1.
double farmThroughputClosedForm(const FarmParams &P);

/// Task fractions f_1..f_N (level totals, Σ f_i = 1) of the steady state,
/// from (a)-(c): F_i = S_i/S_N per subtree, f_i = k^{N−i}(S_i − k S_{i−1})/S_N.
std::vector<double> farmSteadyFractions(const FarmParams &P);

/// The paper's closed form of the fractions (after eq. (e)), generalised to k:
///   f_i = k^{N−i} [(1 − k) + a^{i−1}(k − a)] / (1 − a^N),
/// which for k = 2 is UBC-91's 2^{N−i}(2a^{i−1} − a^i − 1)/(1 − a^N).
std::vector<double> farmFractionsClosedForm(const FarmParams &P);

/// UBC-91 §3.2.2, s: T_startup = (N − 1)(2T_τ + β_f) + T_e + β_e.
double farmStartup(const FarmParams &P);

/// The corrected closed-form speedup of a k-ary tree. UBC-91 prints
///   SP_N = M T_e (1 − a^N) / [(M − 1)(T_e + β_e) − k(T_e + β_e − β_f)
///                             + T_startup (1 − a^N)],
/// which drops the factor (M − 1) on the k(…) term; substituting (f) in (g)
/// gives
///   SP_N = M T_e (1 − a^N) / [(M − 1)((T_e + β_e) − k(T_e + β_e − β_f))
///                             + T_startup (1 − a^N)].
double farmSpeedupClosedForm(const FarmParams &P);

/// The farm model. Throughput is the paper's S_N when its steady state holds;
/// otherwise the constraint that binds:
///  - forwarding: with forwarding at high priority (UBC-91 §4.1), a processor
///    forwards r_i = min(k S_{i−1}, 1/β_f) tasks/s and executes the rest of
///    its time, S_i = r_i (1 − β_f/(T_e + β_e)) + 1/(T_e + β_e); this is (d)
///    while k S_{i−1} β_f <= 1, i.e. while every f_i of the paper is >= 0;
///  - transfer: at most 1/(T_τ + β_e) tasks/s enter the root (UBC-91 §3.1).
/// Fractions are then the forward-priority distribution (children fed first),
/// which equals SteadyFractions in the steady state. Time is eq. (g),
/// T = T_startup + (M − 1)/Throughput, and Speedup = M·T_e/T.
FarmResult analyzeFarm(const FarmParams &P);

/// Speedup SP_N for N = 1..MaxLevels, other parameters fixed (UBC-91 Fig. 4).
std::vector<double> farmSpeedupCurve(FarmParams P, unsigned MaxLevels);

/// The peak operating point (UBC-91 §2.2, §5): the smallest N such that one
/// more level raises the speedup by less than Threshold (relative), i.e.
/// SP_{N+1} < (1 + Threshold)·SP_N. Found is false if no N < MaxLevels
/// qualifies (then Levels = MaxLevels).
struct PeakPoint {
  unsigned Levels = 0;
  double Processors = 0;
  double Speedup = 0;
  bool Found = false;
};
PeakPoint farmPeak(FarmParams P, double Threshold = 0.01, unsigned MaxLevels = 64);

/// One row of a granularity study: Granularity original tasks packed into one
/// message (UBC-91 §5, Fig. 5), so T_e and T_τ scale by g, β_e and β_f stay,
/// and ceil(M/g) messages are processed; speedup is against M·T_e.
struct GranularityRow {
  unsigned Granularity = 1;
  double TaskTime = 0;         ///< g·T_e, s
  std::vector<double> Speedup; ///< for N = 1..MaxLevels
  PeakPoint Peak;
};
/// Farm parameters with G tasks per message (see GranularityRow).
FarmParams farmPacked(const FarmParams &P, unsigned G);
std::vector<GranularityRow> farmGranularity(const FarmParams &P,
                                            const std::vector<unsigned> &Grains, unsigned MaxLevels,
                                            double Threshold = 0.01);

//===----------------------------------------------------------------------===//
// Divide and conquer (UBC-91 §3.3)
//===----------------------------------------------------------------------===//

/// Divide and conquer on a balanced k-ary tree of N levels, the task graph
/// having the same degree. Per-level vectors have N entries, index 0 = level
/// 1 (leaves); the leaves never split, so SplitTime[0], JoinTime[0] and
/// TransferTime[0] are not used.
struct DCParams {
  unsigned Arity = 2;               ///< k >= 1 (only counts processors)
  unsigned Levels = 1;              ///< N >= 1
  std::vector<double> TaskTime;     ///< T_e(i) > 0, s: executing a level-i
                                    ///< (sub)task; T_e(N) is a whole task
  std::vector<double> SplitTime;    ///< T_s(i) >= 0, s
  std::vector<double> JoinTime;     ///< T_j(i) >= 0, s
  std::vector<double> TransferTime; ///< T_τ(i) >= 0, s: transmission of a
                                    ///< subtask's data at level i
  double BetaE = 0;                 ///< β_e >= 0, s
  double BetaF = 0;                 ///< β_f >= 0, s
  std::uint64_t Tasks = 1;          ///< M >= 1
};

/// Uniform D&C parameters: T_e(i) = T_e / k^{N−i} (a whole task of T_e split
/// evenly), the same T_s, T_j, T_τ at every level.
DCParams dcUniform(unsigned Arity, unsigned Levels, double WholeTaskTime, double SplitTime,
                   double JoinTime, double TransferTime, double BetaE, double BetaF,
                   std::uint64_t Tasks);

struct DCResult {
  DCParams Params;
  double Processors = 0;
  std::vector<double> LevelThroughputs; ///< S_1..S_N of eq. (j), tasks/s
  double ThroughputRecurrence = 0;      ///< S_N of (j), tasks/s
  double SMax = 0;                      ///< eq. (k), tasks/s (+inf for N = 1
                                        ///< or t_max + β_f = 0)
  double ThroughputPaperRule = 0;       ///< S_N if S_1 < S_max, else S_max
  double Throughput = 0;                ///< what the system delivers, tasks/s
  ThroughputLimit Limit = ThroughputLimit::SteadyState;
  std::vector<double> SteadyFractions; ///< f_i = (S_i − S_{i−1})/S_N (may be
                                       ///< < 0 off the steady state)
  std::vector<double> Fractions;       ///< fractions of whole tasks each
                                       ///< level executes
  double Startup = 0;                  ///< s
  double Time = 0;                     ///< T_startup + (M − 1)/Throughput, s
  double SequentialTime = 0;           ///< M·T_e(N), s
  double Speedup = 0;
  double Efficiency = 0; ///< speedup / processors
};

/// UBC-91 eq. (j): S_0 = 0,
///   S_i = S_{i−1} (T_e(i) + β_e − T_s(i) − T_j(i) − β_f)/(T_e(i) + β_e)
///         + 1/(T_e(i) + β_e),
/// the throughput (whole tasks/s) of levels 1..i. Returns S_1..S_N.
std::vector<double> dcLevelThroughputs(const DCParams &P);

/// UBC-91 eq. (k): S_max = 1/(t_max + β_f), t_max = max_{2<=i<=N} (T_s(i) +
/// T_j(i)); +inf when N = 1 (nothing is split) or t_max + β_f = 0.
double dcSMax(const DCParams &P);

/// UBC-91 §3.3.2, s: T_startup = Σ_{i=2}^{N} (2T_τ(i) + T_s(i) + T_j(i) + β_f)
///                               + T_e(1) + β_e.
double dcStartup(const DCParams &P);

/// The D&C model. UBC-91 §3.3.1: "If S_1 obtained by equation (j) is less
/// than S_max, then S_N … is the actual throughput … Otherwise, the
/// throughput is S_max" and the inner levels should only split
/// (ThroughputPaperRule). Throughput generalises this level by level, as for
/// the farm: with splitting at high priority, level i forwards r_i =
/// min(S_{i−1}, 1/(T_s(i) + T_j(i) + β_f)) tasks/s and executes in the rest
/// of its time, S_i = r_i + (1 − r_i (T_s(i) + T_j(i) + β_f))/(T_e(i) + β_e).
/// That is (j) while no level saturates (every steady-state f_i >= 0), and
/// S_max when the leaves alone outrun the splitting (S_1 >= S_max). The two
/// rules agree when T_s + T_j is the same on every level and T_e(i) does not
/// shrink toward the root (dcUniform); otherwise the paper's rule can return
/// an S_N with negative fractions.
/// SP_N = M T_e(N) / (T_startup + (M − 1)/Throughput).
DCResult analyzeDC(const DCParams &P);

/// Speedup for N = 1..MaxLevels of uniform parameters (see dcUniform).
std::vector<double> dcSpeedupCurve(unsigned Arity, double WholeTaskTime, double SplitTime,
                                   double JoinTime, double TransferTime, double BetaE, double BetaF,
                                   std::uint64_t Tasks, unsigned MaxLevels);
/// Peak operating point of uniform D&C parameters (definition as farmPeak).
PeakPoint dcPeak(unsigned Arity, double WholeTaskTime, double SplitTime, double JoinTime,
                 double TransferTime, double BetaE, double BetaF, std::uint64_t Tasks,
                 double Threshold = 0.01, unsigned MaxLevels = 64);

//===----------------------------------------------------------------------===//
// General framework (UBC-91 §3.1)
//===----------------------------------------------------------------------===//

/// The N + 1 equations of UBC-91 §3.1 with all T_i = T:
///   T/M = f_i (T_e(i) + β_e) + F_i (T_s(i) + T_j(i) + β_f),  i = 1..N,
///   Σ f_i = 1,   F = Forward · f,
/// in the unknowns f_1..f_N and T/M. Unit i is a processor (or a level).
struct FrameworkSystem {
  std::vector<double> ExecCost;             ///< T_e(i) + β_e, s per task executed by i
  std::vector<double> ForwardCost;          ///< T_s(i) + T_j(i) + β_f, s per task i
                                            ///< splits/forwards
  std::vector<std::vector<double>> Forward; ///< N×N: F_i = Σ_j Forward[i][j] f_j
};

struct FrameworkSolution {
  std::vector<double> Fractions; ///< f_i
  std::vector<double> Forwarded; ///< F_i
  double TimePerTask = 0;        ///< T/M, s
  double Throughput = 0;         ///< M/T, tasks/s
  bool Feasible = true;          ///< every f_i >= 0 (else the steady state
                                 ///< the framework assumes does not exist)
};

/// Solves the system with Eigen (full-pivot LU). Throws std::invalid_argument
/// for mismatched sizes, negative costs or a singular system.
FrameworkSolution solveFramework(const FrameworkSystem &S);

/// A processor farm on any tree: Parent[i] is φ(i), the parent of processor
/// i, or −1 for the single root. Processor i forwards exactly the tasks its
/// descendants execute: F_i = Σ_{j below i} f_j. TaskTime has one entry per
/// processor (heterogeneous processors allowed) or one for all.
FrameworkSystem farmOnTree(const std::vector<int> &Parent, const std::vector<double> &TaskTime,
                           double BetaE, double BetaF);

/// Depth of the deepest processor of a parent list (the root has depth 0);
/// validates the list (one root, no cycles, parents in range).
unsigned treeDepth(const std::vector<int> &Parent);

/// The parent list of a balanced k-ary tree of N levels, breadth first
/// (processor 0 is the root).
std::vector<int> balancedTreeParents(unsigned Arity, unsigned Levels);

/// A processor farm on an arbitrary tree (UBC-91 §3.1 applied to §3.2).
struct TreeFarmParams {
  std::vector<int> Parent;      ///< φ(i), −1 for the root
  std::vector<double> TaskTime; ///< T_e(i) > 0 per processor, or one for all
  double BetaE = 0, BetaF = 0;  ///< s
  double TransferTime = 0;      ///< T_τ, s
  std::uint64_t Tasks = 1;      ///< M
};
struct TreeFarmResult {
  FrameworkSolution Framework;   ///< the §3.1 linear system (the paper's
                                 ///< steady state; Feasible says if it exists)
  std::vector<double> Fractions; ///< tasks each processor executes (forward
                                 ///< priority; = Framework.Fractions when
                                 ///< feasible)
  double Processors = 0;
  unsigned Depth = 0;       ///< edges from the root to the deepest leaf
  double TransferLimit = 0; ///< 1/(T_τ + β_e), tasks/s
  double Throughput = 0;    ///< tasks/s
  ThroughputLimit Limit = ThroughputLimit::SteadyState;
  double Startup = 0;        ///< max_i depth(i)(2T_τ + β_f) + T_e(i) + β_e
  double Time = 0;           ///< eq. (g), s
  double SequentialTime = 0; ///< M · min_i T_e(i), s (fastest processor)
  double Speedup = 0;
  double Efficiency = 0;
};
/// Solves the framework and, with forwarding at high priority, the capacity
/// of every subtree bottom-up: processor i forwards r_i = min(Σ_children
/// capacity, 1/β_f) and executes in the rest of its time. On a balanced tree
/// this is analyzeFarm.
TreeFarmResult analyzeFarmOnTree(const TreeFarmParams &P);

/// Divide and conquer by levels: unit i is level i + 1, F_i = Σ_{j<i} f_j
/// (UBC-91 §3.3.1); solving it reproduces recurrence (j).
FrameworkSystem dcLevelSystem(const DCParams &P);

//===----------------------------------------------------------------------===//
// Heterogeneous networks of workstations (UTSA-95)
//===----------------------------------------------------------------------===//

/// UTSA-95 eq. 1: W_i = S_i / max_j S_j (speeds in any common unit, > 0).
std::vector<double> powerWeightsFromSpeeds(const std::vector<double> &Speeds);
/// UTSA-95 eq. 2: W_i = min_j T(A, M_j) / T(A, M_i), from the times (s, > 0)
/// of the same program measured or predicted on each machine.
std::vector<double> powerWeightsFromTimes(const std::vector<double> &Times);
/// UTSA-95 eq. 4 (Definition 2): H = Σ_j (1 − W_j) / m, in [0, 1).
double heterogeneity(const std::vector<double> &Weights);
/// UTSA-95 eq. 5: P_deg = Σ_j T_j^act / T(A, HN).
double parallelismDegree(const std::vector<double> &ActiveTimes, double ParallelTime);
/// UTSA-95 Property 1, eq. 6: SP = P_deg (1 − H).
double heteroSpeedupProperty1(double ParallelismDegree, double Heterogeneity);
/// UTSA-95 Definition 1: SP = min_j T(A, M_j) / T(A, HN).
double heteroSpeedup(const std::vector<double> &SingleTimes, double ParallelTime);
/// UTSA-95 eq. 10 (Definition 3):
///   E = Σ_j W_j |A_j|/S_j / Σ_j (T(A, HN) − T_j^owner) W_j.
/// CpuTimes[j] = |A_j|/S_j (s), OwnerTimes[j] = T_j^owner (s).
double heteroEfficiency(const std::vector<double> &Weights, const std::vector<double> &CpuTimes,
                        const std::vector<double> &OwnerTimes, double ParallelTime);
/// UTSA-95 eq. 11: Δ_A = (|A| / max_j S_j) / min_j T(A, M_j), in (0, 1].
double workloadFactor(double DedicatedFastestTime, double FastestTime);
/// UTSA-95 eq. 12 (Property 2): E = SP Δ_A / Σ_j (1 − U_j) W_j, with the owner
/// utilisation U_j = T_j^owner / T(A, HN) in [0, 1).
double heteroEfficiencyFromSpeedup(double Speedup, double DeltaA,
                                   const std::vector<double> &OwnerUtil,
                                   const std::vector<double> &Weights);
/// UTSA-95 eq. 13: the speedup at which E = 1, Σ_j (1 − U_j) W_j / Δ_A; a
/// larger speedup is superlinear.
double linearSpeedup(double DeltaA, const std::vector<double> &OwnerUtil,
                     const std::vector<double> &Weights);
/// UTSA-95 eq. 14 (dedicated: U_j = 0, Δ_A = 1): E = SP / Σ_j W_j.
double dedicatedEfficiency(double Speedup, const std::vector<double> &Weights);
/// UTSA-95 eq. 15: L_ave = Σ_j overhead(j) W_j, s.
double averageOverheadLatency(const std::vector<double> &Overheads,
                              const std::vector<double> &Weights);
/// UTSA-95 eq. 16 (Definition 5): L = Σ_j overhead(j) W_j / Σ_j W_j, s per
/// power unit.
double averageLatencyUnit(const std::vector<double> &Overheads, const std::vector<double> &Weights);
/// UTSA-95 eq. 17 (Definition 6): scale_e = L_e(A(I_1), HN_1) / L_e(A(I_2),
/// HN_2), both latency units measured at the same efficiency e.
double heteroScalability(double LatencyUnit1, double LatencyUnit2);

/// A parallel program on a NOW: what the machines are and how the work is
/// spread. Vectors have one entry per workstation (OwnerUtil, WorkShare and
/// CommTime may be empty: 0, balanced and 0).
struct HeteroParams {
  std::vector<double> Speeds;    ///< S_j > 0, operations/s (dedicated)
  std::vector<double> OwnerUtil; ///< U_j in [0, 1): owner workload share
  std::vector<double> WorkShare; ///< |A_j| / |A| >= 0, normalised to sum 1;
                                 ///< empty: proportional to (1 − U_j) S_j
  std::vector<double> CommTime;  ///< s of communication the parallel task of
                                 ///< machine j adds to its computation
  double Size = 0;               ///< |A| > 0, operations
};

/// Every UTSA-95 metric of one run, from an execution model: machine j
/// computes for T_j^eff = |A_j|/S_j, communicates for CommTime[j], and gets
/// a share (1 − U_j) of its CPU (owner workload spread evenly, as in
/// UTSA-95 §4.3), so T(A, HN) = max_j (T_j^eff + comm_j)/(1 − U_j); single-
/// machine times are T(A, M_j) = |A| / (S_j (1 − U_j)) (nondedicated, as eq.
/// 11 reads min_j T(A, M_j)); T_j^owner = U_j T(A, HN); overhead(j) =
/// T(A, HN) − T_j^owner − T_j^eff; the active time of eq. 5 is T_j^eff.
struct HeteroResult {
  std::vector<double> Weights;       ///< W_j, eq. 1
  double Heterogeneity = 0;          ///< H, eq. 4
  double TotalPower = 0;             ///< Σ_j W_j
  std::vector<double> WorkShare;     ///< |A_j|/|A|
  std::vector<double> CpuTimes;      ///< T_j^eff, s
  std::vector<double> SingleTimes;   ///< T(A, M_j), s
  double ParallelTime = 0;           ///< T(A, HN), s
  double ParallelismDegree = 0;      ///< P_deg, eq. 5
  double Speedup = 0;                ///< Definition 1
  double SpeedupProperty1 = 0;       ///< P_deg (1 − H), eq. 6: equals
                                     ///< Speedup when the machines are
                                     ///< dedicated and every |A_j| ∝ S_j;
                                     ///< otherwise eq. 5 and eqs. 8-9 of
                                     ///< the proof disagree
  double DeltaA = 0;                 ///< eq. 11
  double Efficiency = 0;             ///< eq. 10
  double EfficiencyProperty2 = 0;    ///< eq. 12 (equals eq. 10)
  double LinearSpeedup = 0;          ///< eq. 13
  std::vector<double> Overheads;     ///< overhead(j), s
  double AverageOverheadLatency = 0; ///< L_ave, eq. 15, s
  double LatencyUnit = 0;            ///< L, eq. 16, s
};
HeteroResult analyzeHetero(const HeteroParams &P);

} // namespace segtime

#endif
