//===- SegCompact.cpp - The compact .seg.json the plugin writes (schema 4) -===//
///
/// \file
/// FunctionSeg::toCompactText and toCompactJSON, SegFileWriter,
/// compactHeader and SegFile::toCompactJSON (core/Seg.h): a function in
/// schema 4's layout (docs/seg-json.md: short keys, ranges and RUVs as
/// arrays, values that repeat the previous node's left out), its names,
/// texts (SegShare.cpp) and RUVs shared through the file's tables, written
/// as text straight from the SEG: the same bytes as nlohmann-json's dump()
/// of the document, without building it.
///
//===----------------------------------------------------------------------===//
#include "core/InlinedLevels.h"
#include "core/Seg.h"
#include "core/SegCompactForm.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace segtime {

using namespace compact;

namespace {

/// S as a JSON string, appended to Out: as is when no character of it
/// needs escaping, else through nlohmann-json's serializer (its escapes,
/// and its error on invalid UTF-8), so that the text is what dump() writes.
void appendString(std::string &Out, std::string_view S) {
  for (char C : S) {
    auto U = static_cast<unsigned char>(C);
    if (U < 0x20 || U >= 0x80 || C == '"' || C == '\\') {
      Out += json(std::string(S)).dump();
      return;
    }
  }
  Out += '"';
  Out += S;
  Out += '"';
}

/// A count as dump() writes countJSON's value: an integer if it is one (1
/// rather than 1.0), else the double.
std::string countText(double V) {
  if (V == std::floor(V) && std::fabs(V) < 9.0e15)
    return std::to_string(static_cast<int64_t>(V));
  return json(V).dump();
}

bool sameRange(const SourceRange &A, const SourceRange &B) {
  return A.Line == B.Line && A.Col == B.Col && A.EndLine == B.EndLine && A.EndCol == B.EndCol &&
         A.File == B.File;
}

/// Writes one function in schema 4's layout, straight from the FunctionSeg
/// into text (no JSON tree), keys in dump()'s (sorted) order. Two walks:
/// plan() decides what each node leaves out (the values that repeat the
/// previous node's), numbers names in Vocab and collects the texts and
/// RUVs to share; write() writes the text with those decisions.
class FunctionWriter {
public:
  FunctionWriter(const FunctionSeg &F, SegVocabulary *Vocab, std::string &Out)
      : F(F), Vocab(Vocab), Out(Out) {}

  void run() {
    plan();
    write();
  }

private:
  /// What a node writes besides its fields of its kind (plan's decisions).
  struct Layout {
    bool Id, Range, RangeFile, Label, Freq, Source, Why;
    unsigned Base;   ///< the line the range's line counts from
    size_t FirstRuv; ///< the node's first entry in Ruvs
  };
  /// One level's [op, count, ...] of a node: its key (op numbers and
  /// counts), and its index in Vocab->Ruvs if it is written as one.
  struct RuvSlot {
    std::string Key;
    size_t Shared = SIZE_MAX;
  };

  const FunctionSeg &F;
  SegVocabulary *Vocab;
  std::string &Out;
  std::vector<Layout> Layouts; ///< per node, depth first, SEG by SEG
  size_t Next = 0;             ///< write(): the next node's layout
  /// The first layout of each level SEG (in LevelSegs' order).
  std::vector<size_t> LevelStart;
  std::vector<RuvSlot> Ruvs;
  std::vector<bool> WhereLeftOut; ///< per parameter
  /// The texts to share, in the order schema 4's reader visits them
  /// (textsOfFunction), and the encodings of those that are not written as
  /// they are (an index in Vocab->Texts, or an array of pieces).
  std::vector<const std::string *> Texts;
  std::unordered_map<const std::string *, json> Encoded;
  // plan(): the previous node (CompactContext of the schema)
  ImplicitIds Ids, Labels;
  std::string PrevFile, PrevFreq, PrevSource;
  SourceRange PrevRange;

  void name(const std::string &S) {
    if (Vocab)
      Vocab->of(S);
  }
  void text(const std::string &S) {
    if (Vocab)
      Texts.push_back(&S);
  }

  // ---- plan ----------------------------------------------------------------

