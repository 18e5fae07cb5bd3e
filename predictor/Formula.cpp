//===- Formula.cpp - Timing formulas from a SEG ---------------------------===//
#include "predictor/Formula.h"
#include "predictor/Collectives.h"
#include "core/Library.h"
#include "core/Link.h"
#include "predictor/PredictTiming.h"

#include <algorithm>
#include <regex>
#include <sstream>

using namespace GiNaC;

namespace segtime {

bool FormulaBuilder::BoundKey::operator<(const BoundKey &O) const {
  if (Callee != O.Callee)
    return Callee < O.Callee;
  if (Key != O.Key)
    return Key < O.Key;
  if (Args.size() != O.Args.size())
    return Args.size() < O.Args.size();
  for (size_t I = 0; I < Args.size(); ++I) {
    if (Args[I].first != O.Args[I].first)
      return Args[I].first < O.Args[I].first;
    if (int C = Args[I].second.compare(O.Args[I].second))
      return C < 0;
  }
  return false;
}

StageWeight countWeight(const std::string &LevelKey, const std::string &Op) {
  return [LevelKey, Op](const Node &N) -> ex {
    auto It = N.Ruvs.find(LevelKey);
    if (It == N.Ruvs.end())
      return 0;
    return numeric(It->second.get(Op));
  };
}

StageWeight commWeight() {
  return [](const Node &N) -> ex {
    if (N.Kind != NodeKind::Comm)
      return 0;
    return commTerm(N.Pattern, parseExpr(N.Bytes.empty() ? "0" : N.Bytes), sym("p"));
  };
}

StageWeight libraryWeight(const std::map<std::string, double> &Costs) {
  return [Costs](const Node &N) -> ex {
    const LibraryFunction *F = N.Kind == NodeKind::Call ? libraryFunction(N.Callee) : nullptr;
    if (!F)
      return 0;
    auto A = Costs.find(libraryKey(*F, "per_call"));
    if (A == Costs.end())
      return 0;
    ex T = numeric(A->second);
    if (F->Sized && !N.Bytes.empty()) {
      auto B = Costs.find(libraryKey(*F, "per_B"));
      if (B == Costs.end())
        return 0;
      T += numeric(B->second) * parseExpr(N.Bytes);
    }
    return T;
  };
}

exmap callSubstitution(const Node &Call, const FunctionSeg &Callee) {
  exmap Bind;
  for (const std::string &P : Callee.Params)
    if (!P.empty())
      Bind[sym(P)] = sym(Call.Callee + "." + P);
  for (const CallBinding &B : callBindings(Call, Callee.Params))
    Bind[sym(B.Param)] = parseExpr(B.Arg);
  return Bind;
}

bool FormulaBuilder::libraryCall(const Node &N) const {
  return N.Kind == NodeKind::Call && !File.find(N.Callee) && libraryFunction(N.Callee);
}

ex loopIndexValue(const Node &L, const symbol &K) {
  ex Start = parseExpr(L.Start.empty() ? "0" : L.Start);
  ex Step = parseExpr(L.Step.empty() ? "1" : L.Step);
  if (L.StepKind == "mul")
    return Start * pow(Step, K);
  return Start + K * Step;
}

/// Collects, for every node below L, the rank-resolved arm probabilities on
/// its path from the nearest enclosing loop (Arms), if all arms are.
static void collectRankFreqs(const NodeList &L, std::vector<std::string> &Arms,
                             std::map<std::string, std::string> &Out) {
  for (const Node &N : L) {
    if (!Arms.empty()) {
      bool All = true;
      std::string P;
      for (const std::string &A : Arms) {
        All &= A.find("cmp_") != std::string::npos;
        P += (P.empty() ? "" : "*") + ("(" + A + ")");
      }
      if (All)
        Out[N.Id] = P;
    }
    if (N.Kind == NodeKind::Loop) {
      std::vector<std::string> Inner;
      collectRankFreqs(N.Body, Inner, Out);
    }
    for (const Arm &A : N.Arms) {
      Arms.push_back(A.Prob);
      collectRankFreqs(A.Body, Arms, Out);
      Arms.pop_back();
    }
  }
}

const std::map<std::string, std::string> *FormulaBuilder::irRankFreqs(const std::string &Fn,
                                                                      const std::string &Level) {
  const FunctionSeg *F = File.find(Fn);
  if (!F || &F->bodyFor(Level) == &F->Body)
    return nullptr;
  auto It = RankFreqs.find(Fn);
  if (It == RankFreqs.end()) {
    std::vector<std::string> Arms;
    It = RankFreqs.emplace(Fn, std::map<std::string, std::string>()).first;
    collectRankFreqs(F->Body, Arms, It->second);
  }
  return &It->second;
}

/// Rethrows E, an expression of node N that does not parse, naming the
/// node (once: an enclosing node's handler leaves the message alone).
[[noreturn]] static void rethrowAt(const Node &N, const std::invalid_argument &E) {
  std::string M = E.what();
  if (M.find("(node ") != std::string::npos)
    throw E;
  throw std::invalid_argument("expression of the node at " + N.Range.File + ":" +
                              std::to_string(N.Range.Line) + " (node " + N.Id + "): " + M);
}

ex FormulaBuilder::listCost(const NodeList &L, const StageWeight &W, const std::string &Key,
                            const std::string &Fn, const std::string &Level) {
  ex Sum = 0;
  const std::map<std::string, std::string> *RF = irRankFreqs(Fn, Level);
  for (const Node &N : L) {
    try {
      ex C = nodeCost(N, W, Key, Fn, Level);
      std::string Freq = freqOf(N, RF);
      Sum += Freq.empty() ? C : parseExpr(Freq) * C;
    } catch (const std::invalid_argument &E) {
      rethrowAt(N, E);
    }
  }
  return Sum;
}

std::string FormulaBuilder::freqOf(const Node &N,
                                   const std::map<std::string, std::string> *RF) const {
  // A block that BranchProbabilityInfo made conditional, inside source arms
  // on the MPI rank: the rank decides.
  if (RF && !N.Freq.empty() && !N.SourceNode.empty()) {
    auto It = RF->find(N.SourceNode);
    if (It != RF->end())
      return It->second;
  }
  return N.Freq;
}

/// Adds the free symbols of expression text X (if any) to Out.
static void addNames(const std::string &X, std::set<std::string> &Out) {
  if (X.empty())
    return;
  for (const std::string &S : freeSymbols(parseExpr(X)))
    Out.insert(S);
}

bool FormulaBuilder::listDeps(const NodeList &L, const StageWeight &W, const std::string &Key,
                              const std::string &Fn, const std::string &Level, int Depth,
                              std::set<std::string> &Out) {
  const std::map<std::string, std::string> *RF = irRankFreqs(Fn, Level);
  bool Any = false;
  for (const Node &N : L) {
    try {
      std::set<std::string> S;
      bool NZ = false;
      if (!N.Ruvs.empty() || N.Kind == NodeKind::Comm || libraryCall(N)) {
        ex Own = W(N);
        if (!Own.is_zero()) {
          NZ = true;
          for (const std::string &X : freeSymbols(Own))
            S.insert(X);
        }
      }
      switch (N.Kind) {
      case NodeKind::Loop: {
        std::set<std::string> B;
        if (listDeps(N.Body, W, Key, Fn, Level, Depth + 1, B)) {
          if (!N.Index.empty()) {
            B.erase(N.Index);
            addNames(N.Start, B);
            addNames(N.Step, B);
          }
          addNames(N.Trip, B);
          S.insert(B.begin(), B.end());
          NZ = true;
        }
        auto Bound = Bounds.find(Key);
        if (Bound != Bounds.end()) {
          // (a memory term costs a loop whose instructions cost nothing)
          symbol Core("segtime_core"); // a symbol of no SEG: the loop's own cost
          ex B = Bound->second(N, Core, Depth);
          NZ |= !B.is_equal(Core);
          for (const std::string &X : freeSymbols(B))
            if (X != "segtime_core")
              S.insert(X);
        }
        break;
      }
      case NodeKind::Branch:
        for (const Arm &A : N.Arms) {
          std::set<std::string> B;
          if (listDeps(A.Body, W, Key, Fn, Level, Depth, B)) {
            addNames(A.Prob, B);
            S.insert(B.begin(), B.end());
            NZ = true;
          }
        }
        break;
      case NodeKind::Call: {
        const FunctionSeg *Callee = File.find(N.Callee);
        if (Callee && InProgress.count(N.Callee))
          Cut = true;
        if (!Callee || InProgress.count(N.Callee))
          break;
        std::set<std::string> C = dependsOn(N.Callee, W, Key, Level);
        UsedBy[N.Callee].insert(Fn);
        if (!DepMemo[{N.Callee, Key}].first)
          break;
        NZ = true;
        std::vector<CallBinding> B = callBindings(N, Callee->Params);
        for (const std::string &X : C) {
          auto A = std::find_if(B.begin(), B.end(), [&](auto &Y) { return Y.Param == X; });
          if (A != B.end())
            addNames(A->Arg, S);
          else if (std::find(Callee->Params.begin(), Callee->Params.end(), X) !=
                   Callee->Params.end())
            S.insert(N.Callee + "." + X);
          else
            S.insert(X);
        }
        break;
      }
      default:
        break;
      }
      if (!NZ)
        continue;
      Any = true;
      addNames(freqOf(N, RF), S);
      Out.insert(S.begin(), S.end());
    } catch (const std::invalid_argument &E) {
      rethrowAt(N, E);
    }
  }
  return Any;
}

std::set<std::string> FormulaBuilder::dependsOn(const std::string &Fn, const StageWeight &W,
                                                const std::string &Key,
                                                const std::string &Level) {
  auto It = DepMemo.find({Fn, Key});
  if (It != DepMemo.end()) {
    Cut |= CutDeps.count({Fn, Key}) > 0;
    return It->second.second;
  }
  const FunctionSeg *F = File.find(Fn);
  if (!F)
    throw std::invalid_argument("no function '" + Fn + "' in the SEG file");
  InProgress.insert(Fn);
  const bool Outer = Cut;
  Cut = false;
  std::set<std::string> Out;
  bool NZ;
  try {
    NZ = listDeps(F->bodyFor(Level), W, Key, Fn, Level, 0, Out);
  } catch (...) {
    InProgress.erase(Fn);
    Cut = true; // (a partial walk is never kept)
    throw;
  }
  InProgress.erase(Fn);
  DepMemo[{Fn, Key}] = {NZ, Out};
  if (Cut)
    CutDeps.insert({Fn, Key});
  Cut |= Outer;
  return Out;
}

ex FormulaBuilder::nodeCost(const Node &N, const StageWeight &W, const std::string &Key,
                            const std::string &Fn, const std::string &Level) {
  const bool Masked = Mask && Fn == MaskFn;
  const bool In = !Masked || Mask->count(&N);
  if (Masked && !In && N.Kind == NodeKind::Call)
    return 0;
  ex Own = (N.Ruvs.empty() && N.Kind != NodeKind::Comm && !libraryCall(N)) || !In ? ex(0) : W(N);
  switch (N.Kind) {
  case NodeKind::Stage:
  case NodeKind::Comm:
    return Own;
  case NodeKind::Unknown: {
    // An IR-level call to a function with no body that the source level
    // does not list as uncosted (a libm call it costs as a construct, a call
    // the optimiser made) is not reported: it stays as the source level has it.
    const FunctionSeg *F = N.Callee.empty() ? nullptr : File.find(Fn);
    if (F && &F->bodyFor(Level) != &F->Body) {
      bool Listed = false;
      forEachNode(F->Body, [&](const Node &X) {
        Listed |= X.Kind == NodeKind::Unknown && X.Callee == N.Callee;
      });
      if (!Listed)
        return Own;
    }
    Unresolved.insert(Fn + ":" + std::to_string(N.Range.Line) + ": " + N.Reason);
    return Own;
  }
  case NodeKind::Loop: {
    ++LoopDepth;
    Indices.push_back(N.Index);
    ex Body;
    try {
      Body = listCost(N.Body, W, Key, Fn, Level);
    } catch (...) {
      --LoopDepth;
      Indices.pop_back();
      throw;
    }
    --LoopDepth;
    Indices.pop_back();
    ex Trip;
    try {
      Trip = parseExpr(N.Trip);
    } catch (const std::exception &E) {
      throw std::invalid_argument("trip count of the loop at " + N.Range.File + ":" +
                                  std::to_string(N.Range.Line) + " (node " + N.Id + "): " + E.what());
    }
    if (ClampTrips && !(is_a<numeric>(Trip) && ex_to<numeric>(Trip).is_nonneg_integer()))
      Trip = max(ex(0), Trip);
    ex Core;
    if (!N.Index.empty() && hasShared(Body, sym(N.Index))) {
      symbol K = sym("k_" + Fn + "_" + N.Id);
      ex B = subsShared(Body, {{sym(N.Index), loopIndexValue(N, K)}});
      Core = Own + sumOver(B, K, Trip);
    } else {
      Core = Own + Trip * Body;
    }
    auto Bound = Bounds.find(Key);
    if (Bound != Bounds.end() && In)
      return Bound->second(N, expandWithin(Core, MaxTerms), LoopDepth);
    return Core;
  }
  case NodeKind::Branch: {
    ex Sum = Own;
    for (const Arm &A : N.Arms)
      Sum += parseExpr(A.Prob) * listCost(A.Body, W, Key, Fn, Level);
    return Sum;
  }
  case NodeKind::Call: {
    if (libraryCall(N)) {
      const LibraryFunction *F = libraryFunction(N.Callee);
      if (!LibrarySet)
        ; // (calibrate's counts: the library is not part of them)
      else if (!LibraryCosted.count(F->Name))
        Unresolved.insert(Fn + ":" + std::to_string(N.Range.Line) + ": call to '" + N.Callee +
                          "': no library cost in " + LibraryMachine + " (library." + F->Name +
                          ": segtime calibrate --level library)");
      else if (F->Sized && N.Bytes.empty())
        Unresolved.insert(Fn + ":" + std::to_string(N.Range.Line) + ": call to '" + N.Callee +
                          "': size not known in the optimised code, costed per call only");
      return Own;
    }
    const FunctionSeg *Callee = File.find(N.Callee);
    if (Callee && InProgress.count(N.Callee))
      Cut = true;
    if (!Callee || InProgress.count(N.Callee)) {
      std::string Note = Fn + ":" + std::to_string(N.Range.Line) + ": " +
                         (Callee ? "recursive call to '" + N.Callee + "'"
                                 : "call to '" + N.Callee + "' has no SEG");
      if (Callee)
        CutNotes.insert(Note);
      Unresolved.insert(Note);
      return Own;
    }
    UsedBy[N.Callee].insert(Fn);
    if (CallFilter && CallFilter(N.Callee, Key))
      return Own;
    ex C = closedForm(N.Callee, W, Key, Level);
    return Own + boundCall(N, *Callee, C, Key);
  }
  }
  return Own;
}

ex FormulaBuilder::boundCall(const Node &Call, const FunctionSeg &Callee, const ex &C,
                             const std::string &Key) {
  // Only the parameters the callee's form has are bound: a form without
  // them is the one object at every call site, not walked again per site.
  auto Free = FreeMemo.find({Call.Callee, Key});
  if (Free == FreeMemo.end())
    Free = FreeMemo.emplace(std::make_pair(Call.Callee, Key), freeSymbols(C)).first;
  exmap Bind = callSubstitution(Call, Callee);
  for (auto It = Bind.begin(); It != Bind.end();)
    It = Free->second.count(ex_to<symbol>(It->first).get_name()) ? std::next(It) : Bind.erase(It);
  // A large form is kept behind a call, evaluated once the values are
  // known, unless an argument depends on an enclosing loop's index (the
  // sum over the loop then needs the form itself).
  if (MaxCalleeNodes) {
    auto Size = SizeMemo.find({Call.Callee, Key});
    if (Size == SizeMemo.end())
      Size = SizeMemo.emplace(std::make_pair(Call.Callee, Key), dagSize(C)).first;
    if (Size->second > MaxCalleeNodes) {
      exmap All = callSubstitution(Call, Callee);
      std::vector<std::string> Params;
      exvector Args;
      bool Indexed = false;
      // (the parameters the form has: a pointer argument, unbound, is none)
      for (const std::string &P : Callee.Params) {
        if (!Free->second.count(P) || std::find(Params.begin(), Params.end(), P) != Params.end())
          continue;
        Params.push_back(P);
        Args.push_back(All.at(sym(P)));
        for (const std::string &X : freeSymbols(Args.back()))
          Indexed |= std::find(Indices.begin(), Indices.end(), X) != Indices.end();
      }
      if (!Indexed) {
        auto Id = KeptIds.find({Call.Callee, Key});
        if (Id == KeptIds.end())
          Id = KeptIds.emplace(std::make_pair(Call.Callee, Key), keepForm(Call.Callee, C, Params))
                   .first;
        if (PredictTiming::get().On)
          PredictTiming::get().Counter["calls kept (large callee forms)"] += 1;
        return keptCall(Id->second, Args);
      }
    }
  }
  if (Bind.empty())
    return C;
  // The same binding of the same form (a call repeated in the code, or
  // calls whose arguments are not in source names, each parameter then
  // bound to "callee.param") is the one object: built once, and shared
  // in the caller's DAG, where GiNaC adds its copies as k*form.
  BoundKey BK{Call.Callee, Key, {}};
  for (auto &[P, A] : Bind)
    BK.Args.emplace_back(ex_to<symbol>(P).get_name(), A);
  auto Hit = BoundMemo.find(BK);
  if (Hit != BoundMemo.end()) {
    if (PredictTiming::get().On)
      PredictTiming::get().Counter["call bindings reused"] += 1;
    return Hit->second;
  }
  ++Bindings;
  if (PredictTiming::get().On)
    PredictTiming::get().Counter["call bindings substituted"] += 1;
  ex R = subsShared(C, Bind);
  BoundMemo.emplace(std::move(BK), R);
  return R;
}

ex FormulaBuilder::closedForm(const std::string &Fn, const StageWeight &W,
                              const std::string &Key) {
  return closedForm(Fn, W, Key, "");
}

ex FormulaBuilder::closedForm(const std::string &Fn, const StageWeight &W, const std::string &Key,
                              const std::string &Level) {
  auto MemoIt = Memo.find({Fn, Key});
  if (MemoIt != Memo.end()) {
    Cut |= CutMemo.count({Fn, Key}) > 0;
    return MemoIt->second;
  }
  const FunctionSeg *F = File.find(Fn);
  if (!F)
    throw std::invalid_argument("no function '" + Fn + "' in the SEG file");
  ++Built;
  if (PredictTiming::get().On)
    PredictTiming::get().Counter["closed forms built"] += 1;
  InProgress.insert(Fn);
  int Depth = LoopDepth; // a function's closed form is the same wherever it is called
  LoopDepth = 0;
  std::vector<std::string> OuterIndices;
  std::swap(OuterIndices, Indices);
  const bool Outer = Cut;
  Cut = false;
  ex R;
  try {
    R = listCost(F->bodyFor(Level), W, Key, Fn, Level);
  } catch (...) {
    LoopDepth = Depth;
    std::swap(OuterIndices, Indices);
    InProgress.erase(Fn);
    Cut = true; // (the callers' forms are not kept either)
    throw;
  }
  LoopDepth = Depth;
  std::swap(OuterIndices, Indices);
  InProgress.erase(Fn);
  if (Cut)
    CutMemo.insert({Fn, Key});
  Cut |= Outer;
  bool Expanded = true;
  R = expandWithin(R, MaxTerms, &Expanded);
  if (!Expanded)
    Factored.insert({Fn, Key});
  Memo[{Fn, Key}] = R;
  return R;
}

void FormulaBuilder::forget(const std::string &Fn) {
  std::set<std::string> Gone;
  std::vector<std::string> Work{Fn};
  while (!Work.empty()) {
    std::string G = Work.back();
    Work.pop_back();
    if (!Gone.insert(G).second)
      continue;
    if (auto U = UsedBy.find(G); U != UsedBy.end()) {
      Work.insert(Work.end(), U->second.begin(), U->second.end());
      UsedBy.erase(U);
    }
  }
  auto Drop = [&](auto &M) {
    for (auto It = M.begin(); It != M.end();)
      It = Gone.count(It->first.first) ? M.erase(It) : std::next(It);
  };
  Drop(Memo);
  Drop(FreeMemo);
  Drop(DepMemo);
  for (auto It = BoundMemo.begin(); It != BoundMemo.end();)
    It = Gone.count(It->first.Callee) ? BoundMemo.erase(It) : std::next(It);
  Drop(KeptIds);
  Drop(SizeMemo);
  for (auto *C : {&CutMemo, &CutDeps, &Factored})
    for (auto It = C->begin(); It != C->end();)
      It = Gone.count(It->first) ? C->erase(It) : std::next(It);
  for (const std::string &G : Gone)
    RankFreqs.erase(G);
}

void FormulaBuilder::keepContextFree() {
  for (auto It = BoundMemo.begin(); It != BoundMemo.end();)
    It = CutMemo.count({It->first.Callee, It->first.Key}) ? BoundMemo.erase(It) : std::next(It);
  for (auto &K : CutMemo) {
    Memo.erase(K);
    FreeMemo.erase(K);
    KeptIds.erase(K);
    SizeMemo.erase(K);
    Factored.erase(K);
  }
  for (auto &K : CutDeps)
    DepMemo.erase(K);
  CutMemo.clear();
  CutDeps.clear();
  for (const std::string &N : CutNotes)
    Unresolved.erase(N);
  CutNotes.clear();
}

ex FormulaBuilder::nodeForm(const std::string &Fn, const std::set<const Node *> &Only,
                            const StageWeight &W, const std::string &Key,
                            const std::string &Level) {
  const FunctionSeg *F = File.find(Fn);
  if (!F)
    throw std::invalid_argument("no function '" + Fn + "' in the SEG file");
  Mask = &Only;
  MaskFn = Fn;
  InProgress.insert(Fn);
  ex R;
  try {
    R = listCost(F->bodyFor(Level), W, Key, Fn, Level);
  } catch (...) {
    Mask = nullptr;
    InProgress.erase(Fn);
    throw;
  }
  Mask = nullptr;
  InProgress.erase(Fn);
  return expandWithin(R, MaxTerms);
}

namespace {
struct Printer {
  const SegFile &File;
  std::string list(const NodeList &L) const {
    std::string S;
    for (const Node &N : L) {
      std::string T = node(N);
      if (T.empty())
        continue;
      S += (S.empty() ? "" : " + ") + T;
    }
    return S;
  }
  static std::string paren(const std::string &S) {
    return S.find(" + ") == std::string::npos && S.find(" - ") == std::string::npos
               ? S
               : "(" + S + ")";
  }
  static bool mentions(const NodeList &L, const std::string &Sym) {
    bool Found = false;
    std::regex Word("\\b" + Sym + "\\b");
    forEachNode(L, [&](const Node &N) {
      for (const std::string *E : {&N.Trip, &N.Start})
        Found |= std::regex_search(*E, Word);
      for (const std::string &A : N.Args)
        Found |= std::regex_search(A, Word);
    });
    return Found;
  }
  std::string node(const Node &N) const {
    // (a loop's -O0 chains, "chain.*", are a bound on it, not a cost of its own)
    bool Costed = std::any_of(N.Ruvs.begin(), N.Ruvs.end(),
                              [](const auto &R) { return R.first.rfind("chain.", 0) != 0; });
    std::string Own = Costed ? "t(" + N.Id + ")" : "";
    auto Join = [&](const std::string &Rest) {
      if (Own.empty())
        return Rest;
      return Rest.empty() ? Own : Own + " + " + Rest;
    };
    switch (N.Kind) {
    case NodeKind::Stage:
      return Own;
    case NodeKind::Comm:
      return Join("T_" + N.CommOp + "(" + N.Bytes + ")");
    case NodeKind::Unknown:
      return Join("U(" + N.Id + ")");
    case NodeKind::Loop: {
      std::string B = list(N.Body);
      if (!N.Index.empty() && mentions(N.Body, N.Index))
        return Join("Σ[" + N.Index + " = " + N.Start +
                    (N.StepKind == "mul" ? ", ×" : ", +") + N.Step + "; " + N.Trip +
                    " terms] " + paren(B));
      return Join(paren(N.Trip) + "·" + paren(B));
    }
    case NodeKind::Branch: {
      std::string S;
      for (const Arm &A : N.Arms) {
        std::string B = list(A.Body);
        if (B.empty())
          continue;
        S += (S.empty() ? "" : " + ") + paren(A.Prob) + "·" + paren(B);
      }
      return Join(S);
    }
    case NodeKind::Call: {
      std::string Args;
      for (const std::string &A : N.Args)
        Args += (Args.empty() ? "" : ", ") + (A.empty() ? std::string("?") : A);
      return Join("T_" + N.Callee + "(" + Args + ")");
    }
    }
    return Own;
  }
};
} // namespace

std::string FormulaBuilder::structural(const std::string &Fn) const {
  const FunctionSeg *F = File.find(Fn);
  if (!F)
    throw std::invalid_argument("no function '" + Fn + "' in the SEG file");
  std::string Args;
  for (const std::string &P : F->Params)
    Args += (Args.empty() ? "" : ", ") + P;
  std::string B = Printer{File}.list(F->Body);
  return "T_" + Fn + "(" + Args + ") = " + (B.empty() ? "0" : B);
}

std::map<std::string, Parameter> FormulaBuilder::declaredParameters() const {
  std::map<std::string, Parameter> M;
  for (const FunctionSeg &F : File.Functions)
    for (const Parameter &P : F.Parameters)
      M[P.Name] = P;
  return M;
}

std::optional<double> defaultValue(const Parameter &P,
                                   const std::map<std::string, double> &Values) {
  if (P.Default)
    return P.Default;
  if (P.DefaultExpr.empty())
    return std::nullopt;
  try {
    return evaluate(parseExpr(P.DefaultExpr), Values);
  } catch (const std::exception &E) {
    throw std::runtime_error("default of " + P.Name + " (" + P.DefaultExpr + "): " + E.what());
  }
}

} // namespace segtime
