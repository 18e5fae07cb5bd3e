//===- CommCalibrate.cpp - segtime comm calibrate: MPI communication ------===//
///
/// \file
/// `segtime comm calibrate` measures this machine's communication with MPI
/// (Open MPI) and fits the models of predictor/CommModels.h (docs/comm.md):
///
///  - COMMS1 ping-pong (PARKBENCH-93 §3.3.1): piecewise Hockney
///    t = (n + n_1/2)/r_inf (eq. 3.4) with automatic breakpoints, written as
///    comm.hockney.<k>.{upto, r_inf, n_half, t0, pi0};
///  - COMMS2 exchange and COMMS3 all-to-all saturation (§3.3.1-3.3.2): the
///    same fit against the bytes moved per exchange (2n) or per all-to-all
///    round (p(p-1)n), so r_inf is the total (saturation) bandwidth:
///    comm.comms2.*, comm.comms3.* (+ comm.comms3.p);
///  - SYNCH1 barrier (§3.3.4): t(p) = t_b0 + t_b1 ceil(log2 p) over p = 1..np:
///    comm.synch1.{t0, t1};
///  - LogGP from PRTT(n, d, s) (Hoefler, Lichei, Rehm 2007):
///    comm.loggp.{L, o, g, G, P}, checked against the COMMS1 Hockney model.
///
/// The benchmarks (tools/commbench/commbench.c) are compiled with mpicc and
/// started with mpirun under a time-out that kills mpirun's whole process
/// group. Each point is --reps samples; fits use the medians, tables show
/// median, minimum and spread (max-min)/median. Parameter spreads are those
/// of the same fit made once per repetition (the k-th sample of every size).
///
/// USAGE:
///   segtime comm calibrate [--np P] [--out FILE] [--reps K] [--max-size B]
///                          [--json] [--plot DIR] [--quick] [--keep DIR]
///   segtime comm calibrate --out costvectors/local.yaml --plot plots/
///   segtime comm calibrate --quick --json --out /tmp/comm.yaml
///
/// Exit status: 0 ok, 2 usage error, missing or failing MPI, or a failed fit.
///
//===----------------------------------------------------------------------===//
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
#include "tools/CommCalibrate.h"
#include "tools/CommandLine.h"

using namespace segtime;
using namespace segtime::comm;
using json = nlohmann::ordered_json;
namespace fs = std::filesystem;

