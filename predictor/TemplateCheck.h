//===- TemplateCheck.h - Argument checks of the template models -*- C++ -*-===//
///
/// \file
/// The checks the farm and divide-and-conquer models (Templates.cpp) and the
/// heterogeneous network (Hetero.cpp) make of their inputs: each throws
/// std::invalid_argument "MODEL: MESSAGE". Internal to the predictor.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PREDICTOR_TEMPLATECHECK_H
#define SEGTIME_PREDICTOR_TEMPLATECHECK_H

#include <string>

namespace segtime::templatecheck {

/// V as the stream prints it (6 digits).
std::string num(double V);

/// Throws std::invalid_argument("Model: Msg").
[[noreturn]] void invalid(const std::string &Model, const std::string &Msg);

/// Throws unless V is finite and > 0: "Model: Name must be a finite value > 0 s, got V".
void positive(const std::string &Model, const std::string &Name, double V,
              const std::string &Unit = " s");

/// Throws unless V is finite and >= 0.
void nonNegative(const std::string &Model, const std::string &Name, double V,
                 const std::string &Unit = " s");

} // namespace segtime::templatecheck

#endif
