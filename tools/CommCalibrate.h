//===- CommCalibrate.h - segtime comm calibrate: one run -------*- C++ -*-===//
///
/// \file
/// What one `segtime comm calibrate` run asks for (Options), measures (Raw)
/// and fits (Results), shared by tools/CommCalibrate.cpp (command line,
/// benchmark run, fits) and tools/CommOutput.cpp (machine file, table, JSON,
/// plot).
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_TOOLS_COMMCALIBRATE_H
#define SEGTIME_TOOLS_COMMCALIBRATE_H

#include "predictor/CommFit.h"
#include "predictor/CommModels.h"

#include <nlohmann/json.hpp>

#include <array>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace segtime::comm {

/// Any failure; main turns it into exit status 2.
struct CommError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Options {
  int Np = 2;
  std::string Out, Name = "local", PlotDir, Keep, Replay; ///< Out: see parseOptions
  int Reps = 15;
  double SampleMs = 1;
  long MaxSize = 4194304;
  double TimeoutS = 0;
  int MaxRanges = 8;
  bool Json = false, Quick = false, NoWrite = false;
  bool RepsGiven = false, SampleGiven = false, MaxGiven = false;
};

/// One measured point: message size (or p) and its samples (s per operation).
struct Point {
  double X = 0; ///< message size n (B), or p for SYNCH1
  long Iters = 0;
  int Disturbed = 0; ///< samples kept although a rank was preempted
  int Retries = 0;   ///< samples measured again because a rank was preempted
  std::vector<double> Times;
  double Median = 0, Min = 0;
  std::optional<double> Spread;
};

struct PrttRaw {
  double S = 0, N = 0, D = 0;
  int Disturbed = 0, Retries = 0;
  std::vector<double> P1, PN, PD;
};

/// Everything the benchmark program reported.
struct Raw {
  int Np = 0;
  std::string Mpi, Host;
  std::map<std::string, std::vector<Point>> Series; ///< comms1/2/3, synch1
  std::vector<PrttRaw> Prtt;
};

/// A Hockney-type result: one benchmark, the bytes per operation (1 for
/// COMMS1, 2 for COMMS2, p(p-1) for COMMS3), the fit, and per-segment spreads.
struct HockneyResult {
  std::string Key, Title;
  double BytesPerN = 1;
  std::vector<Point> Points;
  HockneyFit Fit;
  std::vector<std::optional<double>> RInfSpread, NHalfSpread;
};

struct Results {
  Raw R;
  std::vector<HockneyResult> Hockney; ///< comms1, comms2, comms3 (those measured)
  std::optional<BarrierFit> Synch1;
  std::optional<double> T0Spread, T1Spread;
  /// Per-repetition spread of L, o, g, G (relative to |median|).
  std::array<std::optional<double>, 4> LogGPSpread;
  std::optional<LogGPFit> LogGP;
  std::optional<LogGPConsistency> Consistency;
  std::string LogGPError; ///< why there is no LogGP fit (noise), else empty
  std::string Date;
};

/// Rewrites the comm section of O.Out (creating a minimal machine file if
/// missing); comm entries of other models (e.g. parsytec) are kept. Throws
/// CommError.
void writeMachine(const Options &O, const Results &Res);
/// The results as JSON (--json).
nlohmann::ordered_json resultsJson(const Options &O, const Results &Res);
/// The results as text tables on stdout.
void printText(const Options &O, const Results &Res);
/// DIR/comms1.{dat,gp,png,svg}: measured and fitted COMMS1, log-log; returns
/// the image paths. Throws CommError.
std::vector<std::string> plotComms1(const std::string &Dir, const HockneyResult &H,
                                    const std::string &Title);

} // namespace segtime::comm

#endif
