//===- CallGraph.h - Functions to characterise, their recursion -*- C++ -*-===//
///
/// \file
/// The functions of a translation unit the plugin characterises (with a
/// body, outside system headers) and the strongly connected components of
/// their call graph: a call that closes a cycle is not characterised (an
/// Unknown node, "recursive call"), since a SEG has no recursion.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PLUGIN_CALLGRAPH_H
#define SEGTIME_PLUGIN_CALLGRAPH_H

#include "core/Seg.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace segtime {

/// The function definitions of a translation unit outside system headers
/// (not templates), in source order.
class FunctionCollector : public clang::RecursiveASTVisitor<FunctionCollector> {
public:
  explicit FunctionCollector(clang::SourceManager &SM) : SM(SM) {}
  std::vector<const clang::FunctionDecl *> Functions;
  bool VisitFunctionDecl(clang::FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody() && !FD->isDependentContext() &&
        !SM.isInSystemHeader(FD->getLocation()))
      Functions.push_back(FD);
    return true;
  }

private:
  clang::SourceManager &SM;
};

/// The strongly connected components of the call graph of the functions
/// to characterise, from their ASTs: an edge for every direct call to a
/// function with a body (outside sizeof and lambda bodies), the Call nodes
/// of their SEGs and those in code the SEG leaves Unknown. Component number
/// by source name (functions with the same name share one).
class CallGraph : public clang::RecursiveASTVisitor<CallGraph> {
public:
  explicit CallGraph(const std::vector<const clang::FunctionDecl *> &Functions);
  /// Whether a call from Caller to Callee closes a cycle (Callee reaches
  /// Caller, or is Caller).
  bool recursive(const std::string &Caller, const std::string &Callee) const {
    auto A = Component.find(Caller), B = Component.find(Callee);
    return Caller == Callee ||
           (A != Component.end() && B != Component.end() && A->second == B->second);
  }

  bool VisitCallExpr(clang::CallExpr *C) {
    if (const clang::FunctionDecl *Callee = C->getDirectCallee())
      if (const clang::FunctionDecl *Def = Callee->getDefinition(); Def && Def->hasBody())
        Out->insert(Def->getNameAsString());
    return true;
  }
  bool TraverseUnaryExprOrTypeTraitExpr(clang::UnaryExprOrTypeTraitExpr *) { return true; }
  bool shouldVisitLambdaBody() const { return false; }

private:
  /// Tarjan's algorithm from Name.
  void connect(const std::string &Name);

  std::set<std::string> *Out = nullptr;
  std::map<std::string, std::set<std::string>> Calls;
  std::map<std::string, size_t> Index, Low, Component;
  std::vector<std::string> Stack;
  std::set<std::string> OnStack;
};

/// Turns F's calls that close a cycle of the call graph G into Unknown
/// nodes; adds {function, node id} of each to Found.
void markRecursion(FunctionSeg &F, const CallGraph &G,
                   std::vector<std::pair<std::string, std::string>> &Found);

} // namespace segtime

#endif
