//===- ExprLoader.cpp - The plugin's expression algebra, loaded on first use -===//
///
/// \file
/// The plugin's definitions of simplifyExprText, sameValue and valueRatio
/// (predictor/ExprText.h): they call the same functions in segtime-expr.so
/// (predictor/ExprModule.h), which is loaded from the plugin's own directory
/// the first time one of them is called. A missing or foreign module is a
/// fatal error that names the file: the plugin's output is never made
/// without the algebra.
///
//===----------------------------------------------------------------------===//
#include "predictor/ExprModule.h"
#include "predictor/ExprText.h"
#include "predictor/Install.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"

#include <dlfcn.h>

#ifndef __has_feature
#define __has_feature(X) 0
#endif

namespace segtime {
namespace {

/// RTLD_DEEPBIND: the module, GiNaC and CLN bind their own symbols first
/// (clang exports none of them, and has no copy relocations that a deep
/// binding would bypass). The sanitizer runtimes refuse it (their
/// interposed malloc would be bypassed).
#if defined(__SANITIZE_ADDRESS__) || __has_feature(address_sanitizer)
constexpr int DeepBind = 0;
#else
constexpr int DeepBind = RTLD_DEEPBIND;
#endif

const ExprModuleApi &exprModule() {
  static const ExprModuleApi *Api = [] {
    std::string Path = (moduleDirectory() / ExprModuleFile).string();
    void *Handle = ::dlopen(Path.c_str(), RTLD_LAZY | RTLD_LOCAL | DeepBind);
    if (!Handle)
      llvm::report_fatal_error(llvm::Twine("segtime: cannot load the expression algebra ") + Path +
                               ": " + ::dlerror(),
                               /*GenCrashDiag=*/false);
    using Entry = const ExprModuleApi *();
    auto *Get = reinterpret_cast<Entry *>(::dlsym(Handle, ExprModuleEntry));
    const ExprModuleApi *A = Get ? Get() : nullptr;
    if (!A || A->Version != ExprModuleVersion)
      llvm::report_fatal_error(llvm::Twine("segtime: ") + Path +
                               " is not the expression algebra of this plugin (no " +
                               ExprModuleEntry + " of version " + llvm::Twine(ExprModuleVersion) +
                               ")",
                               /*GenCrashDiag=*/false);
    return A;
  }();
  return *Api;
}

} // namespace

std::string simplifyExprText(const std::string &S) {
  if (S.empty()) // as ExprText.cpp: nothing to load the module for
    return S;
  return exprModule().SimplifyExprText(S);
}

int sameValue(const std::string &A, const std::string &B,
              const std::map<std::string, std::string> &Subst) {
  return exprModule().SameValue(A, B, Subst);
}

double valueRatio(const std::string &A, const std::string &B,
                  const std::map<std::string, std::string> &Subst) {
  return exprModule().ValueRatio(A, B, Subst);
}

} // namespace segtime