  void plan() {
    std::string PrevWhere;
    for (const Parameter &P : F.Parameters) {
      // A where that is the previous parameter's file and the name's
      // location is left out (null).
      bool LeftOut = !P.Where.empty() && P.Where == derivedWhere(PrevWhere, P.Name);
      WhereLeftOut.push_back(LeftOut);
      PrevWhere = P.Where;
      name(P.Kind);
      name(P.Source);
      text(P.Name);
      if (!LeftOut)
        text(P.Where);
      text(P.Meaning);
      if (!P.TakenAt.empty()) {
        text(P.TakenAt);
        text(P.OtherAt);
      }
    }
    name(F.Range.File);
    startSeg();
    planList(F.Body);
    for (auto &[K, L] : F.LevelSegs) {
      LevelStart.push_back(Layouts.size());
      startSeg();
      planList(L);
    }
    if (Vocab) {
      shareTextSlots();
      shareRuvs();
    }
  }

  /// Before each SEG (the source level's, each level's).
  void startSeg() {
    Ids.start();
    Labels.start();
    PrevFile = F.Range.File;
    PrevRange = F.Range;
    PrevFreq.clear();
    PrevSource.clear();
  }

  void planList(const NodeList &L) {
    for (const Node &N : L)
      planNode(N);
  }

  void planNode(const Node &N) {
    Layout L;
    L.Id = !Ids.follows(N.Id);
    if (N.Kind != NodeKind::Stage)
      name(nodeKindName(N.Kind));
    // The range, frequency and source node are left out when they are the
    // previous node's; an empty frequency or source node after one that is
    // not is written "".
    L.Range = !sameRange(N.Range, PrevRange);
    L.RangeFile = L.Range && N.Range.File != PrevFile;
    L.Base = PrevRange.Line; // a range's line counts from the previous one's
    if (L.RangeFile)
      name(N.Range.File);
    PrevFile = N.Range.File;
    PrevRange = N.Range;
    // A label that follows the previous node's is left out; an empty one is
    // written where it would be taken for the next.
    bool Following = Labels.valid() && N.Label == Labels.next();
    L.Label = !Following && (!N.Label.empty() || Labels.valid());
    Labels.take(N.Label);
    L.Freq = N.Freq != PrevFreq;
    PrevFreq = N.Freq;
    L.Source = N.SourceNode != PrevSource;
    PrevSource = N.SourceNode;
    L.Why = N.Kind == NodeKind::Unknown &&
            (N.Callee.empty() || N.Reason != externalCallReason(N.Callee));
    L.FirstRuv = Ruvs.size();
    for (auto &[Level, Counts] : N.Ruvs) {
      RuvSlot S;
      for (auto &[Op, Count] : Counts.counts()) {
        if (Vocab)
          S.Key += std::to_string(Vocab->of(Op)) + ',' + countText(Count) + ',';
      }
      name(Level);
      Ruvs.push_back(std::move(S));
    }
    if (N.Kind == NodeKind::Loop)
      name(N.LoopKind);
    Layouts.push_back(L);
    planTexts(N, L);
    if (N.Kind == NodeKind::Loop)
      planList(N.Body);
    if (N.Kind == NodeKind::Branch)
      for (const Arm &A : N.Arms) {
        name(A.Label);
        text(A.Prob);
        planList(A.Body);
      }
  }

  /// The texts of node N in the order of schema 4's reader (textsOfNode:
  /// NodeTexts' keys, args, memory notes, streams), its SEGs' not included.
  void planTexts(const Node &N, const Layout &L) {
    bool Loop = N.Kind == NodeKind::Loop, Call = N.Kind == NodeKind::Call,
         Comm = N.Kind == NodeKind::Comm, Unknown = N.Kind == NodeKind::Unknown;
    bool Callee = Call || (Unknown && !N.Callee.empty());
    if (L.Label)
      text(N.Label);
    if (L.Freq)
      text(N.Freq);
    if (L.Source)
      text(N.SourceNode);
    for (const std::string *S : {&N.BranchProb, &N.Footprint, &N.Traffic, &N.Chain})
      if (!S->empty())
        text(*S);
    if (Loop) {
      for (const std::string *S : {&N.Index, &N.Start, &N.Step})
        text(*S);
      if (N.StepKind != "add")
        text(N.StepKind);
      text(N.Trip);
    }
    if (Callee)
      text(N.Callee);
    if (Comm)
      text(N.CommOp);
    if (Comm || (Call && !N.Bytes.empty()))
      text(N.Bytes);
    if (Comm)
      for (const std::string *S : {&N.Peer, &N.Pattern, &N.Root})
        text(*S);
    if (L.Why)
      text(N.Reason);
    if (Callee)
      for (const std::string &A : N.Args)
        text(A);
    for (const std::string &M : N.MemoryNotes)
      text(M);
    for (const MemStream &M : N.Streams) {
      text(M.Base);
      for (const std::string &O : M.Offsets)
        text(O);
      for (const MemStream::Step &S : M.Loops) {
        for (const std::string *X : {&S.Loop, &S.Stride, &S.Trip})
          text(*X);
        if (!S.Index.empty())
          text(S.Index);
      }
    }
  }