namespace {

const char *CommUsage =
    "usage: segtime comm SUBCOMMAND [options]\n"
    "\n"
    "subcommands:\n"
    "  calibrate   measure message passing with MPI (COMMS1/2/3, SYNCH1, LogGP)\n"
    "              and write the comm section of a machine file\n"
    "\n"
    "'segtime comm calibrate --help' describes the options.\n";

const char *Usage =
    "usage: segtime comm calibrate [options]\n"
    "\n"
    "Runs, with Open MPI on this machine, COMMS1 (ping-pong, half round trip),\n"
    "COMMS2 (exchange), COMMS3 (all-to-all, p(p-1) messages), SYNCH1 (barrier,\n"
    "p = 1..np) and a LogGP measurement (PRTT(n, d, s)); fits piecewise Hockney\n"
    "models t = (n + n_1/2)/r_inf (PARKBENCH-93 eq. 3.4, breakpoints found\n"
    "automatically), the SYNCH1 model and LogGP (L, o, g, G, P), and writes them\n"
    "with provenance into the comm section of a machine file.\n"
    "\n"
    "  --np P          MPI processes (default 2); more than the cores run\n"
    "                  oversubscribed (--oversubscribe, mpi_yield_when_idle)\n"
    "  --out FILE      machine file whose comm section is rewritten (default\n"
    "                  NAME.yaml in $XDG_DATA_HOME/segtime/machines, by default\n"
    "                  ~/.local/share/segtime/machines; created if missing)\n"
    "  --no-write      measure and print only\n"
    "  --name NAME     machine name when the file is created (default local)\n"
    "  --reps K        samples per point (default 15; 3 with --quick)\n"
    "  --sample-ms MS  length of one sample, ms (default 1; 0.3 with --quick)\n"
    "  --max-size B    largest message, bytes (default 4194304 = 4 MiB;\n"
    "                  65536 with --quick)\n"
    "  --timeout S     kill mpirun after S seconds (default: from the plan)\n"
    "  --max-ranges K  at most K message-size ranges per Hockney fit (default 8)\n"
    "  --quick         fewer sizes and samples: a smoke test, not a calibration\n"
    "  --json          print one JSON object instead of tables\n"
    "  --plot DIR      write DIR/comms1.{png,svg} (ping-pong time vs size,\n"
    "                  measured and fitted, log-log) with gnuplot\n"
    "  --keep DIR      keep the benchmark program and its raw output in DIR\n"
    "  --replay FILE   fit the raw output of an earlier run (DIR/commbench.jsonl\n"
    "                  of --keep DIR) instead of measuring\n"
    "\n"
    "Needs mpicc and mpirun in PATH (Debian: openmpi-bin libopenmpi-dev). As\n"
    "root, OMPI_ALLOW_RUN_AS_ROOT(_CONFIRM)=1 are set. Progress goes to stderr.\n"
    "Exit status: 0 ok, 2 usage error, missing or failing MPI, or failed fit.\n";

std::string today() {
  std::time_t T = std::time(nullptr);
  char Buf[32];
  std::strftime(Buf, sizeof Buf, "%Y-%m-%d", std::localtime(&T));
  return Buf;
}

//===--- Plan: sizes ------------------------------------------------------===//

/// COMMS sizes: powers of 2 (4 with --quick) and, but for --quick, 3*2^k
/// between them, from 1 B to Max, plus points around Open MPI's
/// shared-memory eager limit (btl_vader_eager_limit = 4096 B with the
/// header, so the switch is a little below 4096 B of payload). The other
/// switches of the vader transport (fast boxes up to 32 B, inline sends up to
/// 256 B, memcpy_limit 512 KiB; `ompi_info --param btl vader --level 9`) fall
/// on powers of 2, so each range has points on both sides.
std::vector<double> commsSizes(long Max, bool Quick) {
  std::set<long> S;
  for (long N = 1; N <= Max; N *= Quick ? 4 : 2) {
    S.insert(N);
    if (!Quick && 3 * N <= Max)
      S.insert(3 * N);
  }
  std::vector<long> Around = Quick ? std::vector<long>{3072, 4000, 4032, 4048, 4160, 6144}
                                   : std::vector<long>{3072, 3584, 3968, 4000, 4032, 4040, 4048,
                                                       4064, 4096, 4160, 4608, 6144};
  for (long N : Around)
    if (N <= Max)
      S.insert(N);
  S.insert(Max);
  return {S.begin(), S.end()};
}

/// LogGP sizes: up to 1 MiB. Streams of 16 larger messages are pathological
/// here (16 x 4 MiB back to back took 10 ms per message against 1 ms in
/// ping-pong: rendezvous with cache-cold buffers), and cost seconds per sample.
std::vector<double> loggpSizes(long Max, bool Quick) {
  long Top = std::min(Max, 1048576L);
  std::vector<double> R;
  for (long N : Quick ? std::vector<long>{1, 1024, 16384, 65536}
                      : std::vector<long>{1, 16, 256, 1024, 4096, 16384, 65536, 262144, 1048576})
    if (N <= Top)
      R.push_back(N);
  if (R.size() < 2 || R.back() != Top)
    R.push_back(Top);
  return R;
}

std::string joinSizes(const std::vector<double> &V) {
  std::string S;
  for (double X : V)
    S += (S.empty() ? "" : ",") + std::to_string(static_cast<long>(X));
  return S;
}

//===--- Running the benchmark --------------------------------------------===//

std::string need(const std::string &Prog) {
  std::optional<std::string> P = findInPath(Prog);
  if (!P)
    throw CommError(Prog + " not found in PATH; install Open MPI (Debian: apt-get install "
                           "openmpi-bin libopenmpi-dev, as scripts/setup.sh does)");
  return *P;
}

std::vector<double> numbers(const json &J, const char *Key) {
  return J.at(Key).get<std::vector<double>>();
}

Point makePoint(const json &J, double X, std::vector<double> Times) {
  Point P;
  P.X = X;
  P.Iters = J.at("iters");
  P.Disturbed = J.value("disturbed", 0);
  P.Retries = J.value("retries", 0);
  P.Times = std::move(Times);
  P.Median = median(P.Times);
  P.Min = *std::min_element(P.Times.begin(), P.Times.end());
  P.Spread = relSpread(P.Times);
  return P;
}

/// Parses the benchmark program's JSON lines; throws CommError naming the
/// line. Reps = 0: take the sample count from the first point.
Raw parseOutput(const std::string &Out, int &Reps) {
  Raw R;
  std::stringstream SS(Out);
  bool Done = false;
  int LineNo = 0;
  for (std::string L; std::getline(SS, L);) {
    ++LineNo;
    if (L.empty() || L[0] != '{')
      continue; // MPI libraries may print their own notes
    try {
      json J = json::parse(L);
      std::string B = J.at("bench");
      auto CheckReps = [&](const std::vector<double> &T) {
        if (Reps == 0)
          Reps = static_cast<int>(T.size());
        if (static_cast<int>(T.size()) != Reps)
          throw CommError("expected " + std::to_string(Reps) + " samples, got " +
                          std::to_string(T.size()));
        for (double X : T)
          if (!(X > 0))
            throw CommError("a time <= 0");
      };
      if (B == "info") {
        R.Np = J.at("np");
        R.Mpi = J.at("mpi");
        R.Host = J.at("host");
      } else if (B == "comms1" || B == "comms2" || B == "comms3") {
        std::vector<double> T = numbers(J, "times");
        CheckReps(T);
        R.Series[B].push_back(makePoint(J, J.at("n"), T));
      } else if (B == "synch1") {
        std::vector<double> T = numbers(J, "times");
        CheckReps(T);
        R.Series[B].push_back(makePoint(J, J.at("p"), T));
      } else if (B == "loggp") {
        PrttRaw P;
        P.S = J.at("s");
        P.N = J.at("n");
        P.D = J.at("d");
        P.Disturbed = J.value("disturbed", 0);
        P.Retries = J.value("retries", 0);
        P.P1 = numbers(J, "prtt1");
        P.PN = numbers(J, "prttn");
        P.PD = numbers(J, "prttd");
        CheckReps(P.P1);
        CheckReps(P.PN);
        CheckReps(P.PD);
        R.Prtt.push_back(P);
      } else if (B == "done") {
        Done = true;
      }
    } catch (const std::exception &E) {
      throw CommError("benchmark output line " + std::to_string(LineNo) + ": " + E.what() +
                      ": " + L.substr(0, 200));
    }
  }
  if (!Done)
    throw CommError("the benchmark program's output ended early (no 'done' line)");
  return R;
}

/// Compiles and runs commbench; returns its parsed output.
Raw measure(const Options &O, const fs::path &Dir) {
  std::string Mpirun = need("mpirun"), Mpicc = need("mpicc");
  // Open MPI refuses to run as root unless told; the ranks busy-poll, so an
  // oversubscribed run must yield (both documented in mpirun(1)).
  setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);
  setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
  unsigned Cores = std::max(1u, std::thread::hardware_concurrency());
  bool Over = static_cast<unsigned>(O.Np) > Cores;
  if (Over)
    setenv("OMPI_MCA_mpi_yield_when_idle", "1", 1);

