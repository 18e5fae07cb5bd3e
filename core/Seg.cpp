//===- Seg.cpp - SEG data model and its expanded JSON form (schema 1) -----===//
///
/// \file
/// The SEG data model's own JSON (schema 1, the expanded form: toJSON and
/// fromJSON of RUVs, ranges, nodes, streams, parameters, functions and the
/// file's header) and reading a JSON file. The compact form the plugin
/// writes is in SegCompact.cpp, its reader in SegExpand.cpp, the in-memory
/// binary image in SegImage.cpp.
///
//===----------------------------------------------------------------------===//
#include "core/JsonShape.h"
#include "core/Seg.h"
#include "core/SegCompactForm.h"

#include <cmath>
#include <fstream>
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

/// A node's text fields written only when not empty, with their JSON keys.
static const std::pair<std::string Node::*, const char *> OptionalTexts[] = {
    {&Node::Label, "label"},           {&Node::Freq, "freq"},
    {&Node::SourceNode, "source_node"}, {&Node::BranchProb, "branch_prob"},
    {&Node::Footprint, "footprint_B"}, {&Node::Traffic, "traffic_B"},
    {&Node::Chain, "chain"}};

/// A loop's text fields, always written, with their JSON keys.
static const std::pair<std::string Node::*, const char *> LoopTexts[] = {
    {&Node::LoopKind, "loop"}, {&Node::Index, "index"},        {&Node::Start, "start"},
    {&Node::Step, "step"},     {&Node::StepKind, "step_kind"}, {&Node::Trip, "trip"}};

static json listToJSON(const NodeList &L) { return toJSONArray(L); }

static NodeList listFromJSON(const json &J) {
  NodeList L;
  for (const json &E : J)
    L.push_back(Node::fromJSON(E));
  return L;
}

json Node::toJSON() const {
  json J = {{"id", Id}, {"kind", nodeKindName(Kind)}, {"range", Range.toJSON()}};
  for (const auto &[Field, Key] : OptionalTexts)
    if (!(this->*Field).empty())
      J[Key] = this->*Field;
  for (const MemStream &M : Streams)
    J["streams"].push_back(M.toJSON());
  if (!MemoryNotes.empty())
    J["memory_notes"] = MemoryNotes;
  if (!Ruvs.empty()) {
    json R = json::object();
    for (auto &[L, V] : Ruvs)
      R[L] = V.toJSON();
    J["ruv"] = std::move(R);
  }
  switch (Kind) {
  case NodeKind::Loop:
    for (const auto &[Field, Key] : LoopTexts)
      J[Key] = this->*Field;
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
  if (J.contains("range"))
    N.Range = SourceRange::fromJSON(J["range"]);
  if (J.contains("ruv"))
    for (auto It = J["ruv"].begin(); It != J["ruv"].end(); ++It)
      N.Ruvs[It.key()] = Ruv::fromJSON(It.value());
  for (const auto &[Field, Key] : LoopTexts)
    N.*Field = J.value(Key, "");
  if (!J.contains("step_kind"))
    N.StepKind = "add";
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
  for (const auto &[Field, Key] : OptionalTexts)
    N.*Field = J.value(Key, "");
  if (J.contains("streams"))
    for (const json &M : J.at("streams"))
      N.Streams.push_back(MemStream::fromJSON(M));
  N.MemoryNotes = J.value("memory_notes", std::vector<std::string>{});
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

std::pair<std::string, double> parseParamAssignment(const std::string &KV) {
  size_t Eq = KV.find('=');
  if (Eq == std::string::npos || Eq == 0)
    throw std::runtime_error("-p expects NAME=VALUE, got '" + KV + "'");
  double V = 0;
  try {
    size_t Used = 0;
    V = std::stod(KV.substr(Eq + 1), &Used);
    if (Used != KV.size() - Eq - 1)
      throw std::invalid_argument("");
  } catch (const std::exception &) {
    throw std::runtime_error("-p " + KV + ": '" + KV.substr(Eq + 1) + "' is not a number");
  }
  // stod reads "nan" and "inf": a value must be a finite number (the range
  // of each parameter is checked against the SEG file, predict()).
  if (!std::isfinite(V))
    throw std::runtime_error("-p " + KV + ": parameter '" + KV.substr(0, Eq) +
                             "' must be a finite number, got '" + KV.substr(Eq + 1) + "'");
  return {KV.substr(0, Eq), V};
}

json FunctionSeg::toJSON() const {
  json J = {{"name", Name},         {"range", Range.toJSON()},
            {"params", Params},     {"parameters", toJSONArray(Parameters)},
            {"in_main_file", InMainFile}, {"seg", listToJSON(Body)}};
  if (Static)
    J["static"] = true;
  for (auto &[K, L] : LevelSegs)
    J["level_segs"][K] = listToJSON(L);
  if (!InlinedAt.empty())
    J["inlined_at"] = InlinedRef::listToJSON(InlinedAt);
  return J;
}

json InlinedRef::toJSON() const {
  return {{"caller", Caller}, {"nodes", Nodes}, {"where", Where}};
}

json InlinedRef::listToJSON(const std::vector<InlinedRef> &L) {
  json A = json::array();
  for (const InlinedRef &R : L)
    A.push_back(R.toJSON());
  return A;
}

InlinedRef InlinedRef::fromJSON(const json &J) {
  InlinedRef R;
  R.Caller = J.at("caller").get<std::string>();
  R.Where = J.value("where", "");
  R.Nodes = J.at("nodes").get<std::vector<std::string>>();
  return R;
}

const NodeList &FunctionSeg::bodyFor(const std::string &LevelKey) const {
  Level L;
  if (parseLevel(LevelKey.substr(0, LevelKey.find(':')), L) && irLevel(L)) {
    auto It = LevelSegs.find(IrSegKey);
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
  if (J.contains("inlined_at"))
    for (const json &R : J["inlined_at"])
      F.InlinedAt.push_back(InlinedRef::fromJSON(R));
  return F;
}

json compact::headerJSON(const SegFile &S) {
  json J = {{"schema", SegFile::SchemaV1},
            {"source", S.SourceFile},
            {"opt_level", S.OptLevel},
            {"warnings", S.Warnings}};
  if (!S.Targets.empty())
    J["targets"] = S.Targets;
  return J;
}

json SegFile::toJSON() const {
  json J = compact::headerJSON(*this);
  J["functions"] = toJSONArray(Functions);
  return J;
}

std::string unknownNodeWarning(const std::string &Source, const FunctionSeg &F, const Node &N) {
  return Source + ":" + std::to_string(N.Range.Line) + ": segtime: not characterised: " + N.Reason +
         " (SEG node " + N.Id + " in '" + F.Name + "')";
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
  return findByName(Functions, Name);
}

} // namespace segtime
