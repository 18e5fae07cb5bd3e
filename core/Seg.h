//===- Seg.h - Software execution graphs, RUVs, parameters ------*- C++ -*-===//
///
/// \file
/// The data model of segtime (design.md §3): a software execution graph (SEG,
/// Warwick-94 §2 Fig. 4) per function, resource usage vectors (RUVs,
/// Warwick-94 eq. 3) per node and level, and the data-dependent parameters of
/// the timing formulas. No LLVM or Clang dependency; JSON round-trips through
/// toJSON/fromJSON (schema "segtime.seg/1", the expanded form) and
/// toCompactJSON (schema "segtime.seg/4", the form the plugin writes: texts
/// and RUVs shared through file-level tables, no indentation, a node's
/// range, frequency and source node left out when they are the previous
/// node's; docs/seg-json.md). Schemas 2 (tables per function) and 3 are
/// still read.
///
/// Expressions (trip counts, probabilities, call arguments) are strings in the
/// syntax of the predictor's expression parser: + - * / ^, parentheses, numbers,
/// source names, and the functions log(a) (natural logarithm), idiv(a,b) (C integer division),
/// imod(a,b) (C remainder), umod(a,b) (a mod b in [0, b): unsigned
/// wrap-around), min(a,b), max(a,b), ltrip(a,b,c) (iterations of
/// for(i=a;i<b;i*=c)), cmp_eq(a,b), cmp_lt(a,b), cmp_le(a,b) (1 if a == b,
/// a < b, a <= b, else 0: exact branch conditions of the IR level, branches
/// on the MPI rank).
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_CORE_SEG_H
#define SEGTIME_CORE_SEG_H

