//===- ExprPrint.cpp - Expressions printed for people ---------------------===//
///
/// \file
/// toString() and toFormulaText() (predictor/Expr.h): numbers rounded, terms
/// by degree then text, the sign of sum factors chosen so that the text does
/// not change from run to run; repeated subexpressions named once.
///
//===----------------------------------------------------------------------===//
#include "predictor/Expr.h"
#include "predictor/ExprDetail.h"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <tuple>
#include <unordered_map>

using namespace GiNaC;

namespace segtime {

namespace {
/// Prints an expression for humans: numbers with Digits significant digits,
/// products with '*', powers with '^', sums with ' + ' / ' - '.
struct HumanPrinter {
  int Digits;
  /// Text of every subexpression object printed so far, by identity (the ex
  /// is kept so that the address stays its own): a sum is printed once for
  /// its sort key and once in place, so without it the work doubles with
  /// every level of nesting (lu's IR closed forms: 19 s at n = 48).
  mutable std::unordered_map<const basic *, std::pair<ex, std::string>> Memo;
  /// signedSum's choice for every sum factor printed so far, by identity
  /// (the sum and its negation kept alive).
  mutable std::unordered_map<const basic *, std::pair<ex, std::pair<std::string, bool>>> SumMemo;
  static std::string num(const numeric &N, int Digits) {
    if (N.is_integer() || (N.is_rational() && N.denom() < 10000)) {
      std::ostringstream OS;
      OS << N;
      return OS.str();
    }
    char Buf[64];
    std::snprintf(Buf, sizeof Buf, "%.*g", Digits, N.to_double());
    return Buf;
  }
  int prec(const ex &E) const {
    if (is_a<add>(E)) return 1;
    if (is_a<mul>(E)) return 2;
    if (is_a<numeric>(E)) {
      const numeric &N = ex_to<numeric>(E);
      if (N.is_negative() || (N.is_rational() && !N.is_integer())) return 2;
    }
    if (is_a<power>(E)) return 3;
    return 4;
  }
  std::string wrap(const ex &E, int Min) const {
    std::string S = str(E);
    return prec(E) < Min ? "(" + S + ")" : S;
  }
  /// The text of sum S with the sign that writes it first: of S and -S,
  /// the one whose text does not start with '-', else the smaller text;
  /// Flip says -S was taken. GiNaC takes the sign of a sum factor from the
  /// term it happens to list first (mul::eval strips the "unit part",
  /// choosing a main variable by hash order, which changes from run to run:
  /// (a - b)*(c - d) one run, (b - a)*(d - c) the next): printing the sum
  /// factors of a product this way makes the text independent of that.
  std::pair<std::string, bool> signedSum(const ex &S) const {
    auto It = SumMemo.find(&ex_to<basic>(S));
    if (It != SumMemo.end())
      return It->second.second;
    ex Neg = -S; // an add again (GiNaC distributes a number over a sum)
    std::string P = str(S), N = str(Neg);
    auto Key = [](const std::string &X) { return std::make_pair(!X.empty() && X[0] == '-', X); };
    std::pair<std::string, bool> R = Key(N) < Key(P) ? std::make_pair(N, true)
                                                     : std::make_pair(P, false);
    SumMemo.emplace(&ex_to<basic>(S), std::make_pair(lst{S, Neg}, R));
    return R;
  }
  /// Factor B^E of a product at precedence Min (E = 1: B alone); a sum
  /// raised to an integer power is written with signedSum's sign, and C
  /// takes (-1)^E if that flipped it.
  std::string factor(const ex &B, const ex &E, numeric &C, int Min) const {
    std::string BT;
    bool One = E.is_equal(1);
    if (is_a<add>(B) && is_a<numeric>(E) && ex_to<numeric>(E).is_integer()) {
      auto [T, Flip] = signedSum(B);
      if (Flip && ex_to<numeric>(E).is_odd())
        C = -C;
      BT = "(" + T + ")";
    } else {
      BT = wrap(B, One ? Min : 4);
    }
    if (One)
      return BT;
    std::string S = BT + "^" + wrap(E, 4);
    return Min > 3 ? "(" + S + ")" : S;
  }
  /// A term as its numeric coefficient (signs of sum factors included, see
  /// signedSum) and the text of its other factors ("" for none). Factors
  /// with negative exponents go below a '/': a*b^(-1)*c^(-2) -> a/(b*c^2);
  /// factors are sorted by text on each side.
  std::pair<numeric, std::string> termParts(const ex &T) const {
    if (is_a<numeric>(T))
      return {ex_to<numeric>(T), ""};
    numeric C = 1;
    std::vector<std::pair<ex, ex>> Num, Den; // (base, exponent > 0)
    auto Add = [&](const ex &F) {
      if (is_a<numeric>(F))
        C *= ex_to<numeric>(F);
      else if (is_a<power>(F) && is_a<numeric>(F.op(1)) && ex_to<numeric>(F.op(1)).is_negative())
        Den.push_back({F.op(0), -F.op(1)});
      else if (is_a<power>(F))
        Num.push_back({F.op(0), F.op(1)});
      else
        Num.push_back({F, 1});
    };
    if (is_a<mul>(T))
      for (size_t I = 0; I < T.nops(); ++I)
        Add(T.op(I));
    else
      Add(T);
    auto Join = [&](const std::vector<std::pair<ex, ex>> &V, int Min) {
      std::vector<std::string> Parts;
      for (auto &[B, E] : V)
        Parts.push_back(factor(B, E, C, Min));
      std::sort(Parts.begin(), Parts.end()); // reproducible order
      std::string S;
      for (const std::string &P : Parts)
        S += (S.empty() ? "" : "*") + P;
      return S;
    };
    std::string S = Num.empty() ? "" : Join(Num, 3);
    if (!Den.empty())
      S = (S.empty() ? "1" : S) + "/" + (Den.size() == 1 ? Join(Den, 4) : "(" + Join(Den, 3) + ")");
    return {C, S};
  }
  /// Coefficient C (>= 0) times the factors' text P.
  std::string term(const numeric &C, const std::string &P) const {
    if (P.empty()) return num(C, Digits);
    if (C.is_equal(1)) return P;
    return num(C, Digits) + "*" + P;
  }
  std::string str(const ex &E) const {
    if (is_a<numeric>(E)) return num(ex_to<numeric>(E), Digits);
    if (is_a<symbol>(E))
      return ex_to<symbol>(E).get_name();
    const basic *Key = &ex_to<basic>(E);
    auto It = Memo.find(Key);
    if (It != Memo.end())
      return It->second.second;
    std::string S = compose(E);
    Memo.emplace(Key, std::make_pair(E, S));
    return S;
  }
  std::string compose(const ex &E) const {
    if (is_a<symbol>(E)) return ex_to<symbol>(E).get_name();
    if (is_a<add>(E)) {
      // highest-degree terms first: sort by total degree, descending
      std::vector<ex> Terms(E.begin(), E.end());
      auto Deg = [](const ex &T) {
        int D = 0;
        for (const std::string &S : freeSymbols(T)) {
          try {
            D += T.degree(sym(S));
          } catch (const std::runtime_error &) {
            // a real exponent (the overlap's p-norm) has no degree: 0
          }
        }
        return D;
      };
      // GiNaC orders terms by hash values that change between runs: sort by
      // degree, then text, so that output is reproducible.
      std::vector<std::pair<int, std::string>> Keys;
      for (const ex &T : Terms)
        Keys.push_back({-Deg(T), str(T)});
      std::vector<size_t> Idx(Terms.size());
      for (size_t I = 0; I < Idx.size(); ++I)
        Idx[I] = I;
      std::sort(Idx.begin(), Idx.end(), [&](size_t A, size_t B) { return Keys[A] < Keys[B]; });
      std::string S;
      for (size_t I : Idx) {
        auto [C, P] = termParts(Terms[I]);
        bool Neg = C.is_negative();
        std::string X = term(Neg ? numeric(-C) : C, P);
        S += S.empty() ? (Neg ? "-" + X : X) : (Neg ? " - " : " + ") + X;
      }
      return S;
    }
    if (is_a<mul>(E)) {
      auto [C, P] = termParts(E);
      if (C.is_negative()) return "-" + term(numeric(-C), P);
      return term(C, P);
    }
    if (is_a<power>(E)) {
      numeric C = 1;
      std::string P = factor(E.op(0), E.op(1), C, 0);
      return C.is_negative() ? "-" + P : P;
    }
    if (is_ex_the_function(E, seg_call)) { // a kept call: T_f(args)
      std::string S = "T_" + keptName(E) + "(";
      for (size_t I = 0; I < E.op(1).nops(); ++I)
        S += (I ? ", " : "") + str(E.op(1).op(I));
      return S + ")";
    }
    if (is_a<function>(E)) {
      std::string S = ex_to<function>(E).get_name() + "(";
      for (size_t I = 0; I < E.nops(); ++I)
        S += (I ? ", " : "") + str(E.op(I));
      return S + ")";
    }
    std::ostringstream OS;
    OS << E;
    return OS.str();
  }
};
} // namespace

std::string toString(const ex &E, int Digits) { return HumanPrinter{Digits}.str(E); }

namespace {
/// Common-subexpression naming for toFormulaText. The structurally distinct
/// subexpressions of E that have operands (GiNaC's shared objects, and the
/// fresh ones op() makes for the terms of a sum and the factors of a
/// product), in post-order, each with how often its text is written.
class SubexprNamer {
public:
  SubexprNamer(const ex &E, int Digits, size_t MinChars)
      : Printer{Digits}, MinChars(MinChars) {
    findIndices(E);
    int Root = visit(E);
    if (Root < 0)
      return;
    countUses(Root);
    decide(Root);
    Out.Formula = Printer.str(finalForm(Root));
  }
  FormulaText take() { return std::move(Out); }

private:
  struct Node {
    ex E;
    std::vector<int> Kids; ///< operands that are nodes, one per occurrence
    /// seg_sum indices free in E: such a node's value depends on the term.
    std::set<std::string> FreeIdx;
    int Uses = 0;       ///< times its text is written, saturating at 2
    bool Named = false; ///< printed once, as a definition
    int Height = 0;     ///< named: 1 + the largest Height of the named ones inside
    int Below = 0;      ///< the largest Height of the named nodes inside
    ex Placeholder;     ///< E with named nodes as placeholders (decide)
    ex Final;           ///< E with named nodes as their names (finalForm)
    bool HasFinal = false;
  };
  HumanPrinter Printer; // one memo for the placeholder and the final forms
  size_t MinChars;
  FormulaText Out;
  std::vector<Node> Nodes;
  std::unordered_map<ex, int, std::hash<ex>, ex_is_equal> Index;
  std::unordered_map<const basic *, int> ByAddr; // the objects Nodes keep
  std::set<std::string> Indices, Names;          // seg_sum indices; every symbol
  /// findIndices' walk; it keeps each object (op() of a sum or product may
  /// return a fresh one, whose address a later one would otherwise reuse).
  std::unordered_map<const basic *, ex> Seen;

