//===- LowLevelSource.cpp - PARKBENCH-93 low-level benchmark program ------===//
///
/// \file
/// The C program of the low-level calibration parts (see LowLevelSource.h):
/// a fixed part (timers, RINF1 and streaming kernels, the drivers: the files
/// kernels/LowLevelHead.c and LowLevelTail.c, KernelSources.h) and the Horner
/// polynomials of orders polyOrders(), generated here so that each order is
/// its own loop the compiler vectorises.
///
/// USAGE:
///   std::ofstream("park.c") << lowLevelSource();
///
//===----------------------------------------------------------------------===//
#include "tools/calib/LowLevelSource.h"
#include "tools/calib/KernelSources.h"

#include <sstream>

namespace segtime {

const std::vector<RinfKernel> &rinfKernels() {
  // Ids 0..3 in the program's call() switch, same order.
  static const std::vector<RinfKernel> K = {
      {"add", 1, "A(I) = B(I) + C(I)"},
      {"mul", 1, "A(I) = B(I) * C(I)  (PARKBENCH-93 Table C.1)"},
      {"triad", 2, "A(I) = B(I) + S * C(I)"},
      {"dot", 2, "S = S + B(I) * C(I)  (reassociation allowed, as in Fortran)"}};
  return K;
}

const std::vector<int> &polyOrders() {
  // 1..10 as in the paper, then 12..16 so that the out-of-cache curve bends
  // on machines whose f_1/2 there is near 10. Not beyond: at order >= 24 the
  // compiled loop (one vectorised chain of 24+ FMAs per element, no longer
  // interleaved) runs below the arithmetic peak even in L1 (Ice Lake: 54
  // Gflop/s at orders 3-16, 35 at 24, 19 at 64), an in-core limit outside
  // eq. 3.3.
  static const std::vector<int> O = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 16};
  return O;
}

std::string lowLevelSource() {
  std::ostringstream OS;
  OS << kernel::lowLevelHead() << "\n/* POLY1/POLY2 (PARKBENCH-93 §3.2.4): Horner's rule of order k, 2k flop\n"
     << "   and 2 memory references (load x, store y) per element: f = k. */\n";
  const std::vector<int> &Orders = polyOrders();
  for (int K : Orders) {
    OS << "KERNEL p_" << K
       << "(long n, double *restrict y, const double *restrict x) {\n"
       << "  for (long i = 0; i < n; i++) {\n    double v = x[i];\n    y[i] = ";
    // c0 + v * (c1 + v * (... + v * ck)), coefficients in (0.25, 0.9]
    auto Coef = [](int J) { return 0.9 - 0.01 * (J % 64); };
    for (int J = 0; J < K; ++J)
      OS << Coef(J) << " + v * (";
    OS << Coef(K) << std::string(static_cast<size_t>(K), ')') << ";\n  }\n}\n";
  }
  OS << "#define NPOLY " << Orders.size()
     << "\nstatic void (*const Poly[NPOLY])(long, double *restrict, const double *restrict) = {";
  for (size_t I = 0; I < Orders.size(); ++I)
    OS << (I ? ", " : "") << "p_" << Orders[I];
  OS << "};\nstatic const int PolyOrder[NPOLY] = {";
  for (size_t I = 0; I < Orders.size(); ++I)
    OS << (I ? ", " : "") << Orders[I];
  OS << "};\n" << kernel::lowLevelTail();
  return OS.str();
}

} // namespace segtime
