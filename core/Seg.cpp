//===- Seg.cpp - SEG data model and its JSON form -------------------------===//
#include "core/Seg.h"

#include <algorithm>
#include <cctype>
#include <cmath>
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

/// A compact range's file slot (the last of 3 or 5 elements), or nullptr.
json *rangeFile(json &R) {
  return R.is_array() && (R.size() == 3 || R.size() == 5) ? &R.back() : nullptr;
}

/// Node fields whose value is a text (a string in schema 1).
const char *const NodeTexts[] = {"label", "freq", "source_node", "branch_prob", "footprint_B",
                                 "traffic_B", "chain", "loop", "index", "start", "step",
                                 "step_kind", "trip", "callee", "op", "bytes", "peer",
                                 "pattern", "root", "reason", "kind"};
const char *const ParameterTexts[] = {"name", "kind", "source", "where", "meaning", "taken_at",
                                      "other_at"};

/// Calls Fn(Slot) on each text slot of object J named in Keys.
template <typename Keys, typename F> void textFields(json &J, const Keys &Ks, F &Fn) {
  for (const char *K : Ks) {
    auto It = J.find(K);
    if (It != J.end())
      Fn(*It);
  }
}

template <typename F> void textsOfList(json &L, F &Fn);

/// Calls Fn(Slot) on every text slot of node N in compact form (fields,
/// range file, RUV operation names, streams, arms), depth first.
template <typename F> void textsOfNode(json &N, F &Fn) {
  textFields(N, NodeTexts, Fn);
  for (const char *K : {"args", "memory_notes"}) {
    auto It = N.find(K);
    if (It != N.end())
      for (json &E : *It)
        Fn(E);
  }
  auto R = N.find("range");
  if (R != N.end())
    if (json *File = rangeFile(*R))
      Fn(*File);
  auto Ruvs = N.find("ruv");
  if (Ruvs != N.end())
    for (json &Level : *Ruvs)
      if (Level.is_array())
        for (size_t I = 0; I < Level.size(); I += 2)
          Fn(Level[I]);
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
  auto Body = N.find("body");
  if (Body != N.end())
    textsOfList(*Body, Fn);
  auto Arms = N.find("arms");
  if (Arms != N.end())
    for (json &A : *Arms) {
      textFields(A, std::initializer_list<const char *>{"label", "prob"}, Fn);
      if (A.contains("body"))
        textsOfList(A["body"], Fn);
    }
}

template <typename F> void textsOfList(json &L, F &Fn) {
  for (json &N : L)
    textsOfNode(N, Fn);
}

