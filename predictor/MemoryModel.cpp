//===- MemoryModel.cpp - The ICC memory term ------------------------------===//
#include "predictor/MemoryModel.h"
#include "predictor/MemoryModelBisect.h"

#include "predictor/Overlap.h"
#include "predictor/StreamRules.h"
#include "predictor/Expr.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <set>
#include <unordered_map>

using namespace GiNaC;

namespace segtime {

/// X as a whole number, if it is one (values substituted by evaluate()
/// are floating-point numerics).
static std::optional<long> whole(const ex &X) {
  if (!is_a<numeric>(X) || !ex_to<numeric>(X).is_real())
    return std::nullopt;
  double D = ex_to<numeric>(X).to_double();
  if (D != std::round(D) || std::fabs(D) > 1e15)
    return std::nullopt;
  return static_cast<long>(D);
}

static ex cacheSetsEval(const ex &Stride, const ex &Sets, const ex &Line) {
  auto S = whole(Stride), N = whole(Sets), L = whole(Line);
  if (S && N && L && *N > 0 && *L > 0) {
    long Span = *N * *L;
    return numeric(Span / std::max(*L, std::gcd(std::labs(*S), Span)));
  }
  return cache_sets(Stride, Sets, Line).hold();
}
REGISTER_FUNCTION(cache_sets, eval_func(cacheSetsEval))


std::string memoryCurveKey(size_t Point, const std::string &Field, const std::string &Curve) {
  char Idx[24];
  std::snprintf(Idx, sizeof Idx, "%02zu", Point);
  return "memory." + Curve + "." + std::string(Idx) + "." + Field;
}

/// V / B(F) with B the step function Levels of the footprint:
/// 1/B(F) = 1/B_1 + sum_k (1/B_{k+1} - 1/B_k) [size_k < F].
static ex stepTime(const std::vector<MemoryModel::Level> &Levels, const ex &V, const ex &F) {
  ex InvB = numeric(1 / Levels.front().Bandwidth);
  for (size_t K = 0; K + 1 < Levels.size(); ++K)
    InvB += numeric(1 / Levels[K + 1].Bandwidth - 1 / Levels[K].Bandwidth) *
            cmp_lt(numeric(Levels[K].Size), F);
  return V * InvB;
}

/// V / B(F) with 1/B linear in F between the measured points (F_i, B_i)
/// and constant outside them: 1/B(F) = 1/B_0 + sum_i (1/B_{i+1} - 1/B_i) x
/// clamp((F - F_i) / (F_{i+1} - F_i), 0, 1).
static ex interpolatedTime(const std::vector<std::pair<double, double>> &P, const ex &V,
                           const ex &F) {
  ex InvB = numeric(1 / P.front().second);
  for (size_t I = 0; I + 1 < P.size(); ++I) {
    ex X = (F - numeric(P[I].first)) / numeric(P[I + 1].first - P[I].first);
    InvB += numeric(1 / P[I + 1].second - 1 / P[I].second) * min(1, max(0, X));
  }
  return V * InvB;
}

ex MemoryModel::time(const ex &V, const ex &F) const {
  return Points.size() >= 2 ? interpolatedTime(Points, V, F) : stepTime(Levels, V, F);
}

double MemoryModel::bandwidthAt(double F) const {
  if (Points.size() < 2)
    return levelOf(F).Bandwidth;
  return 1 / evaluate(interpolatedTime(Points, 1, numeric(F)), {});
}

const std::vector<MemoryModel::Level> *MemoryModel::stridedCurve() const {
  if (Ranks >= 2 && !StridedShared.empty())
    return &StridedShared;
  return Strided.empty() ? nullptr : &Strided;
}

std::string MemoryModel::stridedCurveName() const {
  const std::vector<Level> *C = stridedCurve();
  return !C ? "" : C == &StridedShared ? "strided_shared2" : "strided";
}

ex MemoryModel::walkTime(const std::vector<Level> &C, const ex &V, const ex &F) const {
  return stepTime(C, V, F);
}

ex MemoryModel::stridedTime(const ex &V, const ex &F) const {
  const std::vector<Level> *C = stridedCurve();
  return C ? stepTime(*C, V, F) : time(V, F);
}

} // namespace segtime

