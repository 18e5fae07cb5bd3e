//===- JsonShape.cpp - Shape checks of the SEG and CT JSON files ----------===//
#include "core/JsonShape.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using json = nlohmann::json;

namespace segtime {

namespace {

/// What a value must be.
enum class Want { String, Count, Number, NonNeg, Bool, Array, Object, StringArray, StringOrNumber, OptNonNeg };

const char *wantText(Want W) {
  switch (W) {
  case Want::String: return "a string";
  case Want::Count: return "a whole number >= 0";
  case Want::Number: return "a finite number";
  case Want::NonNeg: return "a number >= 0";
  case Want::Bool: return "true or false";
  case Want::Array: return "a list";
  case Want::Object: return "an object";
  case Want::StringArray: return "a list of strings";
  case Want::StringOrNumber: return "a number, an expression string or null";
  case Want::OptNonNeg: return "a number >= 0 or null";
  }
  return "";
}

bool finiteNumber(const json &V) { return V.is_number() && std::isfinite(V.get<double>()); }

bool fits(const json &V, Want W) {
  switch (W) {
  case Want::String: return V.is_string();
  case Want::Count: return V.is_number_unsigned() || (V.is_number_integer() && V.get<long long>() >= 0);
  case Want::Number: return finiteNumber(V);
  case Want::NonNeg: return finiteNumber(V) && V.get<double>() >= 0;
  case Want::Bool: return V.is_boolean();
  case Want::Array: return V.is_array();
  case Want::Object: return V.is_object();
  case Want::StringArray:
    if (!V.is_array())
      return false;
    for (const json &E : V)
      if (!E.is_string())
        return false;
    return true;
  case Want::StringOrNumber: return V.is_string() || V.is_null() || finiteNumber(V);
  case Want::OptNonNeg: return V.is_null() || (finiteNumber(V) && V.get<double>() >= 0);
  }
  return false;
}

/// The walk's position: the JSON path and the function and node it is in.
class Checker {
public:
  explicit Checker(const char *What) : What(What) {}

  [[noreturn]] void fail(const std::string &Msg) const {
    std::string Where = Path.empty() ? "/" : Path;
    if (Where.size() > 160) // a deep nest: its start and end
      Where = Where.substr(0, 60) + "/.../" + Where.substr(Where.size() - 60);
    std::string Ctx;
    if (!Function.empty())
      Ctx = "function " + Function;
    if (!NodeId.empty())
      Ctx += (Ctx.empty() ? "" : ", ") + std::string("node ") + NodeId;
    throw std::runtime_error(std::string(What) + " at " + Where + (Ctx.empty() ? "" : " (" + Ctx + ")") +
                             ": " + Msg);
  }

  /// J must be an object; each Keys[i] present must fit Wants[i]; Required
  /// ones must be present.
  void keys(const json &J, std::initializer_list<std::pair<const char *, Want>> Keys,
            std::initializer_list<const char *> Required = {}) {
    if (!J.is_object())
      fail(std::string("expected an object, got ") + J.type_name());
    for (const char *R : Required)
      if (!J.contains(R))
        fail(std::string("missing \"") + R + "\"");
    for (auto &[K, W] : Keys) {
      auto It = J.find(K);
      if (It == J.end())
        continue;
      if (!fits(*It, W))
        fail(std::string("\"") + K + "\" must be " + wantText(W) + ", got " + text(*It));
    }
  }

  /// J's members are objects (Shape, e.g. "{operation: count}", names what
  /// they hold): fails at a member that is not one; else calls
  /// Check(key, value) for each entry of each, with the member in the path.
  template <typename F> void tableOf(const json &J, const char *Shape, F &&Check) {
    for (auto &[Name, Table] : J.items())
      in(Name, [&] {
        if (!Table.is_object())
          fail(std::string("expected an object ") + Shape);
        for (auto &[K, V] : Table.items())
          Check(K, V);
      });
  }

  /// Runs Fn with the path extended by Key (a member name or an index).
  /// Raw: Key is a path of several steps ("loops/0"), not escaped.
  template <typename F> void in(const std::string &Key, F &&Fn, bool Raw = false) {
    size_t Len = Path.size();
    Path += "/" + (Raw ? Key : escape(Key));
    if (++Depth > MaxJsonDepth)
      fail("nested more than " + std::to_string(MaxJsonDepth) + " levels deep");
    Fn();
    --Depth;
    Path.resize(Len);
  }

  /// Runs Fn(E) for each element E of the array A, with the path extended
  /// by E's index.
  template <typename F> void items(const json &A, F &&Fn) {
    size_t I = 0;
    for (const json &E : A)
      in(std::to_string(I++), [&] { Fn(E); });
  }

