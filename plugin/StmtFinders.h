//===- StmtFinders.h - AST queries of the SEG builder -----------*- C++ -*-===//
///
/// \file
/// What the source-level SEG builder (plugin/SourceSegBuilder.h) asks of a
/// statement: which variables it changes, and whether a loop body leaves
/// the loop early.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PLUGIN_STMTFINDERS_H
#define SEGTIME_PLUGIN_STMTFINDERS_H

#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <set>

namespace segtime {

/// Variables whose value changes inside a statement: assigned, incremented,
/// or whose address is taken.
class MutationFinder : public clang::RecursiveASTVisitor<MutationFinder> {
public:
  std::set<const clang::VarDecl *> Mutated;
  /// Address-of expressions that do not count (&rank passed to MPI_Comm_rank).
  const std::set<const clang::Stmt *> *Ignore = nullptr;
  /// The variable E names (parentheses and implicit casts aside), or null.
  static const clang::VarDecl *target(const clang::Expr *E);
  bool VisitBinaryOperator(clang::BinaryOperator *B);
  bool VisitUnaryOperator(clang::UnaryOperator *U);
};

/// Whether a loop's body contains a break that leaves that loop, a return, an
/// indirect goto, or a goto to a label outside the body (a goto to a label
/// within the body, as in `if (c) goto L20; ...; goto L10; L20: ...; L10: ;`,
/// stays in the loop). One traversal of a body answers for it and for every
/// loop body nested in it (remembered), so a loop nest costs its size, not
/// its size times its depth.
class ExitFinder : public clang::RecursiveASTVisitor<ExitFinder> {
public:
  bool hasExit(const clang::Stmt *Body);

  bool TraverseStmt(clang::Stmt *S);
  bool VisitBreakStmt(clang::BreakStmt *) {
    Cur.FreeBreak = true;
    return true;
  }
  bool VisitReturnStmt(clang::ReturnStmt *) {
    Cur.Leaves = true;
    return true;
  }
  bool VisitIndirectGotoStmt(clang::IndirectGotoStmt *) {
    Cur.Leaves = true;
    return true;
  }
  bool VisitGotoStmt(clang::GotoStmt *G) {
    Cur.Gotos.insert(G->getLabel());
    return true;
  }
  bool VisitLabelStmt(clang::LabelStmt *L) {
    Cur.Labels.insert(L->getDecl());
    return true;
  }

private:
  static bool isBodyOf(const clang::Stmt *S, const clang::Stmt *Loop);
  struct Flags {
    bool FreeBreak = false;
    bool Leaves = false; ///< a return or an indirect goto
    /// Targets of the gotos within, and the labels defined within.
    llvm::SmallPtrSet<const clang::LabelDecl *, 2> Gotos, Labels;
  };
  Flags Cur;
  const clang::Stmt *Parent = nullptr;             ///< of the statement being traversed
  llvm::DenseMap<const clang::Stmt *, bool> Exits; ///< by loop body
};

} // namespace segtime

#endif