/// Every text slot of a function's JSON: its range file, parameters, SEG and
/// level SEGs (not its name and formal parameters).
template <typename F> void textsOfFunction(json &J, F &Fn) {
  auto R = J.find("range");
  if (R != J.end())
    if (json *File = rangeFile(*R))
      Fn(*File);
  if (J.contains("parameters"))
    for (json &P : J["parameters"])
      textFields(P, ParameterTexts, Fn);
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

/// [line, col, end_line, end_col, file]; the end is left out if it is the
/// start, the file if it is DefaultFile (the function's).
json compactRange(const SourceRange &R, const std::string *DefaultFile) {
  json J = json::array({R.Line, R.Col});
  if (R.EndLine != R.Line || R.EndCol != R.Col) {
    J.push_back(R.EndLine);
    J.push_back(R.EndCol);
  }
  if (!DefaultFile || R.File != *DefaultFile)
    J.push_back(R.File);
  return J;
}



/// Schema 1's layout of node N turned into schema 2's: range as an array,
/// RUVs as [op, count, ...], no "kind": "Stage" and no "step_kind": "add".
void compactNodeLayout(const Node &N, json &J, const std::string &File);

void compactListLayout(const NodeList &L, json &J, const std::string &File) {
  for (size_t I = 0; I < L.size(); ++I)
    compactNodeLayout(L[I], J[I], File);
}

void compactNodeLayout(const Node &N, json &J, const std::string &File) {
  J["range"] = compactRange(N.Range, &File);
  if (N.Kind == NodeKind::Stage)
    J.erase("kind");
  if (N.Kind == NodeKind::Loop && N.StepKind == "add")
    J.erase("step_kind");
  if (!N.Ruvs.empty()) {
    json &R = J["ruv"];
    for (auto &[Level, V] : N.Ruvs) {
      json Pairs = json::array();
      for (auto &[Op, Count] : V.counts()) {
        Pairs.push_back(Op);
        Pairs.push_back(countJSON(Count));
      }
      R[Level] = std::move(Pairs);
    }
  }
  if (N.Kind == NodeKind::Loop)
    compactListLayout(N.Body, J["body"], File);
  for (size_t I = 0; I < N.Arms.size(); ++I)
    compactListLayout(N.Arms[I].Body, J["arms"][I]["body"], File);
}

template <typename F> void nodesOfList(json &L, F &Fn) {
  for (json &N : L) {
    Fn(N);
    auto Body = N.find("body");
    if (Body != N.end())
      nodesOfList(*Body, Fn);
    auto Arms = N.find("arms");
    if (Arms != N.end())
      for (json &A : *Arms)
        if (A.contains("body"))
          nodesOfList(A["body"], Fn);
  }
}

/// Fn(Node) on every node of a function's JSON, parents first.
template <typename F> void nodesOfFunction(json &J, F &Fn) {
  if (J.contains("seg"))
    nodesOfList(J["seg"], Fn);
  if (J.contains("level_segs"))
    for (json &L : J["level_segs"])
      nodesOfList(L, Fn);
}

/// Writes each "ruv" that occurs twice or more in the function once, in
/// J["ruvs"], and the nodes' "ruv" as its index there.
void shareRuvs(json &J) {
  std::unordered_map<std::string, std::pair<size_t, size_t>> Uses; // text -> count, first
  std::vector<std::pair<json *, std::string>> Slots;
  auto Count = [&](json &N) {
    auto R = N.find("ruv");
    if (R == N.end())
      return;
    std::string Text = R->dump();
    auto &U = Uses[Text];
    if (!U.first++)
      U.second = Uses.size();
    Slots.emplace_back(&*R, std::move(Text));
  };
  nodesOfFunction(J, Count);
  std::vector<std::pair<size_t, size_t>> Order; // count, first of the shared ones
  std::unordered_map<size_t, const std::string *> ByFirst;
  for (auto &[Text, U] : Uses)
    if (U.first >= 2) {
      Order.push_back(U);
      ByFirst[U.second] = &Text;
    }
  if (Order.empty())
    return;
  std::sort(Order.begin(), Order.end(),
            [](auto &A, auto &B) { return A.first != B.first ? A.first > B.first : A.second < B.second; });
  std::unordered_map<std::string_view, size_t> Index;
  json Table = json::array();
  for (auto &[C, First] : Order) {
    Index[*ByFirst[First]] = Table.size();
    Table.push_back(json::parse(*ByFirst[First]));
  }
  for (auto &[Slot, Text] : Slots) {
    auto It = Index.find(Text);
    if (It != Index.end())
      *Slot = It->second;
  }
  J["ruvs"] = std::move(Table);
}

/// The pieces a text is cut into for sharing: before each '*' outside
/// parentheses (the factors of a product: a frequency repeats the
/// conditions of the branches above it), and before a final ":LINE" or
/// ":LINE:COL" (a parameter's "where" repeats the file name). The pieces
/// concatenated are the text.
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
  for (size_t K = 0; K < End; ++K) {
    char C = S[K];
    if (C == '(')
      ++Depth;
    else if (C == ')')
      --Depth;
    // before a product's factor, and before and after a quoted name
    // ("call to external function 'f' (no body ...)")
    if (((C == '*' && Depth == 0) || C == '\'') && K > From) {
      Out.push_back(S.substr(From, K - From));
      From = K;
    }
  }
  Out.push_back(S.substr(From, End - From));
  if (End < S.size())
    Out.push_back(S.substr(End));
  return Out;
}

