//===- ExprDetail.h - Helpers shared by the Expr*.cpp files -----*- C++ -*-===//
///
/// \file
/// Internal to predictor/Expr*.cpp: the test for a real GiNaC number, its
/// double value, and the evaluation of seg_sum (ExprSum.cpp), which Expr.cpp
/// registers with the other functions of predictor/Expr.h (one translation
/// unit registers them all, in a fixed order: GiNaC numbers functions by
/// registration).
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PREDICTOR_EXPRDETAIL_H
#define SEGTIME_PREDICTOR_EXPRDETAIL_H

#include <ginac/ginac.h>

namespace segtime {
namespace expr_detail {

/// Is E a real number?
inline bool isNum(const GiNaC::ex &E) {
  return GiNaC::is_a<GiNaC::numeric>(E) && GiNaC::ex_to<GiNaC::numeric>(E).is_real();
}
/// E (a number) as a double.
inline double dbl(const GiNaC::ex &E) { return GiNaC::ex_to<GiNaC::numeric>(E).to_double(); }

/// seg_sum(Body, K, Lo, Hi)'s evaluation: the closed form (Faulhaber) when
/// Body is a polynomial in K, the numeric sum once the bounds and every
/// other symbol are numbers (at most 5e6 terms), else held.
GiNaC::ex segSumEval(const GiNaC::ex &Body, const GiNaC::ex &K, const GiNaC::ex &Lo,
                     const GiNaC::ex &Hi);

} // namespace expr_detail

/// The function name of kept call E (seg_call, keptCall): for printing.
const std::string &keptName(const GiNaC::ex &E);

} // namespace segtime

#endif
