//===- MemoryModelBisect.cpp - Cache lines of a batch of binary searches --===//
///
/// \file
/// The bisection rule of the ICC memory term (MemoryModelBisect.h).
///
//===----------------------------------------------------------------------===//
#include "predictor/MemoryModelBisect.h"

#include "predictor/Expr.h"

#include <cmath>
#include <stdexcept>

using namespace GiNaC;

namespace segtime {

namespace {
/// Levels of a search whose probes touch new lines: floor(log2(table
/// lines)) + 1, at least 1.
int newLineLevels(double TableLines) {
  return TableLines < 2 ? 1 : static_cast<int>(std::floor(std::log2(TableLines))) + 1;
}

/// D(n): the distinct lines n random searches touch in the first Levels
/// levels, sum_l 2^l (1 - (1 - 2^-l)^n).
double distinctLines(double N, int Levels) {
  double D = 0;
  for (int L = 0; L < Levels; ++L) {
    double M = std::ldexp(1.0, L);
    D += M * (1 - std::pow(1 - 1 / M, N));
  }
  return D;
}

/// bisect_lines with numbers (MemoryModelBisect.h).
double bisectLines(double TableBytes, double K, double CacheLines, double Line) {
  if (TableBytes <= 0 || K <= 0 || Line <= 0)
    return 0;
  double TableLines = std::max(1.0, TableBytes / Line);
  int Levels = newLineLevels(TableLines);
  double All = std::min(distinctLines(K, Levels), TableLines);
  if (CacheLines <= 0)
    return All;
  if (All <= CacheLines)
    return 0; // warm: every line of the batch stays
  // N_C: the searches whose distinct lines fill the cache (D increases).
  double Lo = 0, Hi = K;
  for (int I = 0; I < 64; ++I) {
    double Mid = (Lo + Hi) / 2;
    (distinctLines(Mid, Levels) <= CacheLines ? Lo : Hi) = Mid;
  }
  double Miss = 0;
  for (int L = 0; L < Levels; ++L)
    Miss += std::pow(1 - std::ldexp(1.0, -L), Lo);
  return K * Miss;
}

ex bisectLinesEval(const ex &X, const ex &K, const ex &C, const ex &Line) {
  for (const ex *A : {&X, &K, &C, &Line})
    if (!is_a<numeric>(*A) || !ex_to<numeric>(*A).is_real())
      return bisect_lines(X, K, C, Line).hold();
  auto D = [](const ex &A) { return ex_to<numeric>(A).to_double(); };
  return numeric(bisectLines(D(X), D(K), D(C), D(Line)));
}
} // namespace

REGISTER_FUNCTION(bisect_lines, eval_func(bisectLinesEval))

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
