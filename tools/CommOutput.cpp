//===- CommOutput.cpp - segtime comm calibrate: file, tables, plot --------===//
///
/// \file
/// The outputs of a `segtime comm calibrate` run (CommCalibrate.h): the comm
/// section of the machine file, the text tables, the JSON report and the
/// COMMS1 plot.
///
//===----------------------------------------------------------------------===//
#include "tools/CommCalibrate.h"
#include "tools/Gnuplot.h"
#include "predictor/CommFit.h"
#include "predictor/CommModels.h"
#include "predictor/Install.h"
#include "predictor/Machine.h"
#include "tools/Process.h"
#include "predictor/Stats.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

using json = nlohmann::ordered_json;
namespace fs = std::filesystem;

namespace segtime::comm {

namespace {

std::string refOf(const Results &Res, const std::string &Bench, int Reps) {
  return "segtime comm calibrate: " + Bench + ", " + Res.R.Mpi.substr(0, Res.R.Mpi.find(',')) +
         ", np " + std::to_string(Res.R.Np) + ", median of " + std::to_string(Reps) + ", " +
         Res.Date;
}

CostEntry entry(double V, const std::string &Unit, const std::string &Prov,
                const std::string &Ref, std::optional<double> Spread = std::nullopt) {
  return CostEntry::of(V, Unit, Prov, Ref, Spread);
}

ParamList commParams(const Results &Res, int Reps) {
  ParamList L;
  for (const HockneyResult &H : Res.Hockney) {
    std::string Name = H.Key == "comms1" ? "hockney" : H.Key;
    ParamList P = H.Fit.Model.toParams(Name, "measured", refOf(Res, H.Title, Reps));
    for (auto &[Key, E] : P) {
      // "<name>.<k>.<param>": attach the per-repetition spread.
      size_t A = Key.find('.'), B = Key.rfind('.');
      size_t K = std::stoul(Key.substr(A + 1, B - A - 1));
      std::string Par = Key.substr(B + 1);
      if (Par == "r_inf")
        E.Spread = H.RInfSpread[K];
      else if (Par == "n_half")
        E.Spread = H.NHalfSpread[K];
      L.push_back({Key, E});
    }
    if (H.Key == "comms3")
      L.push_back({"comms3.p", entry(Res.R.Np, "1", "derived",
                                     "the number of processes of the run: " + refOf(Res, H.Title, Reps))});
  }
  std::string SRef = refOf(Res, "SYNCH1 barrier, p = 1.." + std::to_string(Res.R.Np), Reps);
  L.push_back({"synch1.t0", entry(Res.Synch1->Model.T0, "s", "measured", SRef, Res.T0Spread)});
  L.push_back({"synch1.t1", entry(Res.Synch1->Model.T1, "s", "measured", SRef, Res.T1Spread)});
  if (!Res.LogGP)
    return L;
  std::string LRef = refOf(Res, "LogGP from PRTT(n,d,s)", Reps);
  const LogGPModel &G = Res.LogGP->Model;
  L.push_back({"loggp.L", entry(G.L, "s", "measured", LRef, Res.LogGPSpread[0])});
  L.push_back({"loggp.o", entry(G.O, "s", "measured", LRef, Res.LogGPSpread[1])});
  L.push_back({"loggp.g", entry(G.Gap, "s", "measured", LRef, Res.LogGPSpread[2])});
  L.push_back({"loggp.G", entry(G.G, "s/B", "measured", LRef, Res.LogGPSpread[3])});
  L.push_back({"loggp.P", entry(G.P, "1", "derived", "the number of processes of the run: " + LRef)});
  return L;
}

} // namespace

/// Rewrites the comm section of O.Out (creating a minimal machine file if
/// missing); comm entries of other models (e.g. parsytec) are kept.
void writeMachine(const Options &O, const Results &Res) {
  ParamList L = commParams(Res, O.Reps);
  if (fs::exists(O.Out)) {
    Machine M = readMachine(O.Out);
    static const std::set<std::string> Ours = {"hockney", "comms2", "comms3", "synch1", "loggp"};
    for (const auto &[Key, E] : M.Params) {
      if (Key.rfind("comm.", 0) != 0)
        continue;
      std::string Rest = Key.substr(5);
      if (!Ours.count(Rest.substr(0, Rest.find('.'))))
        L.push_back({Rest, E});
    }
  } else {
    std::error_code EC;
    if (fs::path(O.Out).has_parent_path())
      fs::create_directories(fs::path(O.Out).parent_path(), EC);
    std::ofstream F(O.Out);
    F << "# Machine file created by segtime comm calibrate (" << Res.Date << ").\n"
      << "schema: segtime.machine/1\nname: " << O.Name << "\nlevels: {}\n";
    if (!F)
      throw CommError(O.Out + ": cannot write");
  }
  std::string Text = paramsSectionYaml(
      "comm", L,
      {"comm: measured by segtime comm calibrate on " + Res.R.Host + ", " + Res.Date + ", np " +
           std::to_string(Res.R.Np) + " (docs/comm.md)",
       "hockney = COMMS1 ping-pong; comms2/comms3 are fitted against the bytes moved per "
       "operation (2n, p(p-1)n)"});
  updateMachineFile(O.Out, "comm", Text);
}

//===--- Reports ----------------------------------------------------------===//

namespace {

json optJson(const std::optional<double> &V) { return V ? json(*V) : json(nullptr); }

json hockneyJson(const HockneyResult &H) {
  json J;
  J["title"] = H.Title;
  J["bytes_per_message"] = H.Key == "comms1" ? "n" : H.Key == "comms2" ? "2n" : "p(p-1)n";
  json Segs = json::array();
  for (size_t S = 0; S < H.Fit.Model.Segments.size(); ++S) {
    const auto &G = H.Fit.Model.Segments[S];
    Segs.push_back({{"upto", std::isfinite(G.UpTo) ? json(G.UpTo) : json(nullptr)},
                    {"r_inf", G.RInf},
                    {"n_half", G.NHalf},
                    {"t0", G.t0()},
                    {"pi0", G.pi0()},
                    {"r_inf_spread", optJson(H.RInfSpread[S])},
                    {"n_half_spread", optJson(H.NHalfSpread[S])}});
  }
  J["model"] = {{"name", "hockney-piecewise"},
                {"equation", "PARKBENCH-93 eq. 3.4: t = (N + n_half)/r_inf per range"},
                {"segments", Segs},
                {"max_abs_rel_residual", H.Fit.Residuals.MaxAbsRel},
                {"rms_rel_residual", H.Fit.Residuals.RmsRel}};
  json Pts = json::array();
  for (size_t I = 0; I < H.Points.size(); ++I) {
    const Point &P = H.Points[I];
    Pts.push_back({{"n", P.X},
                   {"bytes", P.X * H.BytesPerN},
                   {"median", P.Median},
                   {"min", P.Min},
                   {"spread", optJson(P.Spread)},
                   {"iters", P.Iters},
                   {"retries", P.Retries},
                   {"disturbed", P.Disturbed},
                   {"fitted", H.Fit.Residuals.Fitted[I]},
                   {"rel_residual", H.Fit.Residuals.Rel[I]},
                   {"segment", H.Fit.SegmentOf[I]}});
  }
  J["points"] = Pts;
  return J;
}

std::string num(double V, int Prec = 4) {
  std::ostringstream OS;
  OS << std::setprecision(Prec) << V;
  return OS.str();
}
std::string us(double S) { return num(S * 1e6); }
std::string pct(double R) {
  std::ostringstream OS;
  OS << std::showpos << std::fixed << std::setprecision(1) << R * 100;
  return OS.str();
}
std::string pctOpt(const std::optional<double> &R) {
  if (!R)
    return "-";
  std::ostringstream OS;
  OS << std::fixed << std::setprecision(*R >= 0.1 ? 0 : 1) << *R * 100 << "%";
  return OS.str();
}

void printHockney(const HockneyResult &H, int Reps) {
  std::cout << "\n" << H.Title << " (time per "
            << (H.Key == "comms1"   ? "message: half the round trip"
                : H.Key == "comms2" ? "exchange of n bytes each way; fitted against N = 2n"
                                    : "round of p(p-1) messages; fitted against N = p(p-1)n")
            << "), median of " << Reps << "\n";
  std::cout << std::setw(10) << "n B" << std::setw(12) << "median us" << std::setw(11)
            << "min us" << std::setw(9) << "spread" << std::setw(12) << "fitted us"
            << std::setw(9) << "resid %" << std::setw(5) << "rng" << "\n";
  for (size_t I = 0; I < H.Points.size(); ++I) {
    const Point &P = H.Points[I];
    std::cout << std::setw(10) << static_cast<long>(P.X) << std::setw(12) << us(P.Median)
              << std::setw(11) << us(P.Min) << std::setw(9) << pctOpt(P.Spread) << std::setw(12)
              << us(H.Fit.Residuals.Fitted[I]) << std::setw(9) << pct(H.Fit.Residuals.Rel[I])
              << std::setw(5) << H.Fit.SegmentOf[I] << "\n";
  }
  std::cout << "piecewise Hockney fit (PARKBENCH-93 eq. 3.4, " << H.Fit.Model.Segments.size()
            << " range" << (H.Fit.Model.Segments.size() > 1 ? "s" : "")
            << "): max |residual| " << num(H.Fit.Residuals.MaxAbsRel * 100, 3) << "%, rms "
            << num(H.Fit.Residuals.RmsRel * 100, 3) << "%\n";
  std::cout << std::setw(5) << "rng" << std::setw(14) << "N up to B" << std::setw(13)
            << "r_inf MB/s" << std::setw(9) << "spread" << std::setw(12) << "n_1/2 B"
            << std::setw(11) << "t_0 us" << std::setw(13) << "pi_0 1/s" << "\n";
  for (size_t S = 0; S < H.Fit.Model.Segments.size(); ++S) {
    const auto &G = H.Fit.Model.Segments[S];
    std::cout << std::setw(5) << S << std::setw(14)
              << (std::isfinite(G.UpTo) ? std::to_string(static_cast<long>(G.UpTo)) : "-")
              << std::setw(13) << num(G.RInf / 1e6, 5) << std::setw(9) << pctOpt(H.RInfSpread[S])
              << std::setw(12) << num(G.NHalf, 5) << std::setw(11) << us(G.t0()) << std::setw(13)
              << num(G.pi0(), 4) << "\n";
  }
}

} // namespace

json resultsJson(const Options &O, const Results &Res) {
  json J;
  J["mpi"] = Res.R.Mpi;
  J["host"] = Res.R.Host;
  J["np"] = Res.R.Np;
  J["reps"] = O.Reps;
  J["date"] = Res.Date;
  J["machine_file"] = O.NoWrite ? json(nullptr) : json(O.Out);
  for (const HockneyResult &H : Res.Hockney)
    J[H.Key] = hockneyJson(H);
  const BarrierFit &B = *Res.Synch1;
  json SP = json::array();
  const std::vector<Point> &Sy = Res.R.Series.at("synch1");
  for (size_t I = 0; I < Sy.size(); ++I)
    SP.push_back({{"p", Sy[I].X},
                  {"median", Sy[I].Median},
                  {"min", Sy[I].Min},
                  {"spread", optJson(Sy[I].Spread)},
                  {"barriers_per_s", 1 / Sy[I].Median},
                  {"fitted", B.Residuals.Fitted[I]},
                  {"rel_residual", B.Residuals.Rel[I]}});
  J["synch1"] = {{"title", "SYNCH1 barrier"},
                 {"model",
                  {{"name", "barrier-log2p"},
                   {"equation", "t(p) = t0 + t1 ceil(log2 p) (PARKBENCH-93 §3.3.4)"},
                   {"t0", B.Model.T0},
                   {"t1", B.Model.T1},
                   {"t0_spread", optJson(Res.T0Spread)},
                   {"t1_spread", optJson(Res.T1Spread)},
                   {"max_abs_rel_residual", B.Residuals.MaxAbsRel}}},
                 {"points", SP}};
  if (!Res.LogGP) {
    J["loggp"] = {{"title", "LogGP from PRTT(n, d, s)"}, {"error", Res.LogGPError}};
    return J;
  }
  const LogGPFit &L = *Res.LogGP;
  json LP = json::array();
  for (size_t I = 0; I < Res.R.Prtt.size(); ++I) {
    const PrttRaw &Q = Res.R.Prtt[I];
    PrttPoint X{Q.S, median(Q.P1), median(Q.PN), median(Q.PD), Q.N, Q.D};
    LP.push_back({{"s", Q.S},
                  {"n", Q.N},
                  {"d", Q.D},
                  {"prtt1", X.Prtt1},
                  {"prttn", X.PrttN},
                  {"prttd", X.PrttD},
                  {"gap", X.gap()},
                  {"o", X.overhead()},
                  {"half_prtt1", L.Residuals.Measured[I]},
                  {"fitted", L.Residuals.Fitted[I]},
                  {"rel_residual", L.Residuals.Rel[I]}});
  }
  const LogGPConsistency &C = *Res.Consistency;
  J["loggp"] = {{"title", "LogGP from PRTT(n, d, s)"},
                {"model",
                 {{"name", "loggp"},
                  {"L", L.Model.L},
                  {"o", L.Model.O},
                  {"g", L.Model.Gap},
                  {"G", L.Model.G},
                  {"P", L.Model.P},
                  {"max_abs_rel_residual", L.Residuals.MaxAbsRel},
                  {"G_fit_max_abs_rel_residual", L.GapResiduals.MaxAbsRel}}},
                {"consistency_with_comms1",
                 {{"startup_diff", C.StartupDiff},
                  {"byte_time_diff", C.ByteTimeDiff},
                  {"gap_ok", C.GapOk}}},
                {"points", LP}};
  return J;
}

void printText(const Options &O, const Results &Res) {
  std::cout << "segtime comm calibrate: " << Res.R.Mpi.substr(0, Res.R.Mpi.find(','))
            << ", np " << Res.R.Np << ", host " << Res.R.Host << ", " << Res.Date << "\n";
  for (const HockneyResult &H : Res.Hockney)
    printHockney(H, O.Reps);

  const BarrierFit &B = *Res.Synch1;
  const std::vector<Point> &Sy = Res.R.Series.at("synch1");
  std::cout << "\nSYNCH1 barrier (MPI_Barrier over the first p ranks), median of " << O.Reps
            << "\n"
            << std::setw(5) << "p" << std::setw(12) << "median us" << std::setw(11) << "min us"
            << std::setw(9) << "spread" << std::setw(14) << "barriers/s" << std::setw(12)
            << "fitted us" << std::setw(9) << "resid %" << "\n";
  for (size_t I = 0; I < Sy.size(); ++I)
    std::cout << std::setw(5) << static_cast<int>(Sy[I].X) << std::setw(12) << us(Sy[I].Median)
              << std::setw(11) << us(Sy[I].Min) << std::setw(9) << pctOpt(Sy[I].Spread)
              << std::setw(14) << num(1 / Sy[I].Median, 4) << std::setw(12)
              << us(B.Residuals.Fitted[I]) << std::setw(9) << pct(B.Residuals.Rel[I]) << "\n";
  std::cout << "t(p) = t_b0 + t_b1 ceil(log2 p): t_b0 = " << us(B.Model.T0)
            << " us, t_b1 = " << us(B.Model.T1) << " us\n";

  if (!Res.LogGP) {
    std::cout << "\nLogGP from PRTT(n, d, s): no fit: " << Res.LogGPError << "\n";
    return;
  }
  const LogGPFit &L = *Res.LogGP;
  std::cout << "\nLogGP from PRTT(n, d, s) (n = "
            << (Res.R.Prtt.empty() ? 0 : static_cast<int>(Res.R.Prtt[0].N))
            << ", d = PRTT(1,0,s)), median of " << O.Reps << "\n"
            << std::setw(10) << "s B" << std::setw(12) << "PRTT1 us" << std::setw(12)
            << "PRTTn us" << std::setw(12) << "PRTTd us" << std::setw(11) << "gap us"
            << std::setw(10) << "o us" << std::setw(12) << "t(s) us" << std::setw(9)
            << "resid %" << "\n";
  for (size_t I = 0; I < Res.R.Prtt.size(); ++I) {
    const PrttRaw &Q = Res.R.Prtt[I];
    PrttPoint X{Q.S, median(Q.P1), median(Q.PN), median(Q.PD), Q.N, Q.D};
    std::cout << std::setw(10) << static_cast<long>(Q.S) << std::setw(12) << us(X.Prtt1)
              << std::setw(12) << us(X.PrttN) << std::setw(12) << us(X.PrttD) << std::setw(11)
              << us(X.gap()) << std::setw(10) << us(X.overhead()) << std::setw(12)
              << us(L.Residuals.Fitted[I]) << std::setw(9) << pct(L.Residuals.Rel[I]) << "\n";
  }
  std::cout << "L = " << us(L.Model.L) << " us, o = " << us(L.Model.O)
            << " us, g = " << us(L.Model.Gap) << " us, G = " << num(L.Model.G * 1e9)
            << " ns/B (" << num(1 / L.Model.G / 1e6, 5) << " MB/s), P = " << L.Model.P << "\n";
  const LogGPConsistency &C = *Res.Consistency;
  std::cout << "consistency with COMMS1: L + 2o - G vs t_0 " << pct(C.StartupDiff)
            << "%, G vs 1/r_inf (last range) " << pct(C.ByteTimeDiff) << "%, g <= t_0 + G: "
            << (C.GapOk ? "yes" : "no") << "\n";
  if (L.Model.L < 0)
    std::cout << "note: L < 0: the send overhead o is most of the one-message time here "
                 "(shared memory); LogGP's o_s = o_r assumption does not hold\n";
}

//===--- Plot -------------------------------------------------------------===//

/// DIR/comms1.{dat,gp,png,svg}: measured median (with min..max bars) and the
/// fitted piecewise model, log-log.
std::vector<std::string> plotComms1(const std::string &Dir, const HockneyResult &H,
                                    const std::string &Title) {
  std::error_code EC;
  fs::create_directories(Dir, EC);
  if (EC)
    throw CommError("--plot: cannot create directory '" + Dir + "': " + EC.message());
  fs::path Base = fs::absolute(fs::path(Dir) / "comms1");
  std::string Dat = Base.string() + ".dat";
  {
    std::ofstream D(Dat);
    if (!D)
      throw CommError("--plot: cannot write " + Dat);
    D.precision(10);
    D << "# COMMS1 measured: n_B median_us min_us max_us\n";
    for (const Point &P : H.Points)
      D << P.X << " " << P.Median * 1e6 << " " << P.Min * 1e6 << " "
        << *std::max_element(P.Times.begin(), P.Times.end()) * 1e6 << "\n";
    const auto &Segs = H.Fit.Model.Segments;
    double Lo = H.Points.front().X, Hi = H.Points.back().X;
    for (size_t S = 0; S < Segs.size(); ++S) {
      double A = S == 0 ? Lo : std::nextafter(Segs[S - 1].UpTo, Hi) ;
      double B = std::isfinite(Segs[S].UpTo) ? Segs[S].UpTo : Hi;
      D << "\n\n# fitted range " << S << ": n_B t_us\n";
      for (int K = 0; K <= 60; ++K) {
        double N = A * std::pow(B / A, K / 60.0);
        D << N << " " << H.Fit.Model.time(N) * 1e6 << "\n";
      }
    }
  }
  std::string DatName = gpString("comms1.dat");
  std::ostringstream Plot;
  Plot << "plot " << DatName
       << " index 0 using 1:2:3:4 with yerrorbars ls 1 title \"measured median (bars: min..max)\"";
  for (size_t S = 0; S < H.Fit.Model.Segments.size(); ++S)
    Plot << ", \\\n     " << DatName << " index " << S + 1 << " using 1:2 with lines ls 2 title "
         << (S == 0 ? "\"fitted piecewise Hockney\"" : "\"\"");
  Plot << "\n";
  std::string Setup = "# segtime comm calibrate: COMMS1 ping-pong\nset title " + gpString(Title) +
                      "\nset xlabel \"message size n (B)\"\nset ylabel \"time (µs), half round "
                      "trip\"\nset logscale xy\nset grid\nset key left top\nset format x "
                      "\"%.0s%cB\"\nset style line 1 lc rgb \"" + std::string(seriesColour(0)) +
                      "\" pt 7 ps 0.7\nset style line 2 lc rgb \"" + seriesColour(1) +
                      "\" lw 2\n";
  try {
    return gnuplotImages(fs::absolute(Dir).string(), "comms1", Setup, Plot.str());
  } catch (const std::runtime_error &E) {
    throw CommError(E.what());
  }
}

} // namespace segtime::comm