namespace segtime {

namespace {
/// A stream with its expressions parsed.
struct Stream {
  /// Index: each loop's counter symbol where an inner loop's trip depends
  /// on it (a triangular nest), else 0.
  std::vector<ex> Offsets, Stride, Trip, Index;
  std::vector<std::string> Loop;
  /// The cluster of references that share the first's lines: numeric
  /// offsets less than a line apart (the lanes of an unrolled vector loop),
  /// [Lo, Hi + Size) bytes.
  double Lo = 0, Hi = 0, Size = 8;
  /// Joined to an earlier stream of which it is another version
  /// (versionOf): its lines are that stream's.
  bool Merged = false;
  /// A later version of an earlier dense row walk (continuationOf): its
  /// part of the row continues that walk's run.
  bool Continues = false;
  /// Lines one execution of the cluster touches (at least 1).
  double lines0(double Line) const { return std::max(1.0, (Hi - Lo + Size) / Line); }
};

void cluster(Stream &P, double Line) {
  std::vector<double> Num;
  for (const ex &D : P.Offsets)
    if (is_a<numeric>(D))
      Num.push_back(ex_to<numeric>(D).to_double());
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (double X : Num)
      if (X >= P.Lo - Line && X <= P.Hi + Line && (X < P.Lo || X > P.Hi)) {
        P.Lo = std::min(P.Lo, X);
        P.Hi = std::max(P.Hi, X);
        Grew = true;
      }
  }
}

/// The lines of a stream touched over some of its loops: M lines in R runs
/// of E contiguous lines; runs RunStride bytes apart if Runs.
struct Touched {
  ex M = 1, R = 1, E = 1, RunStride = 0;
  bool Runs = false;
};

/// [the lines of T fit the ways of the sets they map to in C] (1 if they
/// are contiguous: capacity decides).
ex setsFit(const Touched &T, const CacheGeometry &C) {
  if (!T.Runs)
    return 1;
  ex Sets = numeric(C.sets());
  return cmp_le(T.M, numeric(C.Ways) *
                         min(Sets, cache_sets(T.RunStride, Sets, numeric(C.Line)) * T.E));
}

/// Counters of the triangular loops of a nest -> their trips.
using Counters = std::vector<std::pair<ex, ex>>;

/// The larger of E at the first and the last iteration of every
/// triangular loop whose counter E depends on (exact when E is monotone in
/// the counter, as linear counts are): what an iteration of the largest
/// extent touches, for the capacity tests.
ex largest(ex E, const Counters &Ks) {
  if (Ks.empty() || is_a<numeric>(E))
    return E;
  // (memoised: the layer conditions of every stream and loop ask for the
  // same V and M again, and each substitution copies the whole expression;
  // LU's per-row sums at n = 320 spent most of their time here)
  static std::unordered_map<ex, ex, std::hash<ex>, ex_is_equal> Memo;
  lst Key{E};
  for (auto &[K, N] : Ks)
    Key.append(K).append(N);
  if (auto It = Memo.find(Key); It != Memo.end())
    return It->second;
  if (Memo.size() > 20000)
    Memo.clear();
  ex R = E;
  for (size_t Pass = 0; Pass <= Ks.size(); ++Pass) // (a trip may hold an outer counter)
    for (auto &[K, N] : Ks)
      if (R.has(K))
        R = max(R.subs(K == 0), R.subs(K == N - 1));
  return Memo[Key] = R;
}

/// Lines of stream P touched over its loops [0, Upto) (one iteration of
/// loop Upto), brought into cache C (null: unlimited, the distinct lines);
/// V: bytes all streams touch in one iteration of each loop.
///
/// Triangular nests: where what one iteration of loop J touches depends on
/// its counter k (an inner trip count k, or V through another stream's), the
/// loop sums per iteration instead of multiplying, M' = seg_sum(M(k) +
/// [k > 0] Reuse (min(R(k) s / line, M(k)) - M(k)), k, 0, N - 1) (the first
/// iteration brings its M lines in, a later one with reuse only the R s /
/// line lines its runs slide onto, at most its own: the short rows of a
/// triangle), R' likewise, E' the largest over k. A loop whose trip is
/// symbolic touches nothing when it runs 0 times (a triangular loop's
/// first row; a vector loop's remainder loop when the vector width
/// divides n: before, its slide M + (N - 1) R s / line counted 7/8 of a
/// line for N = 0). The layer conditions (capacity, sets) of a triangular
/// nest are tested once, with its largest iteration (largest): a sound
/// choice for reuse (a condition that holds for the largest holds for
/// all), and it keeps the sums' bodies free of them.
///
/// Reuse distance: a stream that does not move in the loops just inside
/// loop J (stride 0 in loops Jr .. J-1) touches all its lines again in every
/// iteration of loop Jr; between its last touch of a line in one iteration
/// of J and the next touch in the following one lie the bytes of about one
/// iteration of loop Jr, not of the whole loop J-1 (the column of C in gemm
/// j-p-i, C[i][j] += A[i][p] B[p][j]: touched in every p iteration, it stays
/// the most recently used while the rows of A pass through an LRU cache,
/// and the next j reuses it; Kerncraft's LC model takes the reuse distance
/// per reference, Hammer et al. 2017 §III-B). The capacity test of loop J
/// is then on V of loop Jr.
size_t reuseLoop(const Stream &P, size_t J) {
  size_t Jr = J;
  while (Jr > 0 && P.Stride[Jr - 1].is_zero())
    --Jr;
  return Jr;
}

Touched streamLines(const Stream &P, size_t Upto, const CacheGeometry *C, double Line,
                    const std::map<std::string, ex> &V, const Counters &Ks,
                    const ex &Even = 0) {
  Touched T;
  T.M = T.E = P.lines0(Line);
  size_t J0 = 0;
  if (P.Continues && Upto > 0) { // (its elements' bytes, from where the run stands)
    T.M = T.E = max(0, P.Trip[0]) * P.Stride[0] / numeric(Line);
    J0 = 1;
  }
  for (size_t J = J0; J < Upto; ++J) {
    ex S = P.Stride[J], N = P.Trip[J], K = P.Index[J];
    bool Tri = is_a<symbol>(K) && (T.M.has(K) || T.R.has(K) || T.E.has(K));
    Touched Big = T; // (the largest iteration: the reuse test is one for all)
    Big.E = largest(T.E, Ks);
    ex Fit = 1;
    if (C) {
      Big.M = largest(T.M, Ks);
      ex VJ = largest(V.at(P.Loop[reuseLoop(P, J)]), Ks);
      Fit = lruFit(VJ, S, *C, Even) * setsFit(Big, *C);
    }
    // Runs that the loop shifts by m whole run strides and Delta bytes,
    // |Delta| < a line (a window of k rows moved down m rows: a 2-D
    // convolution, a blur; a column walk moved one row down and one column
    // on: a triangular solve by columns) overlap their own next iteration
    // while m < R: min(m, R) runs of E lines and R Delta / line lines are
    // new per iteration, not R runs' S bytes.
    ex Shift = 0, Delta = 0;
    if (T.Runs && !T.RunStride.is_zero())
      for (long M = 1; M <= 8 && Shift.is_zero(); ++M) {
        ex D = expand(S - M * T.RunStride);
        if (is_a<numeric>(D) && abs(ex_to<numeric>(D)) < numeric(Line)) {
          Shift = M;
          Delta = abs(ex_to<numeric>(D));
        }
      }
    // (a run extends by S per iteration only where the loop moves it
    // within itself, S at most its E lines; runs shifted down by m whole
    // run strides and Delta bytes grow by Delta, m more of them per
    // iteration: before, a column walk shifted one row and one element per
    // iteration, Cholesky's column j, grew its runs by S / line per
    // iteration and, shifted again by the outer loop, brought in a
    // triangle's lines per iteration)
    ex Extends = cmp_le(S, numeric(Line) * Big.E);
    ex Grows = Extends * S + (1 - Extends) * Delta; // (B per iteration)
    ex Near = Shift.is_zero() ? Extends : max(Extends, cmp_lt(Shift, largest(T.R, Ks)));
    ex Reuse = Near * Fit;
    ex Slide = T.R * S / numeric(Line); // (lines new per iteration)
    if (!Shift.is_zero())
      Slide = min(Slide, min(Shift, T.R) * T.E + T.R * Delta / numeric(Line));
    if (Tri) {
      // (capacity tested per iteration k where what an iteration touches
      // depends on no other triangular counter: a column walk that fits
      // once the triangle has narrowed reuses its lines from there on)
      ex FitK = Fit;
      bool Own = C && J + 1 == P.Loop.size();
      // (a counter of one of P's inner loops is summed over within the
      // iteration: bound, not free; Cholesky's column loop j inside k)
      const ex &VJ = V.at(P.Loop[reuseLoop(P, J)]);
      std::set<std::string> Free;
      if (Own)
        for (const ex *X : std::initializer_list<const ex *>{&VJ, &T.M})
          for (const std::string &N : freeSymbols(*X))
            Free.insert(N);
      for (auto &[K2, N2] : Ks)
        Own = Own && (K2.is_equal(K) ||
                      (!Free.count(ex_to<symbol>(K2).get_name()) &&
                       std::any_of(P.Index.begin(), P.Index.begin() + J,
                                   [&](const ex &X) { return X.is_equal(K2); })) ||
                      (!VJ.has(K2) && !T.M.has(K2)));
      if (Own)
        FitK = lruFit(VJ, S, *C, Even) * setsFit(T, *C);
      ex Later = (1 - cmp_eq(K, 0)) * Near * FitK;
      // Runs shifted by m whole run strides bring m new runs in only if the
      // walk's far end moves on: with R(k) runs in iteration k, m + R(k) -
      // R(k-1) of them (a triangular column walk down to the last row, one
      // row shorter per column: none; a window moved down: m).
      if (!Shift.is_zero() && T.R.has(K)) {
        ex NewRuns = max(0, min(Shift, T.R) + T.R - T.R.subs(K == K - 1));
        Slide = min(T.R * S / numeric(Line),
                    min(NewRuns, T.R) * T.E + T.R * Delta / numeric(Line));
      }
      ex E = T.E + Reuse * (N - 1) * Grows / numeric(Line);
      T.M = seg_sum(T.M + Later * (min(Slide, T.M) - T.M), K, 0, N - 1);
      T.R = seg_sum(T.R - Later * T.R, K, 0, N - 1);
      T.E = max(E.subs(K == 0), E.subs(K == N - 1));
    } else {
      ex MSep = N * T.M, RSep = N * T.R;
      ex MSlide = T.M + (N - 1) * Slide;
      ex RSlide = Shift.is_zero() ? T.R : T.R + (N - 1) * min(Shift, T.R);
      ex ESlide = T.E + (N - 1) * Grows / numeric(Line);
      T.M = MSep + Reuse * (MSlide - MSep);
      T.R = RSep + Reuse * (RSlide - RSep);
      T.E = T.E + Reuse * (ESlide - T.E);
    }
    if (!is_a<numeric>(N)) { // (a triangular or remainder loop may run 0 times)
      T.M *= cmp_le(1, N);
      T.R *= cmp_le(1, N);
    }
    // (the innermost loop's walk is dense also where its stride is the
    // width of its references' cluster, a line or more: a vector loop's 4
    // loads of 32 B, 128 B per iteration; LU's row unrolled by 8, 64 B; its
    // runs are then the rows, not each iteration's lines, and an outer loop
    // that moves the rows a row and a double on is a shift of them)
    bool Dense = is_a<numeric>(S) &&
                 (ex_to<numeric>(S) < numeric(Line) ||
                  (J == 0 && !P.Continues && ex_to<numeric>(S).to_double() <= P.Hi - P.Lo + P.Size));
    if (!T.Runs && !Dense) {
      T.Runs = true;
      T.RunStride = S;
    }
  }
  return T;
}

/// Whole iterations of one of P's loops that a reference Offset bytes from
/// P's first lies ahead or behind, up to bytes within [Lo - line, Hi +
/// line] (the cluster of P's references that share its lines): the loop
/// and the smallest such |m|, if any (|m| <= 8).
std::optional<std::pair<size_t, long>> aheadBy(const Stream &P, const ex &Offset, double Lo,
                                               double Hi, double Line) {
  std::optional<std::pair<size_t, long>> Best;
  for (size_t J = 0; J < P.Stride.size(); ++J) {
    if (P.Stride[J].is_zero())
      continue;
    for (long M = 1; M <= 8 && (!Best || M < Best->second); ++M)
      for (long Sign : {1, -1}) {
        ex R = expand(Offset - Sign * M * P.Stride[J]);
        if (is_a<numeric>(R) && ex_to<numeric>(R).to_double() >= Lo - Line &&
            ex_to<numeric>(R).to_double() <= Hi + Line)
          Best = std::make_pair(J, M);
      }
  }
  return Best;
}

/// Lines of P's other references (Offsets) that do not share P's lines in
/// cache C: a reference in the cluster of P's first (numeric offsets less
/// than a line apart, e.g. the lanes of an unrolled vector loop) shares
/// them; one that lies m whole iterations of loop J away shares them if m
/// iterations' lines (m V_J) fit; any other counts Lines (P's own) again.
ex otherLines(const Stream &P, const ex &Lines, const CacheGeometry *C, double Line,
              const std::map<std::string, ex> &V, const Counters &Ks) {
  double Lo = P.Lo, Hi = P.Hi;
  ex Extra = 0;
  for (const ex &D : P.Offsets) {
    if (is_a<numeric>(D) && ex_to<numeric>(D).to_double() >= Lo &&
        ex_to<numeric>(D).to_double() <= Hi)
      continue;
    auto Ahead = aheadBy(P, D, Lo, Hi, Line);
    if (!Ahead)
      Extra += Lines;
    else if (C)
      Extra += (1 - cmp_le(Ahead->second * largest(V.at(P.Loop[Ahead->first]), Ks),
                           numeric(C->Size))) *
               Lines;
  }
  return Extra;
}

/// Do P and Q reference the same offsets beyond their clusters (the lanes
/// of a vector loop within a line are each part's own) and share their
/// outer loops (all but the innermost) with the same strides and trips?
bool sameFarAndOuter(const Stream &P, const Stream &Q) {
  auto Far = [](const Stream &X) {
    std::vector<ex> F;
    for (const ex &O : X.Offsets)
      if (!is_a<numeric>(O) || ex_to<numeric>(O).to_double() < X.Lo ||
          ex_to<numeric>(O).to_double() > X.Hi)
        F.push_back(O);
    return F;
  };
  std::vector<ex> FP = Far(P), FQ = Far(Q);
  if (FP.size() != FQ.size())
    return false;
  for (const ex &O : FP)
    if (std::none_of(FQ.begin(), FQ.end(), [&](const ex &X) { return expand(X - O).is_zero(); }))
      return false;
  for (size_t J = 1; J < P.Loop.size(); ++J)
    if (P.Loop[J] != Q.Loop[J] || !expand(P.Stride[J] - Q.Stride[J]).is_zero() ||
        !expand(P.Trip[J] - Q.Trip[J]).is_zero())
      return false;
  return true;
}

/// Are P and Q versions of one column walk (a vector loop over a column,
/// its remainder and epilogue loops, each walking its part of the column):
/// one base pointer, loads and stores alike, the same references beyond
/// each part's cluster, different innermost loops with the same stride of
/// at least a line, and the same outer loops, strides and trips? Their parts
/// then are one walk, whose trip is the sum of theirs (parseStreams):
/// trsv_col's column below the diagonal, 4 rows per vector iteration and
/// the rest in a remainder loop, is one column, one row shorter per column,
/// whose last row stays (apart, the remainder's rows looked like a new row
/// per column). Dense row walks are left apart: their parts' lines differ
/// with the alignment that the per-part formulas assume (LU's rows, joined
/// as one walk of doubles, came out +49 % against cachegrind).
bool versionOf(const Stream &P, const MemStream &SP, const Stream &Q, const MemStream &SQ,
               double Line) {
  if (SP.Base.empty() || SP.Base != SQ.Base || SP.Load != SQ.Load || SP.Store != SQ.Store ||
      P.Loop.size() != Q.Loop.size() || P.Loop.size() < 2 || P.Loop[0] == Q.Loop[0] ||
      indexedObject(SP) || indexedObject(SQ))
    return false;
  const ex &S = P.Stride[0];
  if (!expand(S - Q.Stride[0]).is_zero() || S.is_zero() ||
      (is_a<numeric>(S) && ex_to<numeric>(S) < numeric(Line)))
    return false;
  return sameFarAndOuter(P, Q);
}

/// Is Q a later version of P's dense row walk (the scalar remainder of a
/// vectorised row, its unrolled epilogue): one base pointer, loads and
/// stores alike, P's references vectors wider than Q's (the copies of a
/// row loop that an unrolled outer loop made are other rows: references
/// of one width), both innermost loops walking a row (a positive numeric
/// stride under a line), different innermost loops, the same references
/// beyond each one's cluster and the same outer loops, strides and trips?
/// Its part of the row follows P's in each row: it adds its elements' bytes
/// to the run P's part left, trip x stride / line lines, not a run of its
/// own that starts on a line (stencil3d7 at n = 64: 60 doubles of a row
/// vectorised, 2 in the remainder, counted a line each for u and v, +13 %
/// against cachegrind). Not merged into one walk (LU's rows joined so came
/// out +49 %: each part's own formula keeps its alignment).
bool continuationOf(const Stream &P, const MemStream &SP, const Stream &Q, const MemStream &SQ,
                    double Line) {
  if (SP.Base.empty() || SP.Base != SQ.Base || SP.Load != SQ.Load || SP.Store != SQ.Store ||
      SP.Size <= SQ.Size || P.Loop.size() != Q.Loop.size() || P.Loop.size() < 2 ||
      P.Loop[0] == Q.Loop[0] || indexedObject(SP) || indexedObject(SQ))
    return false;
  for (const ex *S : {&P.Stride[0], &Q.Stride[0]})
    if (!is_a<numeric>(*S) || !ex_to<numeric>(*S).is_positive() ||
        ex_to<numeric>(*S).to_double() >= Line)
      return false;
  return sameFarAndOuter(P, Q);
}

/// [stream Q's lines are among those stream P touches in the same
/// iterations] (an expression, 0 if not): the element of a row that an
/// outer loop loads beside the inner loop's walk along that row (Floyd's
/// d[i][k] beside d[i][j], LU's a[i][k] beside a[i][k+1..n-1]). Holds if
/// both have one base pointer, Q does not store unless P does, P's
/// innermost loop walks a row (a numeric stride of at most a line or its
/// references' cluster), Q's loops are P's outer ones (Q is outside that
/// loop), or P's with another innermost loop that does not move Q (Q in
/// that loop or in another version of it: a remainder loop), and in every
/// outer loop Q moves as P does, or P does not move and Q stays within P's
/// row (Q's stride x (trip - 1) at most the row's bytes and two lines: what
/// a vector loop leaves to its remainder). Assumption: Q starts within P's
/// row (the streams do not record where streams with different strides
/// start relative to each other; here the outer loop's element of the row
/// the inner loop walks).
///
/// Also the element one step of a column walk before it (the diagonal of a
/// triangular solve by columns, l[j*n + j] beside l[i*n + j], i > j): P's
/// innermost loop walks a column (a stride of a line or more), its first
/// outer loop moves it one such step down and less than a line on (8n + 8
/// B), Q's loops are P's outer ones and Q moves as P does in each. Q's
/// element then lies in the row P's walk of the previous outer iteration
/// touched, less than a line from that walk's element: its line is among
/// P's (but for the 1 in line / delta that crosses a line, which the
/// shifted walk's own count leaves out). Before, trsv_col's diagonal counted
/// a line per column: n = 182 L1 2578 lines, cachegrind 2228. Assumption:
/// Q starts in P's column (as above, the streams do not record it).
ex coveredBy(const Stream &Q, const MemStream &SQ, const Stream &P, const MemStream &SP,
             double Line, const Counters &Ks) {
  if (&Q == &P || Q.Merged || P.Merged || SQ.Base.empty() || SQ.Base != SP.Base ||
      (SQ.Store && !SP.Store) || indexedObject(SQ) || indexedObject(SP))
    return 0;
  // Q's loop J is P's loop J + D.
  size_t D;
  if (Q.Loop.size() + 1 == P.Loop.size())
    D = 1;
  else if (Q.Loop.size() == P.Loop.size() && Q.Stride[0].is_zero() && P.Loop.size() >= 2)
    D = 0;
  else
    return 0;
  const ex &Row = P.Stride[0];
  double Width = std::max(Line, P.Hi - P.Lo + P.Size);
  if (!is_a<numeric>(Row) || !ex_to<numeric>(Row).is_positive() ||
      ex_to<numeric>(Row).to_double() > Width) {
    // (a column walk: the element one step before it, see above)
    if (D != 1 || Row.is_zero() || (is_a<numeric>(Row) && ex_to<numeric>(Row) < numeric(Line)))
      return 0;
    ex Delta = expand(P.Stride[1] - Row);
    if (!is_a<numeric>(Delta) || abs(ex_to<numeric>(Delta)) >= numeric(Line))
      return 0;
    for (size_t J = 0; J < Q.Loop.size(); ++J)
      if (P.Loop[J + 1] != Q.Loop[J] || !expand(P.Stride[J + 1] - Q.Stride[J]).is_zero())
        return 0;
    return 1;
  }
  ex Span = Row * (P.Trip[0] - 1) + numeric(P.Hi - P.Lo + P.Size);
  ex Cond = 1;
  for (size_t J = 1 - D; J < Q.Loop.size(); ++J) {
    size_t T = J + D;
    if (P.Loop[T] != Q.Loop[J])
      return 0;
    if (expand(P.Stride[T] - Q.Stride[J]).is_zero())
      continue;
    if (!P.Stride[T].is_zero())
      return 0;
    // (Q's walk at its longest; not with a row whose length varies with a
    // triangular loop's counter)
    Cond *= cmp_le(largest(Q.Stride[J] * (Q.Trip[J] - 1), Ks), Span + numeric(2 * Line));
  }
  for (auto &[K, N] : Ks)
    if (Cond.has(K))
      return 0;
  return Cond;
}

/// [stream I of Ps is covered by another] (coveredBy), 0 or 1 as an
/// expression.
ex covered(const std::vector<Stream> &Ps, const std::vector<MemStream> &S, size_t I,
           double Line, const Counters &Ks) {
  ex NotCovered = 1;
  for (size_t J = 0; J < Ps.size(); ++J)
    if (J != I)
      NotCovered *= 1 - coveredBy(Ps[I], S[I], Ps[J], S[J], Line, Ks);
  return 1 - NotCovered;
}
} // namespace

