//===- IRMemBisect.cpp - The stream of a bisection's table ----------------===//
///
/// \file
/// bisectionStream and its merging rule (IRMemBisect.h).
///
//===----------------------------------------------------------------------===//
#include "passes/IRMemBisect.h"

#include "passes/IRDataCompare.h"

using namespace llvm;

namespace segtime {
namespace irseg {

std::optional<MemStream>
bisectionStream(const LoadInst &Ld, Loop *Top, unsigned Size, const std::string &Name,
                const LoopInfo &LI, ScalarEvolution &SE,
                function_ref<std::optional<std::string>(const SCEV *)> TextOf,
                function_ref<std::optional<std::string>(Loop *)> TripOf,
                function_ref<std::string(Loop *)> IdOf) {
  auto B = bisectionOf(Ld, LI);
  if (!B || B->Lo->getType() != B->Hi->getType())
    return std::nullopt;
  auto T = TextOf(SE.getMinusSCEV(SE.getSCEV(B->Hi), SE.getSCEV(B->Lo)));
  if (!T)
    return std::nullopt;
  MemStream M;
  M.Base = Name;
  M.Load = true;
  M.Size = Size;
  M.Loops.push_back({IdOf(Top) + ".bisect", std::to_string(Size), "(" + *T + ")", ""});
  for (Loop *L = LI.getLoopFor(Ld.getParent()); L && Top->contains(L);
       L = L->getParentLoop()) {
    auto Trip = TripOf(L);
    if (!Trip)
      return std::nullopt;
    M.Loops.push_back({IdOf(L), "0", "(" + *Trip + ") + 1", ""});
  }
  return M;
}

std::string bisectionBytes(const MemStream &M) {
  std::string Accesses = std::to_string(M.Offsets.size() + 1);
  for (size_t J = 1; J < M.Loops.size(); ++J)
    Accesses += "*(" + M.Loops[J].Trip + ")";
  return std::to_string(M.Size) + "*min(" + M.Loops[0].Trip + ", " + Accesses + ")";
}

bool isBisection(const MemStream &M) {
  static const std::string Suffix = ".bisect";
  if (M.Loops.empty())
    return false;
  const std::string &L = M.Loops[0].Loop;
  return L.size() > Suffix.size() &&
         L.compare(L.size() - Suffix.size(), Suffix.size(), Suffix) == 0;
}

bool sameBisection(const MemStream &X, const MemStream &M) {
  if (!isBisection(X) || !isBisection(M) || X.Base != M.Base || X.Loops.size() != M.Loops.size())
    return false;
  for (size_t J = 0; J < X.Loops.size(); ++J) // (J = 1: each copy's own search loop)
    if ((J != 1 && X.Loops[J].Loop != M.Loops[J].Loop) || X.Loops[J].Trip != M.Loops[J].Trip)
      return false;
  return true;
}

} // namespace irseg
} // namespace segtime
