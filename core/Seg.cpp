//===- Seg.cpp - SEG data model and its JSON form -------------------------===//
#include "core/Seg.h"
#include "core/JsonShape.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <string_view>
#include <unordered_map>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace segtime {

Ruv Ruv::fromJSON(const json &J) {
  Ruv R;
  if (J.is_array()) { // schema 2: [op, count, op, count, ...]
    if (J.size() % 2)
      throw std::runtime_error("RUV " + J.dump() + ": expected operation, count pairs");
    for (size_t I = 0; I < J.size(); I += 2)
      R.Counts[J[I].get<std::string>()] = J[I + 1].get<double>();
    return R;
  }
  for (auto It = J.begin(); It != J.end(); ++It)
    R.Counts[It.key()] = It.value().get<double>();
  return R;
}

json SourceRange::toJSON() const {
  return {{"file", File}, {"line", Line}, {"col", Col}, {"end_line", EndLine},
          {"end_col", EndCol}};
}

SourceRange SourceRange::fromJSON(const json &J) {
  SourceRange R;
  if (J.is_array()) { // schema 2: [line, col, end_line, end_col, file]
    bool HasFile = J.size() == 3 || J.size() == 5;
    size_t Numbers = J.size() - HasFile;
    if (Numbers != 2 && Numbers != 4)
      throw std::runtime_error("range " + J.dump() +
                               ": expected [line, col, end_line, end_col, file]");
    R.Line = J[0].get<unsigned>();
    R.Col = J[1].get<unsigned>();
    R.EndLine = Numbers == 4 ? J[2].get<unsigned>() : R.Line;
    R.EndCol = Numbers == 4 ? J[3].get<unsigned>() : R.Col;
    if (HasFile)
      R.File = J.back().get<std::string>();
    return R;
  }
  R.File = J.value("file", "");
  R.Line = J.value("line", 0u);
  R.Col = J.value("col", 0u);
  R.EndLine = J.value("end_line", 0u);
  R.EndCol = J.value("end_col", 0u);
  return R;
}

std::string nodeKindName(NodeKind K) {
  switch (K) {
  case NodeKind::Stage: return "Stage";
  case NodeKind::Loop: return "Loop";
  case NodeKind::Branch: return "Branch";
  case NodeKind::Call: return "Call";
  case NodeKind::Comm: return "Comm";
  case NodeKind::Unknown: return "Unknown";
  }
  return "?";
}

std::string externalCallReason(const std::string &Callee) {
  return "call to external function '" + Callee + "' (no body in this translation unit)";
}

static NodeKind parseKind(const std::string &S) {
  for (NodeKind K : {NodeKind::Stage, NodeKind::Loop, NodeKind::Branch,
                     NodeKind::Call, NodeKind::Comm, NodeKind::Unknown})
    if (nodeKindName(K) == S)
      return K;
  throw std::runtime_error("unknown SEG node kind '" + S + "'");
}

static json listToJSON(const NodeList &L) {
  json A = json::array();
  for (const Node &N : L)
    A.push_back(N.toJSON());
  return A;
}

static NodeList listFromJSON(const json &J) {
  NodeList L;
  for (const json &E : J)
    L.push_back(Node::fromJSON(E));
  return L;
}

json Node::toJSON() const {
  json J = {{"id", Id}, {"kind", nodeKindName(Kind)}, {"range", Range.toJSON()}};
  if (!Label.empty())
    J["label"] = Label;
  if (!Freq.empty())
    J["freq"] = Freq;
  if (!SourceNode.empty())
    J["source_node"] = SourceNode;
  if (!BranchProb.empty())
    J["branch_prob"] = BranchProb;
  if (!Footprint.empty())
    J["footprint_B"] = Footprint;
  if (!Traffic.empty())
    J["traffic_B"] = Traffic;
  for (const MemStream &M : Streams)
    J["streams"].push_back(M.toJSON());
  if (!MemoryNotes.empty())
    J["memory_notes"] = MemoryNotes;
  if (!Chain.empty())
    J["chain"] = Chain;
  if (!Ruvs.empty()) {
    json R = json::object();
    for (auto &[L, V] : Ruvs)
      R[L] = V.toJSON();
    J["ruv"] = std::move(R);
  }
  switch (Kind) {
  case NodeKind::Loop:
    J["loop"] = LoopKind;
    J["index"] = Index;
    J["start"] = Start;
    J["step"] = Step;
    J["step_kind"] = StepKind;
    J["trip"] = Trip;
    J["body"] = listToJSON(Body);
    break;
  case NodeKind::Branch: {
    json A = json::array();
    for (const Arm &X : Arms)
      A.push_back({{"label", X.Label}, {"prob", X.Prob}, {"body", listToJSON(X.Body)}});
    J["arms"] = std::move(A);
    break;
  }
  case NodeKind::Call:
    J["callee"] = Callee;
    J["args"] = Args;
    if (!Bytes.empty()) // a library call's size (core/Library.h)
      J["bytes"] = Bytes;
    break;
  case NodeKind::Comm:
    J["op"] = CommOp;
    J["bytes"] = Bytes;
    J["peer"] = Peer;
    J["pattern"] = Pattern;
    J["root"] = Root;
    break;
  case NodeKind::Unknown:
    J["reason"] = Reason;
    if (!Callee.empty()) {
      J["callee"] = Callee;
      J["args"] = Args;
    }
    break;
  default:
    break;
  }
  return J;
}

Node Node::fromJSON(const json &J) {
  Node N;
  N.Kind = parseKind(J.value("kind", "Stage")); // schema 2 leaves out "Stage"
  N.Id = J.at("id").get<std::string>();
  N.Label = J.value("label", "");
  if (J.contains("range"))
    N.Range = SourceRange::fromJSON(J["range"]);
  if (J.contains("ruv"))
    for (auto It = J["ruv"].begin(); It != J["ruv"].end(); ++It)
      N.Ruvs[It.key()] = Ruv::fromJSON(It.value());
  N.LoopKind = J.value("loop", "");
  N.Index = J.value("index", "");
  N.Start = J.value("start", "");
  N.Step = J.value("step", "");
  N.StepKind = J.value("step_kind", "add");
  N.Trip = J.value("trip", "");
  if (J.contains("body"))
    N.Body = listFromJSON(J["body"]);
  if (J.contains("arms"))
    for (const json &A : J["arms"])
      N.Arms.push_back({A.value("label", ""), A.at("prob").get<std::string>(),
                        listFromJSON(A.at("body"))});
  N.Callee = J.value("callee", "");
  if (J.contains("args"))
    N.Args = J["args"].get<std::vector<std::string>>();
  N.Reason = J.value("reason", "");
  if (N.Kind == NodeKind::Call)
    N.Bytes = J.value("bytes", "");
  if (N.Kind == NodeKind::Comm) {
    N.CommOp = J.at("op").get<std::string>();
    N.Bytes = J.value("bytes", "");
    N.Peer = J.value("peer", "");
    N.Pattern = J.at("pattern").get<std::string>();
    N.Root = J.value("root", "");
  }
  N.Freq = J.value("freq", "");
  N.SourceNode = J.value("source_node", "");
  N.BranchProb = J.value("branch_prob", "");
  N.Footprint = J.value("footprint_B", "");
  N.Traffic = J.value("traffic_B", "");
  if (J.contains("streams"))
    for (const json &M : J.at("streams"))
      N.Streams.push_back(MemStream::fromJSON(M));
  N.MemoryNotes = J.value("memory_notes", std::vector<std::string>{});
  N.Chain = J.value("chain", "");
  return N;
}

json MemStream::toJSON() const {
  json J = {{"base", Base}, {"load", Load}, {"store", Store}, {"size_B", Size},
            {"offsets_B", Offsets}};
  J["loops"] = json::array();
  for (const Step &S : Loops) {
    json L = {{"loop", S.Loop}, {"stride_B", S.Stride}, {"trip", S.Trip}};
    if (!S.Index.empty())
      L["index"] = S.Index;
    J["loops"].push_back(std::move(L));
  }
  return J;
}

