//===- SegCompactForm.h - Layout shared by compact writer and reader -*- C++ -*-===//
///
/// \file
/// Internal to core: what the compact .seg.json forms (schemas 2-4,
/// docs/seg-json.md) have in common between their writer (SegCompact.cpp)
/// and their reader (SegExpand.cpp): the sharing of texts (SegShare.cpp),
/// which fields are texts, the walks over
/// the text slots and the nodes of a function in compact form, the ids that
/// are left out when they count on, and the "where" of a parameter that is
/// derived from the previous one.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_CORE_SEGCOMPACTFORM_H
#define SEGTIME_CORE_SEGCOMPACTFORM_H

#include "core/Seg.h"

#include <cctype>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace segtime {
namespace compact {

/// The file's keys but "functions", schema 1's values (Seg.cpp).
json headerJSON(const SegFile &S);

/// Schema 4's "where" of parameter Name after one whose where is Prev: the
/// file of Prev and the location in Name ("" if either is missing).
std::string derivedWhere(const std::string &Prev, const std::string &Name);

/// Decimal digits of N (the bytes of an index as written).
size_t digits(size_t N);

/// A text or RUV this long (B, as written) or longer is put in the file's
/// table at its first use even if it occurs once in its function: its index
/// costs a few bytes more if it is never used again, and saves the text
/// each time a later function (or warning) uses it. Shorter ones are shared
/// when they repeat within the function.
constexpr size_t SpeculativeText = 12, SpeculativeRuv = 12;

/// How each of Texts is written: as an index in Vocab.Texts, whole or in
/// pieces (an array of indices and strings), where that is shorter (a
/// text or piece already in the table, or one whose copies in Texts cost
/// more bytes than an entry and an index per use, or a long one
/// (SpeculativeText), numbered now in order of first use), else null (the
/// text as it is).
std::vector<json> shareTexts(const std::vector<std::string_view> &Texts, SegVocabulary &Vocab);

/// Where the last one or two groups "<Sep>DIGITS" of S begin, S.size() if S
/// ends in none; a group's Sep lies at MinSep or after ("k.c:12:7" with ':'
/// -> 3; "P_f_12" with '_' and MinSep 1 -> 3).
size_t numberedTail(std::string_view S, char Sep, size_t MinSep = 0);

/// Node fields whose value is a text (a string in schema 1), by their
/// schema-2 key.
inline const char *const NodeTexts[] = {"l",     "f",     "s",         "bp",   "footprint_B", "traffic_B",
                                 "chain", "loop",  "index",     "start", "step",       "step_kind",
                                 "t",     "c",     "op",        "bytes", "peer",       "pattern",
                                 "root",  "why",   "k"};


/// The index of "default" in schema 2's array of a parameter's fields
/// (ParameterOrder, SegExpand.cpp); the others are texts.
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
inline json *rangeFile(json &R) {
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


} // namespace compact
} // namespace segtime

#endif