  void shareTextSlots() {
    std::vector<std::string_view> Views;
    Views.reserve(Texts.size());
    for (const std::string *T : Texts)
      Views.push_back(*T);
    std::vector<json> Enc = shareTexts(Views, *Vocab);
    for (size_t I = 0; I < Texts.size(); ++I)
      if (!Enc[I].is_null())
        Encoded[Texts[I]] = std::move(Enc[I]);
  }

  /// Each RUV is written as its index in Vocab->Ruvs where the index is
  /// shorter: a list already there, and one that occurs twice or more in
  /// the function or is long (SpeculativeRuv), numbered now.
  void shareRuvs() {
    std::unordered_map<std::string_view, size_t> Count;
    for (const RuvSlot &S : Ruvs)
      ++Count[S.Key];
    size_t I = 0;
    std::function<void(const NodeList &)> List = [&](const NodeList &L) {
      for (const Node &N : L) {
        for (auto &[Level, Counts] : N.Ruvs)
          share(Ruvs[I++], Counts, Count);
        if (N.Kind == NodeKind::Loop)
          List(N.Body);
        if (N.Kind == NodeKind::Branch)
          for (const Arm &A : N.Arms)
            List(A.Body);
      }
    };
    List(F.Body);
    for (auto &[K, L] : F.LevelSegs)
      List(L);
  }

  /// shareRuvs' decision for one RUV, Count: the function's RUVs by key.
  void share(RuvSlot &S, const Ruv &Counts, std::unordered_map<std::string_view, size_t> &Count) {
    auto It = Vocab->RuvIndex.find(S.Key);
    if (It == Vocab->RuvIndex.end()) {
      if (Count[S.Key] < 2 && S.Key.size() + 1 < SpeculativeRuv)
        return;
      It = Vocab->RuvIndex.emplace(S.Key, Vocab->Ruvs.size()).first;
      std::string Pairs;
      appendPairs(Pairs, Counts);
      Vocab->Ruvs.push_back(json::parse(Pairs));
    }
    if (digits(It->second) < S.Key.size() + 1)
      S.Shared = It->second;
  }

  // ---- write ---------------------------------------------------------------

  /// Out += K's key, after a comma unless First.
  void key(const char *K, bool &First) {
    if (!First)
      Out += ',';
    First = false;
    Out += '"';
    Out += K;
    Out += "\":";
  }
  /// Name S as its number in Vocab, or (no Vocab) as a string.
  void appendName(std::string &T, const std::string &S) {
    if (Vocab)
      T += std::to_string(Vocab->of(S));
    else
      appendString(T, S);
  }
  void nameOf(const std::string &S) { appendName(Out, S); }
  void textOf(const std::string &S) {
    auto It = Encoded.find(&S);
    if (It != Encoded.end())
      Out += It->second.dump();
    else
      appendString(Out, S);
  }
  /// Prefix (JSON punctuation, a key) as it is, then S as textOf or nameOf
  /// writes it.
  void textAfter(const char *Prefix, const std::string &S) {
    Out += Prefix;
    textOf(S);
  }
  void nameAfter(const char *Prefix, const std::string &S) {
    Out += Prefix;
    nameOf(S);
  }
  void texts(const std::vector<std::string> &V) {
    array(V, [&](const std::string &X) { textOf(X); });
  }
  /// [op, count, ...] of R.
  void appendPairs(std::string &T, const Ruv &R) {
    T += '[';
    bool First = true;
    for (auto &[Op, Count] : R.counts()) {
      if (!First)
        T += ',';
      First = false;
      appendName(T, Op);
      T += ',';
      T += countText(Count);
    }
    T += ']';
  }