namespace {
/// The trips of an indexed object's stream P over its loops [0, Upto) as
/// objectLines takes them (the object's lines, then the accesses): in a
/// triangular nest, a loop whose counter an inner trip holds sums the
/// accesses per iteration (seg_sum) instead of multiplying, so that no
/// counter is left free.
std::vector<ex> objectTrips(const Stream &P, size_t Upto) {
  if (Upto < 2)
    return std::vector<ex>(P.Trip.begin(), P.Trip.begin() + Upto);
  ex A = 1;
  for (size_t J = 1; J < Upto; ++J)
    A = is_a<symbol>(P.Index[J]) && A.has(P.Index[J])
            ? sumOver(A, ex_to<symbol>(P.Index[J]), P.Trip[J])
            : A * P.Trip[J];
  return {P.Trip[0], A};
}

/// The streams S parsed, with the counters of their triangular loops.
struct Parsed {
  std::vector<Stream> Ps;
  Counters Ks;
  /// Bytes all streams touch in one iteration of each loop (distinct lines).
  std::map<std::string, ex> V;
  /// Loops, innermost first (in the order streams list them, once each).
  std::vector<std::string> Order;
};

Parsed parseStreams(const std::vector<MemStream> &S, double Line,
                    const ex *Footprint = nullptr) {
  Parsed R;
  // The counters of triangular loops, by loop: one loop's counter bounds
  // the sums of every stream that iterates it (V mixes them).
  std::map<std::string, ex> IndexOf;
  for (const MemStream &M : S)
    for (const MemStream::Step &St : M.Loops)
      if (!St.Index.empty() && !IndexOf.count(St.Loop)) {
        IndexOf[St.Loop] = sym(St.Index);
        R.Ks.push_back({sym(St.Index), parseExpr(St.Trip)});
      }
  for (const MemStream &M : S) {
    Stream P;
    for (const std::string &O : M.Offsets)
      P.Offsets.push_back(parseExpr(O));
    for (const MemStream::Step &St : M.Loops) {
      P.Loop.push_back(St.Loop);
      // (the pass writes |step|; a symbolic stride is kept as it is so that
      // offsets such as 16*n cancel against it)
      ex Str = parseExpr(St.Stride);
      P.Stride.push_back(is_a<numeric>(Str) ? ex(abs(ex_to<numeric>(Str))) : Str);
      P.Trip.push_back(parseExpr(St.Trip));
      auto K = IndexOf.find(St.Loop);
      P.Index.push_back(K == IndexOf.end() ? ex(0) : K->second);
      if (std::find(R.Order.begin(), R.Order.end(), St.Loop) == R.Order.end())
        R.Order.push_back(St.Loop);
    }
    if (P.Loop.empty())
      throw std::runtime_error("memory stream of '" + M.Base + "' has no loops");
    P.Size = M.Size;
    reroll(P.Stride[0], P.Trip[0], P.Offsets, Line);
    cluster(P, Line);
    R.Ps.push_back(std::move(P));
  }
  // Versions of one column walk are one walk (versionOf).
  for (size_t I = 0; I < R.Ps.size(); ++I)
    for (size_t J = I + 1; J < R.Ps.size(); ++J)
      if (!R.Ps[I].Merged && !R.Ps[J].Merged &&
          versionOf(R.Ps[I], S[I], R.Ps[J], S[J], Line)) {
        R.Ps[I].Trip[0] = R.Ps[I].Trip[0] + R.Ps[J].Trip[0];
        R.Ps[J].Merged = true;
      }
  // Later versions of a dense row walk continue its run (continuationOf).
  for (size_t I = 0; I < R.Ps.size(); ++I)
    for (size_t J = I + 1; J < R.Ps.size(); ++J)
      if (!R.Ps[I].Merged && !R.Ps[J].Merged && !R.Ps[I].Continues && !R.Ps[J].Continues &&
          continuationOf(R.Ps[I], S[I], R.Ps[J], S[J], Line))
        R.Ps[J].Continues = true;
  for (size_t I = 0; I < R.Ps.size(); ++I) {
    const Stream &P = R.Ps[I];
    if (P.Merged)
      continue;
    bool Obj = indexedObject(S[I]); // (an iteration of its loop: a line per access)
    for (size_t J = 0; J < P.Loop.size(); ++J) {
      ex L = Obj && J > 0 ? objectLines(P.Stride[0] * P.Trip[0], objectTrips(P, J),
                                        P.Offsets.size() + 1, nullptr, Line)
                          : streamLines(P, J, nullptr, Line, R.V, R.Ks).M;
      R.V[P.Loop[J]] += numeric(Line) * (L + otherLines(P, L, nullptr, Line, R.V, R.Ks));
    }
  }
  // One iteration of any loop touches at most the nest's footprint (the
  // union per base pointer): streams of one array (a vector loop and its
  // remainder, the two sweeps of a Jacobi step) add their lines above.
  // (not with a footprint that sums over a triangular loop's counter:
  // largest() substitutes the counter, also inside the sum)
  bool Bounded = Footprint && (!is_a<numeric>(*Footprint) ||
                               ex_to<numeric>(*Footprint).is_positive());
  for (auto &[K, N] : R.Ks)
    Bounded = Bounded && !Footprint->has(K);
  if (Bounded)
    for (auto &[L, V] : R.V)
      V = min(V, *Footprint);
  return R;
}
} // namespace

