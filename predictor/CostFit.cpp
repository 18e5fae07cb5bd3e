//===- CostFit.cpp - Least-squares fits of cost vectors -------------------===//
///
/// \file
/// Weighted non-negative least squares (Eigen) for the cost vectors of
/// Warwick-94 eq. 4 and the training-set group multipliers (CostFit.h).
///
//===----------------------------------------------------------------------===//
#include "predictor/CostFit.h"

#include "predictor/Stats.h"
#include "predictor/levels/LevelUnit.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

namespace segtime {

std::vector<double> relativeLs(const DenseRows &A, const std::vector<double> &T,
                               const std::vector<int> &Free, const std::vector<std::string> &Names,
                               bool MinimumNorm) {
  Eigen::Index M = static_cast<Eigen::Index>(A.size()), N = static_cast<Eigen::Index>(Free.size());
  size_t Cols = A.empty() ? 0 : A[0].size();
  if (T.size() != A.size() || Names.size() != Cols)
    throw std::runtime_error("least squares: sizes do not match (" + std::to_string(A.size()) +
                             " rows, " + std::to_string(T.size()) + " times, " +
                             std::to_string(Names.size()) + " names)");
  Eigen::MatrixXd Aw(M, N);
  Eigen::VectorXd B = Eigen::VectorXd::Ones(M);
  for (Eigen::Index I = 0; I < M; ++I) {
    if (!(T[I] > 0))
      throw std::runtime_error("least squares: time of row " + std::to_string(I) + " is not > 0");
    for (Eigen::Index J = 0; J < N; ++J)
      Aw(I, J) = A[I][Free[J]] / T[I];
  }
  Eigen::VectorXd Scale(N);
  for (Eigen::Index J = 0; J < N; ++J) {
    Scale(J) = Aw.col(J).norm();
    if (Scale(J) == 0)
      throw std::runtime_error("construct " + Names[Free[J]] + " occurs in no benchmark");
    Aw.col(J) /= Scale(J);
  }
  Eigen::VectorXd Y;
  if (MinimumNorm) {
    // Collinear columns (IR classes that always occur together): the
    // minimum-norm least-squares solution shares their cost between them.
    Y = Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>(Aw).solve(B);
  } else {
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> QR(Aw);
    if (QR.rank() < N)
      throw std::runtime_error("the benchmark design is rank deficient (rank " +
                               std::to_string(QR.rank()) + " < " + std::to_string(N) +
                               " constructs): some construct is not isolated");
    Y = QR.solve(B);
  }
  std::vector<double> X(Cols, 0.0);
  for (Eigen::Index J = 0; J < N; ++J)
    X[Free[J]] = Y(J) / Scale(J);
  return X;
}

NonNegativeLs relativeNnls(const DenseRows &A, const std::vector<double> &T,
                           const std::vector<std::string> &Names, bool MinimumNorm,
                           std::vector<int> Free) {
  size_t N = Names.size();
  if (Free.empty())
    for (size_t J = 0; J < N; ++J)
      Free.push_back(static_cast<int>(J));
  NonNegativeLs R;
  R.Fixed.assign(N, false);
  R.Ls.assign(N, 0.0);
  for (bool First = true;; First = false) {
    R.X = relativeLs(A, T, Free, Names, MinimumNorm);
    if (First)
      R.Ls = R.X;
    int Worst = -1;
    for (int J : Free)
      if (R.X[J] < 0 && (Worst < 0 || R.X[J] < R.X[Worst]))
        Worst = J;
    if (Worst < 0)
      break;
    if (!First)
      R.Ls[Worst] = R.X[Worst];
    R.Fixed[Worst] = true;
    Free.erase(std::find(Free.begin(), Free.end(), Worst));
    if (Free.empty()) {
      R.X.assign(N, 0.0);
      break;
    }
  }
  R.Free = Free;
  return R;
}

namespace {

double rms(const std::vector<double> &V) {
  double S = 0;
  for (double X : V)
    S += X * X;
  return V.empty() ? 0 : std::sqrt(S / static_cast<double>(V.size()));
}

double medianAbs(std::vector<double> V) {
  for (double &X : V)
    X = std::fabs(X);
  return median(V);
}

/// Columns of G that carry >= 1 % of some row's time.
std::vector<int> determined(const DenseRows &G, const std::vector<double> &T, size_t NG) {
  std::vector<int> D;
  for (size_t J = 0; J < NG; ++J) {
    bool Any = false;
    for (size_t I = 0; I < G.size(); ++I)
      Any |= G[I][J] >= 0.01 * T[I];
    if (Any)
      D.push_back(static_cast<int>(J));
  }
  return D;
}

/// The multipliers fitted on rows G, T: 1 for the undetermined groups and
/// those held at 1 (heldAtOne), whose time moves to the right-hand side,
/// t_j - sum_{g undetermined} G_jg, which also weights the rows; rows where
/// that is <= 5 % of t_j are left out of the solve.
/// Collinear groups share (minimum-norm solution) rather than fail.
NonNegativeLs fitRows(const DenseRows &G, const std::vector<double> &T,
                      const std::vector<std::string> &Groups, std::vector<bool> *Det = nullptr) {
  size_t NG = Groups.size();
  std::vector<int> Free;
  for (int J : determined(G, T, NG))
    if (!heldAtOne(Groups[J]))
      Free.push_back(J);
  std::vector<bool> IsDet(NG, false);
  for (int J : Free)
    IsDet[J] = true;
  if (Det)
    *Det = IsDet;
  NonNegativeLs R;
  if (Free.empty()) {
    R.X.assign(NG, 1.0);
    R.Ls = R.X;
    R.Fixed.assign(NG, false);
    return R;
  }
  // A kernel whose time the groups held at 1 take (almost) wholly says
  // nothing about the others; it is left out of the solve (its residual is
  // still reported).
  DenseRows Rows;
  std::vector<double> Rhs;
  for (size_t I = 0; I < G.size(); ++I) {
    double R0 = T[I];
    for (size_t J = 0; J < NG; ++J)
      if (!IsDet[J])
        R0 -= G[I][J];
    if (R0 > 0.05 * T[I]) {
      Rows.push_back(G[I]);
      Rhs.push_back(R0);
    }
  }
  if (Rows.empty())
    throw std::runtime_error("group fit: the groups held at 1 take every kernel's time");
  R = relativeNnls(Rows, Rhs, Groups, /*MinimumNorm=*/true, Free);
  for (size_t J = 0; J < NG; ++J)
    if (!IsDet[J])
      R.X[J] = R.Ls[J] = 1.0;
  return R;
}

} // namespace

GroupFit fitGroupMultipliers(const DenseRows &G, const std::vector<double> &T,
                             const std::vector<std::string> &Groups, const DenseRows &TimesByRep) {
  size_t M = G.size(), NG = Groups.size();
  if (T.size() != M)
    throw std::runtime_error("group fit: " + std::to_string(M) + " kernels but " +
                             std::to_string(T.size()) + " times");
  if (M < 2)
    throw std::runtime_error("group fit: needs at least 2 training kernels, got " +
                             std::to_string(M));
  for (size_t I = 0; I < M; ++I) {
    if (G[I].size() != NG)
      throw std::runtime_error("group fit: kernel " + std::to_string(I) + " has " +
                               std::to_string(G[I].size()) + " group times, expected " +
                               std::to_string(NG));
    if (!(T[I] > 0))
      throw std::runtime_error("group fit: time of kernel " + std::to_string(I) + " is not > 0");
  }
  GroupFit F;
  F.Groups = Groups;
  std::vector<bool> Det;
  NonNegativeLs R = fitRows(G, T, Groups, &Det);
  F.S = R.X;
  F.LsS = R.Ls;
  F.Fixed = R.Fixed;
  F.Determined = Det;
  auto Predict = [&](const std::vector<double> &Row, const std::vector<double> &S) {
    double P = 0;
    for (size_t J = 0; J < NG; ++J)
      P += S[J] * Row[J];
    return P;
  };
  std::vector<double> Ones(NG, 1.0);
  for (size_t I = 0; I < M; ++I) {
    F.Rel0.push_back((Predict(G[I], Ones) - T[I]) / T[I]);
    F.Rel.push_back((Predict(G[I], F.S) - T[I]) / T[I]);
    DenseRows G1;
    std::vector<double> T1;
    for (size_t K = 0; K < M; ++K)
      if (K != I) {
        G1.push_back(G[K]);
        T1.push_back(T[K]);
      }
    NonNegativeLs L = fitRows(G1, T1, Groups);
    F.LooRel.push_back((Predict(G[I], L.X) - T[I]) / T[I]);
  }
  // Spread: one fit per repetition.
  std::vector<std::vector<double>> PerRep(NG);
  for (const std::vector<double> &Tk : TimesByRep) {
    if (Tk.size() != M)
      throw std::runtime_error("group fit: a repetition has " + std::to_string(Tk.size()) +
                               " times, expected " + std::to_string(M));
    NonNegativeLs Rk = fitRows(G, Tk, Groups);
    for (size_t J = 0; J < NG; ++J)
      PerRep[J].push_back(Rk.X[J]);
  }
  for (size_t J = 0; J < NG; ++J)
    F.Spread.push_back(F.Determined[J] && !F.Fixed[J] ? relSpread(PerRep[J]) : std::nullopt);
  F.RmsRel0 = rms(F.Rel0);
  F.RmsRel = rms(F.Rel);
  F.RmsLoo = rms(F.LooRel);
  F.MedianAbsRel0 = medianAbs(F.Rel0);
  F.MedianAbsRel = medianAbs(F.Rel);
  F.MedianAbsLoo = medianAbs(F.LooRel);
  return F;
}

bool heldAtOne(const std::string &Group) { return Group == "math"; }

const std::vector<std::string> &costGroups(Level L) { return levelUnit(L).costGroups(); }

std::string costGroup(Level L, const std::string &Key) { return levelUnit(L).costGroup(Key); }

CallCostFit fitCallCost(const std::vector<double> &N, const std::vector<double> &T) {
  if (N.size() != T.size())
    throw std::runtime_error("fitCallCost: " + std::to_string(N.size()) + " sizes but " +
                             std::to_string(T.size()) + " times");
  std::set<double> Distinct(N.begin(), N.end());
  if (Distinct.size() < 2)
    throw std::runtime_error("fitCallCost: t = a + b n needs two sizes or more, got " +
                             std::to_string(Distinct.size()));
  DenseRows A;
  for (size_t I = 0; I < N.size(); ++I) {
    if (!(T[I] > 0))
      throw std::runtime_error("fitCallCost: time " + std::to_string(T[I]) + " at size " +
                               std::to_string(N[I]) + " is not > 0");
    A.push_back({1.0, N[I]});
  }
  NonNegativeLs X = relativeNnls(A, T, {"per_call", "per_B"});
  CallCostFit F;
  F.PerCall = X.X[0];
  F.PerB = X.X[1];
  double Sum = 0;
  for (size_t I = 0; I < N.size(); ++I) {
    double R = (F.PerCall + F.PerB * N[I] - T[I]) / T[I];
    Sum += R * R;
    F.MaxRel = std::max(F.MaxRel, std::fabs(R));
  }
  F.RmsRel = std::sqrt(Sum / N.size());
  return F;
}

} // namespace segtime