  std::string Src = (dataDirectory() / "commbench" / "commbench.c").string();
  if (dataDirectory().empty() || !fs::exists(Src))
    throw CommError("the communication benchmarks (share/segtime/commbench/commbench.c of "
                    "the installation) are missing");
  std::string Bin = (Dir / "commbench").string();
  std::vector<std::string> Cc = {Mpicc, "-O2", "-o", Bin, Src};
  std::cerr << "comm: compiling " << Src << " with " << Mpicc << "\n";
  ProcessResult C = runProcess(Cc, (Dir / "mpicc.out").string(), (Dir / "mpicc.err").string(), 120);
  if (!C.ok())
    throw CommError("compiling the MPI benchmark failed (" + C.status() + ")\n  " +
                    commandLine(Cc) + "\n" + tail(C.Err + C.Out, 3000));

  std::vector<double> Sizes = commsSizes(O.MaxSize, O.Quick);
  std::vector<double> LSizes = loggpSizes(O.MaxSize, O.Quick);
  std::vector<std::string> Run = {Mpirun, "-np", std::to_string(O.Np)};
  if (Over)
    for (const char *A : {"--oversubscribe", "--bind-to", "none"})
      Run.push_back(A);
  for (const std::string &A :
       {Bin, std::string("--bench"), std::string("comms1,comms2,comms3,synch1,loggp"),
        std::string("--sizes"), joinSizes(Sizes), std::string("--loggp-sizes"),
        joinSizes(LSizes), std::string("--reps"), std::to_string(O.Reps),
        std::string("--sample-ms"), std::to_string(O.SampleMs), std::string("--retries"),
        std::to_string(10 * O.Reps), std::string("--check"), std::string(Over ? "0" : "1")})
    Run.push_back(A);