MemStream MemStream::fromJSON(const json &J) {
  MemStream M;
  M.Base = J.value("base", "");
  M.Load = J.value("load", false);
  M.Store = J.value("store", false);
  M.Size = J.at("size_B").get<unsigned>();
  M.Offsets = J.value("offsets_B", std::vector<std::string>{});
  for (const json &S : J.at("loops"))
    M.Loops.push_back({S.at("loop").get<std::string>(), S.at("stride_B").get<std::string>(),
                       S.at("trip").get<std::string>(), S.value("index", "")});
  return M;
}

json Parameter::toJSON() const {
  json J = {{"name", Name}, {"kind", Kind}, {"source", Source}, {"where", Where},
            {"meaning", Meaning}};
  J["default"] = Default ? json(*Default) : !DefaultExpr.empty() ? json(DefaultExpr) : json(nullptr);
  if (!TakenAt.empty()) {
    J["taken_at"] = TakenAt;
    J["other_at"] = OtherAt;
  }
  return J;
}

std::string Parameter::defaultText() const {
  if (Default)
    return std::to_string(*Default);
  return DefaultExpr.empty() ? "none" : DefaultExpr;
}

Parameter Parameter::fromJSON(const json &J) {
  Parameter P;
  P.Name = J.at("name").get<std::string>();
  P.Kind = J.value("kind", "");
  if (J.contains("default") && J["default"].is_string())
    P.DefaultExpr = J["default"].get<std::string>();
  else if (J.contains("default") && !J["default"].is_null())
    P.Default = J["default"].get<double>();
  P.Source = J.value("source", "");
  P.Where = J.value("where", "");
  P.Meaning = J.value("meaning", "");
  P.TakenAt = J.value("taken_at", "");
  P.OtherAt = J.value("other_at", "");
  return P;
}

json FunctionSeg::toJSON() const {
  json Ps = json::array();
  for (const Parameter &P : Parameters)
    Ps.push_back(P.toJSON());
  json J = {{"name", Name},         {"range", Range.toJSON()},
            {"params", Params},     {"parameters", std::move(Ps)},
            {"in_main_file", InMainFile}, {"seg", listToJSON(Body)}};
  if (Static)
    J["static"] = true;
  for (auto &[K, L] : LevelSegs)
    J["level_segs"][K] = listToJSON(L);
  return J;
}

const NodeList &FunctionSeg::bodyFor(const std::string &LevelKey) const {
  if (LevelKey == "INTCC" || LevelKey.compare(0, 3, "ICC") == 0) {
    auto It = LevelSegs.find("IR");
    if (It != LevelSegs.end())
      return It->second;
  }
  return Body;
}

FunctionSeg FunctionSeg::fromJSON(const json &J) {
  FunctionSeg F;
  F.Name = J.at("name").get<std::string>();
  if (J.contains("range"))
    F.Range = SourceRange::fromJSON(J["range"]);
  F.Params = J.value("params", std::vector<std::string>{});
  if (J.contains("parameters"))
    for (const json &P : J["parameters"])
      F.Parameters.push_back(Parameter::fromJSON(P));
  F.InMainFile = J.value("in_main_file", true);
  F.Static = J.value("static", false);
  F.Body = listFromJSON(J.at("seg"));
  if (J.contains("level_segs"))
    for (auto It = J["level_segs"].begin(); It != J["level_segs"].end(); ++It)
      F.LevelSegs[It.key()] = listFromJSON(It.value());
  return F;
}

/// The file's keys but "functions".
static json headerJSON(const SegFile &S) {
  json J = {{"schema", SegFile::SchemaV1},
            {"source", S.SourceFile},
            {"opt_level", S.OptLevel},
            {"warnings", S.Warnings}};
  if (!S.Targets.empty())
    J["targets"] = S.Targets;
  return J;
}

json SegFile::toJSON() const {
  json Fs = json::array();
  for (const FunctionSeg &F : Functions)
    Fs.push_back(F.toJSON());
  json J = headerJSON(*this);
  J["functions"] = std::move(Fs);
  return J;
}

// ---- Schema 2: the compact form of a function (docs/seg-json.md) ----------