  std::string Function, NodeId;

private:
  static std::string escape(const std::string &K) {
    std::string R;
    for (char C : K)
      R += C == '~' ? "~0" : C == '/' ? "~1" : std::string(1, C);
    return R;
  }
  static std::string text(const json &V) {
    std::string D = V.dump();
    if (D.size() > 40)
      D = D.substr(0, 40) + "...";
    return std::string(V.type_name()) + " " + D;
  }
  const char *What;
  std::string Path;
  int Depth = 0;
};

void checkRange(Checker &C, const json &J) {
  C.keys(J, {{"file", Want::String}, {"line", Want::Count}, {"col", Want::Count},
             {"end_line", Want::Count}, {"end_col", Want::Count}});
}

void checkList(Checker &C, const json &L);

void checkNode(Checker &C, const json &N) {
  C.keys(N, {{"kind", Want::String}, {"id", Want::String}}, {"kind", "id"});
  std::string Saved = C.NodeId;
  C.NodeId = N["id"].get<std::string>();
  const std::string Kind = N["kind"].get<std::string>();
  static const char *Kinds[] = {"Stage", "Loop", "Branch", "Call", "Comm", "Unknown"};
  if (std::none_of(std::begin(Kinds), std::end(Kinds), [&](const char *K) { return Kind == K; }))
    C.fail("unknown node kind '" + Kind + "' (expected Stage, Loop, Branch, Call, Comm, Unknown)");
  C.keys(N, {{"label", Want::String}, {"range", Want::Object}, {"ruv", Want::Object},
             {"loop", Want::String}, {"index", Want::String}, {"start", Want::String},
             {"step", Want::String}, {"step_kind", Want::String}, {"trip", Want::String},
             {"body", Want::Array}, {"arms", Want::Array}, {"callee", Want::String},
             {"args", Want::StringArray}, {"reason", Want::String}, {"op", Want::String},
             {"bytes", Want::String}, {"peer", Want::String}, {"pattern", Want::String},
             {"root", Want::String}, {"freq", Want::String}, {"source_node", Want::String},
             {"branch_prob", Want::String}, {"footprint_B", Want::String},
             {"traffic_B", Want::String}, {"streams", Want::Array},
             {"memory_notes", Want::StringArray}, {"chain", Want::String}});
  if (Kind == "Loop")
    C.keys(N, {}, {"trip"});
  else if (Kind == "Branch")
    C.keys(N, {}, {"arms"});
  else if (Kind == "Call")
    C.keys(N, {}, {"callee"});
  else if (Kind == "Comm")
    C.keys(N, {}, {"op", "pattern"});
  if (N.contains("range"))
    C.in("range", [&] { checkRange(C, N["range"]); });
  if (N.contains("ruv"))
    C.in("ruv", [&] {
      C.tableOf(N["ruv"], "{operation: count}", [&](const std::string &Op, const json &V) {
        if (!fits(V, Want::NonNeg))
          C.fail("count of '" + Op + "' must be a number >= 0, got " + V.dump());
      });
    });
  if (N.contains("body"))
    C.in("body", [&] { checkList(C, N["body"]); });
  if (N.contains("arms"))
    C.in("arms", [&] {
      C.items(N["arms"], [&](const json &A) {
        C.keys(A, {{"label", Want::String}, {"prob", Want::String}, {"body", Want::Array}},
               {"prob", "body"});
        C.in("body", [&] { checkList(C, A["body"]); });
      });
    });
  if (N.contains("streams"))
    C.in("streams", [&] {
      C.items(N["streams"], [&](const json &S) {
        C.keys(S, {{"base", Want::String}, {"load", Want::Bool}, {"store", Want::Bool},
                   {"size_B", Want::Count}, {"offsets_B", Want::StringArray},
                   {"loops", Want::Array}},
               {"size_B", "loops"});
        size_t J = 0;
        for (const json &L : S["loops"])
          C.in("loops/" + std::to_string(J++), [&] {
            C.keys(L, {{"loop", Want::String}, {"stride_B", Want::String},
                       {"trip", Want::String}, {"index", Want::String}},
                   {"loop", "stride_B", "trip"});
          }, true);
      });
    });
  C.NodeId = Saved;
}

void checkList(Checker &C, const json &L) {
  if (!L.is_array())
    C.fail(std::string("expected a list of nodes, got ") + L.type_name());
  C.items(L, [&](const json &N) { checkNode(C, N); });
}

void checkFunction(Checker &C, const json &F) {
  C.keys(F, {{"name", Want::String}, {"range", Want::Object}, {"params", Want::StringArray},
             {"parameters", Want::Array}, {"in_main_file", Want::Bool}, {"static", Want::Bool},
             {"seg", Want::Array},
             {"level_segs", Want::Object}, {"inlined_at", Want::Array}},
         {"name", "seg"});
  C.Function = F["name"].get<std::string>();
  if (F.contains("range"))
    C.in("range", [&] { checkRange(C, F["range"]); });
  if (F.contains("parameters"))
    C.in("parameters", [&] {
      C.items(F["parameters"], [&](const json &P) {
        C.keys(P, {{"name", Want::String}, {"kind", Want::String},
                   {"default", Want::StringOrNumber}, {"source", Want::String},
                   {"where", Want::String}, {"meaning", Want::String},
                   {"taken_at", Want::String}, {"other_at", Want::String}},
               {"name"});
        if (P.contains("kind") && P["kind"] == "branch" && P.contains("default") &&
            P["default"].is_number() &&
            (P["default"].get<double>() < 0 || P["default"].get<double>() > 1))
          C.fail("\"default\" of branch probability " + P["name"].get<std::string>() +
                 " must be in [0, 1], got " + P["default"].dump());
      });
    });
  C.in("seg", [&] { checkList(C, F["seg"]); });
  if (F.contains("level_segs"))
    C.in("level_segs", [&] {
      for (auto &[K, L] : F["level_segs"].items())
        C.in(K, [&] { checkList(C, L); });
    });
  C.Function.clear();
}

} // namespace

void checkSegShape(const json &J, bool CheckFunctions) {
  Checker C("SEG file");
  // Schema 3 writes warnings as texts (docs/seg-json.md), checked as they
  // are expanded; its tables must be lists.
  C.keys(J, {{"source", Want::String}, {"opt_level", Want::String},
             {"warnings", CheckFunctions ? Want::StringArray : Want::Array},
             {"functions", Want::Array}, {"targets", Want::Object},
             {"vocabulary", Want::StringArray}, {"strings", Want::StringArray},
             {"ruvs", Want::Array}, {"inlined", Want::Array}},
         {"functions"});
  if (CheckFunctions)
    C.in("functions", [&] {
      C.items(J["functions"], [&](const json &F) { checkFunction(C, F); });
    });
  if (J.contains("targets"))
    C.in("targets", [&] {
      C.tableOf(J["targets"], "{key: string}", [&](const std::string &K, const json &V) {
        if (!V.is_string())
          C.fail("\"" + K + "\" must be a string, got " + V.type_name());
      });
    });
}

void checkCtShape(const json &J) {
  Checker C("CT file");
  C.keys(J, {{"program", Want::String}, {"timer", Want::Object}, {"wall_s", Want::NonNeg},
             {"functions", Want::Array}},
         {"timer", "wall_s", "functions"});
  C.in("timer", [&] {
    const json &T = J["timer"];
    C.keys(T, {{"source", Want::String}, {"hz", Want::NonNeg}, {"hz_source", Want::String},
               {"resolution_s", Want::NonNeg}, {"pair_overhead_s", Want::NonNeg},
               {"nested_pair_s", Want::Object}},
           {"source", "hz", "pair_overhead_s"});
    if (T["hz"].get<double>() <= 0)
      C.fail("\"hz\" (ticks per second) must be > 0, got " + T["hz"].dump());
  });
  C.in("functions", [&] {
    C.items(J["functions"], [&](const json &F) {
      C.keys(F, {{"name", Want::String}, {"file", Want::String}, {"line", Want::Count},
                 {"col", Want::Count}, {"recursive", Want::Bool}, {"calls", Want::Count},
                 {"inclusive_s", Want::NonNeg}, {"exclusive_s", Want::NonNeg},
                 {"raw_inclusive_s", Want::NonNeg}, {"timed_calls", Want::Count},
                 {"nodes", Want::Array}, {"late", Want::Array}},
             {"name", "calls", "inclusive_s", "exclusive_s", "nodes"});
      C.Function = F["name"].get<std::string>();
      const json &Ns = F["nodes"];
      size_t K = 0;
      for (const json &N : Ns)
        C.in("nodes/" + std::to_string(K++), [&] {
          C.NodeId = std::to_string(K - 1);
          C.keys(N, {{"kind", Want::String}, {"file", Want::String}, {"line", Want::Count},
                     {"col", Want::Count}, {"parent", Want::Number},
                     {"end_line", Want::Count}, {"end_col", Want::Count},
                     {"entries", Want::Count}, {"iterations", Want::Count},
                     {"op", Want::String}, {"executions", Want::Count},
                     {"arms", Want::Array}, {"callee", Want::String}, {"count", Want::Count},
                     {"inclusive_s", Want::OptNonNeg}, {"exclusive_s", Want::OptNonNeg},
                     {"seg_id", Want::String}},
                 {"kind", "line", "col"});
          if (N.contains("parent")) {
            double P = N["parent"].get<double>();
            if (P != -1 && (P < 0 || P != std::floor(P) || P >= static_cast<double>(Ns.size()) ||
                            P == static_cast<double>(K - 1)))
              C.fail("\"parent\" must be -1 or the index of another node of the function (0.." +
                     std::to_string(Ns.size() - 1) + "), got " + N["parent"].dump());
          }
          if (N.contains("arms")) {
            size_t A = 0;
            for (const json &X : N["arms"])
              C.in("arms/" + std::to_string(A++), [&] {
                C.keys(X, {{"label", Want::String}, {"count", Want::Count},
                           {"target_line", Want::Count}, {"target_col", Want::Count}},
                       {"count"});
              }, true);
          }
        }, true);
      C.NodeId.clear();
      C.Function.clear();
    });
  });
}

} // namespace segtime