  // Plan: every point is a warm-up, Reps samples and the search for the
  // repetition count; large messages take longer than a sample.
  double Sample = O.SampleMs / 1000;
  double Points = 3.0 * Sizes.size() + O.Np + 3.0 * LSizes.size();
  double Expect = Points * (O.Reps + 4) * Sample + 3.0 * LSizes.size() * (O.Reps + 4) * 16 *
                                                       (O.MaxSize / 2e9);
  double Timeout = O.TimeoutS > 0 ? O.TimeoutS : 60 + 10 * Expect;
  std::cerr << "comm: " << (Over ? "oversubscribed, " : "") << "mpirun -np " << O.Np << ": "
            << Sizes.size() << " sizes 1 B.." << O.MaxSize << " B x COMMS1/2/3, SYNCH1 p=1.."
            << O.Np << ", LogGP at " << LSizes.size() << " sizes; " << O.Reps
            << " samples each (about " << std::max(1L, std::lround(Expect + 2))
            << " s, time-out " << std::lround(Timeout) << " s)\n";
  ProcessResult R = runProcess(Run, (Dir / "commbench.jsonl").string(),
                               (Dir / "commbench.err").string(), Timeout);
  if (R.TimedOut)
    throw CommError("mpirun " + R.status() + " (its process group was killed); is MPI "
                    "working here? Try: mpirun -np 2 hostname\n  " + commandLine(Run) +
                    "\n" + tail(R.Err, 3000));
  if (!R.ok())
    throw CommError("the MPI benchmark failed (" + R.status() + ")\n  " + commandLine(Run) +
                    "\n" + tail(R.Err + R.Out, 3000));
  int Reps = O.Reps;
  Raw Out = parseOutput(R.Out, Reps);
  if (Out.Np != O.Np)
    throw CommError("the benchmark ran with " + std::to_string(Out.Np) +
                    " processes, expected " + std::to_string(O.Np));
  long Samples = 0, Disturbed = 0, Retries = 0;
  for (const auto &[Name, Pts] : Out.Series)
    for (const Point &P : Pts) {
      Samples += O.Reps;
      Disturbed += P.Disturbed;
      Retries += P.Retries;
    }
  for (const PrttRaw &P : Out.Prtt) {
    Samples += 3 * O.Reps;
    Disturbed += P.Disturbed;
    Retries += P.Retries;
  }
  if (Over)
    std::cerr << "comm: warning: oversubscribed (" << O.Np << " processes on " << Cores
              << " cores): the ranks share CPUs, times include waiting for them\n";
  else
    std::cerr << "comm: " << Samples << " samples, " << Retries
              << " measured again because another process took a rank's CPU\n";
  if (Disturbed)
    std::cerr << "comm: warning: " << Disturbed << " of " << Samples
              << " samples kept although disturbed (retry budget exhausted; the machine is "
                 "busy: medians may be high, see the spread)\n";
  return Out;
}