namespace {

/// Node fields whose value is a text (a string in schema 1), by their
/// schema-2 key.
const char *const NodeTexts[] = {"l",     "f",     "s",         "bp",   "footprint_B", "traffic_B",
                                 "chain", "loop",  "index",     "start", "step",       "step_kind",
                                 "t",     "c",     "op",        "bytes", "peer",       "pattern",
                                 "root",  "why",   "k"};

/// Schema 2's short keys of node and arm fields; the others keep schema 1's.
const std::pair<const char *, const char *> NodeKeys[] = {
    {"id", "i"},     {"kind", "k"},   {"range", "r"},       {"ruv", "u"},
    {"label", "l"},  {"freq", "f"},   {"source_node", "s"}, {"branch_prob", "bp"},
    {"body", "b"},   {"arms", "a"},   {"prob", "p"},        {"reason", "why"},
    {"callee", "c"}, {"args", "x"},   {"trip", "t"}};

/// Schema 2 writes a parameter as an array of its fields in this order
/// (the last two only if "taken_at" is given); all but "default" are texts.
const char *const ParameterOrder[] = {"name",  "kind",    "default",  "source",
                                      "where", "meaning", "taken_at", "other_at"};
constexpr size_t ParameterDefault = 2;

/// Calls Fn(Slot) on each text slot of object J named in Keys.
template <typename Keys, typename F> void textFields(json &J, const Keys &Ks, F &Fn) {
  for (const char *K : Ks) {
    auto It = J.find(K);
    if (It != J.end())
      Fn(*It);
  }
}

/// A compact range's file slot (the last of 3 or 5 elements), or nullptr.
json *rangeFile(json &R) {
  return R.is_array() && (R.size() == 3 || R.size() == 5) ? &R.back() : nullptr;
}

template <typename F> void textsOfList(json &L, F &Fn);

/// Calls Fn(Slot) on every text slot of node N in compact form (fields,
/// range file, RUV names unless numbered, streams, arms), depth first.
template <typename F> void textsOfNode(json &N, F &Fn) {
  textFields(N, NodeTexts, Fn);
  for (const char *K : {"x", "memory_notes"}) {
    auto It = N.find(K);
    if (It != N.end())
      for (json &E : *It)
        Fn(E);
  }
  auto R = N.find("r");
  if (R != N.end())
    if (json *File = rangeFile(*R))
      Fn(*File);
  auto Ruvs = N.find("u"); // [level, [op, count, ...] or shared index, ...]
  if (Ruvs != N.end() && Ruvs->is_array())
    for (size_t I = 0; I + 1 < Ruvs->size(); I += 2) {
      Fn((*Ruvs)[I]);
      json &Pairs = (*Ruvs)[I + 1];
      if (Pairs.is_array())
        for (size_t K = 0; K < Pairs.size(); K += 2)
          Fn(Pairs[K]);
    }
  auto Streams = N.find("streams");
  if (Streams != N.end())
    for (json &M : *Streams) {
      textFields(M, std::initializer_list<const char *>{"base"}, Fn);
      if (M.contains("offsets_B"))
        for (json &E : M["offsets_B"])
          Fn(E);
      if (M.contains("loops"))
        for (json &L : M["loops"])
          textFields(L, std::initializer_list<const char *>{"loop", "stride_B", "trip", "index"},
                     Fn);
    }
  auto Body = N.find("b");
  if (Body != N.end())
    textsOfList(*Body, Fn);
  auto Arms = N.find("a");
  if (Arms != N.end())
    for (json &A : *Arms) {
      textFields(A, std::initializer_list<const char *>{"l", "p"}, Fn);
      if (A.contains("b"))
        textsOfList(A["b"], Fn);
    }
}

template <typename F> void textsOfList(json &L, F &Fn) {
  for (json &N : L)
    textsOfNode(N, Fn);
}

/// Every text slot of a function in compact form: its range file,
/// parameters, SEG and level SEGs (not its name and formal parameters).
template <typename F> void textsOfFunction(json &J, F &Fn) {
  auto R = J.find("range");
  if (R != J.end())
    if (json *File = rangeFile(*R))
      Fn(*File);
  if (J.contains("parameters"))
    for (json &P : J["parameters"])
      if (P.is_array())
        for (size_t I = 0; I < P.size(); ++I)
          if (I != ParameterDefault)
            Fn(P[I]);
  if (J.contains("seg"))
    textsOfList(J["seg"], Fn);
  if (J.contains("level_segs"))
    for (json &L : J["level_segs"])
      textsOfList(L, Fn);
}

/// A count as JSON: an integer if it is one (1 rather than 1.0).
json countJSON(double V) {
  if (V == std::floor(V) && std::fabs(V) < 9.0e15)
    return json(static_cast<int64_t>(V));
  return json(V);
}

/// [line - Base, col, end_line - line, end_col, file]; the end is left out
/// if it is the start, the file if it is DefaultFile (the function's).
json compactRange(const SourceRange &R, const std::string *DefaultFile, unsigned Base,
                  SegVocabulary *Vocab) {
  json J = json::array({int64_t(R.Line) - int64_t(Base), R.Col});
  if (R.EndLine != R.Line || R.EndCol != R.Col) {
    J.push_back(int64_t(R.EndLine) - int64_t(R.Line));
    J.push_back(R.EndCol);
  }
  if (!DefaultFile || R.File != *DefaultFile)
    J.push_back(Vocab ? json(Vocab->of(R.File)) : json(R.File));
  return J;
}

/// S as a number in Vocab, or as a text without one.
json named(const std::string &S, SegVocabulary *Vocab) {
  return Vocab ? json(Vocab->of(S)) : json(S);
}

/// compactRange's inverse: [line, col, end_line, end_col, file], absolute.
json expandRange(const json &R, const std::string &DefaultFile, int64_t Base) {
  bool HasFile = R.is_array() && (R.size() == 3 || R.size() == 5);
  size_t Numbers = R.is_array() ? R.size() - HasFile : 0;
  if (Numbers != 2 && Numbers != 4)
    throw std::runtime_error("range " + R.dump() + ": expected [line, col, end_line, end_col, file]");
  int64_t Line = Base + R[0].get<int64_t>();
  int64_t EndLine = Numbers == 4 ? Line + R[2].get<int64_t>() : Line;
  return json::array({Line, R[1], EndLine, Numbers == 4 ? R[3] : R[1],
                      HasFile ? R.back() : json(DefaultFile)});
}

/// Node ids in depth-first order are mostly "v1", "v2", ... ("ir1", ...):
/// an id that is the previous node's with its number plus one is left out.
class ImplicitIds {
public:
  void start() { Valid = false; }
  /// Whether Id follows the previous one; makes Id the previous one.
  bool follows(const std::string &Id) {
    bool Next = Valid && Id == next();
    take(Id);
    return Next;
  }
  /// The id after the previous one; throws if there is none.
  std::string next() const {
    if (!Valid)
      throw std::runtime_error("a node without \"id\" does not follow a numbered one");
    return Prefix + std::to_string(Number + 1);
  }
  bool valid() const { return Valid; }
  void take(const std::string &Id) {
    size_t D = Id.size();
    while (D > 0 && std::isdigit(static_cast<unsigned char>(Id[D - 1])))
      --D;
    Valid = D < Id.size() && Id.size() - D < 10 && (Id[D] != '0' || D + 1 == Id.size());
    if (Valid) {
      Prefix = Id.substr(0, D);
      Number = std::stoll(Id.substr(D));
    }
  }

private:
  bool Valid = false;
  std::string Prefix;
  long long Number = 0;
};

static bool sameRange(const SourceRange &A, const SourceRange &B) {
  return A.Line == B.Line && A.Col == B.Col && A.EndLine == B.EndLine && A.EndCol == B.EndCol &&
         A.File == B.File;
}

/// What compactNode needs besides the node.
struct CompactContext {
  const SourceRange &Function; ///< the function's range (file, base line)
  SegVocabulary *Vocab;        ///< RUV names' numbers (nullptr: names as texts)
  ImplicitIds Ids;
  ImplicitIds Labels; ///< "bb3" is left out after "bb2"
  std::string File;   ///< the previous node's file (a range leaves it out)
  /// The previous node's range, frequency and source node (schema 4 leaves
  /// out a node's that are the same).
  SourceRange Range;
  std::string Freq, Source;
  /// Before each SEG (the source level's, each level's).
  void start() {
    Ids.start();
    Labels.start();
    File = Function.File;
    Range = Function;
    Freq.clear();
    Source.clear();
  }
};

json compactList(const NodeList &L, CompactContext &C);

/// Node::toJSON's content in schema 2's layout (short keys, range and RUVs
/// as arrays, defaults and following ids left out), texts not yet shared.
json compactNode(const Node &N, CompactContext &C) {
  json J = json::object();
  if (!C.Ids.follows(N.Id))
    J["i"] = N.Id;
  if (N.Kind != NodeKind::Stage)
    J["k"] = named(nodeKindName(N.Kind), C.Vocab);
  // The range, frequency and source node are left out when they are the
  // previous node's; an empty frequency or source node after one that is
  // not is written "".
  if (!sameRange(N.Range, C.Range))
    J["r"] = compactRange(N.Range, &C.File, C.Range.Line, C.Vocab); // line: from the previous
  C.File = N.Range.File;
  C.Range = N.Range;
  // A label that follows the previous node's is left out; an empty one is
  // written where it would be taken for the next.
  bool Next = C.Labels.valid() && N.Label == C.Labels.next();
  if (!Next && (!N.Label.empty() || C.Labels.valid()))
    J["l"] = N.Label;
  C.Labels.take(N.Label);
  if (N.Freq != C.Freq)
    J["f"] = N.Freq;
  C.Freq = N.Freq;
  if (N.SourceNode != C.Source)
    J["s"] = N.SourceNode;
  C.Source = N.SourceNode;
  if (!N.BranchProb.empty())
    J["bp"] = N.BranchProb;
  if (!N.Footprint.empty())
    J["footprint_B"] = N.Footprint;
  if (!N.Traffic.empty())
    J["traffic_B"] = N.Traffic;
  for (const MemStream &M : N.Streams)
    J["streams"].push_back(M.toJSON());
  if (!N.MemoryNotes.empty())
    J["memory_notes"] = N.MemoryNotes;
  if (!N.Chain.empty())
    J["chain"] = N.Chain;
  if (!N.Ruvs.empty()) {
    json R = json::array();
    for (auto &[Level, Counts] : N.Ruvs) {
      json Pairs = json::array();
      for (auto &[Op, Count] : Counts.counts()) {
        Pairs.push_back(C.Vocab ? json(C.Vocab->of(Op)) : json(Op));
        Pairs.push_back(countJSON(Count));
      }
      R.push_back(C.Vocab ? json(C.Vocab->of(Level)) : json(Level));
      R.push_back(std::move(Pairs));
    }
    J["u"] = std::move(R);
  }
  switch (N.Kind) {
  case NodeKind::Loop:
    J["loop"] = named(N.LoopKind, C.Vocab);
    J["index"] = N.Index;
    J["start"] = N.Start;
    J["step"] = N.Step;
    if (N.StepKind != "add")
      J["step_kind"] = N.StepKind;
    J["t"] = N.Trip;
    J["b"] = compactList(N.Body, C);
    break;
  case NodeKind::Branch: {
    json A = json::array();
    for (const Arm &X : N.Arms)
      A.push_back({{"l", named(X.Label, C.Vocab)}, {"p", X.Prob}, {"b", compactList(X.Body, C)}});
    J["a"] = std::move(A);
    break;
  }
  case NodeKind::Call:
    J["c"] = N.Callee;
    J["x"] = N.Args;
    if (!N.Bytes.empty())
      J["bytes"] = N.Bytes;
    break;
  case NodeKind::Comm:
    J["op"] = N.CommOp;
    J["bytes"] = N.Bytes;
    J["peer"] = N.Peer;
    J["pattern"] = N.Pattern;
    J["root"] = N.Root;
    break;
  case NodeKind::Unknown:
    if (N.Callee.empty() || N.Reason != externalCallReason(N.Callee))
      J["why"] = N.Reason;
    if (!N.Callee.empty()) {
      J["c"] = N.Callee;
      J["x"] = N.Args;
    }
    break;
  default:
    break;
  }
  return J;
}

json compactList(const NodeList &L, CompactContext &C) {
  json A = json::array();
  for (const Node &N : L)
    A.push_back(compactNode(N, C));
  return A;
}

/// Fn(Node) on every node of a list, parents first; Short: schema 2's keys.
template <typename F> void nodesOfList(json &L, F &Fn, bool Short) {
  const char *Body = Short ? "b" : "body", *Arms = Short ? "a" : "arms";
  for (json &N : L) {
    Fn(N);
    auto B = N.find(Body);
    if (B != N.end())
      nodesOfList(*B, Fn, Short);
    auto A = N.find(Arms);
    if (A != N.end())
      for (json &X : *A)
        if (X.contains(Body))
          nodesOfList(X[Body], Fn, Short);
  }
}

/// Fn(Node) on every node of a function's JSON, parents first; Start()
/// before each SEG (the source level's, each level's).
template <typename F, typename S> void nodesOfFunction(json &J, F &Fn, bool Short, S Start) {
  if (J.contains("seg")) {
    Start();
    nodesOfList(J["seg"], Fn, Short);
  }
  if (J.contains("level_segs"))
    for (json &L : J["level_segs"]) {
      Start();
      nodesOfList(L, Fn, Short);
    }
}

template <typename F> void nodesOfFunction(json &J, F &Fn, bool Short) {
  nodesOfFunction(J, Fn, Short, [] {});
}

size_t digits(size_t N) { return N < 10 ? 1 : 1 + digits(N / 10); }

/// A text or RUV this long (B, as written) or longer is put in the file's
/// table at its first use even if it occurs once in its function: its index
/// costs a few bytes more if it is never used again, and saves the text
/// each time a later function (or warning) uses it. Shorter ones are shared
/// when they repeat within the function.
constexpr size_t SpeculativeText = 12, SpeculativeRuv = 12;

/// Replaces each RUV of one level ([op, count, ...]) of function J by its
/// index in Vocab.Ruvs where the index is shorter: a list already there,
/// and one that occurs twice or more in J or is long (SpeculativeRuv),
/// numbered now.
void shareRuvs(json &J, SegVocabulary &Vocab) {
  std::unordered_map<std::string, size_t> Count;
  std::vector<std::pair<json *, std::string>> Slots;
  auto Collect = [&](json &N) {
    auto R = N.find("u");
    if (R == N.end())
      return;
    for (size_t I = 1; I < R->size(); I += 2) {
      json &Pairs = (*R)[I];
      std::string Key; // "op,count,...," (one byte shorter than the dump)
      for (const json &E : Pairs) { // op indices and counts
        Key += E.is_number_integer() ? std::to_string(E.get<int64_t>()) : E.dump();
        Key += ',';
      }
      ++Count[Key];
      Slots.emplace_back(&Pairs, std::move(Key));
    }
  };
  nodesOfFunction(J, Collect, true);
  for (auto &[Slot, Key] : Slots) {
    auto It = Vocab.RuvIndex.find(Key);
    if (It == Vocab.RuvIndex.end()) {
      if (Count[Key] < 2 && Key.size() + 1 < SpeculativeRuv)
        continue;
      It = Vocab.RuvIndex.emplace(Key, Vocab.Ruvs.size()).first;
      Vocab.Ruvs.push_back(*Slot);
    }
    if (digits(It->second) < Key.size() + 1)
      *Slot = It->second;
  }
}

/// The pieces a text is cut into for sharing: before each '*' and " + "
/// outside parentheses (the factors and terms of a frequency repeat the
/// conditions of the branches above it), around quotes (a reason's callee),
/// before a final ":LINE" or ":LINE:COL" (a parameter's "where" repeats the
/// file name) or "_LINE" or "_LINE_COL" (a parameter's name repeats the
/// function's). The pieces concatenated are the text.
std::vector<std::string_view> pieces(std::string_view S) {
  std::vector<std::string_view> Out;
  size_t End = S.size();
  // ":LINE" or ":LINE:COL" at the end
  size_t Colons = 0, I = S.size();
  while (I > 0 && Colons < 2) {
    size_t J = I;
    while (J > 0 && std::isdigit(static_cast<unsigned char>(S[J - 1])))
      --J;
    if (J == I || J == 0 || S[J - 1] != ':')
      break;
    I = J - 1;
    ++Colons;
    End = I;
  }
  if (End == 0)
    End = S.size();
  // "_LINE" or "_LINE_COL" at the end (a parameter's name: P_f_12, Pir_f_12_9)
  if (End == S.size()) {
    size_t Unders = 0;
    for (size_t I = S.size(); I > 0 && Unders < 2;) {
      size_t J = I;
      while (J > 0 && std::isdigit(static_cast<unsigned char>(S[J - 1])))
        --J;
      if (J == I || J <= 1 || S[J - 1] != '_')
        break;
      I = J - 1;
      ++Unders;
      End = I;
    }
  }
  int Depth = 0;
  size_t From = 0;
  auto Cut = [&](size_t K) {
    if (K > From) {
      Out.push_back(S.substr(From, K - From));
      From = K;
    }
  };
  auto Digit = [&](size_t K) { return K < End && std::isdigit(static_cast<unsigned char>(S[K])); };
  for (size_t K = 0; K < End; ++K) {
    char C = S[K];
    // around a location inside a text: ":LINE:" after a warning's file,
    // "LINE:COL" in a meaning ("the optimised branch goes to 124:27 (...)")
    if ((C == ':' && Digit(K + 1)) || (Digit(K) && K > 0 && S[K - 1] == ' ')) {
      size_t E = K;
      bool Colon = false;
      while (E < End && (S[E] == ':' || Digit(E)))
        Colon |= S[E++] == ':';
      if (Colon && E > K + 1) {
        Cut(K);
        Cut(E);
        K = E - 1;
        continue;
      }
    }
    if (C == '(')
      ++Depth;
    else if (C == ')')
      --Depth;
    // before a product's factor, and before and after a quoted name
    // ("call to external function 'f' (no body ...)"), before a
    // parenthesised remark (" (SEG node v8 in 'f')")
    bool Sum = C == ' ' && Depth == 0 && K + 2 < End && S[K + 1] == '+' && S[K + 2] == ' ';
    bool Remark = C == ' ' && Depth == 0 && K + 1 < End && S[K + 1] == '(';
    // (not at the apostrophe of "BranchProbabilityInfo's")
    bool Quote = C == '\'' && !(K > 0 && std::isalpha(static_cast<unsigned char>(S[K - 1])) &&
                                 K + 1 < End && std::isalpha(static_cast<unsigned char>(S[K + 1])));
    if ((C == '*' && Depth == 0) || Quote || Sum || Remark)
      Cut(K);
  }
  Out.push_back(S.substr(From, End - From));
  if (End < S.size())
    Out.push_back(S.substr(End));
  return Out;
}

/// Replaces the texts in Slots (strings) by indices in Vocab.Texts, whole
/// or in pieces (an array of indices and strings), where that is shorter: a
/// text or piece already in the table, or one whose copies in Slots cost
/// more bytes than an entry and an index per use, or a long one
/// (SpeculativeText), numbered now in order of first use.
void shareTexts(const std::vector<json *> &Slots, SegVocabulary &Vocab) {
  std::unordered_map<std::string_view, size_t> Uses;
  for (json *Slot : Slots)
    ++Uses[Slot->get_ref<const std::string &>()];
  size_t IndexDigits = digits(Vocab.Texts.size() + Uses.size());
  // P's index in the table if it is to be written as one, else SIZE_MAX.
  auto Shared = [&](std::string_view P, size_t N, bool Speculate) -> size_t {
    auto It = Vocab.TextIndex.find(P);
    if (It != Vocab.TextIndex.end())
      return digits(It->second) < P.size() + 2 ? It->second : SIZE_MAX;
    bool Worth = N >= 2 && N * (P.size() + 2) > P.size() + 3 + N * IndexDigits;
    if (!Worth && !(Speculate && P.size() >= SpeculativeText))
      return SIZE_MAX;
    return Vocab.text(P);
  };
  // Wholes first (a text with nothing to cut may be shared speculatively),
  // then the pieces of the others.
  std::vector<size_t> Whole(Slots.size(), SIZE_MAX);
  std::vector<std::vector<std::string_view>> Pieces(Slots.size());
  std::unordered_map<std::string_view, size_t> PieceUses;
  for (size_t I = 0; I < Slots.size(); ++I) {
    const std::string &S = Slots[I]->get_ref<const std::string &>();
    size_t N = Uses[S];
    Whole[I] = Shared(S, N, false);
    if (Whole[I] != SIZE_MAX)
      continue;
    Pieces[I] = pieces(S);
    if (Pieces[I].size() < 2)
      Whole[I] = Shared(S, N, true);
    if (Whole[I] == SIZE_MAX && Pieces[I].size() > 1)
      for (std::string_view P : Pieces[I])
        ++PieceUses[P];
  }
  // The views point into the slots' strings: compute the new slots before
  // replacing any.
  std::vector<std::pair<json *, json>> Encoded;
  for (size_t I = 0; I < Slots.size(); ++I) {
    if (Whole[I] != SIZE_MAX) {
      Encoded.emplace_back(Slots[I], Whole[I]);
      continue;
    }
    if (Pieces[I].size() < 2)
      continue;
    json Parts = json::array();
    bool Any = false;
    for (std::string_view P : Pieces[I]) {
      size_t Id = Shared(P, PieceUses[P], true);
      if (Id != SIZE_MAX) {
        Parts.push_back(Id);
        Any = true;
      } else if (!Parts.empty() && Parts.back().is_string()) {
        Parts.back().get_ref<std::string &>() += P;
      } else {
        Parts.push_back(std::string(P));
      }
    }
    if (Any)
      Encoded.emplace_back(Slots[I], std::move(Parts));
  }
  for (auto &[Slot, V] : Encoded)
    *Slot = std::move(V);
}

/// shareTexts on every text of compact function J.
void shareTexts(json &J, SegVocabulary &Vocab) {
  std::vector<json *> Slots;
  auto Collect = [&](json &Slot) {
    if (Slot.is_string()) // (not a vocabulary index)
      Slots.push_back(&Slot);
  };
  textsOfFunction(J, Collect);
  shareTexts(Slots, Vocab);
}

/// Renames the keys of every node and arm of function J from schema 2's to
/// schema 1's, and its parameters from arrays to objects.
void expandKeys(json &J) {
  auto Rename = [](json &X) {
    for (auto &[Long, Short] : NodeKeys) {
      auto It = X.find(Short);
      if (It != X.end()) {
        json V = std::move(*It);
        X.erase(It);
        X[Long] = std::move(V);
      }
    }
  };
  std::function<void(json &)> List = [&](json &L) {
    for (json &N : L) {
      Rename(N);
      if (N.contains("body"))
        List(N["body"]);
      if (N.contains("arms"))
        for (json &A : N["arms"]) {
          Rename(A);
          if (A.contains("body"))
            List(A["body"]);
        }
    }
  };
  if (J.contains("seg"))
    List(J["seg"]);
  if (J.contains("level_segs"))
    for (json &L : J["level_segs"])
      List(L);
  if (J.contains("parameters"))
    for (json &P : J["parameters"]) {
      if (!P.is_array() || (P.size() != 6 && P.size() != 8))
        throw std::runtime_error("function '" + J.value("name", "") + "': parameter " + P.dump() +
                                 ": expected [name, kind, default, source, where, meaning"
                                 "(, taken_at, other_at)]");
      json Q = json::object();
      for (size_t I = 0; I < P.size(); ++I)
        Q[ParameterOrder[I]] = std::move(P[I]);
      P = std::move(Q);
    }
}

} // namespace

