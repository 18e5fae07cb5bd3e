//===- Library.cpp - Library-call costs for calibrate ---------------------===//
///
/// \file
/// runLibrary and its report (Library.h).
///
//===----------------------------------------------------------------------===//
#include "tools/calib/Library.h"
#include "predictor/Stats.h"
#include "tools/calib/KernelSources.h"
#include "tools/calib/LowLevelText.h"

#include <algorithm>
#include <fstream>
#include <iomanip>

namespace segtime {

using json = nlohmann::json;
using namespace lowlevel;

void fitLibraryFunction(LibraryResult::Function &Fn, const std::string &Stat) {
  Fn.T.clear();
  for (const std::vector<double> &S : Fn.Times)
    Fn.T.push_back(stat(S, Stat));
  size_t Reps = Fn.Times.empty() ? 0 : Fn.Times[0].size();
  auto PerRep = [&](size_t R) {
    std::vector<double> T;
    for (const std::vector<double> &S : Fn.Times)
      T.push_back(S.at(R));
    return T;
  };
  Fn.PerCallRep.clear();
  Fn.PerBRep.clear();
  if (!Fn.F->Sized) {
    Fn.Fit = CallCostFit();
    Fn.Fit.PerCall = Fn.T.at(0);
    Fn.PerCallRep = Fn.Times.at(0);
    return;
  }
  Fn.Fit = fitCallCost(Fn.N, Fn.T);
  for (size_t R = 0; R < Reps; ++R) {
    CallCostFit F = fitCallCost(Fn.N, PerRep(R));
    Fn.PerCallRep.push_back(F.PerCall);
    Fn.PerBRep.push_back(F.PerB);
  }
}

void subtractFree(LibraryResult &R, const std::vector<bool> &WithFree, const std::string &Stat) {
  auto Free = std::find_if(R.Functions.begin(), R.Functions.end(),
                           [](const LibraryResult::Function &F) { return F.F->Name == "free"; });
  if (Free == R.Functions.end() || Free->Times.empty())
    throw CalibError("the library benchmark did not time free, which the allocation pairs need");
  double TFree = stat(Free->Times[0], Stat);
  for (size_t I = 0; I < R.Functions.size(); ++I)
    if (WithFree.at(I))
      for (std::vector<double> &S : R.Functions[I].Times)
        for (double &T : S)
          T = std::max(T - TFree, 0.01 * T); // noise could make it <= 0
}

LibraryResult runLibrary(const std::filesystem::path &Dir, const LowLevelOptions &O) {
  std::filesystem::path Src = Dir / "library.c", Bin = Dir / "library";
  std::ofstream(Src) << kernel::library();
  RunResult C = runProgram({SEGTIME_CLANG, "-O2", "-fno-builtin", Src.string(), "-o",
                            Bin.string(), "-lm"},
                           Dir, "compile_library", 120);
  if (!C.ok())
    throw CalibError("compiling the library benchmark failed (" + C.status() + "):\n" +
                     tail(C.Err));
  std::cerr << "calibrate: library: " << libraryFunctions().size()
            << " C library functions at up to 5 sizes" << (O.Quick ? " (quick: 3)" : "")
            << "...\n";
  RunResult R = runProgram({Bin.string(), fmt(O.TargetS, 3), std::to_string(O.Reps),
                            O.Quick ? "1" : "0"},
                           Dir, "run_library", 900);
  if (!R.ok())
    throw CalibError("the library benchmark failed (" + R.status() + "):\n" + tail(R.Err));
  LibraryResult Res;
  Res.stamp(O);
  std::vector<bool> WithFree; // per function: samples of a call + free pair
  try {
    json J = json::parse(R.Out);
    for (const json &F : J.at("functions")) {
      LibraryResult::Function Fn;
      std::string Name = F.at("name").get<std::string>();
      Fn.F = libraryFunction(Name);
      if (!Fn.F || Fn.F->Name != Name)
        throw CalibError("the library benchmark timed '" + Name +
                         "', which is not a library function of core/Library.h");
      for (const json &P : F.at("points")) {
        Fn.N.push_back(P.at("size").get<double>());
        Fn.Times.push_back(P.at("times").get<std::vector<double>>());
        if (Fn.Times.back().size() != static_cast<size_t>(O.Reps))
          throw CalibError("the library benchmark gave " +
                           std::to_string(Fn.Times.back().size()) + " samples for " + Name +
                           ", expected " + std::to_string(O.Reps));
      }
      WithFree.push_back(F.value("with_free", false));
      Res.Functions.push_back(std::move(Fn));
    }
    subtractFree(Res, WithFree, O.Stat);
    for (LibraryResult::Function &Fn : Res.Functions)
      fitLibraryFunction(Fn, O.Stat);
  } catch (const json::exception &E) {
    throw CalibError(std::string("the library benchmark's output is not the expected JSON: ") +
                     E.what());
  } catch (const std::runtime_error &E) {
    if (dynamic_cast<const CalibError *>(&E))
      throw;
    throw CalibError(std::string("library: ") + E.what());
  }
  if (Res.Functions.size() != libraryFunctions().size())
    throw CalibError("the library benchmark timed " + std::to_string(Res.Functions.size()) +
                     " functions, expected " + std::to_string(libraryFunctions().size()));
  return Res;
}

ParamList LibraryResult::params() const {
  ParamList P;
  for (const Function &Fn : Functions) {
    std::string Sizes;
    for (double N : Fn.N)
      Sizes += (Sizes.empty() ? "" : ", ") + fmt(N, 6);
    std::string Ref = "segtime calibrate " + Date + ": " + Fn.F->Bench +
                      ", clang -O2 -fno-builtin, " + sampling(Stat, Reps, TargetS);
    if (Fn.F->Sized) {
      Ref += "; sizes " + Sizes + " B, t = per_call + per_B * n by relative least squares "
             "(a, b >= 0), rms residual " + pct(Fn.Fit.RmsRel) + ", largest " +
             pct(Fn.Fit.MaxRel);
      P.push_back({libraryKey(*Fn.F, "per_call"),
                   measured(Fn.Fit.PerCall, "s", relSpread(Fn.PerCallRep),
                            Ref + rangeText(Fn.PerCallRep))});
      P.push_back({libraryKey(*Fn.F, "per_B"),
                   measured(Fn.Fit.PerB, "s/B", relSpread(Fn.PerBRep),
                            Ref + rangeText(Fn.PerBRep))});
    } else {
      P.push_back({libraryKey(*Fn.F, "per_call"),
                   measured(Fn.Fit.PerCall, "s", relSpread(Fn.PerCallRep), Ref)});
    }
  }
  return P;
}

json LibraryResult::toJson() const {
  json J = json::array();
  for (const Function &Fn : Functions) {
    json Pts = jsonRows(Fn.N.size(), [&](size_t I) {
      return json{{"size_B", Fn.N[I]}, {"seconds", Fn.T[I]}, {"samples_s", Fn.Times[I]}};
    });
    json E = {{"function", Fn.F->Name}, {"per_call_s", Fn.Fit.PerCall}, {"points", Pts},
              {"per_call_spread", optJson(relSpread(Fn.PerCallRep))}};
    if (Fn.F->Sized) {
      E["per_B_s"] = Fn.Fit.PerB;
      E["per_B_spread"] = optJson(relSpread(Fn.PerBRep));
      E["rms_residual"] = Fn.Fit.RmsRel;
    }
    J.push_back(E);
  }
  return J;
}

void LibraryResult::print(std::ostream &OS) const {
  OS << "library calls: t = per_call + per_B * size (" << sampling(Stat, Reps, TargetS)
     << ")\n";
  OS << "  " << pad("function", 14, true) << pad("per call", 12) << pad("spread", 9)
     << pad("per B", 12) << pad("spread", 9) << pad("rms res.", 10) << "\n";
  for (const Function &Fn : Functions) {
    OS << "  " << pad(Fn.F->Name, 14, true) << pad(fmt(Fn.Fit.PerCall * 1e9, 4) + " ns", 12)
       << pad(pct(relSpread(Fn.PerCallRep)), 9);
    if (Fn.F->Sized)
      OS << pad(fmt(Fn.Fit.PerB * 1e9, 4) + " ns", 12) << pad(pct(relSpread(Fn.PerBRep)), 9)
         << pad(pct(Fn.Fit.RmsRel), 10);
    OS << "\n";
  }
}

} // namespace segtime