//===--- Fits -------------------------------------------------------------===//

HockneyResult fitSeries(const std::string &Key, const std::string &Title, double BytesPerN,
                        const std::vector<Point> &Pts, int Reps, int MaxRanges) {
  HockneyResult H;
  H.Key = Key;
  H.Title = Title;
  H.BytesPerN = BytesPerN;
  H.Points = Pts;
  std::vector<double> X, T;
  for (const Point &P : Pts) {
    X.push_back(P.X * BytesPerN);
    T.push_back(P.Median);
  }
  try {
    PiecewiseOptions PO;
    PO.MaxSegments = MaxRanges;
    H.Fit = fitPiecewiseHockney(X, T, PO);
  } catch (const std::invalid_argument &E) {
    throw CommError(Title + ": " + E.what());
  }
  // Spread: the same ranges refitted with the r-th sample of every size.
  for (size_t S = 0; S < H.Fit.Model.Segments.size(); ++S) {
    std::vector<double> RInf, NHalf;
    for (int R = 0; R < Reps; ++R) {
      std::vector<double> Xs, Ts;
      for (size_t I = 0; I < Pts.size(); ++I)
        if (H.Fit.SegmentOf[I] == static_cast<int>(S)) {
          Xs.push_back(X[I]);
          Ts.push_back(Pts[I].Times[R]);
        }
      try {
        HockneyFit F = fitHockney(Xs, Ts);
        RInf.push_back(F.Model.Segments[0].RInf);
        NHalf.push_back(F.Model.Segments[0].NHalf);
      } catch (const std::invalid_argument &) {
        // that repetition's times fall with the size in this range: no value
      }
    }
    H.RInfSpread.push_back(relSpread(RInf));
    // n_1/2 of a range far from 0 can be negative: spread relative to |median|.
    std::optional<double> NS = relSpread(NHalf);
    if (!NS && NHalf.size() >= 2 && median(NHalf) != 0) {
      auto [Lo, Hi] = std::minmax_element(NHalf.begin(), NHalf.end());
      NS = (*Hi - *Lo) / std::fabs(median(NHalf));
    }
    H.NHalfSpread.push_back(NS);
  }
  return H;
}