ex reuseWorkingSet(const std::vector<MemStream> &S, double Size, double Line, const ex &F) {
  Parsed P = parseStreams(withoutBisections(S), Line, &F);
  // V per loop grows outwards: the smallest V that exceeds Size is the
  // innermost loop whose iteration does not fit.
  ex W = F;
  for (const std::string &L : P.Order) {
    auto It = P.V.find(L);
    if (It == P.V.end()) // (the innermost loop of a version joined to another)
      continue;
    ex VL = largest(It->second, P.Ks);
    ex Over = cmp_lt(numeric(Size), VL);
    W = min(W, Over * VL + (1 - Over) * F);
  }
  return W;
}

std::vector<ex> linesIntoEach(const std::vector<MemStream> &S, const CacheGeometry *C,
                              bool WriteBacks, const ex *Footprint) {
  double Line = C ? C->Line : 64;
  if (std::any_of(S.begin(), S.end(), bisection)) // (their own rule, MemoryModelBisect.h)
    return bisectionsApart(S, C, Line, [&](const std::vector<MemStream> &P) {
      return linesIntoEach(P, C, WriteBacks, Footprint);
    });
  Parsed PS = parseStreams(S, Line, Footprint);
  const std::vector<Stream> &Ps = PS.Ps;
  const Counters &Ks = PS.Ks;
  const std::map<std::string, ex> &V = PS.V;
  std::vector<ex> Each;
  ex Distinct = 0, Fits = 1;
  // (the set-overflow share of lruFit holds where the lines spread evenly
  // over the sets: every stream's strided walk, a stride wider than a line
  // and its references, uses all of them)
  ex Even = 1;
  if (C)
    for (size_t I = 0; I < Ps.size(); ++I) {
      const Stream &P = Ps[I];
      if (P.Merged || indexedObject(S[I]))
        continue;
      for (const ex &St : P.Stride)
        if (!St.is_zero()) {
          // (dense: within a line or the references' cluster, a vector
          // loop's 4 loads of 32 B)
          if (!is_a<numeric>(St) ||
              ex_to<numeric>(St).to_double() > std::max(Line, P.Hi - P.Lo + P.Size))
            Even *= cmp_eq(cache_sets(St, numeric(C->sets()), numeric(Line)),
                           numeric(C->sets()));
          break;
        }
    }
  for (size_t I = 0; I < Ps.size(); ++I) {
    const Stream &P = Ps[I];
    if (P.Merged) {
      Each.push_back(0);
      continue;
    }
    bool Obj = indexedObject(S[I]);
    ex L = Obj ? objectLines(P.Stride[0] * P.Trip[0], objectTrips(P, P.Trip.size()),
                             P.Offsets.size() + 1, C, Line)
               : streamLines(P, P.Loop.size(), C, Line, V, Ks, Even).M;
    // (a stream whose lines another touches in the same iterations adds none)
    ex Own = 1 - covered(Ps, S, I, Line, Ks);
    Each.push_back((L + otherLines(P, L, C, Line, V, Ks)) * (WriteBacks && S[I].Store ? 2 : 1) *
                   Own);
    if (C) {
      Touched D = streamLines(P, P.Loop.size(), nullptr, Line, V, Ks);
      if (Obj)
        D = Touched{objectLines(P.Stride[0] * P.Trip[0], objectTrips(P, P.Trip.size()),
                                1 + P.Offsets.size(), nullptr, Line)};
      Distinct += (D.M + otherLines(P, D.M, nullptr, Line, V, Ks)) * Own;
      Fits *= setsFit(D, *C);
    }
  }
  // Streams of one array count the lines they share again (a vector loop
  // and its remainder; LU's submatrices, summed per iteration): the
  // footprint bounds the distinct lines; a triangular nest's is tested
  // without the sets test.
  if (C && Footprint && (!is_a<numeric>(*Footprint) ||
                         ex_to<numeric>(*Footprint).is_positive())) {
    Distinct = min(Distinct, *Footprint / numeric(Line));
    if (!Ks.empty())
      Fits = 1;
  }
  // Warm caches: a nest whose distinct lines fit brings nothing in again.
  // One whose lines do not fit still keeps the streams that every
  // iteration of its outermost loop touches again (stride 0 there) when
  // that iteration fits: they are the most recently used when the nest
  // ends (matmul i-j-k, n = 210, 1.06 MB into 512 KiB: B, 353 kB, stays,
  // the rows of A and C come in again; cachegrind 1.10e4 lines, before
  // 1.69e4, now 1.11e4).
  if (C) {
    ex Warm = cmp_le(numeric(Line) * Distinct, numeric(C->Size)) * Fits;
    for (size_t I = 0; I < Ps.size(); ++I) {
      const Stream &P = Ps[I];
      ex Kept = Warm;
      if (indexedObject(S[I])) // (kept if the whole object fits)
        Kept = Warm + (1 - Warm) * cmp_le(P.Stride[0] * P.Trip[0], numeric(C->Size));
      else if (P.Stride.back().is_zero() && P.Loop.size() > 1 && Ks.empty())
        Kept = Warm + (1 - Warm) * cmp_le(V.at(P.Loop.back()), numeric(C->Size));
      Each[I] *= 1 - Kept;
    }
  }
  return Each;
}

