//===- CommFit.cpp - Least-squares fits of the communication models -------===//
#include "predictor/CommFit.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

namespace segtime {

namespace {

constexpr double Inf = std::numeric_limits<double>::infinity();

void checkPoints(const char *What, size_t NX, const std::vector<double> &T, size_t Min) {
  if (NX != T.size())
    throw std::invalid_argument(std::string(What) + ": " + std::to_string(NX) +
                                " sizes but " + std::to_string(T.size()) + " times");
  if (T.size() < Min)
    throw std::invalid_argument(std::string(What) + ": needs at least " + std::to_string(Min) +
                                " points, got " + std::to_string(T.size()));
  for (double V : T)
    if (!(V > 0) || !std::isfinite(V))
      throw std::invalid_argument(std::string(What) + ": times must be finite and > 0, got " +
                                  std::to_string(V));
}

/// Weighted least squares for t = c_0 x_0 + c_1 x_1 with weights 1/t (rows
/// of X are (x_0, x_1)); columns are scaled to unit maximum for conditioning.
/// Returns c and the sum of squared relative residuals.
std::pair<Eigen::Vector2d, double> relativeLs(const Eigen::MatrixX2d &X, const Eigen::VectorXd &T) {
  Eigen::MatrixX2d A = X.array().colwise() / T.array();
  Eigen::Vector2d Scale;
  for (int C = 0; C < 2; ++C) {
    double M = A.col(C).cwiseAbs().maxCoeff();
    Scale(C) = M > 0 ? M : 1;
    A.col(C) /= Scale(C);
  }
  Eigen::VectorXd B = Eigen::VectorXd::Ones(T.size());
  Eigen::Vector2d Y = A.colPivHouseholderQr().solve(B);
  double Rss = (A * Y - B).squaredNorm();
  return {Y.cwiseQuotient(Scale), Rss};
}

/// t_0 and 1/r_inf of points [I, J] of sorted (N, T); Rss = inf if fewer than
/// 2 distinct sizes or the slope is not > 0.
struct LineFit {
  double T0 = 0, InvR = 0, Rss = Inf;
};
LineFit fitLine(const std::vector<double> &N, const std::vector<double> &T, size_t I, size_t J) {
  LineFit F;
  if (N[J] == N[I])
    return F;
  RelativeLine L = fitRelativeLine({N.begin() + I, N.begin() + J + 1},
                                   {T.begin() + I, T.begin() + J + 1});
  if (!(L.Slope > 0))
    return F;
  F.T0 = L.T0;
  F.InvR = L.Slope;
  F.Rss = L.Rss;
  return F;
}

HockneyModel::Segment segmentOf(const LineFit &F, double UpTo) {
  HockneyModel::Segment S;
  S.UpTo = UpTo;
  S.RInf = 1 / F.InvR;
  S.NHalf = F.T0 / F.InvR; // eq. 3.7: n_1/2 = t_0 r_inf
  return S;
}

void summarise(FitResiduals &R) {
  R.MaxAbsRel = 0;
  double Sq = 0;
  for (double E : R.Rel) {
    R.MaxAbsRel = std::max(R.MaxAbsRel, std::fabs(E));
    Sq += E * E;
  }
  R.RmsRel = R.Rel.empty() ? 0 : std::sqrt(Sq / R.Rel.size());
}

void addResidual(FitResiduals &R, double X, double Measured, double Fitted) {
  R.X.push_back(X);
  R.Measured.push_back(Measured);
  R.Fitted.push_back(Fitted);
  R.Rel.push_back((Fitted - Measured) / Measured);
}

/// Indices that sort N ascending (stable, so equal sizes keep their order).
std::vector<size_t> sortedOrder(const std::vector<double> &N) {
  std::vector<size_t> Ix(N.size());
  std::iota(Ix.begin(), Ix.end(), 0);
  std::stable_sort(Ix.begin(), Ix.end(), [&](size_t A, size_t B) { return N[A] < N[B]; });
  return Ix;
}

} // namespace

RelativeLine fitRelativeLine(const std::vector<double> &X, const std::vector<double> &T) {
  Eigen::Index M = static_cast<Eigen::Index>(X.size());
  Eigen::MatrixX2d A(M, 2);
  Eigen::VectorXd Tv(M);
  for (Eigen::Index K = 0; K < M; ++K) {
    A(K, 0) = 1;
    A(K, 1) = X[static_cast<size_t>(K)];
    Tv(K) = T[static_cast<size_t>(K)];
  }
  auto [C, Rss] = relativeLs(A, Tv);
  return {C(0), C(1), Rss};
}

FitResiduals residuals(const HockneyModel &Model, const std::vector<double> &N,
                       const std::vector<double> &T) {
  checkPoints("Hockney residuals", N.size(), T, 0);
  FitResiduals R;
  for (size_t I = 0; I < N.size(); ++I)
    addResidual(R, N[I], T[I], Model.time(N[I]));
  summarise(R);
  return R;
}

HockneyFit fitHockney(const std::vector<double> &N, const std::vector<double> &T) {
  checkPoints("Hockney fit", N.size(), T, 2);
  std::vector<size_t> Ix = sortedOrder(N);
  std::vector<double> Ns, Ts;
  for (size_t I : Ix) {
    Ns.push_back(N[I]);
    Ts.push_back(T[I]);
  }
  LineFit F = fitLine(Ns, Ts, 0, Ns.size() - 1);
  if (!std::isfinite(F.Rss))
    throw std::invalid_argument("Hockney fit: the times do not grow with the message size "
                                "(needs >= 2 distinct sizes and a slope 1/r_inf > 0)");
  HockneyFit R;
  R.Model.Segments.push_back(segmentOf(F, Inf));
  R.Residuals = residuals(R.Model, Ns, Ts);
  R.SegmentOf.assign(Ns.size(), 0);
  return R;
}

HockneyFit fitPiecewiseHockney(const std::vector<double> &N, const std::vector<double> &T,
                               const PiecewiseOptions &O) {
  if (O.MaxSegments < 1 || O.MinPoints < 2)
    throw std::invalid_argument("piecewise Hockney fit: MaxSegments must be >= 1 and "
                                "MinPoints >= 2");
  checkPoints("piecewise Hockney fit", N.size(), T, static_cast<size_t>(O.MinPoints));
  std::vector<size_t> Ix = sortedOrder(N);
  std::vector<double> Ns, Ts;
  for (size_t I : Ix) {
    Ns.push_back(N[I]);
    Ts.push_back(T[I]);
  }
  const size_t M = Ns.size();
  const size_t MinP = static_cast<size_t>(O.MinPoints);

  // Cost[i][j]: the relative RSS of one segment over points i..j (a segment
  // may only end where the next size differs).
  std::vector<std::vector<LineFit>> Line(M, std::vector<LineFit>(M));
  for (size_t I = 0; I < M; ++I)
    for (size_t J = I + MinP - 1; J < M; ++J)
      if (J + 1 == M || Ns[J + 1] != Ns[J])
        if (I == 0 || Ns[I - 1] != Ns[I])
          Line[I][J] = fitLine(Ns, Ts, I, J);

  // Best[k][j]: least RSS of k+1 segments covering points 0..j; From[k][j]:
  // the first point of the last of them.
  const size_t K = static_cast<size_t>(O.MaxSegments);
  std::vector<std::vector<double>> Best(K, std::vector<double>(M, Inf));
  std::vector<std::vector<size_t>> From(K, std::vector<size_t>(M, 0));
  for (size_t J = 0; J < M; ++J)
    Best[0][J] = Line[0][J].Rss;
  for (size_t S = 1; S < K; ++S)
    for (size_t J = 0; J < M; ++J)
      for (size_t I = 1; I <= J; ++I) {
        double C = Best[S - 1][I - 1] + Line[I][J].Rss;
        if (C < Best[S][J]) {
          Best[S][J] = C;
          From[S][J] = I;
        }
      }

  // Bayesian information criterion over the segment count.
  double BestBic = Inf;
  size_t Chosen = K;
  const double Floor = O.NoiseFloor * O.NoiseFloor;
  for (size_t S = 0; S < K; ++S) {
    if (!std::isfinite(Best[S][M - 1]))
      continue;
    double Bic = M * std::log(std::max(Best[S][M - 1] / M, Floor)) +
                 3.0 * (S + 1) * std::log(static_cast<double>(M));
    if (Bic < BestBic - 1e-9) {
      BestBic = Bic;
      Chosen = S;
    }
  }
  if (Chosen == K)
    throw std::invalid_argument(
        "piecewise Hockney fit: no admissible partition of the " + std::to_string(M) +
        " points (each range needs >= " + std::to_string(MinP) +
        " points, 2 distinct sizes, and times growing with the size)");

  // Walk the partition back.
  std::vector<std::pair<size_t, size_t>> Ranges;
  for (size_t S = Chosen, J = M - 1;; --S) {
    size_t I = S == 0 ? 0 : From[S][J];
    Ranges.push_back({I, J});
    if (S == 0)
      break;
    J = I - 1;
  }
  std::reverse(Ranges.begin(), Ranges.end());

  HockneyFit R;
  R.Bic = BestBic;
  R.SegmentOf.resize(M);
  for (size_t G = 0; G < Ranges.size(); ++G) {
    auto [I, J] = Ranges[G];
    double UpTo = Inf;
    if (G + 1 < Ranges.size()) {
      // Where the two lines cross between the last size of this range and
      // the first of the next, the transition is continuous (e.g. a cache
      // effect): the breakpoint is the crossing. Otherwise it is a jump
      // (a protocol switch) after the last size measured in this range.
      const LineFit &A = Line[I][J], &B = Line[Ranges[G + 1].first][Ranges[G + 1].second];
      double Lo = Ns[J], Hi = Ns[Ranges[G + 1].first];
      UpTo = Lo;
      if (A.InvR != B.InvR) {
        double X = (B.T0 - A.T0) / (A.InvR - B.InvR);
        if (X >= Lo && X < Hi)
          UpTo = X;
      }
    }
    R.Model.Segments.push_back(segmentOf(Line[I][J], UpTo));
    for (size_t P = I; P <= J; ++P)
      R.SegmentOf[P] = static_cast<int>(G);
  }
  R.Residuals = residuals(R.Model, Ns, Ts);
  return R;
}

BarrierFit fitBarrier(const std::vector<int> &P, const std::vector<double> &T) {
  checkPoints("SYNCH1 fit", P.size(), T, 2);
  const size_t M = P.size();
  Eigen::MatrixX2d X(M, 2);
  Eigen::VectorXd Tv(M);
  for (size_t I = 0; I < M; ++I) {
    if (P[I] < 1)
      throw std::invalid_argument("SYNCH1 fit: process counts must be >= 1, got " +
                                  std::to_string(P[I]));
    X(I, 0) = 1;
    X(I, 1) = P[I] <= 1 ? 0 : std::ceil(std::log2(static_cast<double>(P[I])));
    Tv(I) = T[I];
  }
  if (X.col(1).maxCoeff() == X.col(1).minCoeff())
    throw std::invalid_argument("SYNCH1 fit: needs process counts with at least two distinct "
                                "values of ceil(log2 p), e.g. p = 1 and 2");
  auto [C, Rss] = relativeLs(X, Tv);
  (void)Rss;
  BarrierFit R;
  R.Model.T0 = C(0);
  R.Model.T1 = C(1);
  for (size_t I = 0; I < M; ++I)
    addResidual(R.Residuals, P[I], T[I], R.Model.time(P[I]));
  summarise(R.Residuals);
  return R;
}

LogGPFit fitLogGP(const std::vector<PrttPoint> &Points, int P, double LargeFrom) {
  if (Points.size() < 2)
    throw std::invalid_argument("LogGP fit: needs PRTT at >= 2 message sizes, got " +
                                std::to_string(Points.size()));
  std::vector<PrttPoint> Pts = Points;
  std::sort(Pts.begin(), Pts.end(),
            [](const PrttPoint &A, const PrttPoint &B) { return A.S < B.S; });
  for (const PrttPoint &X : Pts) {
    if (!(X.S >= 1) || !(X.N >= 2) || !(X.Prtt1 > 0) || !(X.PrttN > 0) || !(X.PrttD > 0) ||
        !(X.D >= 0))
      throw std::invalid_argument("LogGP fit: at s = " + std::to_string(X.S) +
                                  ": needs s >= 1, n >= 2, d >= 0 and PRTT times > 0");
  }
  if (Pts.front().S == Pts.back().S)
    throw std::invalid_argument("LogGP fit: needs at least two distinct message sizes");

  // G: slope of gap(s) over the large sizes (the two largest at least).
  size_t First = Pts.size();
  for (size_t I = 0; I < Pts.size(); ++I)
    if (Pts[I].S >= LargeFrom) {
      First = I;
      break;
    }
  First = std::min(First, Pts.size() - 2);
  size_t M = Pts.size() - First;
  Eigen::MatrixX2d X(M, 2);
  Eigen::VectorXd Gap(M);
  for (size_t K = 0; K < M; ++K) {
    X(K, 0) = 1;
    X(K, 1) = Pts[First + K].S - 1;
    Gap(K) = Pts[First + K].gap();
    if (!(Gap(K) > 0))
      throw std::invalid_argument("LogGP fit: at s = " + std::to_string(Pts[First + K].S) +
                                  ": PRTT(n,0,s) <= PRTT(1,0,s), no gap to fit G from");
  }
  auto [C, Rss] = relativeLs(X, Gap);
  (void)Rss;

  LogGPFit R;
  const PrttPoint &Small = Pts.front();
  R.Model.P = P;
  R.Model.G = C(1);
  R.Model.O = Small.overhead();
  R.Model.Gap = Small.gap();
  R.Model.L = Small.Prtt1 / 2 - 2 * R.Model.O - (Small.S - 1) * R.Model.G;
  for (size_t K = 0; K < M; ++K)
    addResidual(R.GapResiduals, Pts[First + K].S, Gap(K), C(0) + C(1) * (Pts[First + K].S - 1));
  summarise(R.GapResiduals);
  for (const PrttPoint &Q : Pts) {
    addResidual(R.Residuals, Q.S, Q.Prtt1 / 2, R.Model.time(Q.S));
    R.Overheads.push_back(Q.overhead());
  }
  summarise(R.Residuals);
  return R;
}

} // namespace segtime
