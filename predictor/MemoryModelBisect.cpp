//===- MemoryModelBisect.cpp - Cache lines of a batch of binary searches --===//
///
/// \file
/// The bisection rule of the ICC memory term (MemoryModelBisect.h).
///
//===----------------------------------------------------------------------===//
#include "predictor/MemoryModelBisect.h"

#include "predictor/Expr.h"

#include <cmath>
#include <initializer_list>
#include <stdexcept>
#include <vector>

using namespace GiNaC;

namespace segtime {

namespace {
/// Levels of a search whose probes touch new lines: floor(log2(table
/// lines)) + 1, at least 1.
int newLineLevels(double TableLines) {
  return TableLines < 2 ? 1 : static_cast<int>(std::floor(std::log2(TableLines))) + 1;
}

/// The expected lines of a cache part occupied by N random searches whose
/// probes of level l (l < Levels) lie on C[l] lines: sum_l C[l] (1 - (1 -
/// 2^-l)^N); with C[l] = 2^l, D(N) of the whole tree.
double occupied(const double *C, int Levels, double N) {
  double D = 0;
  for (int L = 0; L < Levels; ++L)
    D += C[L] * (1 - std::pow(1 - std::ldexp(1.0, -L), N));
  return D;
}

/// Lines K replayed searches bring per call into a cache part of Capacity
/// lines holding the per-level lines C (the replay rule of
/// MemoryModelBisect.h): none if occupied(K) <= Capacity, else K sum_l C[l]
/// 2^-l (1 - 2^-l)^N_C, N_C the searches that fill it (occupied increases).
double replayMisses(const double *C, int Levels, double K, double Capacity) {
  if (occupied(C, Levels, K) <= Capacity)
    return 0; // warm: every line of the batch stays
  double Lo = 0, Hi = K;
  for (int I = 0; I < 64; ++I) {
    double Mid = (Lo + Hi) / 2;
    (occupied(C, Levels, Mid) <= Capacity ? Lo : Hi) = Mid;
  }
  double Miss = 0;
  for (int L = 0; L < Levels; ++L) {
    double P = std::ldexp(1.0, -L);
    Miss += K * C[L] * P * std::pow(1 - P, Lo);
  }
  return Miss;
}

/// bisect_lines with numbers (MemoryModelBisect.h).
double bisectLines(double TableBytes, double K, double CacheLines, double Line) {
  if (TableBytes <= 0 || K <= 0 || Line <= 0)
    return 0;
  double TableLines = std::max(1.0, TableBytes / Line);
  int Levels = newLineLevels(TableLines);
  std::vector<double> Tree(Levels);
  for (int L = 0; L < Levels; ++L)
    Tree[L] = std::ldexp(1.0, L);
  double All = std::min(occupied(Tree.data(), Levels, K), TableLines);
  if (CacheLines <= 0)
    return All;
  if (All <= CacheLines)
    return 0; // warm: every line of the batch stays
  return replayMisses(Tree.data(), Levels, K, CacheLines);
}

/// Adds to Count[set x Levels + level] the probes of the search tree's node
/// [Lo, Hi) at level L and below, down to level Levels - 1.
void placeProbes(long long Lo, long long Hi, int L, int Levels, double ElemBytes, double Line,
                 long long Sets, std::vector<double> &Count) {
  for (; Lo < Hi && L < Levels; ++L) {
    long long Mid = Lo + (Hi - Lo) / 2;
    long long Set = static_cast<long long>(std::floor(Mid * ElemBytes / Line)) % Sets;
    Count[Set * Levels + L] += 1;
    placeProbes(Lo, Mid, L + 1, Levels, ElemBytes, Line, Sets, Count);
    Lo = Mid + 1; // the right child, iteratively
  }
}

/// bisect_set_lines with numbers (MemoryModelBisect.h).
double bisectSetLines(double N, double S, double K, double Sets, double Ways, double Line) {
  if (N <= 0 || S <= 0 || K <= 0 || Line <= 0)
    return 0;
  double TableLines = std::max(1.0, N * S / Line);
  int Levels = newLineLevels(TableLines);
  if (Sets < 2 || Ways <= 0 || std::ldexp(1.0, Levels) > std::ldexp(1.0, 22))
    return bisectLines(N * S, K, Sets * Ways, Line);
  long long NS = static_cast<long long>(Sets);
  std::vector<double> Count(NS * Levels, 0.0);
  placeProbes(0, static_cast<long long>(N), 0, Levels, S, Line, NS, Count);
  double Miss = 0;
  for (long long Set = 0; Set < NS; ++Set)
    Miss += replayMisses(&Count[Set * Levels], Levels, K, Ways);
  return Miss;
}

/// Are all of Args real numbers (else the function stays unevaluated)?
bool allReal(std::initializer_list<const ex *> Args) {
  for (const ex *A : Args)
    if (!is_a<numeric>(*A) || !ex_to<numeric>(*A).is_real())
      return false;
  return true;
}

double toDouble(const ex &A) { return ex_to<numeric>(A).to_double(); }

ex bisectSetLinesEval(const ex &N, const ex &S, const ex &K, const ex &Sets, const ex &Ways,
                      const ex &Line) {
  if (!allReal({&N, &S, &K, &Sets, &Ways, &Line}))
    return bisect_set_lines(N, S, K, Sets, Ways, Line).hold();
  return numeric(bisectSetLines(toDouble(N), toDouble(S), toDouble(K), toDouble(Sets),
                                toDouble(Ways), toDouble(Line)));
}

ex bisectLinesEval(const ex &X, const ex &K, const ex &C, const ex &Line) {
  if (!allReal({&X, &K, &C, &Line}))
    return bisect_lines(X, K, C, Line).hold();
  return numeric(bisectLines(toDouble(X), toDouble(K), toDouble(C), toDouble(Line)));
}
} // namespace

REGISTER_FUNCTION(bisect_lines, eval_func(bisectLinesEval))
REGISTER_FUNCTION(bisect_set_lines, eval_func(bisectSetLinesEval))

bool bisection(const MemStream &S) {
  static const std::string Suffix = ".bisect";
  if (S.Loops.empty())
    return false;
  const std::string &L = S.Loops.front().Loop;
  return L.size() > Suffix.size() &&
         L.compare(L.size() - Suffix.size(), Suffix.size(), Suffix) == 0;
}

std::vector<MemStream> withoutBisections(const std::vector<MemStream> &S) {
  std::vector<MemStream> R;
  for (const MemStream &M : S)
    if (!bisection(M))
      R.push_back(M);
  return R;
}

std::vector<ex>
bisectionsApart(const std::vector<MemStream> &S, const CacheGeometry *C, double Line,
                const std::function<std::vector<ex>(const std::vector<MemStream> &)> &Plain) {
  std::vector<MemStream> Rest = withoutBisections(S);
  std::vector<ex> RestEach = Rest.empty() ? std::vector<ex>() : Plain(Rest), Each;
  size_t J = 0;
  for (const MemStream &M : S)
    Each.push_back(bisection(M) ? bisectionLines(M, C, Line) : RestEach.at(J++));
  return Each;
}

ex bisectionLines(const MemStream &S, const CacheGeometry *C, double Line) {
  if (!bisection(S))
    throw std::invalid_argument("bisectionLines: the stream of '" + S.Base +
                                "' is not a bisection");
  ex Bytes = parseExpr(S.Loops[0].Stride) * parseExpr(S.Loops[0].Trip);
  ex K = numeric(static_cast<long>(S.Offsets.size()) + 1);
  for (size_t J = 2; J < S.Loops.size(); ++J)
    K *= parseExpr(S.Loops[J].Trip);
  double L = C ? C->Line : Line;
  if (C && (C->Name == "L1" || C->Name == "L2") && C->Ways > 0 && C->sets() >= 2)
    return bisect_set_lines(parseExpr(S.Loops[0].Trip), parseExpr(S.Loops[0].Stride), K,
                            numeric(std::floor(C->sets())), numeric(C->Ways), numeric(L));
  ex Lines = C ? ex(numeric(std::floor(C->Size / C->Line))) : ex(0);
  return bisect_lines(Bytes, K, Lines, numeric(L));
}

ex bisectionChainTime(const std::vector<MemStream> &S, const std::vector<CacheGeometry> &Caches,
                      const std::vector<double> &Latency) {
  if (Caches.empty() || Latency.size() != Caches.size() + 1)
    throw std::invalid_argument("bisectionChainTime: " + std::to_string(Caches.size()) +
                                " cache levels and " + std::to_string(Latency.size()) +
                                " latencies (one more expected)");
  ex T = 0;
  for (const MemStream &M : S) {
    if (!bisection(M))
      continue;
    ex Prev = bisectionLines(M, &Caches[0]);
    for (size_t K = 1; K <= Caches.size(); ++K) {
      ex Next = K < Caches.size() ? bisectionLines(M, &Caches[K]) : ex(0);
      T += max(0, Prev - Next) * numeric(Latency[K]);
      Prev = Next;
    }
  }
  return T;
}

} // namespace segtime