ex linesInto(const std::vector<MemStream> &S, const CacheGeometry *C, bool WriteBacks,
             const ex *Footprint) {
  ex Total = 0;
  for (const ex &E : linesIntoEach(S, C, WriteBacks, Footprint))
    Total += E;
  return Total;
}

ex MemoryModel::lineTime(const std::vector<MemStream> &S, const ex &V, const ex &F) const {
  // The last cache level is left to the measured curve (below).
  size_t K = Caches.size() > 1 ? Caches.size() - 1 : 1;
  std::vector<ex> Lines;
  // Lines charged: brought in, or 3/4 of those moved (in + written back)
  // if more.
  for (size_t I = 0; I < K; ++I)
    Lines.push_back(max(linesInto(S, &Caches[I], false, &F),
                        numeric(3, 4) * linesInto(S, &Caches[I], /*WriteBacks=*/true, &F)));
  ex L1 = numeric(Caches.front().Line);
  ex T = max(0, V - L1 * linesInto(S, &Caches.front(), false, &F)) /
         numeric(SourceBandwidth.front());
  for (size_t I = 0; I + 1 < K; ++I)
    T += numeric(Caches[I].Line) * max(0, Lines[I] - Lines[I + 1]) /
         numeric(SourceBandwidth[I + 1]);
  ex Line = numeric(Caches[K - 1].Line);
  if (!stridedCurve())
    return T + time(Line * Lines.back(), F);
  // Lines from beyond cache K-1: page-strided streams' at the strided walk's
  // rate, the others' at the triad's (each part: in, or 3/4 of moved).
  std::vector<ex> In = linesIntoEach(S, &Caches[K - 1], false, &F),
                  Moved = linesIntoEach(S, &Caches[K - 1], /*WriteBacks=*/true, &F);
  ex SeqIn = 0, SeqMoved = 0, StrIn = 0, StrMoved = 0;
  for (size_t I = 0; I < S.size(); ++I) {
    ex P = pageStrided(S[I]);
    StrIn += P * In[I];
    StrMoved += P * Moved[I];
    SeqIn += (1 - P) * In[I];
    SeqMoved += (1 - P) * Moved[I];
  }
  return T + time(Line * max(SeqIn, numeric(3, 4) * SeqMoved), F) +
         stridedTime(Line * max(StrIn, numeric(3, 4) * StrMoved), F);
}

} // namespace segtime
