//===- SegExpand.cpp - Reading the compact .seg.json forms (schemas 2-4) ---===//
///
/// \file
/// SegFile::fromJSON (core/Seg.h): a SEG file of any schema. A function in
/// compact form (schemas 2, 3, 4; docs/seg-json.md) is first expanded into
/// schema 1's layout (shared names, texts and RUVs written out, long keys,
/// absolute ranges, the ids and values left out given back), checking
/// every index into the tables, then read by FunctionSeg::fromJSON.
///
//===----------------------------------------------------------------------===//
#include "core/InlinedLevels.h"
#include "core/JsonShape.h"
#include "core/Seg.h"
#include "core/SegCompactForm.h"

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <utility>

namespace segtime {

using namespace compact;

namespace {

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

/// Schemas 2-4: each RUV that is an index in the shared RUVs (the file's
/// "ruvs", File; else schema 2's "ruvs" of function J) written out.
static void expandRuvs(json &J, const FileTables *File) {
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
}

/// Names that are indices in the file's vocabulary (RUV operations and
/// levels, kinds, loop kinds, arm labels, range files, a parameter's kind,
/// source and, before schema 3, meaning) written out.
static void expandNames(json &J, const std::vector<std::string> &Vocab, const FileTables *File) {
  // RUV names are indices in the file's vocabulary
  auto Name = [&](json &Slot) {
    if (Slot.is_number())
      Slot = entry(Vocab, Slot, J, "name (\"vocabulary\")");
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

/// Texts that are indices in the shared texts (File's "strings", else
/// schema 2's in function J) written out, schema 1's keys, and (schema 4,
/// NodeDefaults) a parameter's "where" that is left out derived.
static void expandStrings(json &J, const FileTables *File, bool NodeDefaults) {
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
}

/// Ranges absolute, ids given, RUVs as objects, and (schema 3) labels,
/// (schema 4, NodeDefaults) the values that are left out given back.
static void expandNodes(json &J, const FileTables *File, bool NodeDefaults) {
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

/// A function in compact form in schema 1's layout: shared RUVs and texts
/// written out, long keys, ranges absolute with their file, ids given.
/// File: schema 3's or 4's tables (else schema 2's, in the function).
/// NodeDefaults (schema 4): a node's range, frequency and source node that
/// are left out are the previous node's, an Unknown call's reason that is
/// left out is externalCallReason.
static void expandTexts(json &J, const std::vector<std::string> *Vocab, const FileTables *File,
                        bool NodeDefaults) {
  expandRuvs(J, File);
  if (Vocab)
    expandNames(J, *Vocab, File);
  expandStrings(J, File, NodeDefaults);
  expandNodes(J, File, NodeDefaults);
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
  if (J.contains("inlined")) // schema 4: the inlined calls' code, by reference
    readInlinedTable(J["inlined"], S);
  return S;
}

} // namespace segtime