  void write() {
    bool First = true;
    Out += '{';
    if (!F.InMainFile) {
      key("in_main_file", First);
      Out += "false";
    }
    if (!F.InlinedAt.empty() && !Vocab) { // (else in the file's "inlined" table)
      key("inlined_at", First);
      Out += InlinedRef::listToJSON(F.InlinedAt).dump();
    }
    if (!F.LevelSegs.empty()) {
      key("level_segs", First);
      Out += '{';
      size_t I = 0;
      for (auto &[K, L] : F.LevelSegs) {
        if (I)
          Out += ',';
        appendString(Out, K);
        Out += ':';
        Next = LevelStart[I++];
        writeList(L);
      }
      Out += '}';
    }
    key("name", First);
    appendString(Out, F.Name);
    key("parameters", First);
    Out += '[';
    for (size_t I = 0; I < F.Parameters.size(); ++I)
      writeParameter(F.Parameters[I], WhereLeftOut[I], I == 0);
    Out += ']';
    key("params", First);
    Out += '[';
    for (size_t I = 0; I < F.Params.size(); ++I) {
      if (I)
        Out += ',';
      appendString(Out, F.Params[I]);
    }
    Out += ']';
    key("range", First);
    writeRange(F.Range, 0, true);
    key("seg", First);
    Next = 0;
    writeList(F.Body);
    if (F.Static) {
      key("static", First);
      Out += "true";
    }
    Out += '}';
  }

  void writeParameter(const Parameter &P, bool WhereLeftOut, bool FirstOne) {
    if (!FirstOne)
      Out += ',';
    textAfter("[", P.Name);
    nameAfter(",", P.Kind);
    Out += ',';
    if (P.Default)
      Out += json(*P.Default).dump();
    else if (!P.DefaultExpr.empty())
      appendString(Out, P.DefaultExpr);
    else
      Out += "null";
    nameAfter(",", P.Source);
    if (WhereLeftOut)
      Out += ",null";
    else
      textAfter(",", P.Where);
    textAfter(",", P.Meaning);
    if (!P.TakenAt.empty()) {
      textAfter(",", P.TakenAt);
      textAfter(",", P.OtherAt);
    }
    Out += ']';
  }

  /// [line - Base, col, end_line - line, end_col, file]; the end is left out
  /// if it is the start, the file unless File.
  void writeRange(const SourceRange &R, unsigned Base, bool File) {
    Out += '[';
    Out += std::to_string(int64_t(R.Line) - int64_t(Base));
    Out += ',';
    Out += std::to_string(R.Col);
    if (R.EndLine != R.Line || R.EndCol != R.Col) {
      Out += ',';
      Out += std::to_string(int64_t(R.EndLine) - int64_t(R.Line));
      Out += ',';
      Out += std::to_string(R.EndCol);
    }
    if (File)
      nameAfter(",", R.File);
    Out += ']';
  }

  void writeList(const NodeList &L) {
    array(L, [&](const Node &N) { writeNode(N); });
  }

  /// Node N with the keys in dump()'s order (a, b, bp, bytes, c, chain, f,
  /// footprint_B, i, index, k, l, loop, memory_notes, op, pattern, peer, r,
  /// root, s, start, step, step_kind, streams, t, traffic_B, u, why, x).
  void writeNode(const Node &N) {
    const Layout L = Layouts[Next++];
    bool Loop = N.Kind == NodeKind::Loop, Call = N.Kind == NodeKind::Call,
         Comm = N.Kind == NodeKind::Comm, Unknown = N.Kind == NodeKind::Unknown;
    bool Callee = Call || (Unknown && !N.Callee.empty());
    bool First = true;
    auto Text = [&](const char *K, const std::string &S) {
      key(K, First);
      textOf(S);
    };
    Out += '{';
    if (N.Kind == NodeKind::Branch) {
      key("a", First);
      array(N.Arms, [&](const Arm &A) {
        Out += "{\"b\":";
        writeList(A.Body);
        nameAfter(",\"l\":", A.Label);
        textAfter(",\"p\":", A.Prob);
        Out += '}';
      });
    }
    if (Loop) {
      key("b", First);
      writeList(N.Body);
    }
    if (!N.BranchProb.empty())
      Text("bp", N.BranchProb);
    if (Comm || (Call && !N.Bytes.empty()))
      Text("bytes", N.Bytes);
    if (Callee)
      Text("c", N.Callee);
    if (!N.Chain.empty())
      Text("chain", N.Chain);
    if (L.Freq)
      Text("f", N.Freq);
    if (!N.Footprint.empty())
      Text("footprint_B", N.Footprint);
    if (L.Id) {
      key("i", First);
      appendString(Out, N.Id);
    }
    if (Loop)
      Text("index", N.Index);
    if (N.Kind != NodeKind::Stage) {
      key("k", First);
      nameOf(nodeKindName(N.Kind));
    }
    if (L.Label)
      Text("l", N.Label);
    if (Loop) {
      key("loop", First);
      nameOf(N.LoopKind);
    }
    if (!N.MemoryNotes.empty()) {
      key("memory_notes", First);
      texts(N.MemoryNotes);
    }
    if (Comm) {
      Text("op", N.CommOp);
      Text("pattern", N.Pattern);
      Text("peer", N.Peer);
    }
    if (L.Range) {
      key("r", First);
      writeRange(N.Range, L.Base, L.RangeFile);
    }
    if (Comm)
      Text("root", N.Root);
    if (L.Source)
      Text("s", N.SourceNode);
    if (Loop) {
      Text("start", N.Start);
      Text("step", N.Step);
      if (N.StepKind != "add")
        Text("step_kind", N.StepKind);
    }
    if (!N.Streams.empty()) {
      key("streams", First);
      writeStreams(N.Streams);
    }
    if (Loop)
      Text("t", N.Trip);
    if (!N.Traffic.empty())
      Text("traffic_B", N.Traffic);
    if (!N.Ruvs.empty()) {
      key("u", First);
      writeRuvs(N, L.FirstRuv);
    }
    if (L.Why)
      Text("why", N.Reason);
    if (Callee) {
      key("x", First);
      texts(N.Args);
    }
    Out += '}';
  }