  void findIndices(const ex &E) {
    if (E.nops() == 0 || !Seen.emplace(&ex_to<basic>(E), E).second)
      return;
    if (is_ex_the_function(E, seg_sum) && is_a<symbol>(E.op(1)))
      Indices.insert(ex_to<symbol>(E.op(1)).get_name());
    for (size_t I = 0; I < E.nops(); ++I)
      findIndices(E.op(I));
  }

  int find(const ex &E) const {
    auto A = ByAddr.find(&ex_to<basic>(E));
    if (A != ByAddr.end())
      return A->second;
    auto S = Index.find(E);
    return S == Index.end() ? -1 : S->second;
  }

  /// Index of E's node (operands first), -1 for a number or symbol.
  int visit(const ex &E) {
    if (E.nops() == 0) {
      if (is_a<symbol>(E))
        Names.insert(ex_to<symbol>(E).get_name());
      return -1;
    }
    if (int Known = find(E); Known >= 0)
      return Known;
    bool Sum = is_ex_the_function(E, seg_sum) && is_a<symbol>(E.op(1));
    std::vector<int> Kids;
    std::set<std::string> Free;
    for (size_t I = 0; I < E.nops(); ++I) {
      ex O = E.op(I);
      if (Sum && I == 1)
        continue; // the index itself
      if (O.nops() == 0) {
        visit(O);
        if (is_a<symbol>(O) && Indices.count(ex_to<symbol>(O).get_name()))
          Free.insert(ex_to<symbol>(O).get_name());
        continue;
      }
      int K = visit(O);
      Kids.push_back(K);
      for (const std::string &X : Nodes[K].FreeIdx)
        if (!(Sum && I == 0 && X == ex_to<symbol>(E.op(1)).get_name()))
          Free.insert(X);
    }
    Node N;
    N.E = E;
    N.Kids = std::move(Kids);
    N.FreeIdx = std::move(Free);
    Nodes.push_back(std::move(N));
    int Id = static_cast<int>(Nodes.size()) - 1;
    Index.emplace(E, Id);
    ByAddr.emplace(&ex_to<basic>(E), Id);
    return Id;
  }