size_t digits(size_t N) { return N < 10 ? 1 : 1 + digits(N / 10); }

} // namespace

json FunctionSeg::toCompactJSON() const {
  json J = toJSON();
  J["range"] = compactRange(Range, nullptr);
  compactListLayout(Body, J["seg"], Range.File);
  for (auto &[K, L] : LevelSegs)
    compactListLayout(L, J["level_segs"][K], Range.File);
  // Pieces worth sharing: those whose copies cost more bytes than an entry
  // in the table and an index per use; most used first.
  struct Use {
    size_t Count = 0, First = 0;
  };
  std::unordered_map<std::string_view, Use> Uses;
  auto Count = [&](json &Slot) {
    for (std::string_view P : pieces(Slot.get_ref<const std::string &>())) {
      Use &U = Uses[P];
      if (!U.Count++)
        U.First = Uses.size();
    }
  };
  textsOfFunction(J, Count);
  std::vector<std::pair<std::string_view, Use>> Shared;
  size_t IndexDigits = digits(Uses.size());
  for (auto &[P, U] : Uses)
    if (U.Count >= 2 && U.Count * (P.size() + 2) > P.size() + 3 + U.Count * IndexDigits)
      Shared.emplace_back(P, U);
  std::sort(Shared.begin(), Shared.end(), [](const auto &A, const auto &B) {
    return A.second.Count != B.second.Count ? A.second.Count > B.second.Count
                                            : A.second.First < B.second.First;
  });
  if (Shared.empty()) {
    shareRuvs(J);
    return J;
  }
  std::unordered_map<std::string_view, size_t> Index;
  json Strings = json::array();
  for (size_t I = 0; I < Shared.size(); ++I) {
    Index[Shared[I].first] = I;
    Strings.push_back(std::string(Shared[I].first));
  }
  // The views point into J's strings: collect the new slots before
  // replacing any.
  std::vector<std::pair<json *, json>> Encoded;
  auto Encode = [&](json &Slot) {
    const std::string &S = Slot.get_ref<const std::string &>();
    std::vector<std::string_view> Ps = pieces(S);
    json Parts = json::array();
    bool Any = false;
    for (std::string_view P : Ps) {
      auto It = Index.find(P);
      if (It != Index.end()) {
        Parts.push_back(It->second);
        Any = true;
      } else if (!Parts.empty() && Parts.back().is_string()) {
        Parts.back().get_ref<std::string &>() += P;
      } else {
        Parts.push_back(std::string(P));
      }
    }
    if (Any)
      Encoded.emplace_back(&Slot, Parts.size() == 1 ? std::move(Parts[0]) : std::move(Parts));
  };
  textsOfFunction(J, Encode);
  for (auto &[Slot, V] : Encoded)
    *Slot = std::move(V);
  J["strings"] = std::move(Strings);
  shareRuvs(J);
  return J;
}

