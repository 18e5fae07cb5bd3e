//===- SourceSegBuilder.h - The source-level SEG builder --------*- C++ -*-===//
///
/// \file
/// The builder behind buildFunctionSeg (plugin/SegBuilder.h), one per
/// function, split by what it walks:
///   SegBuilder.cpp          stages, HLLC/POC counting, expressions
///   SegBuilderStmt.cpp      statements, loops (canonical trip counts), switch
///   SegBuilderCalls.cpp     calls: program, C library, memcpy, MPI
///   SegBuilderSymbolic.cpp  expressions in source names, branch conditions
///   SegBuilderChain.cpp     loop-carried scalar chains (-O0)
///   StmtFinders.cpp         the AST queries it asks (mutations, early exits)
/// Internal to the plugin.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PLUGIN_SOURCESEGBUILDER_H
#define SEGTIME_PLUGIN_SOURCESEGBUILDER_H

#include "plugin/SegBuilder.h"
#include "plugin/StmtFinders.h"

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/ArrayRef.h"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace segtime {

/// Variables set by MPI_Comm_rank / MPI_Comm_size(MPI_COMM_WORLD, &v) in a
/// function body: they are `rank` and `p` in formulas (if nothing else
/// changes them; "" for a variable set by both), and the address-of
/// expressions of those calls (which do not count as changes).
struct MpiIds {
  std::map<const clang::VarDecl *, std::string> Vars;
  std::set<const clang::Stmt *> AddrOfs;
};
MpiIds findMpiIds(clang::ASTContext &Ctx, const clang::Stmt *Body);

/// Builds the SEG of one function into Out (buildFunctionSeg).
class SourceSegBuilder {
public:
  SourceSegBuilder(clang::ASTContext &Ctx, const clang::FunctionDecl *FD, FunctionSeg &Out,
                   std::vector<BuilderWarning> &W);
  void run();

private:
  // --- ids, ranges, parameters (SegBuilder.cpp) ---------------------------
  std::string newId() { return "v" + std::to_string(NextId++); }
  /// A node of kind K with a new id and the source range of R.
  Node newNode(NodeKind K, clang::SourceRange R) {
    Node N;
    N.Kind = K;
    N.Id = newId();
    N.Range = range(R);
    return N;
  }
  SourceRange range(clang::SourceRange R);
  std::pair<unsigned, unsigned> endOf(clang::SourceLocation L);
  unsigned line(clang::SourceLocation L) { return SM.getPresumedLineNumber(SM.getExpansionLoc(L)); }
  std::string where(clang::SourceLocation L);
  std::string addParam(const std::string &Prefix, clang::SourceLocation L, const std::string &Kind,
                       std::optional<double> Default, const std::string &Source,
                       const std::string &Meaning);

  // --- stages, constructs, expressions (SegBuilder.cpp) -------------------
  Node &stage(clang::SourceRange R);
  void close() { OpenStage = -1; }
  void op(const std::string &C, double N = 1);
  Node &push(Node N);
  void within(NodeList &L, const std::function<void()> &F);
  Node &unknown(const clang::Stmt *S, const std::string &Reason, const std::string &External = "");
  std::string typeOf(clang::QualType T);
  std::string memClass(const clang::Expr *E);
  void read(const clang::Expr *LV) { op("mem." + memClass(LV) + ".read"); }
  void write(const clang::Expr *LV) { op("mem." + memClass(LV) + ".write"); }
  void lvalue(const clang::Expr *E);
  void arith(clang::BinaryOperatorKind K, clang::QualType T, clang::QualType OperandT);
  /// The HLLC construct arith counts ("f64.add", "i32.cmp"), "" for none.
  std::string arithConstruct(clang::BinaryOperatorKind K, clang::QualType T,
                             clang::QualType OperandT);
  void shortCircuit(const clang::BinaryOperator *B);
  void twoArmBranch(const clang::Stmt *S, const clang::Expr *Cond,
                    const std::function<void()> &Then, const std::function<void()> &Else,
                    const std::string &Meaning);
  static std::string conversion(clang::QualType From, clang::QualType To);
  void cast(const clang::CastExpr *C);
  void expr(const clang::Expr *E);

  // --- calls (SegBuilderCalls.cpp) ------------------------------------------
  void call(const clang::CallExpr *C);
  bool libraryCall(const clang::CallExpr *C, const std::string &Name);
  std::optional<std::string> mpiBytes(const clang::CallExpr *C, int CountArg, int TypeArg,
                                      std::string &Why);
  std::string mpiRank(const clang::Expr *E);
  bool mpiCall(const clang::CallExpr *C, const std::string &Name);

