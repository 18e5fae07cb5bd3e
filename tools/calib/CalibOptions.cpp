//===- CalibOptions.cpp - segtime calibrate: the command line -------------===//
///
/// \file
/// The options of `segtime calibrate` and their --help text (CalibRun.h).
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
#include "tools/CommandLine.h"
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

const char *Usage =
    "usage: segtime calibrate [options]\n"
    "\n"
    "Measures this machine and writes (or updates) a machine file: the PARKBENCH-93\n"
    "low-level parameters (TICK1, TICK2, RINF1, POLY1, POLY2, cache bandwidths) and\n"
    "the cost vectors of the characterisation levels (HLLC ns per construct,\n"
    "Warwick-94 eq. 4; POC Mflop/s, eq. 6; INTCC; ICC clock), every number with its\n"
    "provenance and spread. Progress goes to stderr; about 1 minute in all.\n"
    "\n"
    "  --level L      parts to measure, a comma list (default all):\n"
    "                   caches the cache hierarchy: sizes from sysfs, CPUID and\n"
    "                          sysconf side by side, and measured (latency of a\n"
    "                          random pointer chase and read bandwidth against\n"
    "                          working set; each level's effective size)\n"
    "                   tick   TICK1 timer resolution, TICK2 wall-clock check\n"
    "                   rinf1  (r_inf, n_1/2) of vector loops, eq. 3.1\n"
    "                   poly   POLY1/POLY2 (r_hat_inf, f_1/2), eq. 3.3, and the\n"
    "                          bandwidth of each cache level and of memory\n"
    "                   strided  line rate of a 4 KiB-stride walk (no prefetch)\n"
    "                          against footprint, one process and two sharing\n"
    "                          the L3 (memory.strided, memory.strided_shared2)\n"
    "                   overlap  how far memory transfers hide under a chain of\n"
    "                          dependent multiply-adds: exponent p of t = (t_core^p\n"
    "                          + t_mem^p)^(1/p) per footprint (memory.overlap)\n"
    "                   library  cost per call and per byte of C library functions\n"
    "                          (malloc, memcpy, strlen, snprintf, libm, clock reads,\n"
    "                          ...): t = per_call + per_B * size (section library)\n"
    "                   parkbench = tick,rinf1,poly\n"
    "                   hllc, poc  the HLLC constructs and the POC flop rate\n"
    "                   intcc  the same benchmarks counted on the optimised IR,\n"
    "                          one cost per opcode class (load.*, fadd.*, call.exp)\n"
    "                   icc    the core clock (a chain of dependent adds) and the\n"
    "                          branch-misprediction penalty (random vs sorted data),\n"
    "                          latencies of chain classes (fp add/mul/fma/div, imul,\n"
    "                          load-to-use: dependent chains, latency.<class>),\n"
    "                          reciprocal throughputs (the same, fp-to-int\n"
    "                          conversion and AVX masked stores: independent\n"
    "                          operations, throughput.<class>) and the reorder window\n"
    "                          (restarted FMA chains, reorder_buffer)\n"
    "                   all    everything\n"
    "  --opt LIST     optimisation levels of hllc/poc/intcc, one variant each\n"
    "                 (default O0,O2)\n"
    "  --out FILE     machine file; an existing file is updated: only the parts\n"
    "                 measured are replaced. Default: NAME.yaml in the user's\n"
    "                 machine directory ($XDG_DATA_HOME/segtime/machines, by\n"
    "                 default ~/.local/share/segtime/machines), and default.yaml\n"
    "                 there is linked to it: this machine's default machine\n"
    "  --name NAME    machine name of a new file (default local)\n"
    "  --reps K       samples per benchmark (default 11; 3 with --quick)\n"
    "  --time MS      minimum time of one hllc/poc/intcc call, ms (default 10; 2\n"
    "                 with --quick); low-level samples last >= 1 ms\n"
    "  --unroll U     constructs per loop iteration in a benchmark (default 16)\n"
    "  --quick        short calls and 3 reps: a smoke test, not a calibration\n"
    "  --no-train     hllc/intcc: write the construct-benchmark costs c0 alone; by\n"
    "                 default one multiplier s_g >= 0 per group of constructs or IR\n"
    "                 classes (fp, div, math, int, mem/load/store, control/other) is\n"
    "                 fitted on the training kernels (reductions, stencils, sorting,\n"
    "                 hashing, math calls, ...) and the costs written are s_g c0_k;\n"
    "                 the table and --json show s_g, the residuals and the\n"
    "                 leave-one-out errors per kernel (docs/calibrate.md)\n"
    "  --json         print the results (fits with their residuals) as JSON\n"
    "  --plot DIR     gnuplot PNG + SVG of the RINF1 fits and of bandwidth\n"
    "                 against working set (with their .dat and .gp files)\n"
    "  --sysfs-root DIR  read the sysfs cache and cgroup files below DIR instead\n"
    "                 of / (a test seam; also SEGTIME_SYSFS_ROOT)\n"
    "  --cpuid-table FILE  answer CPUID from FILE (lines LEAF SUBLEAF EAX EBX\n"
    "                 ECX EDX) instead of the processor (a test seam; also\n"
    "                 SEGTIME_CPUID_TABLE); sysconf is then not consulted\n"
    "  --stat S       time per call from the samples: min (default; noise only\n"
    "                 slows calls down) or median\n"
    "  --keep DIR     keep the generated C files, binaries, SEG and timings in DIR\n"
    "  --compare A B  measure nothing: compare two machine files (e.g. two runs),\n"
    "                 per level and variant and per parameter group: median and\n"
    "                 largest relative difference |B - A| / |A| of the measured\n"
    "                 numbers (ns costs under 0.1 ns left out); exit status 1 if a\n"
    "                 group's median exceeds --tolerance (default 0.10)\n"
    "\n"
    "A part that cannot run on this machine (no cache sizes, one CPU, a failed\n"
    "benchmark) is reported with its reason and skipped; the rest is measured\n"
    "and written, and the machine file's identity lists the parts skipped.\n"
    "\n"
    "Exit status: 0 ok (parts may have been skipped), 2 usage error, nothing\n"
    "measured, or a machine file that cannot be written.\n";