/// A function in compact form with its shared RUVs and texts written out
/// and the file of every range given.
static void expandTexts(json &J) {
  auto SharedRuvs = J.find("ruvs");
  if (SharedRuvs != J.end()) {
    const json Ruvs = std::move(*SharedRuvs);
    J.erase("ruvs");
    auto Unshare = [&](json &N) {
      auto R = N.find("ruv");
      if (R == N.end() || !R->is_number())
        return;
      size_t I = R->get<size_t>();
      if (!R->is_number_unsigned() || I >= Ruvs.size())
        throw std::runtime_error("function '" + J.value("name", "") + "': RUV index " +
                                 R->dump() + " out of range (" + std::to_string(Ruvs.size()) +
                                 " shared RUVs)");
      *R = Ruvs[I];
    };
    nodesOfFunction(J, Unshare);
  }
  json Strings = json::array();
  auto S = J.find("strings");
  if (S != J.end()) {
    Strings = std::move(*S);
    J.erase("strings");
  }
  std::function<void(const json &, std::string &)> Append = [&](const json &T,
                                                                std::string &Out) {
    if (T.is_string()) {
      Out += T.get_ref<const std::string &>();
    } else if (T.is_number_unsigned()) {
      size_t I = T.get<size_t>();
      if (I >= Strings.size())
        throw std::runtime_error("function '" + J.value("name", "") + "': string index " +
                                 std::to_string(I) + " out of range (" +
                                 std::to_string(Strings.size()) + " strings)");
      Out += Strings[I].get_ref<const std::string &>();
    } else if (T.is_array()) {
      for (const json &E : T)
        Append(E, Out);
    } else {
      throw std::runtime_error("function '" + J.value("name", "") + "': " + T.dump() +
                               " is not a text (string, string index or array of them)");
    }
  };
  auto Expand = [&](json &Slot) {
    if (Slot.is_string())
      return;
    std::string Text;
    Append(Slot, Text);
    Slot = std::move(Text);
  };
  textsOfFunction(J, Expand);
  // Ranges without a file are in the function's.
  auto FR = J.find("range");
  std::string File = FR != J.end() && FR->is_array() && rangeFile(*FR) ? rangeFile(*FR)->get<std::string>() : "";
  auto AddFile = [&](json &N) {
    auto R = N.find("range");
    if (R != N.end() && R->is_array() && !rangeFile(*R))
      R->push_back(File);
  };
  nodesOfFunction(J, AddFile);
}

// The compact dump of the document: {"functions":[F1,F2,...],HEADER} where
// the header's keys all sort after "functions".
void SegFileWriter::add(const FunctionSeg &F) {
  std::string Text = Any ? "," : "{\"functions\":[";
  Text += F.toCompactJSON().dump();
  Any = true;
  Out(Text);
}

void SegFileWriter::finish(const SegFile &Rest) {
  Out(Any ? "]," : "{\"functions\":[],");
  json Header = headerJSON(Rest);
  Header["schema"] = SegFile::Schema;
  Out(Header.dump().substr(1) + "\n"); // without "{"
}

json SegFile::toCompactJSON() const {
  json Fs = json::array();
  for (const FunctionSeg &F : Functions)
    Fs.push_back(F.toCompactJSON());
  json J = headerJSON(*this);
  J["schema"] = Schema;
  J["functions"] = std::move(Fs);
  return J;
}

SegFile SegFile::fromJSON(const json &J) {
  std::string Version = J.is_object() ? J.value("schema", "") : "";
  if (Version != Schema && Version != SchemaV1)
    throw std::runtime_error(std::string("not a SEG file of a known version (expected \"schema\": \"") +
                             Schema + "\" or \"" + SchemaV1 + "\"" +
                             (Version.empty() ? std::string() : ", found \"" + Version + "\"") +
                             ")");
  SegFile S;
  S.SourceFile = J.value("source", "");
  S.OptLevel = J.value("opt_level", "");
  for (const json &F : J.at("functions")) {
    if (Version == SchemaV1) {
      S.Functions.push_back(FunctionSeg::fromJSON(F));
      continue;
    }
    json Copy = F;
    expandTexts(Copy);
    S.Functions.push_back(FunctionSeg::fromJSON(Copy));
  }
  S.Warnings = J.value("warnings", std::vector<std::string>{});
  if (J.contains("targets"))
    S.Targets = J["targets"].get<std::map<std::string, std::map<std::string, std::string>>>();
  return S;
}

json readJsonFile(const std::string &Path) {
  std::ifstream In(Path);
  if (!In)
    throw std::runtime_error(Path + ": cannot open file");
  try {
    return json::parse(In);
  } catch (const json::parse_error &E) {
    throw std::runtime_error(Path + ": invalid JSON: " + E.what());
  }
}

SegFile SegFile::read(const std::string &Path) { return readJsonAs<SegFile>(Path); }

const FunctionSeg *SegFile::find(const std::string &Name) const {
  for (const FunctionSeg &F : Functions)
    if (F.Name == Name)
      return &F;
  return nullptr;
}

} // namespace segtime