  /// Uses: a node is written once per use in a named or nameable parent,
  /// and as often as the parent in one whose value depends on a seg_sum
  /// index (which is written wherever it is used).
  void countUses(int Root) {
    Nodes[Root].Uses = 1;
    for (int I = Root; I >= 0; --I) { // post-order reversed: users first
      const Node &N = Nodes[I];
      int Each = N.FreeIdx.empty() ? 1 : N.Uses;
      for (int K : N.Kids)
        Nodes[K].Uses = std::min(2, Nodes[K].Uses + Each);
    }
  }

  /// N.E with each operand node K replaced by Nodes[K].*Form.
  ex rebuild(const Node &N, ex Node::*Form) {
    bool Same = std::all_of(N.Kids.begin(), N.Kids.end(), [&](int K) {
      return are_ex_trivially_equal(Nodes[K].*Form, Nodes[K].E);
    });
    if (Same)
      return N.E;
    struct Subst : map_function {
      SubexprNamer &S;
      ex Node::*Form;
      Subst(SubexprNamer &S, ex Node::*Form) : S(S), Form(Form) {}
      ex operator()(const ex &O) override {
        int K = O.nops() ? S.find(O) : -1;
        return K < 0 ? O : S.Nodes[K].*Form;
      }
    } F(*this, Form);
    return N.E.map(F);
  }

