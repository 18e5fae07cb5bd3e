//===- ExprModule.cpp - The expression algebra as a module of its own -----===//
///
/// \file
/// segtime-expr.so's one exported function (predictor/ExprModule.h): the
/// table of predictor/ExprText.h's functions, for the clang plugin.
///
//===----------------------------------------------------------------------===//
#include "predictor/ExprModule.h"
#include "predictor/ExprText.h"

extern "C" __attribute__((visibility("default"))) const segtime::ExprModuleApi *
segtimeExprModule() {
  static const segtime::ExprModuleApi Api{segtime::ExprModuleVersion, segtime::simplifyExprText,
                                          segtime::sameValue, segtime::valueRatio};
  return &Api;
}