  // --- symbolic expressions in source names (SegBuilderSymbolic.cpp) --------
  std::optional<std::string> condExpr(const clang::Expr *E);
  std::optional<std::string> inputValue(const clang::CallExpr *Call);
  std::optional<std::string> toExpr(const clang::Expr *E, const clang::Stmt *Avoid = nullptr);
  bool mutatedIn(const clang::VarDecl *V, const clang::Stmt *S);

  // --- statements and loops (SegBuilderStmt.cpp)
  // ------------------------------
  struct Canonical {
    const clang::VarDecl *Index = nullptr;
    std::string Start, Step, StepKind = "add", Trip;
  };
  static const clang::VarDecl *refTo(const clang::Expr *E) { return MutationFinder::target(E); }
  std::optional<Canonical> canonical(const clang::ForStmt *F);
  void loop(const clang::Stmt *S, const std::string &Kind, const clang::Stmt *Init,
            const clang::Expr *Cond, const clang::Expr *Inc, const clang::Stmt *Body,
            std::optional<Canonical> C, const std::function<void()> &PerIteration = nullptr);
  void compound(llvm::ArrayRef<clang::Stmt *> Stmts);

  // --- loop-carried scalar chains at -O0 (SegBuilderChain.cpp) -------------
  /// Records on loop L the loop-carried scalar chains of its body Body,
  /// condition Cond and increment Inc (docs/seg-json.md "chain"): one RUV
  /// `chain.<type>:<name>` per scalar that an unconditional statement of the
  /// body (or Cond, Inc) updates from its own previous value. A chain
  /// that starts afresh in each iteration of the enclosing loop (its scalar
  /// declared in that loop's body, or assigned a value independent of its
  /// old one there before loop statement S, or in S's Init) counts
  /// `restart` = 1 (docs/seg-json.md "Loop-carried chains").
  void recordChains(Node &L, const clang::Stmt *S, const clang::Stmt *Init,
                    const clang::Stmt *Body, const clang::Expr *Cond, const clang::Expr *Inc);
  /// Whether scalar V starts afresh before loop statement S in each
  /// iteration of the loop whose body is Enclosing (see recordChains).
  bool restartsBefore(const clang::VarDecl *V, const clang::Stmt *S, const clang::Stmt *Init,
                      const clang::Stmt *Enclosing);
  /// Per scalar, the constructs on the dependence path from the carried
  /// scalar's value at the start of the iteration to the value it holds
  /// now (its stores and the reloads between them included).
  using ChainDeps = std::map<const clang::VarDecl *, std::vector<std::string>>;
  /// The constructs on the dependence path from the carried scalar to the
  /// value of E (Deps: the scalars that depend on it so far); nullopt if E
  /// does not depend on it through arithmetic, conversions, loads and
  /// scalars.
  std::optional<std::vector<std::string>> chainPath(const clang::Expr *E, const ChainDeps &Deps);
  void stmt(const clang::Stmt *S);
  void switchStmt(const clang::SwitchStmt *Sw);

  clang::ASTContext &Ctx;
  clang::SourceManager &SM;
  const clang::FunctionDecl *FD;
  FunctionSeg &Out;
  std::vector<BuilderWarning> &Warnings;
  std::string Fn;
  int NextId = 1;
  NodeList *Cur = nullptr;
  int OpenStage = -1;
  clang::SourceRange CurRange;
  clang::SourceLocation LastEnd;            ///< endOf's last query
  std::pair<unsigned, unsigned> LastEndPos; ///< and its answer
  ExitFinder ExitsOf;
  std::set<const clang::VarDecl *> Mutated;
  std::map<const clang::Stmt *, std::set<const clang::VarDecl *>> MutatedCache;
  std::vector<const clang::VarDecl *> Indices;
  /// Bodies of the source loops being built, outermost first (chains).
  std::vector<const clang::Stmt *> LoopBodies;
  std::set<std::string> ParamNames;
  std::set<const clang::Stmt *> MpiAddrOfs;
  std::map<const clang::VarDecl *, std::string> MpiVars; ///< -> "rank" or "p"
  std::set<std::string> UsedMpiSyms;
  bool UsedMpi = false; ///< set by toExpr when it maps a variable to rank or p
};

} // namespace segtime

#endif