  /// [level, [op, count, ...] or its index in Vocab->Ruvs, ...].
  void writeRuvs(const Node &N, size_t Slot) {
    Out += '[';
    for (auto &[Level, Counts] : N.Ruvs) {
      if (Out.back() != '[')
        Out += ',';
      nameOf(Level);
      Out += ',';
      const RuvSlot &S = Ruvs[Slot++];
      if (S.Shared != SIZE_MAX)
        Out += std::to_string(S.Shared);
      else
        appendPairs(Out, Counts);
    }
    Out += ']';
  }

  /// MemStream::toJSON's keys, its texts shared.
  void writeStreams(const std::vector<MemStream> &Streams) {
    array(Streams, [&](const MemStream &M) {
      textAfter("{\"base\":", M.Base);
      Out += M.Load ? ",\"load\":true,\"loops\":" : ",\"load\":false,\"loops\":";
      array(M.Loops, [&](const MemStream::Step &S) {
        Out += '{';
        if (!S.Index.empty()) {
          textAfter("\"index\":", S.Index);
          Out += ',';
        }
        textAfter("\"loop\":", S.Loop);
        textAfter(",\"stride_B\":", S.Stride);
        textAfter(",\"trip\":", S.Trip);
        Out += '}';
      });
      Out += ",\"offsets_B\":";
      texts(M.Offsets);
      Out += ",\"size_B\":";
      Out += std::to_string(M.Size);
      Out += M.Store ? ",\"store\":true}" : ",\"store\":false}";
    });
  }

  /// Items as a JSON array: Each(item) writes one element.
  template <typename T, typename F> void array(const std::vector<T> &Items, F &&Each) {
    Out += '[';
    for (size_t I = 0; I < Items.size(); ++I) {
      if (I)
        Out += ',';
      Each(Items[I]);
    }
    Out += ']';
  }
};

} // namespace

/// Where without its final ":LINE" or ":LINE:COL" ("" if it has none).
static std::string whereFile(const std::string &Where) {
  size_t End = compact::numberedTail(Where, ':');
  return End == Where.size() ? "" : Where.substr(0, End);
}

/// ":LINE" or ":LINE:COL" from a parameter name that ends in "_LINE" or
/// "_LINE_COL" (P_f_12, Pir_f_12_7), "" if it does not.
static std::string nameLocation(const std::string &Name) {
  std::string Tail = Name.substr(compact::numberedTail(Name, '_', 1));
  std::replace(Tail.begin(), Tail.end(), '_', ':');
  return Tail;
}

/// Schema 4's "where" of parameter Name after one whose where is Prev: the
/// file of Prev and the location in Name ("" if either is missing).
std::string compact::derivedWhere(const std::string &Prev, const std::string &Name) {
  std::string File = whereFile(Prev), Loc = nameLocation(Name);
  return File.empty() || Loc.empty() ? "" : File + Loc;
}