std::string unknownNodeWarning(const std::string &Source, const FunctionSeg &F, const Node &N) {
  return Source + ":" + std::to_string(N.Range.Line) + ": segtime: not characterised: " + N.Reason +
         " (SEG node " + N.Id + " in '" + F.Name + "')";
}

/// Where without its final ":LINE" or ":LINE:COL" ("" if it has none).
static std::string whereFile(const std::string &Where) {
  size_t End = Where.size();
  for (int K = 0; K < 2; ++K) {
    size_t D = End;
    while (D > 0 && std::isdigit(static_cast<unsigned char>(Where[D - 1])))
      --D;
    if (D == End || D == 0 || Where[D - 1] != ':')
      break;
    End = D - 1;
  }
  return End == Where.size() ? "" : Where.substr(0, End);
}

/// ":LINE" or ":LINE:COL" from a parameter name that ends in "_LINE" or
/// "_LINE_COL" (P_f_12, Pir_f_12_7), "" if it does not.
static std::string nameLocation(const std::string &Name) {
  std::string Tail;
  size_t End = Name.size();
  for (int K = 0; K < 2; ++K) {
    size_t D = End;
    while (D > 0 && std::isdigit(static_cast<unsigned char>(Name[D - 1])))
      --D;
    if (D == End || D <= 1 || Name[D - 1] != '_')
      break;
    Tail = ":" + Name.substr(D, End - D) + Tail;
    End = D - 1;
  }
  return Tail;
}

