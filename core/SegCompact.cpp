//===- SegCompact.cpp - The compact .seg.json the plugin writes (schema 4) -===//
///
/// \file
/// FunctionSeg::toCompactJSON, SegFileWriter, compactHeader and
/// SegFile::toCompactJSON (core/Seg.h): a function in schema 4's layout
/// (docs/seg-json.md: short keys, ranges and RUVs as arrays, values that
/// repeat the previous node's left out) and the sharing of names, texts
/// (whole or in pieces) and RUVs through the file's tables.
///
//===----------------------------------------------------------------------===//
#include "core/Seg.h"
#include "core/SegCompactForm.h"

#include <cctype>
#include <climits>
#include <cmath>
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace segtime {

using namespace compact;

namespace {

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

} // namespace

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
std::string compact::derivedWhere(const std::string &Prev, const std::string &Name) {
  std::string File = whereFile(Prev), Loc = nameLocation(Name);
  return File.empty() || Loc.empty() ? "" : File + Loc;
}

json FunctionSeg::toCompactJSON(SegVocabulary *Vocab, size_t Index) const {
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
    forEachNode(Body, [&](const Node &N) {
      if (N.Kind == NodeKind::Unknown)
        Vocab->NodeWarnings.try_emplace(unknownNodeWarning("", *this, N),
                                        json::array({Index, N.Id}));
    });
  }
  return J;
}

// The compact dump of the document: {"functions":[F1,F2,...],HEADER} where
// the header's keys all sort after "functions".
void SegFileWriter::add(const FunctionSeg &F) {
  std::string Text = Written ? "," : "{\"functions\":[";
  Text += F.toCompactJSON(&Vocab, Written).dump();
  ++Written;
  Out(Text);
}

void SegFileWriter::finish(const SegFile &Rest) {
  Out(Written ? "]," : "{\"functions\":[],");
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
  for (size_t I = 0; I < Functions.size(); ++I)
    Fs.push_back(Functions[I].toCompactJSON(&Vocab, I));
  json J = compactHeader(*this, Vocab);
  J["functions"] = std::move(Fs);
  return J;
}

} // namespace segtime
