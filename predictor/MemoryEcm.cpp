//===- MemoryEcm.cpp - The ECM composition of the ICC memory term --------===//
///
/// \file
/// MemoryModel's Execution-Cache-Memory part (docs/models.md "ECM"): which
/// transfers overlap with core execution on this machine, the load/store
/// ports, the per-level transfer terms of a loop nest and their composition.
///
//===----------------------------------------------------------------------===//
#include "predictor/MemoryModel.h"
#include "predictor/MemoryModelBisect.h"

#include "predictor/Overlap.h"
#include "predictor/StreamRules.h"
#include "predictor/Expr.h"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <cmath>

using namespace GiNaC;

namespace segtime {

/// The first level of Steps (by increasing size) that holds F, else the last.
static const MemoryModel::Level &stepOf(const std::vector<MemoryModel::Level> &Steps, double F) {
  for (const MemoryModel::Level &L : Steps)
    if (F <= L.Size)
      return L;
  return Steps.back();
}

const MemoryModel::Level &MemoryModel::levelOf(double F) const { return stepOf(Levels, F); }

std::optional<double> MemoryModel::overlapExponent(double F) const {
  if (Overlap.empty())
    return std::nullopt;
  return stepOf(Overlap, F).Bandwidth;
}

ex MemoryModel::combine(const ex &Core, const ex &Mem, const ex &F) const {
  if (Overlap.empty())
    return max(Core, Mem);
  if (is_a<numeric>(F))
    return overlapTime(Core, Mem, *overlapExponent(ex_to<numeric>(F).to_double()));
  // Step K applies for size_{K-1} < F <= size_K.
  ex T = 0;
  for (size_t K = 0; K < Overlap.size(); ++K) {
    ex In = K + 1 < Overlap.size() ? 1 - cmp_lt(numeric(Overlap[K].Size), F) : ex(1);
    if (K > 0)
      In *= cmp_lt(numeric(Overlap[K - 1].Size), F);
    T += In * overlapTime(Core, Mem, Overlap[K].Bandwidth);
  }
  return T;
}

const MemoryModel::Level *MemoryModel::stridedLevelOf(double F) const {
  const std::vector<Level> *C = stridedCurve();
  return C ? &stepOf(*C, F) : nullptr;
}

/// AMD Zen cores (LLVM's znver1 .. znver5).
static bool isZen(const std::string &Target) { return Target.rfind("znver", 0) == 0; }

bool MemoryModel::transfersOverlap(const std::string &L, std::string *Where) const {
  if (auto It = OverlapFlags.find(L); It != OverlapFlags.end()) {
    if (Where)
      *Where = "machine file memory." + L + ".transfers_overlap";
    return It->second != 0;
  }
  if (Where)
    *Where = isZen(Target) ? "datasheet: AMD Zen overlaps the cache transfers, not memory's "
                             "(Kerncraft Zen machine files; Hofmann et al. 2020)"
                           : "datasheet: Intel-like, no transfer overlaps (Stengel et al. 2015)";
  return isZen(Target) && L != "DRAM";
}

std::pair<double, double> MemoryModel::loadStorePorts() const {
  double Ld = LoadsPerCycle > 0 ? LoadsPerCycle : isZen(Target) ? 3 : 2;
  double St = StoresPerCycle > 0 ? StoresPerCycle : isZen(Target) ? 2 : 1;
  return {Ld, St};
}

std::vector<EcmTerm> MemoryModel::ecmTerms(const std::vector<MemStream> &S, const ex &V,
                                           const ex &F, const ex &NOL) const {
  if (Caches.size() < 2)
    throw std::logic_error("ecmTerms needs the geometry of L1 and L2");
  if (!Latency.empty() && std::any_of(S.begin(), S.end(), bisection)) {
    std::vector<EcmTerm> T = ecmTerms(withoutBisections(S), V, F, NOL);
    ex Lines = 0;
    for (const MemStream &M : S)
      if (bisection(M))
        Lines += bisectionLines(M, &Caches[0]);
    T.push_back({"T_chain", "latency", bisectionChainTime(S, Caches, Latency), Lines, false, true});
    return T;
  }
  double Line = Caches.front().Line;
  ex L = numeric(Line);
  auto Into = [&](size_t I) {
    return max(linesInto(S, &Caches[I], false, &F),
               numeric(3, 4) * linesInto(S, &Caches[I], /*WriteBacks=*/true, &F));
  };
  std::vector<EcmTerm> T;
  // Inverse bandwidth of the last level whose transfers serialise.
  ex Prev = 0;
  auto Cost = [&](bool Overlaps, const ex &InvB) -> ex {
    return Overlaps ? InvB : max(0, InvB - Prev);
  };
  bool O1 = transfersOverlap("L1"), O2 = transfersOverlap("L2"), O3 = transfersOverlap("L3"),
       OM = transfersOverlap("DRAM");
  T.push_back({"T_nOL", "L1", NOL, 0, O1});
  if (!O1)
    Prev = numeric(1 / SourceBandwidth[0]);
  ex In1 = Into(0);
  ex InvB2 = numeric(1 / SourceBandwidth[1]);
  ex T12 = L * In1 * Cost(O2, InvB2);
  if (hasWalkCurves()) {
    // Lines into L1 of a strided store stream (walkClasses) that L2 holds
    // (its lines into L1 less its lines into L2) cost the measured store
    // walk's rate at a footprint within L2 (the walk's rate includes the
    // line's read for ownership and write-back); the other streams' lines
    // max(In, 3/4 Moved) the L2 bandwidth.
    std::vector<ex> In1Each, Moved1Each, In2Each;
    ex F2 = min(F, numeric(Caches[1].Size)), SeqIn = 0, SeqMoved = 0, WalkT = 0;
    bool Any = false;
    for (size_t I = 0; I < S.size(); ++I) {
      std::vector<WalkClass> Cls = walkClasses(S[I]);
      if (Cls.empty())
        continue;
      if (!Any) {
        In1Each = linesIntoEach(S, &Caches[0], false, &F);
        Moved1Each = linesIntoEach(S, &Caches[0], /*WriteBacks=*/true, &F);
        In2Each = linesIntoEach(S, &Caches[1], false, &F);
        Any = true;
      }
      ex Walked = 0;
      for (const WalkClass &C : Cls) {
        Walked += C.In;
        WalkT += C.In * max(0, In1Each[I] - In2Each[I]) * Cost(O2, walkTime(*C.Curve, 1, F2));
      }
      SeqIn -= Walked * In1Each[I];
      SeqMoved -= Walked * Moved1Each[I];
    }
    if (Any) {
      for (size_t I = 0; I < S.size(); ++I) {
        SeqIn += In1Each[I];
        SeqMoved += Moved1Each[I];
      }
      T12 = L * (max(SeqIn, numeric(3, 4) * SeqMoved) * Cost(O2, InvB2) + WalkT);
    }
  }
  T.push_back({"T_L1L2", "L2", T12, In1, O2});
  if (!O2)
    Prev = InvB2;
  // Lines into L2, from L3 or memory: page-strided streams' at the strided
  // walk's rate at F; the others' compulsory ones at the curve at F, their
  // re-fetched ones at the curve at their reuse working set W.
  ex In2 = Into(1);
  ex Str = 0;
  if (stridedCurve()) {
    std::vector<ex> In = linesIntoEach(S, &Caches[1], false, &F),
                    Moved = linesIntoEach(S, &Caches[1], /*WriteBacks=*/true, &F);
    ex StrIn = 0, StrMoved = 0;
    for (size_t I = 0; I < S.size(); ++I) {
      ex P = pageStrided(S[I]);
      StrIn += P * In[I];
      StrMoved += P * Moved[I];
    }
    Str = max(StrIn, numeric(3, 4) * StrMoved);
  }
  ex Seq = max(0, In2 - Str);
  ex Distinct = linesInto(S, nullptr);
  if (!is_a<numeric>(F) || ex_to<numeric>(F).to_double() > 0)
    Distinct = min(Distinct, F / L);
  ex Comp = min(Seq, Distinct), Refetch = Seq - Comp;
  ex W = reuseWorkingSet(S, Caches[1].Size, Line, F);
  // (the L3 size the memory term uses: the measured effective one when the
  // machine file has it, sizeNote says which)
  double S3 = sizeOf("L3");
  ex InL3W = S3 > 0 ? cmp_le(W, numeric(S3)) : ex(0);
  ex InL3F = S3 > 0 ? cmp_le(F, numeric(S3)) : ex(0);
  ex InvW = time(1, W), InvF = time(1, F), InvS = stridedTime(1, F);
  T.push_back({"T_L2L3", "L3",
               L * (InL3W * Refetch * Cost(O3, InvW) + InL3F * Comp * Cost(O3, InvF) +
                    InL3F * Str * Cost(O3, InvS)),
               InL3W * Refetch + InL3F * (Comp + Str), O3});
  T.push_back({"T_L3Mem", "memory",
               L * ((1 - InL3W) * Refetch * Cost(OM, InvW) + (1 - InL3F) * Comp * Cost(OM, InvF) +
                    (1 - InL3F) * Str * Cost(OM, InvS)),
               (1 - InL3W) * Refetch + (1 - InL3F) * (Comp + Str), OM});
  return T;
}

ex MemoryModel::ecmData(const std::vector<EcmTerm> &Terms) {
  return ecmCombine(0, Terms);
}

/// The time of the Chain terms of Terms (s).
static ex chainTime(const std::vector<EcmTerm> &Terms) {
  ex C = 0;
  for (const EcmTerm &E : Terms)
    if (E.Chain)
      C += E.Time;
  return C;
}

ex MemoryModel::ecmTime(const ex &Core, const std::vector<EcmTerm> &Terms, const ex &F) const {
  ex Chain = chainTime(Terms);
  return combine(Core, ecmData(Terms) - Chain, F) + Chain;
}

ex MemoryModel::ecmCombine(const ex &Core, const std::vector<EcmTerm> &Terms) {
  ex T = Core, Serial = 0;
  for (const EcmTerm &E : Terms)
    if (E.Chain)
      continue;
    else if (E.Overlaps)
      T = max(T, E.Time);
    else
      Serial += E.Time;
  return max(T, Serial) + chainTime(Terms);
}

/// |stride| (B) of M's innermost loop that moves it; 0 if none does.
static ex movingStride(const MemStream &M) {
  for (const MemStream::Step &St : M.Loops) {
    ex S = parseExpr(St.Stride);
    if (S.is_zero())
      continue;
    if (is_a<numeric>(S))
      S = abs(ex_to<numeric>(S));
    return S;
  }
  return 0;
}

std::string stridedWalkName(int RowBytes, WalkKind Kind) {
  const char *K = Kind == WalkKind::Load    ? "strided"
                  : Kind == WalkKind::Store ? "strided_store"
                                            : "strided_rmw";
  switch (RowBytes) {
  case 1024: return std::string(K) + "_1k";
  case 2048: return std::string(K) + "_2k";
  case 4096: return K;
  default:
    throw std::invalid_argument("strided walk: rows of " + std::to_string(RowBytes) +
                                " B (expected 1024, 2048 or 4096)");
  }
}

ex pageStrided(const MemStream &M) {
  ex S = movingStride(M);
  return S.is_zero() ? ex(0) : ex(cmp_le(numeric(PrefetchPage), S));
}

/// M's offsets (B) as numbers, in their order; nullopt if one is symbolic.
static std::optional<std::vector<double>> numericOffsets(const MemStream &M) {
  std::vector<double> R;
  for (const std::string &O : M.Offsets) {
    ex X = parseExpr(O);
    if (!is_a<numeric>(X))
      return std::nullopt;
    R.push_back(ex_to<numeric>(X).to_double());
  }
  return R;
}

ex walkRowDistance(const MemStream &M, double Line) {
  ex S = movingStride(M);
  if (S.is_zero() || !is_a<numeric>(S) || M.Offsets.empty())
    return S;
  std::optional<std::vector<double>> Offsets = numericOffsets(M);
  if (!Offsets)
    return S;
  std::vector<double> P{0};
  P.insert(P.end(), Offsets->begin(), Offsets->end());
  std::sort(P.begin(), P.end());
  // The first reference of each run of references within a line of it.
  std::vector<double> Runs{P.front()};
  for (double X : P)
    if (X - Runs.back() >= Line)
      Runs.push_back(X);
  double Stride = ex_to<numeric>(S).to_double();
  double D = Stride - (Runs.back() - Runs.front());
  for (size_t K = 1; K < Runs.size(); ++K)
    D = std::min(D, Runs[K] - Runs[K - 1]);
  return D == std::floor(D) ? ex(numeric(static_cast<long>(D))) : ex(numeric(D));
}

std::vector<MemoryModel::WalkClass> MemoryModel::walkClasses(const MemStream &M) const {
  std::vector<WalkClass> R;
  ex S = movingStride(M);
  if (S.is_zero() || !M.Store || !hasWalkCurves() || Ranks >= 2)
    return R;
  // An unrolled run is no walk: its references of one iteration (offsets
  // from the first, plus a reference's size) cover the stride to within a
  // line (s293's 40 vector stores of 32 B per 1280 B iteration).
  if (is_a<numeric>(S)) {
    std::optional<std::vector<double>> Offsets = numericOffsets(M);
    if (!Offsets)
      return R;
    double Span = M.Size;
    for (double X : *Offsets)
      Span = std::max(Span, std::abs(X) + M.Size);
    if (Span + 64 > ex_to<numeric>(S).to_double())
      return R;
  }
  // The walk's rows are its row distance apart (an unrolled column walk's
  // stride spans several rows).
  ex D = walkRowDistance(M, Caches.empty() ? 64 : Caches.front().Line);
  // A stream that only stores: from a 1 KiB row distance on. One that loads
  // and stores: where that distance is a multiple of 1 KiB, so that its
  // next load is 4 KiB-aliased with one of its stores still in the store
  // buffer and waits for it (Intel Optimization Reference Manual, "4K
  // aliasing"; AMD Software Optimization Guide for Family 19h,
  // "Store-to-load forwarding": address bits 11:0 are compared first).
  if (M.Load && !(is_a<numeric>(D) && ex_to<numeric>(D).is_integer() &&
                  mod(ex_to<numeric>(D), numeric(1024)).is_zero()))
    return R;
  // Its lines cost the read-modify-write walk when it loads them too and
  // the file has that walk (docs/models.md "Strided store walks").
  WalkKind Kind = M.Load && hasRmwWalkCurves() ? WalkKind::LoadStore : WalkKind::Store;
  const int Rows[] = {1024, 2048, 4096};
  for (int K = 0; K < 3; ++K) {
    ex In = cmp_le(numeric(Rows[K]), D);
    if (K + 1 < 3)
      In *= cmp_lt(D, numeric(Rows[K + 1]));
    if (In.is_zero())
      continue;
    std::string Name = stridedWalkName(Rows[K], Kind);
    R.push_back({In, &Walks.at(Name), Name});
  }
  return R;
}

double MemoryModel::sizeOf(const std::string &L) const {
  auto It = Used.find(L);
  return It == Used.end() ? 0 : It->second;
}

double MemoryModel::reportedSize(const std::string &L) const {
  if (auto It = Reported.find(L); It != Reported.end())
    return It->second;
  for (const CacheGeometry &C : Caches)
    if (C.Name == L)
      return C.Size;
  return 0;
}

} // namespace segtime