Results fitAll(Raw R, int Reps, int MaxRanges) {
  Results Res;
  Res.Date = today();
  double P = R.Np;
  struct {
    const char *Key, *Title;
    double Bytes;
  } Benches[] = {{"comms1", "COMMS1 ping-pong", 1},
                 {"comms2", "COMMS2 exchange", 2},
                 {"comms3", "COMMS3 all-to-all", P * (P - 1)}};
  for (auto &B : Benches) {
    auto It = R.Series.find(B.Key);
    if (It == R.Series.end() || It->second.empty())
      throw CommError(std::string(B.Title) + ": the benchmark reported no points");
    Res.Hockney.push_back(fitSeries(B.Key, B.Title, B.Bytes, It->second, Reps, MaxRanges));
  }
  const std::vector<Point> &Sy = R.Series["synch1"];
  std::vector<int> Ps;
  std::vector<double> Ts;
  for (const Point &Q : Sy) {
    Ps.push_back(static_cast<int>(Q.X));
    Ts.push_back(Q.Median);
  }
  try {
    Res.Synch1 = fitBarrier(Ps, Ts);
    std::vector<double> T0s, T1s;
    for (int K = 0; K < Reps; ++K) {
      std::vector<double> Tk;
      for (const Point &Q : Sy)
        Tk.push_back(Q.Times[K]);
      BarrierFit F = fitBarrier(Ps, Tk);
      T0s.push_back(F.Model.T0);
      T1s.push_back(F.Model.T1);
    }
    Res.T0Spread = relSpread(T0s);
    Res.T1Spread = relSpread(T1s);
  } catch (const std::invalid_argument &E) {
    throw CommError(std::string("SYNCH1: ") + E.what());
  }
  std::vector<PrttPoint> Pts;
  for (const PrttRaw &Q : R.Prtt) {
    PrttPoint X;
    X.S = Q.S;
    X.N = Q.N;
    X.D = Q.D;
    X.Prtt1 = median(Q.P1);
    X.PrttN = median(Q.PN);
    X.PrttD = median(Q.PD);
    Pts.push_back(X);
  }
  try {
    Res.LogGP = fitLogGP(Pts, R.Np);
    Res.Consistency = checkConsistency(Res.LogGP->Model, Res.Hockney[0].Fit.Model);
    // Spread: the same fit on each repetition's samples alone.
    std::vector<double> Ls, Os, Gaps, Gs;
    size_t Reps = R.Prtt.empty() ? 0 : R.Prtt[0].P1.size();
    for (size_t K = 0; K < Reps; ++K) {
      std::vector<PrttPoint> One = Pts;
      bool Ok = true;
      for (size_t I = 0; I < R.Prtt.size(); ++I) {
        const PrttRaw &Q = R.Prtt[I];
        if (K >= Q.P1.size() || K >= Q.PN.size() || K >= Q.PD.size()) {
          Ok = false;
          break;
        }
        One[I].Prtt1 = Q.P1[K];
        One[I].PrttN = Q.PN[K];
        One[I].PrttD = Q.PD[K];
      }
      if (!Ok)
        break;
      try {
        LogGPModel G = fitLogGP(One, R.Np).Model;
        Ls.push_back(G.L);
        Os.push_back(G.O);
        Gaps.push_back(G.Gap);
        Gs.push_back(G.G);
      } catch (const std::invalid_argument &) {
      }
    }
    auto Spread = [](const std::vector<double> &V) -> std::optional<double> {
      if (V.size() < 2 || median(V) == 0)
        return std::nullopt;
      auto [Lo, Hi] = std::minmax_element(V.begin(), V.end());
      return (*Hi - *Lo) / std::fabs(median(V));
    };
    Res.LogGPSpread = {Spread(Ls), Spread(Os), Spread(Gaps), Spread(Gs)};
  } catch (const std::invalid_argument &E) {
    // The other models stand on their own: report, do not write LogGP.
    Res.LogGPError = E.what();
    std::cerr << "comm: warning: no LogGP parameters: " << E.what() << "\n";
  }
  Res.R = std::move(R);
  return Res;
}
//===--- Options ----------------------------------------------------------===//

/// Parses the options; returns false after printing --help.
bool parseOptions(int Argc, char **Argv, Options &O) {
  cli::ArgReader R(Argc, Argv);
  while (R.next()) {
    std::string A = R.flag();
    auto Next = [&] { return R.value(); };
    auto Whole = [&](long long Min, long long Max) { return cli::parseWhole(A, Next(), Min, Max); };
    if (A == "--help" || A == "-h") {
      std::cout << Usage;
      return false;
    } else if (A == "--np") {
      O.Np = static_cast<int>(Whole(2, 256));
    } else if (A == "--out" || A == "-o") {
      O.Out = Next();
    } else if (A == "--no-write") {
      O.NoWrite = true;
    } else if (A == "--name") {
      O.Name = Next();
    } else if (A == "--reps") {
      O.Reps = static_cast<int>(Whole(1, 1000));
      O.RepsGiven = true;
    } else if (A == "--sample-ms") {
      O.SampleMs = cli::parseNumber(A, Next());
      if (!(O.SampleMs > 0) || O.SampleMs > 10000)
        throw CommError("--sample-ms: expected a number in (0, 10000]");
      O.SampleGiven = true;
    } else if (A == "--max-size") {
      O.MaxSize = Whole(64, 1L << 30);
      O.MaxGiven = true;
    } else if (A == "--timeout") {
      O.TimeoutS = cli::parseNumber(A, Next());
      if (!(O.TimeoutS > 0))
        throw CommError("--timeout: expected seconds > 0");
    } else if (A == "--max-ranges") {
      O.MaxRanges = static_cast<int>(Whole(1, 12));
    } else if (A == "--quick") {
      O.Quick = true;
    } else if (A == "--json") {
      O.Json = true;
    } else if (A == "--plot") {
      O.PlotDir = Next();
    } else if (A == "--keep") {
      O.Keep = Next();
    } else if (A == "--replay") {
      O.Replay = Next();
    } else {
      cli::unknownOption("comm calibrate", A);
    }
  }
  if (O.Quick) {
    if (!O.RepsGiven)
      O.Reps = 3;
    if (!O.SampleGiven)
      O.SampleMs = 0.3;
    if (!O.MaxGiven)
      O.MaxSize = 65536;
  }
  // The same default as segtime calibrate: NAME.yaml among the user's machines.
  if (O.Out.empty()) {
    if (userMachineDirectory().empty())
      throw CommError("no --out given and neither XDG_DATA_HOME nor HOME is set");
    O.Out = (userMachineDirectory() / (O.Name + ".yaml")).string();
  }
  return true;
}

