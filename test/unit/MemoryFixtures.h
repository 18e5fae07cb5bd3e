//===- MemoryFixtures.h - Memory streams for the memory-term tests --------===//
#ifndef SEGTIME_TEST_MEMORYFIXTURES_H
#define SEGTIME_TEST_MEMORYFIXTURES_H

#include "predictor/Expr.h"
#include "predictor/MemoryModel.h"

#include <string>
#include <utility>
#include <vector>

namespace segtime::test {

/// A stream of 8-byte loads (stores, with Store) of base B; Loops innermost
/// first as {stride, trip}, loop ids l0, l1, ...
inline MemStream stream(const std::string &B,
                        std::vector<std::pair<std::string, std::string>> Loops,
                        std::vector<std::string> Offsets = {}, bool Store = false) {
  MemStream S;
  S.Base = B;
  (Store ? S.Store : S.Load) = true;
  S.Size = 8;
  S.Offsets = std::move(Offsets);
  for (size_t I = 0; I < Loops.size(); ++I)
    S.Loops.push_back({"l" + std::to_string(I), Loops[I].first, Loops[I].second});
  return S;
}

/// The lines of streams S into cache C (linesInto), evaluated.
inline double lines(const std::vector<MemStream> &S, const CacheGeometry *C) {
  return evaluate(linesInto(S, C), {});
}

} // namespace segtime::test

#endif
