//===- CommModels.cpp - Hardware communication models ---------------------===//
#include "predictor/CommModels.h"

#include <cmath>
#include <stdexcept>

namespace segtime {

const HockneyModel::Segment &HockneyModel::segment(double N) const {
  if (Segments.empty())
    throw std::logic_error("Hockney model without segments");
  for (const Segment &S : Segments)
    if (N <= S.UpTo)
      return S;
  return Segments.back();
}

HockneyModel HockneyModel::fromMachine(const Machine &M, const std::string &Name) {
  HockneyModel H;
  std::string Base = "comm." + Name + ".";
  for (int K = 0;; ++K) {
    std::string P = Base + std::to_string(K) + ".";
    if (!M.param(P + "r_inf"))
      break;
    Segment S;
    S.RInf = M.paramValue(P + "r_inf");
    S.NHalf = M.paramValue(P + "n_half");
    if (const CostEntry *U = M.param(P + "upto"))
      S.UpTo = U->Value;
    if (S.RInf <= 0)
      throw std::runtime_error(M.Path + ":" + std::to_string(M.param(P + "r_inf")->Line) +
                               ": " + P + "r_inf must be > 0");
    H.Segments.push_back(S);
  }
  if (H.Segments.empty())
    throw std::runtime_error("machine '" + M.Name + "' (" + M.Path + ") has no " + Base +
                             "0.r_inf (measure it with `segtime comm calibrate`)");
  H.Segments.back().UpTo = std::numeric_limits<double>::infinity();
  return H;
}

ParamList HockneyModel::toParams(const std::string &Name, const std::string &Prov,
                                 const std::string &Ref) const {
  ParamList R;
  auto Add = [&](const std::string &Key, double V, const std::string &Unit,
                 const std::string &P) {
    R.push_back({Name + "." + Key, CostEntry::of(V, Unit, P, Ref)});
  };
  for (size_t K = 0; K < Segments.size(); ++K) {
    const Segment &S = Segments[K];
    std::string P = std::to_string(K) + ".";
    if (std::isfinite(S.UpTo)) // a breakpoint the fit chose between measured sizes
      Add(P + "upto", S.UpTo, "B", "derived");
    Add(P + "r_inf", S.RInf, "B/s", Prov);
    Add(P + "n_half", S.NHalf, "B", Prov);
    Add(P + "t0", S.t0(), "s", "derived");
    Add(P + "pi0", S.pi0(), "1/s", "derived");
  }
  return R;
}

/// Reads the machine parameters Prefix + name into the fields given
/// (Machine::paramValue: throws if one is missing).
static void readParams(const Machine &M, const std::string &Prefix,
                       std::initializer_list<std::pair<double *, const char *>> Fields) {
  for (const auto &[Field, Name] : Fields)
    *Field = M.paramValue(Prefix + Name);
}

double ParsytecModel::time(double L, double D) const {
  if (L <= P)
    return Alpha + D * (Beta + Tau * (L + H));
  return Alpha + D * (Beta + Tau * P) + (L / P - 1) * (Alpha2 + Beta + Tau * P);
}

ParsytecModel ParsytecModel::fromMachine(const Machine &M) {
  ParsytecModel R;
  readParams(M, "comm.parsytec.",
             {{&R.Alpha, "alpha"}, {&R.Beta, "beta"}, {&R.Tau, "tau"}, {&R.H, "h"},
              {&R.P, "p"}, {&R.Alpha2, "alpha2"}});
  return R;
}

double LogGPModel::stream(double N, double K) const {
  if (K <= 0)
    return 0;
  double Busy = O + (N > 1 ? N - 1 : 0) * G;
  return (K - 1) * std::max(Busy, Gap) + time(N);
}

LogGPModel LogGPModel::fromMachine(const Machine &M) {
  LogGPModel R;
  readParams(M, "comm.loggp.", {{&R.L, "L"}, {&R.O, "o"}, {&R.Gap, "g"}, {&R.G, "G"}});
  if (const CostEntry *P = M.param("comm.loggp.P"))
    R.P = static_cast<int>(P->Value);
  return R;
}

LogGPConsistency checkConsistency(const LogGPModel &L, const HockneyModel &H) {
  LogGPConsistency C;
  const auto &First = H.Segments.front();
  const auto &Last = H.Segments.back();
  C.StartupDiff = (L.L + 2 * L.O - L.G - First.t0()) / First.t0();
  C.ByteTimeDiff = (L.G - 1 / Last.RInf) * Last.RInf;
  C.GapOk = L.Gap <= First.t0() + L.G;
  return C;
}

double BarrierModel::time(int P) const {
  if (P <= 1)
    return T0;
  return T0 + T1 * std::ceil(std::log2(static_cast<double>(P)));
}

BarrierModel BarrierModel::fromMachine(const Machine &M) {
  BarrierModel B;
  B.T0 = M.paramValue("comm.synch1.t0");
  B.T1 = M.paramValue("comm.synch1.t1");
  return B;
}

double PointToPoint::time(double Bytes) const {
  if (Hockney)
    return Hockney->time(Bytes);
  if (LogGP)
    return LogGP->time(Bytes);
  if (Parsytec)
    return Parsytec->time(Bytes, 1);
  throw std::logic_error("PointToPoint without a model");
}

PointToPoint PointToPoint::fromMachine(const Machine &M) {
  PointToPoint R;
  if (M.param("comm.hockney.0.r_inf")) {
    R.Hockney = HockneyModel::fromMachine(M);
    R.Name = "hockney";
  } else if (M.param("comm.loggp.L")) {
    R.LogGP = LogGPModel::fromMachine(M);
    R.Name = "loggp";
  } else if (M.param("comm.parsytec.alpha")) {
    R.Parsytec = ParsytecModel::fromMachine(M);
    R.Name = "parsytec";
  } else {
    throw std::runtime_error("machine '" + M.Name + "' (" + M.Path +
                             ") has no communication model (comm.hockney, comm.loggp or "
                             "comm.parsytec); measure one with `segtime comm calibrate`");
  }
  return R;
}

} // namespace segtime
