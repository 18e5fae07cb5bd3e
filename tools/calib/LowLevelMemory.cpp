//===- LowLevelMemory.cpp - calibrate: POLY, memory, strided, overlap ----===//
///
/// \file
/// The low-level parts of calibrate about memory (see LowLevel.h): POLY1 and
/// POLY2 with the bandwidth of each cache level, the strided walk, the
/// overlap of core and memory time, and the --plot images. The rest
/// (caches, TICK1/TICK2, RINF1, running the program) is LowLevel.cpp.
///
//===----------------------------------------------------------------------===//
#include "tools/calib/LowLevel.h"
#include "tools/calib/LowLevelText.h"

#include <chrono>
#include <thread>
#include "predictor/MemoryModel.h"

#include "tools/Gnuplot.h"
#include "tools/calib/KernelSources.h"
#include "tools/calib/Process.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>
#include <tuple>
#include <unistd.h>

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace segtime {

using namespace lowlevel;

// --- POLY1 / POLY2 and the memory hierarchy ---------------------------------------------

PolyMemResult LowLevelBench::runPoly() {
  PolyMemResult R;
  R.stamp(O);
  R.Caches = caches("poly");
  const CacheInfo &L1 = R.Caches.front();
  const CacheInfo Llc{R.Caches.back().Name, lastLevelExtent("poly"), "", 0, 0};

  auto Poly = [&](PolyResult &P, const std::string &Name, long N, const std::string &Where,
                  double TargetS) {
    P.Name = Name;
    P.N = N;
    P.Where = Where;
    binary();
    std::cerr << "calibrate: " << Name << ": Horner orders 1.." << polyOrders().back() << ", n = " << N
              << " (" << Where << ")" << ellipsis() << "\n";
    std::string Mode = Name == "POLY1" ? "poly1" : "poly2";
    std::vector<std::string> Args = Name == "POLY1"
                                        ? std::vector<std::string>{fmt(TargetS, 3), std::to_string(N)}
                                        : std::vector<std::string>{std::to_string(N)};
    json J = runChecked(Mode, Args, 600, Name, P.ProbeGHz);
    for (const json &E : J.at(Mode)) {
      double F = E.at("order").get<double>();
      P.F.push_back(F);
      P.Times.push_back(timesOf(E.at("point"), O.Reps, Name, Samples, Disturbed));
      // Horner of order k: 2k flop per element.
      P.R.push_back(2 * F * static_cast<double>(N) / stat(P.Times.back(), O.Stat));
    }
    try {
      P.Fit = fitPoly(P.F, P.R);
    } catch (const std::invalid_argument &E) {
      // POLY2 may be memory-bound at every order (time per reference flat
      // or falling in f): fitted below with r_hat_inf from POLY1.
      if (Name != "POLY2")
        throw CalibError(Name + ": " + E.what());
      P.TwoParamError = E.what();
    }
    for (int Rep = 0; Rep < O.Reps && O.Reps > 1; ++Rep) {
      std::vector<double> Rr;
      for (size_t I = 0; I < P.F.size(); ++I)
        Rr.push_back(2 * P.F[I] * static_cast<double>(N) / P.Times[I][Rep]);
      try {
        PolyFit F = fitPoly(P.F, Rr);
        P.RHatRep.push_back(F.RHatInf / 1e6);
        P.FHalfRep.push_back(F.FHalf);
      } catch (const std::invalid_argument &) {
      }
    }
    reportDisturbed(Name);
  };
  long N1 = std::max(128L, static_cast<long>(L1.Size / 32)); // x and y in half of L1
  Poly(R.Poly1, "POLY1", N1, "x, y " + bytes(16.0 * N1) + " in " + L1.Name + " " + bytes(L1.Size),
       O.TargetS);
  long N2 = std::max(100000L, static_cast<long>(Llc.Size / 4)); // x and y: 4x the LLC
  Poly(R.Poly2, "POLY2", N2,
       "x, y " + bytes(16.0 * N2) + " = 4x " + Llc.Name + " " + bytes(Llc.Size) +
           ", one evaluation per sample",
       0);
  // Out of cache the curve may stay memory-bound (r nearly proportional to f)
  // over every order: then f_1/2 lies beyond the data and the two-parameter
  // fit cannot resolve r̂_inf. The arithmetic peak is the core's, so take it
  // from POLY1 and fit f_1/2 alone.
  double MaxF = R.Poly2.F.back();
  if (!R.Poly2.TwoParamError.empty() || !(R.Poly2.Fit.FHalf > 0 && R.Poly2.Fit.FHalf <= MaxF)) {
    PolyResult &P2 = R.Poly2;
    P2.PeakFrom = "POLY1";
    P2.TwoParam = P2.Fit;
    double RHat = R.Poly1.Fit.RHatInf;
    P2.Fit = fitPolyGivenPeak(P2.F, P2.R, RHat);
    P2.RHatRep = R.Poly1.RHatRep;
    P2.FHalfRep.clear();
    for (int Rep = 0; Rep < O.Reps && O.Reps > 1; ++Rep) {
      std::vector<double> Rr;
      for (size_t I = 0; I < P2.F.size(); ++I)
        Rr.push_back(2 * P2.F[I] * static_cast<double>(P2.N) / P2.Times[I][Rep]);
      P2.FHalfRep.push_back(fitPolyGivenPeak(P2.F, Rr, RHat).FHalf);
    }
    std::cerr << "calibrate: POLY2: memory-bound at every order (two-parameter fit: "
              << (P2.TwoParamError.empty()
                      ? "f_1/2 " + fmt(P2.TwoParam.FHalf, 3) + " > " + fmt(MaxF, 3)
                      : P2.TwoParamError)
              << "): r_hat_inf taken from POLY1, f_1/2 fitted alone\n";
  }

  double MaxB = 8 * Llc.Size;
  std::cerr << "calibrate: memory: load, copy, triad over working sets 4 KiB.." << bytes(MaxB)
            << ellipsis() << "\n";
  json J = runChecked("mem", {fmt(O.TargetS, 3), fmt(MaxB, 12)}, 900, "memory", R.MemProbeGHz);
  const char *Names[] = {"load", "copy", "triad"};
  const char *Whats[] = {"S = S + A(I) (reassociated sum)", "B(I) = A(I)",
                         "A(I) = B(I) + S * C(I)"};
  std::vector<CacheLevel> Levels;
  for (const CacheInfo &C : R.Caches)
    Levels.push_back({C.Name, C.Size});
  Levels.push_back({"DRAM", 0});
  const json &Arr = J.at("mem");
  if (Arr.size() != 3)
    throw CalibError("memory: expected 3 kernels in the output");
  for (size_t K = 0; K < 3; ++K) {
    MemKernel M;
    M.Name = Names[K];
    M.What = Whats[K];
    M.BytesPerElement = Arr[K].at("bytes_per_element").get<int>();
    for (const json &P : Arr[K].at("points")) {
      double W = P.at("n").get<double>() * M.BytesPerElement;
      M.W.push_back(W);
      M.Times.push_back(timesOf(P, O.Reps, "memory " + M.Name, Samples, Disturbed));
      M.Bw.push_back(W / stat(M.Times.back(), O.Stat));
    }
    try {
      M.Plateaus = bandwidthPlateaus(M.W, M.Bw, Levels);
      M.PlateauRep.assign(Levels.size(), {});
      for (int Rep = 0; Rep < O.Reps && O.Reps > 1; ++Rep) {
        std::vector<double> B;
        for (size_t I = 0; I < M.W.size(); ++I)
          B.push_back(M.W[I] / M.Times[I][Rep]);
        auto Pl = bandwidthPlateaus(M.W, B, Levels);
        for (size_t L = 0; L < Pl.size(); ++L)
          M.PlateauRep[L].push_back(Pl[L].Bandwidth);
      }
    } catch (const std::invalid_argument &E) {
      throw CalibError("memory " + M.Name + ": " + E.what());
    }
    R.Mem.push_back(std::move(M));
  }
  reportDisturbed("memory");
  return R;
}

/// Appends the points of curve M as memory.<Curve>.NN.working_set (B, as
/// chosen by the benchmark) and .bandwidth (B/s, measured, Ref; spread over
/// the repetitions' rates).
static void curveParams(ParamList &P, const MemKernel &M, const std::string &Curve,
                        const std::string &Ref) {
  for (size_t I = 0; I < M.W.size() && I < M.Bw.size(); ++I) {
    P.push_back({memoryCurveKey(I, "working_set", Curve),
                 CostEntry::of(M.W[I], "B", "derived",
                               "working set of point " + std::to_string(I) + " of the " +
                                   M.Name + " sweep (chosen by the benchmark)")});
    std::vector<double> Rates; // per repetition, 1/time: the spread is a ratio
    if (I < M.Times.size())
      for (double T : M.Times[I])
        if (T > 0)
          Rates.push_back(1 / T);
    P.push_back({memoryCurveKey(I, "bandwidth", Curve),
                 measured(M.Bw[I], "B/s", relSpread(Rates), Ref)});
  }
}

ParamList PolyMemResult::params() const {
  ParamList P;
  for (const PolyResult *Pr : {&Poly1, &Poly2}) {
    std::string Ref = "segtime calibrate " + Date + ": " + Pr->Name +
                      " (PARKBENCH-93 §3.2.4) Horner polynomials of order f = 1.." +
                      std::to_string(polyOrders().back()) + " (" + std::to_string(polyOrders().size()) + " orders; 2f flop per 2 memory references), " +
                      LowLevelBench::compileFlags() + ", n = " + std::to_string(Pr->N) + " (" +
                      Pr->Where + "), " +
                      sampling(Stat, Reps, Pr->Name == "POLY1" ? TargetS : 0) +
                      " (core clock probe " + fmt(Pr->ProbeGHz, 3) + " GHz); least squares on eq. 3.3 r = r_hat / (1 + f_1/2 / f), rms residual " +
                      pct(Pr->Fit.RmsRel);
    if (!Pr->PeakFrom.empty()) {
      Ref += " with r_hat_inf from " + Pr->PeakFrom + " (the curve stays memory-bound: " +
             (Pr->TwoParamError.empty()
                  ? "the two-parameter fit put f_1/2 at " + fmt(Pr->TwoParam.FHalf, 3) +
                        ", beyond f = " + fmt(Pr->F.back(), 3) + ", r_hat_inf " +
                        fmt(Pr->TwoParam.RHatInf / 1e6, 4) + " Mflop/s, undetermined)"
                  : "no two-parameter fit: " + Pr->TwoParamError + ")");
      CostEntry E;
      E.Value = Pr->Fit.RHatInf / 1e6;
      E.Unit = "Mflop/s";
      E.Provenance = "derived";
      E.Spread = relSpread(Pr->RHatRep);
      E.Ref = "= parkbench." + Pr->PeakFrom + ".r_inf (the arithmetic peak): " + Ref;
      P.push_back({"parkbench." + Pr->Name + ".r_inf", E});
    } else {
      P.push_back({"parkbench." + Pr->Name + ".r_inf",
                   measured(Pr->Fit.RHatInf / 1e6, "Mflop/s", relSpread(Pr->RHatRep),
                            Ref + rangeText(Pr->RHatRep, 4))});
    }
    P.push_back({"parkbench." + Pr->Name + ".f_half",
                 measured(Pr->Fit.FHalf, "flop/mref", relSpread(Pr->FHalfRep),
                          Ref + rangeText(Pr->FHalfRep))});
  }
  // memory.<level>.bandwidth is the triad's; the other kernels get a suffix.
  for (const MemKernel &M : Mem)
    for (size_t L = 0; L < M.Plateaus.size(); ++L) {
      const Plateau &Pl = M.Plateaus[L];
      std::string Key = "memory." + Pl.Level + ".bandwidth" + (M.Name == "triad" ? "" : "_" + M.Name);
      std::string Window = bytes(Pl.Lo) + ".." + (std::isfinite(Pl.Hi) ? bytes(Pl.Hi) : bytes(M.W.back()));
      P.push_back(
          {Key, measured(Pl.Bandwidth, "B/s", relSpread(M.PlateauRep[L]),
                         "segtime calibrate " + Date + ": " + M.Name + " kernel " + M.What + ", " +
                             LowLevelBench::compileFlags() + ", bytes loaded + stored (" +
                             std::to_string(M.BytesPerElement) +
                             " B per element; write-allocate traffic not counted) / time, " +
                             sampling(Stat, Reps, TargetS) + " (core clock probe " +
                             fmt(MemProbeGHz, 3) + " GHz); plateau: median of the " +
                             std::to_string(Pl.Points.size()) + " working sets in " + Window +
                             " (flatness " + pct(Pl.Flatness) + ")")});
    }
  // The triad's whole curve, for the ICC memory term's bandwidth at a given
  // footprint (predictor/MemoryModel.h): a VM's share of a large L3 can be
  // well below the plateau found inside the datasheet size.
  for (const MemKernel &M : Mem)
    if (M.Name == "triad")
      curveParams(P, M, "curve",
                  "segtime calibrate " + Date + ": triad kernel " + M.What +
                      ", bytes loaded + stored / time at this working set, " +
                      sampling(Stat, Reps, TargetS));
  return P;
}

/// A measured bandwidth curve: bytes, bandwidth and samples per working set.
static json curveJson(const MemKernel &M) {
  return jsonRows(M.W.size(), [&](size_t I) {
    return json{{"bytes", M.W[I]}, {"bandwidth_Bps", M.Bw[I]}, {"samples_s", M.Times[I]}};
  });
}

json PolyMemResult::toJson() const {
  json J;
  for (const PolyResult *Pr : {&Poly1, &Poly2}) {
    json Pts = jsonRows(Pr->F.size(), [&](size_t I) {
      return json{{"f", Pr->F[I]}, {"mflops", Pr->R[I] / 1e6}, {"samples_s", Pr->Times[I]},
                  {"residual", Pr->Fit.Residuals[I]}};
    });
    J[Pr->Name] = {{"n", Pr->N}, {"where", Pr->Where}, {"r_inf_mflops", Pr->Fit.RHatInf / 1e6},
                   {"f_half", Pr->Fit.FHalf}, {"rms_residual", Pr->Fit.RmsRel},
                   {"r_inf_spread", optJson(relSpread(Pr->RHatRep))},
                   {"f_half_spread", optJson(relSpread(Pr->FHalfRep))},
                   {"r_inf_per_rep", Pr->RHatRep}, {"f_half_per_rep", Pr->FHalfRep},
                   {"core_clock_probe_ghz", Pr->ProbeGHz}, {"points", Pts}};
    if (!Pr->PeakFrom.empty()) {
      J[Pr->Name]["r_inf_from"] = Pr->PeakFrom;
      if (Pr->TwoParamError.empty())
        J[Pr->Name]["two_parameter_fit"] = {{"r_inf_mflops", Pr->TwoParam.RHatInf / 1e6},
                                            {"f_half", Pr->TwoParam.FHalf},
                                            {"rms_residual", Pr->TwoParam.RmsRel}};
      else
        J[Pr->Name]["two_parameter_fit"] = {{"error", Pr->TwoParamError}};
    }
  }
  json C = json::array();
  for (const CacheInfo &Ci : Caches)
    C.push_back({{"level", Ci.Name}, {"size_bytes", Ci.Size}, {"source", Ci.Source}});
  J["memory"]["caches"] = C;
  J["memory"]["core_clock_probe_ghz"] = MemProbeGHz;
  for (const MemKernel &M : Mem) {
    json Pl = json::array();
    for (size_t L = 0; L < M.Plateaus.size(); ++L)
      Pl.push_back({{"level", M.Plateaus[L].Level}, {"bandwidth_Bps", M.Plateaus[L].Bandwidth},
                    {"spread", optJson(relSpread(M.PlateauRep[L]))},
                    {"window_bytes", {M.Plateaus[L].Lo,
                                      std::isfinite(M.Plateaus[L].Hi) ? json(M.Plateaus[L].Hi)
                                                                      : json(nullptr)}},
                    {"points", M.Plateaus[L].Points.size()},
                    {"flatness", M.Plateaus[L].Flatness}});
    J["memory"]["kernels"][M.Name] = {{"loop", M.What},
                                      {"bytes_per_element", M.BytesPerElement},
                                      {"plateaus", Pl},
                                      {"curve", curveJson(M)}};
  }
  return J;
}

void PolyMemResult::print(std::ostream &OS) const {
  OS << "\nPOLY1 / POLY2 (PARKBENCH-93 eq. 3.3 r = r_hat / (1 + f_1/2 / f)), Horner f = 1.."
     << polyOrders().back() << "\n"
     << pad("", 7, true) << pad("r_hat Mflop/s", 15) << pad("spread", 8)
     << pad("f_1/2", 8) << pad("spread", 8) << pad("rms resid", 11) << "  where\n";
  for (const PolyResult *Pr : {&Poly1, &Poly2})
    OS << pad(Pr->Name, 7, true) << pad(fmt(Pr->Fit.RHatInf / 1e6), 15)
       << pad(pct(relSpread(Pr->RHatRep)), 8) << pad(fmt(Pr->Fit.FHalf, 3), 8)
       << pad(pct(relSpread(Pr->FHalfRep)), 8) << pad(pct(Pr->Fit.RmsRel), 11) << "  n = "
       << Pr->N << ", " << Pr->Where
       << (Pr->PeakFrom.empty() ? "" : "; r_hat from " + Pr->PeakFrom + " (memory-bound at every f)")
       << "\n";
  OS << "\nMemory bandwidth, GB/s (bytes loaded + stored / s; plateau medians; spread over "
        "repetitions)\n"
     << pad("level", 6, true) << pad("size", 11);
  for (const MemKernel &M : Mem)
    OS << pad(M.Name, 9) << pad("spread", 8);
  OS << "\n";
  for (size_t L = 0; L < Mem.front().Plateaus.size(); ++L) {
    const std::string &Lv = Mem.front().Plateaus[L].Level;
    std::string Size = L < Caches.size() ? bytes(Caches[L].Size) : "-";
    OS << pad(Lv, 6, true) << pad(Size, 11);
    for (const MemKernel &M : Mem)
      OS << pad(fmt(M.Plateaus[L].Bandwidth / 1e9, 3), 9) << pad(pct(relSpread(M.PlateauRep[L])), 8);
    OS << "\n";
  }
}

// --- strided walk ----------------------------------------------------------------------

StridedResult LowLevelBench::runStrided(bool Shared) {
  StridedResult R;
  R.stamp(O);
  std::vector<CacheInfo> Caches = caches("strided");
  // From a quarter of L2 (lines from L2) to 4x the last-level cache (DRAM).
  double MinB = std::max(65536.0, Caches.size() > 1 ? Caches[1].Size / 4 : Caches[0].Size);
  double MaxB = std::max(4 * lastLevelExtent("strided"), 4 * MinB);
  if (Shared && cacheResult().Probe.Cpus.usable() < 2) {
    const CpuBudget &B = Hier->Probe.Cpus;
    R.SharedSkipped = "strided_shared2: one CPU usable (affinity " + std::to_string(B.Affinity) +
                      "; " + B.QuotaRef + "): no second process to share the caches with";
    Shared = false;
  }
  binary();
  for (const char *Mode : {"strided", "strided2"}) {
    bool Two = std::string(Mode) == "strided2";
    if (Two && !Shared)
      break;
    MemKernel M;
    M.Name = Two ? "strided_shared2" : "strided";
    M.What = std::string("s += a[r][c] over 4 KiB rows r, one access per 64 B line, columns c "
                         "of lines even ones first") +
             (Two ? ", while a second process on the next CPU walks its own buffer" : "");
    std::cerr << "calibrate: strided: line rate of a 4 KiB-stride walk over " << bytes(MinB)
              << ".." << bytes(MaxB) << (Two ? ", two processes" : ", one process")
              << ellipsis() << "\n";
    double Probe = 0;
    json J = runChecked(Mode, {fmt(O.TargetS, 3), fmt(MinB, 12), fmt(MaxB, 12)}, 900,
                        M.Name, Probe);
    const json &Arr = J.at(Mode);
    if (Arr.empty() || (Two && Arr.size() != 1))
      throw CalibError(std::string(Mode) + ": expected " + (Two ? "one kernel" : "kernels") +
                       " in the output");
    // Kernel 0 is the 4 KiB load walk; the others (one process only) the
    // walks by row size and kind (stridedWalkName).
    for (size_t K = 0; K < Arr.size(); ++K) {
      MemKernel W = M;
      if (K > 0 && Arr[K].contains("gather")) {
        W.Name = "gather";
        W.What = "s += x[idx[i]], idx a random permutation of the 64 B lines of x, one access "
                 "per line (an indexed load stream)";
      } else if (K > 0) {
        int Row = Arr[K].at("row_bytes").get<int>();
        bool Store = Arr[K].at("store").get<int>() != 0;
        bool Load = Arr[K].value("load", Store ? 0 : 1) != 0;
        WalkKind Kind = !Store ? WalkKind::Load : Load ? WalkKind::LoadStore : WalkKind::Store;
        W.Name = stridedWalkName(Row, Kind);
        W.What = std::string(Kind == WalkKind::Load    ? "s += a[r][c]"
                             : Kind == WalkKind::Store ? "a[r][c] = r"
                                                       : "a[r][c] += r") +
                 " over " + std::to_string(Row / 1024) +
                 " KiB rows r, one access per 64 B line, columns c of lines even ones first";
      }
      W.BytesPerElement = Arr[K].at("bytes_per_element").get<int>();
      for (const json &P : Arr[K].at("points")) {
        double Ws = P.at("n").get<double>() * W.BytesPerElement;
        W.W.push_back(Ws);
        W.Times.push_back(timesOf(P, O.Reps, W.Name, Samples, Disturbed));
        W.Bw.push_back(Ws / stat(W.Times.back(), O.Stat));
      }
      if (W.W.empty())
        throw CalibError(std::string(Mode) + ": no points measured");
      reportDisturbed(W.Name);
      R.Curves.push_back(std::move(W));
      R.ProbeGHz.resize(R.Curves.size(), Probe);
    }
  }
  return R;
}

ParamList StridedResult::params() const {
  ParamList P;
  for (size_t K = 0; K < Curves.size(); ++K) {
    const MemKernel &M = Curves[K];
    curveParams(P, M, M.Name,
                "segtime calibrate " + Date + ": " + M.What + ", " +
                    LowLevelBench::compileFlags() +
                    ", 64 B x lines / time at this footprint (every access a new line, "
                    "no prefetch across 4 KiB pages), " +
                    sampling(Stat, Reps, TargetS) + " (core clock probe " +
                    fmt(K < ProbeGHz.size() ? ProbeGHz[K] : 0, 3) + " GHz)");
  }
  return P;
}

json StridedResult::toJson() const {
  json J;
  for (size_t K = 0; K < Curves.size(); ++K) {
    const MemKernel &M = Curves[K];
    J[M.Name] = {{"loop", M.What},
                 {"core_clock_probe_ghz", K < ProbeGHz.size() ? ProbeGHz[K] : 0},
                 {"curve", curveJson(M)}};
  }
  return J;
}

void StridedResult::print(std::ostream &OS) const {
  OS << "\nStrided walk (4 KiB stride, one access per line), GB/s of lines (" << Stat
     << " of " << Reps << " samples; spread over repetitions)\n"
     << pad("footprint", 11, true);
  for (const MemKernel &M : Curves)
    OS << pad(M.Name, 17) << pad("spread", 8);
  OS << "\n";
  for (size_t I = 0; I < Curves.front().W.size(); ++I) {
    OS << pad(bytes(Curves.front().W[I]), 11, true);
    for (const MemKernel &M : Curves) {
      std::vector<double> Rates;
      for (double T : M.Times[I])
        if (T > 0)
          Rates.push_back(1 / T);
      OS << pad(I < M.Bw.size() ? fmt(M.Bw[I] / 1e9, 3) : "-", 17) << pad(pct(relSpread(Rates)), 8);
    }
    OS << "\n";
  }
}

// --- overlap of core and memory ---------------------------------------------------------

OverlapResult LowLevelBench::runOverlap() {
  OverlapResult R;
  R.stamp(O);
  std::vector<CacheInfo> Caches = caches("overlap");
  double L1 = Caches.front().Size, L2 = Caches.size() > 1 ? Caches[1].Size : 4 * L1;
  double Last = std::max(lastLevelExtent("overlap"), 2 * L2);
  R.W = {L1 / 4, L2 / 2, 2 * L2};
  if (Caches.size() > 2)
    R.W.push_back(Last / 4);
  R.W.push_back(4 * Last);
  binary();
  std::vector<std::string> Args{fmt(O.TargetS, 3)};
  for (double W : R.W)
    Args.push_back(fmt(W, 12));
  std::cerr << "calibrate: overlap: chains of 1/4, 1, 2, 4 multiply-adds per element over 1 "
               "and 2 streams at "
            << R.W.size() << " footprints, " << bytes(R.W.front()) << ".." << bytes(R.W.back())
            << ellipsis() << "\n";
  json J = runChecked("overlap", Args, 900, "overlap", R.ProbeGHz);
  for (const json &K : J.at("overlap")) {
    OverlapResult::Kernel Kn;
    Kn.Streams = K.at("streams").get<int>();
    Kn.Chain = K.at("chain").get<double>();
    const json &Pts = K.at("points");
    if (Pts.size() != R.W.size())
      throw CalibError("overlap: " + std::to_string(Pts.size()) + " footprints, expected " +
                       std::to_string(R.W.size()));
    for (const json &P : Pts) {
      Kn.N.push_back(P.at("n").get<double>());
      Kn.Times.push_back(timesOf(P, O.Reps, "overlap", Samples, Disturbed));
    }
    R.Kernels.push_back(std::move(Kn));
  }
  reportDisturbed("overlap");
  for (size_t J2 = 1; J2 < R.W.size(); ++J2) {
    std::vector<double> Tc, Tm, T;
    R.points(J2, -1, Tc, Tm, T);
    R.Fits.push_back(fitOverlap(Tc, Tm, T));
    std::vector<double> Ps;
    for (int Rep = 0; Rep < O.Reps; ++Rep) {
      R.points(J2, Rep, Tc, Tm, T);
      Ps.push_back(fitOverlap(Tc, Tm, T).P);
    }
    R.PRep.push_back(std::move(Ps));
  }
  return R;
}

void OverlapResult::points(size_t J, int Rep, std::vector<double> &Tc, std::vector<double> &Tm,
                           std::vector<double> &T) const {
  Tc.clear(), Tm.clear(), T.clear();
  auto At = [&](const Kernel &K, size_t I) {
    return Rep >= 0 ? K.Times[I][static_cast<size_t>(Rep)] : stat(K.Times[I], Stat);
  };
  for (const Kernel &K : Kernels) {
    if (K.Chain == 0)
      continue;
    const Kernel *Ref = nullptr;
    for (const Kernel &X : Kernels)
      if (X.Chain == 0 && X.Streams == K.Streams)
        Ref = &X;
    if (!Ref)
      throw CalibError("overlap: no reference kernel over " + std::to_string(K.Streams) +
                       " streams");
    Tc.push_back(At(K, 0) / K.N[0] * K.N[J]);
    Tm.push_back(At(*Ref, J) / Ref->N[J] * K.N[J]);
    T.push_back(At(K, J));
  }
}

ParamList OverlapResult::params() const {
  ParamList P;
  for (size_t I = 0; I < Fits.size(); ++I) {
    const OverlapFit &F = Fits[I];
    P.push_back({memoryCurveKey(I, "working_set", "overlap"),
                 CostEntry::of(W[I + 1], "B", "derived",
                               "footprint of point " + std::to_string(I) +
                                   " of the overlap benchmark (chosen by the benchmark)")});
    P.push_back({memoryCurveKey(I, "exponent", "overlap"),
                 measured(F.P, "1", relSpread(PRep[I]),
                          "segtime calibrate " + Date +
                              ": p of t = (t_core^p + t_mem^p)^(1/p) (predictor/Overlap.h) "
                              "by least squares on ln t over chains of 1/4, 1, 2, 4 dependent "
                              "multiply-adds per element over 1 and 2 streams at this "
                              "footprint; t_core their time per element at " +
                              bytes(W[0]) + " (in L1), t_mem the same streams into 8 "
                              "independent sums; " +
                              LowLevelBench::compileFlags() + ", " +
                              sampling(Stat, Reps, TargetS) + " (core clock probe " +
                              fmt(ProbeGHz, 3) + " GHz); rms residual " + pct(F.RmsRel) +
                              " (max, full overlap: " + pct(F.RmsMax) + "; sum, none: " +
                              pct(F.RmsSum) + ")" + rangeText(PRep[I]))});
  }
  return P;
}

json OverlapResult::toJson() const {
  json Pts = json::array();
  for (size_t I = 0; I < Fits.size(); ++I) {
    std::vector<double> Tc, Tm, T;
    points(I + 1, -1, Tc, Tm, T);
    json Ks = json::array();
    size_t C = 0;
    for (const Kernel &K : Kernels)
      if (K.Chain > 0) {
        Ks.push_back({{"streams", K.Streams}, {"chain", K.Chain}, {"n", K.N[I + 1]},
                      {"t_core_s", Tc[C]}, {"t_mem_s", Tm[C]}, {"measured_s", T[C]},
                      {"residual", Fits[I].Residuals[C]}});
        ++C;
      }
    Pts.push_back({{"working_set_bytes", W[I + 1]}, {"exponent", Fits[I].P},
                   {"exponent_per_rep", PRep[I]}, {"rms_residual", Fits[I].RmsRel},
                   {"rms_residual_max", Fits[I].RmsMax}, {"rms_residual_sum", Fits[I].RmsSum},
                   {"kernels", Ks}});
  }
  return {{"core_clock_probe_ghz", ProbeGHz}, {"in_l1_bytes", W.front()}, {"points", Pts}};
}

void OverlapResult::print(std::ostream &OS) const {
  OS << "\nOverlap of core and memory time, t = (t_core^p + t_mem^p)^(1/p) (" << Stat << " of "
     << Reps << " samples)\n"
     << pad("footprint", 11, true) << pad("p", 8) << pad("spread", 8) << pad("rms resid", 11)
     << pad("max", 8) << pad("sum", 8) << "\n";
  for (size_t I = 0; I < Fits.size(); ++I)
    OS << pad(bytes(W[I + 1]), 11, true) << pad(fmt(Fits[I].P, 3), 8)
       << pad(pct(relSpread(PRep[I])), 8) << pad(pct(Fits[I].RmsRel), 11)
       << pad(pct(Fits[I].RmsMax), 8) << pad(pct(Fits[I].RmsSum), 8) << "\n";
}

// --- plots ---------------------------------------------------------------------------------

namespace {

/// Runs gnuplot (Gnuplot.h) for Dir/Name.png and .svg; CalibError if it fails.
std::vector<std::string> gnuplot(const fs::path &Dir, const std::string &Name,
                                 const std::string &Setup, const std::string &Plot) {
  try {
    return gnuplotImages(Dir.string(), Name, Setup, Plot);
  } catch (const std::runtime_error &E) {
    throw CalibError(E.what());
  }
}

/// One curve of a plot: its points (X[I], Y[I]) and the rest of its plot
/// clause after "using 1:2 with " (style and title).
struct Series {
  std::string Header;
  std::vector<double> X, Y;
  std::string Style;
};

/// Writes the curves to DatFile, one gnuplot `index` each (a "# Header" line,
/// a row "x y" per point, two blank lines), and returns the plot command that
/// draws them.
std::string seriesPlot(const fs::path &DatFile, const std::vector<Series> &All) {
  std::ofstream Dat(DatFile);
  Dat.precision(8);
  std::string Plot = "plot ";
  for (size_t K = 0; K < All.size(); ++K) {
    const Series &S = All[K];
    Dat << "# " << S.Header << "\n";
    for (size_t I = 0; I < S.X.size(); ++I)
      Dat << S.X[I] << " " << S.Y[I] << "\n";
    Dat << "\n\n";
    Plot += (K ? ", \\\n  " : "") + gpString(DatFile.string()) + " index " + std::to_string(K) +
            " using 1:2 with " + S.Style;
  }
  return Plot + "\n";
}

} // namespace

std::vector<std::string> plotLowLevel(const std::string &DirS, const RinfResult *Rinf,
                                      const PolyMemResult *Poly, const CacheResult *Caches) {
  fs::path Dir = fs::absolute(DirS);
  std::error_code EC;
  fs::create_directories(Dir, EC);
  if (EC)
    throw CalibError("--plot: cannot create directory '" + DirS + "': " + EC.message());
  std::vector<std::string> Out;
  // The data files are named by absolute paths in the plot commands.
  if (Rinf) {
    std::vector<Series> Curves;
    for (size_t K = 0; K < Rinf->Kernels.size(); ++K) {
      const auto &Kn = Rinf->Kernels[K];
      Series S{Kn.K.Name + ": n t_s", Kn.N, {},
               "points pt 7 ps 0.7 lc " + std::to_string(K + 1) + " title " +
                   gpString(Kn.K.Name + " measured") + ", " + fmt(Kn.Fit.T0 * 1e9, 6) + " + x * " +
                   fmt(Kn.K.Q / Kn.Fit.RInf * 1e9, 6) + " with lines lc " +
                   std::to_string(K + 1) + " title " +
                   gpString(Kn.K.Name + " fit: r_∞ = " + fmt(Kn.Fit.RInf / 1e6, 4) +
                            " Mflop/s, n_{1/2} = " + fmt(Kn.Fit.XHalf, 3))};
      for (double T : Kn.T)
        S.Y.push_back(T * 1e9);
      Curves.push_back(std::move(S));
    }
    std::string Plot = seriesPlot(Dir / "rinf1.dat", Curves);
    auto P = gnuplot(Dir, "rinf1",
                     "set title \"RINF1: t = q (n + n_{1/2}) / r_∞ (PARKBENCH-93 eq. 3.1)\"\n"
                     "set xlabel \"vector length n\"\nset ylabel \"time per call (ns)\"\n"
                     "set key left top\nset grid\nset xrange [0:*]\nset yrange [0:*]\n",
                     Plot);
    Out.insert(Out.end(), P.begin(), P.end());
  }
  if (Poly) {
    std::vector<Series> Curves;
    for (const MemKernel &M : Poly->Mem) {
      Series S{M.Name + ": bytes GB/s", M.W, {},
               "linespoints pt 7 ps 0.6 lw 2 title " + gpString(M.Name + " (" + M.What + ")")};
      for (double B : M.Bw)
        S.Y.push_back(B / 1e9);
      Curves.push_back(std::move(S));
    }
    std::string Plot = seriesPlot(Dir / "bandwidth.dat", Curves);
    std::string Setup = "set title \"bandwidth against working set (-O2 -march=native)\"\n"
                        "set xlabel \"working set (bytes)\"\nset ylabel \"GB/s loaded + stored\"\n"
                        "set logscale x 2\nset format x \"2^{%L}\"\nset yrange [0:*]\n"
                        "set key right center\nset grid\n";
    for (const CacheInfo &C : Poly->Caches)
      Setup += "set arrow from " + fmt(C.Size, 8) + ", graph 0 to " + fmt(C.Size, 8) +
               ", graph 1 nohead dt 2 lc rgb \"gray40\"\nset label " +
               gpString(C.Name + " " + bytes(C.Size)) + " at " + fmt(C.Size, 8) +
               ", graph 0.97 right offset -0.5,0\n";
    auto P = gnuplot(Dir, "bandwidth", Setup, Plot);
    Out.insert(Out.end(), P.begin(), P.end());
  }
  if (Caches && Caches->Measured) {
    std::ofstream Dat(Dir / "caches.dat");
    Dat.precision(6);
    Dat << "# bytes latency_ns read_GBps\n";
    for (size_t I = 0; I < Caches->W.size(); ++I)
      Dat << Caches->W[I] << " " << Caches->Lat[I] * 1e9 << " " << Caches->Read[I] / 1e9 << "\n";
    Dat.close();
    std::string D = gpString((Dir / "caches.dat").string());
    std::string Setup =
        "set title \"capacity sweep: random pointer chase and read bandwidth\"\n"
        "set xlabel \"working set (bytes)\"\nset ylabel \"latency (ns per dependent load)\"\n"
        "set y2label \"read bandwidth (GB/s)\"\nset logscale x 2\nset logscale y 10\n"
        "set format x \"2^{%L}\"\nset ytics nomirror\nset y2tics\nset y2range [0:*]\n"
        "set key left center\nset grid\n";
    // Detected levels: the effective size (solid), the reported size (dashed).
    double Y = 0.97;
    for (const MeasuredLevel &M : Caches->Levels) {
      if (!M.Knee)
        continue;
      Setup += "set arrow from " + fmt(M.Size, 8) + ", graph 0 to " + fmt(M.Size, 8) +
               ", graph 1 nohead lw 2 lc rgb \"dark-red\"\nset label " +
               gpString(M.Name + " " + bytes(M.Size) + " (" + fmt(M.Latency * 1e9, 3) + " ns)") +
               " at " + fmt(M.Size, 8) + ", graph " + fmt(Y, 3) + " right offset -0.5,0 tc rgb \"dark-red\"\n";
      Y -= 0.05;
    }
    for (const CacheInfo &C : Caches->hierarchy()) {
      const CacheReport *R = Caches->Probe.reported(std::atoi(C.Name.c_str() + 1));
      if (!R || R->Size > Caches->W.back())
        continue;
      Setup += "set arrow from " + fmt(R->Size, 8) + ", graph 0 to " + fmt(R->Size, 8) +
               ", graph 1 nohead dt 2 lc rgb \"gray40\"\nset label " +
               gpString(C.Name + " reported " + bytes(R->Size)) + " at " + fmt(R->Size, 8) +
               ", graph 0.05 left offset 0.5,0 tc rgb \"gray40\"\n";
    }
    std::string Plot = "plot " + D + " using 1:2 axes x1y1 with linespoints pt 7 ps 0.5 lw 2 "
                       "title \"latency (ns)\", \\\n  " + D +
                       " using 1:3 axes x1y2 with linespoints pt 5 ps 0.5 lw 2 "
                       "title \"read bandwidth (GB/s)\"\n";
    auto P = gnuplot(Dir, "caches", Setup, Plot);
    Out.insert(Out.end(), P.begin(), P.end());
  }
  return Out;
}

} // namespace segtime
