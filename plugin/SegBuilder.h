//===- SegBuilder.h - Clang AST -> SEG with HLLC and POC RUVs ----*- C++ -*-===//
///
/// \file
/// Builds the software execution graph of one function from its Clang AST
/// (design.md §3, Warwick-94 §2 Fig. 4) and counts, per node, the HLLC
/// constructs (Warwick-94 §4.2.2) and the POC flop (Warwick-94 Table 1).
/// Counting rules are in docs/vocabulary.md; the builder never changes the AST.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PLUGIN_SEGBUILDER_H
#define SEGTIME_PLUGIN_SEGBUILDER_H

#include "core/Seg.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <functional>

namespace segtime {

/// A problem the builder reports as a compiler warning (design: nothing is
/// silently dropped).
struct BuilderWarning {
  clang::SourceLocation Loc;
  std::string Message;
  std::string Function; ///< where it was found
  std::string External; ///< non-empty: name of an external callee (grouped per function)
};

/// Builds the SEG of FD (which must have a body).
FunctionSeg buildFunctionSeg(clang::ASTContext &Ctx, const clang::FunctionDecl *FD,
                             std::vector<BuilderWarning> &Warnings);

} // namespace segtime

#endif