#include "core/Vocabulary.h"

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace segtime {

struct ByteWriter;
struct ByteReader;

using json = nlohmann::json;

/// Key of FunctionSeg::LevelSegs for the SEG of the optimised code, which
/// INTCC and ICC are costed on.
inline const std::string IrSegKey = "IR";

/// The first item of Items whose Name is Name, or nullptr.
template <typename T>
const T *findByName(const std::vector<T> &Items, const std::string &Name) {
  for (const T &X : Items)
    if (X.Name == Name)
      return &X;
  return nullptr;
}

/// A JSON array of X.toJSON() for each X of Items, in order.
template <typename Range> json toJSONArray(const Range &Items) {
  json A = json::array();
  for (const auto &X : Items)
    A.push_back(X.toJSON());
  return A;
}

/// A sparse vector over one level's vocabulary: operation name -> count
/// (Warwick-94 eq. 3). Counts are per execution of the node.
class Ruv {
public:
  void add(const std::string &Op, double N = 1) { Counts[Op] += N; }
  void add(const Ruv &O) {
    for (auto &[K, V] : O.Counts)
      Counts[K] += V;
  }
  double get(const std::string &Op) const {
    auto It = Counts.find(Op);
    return It == Counts.end() ? 0 : It->second;
  }
  bool empty() const { return Counts.empty(); }
  /// Sets Op's count to N (exactly N, -0.0 included; packFunctionSeg's reader).
  void set(const std::string &Op, double N) { Counts.insert_or_assign(Counts.end(), Op, N); }
  const std::map<std::string, double> &counts() const { return Counts; }
  json toJSON() const { return json(Counts); }
  static Ruv fromJSON(const json &J);

private:
  std::map<std::string, double> Counts;
};

/// Source range "file:line:col" .. "file:line:col".
struct SourceRange {
  std::string File;
  unsigned Line = 0, Col = 0, EndLine = 0, EndCol = 0;
  json toJSON() const;
  static SourceRange fromJSON(const json &J);
};

enum class NodeKind { Stage, Loop, Branch, Call, Comm, Unknown };
std::string nodeKindName(NodeKind K);

/// The reason of an Unknown node for a call to Callee, a function with no
/// body in the translation unit ("call to external function 'f' (no body
/// in this translation unit)"): the plugin's levels write it, and the
/// compact form leaves it out of a node whose callee is Callee.
std::string externalCallReason(const std::string &Callee);

struct Node;
using NodeList = std::vector<Node>;

/// One arm of a Branch: executed with probability Prob (an expression).
struct Arm {
  std::string Label; ///< "then", "else", "case 3", "default", "rhs", ...
  std::string Prob;  ///< e.g. "P_f_12", "1 - P_f_12"
  NodeList Body;
};

/// One stream of memory references of an IR loop nest, the input of the
/// cache-line (layer-condition) memory term (predictor/MemoryModel.h,
/// docs/models.md "memory term"): the loads and stores with one base
/// pointer and the same byte strides per loop, whose addresses differ by
/// Offsets. Expressions are in source names.
struct MemStream {
  /// One loop enclosing the references, innermost first, up to the nest's
  /// outermost loop.
  struct Step {
    std::string Loop;   ///< the IR loop node's id ("ir7")
    std::string Stride; ///< bytes the address moves per iteration (|step|; "0" if it does not)
    /// iterations: the largest over the enclosing loops, or, for a
    /// triangular loop, an expression in an enclosing loop's Index
    std::string Trip;
    /// the loop's iteration counter ("k_f_ir7", 0 .. Trip-1) when an inner
    /// loop's Trip depends on it (the line model sums over it), else ""
    std::string Index;
  };
  std::string Base;   ///< the base pointer (IR name; "" if unnamed)
  bool Load = false, Store = false;
  unsigned Size = 0;  ///< bytes per reference (the largest of the stream)
  /// Byte offsets of the other references of the stream from the first one
  /// (e.g. "8", "-8", "16*n" for a[i+1], a[i-1], a[i+2n]).
  std::vector<std::string> Offsets;
  std::vector<Step> Loops;

  json toJSON() const;
  static MemStream fromJSON(const json &J);
};

/// A SEG node (design.md §3). Fields are used according to Kind:
///  - Stage: Ruvs (per level key, e.g. "HLLC", "POC").
///  - Loop: LoopKind, Index, Start, Step, StepKind, Trip, Body (the first
///    element of Body is the loop-control stage, Warwick-94 eq. 1 t(v_loop)).
///  - Branch: Arms.
///  - Call: Callee, Args (expressions in the caller's names, "" if not
///    expressible), CalleeParams.
///  - Comm: an MPI operation (docs/mpi.md): CommOp ("MPI_Send"), Bytes
///    (message size in B, an expression in source names, e.g. "n*8"),
///    Peer and Root (expressions; "any" for MPI_ANY_SOURCE, "" if not
///    expressible or not applicable), Pattern ("p2p", "post", "wait",
///    "exchange", "bcast", "reduce", "allreduce", "scatter", "gather",
///    "allgather", "alltoall", "barrier"); Ruvs hold the cost of the call
///    itself (HLLC "call"), the Pattern the communication time.
///  - Unknown: Reason (never empty).
struct Node {
  NodeKind Kind = NodeKind::Stage;
  std::string Id; ///< stable within the function: "v1", "v2", ...
  std::string Label;
  SourceRange Range;
  std::map<std::string, Ruv> Ruvs;
  // Loop
  std::string LoopKind; ///< for, while, do, range-for
  std::string Index, Start, Step, StepKind = "add", Trip;
  NodeList Body;
  // Branch
  std::vector<Arm> Arms;
  // Call
  std::string Callee;
  std::vector<std::string> Args;
  // Comm
  std::string CommOp, Bytes, Peer, Pattern, Root;
  // Unknown
  std::string Reason;
  /// Executions per execution of the enclosing list ("" = 1). IR-level SEGs
  /// use it for block frequencies from BranchProbabilityInfo (design.md §5).
  std::string Freq;
  /// IR-level nodes: id of the source-level SEG node this code came from
  /// (through its debug location), "" if unknown.
  std::string SourceNode;
  /// IR-level stages whose block ends in a data-dependent conditional
  /// branch: the probability that it takes its first successor (an
  /// expression, "Pir_f_12_9"), for the ICC misprediction term (RUV key
  /// "branch.cond.data", docs/models.md); "" otherwise.
  std::string BranchProb;
  /// IR-level outermost loops: the data the loop nest touches, B (the union
  /// of the address ranges of its loads and stores, per base pointer), and
  /// the bytes it moves through the memory hierarchy, B (each load and store
  /// range once), as expressions in source names; "" if not computable
  /// (non-affine addresses). Used by the ICC memory term (docs/models.md).
  std::string Footprint, Traffic;
  /// IR-level outermost loops: the reference streams of the nest (empty if
  /// Footprint is, or the SEG file predates them).
  std::vector<MemStream> Streams;
  /// IR-level outermost loops: references the memory term bounds or leaves
  /// out, one line each ("hist: indirect store, object size unknown: left
  /// out of the footprint and traffic"); predictions print them as notes.
  std::vector<std::string> MemoryNotes;
  /// IR-level loops: the floating-point recurrences of the loop (the
  /// dependence chains the ICC overlap of iterations looks at,
  /// docs/models.md "ICC"): "" none, "own" (a chain that starts afresh in
  /// each execution of the loop), "continued" (a chain that goes on from
  /// the enclosing loop's iteration into this loop and out of it).
  std::string Chain;

  json toJSON() const;
  static Node fromJSON(const json &J);
};

/// A data-dependent quantity of a timing formula (design.md §3).
struct Parameter {
  std::string Name; ///< N_<function>_<line>, P_<function>_<line>[_<arm>], or a source name
  std::string Kind; ///< "loop", "branch", "source"
  std::optional<double> Default; ///< the default value, if it is a number
  std::string Source;  ///< where the default comes from ("static: 1/arms", ...)
  std::string Where;   ///< file:line
  std::string Meaning; ///< one line for humans
  /// An IR-level branch probability (Kind "branch", Source "BPI", Where
  /// "file:line:col" of the branch): the first source location ("line:col")
  /// of the successor it is the probability of, and of the other one; a
  /// component-timing profile matches them to the measured branch's arms.
  /// An alias-check indicator (Pov_...): the arms of the optimised branch,
  /// "true" or "false", that leaves the vector loop out and the other.
  std::string TakenAt, OtherAt;
  /// A default that depends on other names: an expression in source names
  /// (the min-update idiom's "(log(n) + 0.57721566 + 1/(2*(n)))/(n)",
  /// docs/models.md), evaluated with their values (predictor's
  /// defaultValue); "" if the default is Default or there is none. In JSON
  /// both are "default": a number or an expression string.
  std::string DefaultExpr;
  bool hasDefault() const { return Default || !DefaultExpr.empty(); }
  /// The default for humans: "0.500000", the expression, or "none".
  std::string defaultText() const;
  json toJSON() const;
  static Parameter fromJSON(const json &J);
};

/// "NAME=VALUE" of -p (segtime predict, the templates, the plugin's p=): the name and a finite number. Throws
/// std::runtime_error "-p expects NAME=VALUE, got '...'" or "-p KV: '...' is
/// not a number" / "... must be a finite number".
std::pair<std::string, double> parseParamAssignment(const std::string &KV);

/// The file-level tables of a compact file (schema 3, docs/seg-json.md),
/// filled while its functions are written and written after them:
///  - "vocabulary": RUV operations and levels, node and loop kinds, arm
///    labels, source files, a parameter's kind and source;
///  - "strings": texts and pieces of texts that repeat (within a function
///    or across functions, warnings included);
///  - "ruvs": one level's [op, count, ...] lists that repeat.
/// Each is numbered in order of first use; functions refer to entries by
/// index.
struct SegVocabulary {
  std::vector<std::string> Names;
  std::unordered_map<std::string, size_t> Index;
  /// "strings": the shared texts (a deque: TextIndex's keys view them).
  std::deque<std::string> Texts;
  std::unordered_map<std::string_view, size_t> TextIndex;
  /// "ruvs": the shared [op, count, ...] lists; their numbers by their dump.
  std::vector<json> Ruvs;
  std::unordered_map<std::string, size_t> RuvIndex;
  /// The warning of each source-level Unknown node of those functions
  /// without its leading source file (unknownNodeWarning), and the node as
  /// schema 4 refers to it: [function index, node id].
  std::unordered_map<std::string, json> NodeWarnings;
  /// Functions by name and index in the file (toCompactText), and the
  /// inlined calls of those with InlinedAt: their index and, per call, the
  /// caller and the runs of its nodes, written as the file's "inlined"
  /// table (core/InlinedLevels.h inlinedTableJSON).
  std::unordered_map<std::string, size_t> FunctionIndex;
  std::vector<std::pair<size_t, std::vector<std::pair<std::string, json>>>> Inlined;
  /// Name's index, numbering it if it is new.
  size_t of(const std::string &Name) {
    auto [It, New] = Index.try_emplace(Name, Names.size());
    if (New)
      Names.push_back(Name);
    return It->second;
  }
  /// Text's index in "strings", numbering it if it is new.
  size_t text(std::string_view Text) {
    auto It = TextIndex.find(Text);
    if (It != TextIndex.end())
      return It->second;
    Texts.emplace_back(Text);
    TextIndex.emplace(Texts.back(), Texts.size() - 1);
    return Texts.size() - 1;
  }
};

struct FunctionSeg;

/// The plugin's warning for Unknown node N (at the source level) of
/// function F in the file of source Source: "SOURCE:LINE: segtime: not
/// characterised: REASON (SEG node ID in 'F')". Schema 4 writes such a
/// warning as {"node": [function index, node id]}.
std::string unknownNodeWarning(const std::string &Source, const FunctionSeg &F, const Node &N);

/// The code of one inlined call of a function with no code of its own,
/// by reference: top-level nodes of its caller's IR level (edge stages and
/// final loop tests included, in order). The callee's IR level is made
/// from them when the file is read for a prediction (core/MergeIR.h
/// resolveInlinedLevels), in its own parameters, one level per call site.
struct InlinedRef {
  std::string Caller; ///< the calling function (its name in the SEG file)
  std::string Where;  ///< "file:line:col" of the call, then " in file:line:col" of
                      ///< each call it was itself inlined through
  std::vector<std::string> Nodes; ///< ids in Caller's LevelSegs["IR"]
  /// Nodes as schema 4 writes them (core/InlinedLevels.h inlinedSiteRuns),
  /// null if not known (then each node is written alone).
  json Runs;
  json toJSON() const;
  static InlinedRef fromJSON(const json &J);
  /// [{"caller", "nodes", "where"}, ...]: the layout of "inlined_at" in
  /// every schema.
  static json listToJSON(const std::vector<InlinedRef> &L);
  bool operator==(const InlinedRef &O) const {
    return Caller == O.Caller && Where == O.Where && Nodes == O.Nodes;
  }
};

/// The SEG of one function.
struct FunctionSeg {
  std::string Name;
  SourceRange Range;
  std::vector<std::string> Params; ///< formal parameter names, in order
  std::vector<Parameter> Parameters;
  NodeList Body;
  bool InMainFile = true;
  /// Internal linkage (C `static`): its name is visible only in its own
  /// translation unit (`segtime link` keeps two of the same name apart).
  bool Static = false;
  /// SEGs of the optimised code (key IrSegKey): loops as the optimiser left them
  /// (trip counts from ScalarEvolution), stages = basic blocks with their
  /// INTCC and ICC:<target> RUVs. Empty when the IR passes did not run.
  std::map<std::string, NodeList> LevelSegs;
  /// A function with no code of its own (every call inlined; plugin option
  /// inlined): its inlined calls, one per call site, in the order of the
  /// callers' code. Written as "inlined_at" (docs/seg-json.md); the IR
  /// level made from them (resolveInlinedLevels) is not written.
  std::vector<InlinedRef> InlinedAt;
  /// The body a level's formula is built from: LevelSegs[IrSegKey] for INTCC and
  /// ICC (LevelKey a level's key or RUV key, "ICC:znver3") when present, else
  /// the source-level Body.
  const NodeList &bodyFor(const std::string &LevelKey) const;
  /// Schema 1's layout (the expanded form).
  json toJSON() const;
  /// Schema 4's layout of a function (docs/seg-json.md): ranges as [line,
  /// col, end_line, end_col, file], RUVs as [op, count, ...] with whole
  /// counts as integers, no "kind": "Stage", no "step_kind": "add"; names
  /// (RUV operations and levels, kinds, arm labels, files, a parameter's kind
  /// and source) as indices in Vocab->Names; texts that repeat (whole, or
  /// pieces of them: the factors of a product, a "where"'s file, a meaning's
  /// fixed words) as indices in Vocab->Texts and RUVs that repeat as indices
  /// in Vocab->Ruvs, numbering the new ones (the tables are written after
  /// the functions: compactHeader). A node's range, frequency and source
  /// node are left out when they are the previous node's (depth first in
  /// each SEG), an Unknown call's reason when it is externalCallReason.
  /// Index: the function's index in the file's "functions" (its Unknown
  /// nodes' warnings refer to it, Vocab->NodeWarnings). Vocab nullptr: names
  /// and texts written out, nothing shared. SegFile::fromJSON of the file
  /// gives this function back.
  json toCompactJSON(SegVocabulary *Vocab, size_t Index) const;
  /// toCompactJSON(Vocab, Index).dump(), written straight from the SEG (no
  /// JSON tree; SegCompact.cpp): what the plugin and SegFileWriter write.
  std::string toCompactText(SegVocabulary *Vocab, size_t Index) const;
  /// Reads either layout once its texts are strings (SegFile::fromJSON
  /// resolves schema 2's "strings").
  static FunctionSeg fromJSON(const json &J);
};

/// A binary image of a SEG held in memory while it waits (the plugin's
/// source-level SEGs until their IR level comes, the IR SEGs until code
/// generation reaches them): every field, in a fixed order, strings with a
/// length prefix; several times cheaper to make and to read than JSON or
/// CBOR (no key, no tree of values) and smaller. Not a file format: read
/// back by the same build only. unpackFunctionSeg(packFunctionSeg(F)) equals F
/// field for field; the readers throw std::runtime_error on a truncated or
/// malformed image.
std::vector<std::uint8_t> packFunctionSeg(const FunctionSeg &F);
FunctionSeg unpackFunctionSeg(const std::vector<std::uint8_t> &Image);
std::vector<std::uint8_t> packNodes(const NodeList &L);
NodeList unpackNodes(const std::vector<std::uint8_t> &Image);
/// The parameters as packFunctionSeg's image holds them, appended to W /
/// read from R (core/ByteImage.h), for images of other structures.
void packParameters(ByteWriter &W, const std::vector<Parameter> &Ps);
std::vector<Parameter> unpackParameters(ByteReader &R);

/// A translation unit's characterisation: the content of a .seg.json file.
struct SegFile {
  /// The version the plugin writes (compact, shared texts, values that
  /// repeat the previous node's left out).
  static constexpr const char *Schema = "segtime.seg/4";
  /// Schema 4 without its node defaults (plugins before it): still read.
  static constexpr const char *SchemaV3 = "segtime.seg/3";
  /// The compact form with tables per function (plugins before schema 3).
  static constexpr const char *SchemaV2 = "segtime.seg/2";
  /// The expanded form (toJSON; files of earlier plugins): still read.
  static constexpr const char *SchemaV1 = "segtime.seg/1";
  std::string SourceFile;
  std::string OptLevel; ///< "O0", "O2", ...
  std::vector<FunctionSeg> Functions;
  std::vector<std::string> Warnings;
  /// ICC targets characterised: name -> {"triple", "cpu", ...}.
  std::map<std::string, std::map<std::string, std::string>> Targets;
  /// The expanded form (schema 1, for views: `segtime show --json`).
  json toJSON() const;
  /// The form the plugin writes (schema 4; FunctionSeg::toCompactJSON).
  json toCompactJSON() const;
  /// Any of schemas 1, 2, 3 and 4. Throws std::runtime_error naming the problem if J is
  /// not a SEG file of a known version.
  static SegFile fromJSON(const json &J);
  /// Reads and parses Path; throws std::runtime_error with file and reason.
  static SegFile read(const std::string &Path);
  const FunctionSeg *find(const std::string &Name) const;
};

/// Writes a SEG file one function at a time: the same bytes as
/// SegFile::toCompactJSON().dump() followed by a newline, but only one
/// function's JSON in memory at once. Functions are written as they are
/// added, in order; finish writes the file's other keys, which all sort
/// after "functions".
class SegFileWriter {
public:
  /// Out receives the text in pieces, in order.
  explicit SegFileWriter(std::function<void(const std::string &)> Out) : Out(std::move(Out)) {}
  void add(const FunctionSeg &F);
  /// Ends the document with Rest's source, opt_level, warnings and targets
  /// (Rest.Functions is not written: add them). Call once.
  void finish(const SegFile &Rest);

private:
  std::function<void(const std::string &)> Out;
  size_t Written = 0; ///< functions written so far
  SegVocabulary Vocab; ///< of the functions written so far
};

/// The keys of schema 4's document but "functions" (all sort after it):
/// schema, source, opt_level, targets, the warnings as texts (sharing
/// pieces through Vocab), and Vocab's tables "vocabulary", "strings" and
/// "ruvs". Call once, after the last function was made compact with Vocab.
json compactHeader(const SegFile &S, SegVocabulary &Vocab);

/// compactHeader(S, Vocab).dump() without its leading "{", and a newline,
/// handed to Out in pieces: the tables are written entry by entry, not
/// copied into a JSON value and its dump (an amalgamation's "strings" are
/// megabytes). The same bytes.
void writeCompactHeader(const SegFile &S, SegVocabulary &Vocab,
                        const std::function<void(const std::string &)> &Out);

/// The JSON document in file Path. Throws std::runtime_error "PATH: cannot
/// open file" or "PATH: invalid JSON: ...".
json readJsonFile(const std::string &Path);

/// T::fromJSON of the document in file Path; its errors are prefixed with
/// "PATH: ". (SegFile::read, CtFile::read.)
template <typename T> T readJsonAs(const std::string &Path) {
  json J = readJsonFile(Path);
  try {
    return T::fromJSON(J);
  } catch (const std::exception &E) {
    throw std::runtime_error(Path + ": " + E.what());
  }
}

/// Visits every node of a list (NodeList, const or not: Fn gets Node & or
/// const Node &), depth first, parents before children.
template <typename List, typename F> void forEachNode(List &L, F &&Fn) {
  for (auto &N : L) {
    Fn(N);
    forEachNode(N.Body, Fn);
    for (auto &A : N.Arms)
      forEachNode(A.Body, Fn);
  }
}

} // namespace segtime

#endif
