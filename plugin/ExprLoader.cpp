//===- ExprLoader.cpp - The plugin's expression algebra, loaded on first use -===//
///
/// \file
/// The plugin's definitions of simplifyExprText, sameValue and valueRatio
/// (predictor/ExprText.h): they call the same functions in segtime-expr.so
/// (predictor/ExprModule.h), which is loaded from the plugin's own directory
/// the first time one of them is called. Texts that fold to an integer or
/// a name (core/LinearText.h: most trip counts and call arguments) are
/// answered without it, the same answers, so that most compiles never load
/// it. A missing or foreign module is a
/// warning that names the file, once, and the compile goes on without the
/// algebra: expressions are written as built (unsimplified), and the
/// comparisons answer "cannot be evaluated" (-1 for sameValue, 0 for
/// valueRatio, as ExprText.h defines them).
///
//===----------------------------------------------------------------------===//
#include "core/LinearText.h"
#include "predictor/ExprModule.h"
#include "predictor/ExprText.h"
#include "predictor/Install.h"

#include "llvm/Support/raw_ostream.h"

#include <dlfcn.h>
#include <optional>
#include <string>

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

/// Prints why the module cannot be used, once; returns null.
const ExprModuleApi *moduleMissing(const std::string &Why) {
  llvm::errs() << "segtime: warning: " << Why
               << "; expressions are written unsimplified and value checks are skipped\n";
  return nullptr;
}

/// The loaded module, or null (with one warning) if it cannot be used.
const ExprModuleApi *exprModule() {
  static const ExprModuleApi *Api = []() -> const ExprModuleApi * {
    std::string Path = (moduleDirectory() / ExprModuleFile).string();
    void *Handle = ::dlopen(Path.c_str(), RTLD_LAZY | RTLD_LOCAL | DeepBind);
    if (!Handle)
      return moduleMissing("cannot load the expression algebra " + Path + ": " + ::dlerror());
    using Entry = const ExprModuleApi *();
    auto *Get = reinterpret_cast<Entry *>(::dlsym(Handle, ExprModuleEntry));
    const ExprModuleApi *A = Get ? Get() : nullptr;
    if (!A || A->Version != ExprModuleVersion)
      return moduleMissing(Path + " is not the expression algebra of this plugin (no " +
                           ExprModuleEntry + " of version " +
                           std::to_string(ExprModuleVersion) + ")");
    return A;
  }();
  return Api;
}

} // namespace

std::string simplifyExprText(const std::string &S) {
  if (S.empty()) // as ExprText.cpp: nothing to load the module for
    return S;
  // Most texts fold to an integer or a name: the same answer without the
  // module, which is then not loaded at all in most compiles.
  if (std::optional<std::string> Folded = foldLinearText(S))
    return *Folded;
  const ExprModuleApi *M = exprModule();
  return M ? M->SimplifyExprText(S) : S;
}

int sameValue(const std::string &A, const std::string &B,
              const std::map<std::string, std::string> &Subst) {
  std::optional<int64_t> VA = foldIntegerText(A), VB = foldIntegerText(B);
  if (VA && VB) // (numbers only: Subst changes nothing)
    return *VA == *VB;
  const ExprModuleApi *M = exprModule();
  return M ? M->SameValue(A, B, Subst) : -1;
}

double valueRatio(const std::string &A, const std::string &B,
                  const std::map<std::string, std::string> &Subst) {
  std::optional<int64_t> VA = foldIntegerText(A), VB = foldIntegerText(B);
  if (VA && VB)
    return *VB == 0 ? 0 : double(*VA) / double(*VB);
  const ExprModuleApi *M = exprModule();
  return M ? M->ValueRatio(A, B, Subst) : 0;
}

} // namespace segtime