/// Schema 4's "where" of parameter Name after one whose where is Prev: the
/// file of Prev and the location in Name ("" if either is missing).
static std::string derivedWhere(const std::string &Prev, const std::string &Name) {
  std::string File = whereFile(Prev), Loc = nameLocation(Name);
  return File.empty() || Loc.empty() ? "" : File + Loc;
}

json FunctionSeg::toCompactJSON(SegVocabulary *Vocab) const {
  json Ps = json::array();
  std::string PrevWhere;
  for (const Parameter &P : Parameters) {
    // A where that is the previous parameter's file and the name's
    // location is left out (null).
    std::string Derived = derivedWhere(PrevWhere, P.Name);
    json Where = !P.Where.empty() && P.Where == Derived ? json(nullptr) : json(P.Where);
    PrevWhere = P.Where;
    json A = json::array({P.Name, named(P.Kind, Vocab),
                          P.Default ? json(*P.Default)
                                    : !P.DefaultExpr.empty() ? json(P.DefaultExpr) : json(nullptr),
                          named(P.Source, Vocab), std::move(Where), P.Meaning});
    if (!P.TakenAt.empty()) {
      A.push_back(P.TakenAt);
      A.push_back(P.OtherAt);
    }
    Ps.push_back(std::move(A));
  }
  json J = {{"name", Name}, {"range", compactRange(Range, nullptr, 0, Vocab)}, {"params", Params},
            {"parameters", std::move(Ps)}};
  if (!InMainFile)
    J["in_main_file"] = false;
  if (Static)
    J["static"] = true;
  CompactContext C{Range, Vocab, {}, {}, {}};
  C.start();
  J["seg"] = compactList(Body, C);
  for (auto &[K, L] : LevelSegs) {
    C.start();
    J["level_segs"][K] = compactList(L, C);
  }
  if (Vocab) {
    shareTexts(J, *Vocab);
    shareRuvs(J, *Vocab);
    size_t Index = Vocab->Functions++;
    forEachNode(Body, [&](const Node &N) {
      if (N.Kind == NodeKind::Unknown)
        Vocab->NodeWarnings.try_emplace(unknownNodeWarning("", *this, N),
                                        json::array({Index, N.Id}));
    });
  }
  return J;
}

/// Entry Index of Table (the "What" of function F); throws naming them if
/// Index is not one.
template <typename Table>
static const auto &entry(const Table &T, const json &Index, const json &F, const char *What) {
  if (!Index.is_number_unsigned() || Index.get<size_t>() >= T.size())
    throw std::runtime_error("function '" + F.value("name", "") + "': " + What + " index " +
                             Index.dump() + " out of range (" + std::to_string(T.size()) +
                             " entries)");
  return T[Index.get<size_t>()];
}

namespace {
/// Schema 3's file-level tables (SegVocabulary as read).
struct FileTables {
  json Strings = json::array(), Ruvs = json::array();
};
} // namespace

/// A text (a string, an index in Strings or an array of texts) appended to
/// Out; throws naming function F (or, F null, the place Where) if an index
/// is out of Strings or T is not a text.
static void appendText(const json &T, const json &Strings, const char *Table, std::string &Out,
                       const std::function<std::runtime_error(const std::string &)> &Fail) {
  if (T.is_string()) {
    Out += T.get_ref<const std::string &>();
  } else if (T.is_number()) {
    if (!T.is_number_unsigned() || T.get<size_t>() >= Strings.size())
      throw Fail(std::string("text (\"strings\") index ") + T.dump() + " out of range (" +
                 std::to_string(Strings.size()) + " entries in " + Table + ")");
    Out += Strings[T.get<size_t>()].get_ref<const std::string &>();
  } else if (T.is_array()) {
    for (const json &E : T)
      appendText(E, Strings, Table, Out, Fail);
  } else {
    throw Fail(T.dump() + " is not a text (string, string index or array of them)");
  }
}