  /// Operands first: a node written more than once whose text (named ones
  /// inside as 3-character placeholders) is longer than MinChars is named.
  void decide(int Root) {
    for (int I = 0; I <= Root; ++I) {
      Node &N = Nodes[I];
      N.Placeholder = rebuild(N, &Node::Placeholder);
      for (int K : N.Kids)
        N.Below = std::max(N.Below, Nodes[K].Named ? Nodes[K].Height : Nodes[K].Below);
      // (a sum's length with the sign it is written with: signedSum)
      if (I == Root || N.Uses < 2 || !N.FreeIdx.empty() ||
          (is_a<add>(N.Placeholder) ? Printer.signedSum(N.Placeholder).first
                                    : Printer.str(N.Placeholder))
                  .size() <= MinChars)
        continue;
      N.Named = true;
      N.Height = N.Below + 1;
      N.Placeholder = symbol("_sN"); // a fresh symbol: distinct from the others
    }
  }

  /// Node I's final form; the named nodes inside have their names already.
  const ex &finalOf(int I) {
    Node &N = Nodes[I];
    if (!N.HasFinal) {
      for (int K : N.Kids)
        finalOf(K);
      N.Final = rebuild(N, &Node::Final);
      N.HasFinal = true;
    }
    return N.Final;
  }

  /// Names by height (so each definition uses only earlier ones), then text.
  const ex &finalForm(int Root) {
    std::string Prefix = "_s";
    auto Clash = [&] {
      return std::any_of(Names.begin(), Names.end(), [&](const std::string &X) {
        return X.size() > Prefix.size() && X.compare(0, Prefix.size(), Prefix) == 0 &&
               X.find_first_not_of("0123456789", Prefix.size()) == std::string::npos;
      });
    };
    while (Clash())
      Prefix += "_";
    std::map<int, std::vector<int>> ByHeight;
    for (size_t I = 0; I < Nodes.size(); ++I)
      if (Nodes[I].Named)
        ByHeight[Nodes[I].Height].push_back(static_cast<int>(I));
    for (auto &[H, Group] : ByHeight) {
      // (text, negated, node): a sum is defined with the sign HumanPrinter
      // gives a sum factor (signedSum: GiNaC's sign changes from run to
      // run), its uses then being -name.
      std::vector<std::tuple<std::string, bool, int>> Texts;
      for (int I : Group) {
        for (int K : Nodes[I].Kids)
          finalOf(K);
        ex R = rebuild(Nodes[I], &Node::Final);
        if (is_a<add>(R)) {
          auto [Text, Flip] = Printer.signedSum(R);
          Texts.push_back({Text, Flip, I});
        } else {
          Texts.push_back({Printer.str(R), false, I});
        }
      }
      std::sort(Texts.begin(), Texts.end());
      for (auto &[Text, Flip, I] : Texts) {
        std::string Name = Prefix + std::to_string(Out.Defs.size() + 1);
        Nodes[I].Final = Flip ? ex(-sym(Name)) : ex(sym(Name));
        Nodes[I].HasFinal = true;
        Out.Defs.push_back({Name, Text});
      }
    }
    return finalOf(Root);
  }
};
} // namespace

FormulaText toFormulaText(const ex &E, int Digits, size_t MinChars) {
  if (E.nops() == 0)
    return {toString(E, Digits), {}};
  return SubexprNamer(E, Digits, MinChars).take();
}

} // namespace segtime