std::string FunctionSeg::toCompactText(SegVocabulary *Vocab, size_t Index) const {
  std::string Out;
  FunctionWriter(*this, Vocab, Out).run();
  if (Vocab)
    takeInlinedRefs(*Vocab, *this, Index);
  if (Vocab)
    forEachNode(Body, [&](const Node &N) {
      if (N.Kind == NodeKind::Unknown)
        Vocab->NodeWarnings.try_emplace(unknownNodeWarning("", *this, N),
                                        json::array({Index, N.Id}));
    });
  return Out;
}

json FunctionSeg::toCompactJSON(SegVocabulary *Vocab, size_t Index) const {
  return json::parse(toCompactText(Vocab, Index));
}

// The compact dump of the document: {"functions":[F1,F2,...],HEADER} where
// the header's keys all sort after "functions".
void SegFileWriter::add(const FunctionSeg &F) {
  std::string Text = Written ? "," : "{\"functions\":[";
  Text += F.toCompactText(&Vocab, Written);
  ++Written;
  Out(Text);
}

void SegFileWriter::finish(const SegFile &Rest) {
  Out(Written ? "]," : "{\"functions\":[],");
  writeCompactHeader(Rest, Vocab, Out); // (without "{")
}

namespace {

/// compactHeader without Vocab's tables (their keys are not set).
json headerWithoutTables(const SegFile &S, SegVocabulary &Vocab) {
  json J = headerJSON(S);
  J["schema"] = SegFile::Schema;
  if (!Vocab.Inlined.empty())
    J["inlined"] = inlinedTableJSON(Vocab);
  json &Warnings = J["warnings"];
  std::vector<json *> Slots;
  std::vector<std::string_view> Texts;
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
    Texts.push_back(Text);
  }
  std::vector<json> Encoded = shareTexts(Texts, Vocab);
  for (size_t I = 0; I < Slots.size(); ++I) // (the views point into the slots)
    if (!Encoded[I].is_null())
      *Slots[I] = std::move(Encoded[I]);
  return J;
}

} // namespace

json compactHeader(const SegFile &S, SegVocabulary &Vocab) {
  json J = headerWithoutTables(S, Vocab);
  J["vocabulary"] = Vocab.Names;
  J["strings"] = Vocab.Texts;
  J["ruvs"] = Vocab.Ruvs;
  return J;
}

void writeCompactHeader(const SegFile &S, SegVocabulary &Vocab,
                        const std::function<void(const std::string &)> &Out) {
  json J = headerWithoutTables(S, Vocab);
  // The tables as empty arrays in the dump, then each one's entries put
  // where its "[]" is (dumped one by one, as the whole array's dump would).
  std::string Buf;
  auto Put = [&](std::string_view T) {
    Buf += T;
    if (Buf.size() >= (1u << 16)) {
      Out(Buf);
      Buf.clear();
    }
  };
  auto Entries = [&](const auto &Table) {
    Put("[");
    for (size_t I = 0; I < Table.size(); ++I) {
      if (I)
        Put(",");
      Put(json(Table[I]).dump());
    }
    Put("]");
  };
  J["vocabulary"] = J["strings"] = J["ruvs"] = json::array();
  std::string Dump = J.dump();
  // Where each table's "[]" is: inside a dumped string every quote is
  // escaped, so "KEY":[] (a bare quote after KEY) is structure; found once,
  // it is the top-level key's.
  std::vector<std::pair<size_t, std::function<void()>>> At;
  auto Find = [&](std::string_view Key, std::function<void()> Write) {
    size_t P = Dump.find(Key);
    if (P != std::string::npos && Dump.find(Key, P + 1) == std::string::npos)
      At.emplace_back(P + Key.size() - 2, std::move(Write));
  };
  Find("\"vocabulary\":[]", [&] { Entries(Vocab.Names); });
  Find("\"strings\":[]", [&] { Entries(Vocab.Texts); });
  Find("\"ruvs\":[]", [&] { Entries(Vocab.Ruvs); });
  if (At.size() != 3) { // (not found once each: the whole dump)
    J["vocabulary"] = Vocab.Names;
    J["strings"] = Vocab.Texts;
    J["ruvs"] = Vocab.Ruvs;
    Out(J.dump().substr(1) + "\n");
    return;
  }
  std::sort(At.begin(), At.end(),
            [](const auto &A, const auto &B) { return A.first < B.first; });
  size_t From = 1; // without "{"
  for (auto &[P, Write] : At) {
    Put(std::string_view(Dump).substr(From, P - From));
    Write();
    From = P + 2; // after "[]"
  }
  Put(std::string_view(Dump).substr(From));
  Put("\n");
  Out(Buf);
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