/// A function in compact form in schema 1's layout: shared RUVs and texts
/// written out, long keys, ranges absolute with their file, ids given.
/// File: schema 3's or 4's tables (else schema 2's, in the function).
/// NodeDefaults (schema 4): a node's range, frequency and source node that
/// are left out are the previous node's, an Unknown call's reason that is
/// left out is externalCallReason.
static void expandTexts(json &J, const std::vector<std::string> *Vocab, const FileTables *File,
                        bool NodeDefaults) {
  auto SharedRuvs = J.find("ruvs");
  if (File && SharedRuvs != J.end())
    throw std::runtime_error("function '" + J.value("name", "") +
                             "': \"ruvs\" in a function (schema 3 has one table, after the "
                             "functions)");
  if (File || SharedRuvs != J.end()) {
    json Own;
    if (!File) {
      Own = std::move(*SharedRuvs); // (schema 2)
      J.erase("ruvs");
    }
    const json &Ruvs = File ? File->Ruvs : Own;
    const char *What = File ? "shared RUV (the file's \"ruvs\")" : "shared RUV (\"ruvs\")";
    auto Unshare = [&](json &N) {
      auto R = N.find("u");
      if (R == N.end() || !R->is_array())
        return;
      for (size_t I = 1; I < R->size(); I += 2) {
        json &Slot = (*R)[I];
        if (Slot.is_number())
          Slot = entry(Ruvs, Slot, J, What);
      }
    };
    nodesOfFunction(J, Unshare, true);
  }
  if (Vocab) { // RUV names are indices in the file's vocabulary
    auto Name = [&](json &Slot) {
      if (Slot.is_number())
        Slot = entry(*Vocab, Slot, J, "name (\"vocabulary\")");
    };
    auto Names = [&](json &N) {
      auto R = N.find("u");
      if (R == N.end() || !R->is_array())
        return;
      for (size_t I = 0; I + 1 < R->size(); I += 2) {
        Name((*R)[I]);
        if ((*R)[I + 1].is_array())
          for (size_t K = 0; K < (*R)[I + 1].size(); K += 2)
            Name((*R)[I + 1][K]);
      }
    };
    nodesOfFunction(J, Names, true);
    // kinds, loop kinds, arm labels, range files, a parameter's kind,
    // source and meaning
    auto Categorical = [&](json &N) {
      for (const char *K : {"k", "loop"})
        if (N.contains(K))
          Name(N[K]);
      if (N.contains("r"))
        if (json *File = rangeFile(N["r"]))
          Name(*File);
      if (N.contains("a"))
        for (json &A : N["a"])
          if (A.contains("l"))
            Name(A["l"]);
    };
    nodesOfFunction(J, Categorical, true);
    if (J.contains("range"))
      if (json *File = rangeFile(J["range"]))
        Name(*File);
    if (J.contains("parameters"))
      for (json &P : J["parameters"])
        if (P.is_array())
          for (size_t I : {1, 3, 5})
            if (I < P.size() && (I != 5 || !File)) // schema 3: the meaning is a text
              Name(P[I]);
  }
  json Own = json::array();
  auto S = J.find("strings");
  if (File && S != J.end())
    throw std::runtime_error("function '" + J.value("name", "") +
                             "': \"strings\" in a function (schema 3 has one table, after the "
                             "functions)");
  if (!File && S != J.end()) {
    Own = std::move(*S);
    J.erase("strings");
  }
  const json &Strings = File ? File->Strings : Own;
  auto Fail = [&](const std::string &Msg) {
    return std::runtime_error("function '" + J.value("name", "") + "': " + Msg);
  };
  const char *Table = File ? "the file's \"strings\"" : "the function's \"strings\"";
  auto Expand = [&](json &Slot) {
    if (Slot.is_string() || (NodeDefaults && Slot.is_null())) // (a where left out)
      return;
    std::string Text;
    appendText(Slot, Strings, Table, Text, Fail);
    Slot = std::move(Text);
  };
  textsOfFunction(J, Expand);
  expandKeys(J);
  if (NodeDefaults && J.contains("parameters")) { // a where left out
    std::string Prev;
    for (json &P : J["parameters"]) {
      json &W = P["where"];
      if (W.is_null()) {
        W = derivedWhere(Prev, P.value("name", ""));
        if (W.get_ref<const std::string &>().empty())
          throw std::runtime_error("function '" + J.value("name", "") + "': parameter '" +
                                   P.value("name", "") +
                                   "': \"where\" left out, but the previous parameter's has no "
                                   "file:line or the name no _LINE");
      }
      Prev = W.get<std::string>();
    }
  }
  // Ranges absolute, with the function's file if they have none; RUVs as
  // {level: [op, count, ...]}; ids given.
  auto FR = J.find("range");
  if (FR == J.end() || !FR->is_array())
    throw std::runtime_error("function '" + J.value("name", "") + "': no \"range\"");
  *FR = expandRange(*FR, "", 0);
  std::string FnFile = (*FR)[4].get<std::string>();
  int64_t Base = (*FR)[0].get<int64_t>();
  ImplicitIds Ids, Labels;
  std::string PrevFile, PrevFreq, PrevSource;
  json PrevRange;
  auto Node = [&](json &N) {
    auto R = N.find("range");
    if (R != N.end()) {
      // Schema 3: a node's file is by default the previous node's.
      // Schema 4: its line counts from the previous node's.
      *R = expandRange(*R, File ? PrevFile : FnFile,
                       NodeDefaults ? PrevRange[0].get<int64_t>() : Base);
      PrevFile = (*R)[4].get<std::string>();
    }
    if (NodeDefaults) { // schema 4: the previous node's values by default
      if (R == N.end())
        R = N.emplace("range", PrevRange).first;
      PrevRange = *R;
      for (auto [Key, Prev] : {std::pair{"freq", &PrevFreq}, std::pair{"source_node", &PrevSource}}) {
        auto It = N.find(Key);
        if (It == N.end()) {
          if (!Prev->empty())
            N[Key] = *Prev;
          continue;
        }
        *Prev = It->get<std::string>();
        if (Prev->empty())
          N.erase(It);
      }
      auto Callee = N.find("callee");
      if (N.value("kind", "") == "Unknown" && !N.contains("reason") && Callee != N.end())
        N["reason"] = externalCallReason(Callee->get<std::string>());
    }
    if (File) { // schema 3: labels that count on are left out
      auto L = N.find("label");
      if (L == N.end() && Labels.valid())
        L = N.emplace("label", Labels.next()).first;
      Labels.take(L == N.end() ? std::string() : L->get<std::string>());
    }
    auto Ruv = N.find("ruv");
    if (Ruv != N.end() && Ruv->is_array()) {
      json Levels = json::object();
      for (size_t I = 0; I + 1 < Ruv->size(); I += 2)
        Levels[(*Ruv)[I].get<std::string>()] = std::move((*Ruv)[I + 1]);
      *Ruv = std::move(Levels);
    }
    auto Id = N.find("id");
    if (Id == N.end())
      N["id"] = Ids.next();
    Ids.take(N["id"].get<std::string>());
  };
  nodesOfFunction(J, Node, false, [&] {
    Ids.start();
    Labels.start();
    PrevFile = FnFile;
    PrevRange = *FR;
    PrevFreq.clear();
    PrevSource.clear();
  });
}

// The compact dump of the document: {"functions":[F1,F2,...],HEADER} where
// the header's keys all sort after "functions".
void SegFileWriter::add(const FunctionSeg &F) {
  std::string Text = Any ? "," : "{\"functions\":[";
  Text += F.toCompactJSON(&Vocab).dump();
  Any = true;
  Out(Text);
}

void SegFileWriter::finish(const SegFile &Rest) {
  Out(Any ? "]," : "{\"functions\":[],");
  Out(compactHeader(Rest, Vocab).dump().substr(1) + "\n"); // without "{"
}

