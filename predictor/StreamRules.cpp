//===- StreamRules.cpp - Line-model rules for particular streams ----------===//
///
/// \file
/// Re-rolled lanes of a vectorised column walk and randomly indexed objects
/// for the layer conditions of the ICC memory term (StreamRules.h).
///
//===----------------------------------------------------------------------===//
#include "predictor/StreamRules.h"

#include "predictor/Expr.h"

using namespace GiNaC;

namespace segtime {

void reroll(ex &Stride, ex &Trip, std::vector<ex> &Offsets, double Line) {
  if (Offsets.empty() || Stride.is_zero())
    return;
  long U = static_cast<long>(Offsets.size()) + 1;
  ex Step = Stride / numeric(U);
  if (is_a<numeric>(Step) && ex_to<numeric>(Step) < numeric(Line))
    return;
  std::vector<bool> Seen(U, false);
  for (const ex &O : Offsets) {
    ex R = normal(O / Step);
    if (!is_a<numeric>(R) || !ex_to<numeric>(R).is_pos_integer())
      return;
    long Rw = ex_to<numeric>(R).to_long();
    if (Rw >= U || Seen[Rw])
      return;
    Seen[Rw] = true;
  }
  Stride = Step;
  Trip = Trip * numeric(U);
  Offsets.clear();
}

bool indexedObject(const MemStream &S) {
  static const std::string Suffix = ".object";
  const std::string &L = S.Loops.front().Loop;
  return L.size() > Suffix.size() &&
         L.compare(L.size() - Suffix.size(), Suffix.size(), Suffix) == 0;
}

ex objectLines(const ex &X, const std::vector<ex> &Trips, size_t Refs, const CacheGeometry *C,
               double Line) {
  ex XL = X / numeric(Line), A = numeric(static_cast<long>(Refs));
  for (size_t J = 1; J < Trips.size(); ++J)
    A *= Trips[J];
  ex First = min(A, XL);
  if (!C || Trips.size() < 2)
    return First;
  ex Miss = max(0, 1 - numeric(C->Size) / max(X, numeric(C->Size)));
  return First + max(0, A - XL) * Miss;
}

ex lruFit(const ex &V, const ex &S, const CacheGeometry &C, const ex &Even) {
  ex Step = cmp_le(V, numeric(C.Size));
  if (!S.is_zero() || C.Ways < 2 || Even.is_zero())
    return Step;
  ex Lines = V / numeric(C.Line), Held = numeric(C.sets() * C.Ways);
  ex Miss = min(1, max(0, Lines - Held) * numeric(C.Ways + 1) / max(Lines, Held));
  return Even * (1 - Miss) + (1 - Even) * Step;
}

} // namespace segtime
