//===- SegShare.cpp - Texts shared through a compact file's table ---------===//
///
/// \file
/// shareTexts (core/SegCompactForm.h): which texts of a function (or of the
/// file's warnings) the compact .seg.json writes as indices in its
/// "strings" table, whole or cut into pieces (the factors of a product, a
/// "where"'s file, a reason's callee), so that what repeats is written once.
///
//===----------------------------------------------------------------------===//
#include "core/SegCompactForm.h"

#include <cctype>
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace segtime {

size_t compact::digits(size_t N) { return N < 10 ? 1 : 1 + digits(N / 10); }

size_t compact::numberedTail(std::string_view S, char Sep, size_t MinSep) {
  size_t End = S.size();
  for (int K = 0; K < 2; ++K) {
    size_t D = End;
    while (D > 0 && std::isdigit(static_cast<unsigned char>(S[D - 1])))
      --D;
    if (D == End || D <= MinSep || S[D - 1] != Sep)
      break;
    End = D - 1;
  }
  return End;
}

namespace {

/// The pieces a text is cut into for sharing: before each '*' and " + "
/// outside parentheses (the factors and terms of a frequency repeat the
/// conditions of the branches above it), around quotes (a reason's callee),
/// before a final ":LINE" or ":LINE:COL" (a parameter's "where" repeats the
/// file name) or "_LINE" or "_LINE_COL" (a parameter's name repeats the
/// function's). The pieces concatenated are the text.
std::vector<std::string_view> pieces(std::string_view S) {
  std::vector<std::string_view> Out;
  // ":LINE" or ":LINE:COL" at the end
  size_t End = compact::numberedTail(S, ':');
  if (End == 0)
    End = S.size();
  // "_LINE" or "_LINE_COL" at the end (a parameter's name: P_f_12, Pir_f_12_9)
  if (End == S.size())
    End = compact::numberedTail(S, '_', 1);
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

} // namespace

std::vector<json> compact::shareTexts(const std::vector<std::string_view> &Slots, SegVocabulary &Vocab) {
  std::unordered_map<std::string_view, size_t> Uses;
  for (std::string_view Slot : Slots)
    ++Uses[Slot];
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
    std::string_view S = Slots[I];
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
  std::vector<json> Encoded(Slots.size());
  for (size_t I = 0; I < Slots.size(); ++I) {
    if (Whole[I] != SIZE_MAX) {
      Encoded[I] = Whole[I];
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
      Encoded[I] = std::move(Parts);
  }
  return Encoded;
}

} // namespace segtime
