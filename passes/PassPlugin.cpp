//===- PassPlugin.cpp - Entry point of the opt pass plugin ----------------===//
///
/// \file
/// USAGE:
///   opt-19 -load-pass-plugin build/lib/segtime-passes.so \
///          -passes='print<segtime-ir>' -disable-output kernel.ll
///
//===----------------------------------------------------------------------===//
#include "passes/Register.h"

#include "llvm/Passes/PassPlugin.h"

extern "C" LLVM_ATTRIBUTE_WEAK ::llvm::PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "segtime", "0.1", segtime::registerSegtimePasses};
}
