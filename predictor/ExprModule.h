//===- ExprModule.h - The expression algebra as a module of its own -*- C++ -*-===//
///
/// \file
/// The functions of predictor/ExprText.h that the clang plugin uses, built
/// into a module of their own, segtime-expr.so (GiNaC and CLN linked), which
/// the plugin loads the first time it simplifies or compares an expression
/// (plugin/ExprLoader.cpp). Loading the plugin into every compile then costs
/// no relocation of GiNaC and CLN and none of their static initialisers: a
/// compile that needs no expression algebra never loads them, and one that
/// does loads them with their own symbols looked up first (RTLD_DEEPBIND),
/// not after the whole of clang, libclang-cpp and libLLVM (callgrind: 9.6 M
/// instructions of plugin overhead on a one-function file, 7.9 M of them in
/// dlopen; libginac alone 7.5 M, 4.2 M with RTLD_DEEPBIND).
///
/// The module exports one C function, segtimeExprModule(), returning a table
/// of the functions; Version must match (plugin and module come from one
/// build and are installed side by side).
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PREDICTOR_EXPRMODULE_H
#define SEGTIME_PREDICTOR_EXPRMODULE_H

#include <map>
#include <string>

namespace segtime {

/// The file name of the module, next to the plugin (build/lib, or
/// PREFIX/lib/segtime when installed).
inline constexpr const char *ExprModuleFile = "segtime-expr.so";
/// The name of the function the module exports.
inline constexpr const char *ExprModuleEntry = "segtimeExprModule";
/// Bumped whenever ExprModuleApi changes.
inline constexpr unsigned ExprModuleVersion = 1;

/// The functions of predictor/ExprText.h the plugin needs.
struct ExprModuleApi {
  unsigned Version;
  std::string (*SimplifyExprText)(const std::string &S);
  int (*SameValue)(const std::string &A, const std::string &B,
                   const std::map<std::string, std::string> &Subst);
  double (*ValueRatio)(const std::string &A, const std::string &B,
                       const std::map<std::string, std::string> &Subst);
};

} // namespace segtime

extern "C" {
/// The module's table (never null).
const segtime::ExprModuleApi *segtimeExprModule();
}

#endif
