//===- Plugin.h - The plugin's AST consumer ---------------------*- C++ -*-===//
///
/// \file
/// The AST consumer of one compile with the plugin (plugin/Plugin.cpp),
/// made by the plugin's action (plugin/PluginAction.cpp).
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PLUGIN_PLUGIN_H
#define SEGTIME_PLUGIN_PLUGIN_H

#include "plugin/PluginOptions.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"

#include <memory>
#include <string>

namespace segtime {

/// The consumer that builds, merges and writes the SEGs of main file InFile
/// compiled by CI with options Opts. ReleaseAst: the AST may be released
/// when the back end starts (no other plugin needs it afterwards).
std::unique_ptr<clang::ASTConsumer> makeSegConsumer(clang::CompilerInstance &CI, PluginOptions Opts,
                                                    std::string InFile, bool ReleaseAst);

} // namespace segtime

#endif