[[noreturn]] void usageError(const std::string &Msg) {
  std::cerr << "segtime: error: calibrate: " << Msg << " (see segtime calibrate --help)\n";
  std::exit(2);
}

} // namespace

const char *calibrateUsage() { return Usage; }

std::string statName(const Options &O) { return O.Stat == "min" ? "minimum" : "median"; }

Options parseArgs(int Argc, char **Argv, std::string &Command) {
  Options O;
  bool RepsGiven = false, TimeGiven = false;
  Command = "segtime calibrate";
  for (int I = 0; I < Argc; ++I)
    Command += " " + std::string(Argv[I]);
  cli::ArgReader R(Argc, Argv);
  while (R.next()) {
    std::string A = R.flag();
    // The option's value; the number in it in [Lo, Hi] (tools/CommandLine.h).
    auto Next = [&]() -> std::string {
      try {
        return R.value();
      } catch (const cli::UsageError &E) {
        usageError(E.what());
      }
    };
    auto Number = [&](const std::string &S, double Lo, double Hi) {
      try {
        return cli::parseNumberIn(A, S, Lo, Hi);
      } catch (const cli::UsageError &E) {
        usageError(E.what());
      }
    };
    if (A == "--help" || A == "-h") {
      std::cout << Usage;
      std::exit(0);
    } else if (A == "--level") {
      O.Levels.clear();
      O.Parts.clear();
      std::vector<std::string> Items = cli::splitList(A, Next(), /*SkipEmpty=*/true);
      if (Items.empty())
        usageError("--level: empty list");
      for (const std::string &X : Items) {
        Level L;
        std::string Lower = X;
        for (char &C : Lower)
          C = static_cast<char>(std::tolower(static_cast<unsigned char>(C)));
        if (Lower == "all") {
          O.Levels = Options().Levels;
          O.Parts = LowLevelParts;
          continue;
        }
        if (Lower == "parkbench") {
          for (const char *P : {"tick", "rinf1", "poly"})
            if (!O.hasPart(P))
              O.Parts.push_back(P);
          continue;
        }
        if (std::find(LowLevelParts.begin(), LowLevelParts.end(), Lower) != LowLevelParts.end()) {
          if (!O.hasPart(Lower))
            O.Parts.push_back(Lower);
          continue;
        }
        if (!parseLevel(X, L) || !costedLevel(L))
          usageError("--level: '" + X +
                     "' is not one of caches, tick, rinf1, poly, strided, overlap, library, parkbench, hllc, "
                     "poc, "
                     "intcc, icc, all");
        if (!O.has(L))
          O.Levels.push_back(L);
      }
    } else if (A == "--opt") {
      O.Opts.clear();
      for (std::string X : cli::splitList(A, Next(), /*SkipEmpty=*/true)) {
        if (!X.empty() && X[0] == '-')
          X = X.substr(1);
        static const char *Ok[] = {"O0", "O1", "O2", "O3", "Os", "Oz"};
        if (std::none_of(std::begin(Ok), std::end(Ok), [&](const char *K) { return X == K; }))
          usageError("--opt: '" + X + "' is not one of O0, O1, O2, O3, Os, Oz");
        if (std::find(O.Opts.begin(), O.Opts.end(), X) == O.Opts.end())
          O.Opts.push_back(X);
      }
      if (O.Opts.empty())
        usageError("--opt: empty list");
    } else if (A == "--out" || A == "-o") {
      O.Out = Next();
    } else if (A == "--name") {
      O.Name = Next();
      if (O.Name.empty())
        usageError("--name: empty name");
    } else if (A == "--reps") {
      O.Reps = static_cast<int>(Number(Next(), 1, 1000));
      RepsGiven = true;
    } else if (A == "--time") {
      O.TargetMs = Number(Next(), 0.1, 10000);
      TimeGiven = true;
    } else if (A == "--unroll") {
      O.Unroll = static_cast<unsigned>(Number(Next(), 1, 256));
    } else if (A == "--stat") {
      O.Stat = Next();
      if (O.Stat != "median" && O.Stat != "min")
        usageError("--stat: '" + O.Stat + "' is not median or min");
    } else if (A == "--keep") {
      O.Keep = Next();
    } else if (A == "--plot") {
      O.Plot = Next();
    } else if (A == "--compare") {
      O.Compare = {Next(), Next()};
    } else if (A == "--tolerance") {
      O.Tolerance = Number(Next(), 0, 10);
    } else if (A == "--sysfs-root") {
      O.Seams.SysfsRoot = Next();
    } else if (A == "--cpuid-table") {
      O.Seams.CpuidTable = Next();
    } else if (A == "--quick") {
      O.Quick = true;
    } else if (A == "--json") {
      O.Json = true;
    } else if (A == "--no-train") {
      O.Train = false;
    } else {
      usageError("unknown argument '" + A + "'");
    }
  }
  if (O.Quick) {
    if (!RepsGiven)
      O.Reps = 3;
    if (!TimeGiven)
      O.TargetMs = 2;
  }
  if (O.Out.empty() && O.Compare.empty()) {
    fs::path Dir = userMachineDirectory();
    if (Dir.empty())
      usageError("no --out given and neither XDG_DATA_HOME nor HOME is set");
    O.Out = (Dir / (O.Name + ".yaml")).string();
    O.OutIsUserDefault = true;
  }
  return O;
}

} // namespace segtime::calib
