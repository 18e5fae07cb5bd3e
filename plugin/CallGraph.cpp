//===- CallGraph.cpp - Functions to characterise and their recursion ------===//
///
/// \file
/// Tarjan's strongly connected components over the direct calls between
/// the functions to characterise, and the recursive calls of a SEG marked
/// Unknown (plugin/CallGraph.h).
///
//===----------------------------------------------------------------------===//
#include "plugin/CallGraph.h"

#include <algorithm>
#include <functional>

namespace segtime {

CallGraph::CallGraph(const std::vector<const clang::FunctionDecl *> &Functions) {
  for (const clang::FunctionDecl *FD : Functions) {
    Out = &Calls[FD->getNameAsString()];
    TraverseStmt(FD->getBody());
  }
  for (auto &[Name, Callees] : Calls)
    if (!Index.count(Name))
      connect(Name);
}

void CallGraph::connect(const std::string &Name) {
  size_t Mine = Index.size();
  Index[Name] = Low[Name] = Mine;
  Stack.push_back(Name);
  OnStack.insert(Name);
  for (const std::string &Next : Calls[Name]) {
    if (!Index.count(Next)) {
      connect(Next);
      Low[Name] = std::min(Low[Name], Low[Next]);
    } else if (OnStack.count(Next)) {
      Low[Name] = std::min(Low[Name], Index[Next]);
    }
  }
  if (Low[Name] != Mine)
    return;
  std::string X;
  do {
    X = Stack.back();
    Stack.pop_back();
    OnStack.erase(X);
    Component[X] = Mine;
  } while (X != Name);
}

void markRecursion(FunctionSeg &F, const CallGraph &G,
                   std::vector<std::pair<std::string, std::string>> &Found) {
  std::function<void(NodeList &)> Walk = [&](NodeList &L) {
    for (Node &N : L) {
      if (N.Kind == NodeKind::Call && G.recursive(F.Name, N.Callee)) {
        N.Kind = NodeKind::Unknown;
        N.Reason = "recursive call to '" + N.Callee + "'";
        Found.push_back({F.Name, N.Id});
      }
      Walk(N.Body);
      for (Arm &A : N.Arms)
        Walk(A.Body);
    }
  };
  Walk(F.Body);
}

} // namespace segtime