json compactHeader(const SegFile &S, SegVocabulary &Vocab) {
  json J = headerJSON(S);
  J["schema"] = SegFile::Schema;
  json &Warnings = J["warnings"];
  std::vector<json *> Slots;
  for (json &W : Warnings) {
    // Schema 4: a source-level Unknown node's warning refers to the node.
    const std::string &Text = W.get_ref<const std::string &>();
    if (Text.compare(0, S.SourceFile.size(), S.SourceFile) == 0) {
      auto It = Vocab.NodeWarnings.find(Text.substr(S.SourceFile.size()));
      if (It != Vocab.NodeWarnings.end()) {
        W = json::object({{"node", It->second}});
        continue;
      }
    }
    Slots.push_back(&W);
  }
  shareTexts(Slots, Vocab);
  J["vocabulary"] = Vocab.Names;
  J["strings"] = Vocab.Texts;
  J["ruvs"] = Vocab.Ruvs;
  return J;
}

json SegFile::toCompactJSON() const {
  SegVocabulary Vocab;
  json Fs = json::array();
  for (const FunctionSeg &F : Functions)
    Fs.push_back(F.toCompactJSON(&Vocab));
  json J = compactHeader(*this, Vocab);
  J["functions"] = std::move(Fs);
  return J;
}

/// Nesting depth of J (a number or string: 0), without recursion.
static int jsonDepth(const json &J) {
  int Max = 0;
  std::vector<std::pair<const json *, int>> Stack = {{&J, 0}};
  while (!Stack.empty()) {
    auto [V, D] = Stack.back();
    Stack.pop_back();
    if (!V->is_structured())
      continue;
    Max = std::max(Max, D + 1);
    for (const json &E : *V)
      Stack.push_back({&E, D + 1});
  }
  return Max;
}

SegFile SegFile::fromJSON(const json &J) {
  std::string Version = J.is_object() && J.contains("schema") && J.at("schema").is_string()
                            ? J.at("schema").get<std::string>()
                            : "";
  if (Version != Schema && Version != SchemaV3 && Version != SchemaV2 && Version != SchemaV1)
    throw std::runtime_error(std::string("not a SEG file of a known version (expected \"schema\": \"") +
                             Schema + "\", \"" + SchemaV3 + "\", \"" + SchemaV2 + "\" or \"" +
                             SchemaV1 + "\"" +
                             (Version.empty() ? std::string() : ", found \"" + Version + "\"") +
                             ")");
  checkSegShape(J, /*CheckFunctions=*/Version == SchemaV1);
  SegFile S;
  S.SourceFile = J.value("source", "");
  S.OptLevel = J.value("opt_level", "");
  std::optional<std::vector<std::string>> Vocab;
  if (J.contains("vocabulary"))
    Vocab = J["vocabulary"].get<std::vector<std::string>>();
  // Schemas 3 and 4: the file's tables of shared texts and RUVs (shapes
  // checked).
  std::optional<FileTables> Tables;
  if (Version == Schema || Version == SchemaV3) {
    Tables.emplace();
    if (J.contains("strings"))
      Tables->Strings = J["strings"];
    if (J.contains("ruvs"))
      Tables->Ruvs = J["ruvs"];
  }
  for (const json &F : J.at("functions")) {
    if (Version == SchemaV1) {
      S.Functions.push_back(FunctionSeg::fromJSON(F));
      continue;
    }
    const std::string Where = "SEG file at /functions/" + std::to_string(S.Functions.size());
    if (!F.is_object())
      throw std::runtime_error(Where + ": expected an object, got " + F.type_name());
    if (jsonDepth(F) > MaxJsonDepth) // the compact form's walks recurse per level
      throw std::runtime_error(Where + ": nested more than " + std::to_string(MaxJsonDepth) +
                               " levels deep");
    // The compact form is checked as it is expanded and read: an index out of
    // its table is named; a key or value of another type than written is
    // refused with the function and nlohmann-json's account of it.
    try {
      json Copy = F;
      expandTexts(Copy, Vocab ? &*Vocab : nullptr, Tables ? &*Tables : nullptr,
                  Version == Schema);
      S.Functions.push_back(FunctionSeg::fromJSON(Copy));
    } catch (const json::exception &E) {
      auto Name = F.find("name");
      throw std::runtime_error(Where +
                               (Name != F.end() && Name->is_string()
                                    ? " (function " + Name->get<std::string>() + ")"
                                    : std::string()) +
                               ": malformed compact form: " + E.what());
    } catch (const std::runtime_error &E) {
      throw std::runtime_error(Where + ": " + E.what());
    }
  }
  if (J.contains("warnings")) {
    // Schemas 3 and 4: texts (checked here); schemas 1 and 2: strings.
    const json Empty = json::array();
    const json &Strings = Tables ? Tables->Strings : Empty;
    size_t I = 0;
    for (const json &W : J["warnings"]) {
      std::string Where = "SEG file at /warnings/" + std::to_string(I++);
      std::string Text;
      if (Version == Schema && W.is_object()) { // {"node": [function index, node id]}
        auto Fail = [&](const std::string &Msg) { return std::runtime_error(Where + ": " + Msg); };
        auto R = W.find("node");
        if (W.size() != 1 || R == W.end() || !R->is_array() || R->size() != 2 ||
            !(*R)[0].is_number_unsigned() || !(*R)[1].is_string())
          throw Fail(W.dump() + ": expected a text or {\"node\": [function index, node id]}");
        size_t Fn = (*R)[0].get<size_t>();
        if (Fn >= S.Functions.size())
          throw Fail("function index " + std::to_string(Fn) + " out of range (" +
                     std::to_string(S.Functions.size()) + " functions)");
        const FunctionSeg &F = S.Functions[Fn];
        const std::string &Id = (*R)[1].get_ref<const std::string &>();
        const Node *Found = nullptr;
        forEachNode(F.Body, [&](const Node &N) {
          if (!Found && N.Id == Id && N.Kind == NodeKind::Unknown)
            Found = &N;
        });
        if (!Found)
          throw Fail("function '" + F.Name + "' has no Unknown node '" + Id + "'");
        S.Warnings.push_back(unknownNodeWarning(S.SourceFile, F, *Found));
        continue;
      }
      appendText(W, Strings, "the file's \"strings\"", Text,
                 [&](const std::string &Msg) { return std::runtime_error(Where + ": " + Msg); });
      S.Warnings.push_back(std::move(Text));
    }
  }
  if (J.contains("targets"))
    S.Targets = J["targets"].get<std::map<std::string, std::map<std::string, std::string>>>();
  return S;
}

json parseJson(std::istream &In, const std::string &Path) {
  // Nesting is limited while parsing: copying or walking a deeper document
  // (recursive in nlohmann-json and in the readers) would overflow the stack.
  json::parser_callback_t Limit = [&](int Depth, json::parse_event_t, json &) {
    if (Depth > MaxJsonParseDepth)
      throw std::runtime_error(Path + ": invalid JSON: nested more than " +
                               std::to_string(MaxJsonParseDepth) + " levels deep");
    return true;
  };
  try {
    return json::parse(In, Limit);
  } catch (const json::exception &E) { // parse_error; out_of_range: a number too large
    throw std::runtime_error(Path + ": invalid JSON: " + E.what());
  }
}

json readJsonFile(const std::string &Path) {
  std::ifstream In(Path);
  if (!In)
    throw std::runtime_error(Path + ": cannot open file");
  return parseJson(In, Path);
}

SegFile SegFile::read(const std::string &Path) { return readJsonAs<SegFile>(Path); }

const FunctionSeg *SegFile::find(const std::string &Name) const {
  for (const FunctionSeg &F : Functions)
    if (F.Name == Name)
      return &F;
  return nullptr;
}

// ---- Binary image of a SEG in memory (packFunctionSeg) --------------------

