//===- MachineWriter.cpp - segtime calibrate: the machine file written ----===//
///
/// \file
/// Writes or updates the machine file (schema segtime.machine/1) of a
/// calibrate run (CalibRun.h): the levels measured as YAML text merged with
/// the levels, variants and parameters of an existing file, then checked
/// with readMachine.
///
//===----------------------------------------------------------------------===//
#include "tools/calib/CalibRun.h"

#include "core/Seg.h"
#include "core/Vocabulary.h"
#include "predictor/CostFit.h"
#include "predictor/Expr.h"
#include "predictor/Formula.h"
#include "predictor/Install.h"
#include "predictor/Machine.h"
#include "predictor/Parkbench.h"
#include "predictor/ResourceModel.h"
#include "tools/calib/BenchSource.h"
#include "tools/calib/KernelSources.h"
#include "tools/calib/LowLevel.h"
#include "tools/calib/Process.h"
#include "tools/calib/TrainingSource.h"

#include <Eigen/Dense>

#include <algorithm>
#include <functional>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <sys/utsname.h>
#include <thread>
#include <type_traits>
#include <unistd.h>


namespace segtime::calib {

namespace {

/// The provenance of a cost scaled by the training fit: "; c0 = X ns
/// (construct benchmarks) x s_group = Y (training fit: N kernels, ...)".
std::string trainingRef(const HllcResult &H, size_t G, double BaseNs) {
  const GroupFit &F = H.Train->Fit;
  std::string R = "; construct-benchmark cost " + num(BaseNs, 4) + " ns x multiplier s_" +
                  F.Groups[G] + " = " + num(F.S[G], 4);
  if (heldAtOne(F.Groups[G]))
    return R + " (group " + F.Groups[G] + " held at 1: library calls are timed directly by "
               "their construct benchmarks)";
  if (!F.Determined[G])
    return R + " (group " + F.Groups[G] + " carries < 1 % of every training kernel's time: "
               "not fitted)";
  if (F.Fixed[G])
    R += " (least-squares value " + num(F.LsS[G], 3) + " < 0, fixed at 0)";
  return R + " (training fit of group " + F.Groups[G] + " over " +
         std::to_string(F.Rel.size()) + " kernels, weights 1/t: rms residual " +
         num(F.RmsRel * 100, 3) + " %, leave-one-out rms " + num(F.RmsLoo * 100, 3) +
         " %; docs/calibrate.md)";
}

/// Level key -> variant -> the YAML text of that variant in the `levels`
/// section (its key line and body).
using LevelTexts = LevelMap<std::map<std::string, std::string>>;

/// The rest of one cost entry of a CalibFit::Costs level (HLLC, INTCC) after
/// its value: the construct-benchmark cost c0 and, after a training fit, its
/// group's multiplier (trainingRef). Why: what a negative fit means.
std::string costEntry(const HllcResult &H, size_t J, std::string Ref, const char *Why) {
  if (H.Fixed[J])
    Ref += "; least-squares value " + num(H.LsNs[J], 3) + " ns < 0 (" + Why +
           "): written as 0, no spread";
  std::optional<double> Spread = H.Spread[J];
  if (H.Train) {
    size_t G = H.groupIndex(H.Train->Group[J]);
    Ref += trainingRef(H, G, H.BaseNs[J]);
    if (Spread && H.Train->Fit.Spread[G])
      Spread = *Spread + *H.Train->Fit.Spread[G];
  }
  return std::string(", provenance: measured, ref: ") + yq(Ref) +
         (Spread ? ", spread: " + num(*Spread, 3) : "") + "}\n";
}

/// The variant Opt of a level fitted per construct (FitColumns::Vocabulary,
/// HLLC): one entry per construct, sorted, each with its isolating benchmark.
std::string constructCosts(const HllcResult &H, const std::string &Opt, const std::string &Ref0,
                           const std::string &Reps) {
  std::ostringstream Y;
  Y << "      " << Opt << ":\n        unit: ns\n        costs:\n";
  std::vector<size_t> Order(H.Constructs.size());
  for (size_t J = 0; J < Order.size(); ++J)
    Order[J] = J;
  std::sort(Order.begin(), Order.end(),
            [&](size_t A, size_t B) { return H.Constructs[A] < H.Constructs[B]; });
  for (size_t J : Order) {
    std::string Ref = Ref0 + "benchmark " + H.Bench[J] + ", " + Reps;
    if (H.Constructs[J] == "loop")
      Ref += " (with bench_baseline)";
    Y << "          " << H.Constructs[J] << ": {value: " << num(H.CostNs[J])
      << costEntry(H, J, Ref, "noise");
  }
  // HLLC -O0: the loop-carried chain latencies (CalibChain.cpp), sorted
  // after the constructs.
  if (const auto &C = H.Chain)
    for (auto &[E, V] : C->Entry) {
      auto Sp = C->Spread.find(E);
      Y << "          " << E << ": {value: " << num(V) << ", provenance: measured, ref: "
        << yq(Ref0 + "chain benchmark (kernels/Chain.c at -O0, " + std::to_string(C->Iterations) +
              " iterations, fastest of 3 passes), " + Reps + ": " + C->How.at(E) +
              "; docs/calibrate.md \"Loop-carried chains\"")
        << (Sp != C->Spread.end() && Sp->second ? ", spread: " + num(*Sp->second, 3) : "")
        << "}\n";
    }
  return Y.str();
}

/// The variant Opt of level Lv fitted per operation class
/// (FitColumns::ExecutedClasses, INTCC): one entry per class, and "*" for
/// the operations the benchmarks do not repeat.
std::string classCosts(const HllcResult &H, Level Lv, const std::string &Opt,
                       const std::string &Ref0, const std::string &Reps) {
  std::ostringstream Y;
  Y << "      " << Opt << ":\n        unit: ns\n        costs:\n";
  for (size_t J = 0; J < H.Constructs.size(); ++J) {
    std::string Ref = Ref0 + "least squares over " + std::to_string(H.Rows.size()) +
                      " benchmarks, " + Reps;
    Y << "          " << yq(H.Constructs[J]) << ": {value: " << num(H.CostNs[J])
      << costEntry(H, J, Ref, "noise or collinear");
  }
  std::string Unf;
  for (const std::string &U : H.Unfitted)
    Unf += (Unf.empty() ? "" : ", ") + U;
  if (H.StarNs) {
    std::string Ref = "median of the fitted classes, for operations the benchmarks do not "
                      "repeat" + (Unf.empty() ? std::string() : " (" + Unf + ")");
    if (H.Train)
      Ref += trainingRef(H, H.groupIndex(costGroup(Lv, "*")), *H.StarBaseNs);
    Y << "          \"*\": {value: " << num(*H.StarNs) << ", provenance: derived, ref: "
      << yq(Ref) << "}\n";
  }
  return Y.str();
}

/// The variant Opt of a level measured by its flop rate (CalibFit::FlopRate, POC).
std::string flopRate(const PocResult &P, const std::string &Opt, const std::string &Ref0,
                     const std::string &Reps) {
  std::ostringstream Y;
  std::string K;
  for (const PocKernel &Kn : P.Kernels)
    K += (K.empty() ? "" : ", ") + Kn.Function;
  Y << "      " << Opt << ":\n        unit: Mflop/s\n        costs:\n"
    << "          flop: {value: " << num(P.Mflops) << ", provenance: measured, ref: "
    << yq(Ref0 + "kernels " + K + " (PARKBENCH-93 RINF1 style), " + Reps +
          "; total flop / total time")
    << (P.Spread ? ", spread: " + num(*P.Spread, 3) : "") << "}\n";
  return Y.str();
}

/// The `any` variant of a level measured by the core clock (CalibFit::Clock, ICC).
std::string clockCosts(const ClockResult &C, const Options &O, const std::string &Ref0) {
  std::ostringstream Y;
  Y << "      any:\n        unit: ns\n        costs:\n"
    << "          cycles: {value: " << num(1.0 / C.Value) << ", provenance: measured, ref: "
    << yq(Ref0 + "chain of dependent integer adds (1 cycle each), " +
          std::to_string(C.GHz.size()) + " reps in " + std::to_string(C.Batches) +
          " batches over the run, " + (O.Stat == "min" ? "fastest" : "median") + ": core clock " +
          num(C.Value, 4) + " GHz")
    << (C.Spread ? ", spread: " + num(*C.Spread, 3) : "") << "}\n";
  if (const auto &M = C.Mispredict)
    Y << "          branch.mispredict: {value: " << num(M->Value)
      << ", provenance: measured, ref: "
      << yq(Ref0 + "one data-dependent branch per byte over " + std::to_string(M->Elements) +
            " random vs sorted bytes, (t_random - t_sorted) / (n/2), median of " +
            std::to_string(M->Ns.size()) + " reps: " + num(M->Value * C.Value, 3) +
            " cycles at the measured clock (docs/calibrate.md)")
      << (M->Spread ? ", spread: " + num(*M->Spread, 3) : "") << "}\n";
  if (const auto &M = C.Mispredict; M && M->ReplayHalf > 0) {
    std::string Pts;
    for (const auto &[Len, Extra] : M->Replay)
      Pts += (Pts.empty() ? "" : ", ") + std::to_string(Len) + " " + num(Extra, 3);
    Y << "          branch.replay_half: {value: " << num(M->ReplayHalf)
      << ", provenance: measured, ref: "
      << yq(Ref0 + "data-dependent branch outcomes per pass at which a replayed pass of "
                   "random bytes costs half the extra time of the longest one, log-linear "
                   "between the prefixes of 2^10.." +
            std::to_string(M->Elements) + " bytes replayed (ns per branch over sorted: " + Pts +
            "; docs/calibrate.md)")
      << "}\n";
  }
  if (const auto &M = C.Mispredict; M && M->SearchHalf > 0) {
    std::string Pts;
    for (const auto &P : M->Search)
      Pts += (Pts.empty() ? "" : ", ") + std::to_string(P.Outcomes) + " " + num(P.Replayed, 3) +
             "/" + num(P.Fresh, 3);
    Y << "          branch.replay_half_search: {value: " << num(M->SearchHalf)
      << ", provenance: measured, ref: "
      << yq(Ref0 + "search steps per pass at which K replayed binary searches (random keys, "
                   "a sorted table of 4096 ints in L1, kernels/Mispredict.c) cost half way "
                   "between learned (" + num(M->SearchLearned, 3) + " ns per step, the fewest "
                   "outcomes replayed) and fresh keys every pass (" + num(M->SearchFresh, 3) +
            " ns), log-linear between the points of 2^11..2^17 outcomes, median of " +
            std::to_string(M->SearchHalves.size()) + " reps (outcomes replayed/fresh ns per "
            "step: " + Pts + "; docs/calibrate.md)")
      << (M->SearchSpread ? ", spread: " + num(*M->SearchSpread, 3) : "") << "}\n";
  }
  for (const LatencyResult &L : C.Latencies)
    Y << "          " << (L.Throughput ? "throughput." : "latency.") << L.Class
      << ": {value: " << num(L.Value / C.Value) << ", provenance: measured, ref: "
      << yq(Ref0 + (L.Throughput ? "" : "chain of ") + std::to_string(C.LatencyOps) +
            (L.Throughput ? " independent " : " dependent ") + L.Class +
            (L.Throughput ? " operations, 16 per loop iteration" : " operations") +
            (L.Detail.empty() ? "" : ", " + L.Detail) +
            " (kernels/Latency.c), time / the time of as many dependent integer "
            "adds in the same process: " +
            (O.Stat == "min" ? "fastest over fastest" : "median ratio") + " of " +
            std::to_string(L.Cycles.size()) + " reps " + num(L.Value, 3) +
            " cycles, x t_cyc (docs/calibrate.md)")
      << (L.Spread ? ", spread: " + num(*L.Spread, 3) : "") << "}\n";
  if (C.WindowValue > 0)
    Y << "          reorder_buffer: {value: " << num(C.WindowValue, 3)
      << ", provenance: measured, ref: "
      << yq(Ref0 + "reorder window in micro-ops: a loop restarting a chain of 32 dependent "
                   "FMAs per iteration with 192 independent leas (226 micro-ops), chain / time "
                   "per iteration x 226 (Little's law; kernels/Latency.c), " +
            std::string(O.Stat == "min" ? "fastest chain over fastest loop" : "median") +
            " of " +
            std::to_string(C.Window.size()) + " reps (docs/calibrate.md)")
      << ", spread: " << num(relSpread(C.Window).value_or(0), 3) << "}\n";
  Y << "          \"*\": {value: 0, provenance: derived, ref: "
    << yq("out-of-order model: time is cycles x t_cyc; instructions, uops and memory "
          "operations are reported, not costed")
    << "}\n";
  return Y.str();
}

/// The variants measured in this run, as machine-file text: each level asked
/// for by the text of its fit (LevelUnit::calibFit, fitColumns).
LevelTexts measuredLevels(const Options &O, const RunInfo &I, const std::vector<OptResult> &Res,
                          const std::optional<ClockResult> &Clock) {
  LevelTexts L;
  std::string Ref0 = "segtime calibrate " + I.Date + ": ";
  std::string Reps = std::to_string(O.Reps) + " reps, " + statName(O);
  for (const LevelUnit *U : levelUnits()) {
    const Level Lv = U->level();
    if (U->calibFit() == CalibFit::FlopRate && O.has(Lv))
      for (const OptResult &R : Res)
        L[Lv][R.Opt] = flopRate(*R.Poc, R.Opt, Ref0, Reps);
    if (U->calibFit() == CalibFit::Costs)
      for (const OptResult &R : Res)
        if (auto H = R.Costs.find(Lv); H != R.Costs.end())
          L[Lv][R.Opt] = U->fitColumns() == FitColumns::Vocabulary
                             ? constructCosts(H->second, R.Opt, Ref0, Reps)
                             : classCosts(H->second, Lv, R.Opt, Ref0, Reps);
    if (U->calibFit() == CalibFit::Clock && Clock)
      L[Lv]["any"] = clockCosts(*Clock, O, Ref0);
  }
  return L;
}

/// V in the fewest significant digits that read back as V (a kept number
/// is written as it was read).
std::string exactNum(double V) {
  std::string S;
  for (int P = 1; P <= 17; ++P) {
    S = yamlNumber(V, P);
    if (std::strtod(S.c_str(), nullptr) == V)
      break;
  }
  return S;
}

/// Text of a variant kept from an existing machine file, entry by entry.
std::string keptVariantText(const std::string &Variant, const CostVector &V) {
  std::ostringstream Y;
  Y << "      " << Variant << ":\n        unit: " << V.Unit << "\n        costs:\n";
  for (const auto &[Op, E] : V.Costs) {
    bool Plain = std::all_of(Op.begin(), Op.end(), [](char C) {
      return std::isalnum(static_cast<unsigned char>(C)) || C == '.' || C == '_';
    });
    Y << "          " << (Plain ? Op : yq(Op)) << ": {value: " << exactNum(E.Value)
      << ", provenance: " << E.Provenance;
    if (!E.Ref.empty())
      Y << ", ref: " << yq(E.Ref);
    if (E.Spread)
      Y << ", spread: " << num(*E.Spread, 3);
    Y << "}\n";
  }
  return Y.str();
}

/// The `levels` section: the variants measured now and, from Old (the file
/// being updated, may be null), every level and variant not re-measured.
/// Comments (without "# ") go above the section's key line.
std::string levelsSection(const LevelTexts &New, const Machine *Old,
                          const std::vector<std::string> &Comments) {
  std::ostringstream Y;
  for (const std::string &C : Comments)
    Y << "# " << C << "\n";
  std::ostringstream Body;
  for (const LevelUnit *U : levelUnits()) {
    const Level L = U->level();
    if (!U->costed())
      continue;
    std::map<std::string, std::string> V;
    if (Old && Old->Levels.count(L))
      for (const auto &[Name, CV] : Old->Levels.at(L))
        V[Name] = keptVariantText(Name, CV);
    if (New.count(L))
      for (const auto &[Name, Text] : New.at(L))
        V[Name] = Text;
    if (V.empty())
      continue;
    Body << "  " << levelKey(L) << ":\n";
    for (const std::string &C : U->machineFileComments())
      Body << "    # " << C << "\n";
    Body << "    variants:\n";
    for (const auto &[Name, Text] : V)
      Body << Text;
  }
  std::string B = Body.str();
  Y << (B.empty() ? "levels: {}\n" : "levels:\n" + B);
  return Y.str();
}

/// The `identity` section of this machine.
std::string identitySection(const RunInfo &I) {
  std::ostringstream Y;
  Y << "identity:\n"
    << "  processor: " << yq(I.Cpu) << "\n"
    << "  cores: " << I.Cores << "\n";
  if (I.ClockHz > 0)
    Y << "  clock_hz: " << static_cast<long long>(std::llround(I.ClockHz)) << "\n";
  if (!I.Id.Vendor.empty())
    Y << "  vendor: " << yq(I.Id.Vendor) << "\n";
  if (I.Id.Family >= 0)
    Y << "  family: " << I.Id.Family << "\n"
      << "  model: " << I.Id.Model << "\n"
      << "  stepping: " << I.Id.Stepping << "\n";
  if (!I.Id.ModelName.empty())
    Y << "  model_name: " << yq(I.Id.ModelName) << "\n";
  if (!I.Id.llvmCpu().empty())
    Y << "  llvm_cpu: " << yq(I.Id.llvmCpu()) << "\n";
  if (!I.Id.Source.empty())
    Y << "  identity_source: " << yq(I.Id.Source + " leaves 0, 1, 0x80000002-4") << "\n";
  if (!I.Virtual.empty())
    Y << "  virtualised: " << yq(I.Virtual) << "\n";
  if (!I.Cpus.empty())
    Y << "  cpus_usable: " << yq(I.Cpus) << "\n";
  if (!I.Skipped.empty()) {
    std::string S;
    for (const std::string &X : I.Skipped)
      S += (S.empty() ? "" : "; ") + X;
    Y << "  calibration_skipped: " << yq(S) << "\n";
  }
  Y << "  date: " << yq(I.Date) << "\n"
    << "  compiler: "
    << yq(I.Compiler + "; levels: no -march, benchmarks compiled with the segtime plugin; "
                       "parkbench, memory: " + LowLevelBench::compileFlags())
    << "\n";
  return Y.str();
}

/// The comment lines above `levels`: how this run measured its levels.
std::vector<std::string> levelComments(const Options &O, const RunInfo &I,
                                       const std::vector<OptResult> &Res) {
  std::vector<std::string> C;
  C.push_back("Levels measured by `segtime calibrate` (tools/Calibrate.cpp) on " + I.Date +
              "; levels and variants not re-measured are kept from the file.");
  std::string Fitted; // the levels whose costs the training-set fit scales
  for (const LevelUnit *U : levelUnits())
    if (U->calibFit() == CalibFit::Costs)
      Fitted += (Fitted.empty() ? "" : ", ") + U->key();
  for (const LevelUnit *U : levelUnits())
    if (O.has(U->level()) && U->calibFit() == CalibFit::Costs &&
        U->fitColumns() == FitColumns::Vocabulary) {
      C.push_back(U->key() + ": ns per " + U->entryWord() +
                  ", Warwick-94 eq. 4 / §4.2.2: least squares A c = t over one generated");
      C.push_back("  benchmark per " + std::string(U->entryWord()) + " plus a loop baseline (" +
                  std::to_string(O.Unroll) + " constructs per loop iteration), counts A");
      C.push_back("  from the segtime plugin, t the " + statName(O) + " of " +
                  std::to_string(O.Reps) + " calls of >= " + num(O.TargetMs, 3) + " ms.");
    }
  if (O.hasFit(CalibFit::Costs) && O.Train)
    C.push_back(Fitted + ": each cost = construct-benchmark cost c0 x its group's multiplier "
                "s_g, fitted on the training kernels (docs/calibrate.md \"Training-set fit\").");
  for (const LevelUnit *U : levelUnits())
    if (O.has(U->level()) && U->calibFit() == CalibFit::FlopRate) {
      C.push_back(U->key() + ": R_fpu in Mflop/s, Warwick-94 eq. 6: total McMahon flop / total "
                             "time of in-cache kernels");
      C.push_back("  (dot, daxpy, Horner, rational; PARKBENCH-93 RINF1 style).");
    }
  C.push_back("spread: (max-min)/median of the values solved from each repetition alone.");
  C.push_back("command: " + I.Command);
  if (O.Quick)
    C.push_back("--quick: a smoke test with short calls, not a calibration.");
  for (const OptResult &R : Res)
    if (R.Disturbed)
      C.push_back("warning: " + R.Opt + ": " + std::to_string(R.Disturbed) + " of " +
                  std::to_string(R.Samples) +
                  " timed calls were slowed by other processes (busy machine).");
  return C;
}

/// Key prefixes of the parameters a low-level part owns: re-measuring the
/// part replaces every old parameter under them.
std::vector<std::string> ownedPrefixes(const std::string &Part) {
  if (Part == "tick")
    return {"parkbench.TICK1", "parkbench.TICK2"};
  if (Part == "rinf1")
    return {"parkbench.RINF1."};
  if (Part == "poly")
    return {"parkbench.POLY1.", "parkbench.POLY2."};
  if (Part == "strided")
    return {"memory.strided.",          "memory.strided_shared2.",  "memory.strided_1k.",
            "memory.strided_2k.",       "memory.strided_store.",    "memory.strided_store_1k.",
            "memory.strided_store_2k.", "memory.strided_rmw.",      "memory.strided_rmw_1k.",
            "memory.strided_rmw_2k.",   "memory.gather."};
  if (Part == "overlap")
    return {"memory.overlap."};
  if (Part == "library")
    return {"library."};
  return {};
}

} // namespace

/// Writes (or updates) the machine file Path: the levels measured (Res,
/// Clock) merged with the file's other levels and variants, and the
/// parameters Params (full dotted keys) merged into the sections parkbench
/// and memory, replacing the old parameters of the parts re-measured. A
/// nonexistent file is created. The result is checked with readMachine
/// before it replaces Path.
void writeMachine(const std::string &Path, const Options &O, const RunInfo &I,
                  const std::vector<OptResult> &Res, const std::optional<ClockResult> &Clock,
                  const ParamList &Params, const std::vector<std::string> &OwnedKeys) {
  std::optional<Machine> Old;
  std::string Text;
  if (fs::exists(Path)) {
    try {
      Old = readMachine(Path);
    } catch (const std::exception &E) {
      throw CalibError(std::string("cannot update the existing machine file (move it away to "
                                   "start a new one): ") +
                       E.what());
    }
    Text = slurp(Path);
  }
  LevelTexts New = measuredLevels(O, I, Res, Clock);
  bool LevelsMeasured = !New.empty();
  if (!Old) {
    std::ostringstream Y;
    Y << "# This machine, measured by `segtime calibrate` (tools/Calibrate.cpp); every number "
         "gives its\n# method and date in its ref (docs/calibrate.md).\n"
      << "schema: segtime.machine/1\n"
      << "name: " << yq(O.Name) << "\n"
      << "version: 1\n"
      << "description: " << yq(I.Cpu + ", measured by segtime calibrate on " + I.Date) << "\n"
      << identitySection(I)
      << levelsSection(New, nullptr, LevelsMeasured ? levelComments(O, I, Res)
                                                    : std::vector<std::string>{});
    Text = Y.str();
  } else {
    // The identity always (virtualisation, CPUs, parts skipped: this run's).
    Text = spliceSection(Text, "identity", identitySection(I));
    if (LevelsMeasured)
      Text = spliceSection(Text, "levels", levelsSection(New, &*Old, levelComments(O, I, Res)));
  }
  // Parameter sections: old entries, minus those of the parts re-measured,
  // plus the new ones.
  // In this order when both are new (parkbench first, as in the shipped files).
  const std::vector<std::pair<std::string, std::string>> SectionComment = {
      {"parkbench", "PARKBENCH-93 §3.2 low-level benchmarks: `segtime calibrate --level "
                    "tick,rinf1,poly` (docs/calibrate.md)"},
      {"memory", "Cache sizes (reported: size = the first of size_sysfs, size_cpuid, "
                 "size_sysconf; measured: size_effective, latency, bandwidth_read: `segtime "
                 "calibrate --level caches`) and sustained bandwidths (B/s loaded + stored): "
                 "`--level poly`; strided-walk line rates: `--level strided`; "
                 "core/memory overlap: `--level overlap` "
                 "(docs/calibrate.md)"},
      {"library", "C library calls, t = per_call + per_B * size: `segtime calibrate --level "
                  "library` (docs/calibrate.md, docs/models.md \"Library calls\")"}};
  for (const auto &[Section, Comment] : SectionComment) {
    std::string Prefix = Section + ".";
    std::map<std::string, CostEntry> Merged;
    bool Any = false;
    for (const auto &[K, E] : Params)
      Any |= K.compare(0, Prefix.size(), Prefix) == 0;
    if (!Any)
      continue;
    if (Old)
      for (const std::string &K : Old->paramKeys(Prefix)) {
        bool Owned = std::find(OwnedKeys.begin(), OwnedKeys.end(), K) != OwnedKeys.end();
        for (const std::string &Part : O.Parts)
          for (const std::string &P : ownedPrefixes(Part))
            Owned |= K.compare(0, P.size(), P) == 0;
        if (!Owned)
          Merged[K.substr(Prefix.size())] = *Old->param(K);
      }
    for (const auto &[K, E] : Params)
      if (K.compare(0, Prefix.size(), Prefix) == 0)
        Merged[K.substr(Prefix.size())] = E;
    ParamList L(Merged.begin(), Merged.end());
    Text = spliceSection(Text, Section, paramsSectionYaml(Section, L, {Comment}));
  }
  std::string Tmp = Path + ".tmp";
  {
    std::ofstream OS(Tmp);
    if (!(OS << Text))
      throw CalibError("cannot write '" + Tmp + "'");
  }
  try {
    readMachine(Tmp);
  } catch (const std::exception &E) {
    throw CalibError(std::string("the machine file written does not load (it is ") + Tmp +
                     "): " + E.what());
  }
  std::error_code EC;
  fs::rename(Tmp, Path, EC);
  if (EC)
    throw CalibError("cannot write '" + Path + "': " + EC.message());
}

/// Reads the file back with readMachine and checks every value is there.
void verifyMachine(const std::string &Path, const Options &O, const std::vector<OptResult> &Res) {
  Machine M;
  try {
    M = readMachine(Path);
  } catch (const std::exception &E) {
    throw CalibError(std::string("the machine file does not load: ") + E.what());
  }
  // Every entry of each closed vocabulary measured per optimisation level.
  for (const OptResult &R : Res)
    for (const LevelUnit *U : levelUnits()) {
      const CalibFit F = U->calibFit();
      if (!O.has(U->level()) || (F != CalibFit::Costs && F != CalibFit::FlopRate))
        continue;
      for (const std::string &E : U->vocabulary())
        if (!M.vector(U->level(), R.Opt).Costs.count(E))
          throw CalibError(Path + ": " + U->key() + " " + R.Opt + " lacks " + E +
                           " after reading");
    }
}

} // namespace segtime::calib