int report(const Options &O, const Results &Res);

int calibrate(int Argc, char **Argv) {
  Options O;
  if (!parseOptions(Argc, Argv, O))
    return 0;
  if (!O.Replay.empty()) {
    std::ifstream In(O.Replay);
    if (!In)
      throw CommError("--replay: cannot read '" + O.Replay + "'");
    std::stringstream SS;
    SS << In.rdbuf();
    O.Reps = 0;
    Raw R = parseOutput(SS.str(), O.Reps);
    std::cerr << "comm: fitting " << O.Replay << " (np " << R.Np << ", " << O.Reps
              << " samples per point)\n";
    return report(O, fitAll(std::move(R), O.Reps, O.MaxRanges));
  }
  fs::path Dir;
  bool Temp = O.Keep.empty();
  if (Temp) {
    std::string T = (fs::temp_directory_path() / "segtime-comm-XXXXXX").string();
    if (!mkdtemp(T.data()))
      throw CommError("cannot create a temporary directory: " + std::string(strerror(errno)));
    Dir = T;
  } else {
    Dir = O.Keep;
    std::error_code EC;
    fs::create_directories(Dir, EC);
    if (EC)
      throw CommError("--keep: cannot create '" + O.Keep + "': " + EC.message());
  }
  struct Cleanup {
    fs::path D;
    bool On;
    ~Cleanup() {
      std::error_code EC;
      if (On)
        fs::remove_all(D, EC);
    }
  } C{Dir, Temp};

  return report(O, fitAll(measure(O, Dir), O.Reps, O.MaxRanges));
}

/// Writes the machine file and the plot, prints the table or JSON.
int report(const Options &O, const Results &Res) {
  if (!O.NoWrite) {
    writeMachine(O, Res);
    std::cerr << "comm: wrote the comm section of " << O.Out << "\n";
  }
  std::vector<std::string> Plots;
  if (!O.PlotDir.empty())
    Plots = plotComms1(O.PlotDir, Res.Hockney[0],
                       "COMMS1 ping-pong, " + Res.R.Mpi.substr(0, Res.R.Mpi.find(',')) +
                           ", np " + std::to_string(Res.R.Np) + ", " + Res.Date);
  if (O.Json) {
    json J = resultsJson(O, Res);
    J["plots"] = Plots;
    std::cout << J.dump(2) << "\n";
  } else {
    printText(O, Res);
    for (const std::string &P : Plots)
      std::cout << "plot: " << P << "\n";
  }
  return 0;
}

} // namespace

/// `segtime comm SUBCOMMAND`: only `calibrate` so far.
int commMain(int Argc, char **Argv) {
  static const std::vector<cli::Command> Commands = {
      {"calibrate", "", calibrate, "segtime comm calibrate"}};
  return cli::runCommand(Commands, Argc, Argv, CommUsage, "segtime comm", "subcommand");
}