namespace {
/// Writes packFunctionSeg's image: unsigned numbers as LEB128, doubles as
/// their 8 bytes, strings and lists with their length first.
struct ImageWriter {
  std::vector<std::uint8_t> Out;
  void num(std::uint64_t V) {
    do {
      std::uint8_t B = V & 0x7f;
      V >>= 7;
      Out.push_back(B | (V ? 0x80 : 0));
    } while (V);
  }
  void real(double D) {
    std::uint8_t B[sizeof D];
    std::memcpy(B, &D, sizeof D);
    Out.insert(Out.end(), B, B + sizeof D);
  }
  void str(const std::string &S) {
    num(S.size());
    Out.insert(Out.end(), S.begin(), S.end());
  }
  void strs(const std::vector<std::string> &V) {
    num(V.size());
    for (const std::string &S : V)
      str(S);
  }
  void range(const SourceRange &R) {
    str(R.File);
    num(R.Line);
    num(R.Col);
    num(R.EndLine);
    num(R.EndCol);
  }
  void nodes(const NodeList &L) {
    num(L.size());
    for (const Node &N : L)
      node(N);
  }
  void node(const Node &N) {
    num(static_cast<unsigned>(N.Kind));
    str(N.Id);
    str(N.Label);
    range(N.Range);
    num(N.Ruvs.size());
    for (auto &[Level, R] : N.Ruvs) {
      str(Level);
      num(R.counts().size());
      for (auto &[Op, V] : R.counts()) {
        str(Op);
        real(V);
      }
    }
    for (const std::string *S : {&N.LoopKind, &N.Index, &N.Start, &N.Step, &N.StepKind, &N.Trip})
      str(*S);
    nodes(N.Body);
    num(N.Arms.size());
    for (const Arm &A : N.Arms) {
      str(A.Label);
      str(A.Prob);
      nodes(A.Body);
    }
    str(N.Callee);
    strs(N.Args);
    for (const std::string *S : {&N.CommOp, &N.Bytes, &N.Peer, &N.Pattern, &N.Root, &N.Reason,
                                 &N.Freq, &N.SourceNode, &N.BranchProb, &N.Footprint,
                                 &N.Traffic})
      str(*S);
    num(N.Streams.size());
    for (const MemStream &M : N.Streams) {
      str(M.Base);
      num(M.Load | M.Store << 1);
      num(M.Size);
      strs(M.Offsets);
      num(M.Loops.size());
      for (const MemStream::Step &S : M.Loops)
        for (const std::string *X : {&S.Loop, &S.Stride, &S.Trip, &S.Index})
          str(*X);
    }
    strs(N.MemoryNotes);
    str(N.Chain);
  }
};

/// Reads ImageWriter's image; throws if it ends early.
struct ImageReader {
  const std::vector<std::uint8_t> &In;
  size_t Pos = 0;
  void need(size_t N) const {
    if (In.size() - Pos < N)
      throw std::runtime_error("SEG image: truncated at byte " + std::to_string(Pos) + " of " +
                               std::to_string(In.size()));
  }
  std::uint64_t num() {
    std::uint64_t V = 0;
    for (unsigned Shift = 0;; Shift += 7) {
      need(1);
      std::uint8_t B = In[Pos++];
      if (Shift > 63)
        throw std::runtime_error("SEG image: number too long at byte " + std::to_string(Pos));
      V |= std::uint64_t(B & 0x7f) << Shift;
      if (!(B & 0x80))
        return V;
    }
  }
  unsigned u32() {
    std::uint64_t V = num();
    if (V > UINT32_MAX)
      throw std::runtime_error("SEG image: number out of range at byte " + std::to_string(Pos));
    return static_cast<unsigned>(V);
  }
  double real() {
    double D;
    need(sizeof D);
    std::memcpy(&D, In.data() + Pos, sizeof D);
    Pos += sizeof D;
    return D;
  }
  std::string str() {
    std::uint64_t N = num();
    need(N);
    std::string S(reinterpret_cast<const char *>(In.data() + Pos), N);
    Pos += N;
    return S;
  }
  /// A count of items that take at least a byte each.
  size_t count() {
    std::uint64_t N = num();
    need(N);
    return N;
  }
  std::vector<std::string> strs() {
    std::vector<std::string> V(count());
    for (std::string &S : V)
      S = str();
    return V;
  }
  SourceRange range() {
    SourceRange R;
    R.File = str();
    R.Line = u32();
    R.Col = u32();
    R.EndLine = u32();
    R.EndCol = u32();
    return R;
  }
  NodeList nodes() {
    NodeList L(count());
    for (Node &N : L)
      node(N);
    return L;
  }
  void node(Node &N) {
    std::uint64_t K = num();
    if (K > static_cast<unsigned>(NodeKind::Unknown))
      throw std::runtime_error("SEG image: node kind " + std::to_string(K) + " at byte " +
                               std::to_string(Pos));
    N.Kind = static_cast<NodeKind>(K);
    N.Id = str();
    N.Label = str();
    N.Range = range();
    for (size_t I = 0, E = count(); I < E; ++I) {
      Ruv &R = N.Ruvs.emplace_hint(N.Ruvs.end(), str(), Ruv())->second;
      for (size_t J = 0, EJ = count(); J < EJ; ++J) {
        std::string Op = str();
        R.set(Op, real());
      }
    }
    for (std::string *S : {&N.LoopKind, &N.Index, &N.Start, &N.Step, &N.StepKind, &N.Trip})
      *S = str();
    N.Body = nodes();
    N.Arms.resize(count());
    for (Arm &A : N.Arms) {
      A.Label = str();
      A.Prob = str();
      A.Body = nodes();
    }
    N.Callee = str();
    N.Args = strs();
    for (std::string *S : {&N.CommOp, &N.Bytes, &N.Peer, &N.Pattern, &N.Root, &N.Reason, &N.Freq,
                           &N.SourceNode, &N.BranchProb, &N.Footprint, &N.Traffic})
      *S = str();
    N.Streams.resize(count());
    for (MemStream &M : N.Streams) {
      M.Base = str();
      std::uint64_t LS = num();
      M.Load = LS & 1;
      M.Store = LS & 2;
      M.Size = u32();
      M.Offsets = strs();
      M.Loops.resize(count());
      for (MemStream::Step &S : M.Loops)
        for (std::string *X : {&S.Loop, &S.Stride, &S.Trip, &S.Index})
          *X = str();
    }
    N.MemoryNotes = strs();
    N.Chain = str();
  }
  void end() const {
    if (Pos != In.size())
      throw std::runtime_error("SEG image: " + std::to_string(In.size() - Pos) +
                               " byte(s) after its end");
  }
};
} // namespace

std::vector<std::uint8_t> packNodes(const NodeList &L) {
  ImageWriter W;
  W.nodes(L);
  return std::move(W.Out);
}

NodeList unpackNodes(const std::vector<std::uint8_t> &Image) {
  ImageReader R{Image};
  NodeList L = R.nodes();
  R.end();
  return L;
}

std::vector<std::uint8_t> packFunctionSeg(const FunctionSeg &F) {
  ImageWriter W;
  W.str(F.Name);
  W.range(F.Range);
  W.strs(F.Params);
  W.num(F.Parameters.size());
  for (const Parameter &P : F.Parameters) {
    for (const std::string *S : {&P.Name, &P.Kind, &P.Source, &P.Where, &P.Meaning, &P.TakenAt,
                                 &P.OtherAt, &P.DefaultExpr})
      W.str(*S);
    W.num(P.Default.has_value());
    if (P.Default)
      W.real(*P.Default);
  }
  W.nodes(F.Body);
  W.num(F.InMainFile | F.Static << 1);
  W.num(F.LevelSegs.size());
  for (auto &[K, L] : F.LevelSegs) {
    W.str(K);
    W.nodes(L);
  }
  return std::move(W.Out);
}

FunctionSeg unpackFunctionSeg(const std::vector<std::uint8_t> &Image) {
  ImageReader R{Image};
  FunctionSeg F;
  F.Name = R.str();
  F.Range = R.range();
  F.Params = R.strs();
  F.Parameters.resize(R.count());
  for (Parameter &P : F.Parameters) {
    for (std::string *S : {&P.Name, &P.Kind, &P.Source, &P.Where, &P.Meaning, &P.TakenAt,
                           &P.OtherAt, &P.DefaultExpr})
      *S = R.str();
    if (R.num())
      P.Default = R.real();
  }
  F.Body = R.nodes();
  std::uint64_t Flags = R.num();
  F.InMainFile = Flags & 1;
  F.Static = Flags & 2;
  for (size_t I = 0, E = R.count(); I < E; ++I) {
    std::string K = R.str();
    F.LevelSegs[K] = R.nodes();
  }
  R.end();
  return F;
}

} // namespace segtime
