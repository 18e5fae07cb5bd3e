//===- Vocabulary.h - Levels and the operation names their RUVs count -*- C++ -*-===//
///
/// \file
/// The characterisation levels of Warwick-94 §3 and, for each level, its
/// vocabulary: the names of the operations a resource usage vector (RUV,
/// Warwick-94 eq. 3) counts. Every vocabulary is defined here and only here;
/// docs/vocabulary.md is the user-facing description of the same table.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_CORE_VOCABULARY_H
#define SEGTIME_CORE_VOCABULARY_H

#include <map>
#include <string>
#include <vector>

namespace segtime {

/// Characterisation levels (Warwick-94 §3.3). DBC is for hand-written graphs.
enum class Level { DBC, POC, HLLC, IntCC, ICC, CT };

/// Upper-case key used in JSON ("POC", "HLLC", "INTCC", "ICC", "CT", "DBC").
std::string levelKey(Level L);
/// Parses "poc", "HLLC", ... (case-insensitive); returns false if unknown.
bool parseLevel(const std::string &S, Level &L);
/// The level of key S (case-insensitive); throws std::invalid_argument
/// "unknown level 'S'" if there is none.
Level levelFromKey(const std::string &S);

/// INTCC and ICC: the levels costed on the SEG of the optimised code.
inline bool irLevel(Level L) { return L == Level::IntCC || L == Level::ICC; }

/// levelKey of each level, in order.
std::vector<std::string> levelKeys(const std::vector<Level> &Ls);

/// The RUV key a level's counts are kept under (Node::Ruvs): "ICC:<target>"
/// for ICC (one RUV per target), else levelKey(L).
std::string ruvKey(Level L, const std::string &Target = "");

/// Orders levels as their keys sort ("HLLC" < "ICC" < "INTCC" < "POC"): the
/// order of the JSON objects keyed by level, kept for every printed table.
struct LevelKeyOrder {
  bool operator()(Level A, Level B) const { return levelKey(A) < levelKey(B); }
};
/// A map keyed by level (in LevelKeyOrder).
template <typename T> using LevelMap = std::map<Level, T, LevelKeyOrder>;

/// One entry of a vocabulary.
struct Construct {
  std::string Name;        ///< e.g. "f64.mul", "loop", "mem.array.read"
  std::string Description; ///< one line, for docs and --help
};

/// The HLLC vocabulary: C-language constructs counted from the Clang AST
/// (Warwick-94 §3.3.3 eq. 2-3 and §4.2.2: arithmetic per type, control flow,
/// local/global/array memory references). Types: i32 (integers of at most 32
/// bits), i64 (wider integers and pointer arithmetic), f32, f64 (double and
/// long double).
const std::vector<Construct> &hllcVocabulary();
/// True if Name is an HLLC construct.
bool isHllcConstruct(const std::string &Name);

/// POC: the single principal operation "flop" (Warwick-94 §3.3.2, Table 1).
inline const char *pocFlop() { return "flop"; }

/// McMahon flop weight of an HLLC floating-point construct (Warwick-94 Table 1,
/// PARKBENCH-93 §2.5): add, sub, mul, compare 1; div, sqrt 4; exp, log, sin,
/// cos, tan, pow and the other libm transcendental functions 8. Integer
/// operations, abs, negation-free moves and conversions are not credited (0):
/// Table 1 lists no such operation. Returns 0 for non-floating constructs.
double mcmahonWeight(const std::string &HllcConstruct);

/// The IntCC vocabulary (Warwick-94 §3.3.4, docs/models.md's table): the
/// key of one operation of the optimised IR, "Operation.Qualifier" -- the
/// LLVM opcode and what it operates on: the type it computes ("fadd.f64",
/// "load.v4f64"), the stored value's type ("store.f64"), a comparison's
/// operand type ("icmp.i32"), the callee of a call ("call.sqrt",
/// "call.indirect", an intrinsic with its type "call.fmuladd.v4f64"), "cond"
/// for a conditional branch ("br.cond"); Operation alone when Qualifier is
/// empty ("br", "ret"). Which instructions count, with which opcode and
/// type, is read off the IR by passes/IRSeg.h's intccKey.
std::string intccKey(const std::string &Operation, const std::string &Qualifier);

/// Maps a C math-library function name (sqrt, sqrtf, exp, sin, fabs, pow,
/// ...) to its HLLC construct ("f64.sqrt", "f32.exp", "f64.abs", ...).
/// Returns "" if the function is not a known math-library function.
std::string mathLibraryConstruct(const std::string &FunctionName);

} // namespace segtime

#endif
