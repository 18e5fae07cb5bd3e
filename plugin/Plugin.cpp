//===- Plugin.cpp - The segtime clang plugin entry point -------------------===//
///
/// \file
/// `-fplugin=build/lib/segtime.so` adds, after the main compile action, an AST
/// consumer that builds the SEG of every function with a body, prints each
/// main-file function's timing formula and writes <output>.seg.json. Each
/// function is built, merged with its IR levels and written as soon as its
/// IR SEG is final (during code generation), then released: memory holds
/// the IR SEGs still waiting for code generation, not the whole file's
/// SEGs. The plugin never changes the AST or the generated code, except
/// with `instrument` (component timing), whose point is to add timers.
///
/// USAGE:
///   clang-19 -O2 -fplugin=build/lib/segtime.so -c kernel.c
///   clang-19 -O2 -fplugin=build/lib/segtime.so -fplugin-arg-segtime-quiet -c kernel.c
///   clang-19 ... -fplugin-arg-segtime-machine=t800 -fplugin-arg-segtime-out=k.seg.json
///
/// Options (-fplugin-arg-segtime-KEY[=VALUE]):
///   quiet            print nothing (still write the .seg.json)
///   machine=NAME     machine for the printed closed forms (default: this
///                    machine if `segtime calibrate` calibrated it, then also
///                    targets=compile; else t800; predictor/Install.h)
///   out=PATH         where to write the SEG file (default <output>.seg.json)
///   targets=LIST     ICC targets (znver5,skylake,leon3,... or TRIPLE:CPU)
///   no-ir            skip the IR (IntCC) and machine (ICC) levels
///   instrument       component timing: build with timers and counters around
///                    every SEG node (passes/Instrument.h); link
///                    build/lib/libsegtime-rt.a, run: <program>.ct.json
///   instrument=all   also time innermost loops (counted only by default)
///   instrument=no-clock  the same instrumentation with every timer read an
///                    opaque zero: a measurement aid (what the reads cost)
///   p=NAME=VALUE     parameter value for the printed ICC times (repeatable)
///   timing           print the plugin's own phase times (passes/Timing.h)
///   budget=N         units of symbolic work per function for the IR level
///                    (default 1000000, passes/IRSeg.h); beyond, numeric
///                    estimates and a warning
///   help             list the options
///
//===----------------------------------------------------------------------===//
#include "core/Link.h"
#include "passes/MachineLevel.h"
#include "passes/Register.h"
#include "passes/Timing.h"
#include "plugin/SegBuilder.h"
#include "predictor/ExprText.h"
#include "predictor/Install.h"
#include "predictor/Predict.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <map>
#include <optional>
#include <regex>
#include <set>

using namespace clang;

namespace segtime {
namespace {

struct PluginOptions {
  bool Quiet = false;
  bool IR = true; ///< run the IR passes (IntCC) and the machine level (ICC)
  std::string Machine;     ///< empty: none named (chooseDefaultMachine)
  std::string MachineNote; ///< which machine is used and why, when none is named
  std::string Out;
  std::vector<std::string> Targets; ///< ICC targets; empty: none
  uint64_t Budget = DefaultAnalysisBudget; ///< IR level, per function (buildIRSeg)
  bool Instrument = false; ///< component timing (CT)
  bool TimeInnermostLoops = false; ///< instrument=all
  bool NoClock = false;            ///< instrument=no-clock
  bool Timing = false;             ///< print the plugin's phase times
  std::map<std::string, double> Values; ///< p=NAME=VALUE, for the printed ICC times
  /// inlined[=NAME,...]: functions with no code of their own (every call
  /// inlined) that get IR and machine levels from the code of their calls
  /// (all of them, or those named). Off by default: each such function
  /// carries a copy of its callers' code, about 1.4x the .seg.json on Lua.
  bool InlinedAll = false;
  std::set<std::string> Inlined;
};

/// The innermost source-level SEG node whose range contains Line:Col, for
/// attributing optimised code to source (design.md §5); Loop nodes that
/// start on Line win for IR loops.
const Node *sourceNodeAt(const NodeList &L, unsigned Line, unsigned Col, bool WantLoop,
                         const Node *Best = nullptr) {
  for (const Node &N : L) {
    const SourceRange &R = N.Range;
    bool Inside = R.Line && (Line > R.Line || (Line == R.Line && Col >= R.Col)) &&
                  (Line < R.EndLine || (Line == R.EndLine && Col <= R.EndCol));
    if (WantLoop && N.Kind == NodeKind::Loop && R.Line == Line)
      return &N;
    if (Inside) {
      Best = &N;
      if (const Node *Inner = sourceNodeAt(N.Body, Line, Col, WantLoop, Best); Inner != Best)
        return Inner;
      for (const Arm &A : N.Arms)
        if (const Node *Inner = sourceNodeAt(A.Body, Line, Col, WantLoop, Best); Inner != Best)
          return Inner;
    } else if (WantLoop) {
      if (const Node *Inner = sourceNodeAt(N.Body, Line, Col, WantLoop, Best); Inner != Best)
        return Inner;
    }
  }
  return Best;
}

/// Whether the std::regex \bName\b matches exactly the whole-word
/// occurrences of Name as a literal: Name is a non-empty run of word
/// characters ([A-Za-z0-9_], ECMAScript's \w).
bool isWord(const std::string &Name) {
  return !Name.empty() && llvm::all_of(Name, [](char C) { return llvm::isAlnum(C) || C == '_'; });
}

/// Position of the first whole-word occurrence of word Name in Text at or
/// after From, or npos.
size_t findWord(const std::string &Text, const std::string &Name, size_t From = 0) {
  auto WordChar = [](char C) { return llvm::isAlnum(C) || C == '_'; };
  for (size_t At = Text.find(Name, From); At != std::string::npos; At = Text.find(Name, At + 1))
    if ((At == 0 || !WordChar(Text[At - 1])) &&
        (At + Name.size() == Text.size() || !WordChar(Text[At + Name.size()])))
      return At;
  return std::string::npos;
}

/// std::regex_search(Text, std::regex("\\b" + Name + "\\b")), without
/// building and running a regex where Name is a word (mergeIR asks this for
/// every parameter and memory text).
bool containsWord(const std::string &Text, const std::string &Name) {
  if (!isWord(Name))
    return std::regex_search(Text, std::regex("\\b" + Name + "\\b"));
  return findWord(Text, Name) != std::string::npos;
}

/// std::regex_replace(Text, std::regex("\\b" + Name + "\\b"), By), the
/// same way (By without '$', which the regex would read as a group).
std::string replaceWord(const std::string &Text, const std::string &Name,
                        const std::string &By) {
  if (!isWord(Name) || By.find('$') != std::string::npos)
    return std::regex_replace(Text, std::regex("\\b" + Name + "\\b"), By);
  std::string R;
  size_t From = 0;
  for (size_t At = findWord(Text, Name); At != std::string::npos;
       At = findWord(Text, Name, From)) {
    R.append(Text, From, At - From);
    R += By;
    From = At + Name.size();
  }
  R.append(Text, From, std::string::npos);
  return R;
}

/// Applies Fn to every expression text of N and its body (counts,
/// frequencies, arguments, probabilities, memory terms).
void forEachText(Node &N, const std::function<void(std::string &)> &Fn) {
  for (std::string *T : {&N.Trip, &N.Start, &N.Step, &N.Freq, &N.BranchProb, &N.Footprint,
                         &N.Traffic, &N.Bytes, &N.Peer, &N.Root})
    Fn(*T);
  for (std::string &A : N.Args)
    Fn(A);
  for (MemStream &M : N.Streams) {
    for (std::string &O : M.Offsets)
      Fn(O);
    for (MemStream::Step &St : M.Loops) {
      Fn(St.Stride);
      Fn(St.Trip);
    }
  }
  for (Node &C : N.Body)
    forEachText(C, Fn);
  for (Arm &A : N.Arms) {
    Fn(A.Prob);
    for (Node &C : A.Body)
      forEachText(C, Fn);
  }
}

/// The optimised code of one inlined call, copied out of its caller's
/// IR-level SEG (with the ICC RUVs attached there): the nodes of
/// InlinedSite::Nodes with the edge stages code generation put after them,
/// and the caller's parameters they use.
struct InlinedCopy {
  std::string Caller; ///< IR name
  InlinedSite Site;
  NodeList Nodes;
  std::vector<Parameter> Parameters;
};

InlinedCopy copyInlined(const IRFunctionSeg &IR, const InlinedSite &S) {
  InlinedCopy C{IR.Name, S, {}, {}};
  std::function<void(const NodeList &)> Walk = [&](const NodeList &L) {
    for (size_t I = 0; I < L.size(); ++I) {
      if (!llvm::is_contained(S.Nodes, L[I].Id)) {
        Walk(L[I].Body);
        for (const Arm &A : L[I].Arms)
          Walk(A.Body);
        continue;
      }
      C.Nodes.push_back(L[I]);
      // Edge stages (<id>e<to>) and a final loop test (<id>t) go with it.
      while (I + 1 < L.size() && (L[I + 1].Id.rfind(L[I].Id + "e", 0) == 0 ||
                                  L[I + 1].Id == L[I].Id + "t") &&
             !llvm::is_contained(S.Nodes, L[I + 1].Id))
        C.Nodes.push_back(L[++I]);
    }
  };
  Walk(IR.Seg);
  std::string Texts;
  for (Node &N : C.Nodes)
    forEachText(N, [&](std::string &T) { Texts += T + " "; });
  for (const Parameter &P : IR.Parameters)
    if (containsWord(Texts, P.Name))
      C.Parameters.push_back(P);
  return C;
}

/// The IR-level SEG of a function that has no code of its own (every call
/// to it inlined) from the copies of its inlined calls: one call, as the
/// mean of its K call sites (each site's code in the order of the copies,
/// its top-level frequencies divided by K; they stay relative to the
/// enclosing region of the caller, 1 for a call in straight-line code or
/// unconditional in a loop body). Per call, as the source levels and the
/// IR level of a function with code of its own are; the caller's own IR
/// level counts each site's code where it runs. The callee's
/// arguments ("kernel.n") become its parameters (n, bound to themselves by
/// Own: core/Link.h bindCalleeNames); a loop count the
/// caller could not give, N_<caller>_<line>, becomes N_<callee>_<line>, so
/// that mergeIR can take the source loop's count for it. With several
/// calls, node ids get the prefix "c<k>_".
IRFunctionSeg inlinedSeg(const std::string &Callee, const std::string &SourceName,
                         const std::vector<CallBinding> &Own, std::vector<InlinedCopy> &Copies) {
  IRFunctionSeg R;
  R.Name = Callee;
  std::set<std::string> ParamNames;
  for (size_t K = 0; K < Copies.size(); ++K) {
    InlinedCopy &C = Copies[K];
    std::map<std::string, std::string> Rename;
    for (Parameter P : C.Parameters) {
      std::string Own = "N_" + C.Caller + "_";
      if (P.Name.rfind(Own, 0) == 0) {
        std::string New = "N_" + Callee + "_" + P.Name.substr(Own.size());
        Rename[P.Name] = New;
        P.Name = New;
      }
      if (ParamNames.insert(P.Name).second)
        R.Parameters.push_back(P);
    }
    std::string Prefix = Copies.size() > 1 ? "c" + std::to_string(K + 1) + "_" : "";
    std::function<void(Node &)> Ids = [&](Node &N) {
      N.Id = Prefix + N.Id;
      for (MemStream &M : N.Streams)
        for (MemStream::Step &St : M.Loops)
          St.Loop = Prefix + St.Loop;
      for (Node &X : N.Body)
        Ids(X);
      for (Arm &A : N.Arms)
        for (Node &X : A.Body)
          Ids(X);
    };
    for (Node &N : C.Nodes) {
      forEachText(N, [&](std::string &T) {
        T = bindCalleeNames(T, SourceName, Own);
        for (auto &[From, To] : Rename)
          T = replaceWord(T, From, To);
      });
      if (!Prefix.empty()) {
        Ids(N);
        std::string K = std::to_string(Copies.size());
        N.Freq = N.Freq.empty() ? "1/" + K : "(" + N.Freq + ")/" + K;
      }
      R.Seg.push_back(std::move(N));
    }
    R.Notes.push_back("code of the call at " + C.Site.Where + " (inlined into '" + C.Caller +
                      "')");
  }
  return R;
}

/// Source-level loops by the line they start on.
void loopsByLine(const NodeList &L, std::map<unsigned, std::vector<const Node *>> &Out) {
  forEachNode(L, [&](const Node &N) {
    if (N.Kind == NodeKind::Loop && N.Range.Line)
      Out[N.Range.Line].push_back(&N);
  });
}

/// Moves the IR passes' results for function F into the SEG file: its
/// LevelSegs["IR"], with simplified trip counts and source attribution. A loop
/// ScalarEvolution could not count (e.g. at -O0, where induction variables
/// live in memory) that is the only optimised loop of a counted source loop
/// takes the source loop's trip count, its enclosing source indices written
/// as the IR loops' iteration numbers (i = start + step*k); otherwise it
/// keeps the parameter N_<function>_<line> (shared with the source level).
/// IR's SEG is moved into F; SourceNames maps IR (mangled) names to source
/// names; warnings go into Warnings.
void mergeIR(std::vector<std::string> &Warnings, FunctionSeg &F, IRFunctionSeg &IR,
             const std::map<std::string, std::string> &SourceNames,
             const std::map<std::string, std::vector<std::string>> &ParamNames) {
  NodeList Seg = std::move(IR.Seg);
  std::map<std::string, Parameter> Fallback;
  for (const Parameter &P : IR.Parameters)
    Fallback[P.Name] = P;
  std::map<unsigned, std::vector<const Node *>> AstLoops;
  loopsByLine(F.Body, AstLoops);
  std::map<unsigned, int> IRLoopsAt;
  forEachNode(Seg, [&](const Node &N) {
    if (N.Kind == NodeKind::Loop)
      ++IRLoopsAt[N.Range.Line];
  });
  std::vector<std::pair<const Node *, std::string>> Enclosing; // source loop, IR index
  std::set<std::string> Used;
  std::map<std::string, std::string> TripOf; // N_<fn>_<line> -> source count
  // A source-level expression in the IR SEG's names: the indices of
  // enclosing source loops become their IR loops' iteration numbers
  // (i = start + step*k), innermost first, so that an outer index in an
  // inner loop's start or step (lo += 2*w) is replaced too. None if it
  // uses an index with no IR loop.
  auto inIRNames = [&](std::string T) -> std::optional<std::string> {
    for (auto It = Enclosing.rbegin(); It != Enclosing.rend(); ++It) {
      auto &[Outer, K] = *It;
      if (Outer->Index.empty())
        continue;
      std::string V = Outer->StepKind == "mul"
                          ? "((" + Outer->Start + ")*(" + Outer->Step + ")^" + K + ")"
                          : "((" + Outer->Start + ") + (" + Outer->Step + ")*" + K + ")";
      T = replaceWord(T, Outer->Index, V);
    }
    for (auto &[Line, Ns] : AstLoops)
      for (const Node *Other : Ns)
        if (!Other->Index.empty() &&
            containsWord(T, Other->Index))
          return std::nullopt;
    return T;
  };
  // Source-level calls by line and callee, for arguments SCEV could not
  // express (at -O0 they are loads).
  std::map<std::pair<unsigned, std::string>, std::vector<const Node *>> AstCalls;
  // Trip parameters replaced by a count in an enclosing IR loop's
  // iteration number, with the loop's line.
  std::map<std::string, unsigned> PerIteration;
  forEachNode(F.Body, [&](const Node &N) {
    if (N.Kind == NodeKind::Call || !N.Callee.empty())
      AstCalls[{N.Range.Line, N.Callee}].push_back(&N);
  });
  std::function<void(NodeList &)> Walk = [&](NodeList &L) {
    for (Node &N : L) {
      const Node *Src = nullptr;
      if (N.Kind == NodeKind::Loop) {
        auto A = AstLoops.find(N.Range.Line);
        if (A != AstLoops.end() && A->second.size() == 1 && IRLoopsAt[N.Range.Line] == 1)
          Src = A->second[0];
        // Cross-check: a counted source loop and its one optimised loop
        // must agree on the number of iterations (design.md §5).
        if (Src && !Src->Index.empty() && !Fallback.count(N.Trip) && Src->StepKind == "add" &&
            N.Label.empty()) {
          std::map<std::string, std::string> Subst;
          for (auto &[Outer, K] : Enclosing)
            if (!Outer->Index.empty() && Outer->StepKind == "add")
              Subst[K] = "(" + Outer->Index + " - (" + Outer->Start + "))/(" + Outer->Step + ")";
          double Ratio = valueRatio(Src->Trip, N.Trip, Subst);
          double Factor = std::round(Ratio);
          if (sameValue(Src->Trip, N.Trip, Subst) == 0 && Factor >= 2 && Factor <= 16 &&
              std::fabs(Ratio - Factor) < 0.01 && ((int)Factor & ((int)Factor - 1)) == 0)
            N.Label = "unrolled x" + std::to_string((int)Factor); // remainder not a loop
          else if (sameValue(Src->Trip, N.Trip, Subst) == 0)
            Warnings.push_back(F.Name + ":" + std::to_string(N.Range.Line) +
                                    ": segtime: trip counts disagree: source loop " + Src->Id +
                                    " runs " + Src->Trip + " times, ScalarEvolution says " +
                                    simplifyExprText(N.Trip) + " for optimised loop " + N.Id);
        }
        if (Fallback.count(N.Trip) && Src && !Src->Index.empty() && N.Label.empty())
          if (auto T = inIRNames(Src->Trip)) {
            // The memory term's texts use the parameter too; there the
            // nest's own iteration numbers are not defined.
            if (T->find("k_") == std::string::npos)
              TripOf[N.Trip] = *T;
            else
              PerIteration[N.Trip] = N.Range.Line;
            N.Trip = *T;
          }
        if (Fallback.count(N.Trip))
          Used.insert(N.Trip);
        N.Trip = simplifyExprText(N.Trip);
      }
      if (N.Kind == NodeKind::Call || !N.Callee.empty()) {
        if (auto S = SourceNames.find(N.Callee); S != SourceNames.end())
          N.Callee = S->second;
        auto A = AstCalls.find({N.Range.Line, N.Callee});
        if (A != AstCalls.end() && A->second.size() == 1)
          for (size_t I = 0; I < N.Args.size() && I < A->second[0]->Args.size(); ++I)
            if (N.Args[I].empty() && !A->second[0]->Args[I].empty())
              if (auto T = inIRNames(A->second[0]->Args[I]))
                N.Args[I] = *T;
      }
      for (std::string &Arg : N.Args)
        Arg = simplifyExprText(Arg);
      if (N.Range.Line)
        if (const Node *S = sourceNodeAt(F.Body, N.Range.Line, N.Range.Col,
                                         N.Kind == NodeKind::Loop))
          N.SourceNode = S->Id;
      if (Src)
        Enclosing.push_back({Src, N.Index});
      Walk(N.Body);
      if (Src)
        Enclosing.pop_back();
    }
  };
  Walk(Seg);
  // The code of a call inlined here is attributed to the call, and the
  // callee's parameters it is written in ("kernel.n") are bound to the
  // call's arguments by the predictor's binder (core/Link.h callBindings),
  // per call site; in F's other code (a value F passes and uses itself)
  // where all its calls of that callee agree. An argument in a source
  // loop's index has no name in the IR level: that parameter stays.
  auto Bindings = [&](const Node &Call, const std::string &IRCallee) {
    std::vector<std::string> Ps;
    for (unsigned K = 0; K < Call.Args.size(); ++K)
      Ps.push_back(calleeParamName(ParamNames, IRCallee, K));
    std::vector<CallBinding> B = callBindings(Call, Ps);
    llvm::erase_if(B, [&](const CallBinding &X) { return !inIRNames(X.Arg); });
    return B;
  };
  // Binds the texts of N and its body; a count or argument that changes is
  // simplified, as Walk does.
  auto Bind = [](Node &N, const std::string &Callee, const std::vector<CallBinding> &B) {
    auto One = [&](std::string &T, bool Simplify) {
      std::string Bound = bindCalleeNames(T, Callee, B);
      if (Bound != T)
        T = Simplify ? simplifyExprText(Bound) : std::move(Bound);
    };
    auto Counts = [&](Node &X) {
      One(X.Trip, true);
      for (std::string &A : X.Args)
        One(A, true);
    };
    Counts(N);
    forEachNode(N.Body, Counts);
    forEachText(N, [&](std::string &T) { One(T, false); });
  };
  std::map<std::string, std::string> InlinedCallees; // name in the texts -> IR name
  for (const InlinedSite &S : IR.Inlined) {
    if (S.Where.find(" in ") != std::string::npos)
      continue; // (a call in code itself inlined: to the outer call)
    auto SN = SourceNames.find(S.Callee);
    const std::string &Callee = SN != SourceNames.end() ? SN->second : S.Callee;
    InlinedCallees.emplace(Callee, S.Callee);
    // The source call at the site's line and column (the one on its line).
    auto A = AstCalls.find({S.Line, Callee});
    const Node *Call = nullptr;
    if (A != AstCalls.end())
      for (const Node *C : A->second)
        if (C->Range.Col == S.Col || A->second.size() == 1)
          Call = C;
    if (!Call)
      continue;
    std::vector<CallBinding> B = Bindings(*Call, S.Callee);
    std::function<void(NodeList &)> Mark = [&](NodeList &L) {
      for (size_t I = 0; I < L.size(); ++I) {
        Node &N = L[I];
        if (!llvm::is_contained(S.Nodes, N.Id)) {
          Mark(N.Body);
          continue;
        }
        N.SourceNode = Call->Id;
        forEachNode(N.Body, [&](Node &X) { X.SourceNode = Call->Id; });
        Bind(N, Callee, B);
        // The edge stages code generation put after it (<id>e<to>) and
        // its final loop test (<id>t) run in the same code.
        while (I + 1 < L.size() && (L[I + 1].Id.rfind(N.Id + "e", 0) == 0 ||
                                    L[I + 1].Id == N.Id + "t") &&
               !llvm::is_contained(S.Nodes, L[I + 1].Id))
          Bind(L[++I], Callee, B);
      }
    };
    Mark(Seg);
  }
  for (auto &[Callee, IRCallee] : InlinedCallees) {
    std::optional<std::vector<CallBinding>> Agreed;
    forEachNode(F.Body, [&](const Node &C) {
      if (C.Kind != NodeKind::Call || C.Callee != Callee)
        return;
      std::vector<CallBinding> B = Bindings(C, IRCallee);
      if (!Agreed)
        Agreed = B;
      else
        llvm::erase_if(*Agreed, [&](const CallBinding &X) {
          return llvm::none_of(B, [&](const CallBinding &Y) {
            return Y.Param == X.Param && Y.Arg == X.Arg;
          });
        });
    });
    if (Agreed && !Agreed->empty())
      for (Node &N : Seg)
        Bind(N, Callee, *Agreed);
  }
  // Trip parameters replaced by source counts, also in the memory terms.
  auto Replace = [&](std::string &X) {
    for (auto &[Name, T] : TripOf)
      X = replaceWord(X, Name, "(" + T + ")");
  };
  for (Node &N : Seg) {
    if (N.Footprint.empty())
      continue;
    Replace(N.Footprint);
    Replace(N.Traffic);
    for (MemStream &M : N.Streams)
      for (MemStream::Step &St : M.Loops)
        Replace(St.Trip);
    // A trip count known only per iteration of an enclosing loop (from
    // the source, -O0: i = k+1 .. n-1) is not defined in the memory
    // texts: no memory term for this nest rather than a parameter nobody
    // can give (the note says so).
    std::string Texts = N.Footprint + " " + N.Traffic;
    for (const MemStream &M : N.Streams)
      for (const MemStream::Step &St : M.Loops)
        Texts += " " + St.Trip;
    for (auto &[Name, Line] : PerIteration)
      if (containsWord(Texts, Name)) {
        N.Footprint.clear();
        N.Traffic.clear();
        N.Streams.clear();
        N.MemoryNotes.push_back("memory term left out: the trip count of the loop at line " +
                                std::to_string(Line) +
                                " is known only per iteration of an enclosing loop (from "
                                "the source loop; ScalarEvolution could not count it)");
        break;
      }
    // Those left are parameters of the formula.
    for (auto &[Name, P] : Fallback)
      if (containsWord(N.Traffic + " " + N.Footprint, Name))
        Used.insert(Name);
  }
  F.LevelSegs["IR"] = std::move(Seg);
  for (auto &[Name, P] : Fallback)
    if ((Used.count(Name) || P.Kind == "branch") &&
        std::none_of(F.Parameters.begin(), F.Parameters.end(),
                     [&](const Parameter &Q) { return Q.Name == Name; }))
      F.Parameters.push_back(P); // IR branch probabilities: Pir_... (BPI)
}

/// What the IR passes leave for the whole file: the targets and their
/// errors.
void mergeIRFile(SegFile &File, const IRCollection &C) {
  File.Targets = C.TargetInfo;
  for (const std::string &E : C.Errors)
    File.Warnings.push_back("segtime: " + E);
}

class FunctionCollector : public RecursiveASTVisitor<FunctionCollector> {
public:
  explicit FunctionCollector(SourceManager &SM) : SM(SM) {}
  std::vector<const FunctionDecl *> Functions;
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody() && !FD->isDependentContext() &&
        !SM.isInSystemHeader(FD->getLocation()))
      Functions.push_back(FD);
    return true;
  }

private:
  SourceManager &SM;
};

/// The strongly connected components of the call graph of the functions
/// to characterise, from their ASTs: an edge for every direct call to a
/// function with a body (outside sizeof and lambda bodies), the Call nodes
/// of their SEGs and those in code the SEG leaves Unknown. Component number
/// by source name (functions with the same name share one).
class CallGraph : public RecursiveASTVisitor<CallGraph> {
public:
  explicit CallGraph(const std::vector<const FunctionDecl *> &Functions) {
    for (const FunctionDecl *FD : Functions) {
      Out = &Calls[FD->getNameAsString()];
      TraverseStmt(FD->getBody());
    }
    for (auto &[Name, Callees] : Calls)
      if (!Index.count(Name))
        connect(Name);
  }
  /// Whether a call from Caller to Callee closes a cycle (Callee reaches
  /// Caller, or is Caller).
  bool recursive(const std::string &Caller, const std::string &Callee) const {
    auto A = Component.find(Caller), B = Component.find(Callee);
    return Caller == Callee ||
           (A != Component.end() && B != Component.end() && A->second == B->second);
  }

  bool VisitCallExpr(CallExpr *C) {
    if (const FunctionDecl *Callee = C->getDirectCallee())
      if (const FunctionDecl *Def = Callee->getDefinition(); Def && Def->hasBody())
        Out->insert(Def->getNameAsString());
    return true;
  }
  bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *) { return true; }
  bool shouldVisitLambdaBody() const { return false; }

private:
  /// Tarjan's algorithm from Name.
  void connect(const std::string &Name) {
    size_t Mine = Index.size();
    Index[Name] = Low[Name] = Mine;
    Stack.push_back(Name);
    OnStack.insert(Name);
    for (const std::string &Next : Calls[Name]) {
      if (!Index.count(Next)) {
        connect(Next);
        Low[Name] = std::min(Low[Name], Low[Next]);
      } else if (OnStack.count(Next)) {
        Low[Name] = std::min(Low[Name], Index[Next]);
      }
    }
    if (Low[Name] != Mine)
      return;
    std::string X;
    do {
      X = Stack.back();
      Stack.pop_back();
      OnStack.erase(X);
      Component[X] = Mine;
    } while (X != Name);
  }

  std::set<std::string> *Out = nullptr;
  std::map<std::string, std::set<std::string>> Calls;
  std::map<std::string, size_t> Index, Low, Component;
  std::vector<std::string> Stack;
  std::set<std::string> OnStack;
};

/// Turns F's calls that close a cycle of the call graph G into Unknown
/// nodes; adds {function, node id} of each to Found.
void markRecursion(FunctionSeg &F, const CallGraph &G,
                   std::vector<std::pair<std::string, std::string>> &Found) {
  std::function<void(NodeList &)> Walk = [&](NodeList &L) {
    for (Node &N : L) {
      if (N.Kind == NodeKind::Call && G.recursive(F.Name, N.Callee)) {
        N.Kind = NodeKind::Unknown;
        N.Reason = "recursive call to '" + N.Callee + "'";
        Found.push_back({F.Name, N.Id});
      }
      Walk(N.Body);
      for (Arm &A : N.Arms)
        Walk(A.Body);
    }
  };
  Walk(F.Body);
}

class SegConsumer : public ASTConsumer {
public:
  /// ReleaseAst: the AST may be released when the back end starts
  /// (backendStarts).
  SegConsumer(CompilerInstance &CI, PluginOptions O, std::string InFile, bool ReleaseAst)
      : CI(CI), Opts(std::move(O)), InFile(std::move(InFile)), ReleaseAst(ReleaseAst) {}

  /// Functions are merged and written as their IR SEGs become final
  /// (irFinal), during code generation; the rest in HandleTranslationUnit.
  void Initialize(ASTContext &Ctx) override {
    Names.emplace(Ctx);
    this->Ctx = &Ctx;
    if (Opts.IR) {
      irCollection().OnFinal = [this](const std::string &Mangled, IRFunctionSeg &IR) {
        irFinal(Mangled, IR);
      };
      irCollection().OnBackendStart = [this] { backendStarts(); };
    }
  }

  /// Source parameter names of every function, by IR name, for the IR
  /// passes (which run before HandleTranslationUnit; IR keeps no names).
  bool HandleTopLevelDecl(DeclGroupRef DG) override {
    for (Decl *D : DG)
      record(D);
    return true;
  }
  void record(Decl *D) {
    if (auto *FD = dyn_cast<FunctionDecl>(D)) {
      if (!FD->doesThisDeclarationHaveABody() || FD->isDependentContext())
        return;
      std::vector<std::string> Ps;
      for (const ParmVarDecl *P : FD->parameters())
        Ps.push_back(P->getNameAsString());
      std::string Mangled = Names->getName(FD);
      irCollection().ParamNames[Mangled] = Ps;
      irCollection().SourceNames[Mangled] = FD->getNameAsString();
      auto &Instrumented = irCollection().Instrument.Functions;
      if (Instrumented && !CI.getSourceManager().isInSystemHeader(FD->getLocation()))
        Instrumented->insert(Mangled);
    } else if (auto *DC = dyn_cast<DeclContext>(D)) {
      if (isa<NamespaceDecl, LinkageSpecDecl>(D))
        for (Decl *Inner : DC->decls())
          record(Inner);
    }
  }

  void HandleTranslationUnit(ASTContext &Ctx) override {
    DiagnosticsEngine &D = CI.getDiagnostics();
    if (D.hasErrorOccurred()) {
      abandon();
      return;
    }
    expect();
    if (Opts.IR)
      finishIccLevels(); // code generation has run (hands over the rest)
    // Functions with no IR SEG: not emitted (unused static, inline), or no
    // code generation (-fsyntax-only), or no-ir.
    for (size_t I = 0; I < Functions.size(); ++I)
      if (!Written[I])
        writeFunction(I, nullptr);
    flush();
    irCollection().Functions.clear(); // (those with no source-level SEG)

    SourceManager &SM = Ctx.getSourceManager();
    unsigned WarnID = D.getCustomDiagID(DiagnosticsEngine::Warning, "%0");
    bool Warn = !D.getIgnoreAllWarnings(); // -w (custom IDs do not follow it)
    // One warning per function for its calls to external functions (malloc,
    // printf, ...), one per node for everything else; all go into the file.
    // In source order, whatever order the functions were done in.
    std::map<std::string, std::pair<SourceLocation, std::map<std::string, int>>> External;
    std::vector<BuilderWarning> Warnings;
    std::vector<std::pair<std::string, std::string>> Rec;
    for (size_t I = 0; I < Functions.size(); ++I) {
      Warnings.insert(Warnings.end(), Done[I].Warnings.begin(), Done[I].Warnings.end());
      Rec.insert(Rec.end(), Done[I].Recursive.begin(), Done[I].Recursive.end());
    }
    for (const BuilderWarning &W : Warnings) {
      PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(W.Loc));
      File.Warnings.push_back((P.isValid() ? std::string(P.getFilename()) + ":" +
                                                 std::to_string(P.getLine()) + ": "
                                           : std::string()) +
                              W.Message);
      if (!Warn || !SM.isInMainFile(SM.getExpansionLoc(W.Loc)))
        continue;
      if (W.External.empty()) {
        D.Report(W.Loc, WarnID) << W.Message;
        continue;
      }
      auto &G = External[W.Function];
      if (G.first.isInvalid())
        G.first = W.Loc;
      ++G.second[W.External];
    }
    for (auto &[Fn, G] : External) {
      std::string List;
      for (auto &[Name, Count] : G.second)
        List += (List.empty() ? "" : ", ") + Name + (Count > 1 ? " (" + std::to_string(Count) + "x)" : "");
      D.Report(G.first, WarnID) << "segtime: not characterised in '" + Fn +
                                       "': calls to external functions " + List +
                                       " (Unknown SEG nodes, not costed)";
    }
    for (auto &[Fn, Id] : Rec) {
      std::string Msg = "segtime: not characterised: recursive call (SEG node " + Id +
                        " in '" + Fn + "')";
      if (Warn)
        D.Report(Where[Fn], WarnID) << Msg;
      File.Warnings.push_back(Msg);
    }
    for (const DoneFunction &X : Done)
      File.Warnings.insert(File.Warnings.end(), X.MergeWarnings.begin(), X.MergeWarnings.end());
    if (Opts.IR)
      mergeIRFile(File, irCollection());
    {
      llvm::TimeRegion T(phaseTimer("write-json", ".seg.json written"));
      // The keys after "functions" (all sort after it), as SegFileWriter.
      json Header = compactHeader(File, Vocab);
      emit((AnyWritten ? "]," : "{\"functions\":[],") + Header.dump().substr(1) + "\n");
      OS.reset();
    }
    irCollection().OnFinal = nullptr;
    if (!Opts.Quiet) {
      for (std::optional<FunctionSeg> &F : Kept)
        File.Functions.push_back(std::move(*F));
      print(File);
    }
    if (Opts.Timing)
      printPhaseTimes(llvm::errs());
  }

  ~SegConsumer() override {
    irCollection().OnFinal = nullptr;
    irCollection().OnBackendStart = nullptr;
  }

private:
  std::string outputPath() const {
    if (!Opts.Out.empty())
      return Opts.Out;
    std::string O = CI.getFrontendOpts().OutputFile;
    llvm::SmallString<256> P(O.empty() || O == "-" ? llvm::sys::path::filename(InFile) : O);
    llvm::sys::path::replace_extension(P, ".seg.json");
    return std::string(P.str());
  }

  /// Once, when the AST is complete (when the back end starts, or code
  /// generation hands over the first IR SEG, or at the end): the functions
  /// to characterise, the call graph, the file's header and the open
  /// .seg.json.
  void prepare() {
    if (OS)
      return;
    llvm::TimeRegion T(phaseTimer("ast-seg", "AST SEG (POC, HLLC)"));
    FunctionCollector FC(Ctx->getSourceManager());
    FC.TraverseDecl(Ctx->getTranslationUnitDecl());
    Functions = std::move(FC.Functions);
    Written.assign(Functions.size(), false);
    Done.resize(Functions.size());
    Kept.resize(Opts.Quiet ? 0 : Functions.size());
    for (size_t I = 0; I < Functions.size(); ++I)
      ByName[Functions[I]->getNameAsString()].push_back(I);
    Graph.emplace(Functions);
    for (auto &[Mangled, Source] : irCollection().SourceNames)
      IRName[Source] = Mangled;
    File.SourceFile = InFile;
    const CodeGenOptions &CG = CI.getCodeGenOpts();
    File.OptLevel = CG.OptimizeSize == 1   ? "Os"
                    : CG.OptimizeSize == 2 ? "Oz"
                                           : "O" + std::to_string(CG.OptimizationLevel);
    std::string Path = outputPath();
    OS.emplace(Path, EC, llvm::sys::fs::OF_Text);
    if (EC) {
      unsigned ID = CI.getDiagnostics().getCustomDiagID(DiagnosticsEngine::Error,
                                                        "segtime: cannot write '%0': %1");
      CI.getDiagnostics().Report(ID) << Path << EC.message();
    }
  }

  /// Once, when the IR passes have characterised the functions (the first
  /// IR SEG handed over, or at the end): Expect.
  void expect() {
    prepare();
    if (!Expect.empty() || Functions.empty())
      return;
    // An IR SEG comes for the first function of each source name whose IR
    // name the IR passes characterised (irFinal).
    Expect.assign(Functions.size(), false);
    for (auto &[Name, Is] : ByName) {
      auto IN = IRName.find(Name);
      Expect[Is.front()] = irCollection().Functions.count(IN != IRName.end() ? IN->second : Name);
    }
    // A function with no code of its own whose calls were inlined (option
    // inlined): its IR level comes from its callers' IR SEGs
    // (takeInlined), once all of them are final.
    for (auto &[Carrier, FS] : irCollection().Functions)
      for (const InlinedSite &S : FS.Inlined) {
        auto SN = irCollection().SourceNames.find(S.Callee);
        const std::string &Callee = SN != irCollection().SourceNames.end() ? SN->second : S.Callee;
        auto B = ByName.find(Callee);
        if (B != ByName.end() && !Expect[B->second.front()] &&
            (Opts.InlinedAll || Opts.Inlined.count(Callee)))
          Carriers[Callee].insert(Carrier);
      }
    for (auto &[Callee, Waiting] : Carriers)
      Expect[ByName[Callee].front()] = true;
  }

  /// IRCollection::OnBackendStart: clang's IR generation is done, the AST
  /// complete. Every function's source-level SEG is built now and held
  /// packed (packFunctionSeg, a small fraction of the AST) until
  /// its IR SEG comes, and the AST is released as clang releases it before
  /// its back end when no plugin needs it afterwards
  /// (-clear-ast-before-backend): code generation then runs without it, as
  /// without the plugin. The SEGs are those writeFunction would have built
  /// later from the same AST.
  void backendStarts() {
    if (CI.getDiagnostics().hasErrorOccurred())
      return;
    prepare();
    Prebuilt.resize(Functions.size());
    for (size_t I = 0; I < Functions.size(); ++I)
      if (!Written[I]) {
        FunctionSeg F = buildSourceSeg(I);
        llvm::TimeRegion T(phaseTimer("ast-seg", "AST SEG (POC, HLLC)"));
        Prebuilt[I] = packFunctionSeg(F);
      }
    if (ReleaseAst) {
      Ctx->cleanup();
      Ctx->getAllocator().Reset();
      AstReleased = true;
    }
  }

  /// The source-level SEG of Functions[I] from the AST, its recursive calls
  /// marked (needs the AST).
  FunctionSeg buildSourceSeg(size_t I) {
    llvm::TimeRegion T(phaseTimer("ast-seg", "AST SEG (POC, HLLC)"));
    FunctionSeg F = buildFunctionSeg(*Ctx, Functions[I], Done[I].Warnings);
    Where[F.Name] = Functions[I]->getLocation();
    markRecursion(F, *Graph, Done[I].Recursive);
    return F;
  }

  /// IRCollection::OnFinal: the IR SEG of IR function Mangled is final.
  /// The function it belongs to (the first not yet written of that source
  /// name, as before: IR names whose source name maps back to another IR
  /// name are not characterised) is built, merged and written now, so that
  /// neither level is held until the end of the compile.
  void irFinal(const std::string &Mangled, IRFunctionSeg &IR) {
    expect();
    takeInlined(Mangled, IR);
    auto SN = irCollection().SourceNames.find(Mangled);
    const std::string &Source = SN != irCollection().SourceNames.end() ? SN->second : Mangled;
    auto IN = IRName.find(Source);
    if (IN != IRName.end() ? IN->second != Mangled : Source != Mangled)
      return;
    auto B = ByName.find(Source);
    if (B == ByName.end())
      return;
    if (!Written[B->second.front()]) {
      writeFunction(B->second.front(), &IR);
      flush();
    }
  }

  /// Copies the code of the calls inlined into IR function Carrier out of
  /// its IR SEG (final: ICC attached), and writes each callee with no code
  /// of its own whose callers are all done (inlinedSeg).
  void takeInlined(const std::string &Carrier, const IRFunctionSeg &IR) {
    auto &Names = irCollection().SourceNames;
    auto SourceOf = [&](const std::string &IRName) {
      auto It = Names.find(IRName);
      return It != Names.end() ? It->second : IRName;
    };
    for (const InlinedSite &S : IR.Inlined)
      if (Carriers.count(SourceOf(S.Callee)))
        Inlined[SourceOf(S.Callee)].push_back(copyInlined(IR, S));
    for (auto &[Callee, Waiting] : Carriers) {
      if (!Waiting.erase(Carrier) || !Waiting.empty())
        continue;
      auto B = ByName.find(Callee);
      if (B == ByName.end() || Written[B->second.front()])
        continue;
      std::string Name = irNameOf(Callee);
      std::vector<CallBinding> Own;
      auto Ps = irCollection().ParamNames.find(Name);
      for (unsigned K = 0; Ps != irCollection().ParamNames.end() && K < Ps->second.size(); ++K) {
        std::string P = calleeParamName(irCollection().ParamNames, Name, K);
        Own.push_back({P, P});
      }
      IRFunctionSeg Seg = inlinedSeg(Name, Callee, Own, Inlined[Callee]);
      Inlined.erase(Callee);
      for (const std::string &N : Seg.Notes)
        Done[B->second.front()].MergeWarnings.push_back(Callee + ": segtime: IR level from the " + N);
      writeFunction(B->second.front(), &Seg);
      flush();
    }
  }

  /// The IR (mangled) name of source function Source.
  std::string irNameOf(const std::string &Source) const {
    auto IN = IRName.find(Source);
    return IN != IRName.end() ? IN->second : Source;
  }

  /// Builds the source-level SEG of Functions[I], merges IR (if any) into
  /// it, turns it into its .seg.json text (Ready[I], written by flush) and
  /// releases it (quiet) or keeps it for the summary (which predicts ICC on
  /// the IR-level SEGs, the callees' too).
  void writeFunction(size_t I, IRFunctionSeg *IR) {
    FunctionSeg F;
    if (I < Prebuilt.size() && !Prebuilt[I].empty()) {
      llvm::TimeRegion T(phaseTimer("ast-seg", "AST SEG (POC, HLLC)"));
      F = unpackFunctionSeg(Prebuilt[I]);
      Prebuilt[I] = {};
    } else {
      assert(!AstReleased && "a source-level SEG to build after the AST is released");
      F = buildSourceSeg(I);
    }
    Written[I] = true;
    if (Opts.IR) {
      llvm::TimeRegion T(phaseTimer("merge-ir", "IR levels merged into the SEG"));
      // A second function of the same source name (C++ overloads) gets the
      // empty IR level the first one left behind.
      IRFunctionSeg Empty;
      if (IR || Merged.count(F.Name))
        mergeIR(Done[I].MergeWarnings, F, IR ? *IR : Empty, irCollection().SourceNames,
                irCollection().ParamNames);
      if (IR)
        Merged.insert(F.Name);
    }
    {
      llvm::TimeRegion T(phaseTimer("write-json", ".seg.json written"));
      // Code generation finishes functions in its own order; the file
      // lists them in source order, so F's index there is I.
      Ready[I] = F.toCompactText(&Vocab, I);
    }
    if (!Opts.Quiet)
      Kept[I] = std::move(F);
  }

  /// Writes the texts of the functions in source order as far as they are
  /// ready; a function with no IR SEG coming is built on the way. (Code
  /// generation finishes functions in its own order: a text waits until
  /// those before it are written.)
  void flush() {
    while (NextToWrite < Functions.size()) {
      auto R = Ready.find(NextToWrite);
      if (R == Ready.end() && !Expect[NextToWrite] && !Written[NextToWrite]) {
        writeFunction(NextToWrite, nullptr);
        R = Ready.find(NextToWrite);
      }
      if (R == Ready.end())
        return;
      emit((AnyWritten ? "," : "{\"functions\":[") + R->second);
      AnyWritten = true;
      Ready.erase(R);
      ++NextToWrite;
    }
  }

  void emit(const std::string &Text) {
    if (!EC)
      *OS << Text;
  }

  /// An error ended the compile: no .seg.json (a partly written one is
  /// removed).
  void abandon() {
    irCollection().OnFinal = nullptr;
    if (!OS)
      return;
    OS.reset();
    if (!EC)
      llvm::sys::fs::remove(outputPath());
  }

  void print(const SegFile &File) {
    if (!Opts.MachineNote.empty())
      llvm::errs() << Opts.MachineNote << "\n";
    llvm::errs() << compileTimeSummary(File, Opts.Machine, Opts.Values) << "segtime: wrote "
                 << outputPath() << "\n";
  }

  CompilerInstance &CI;
  PluginOptions Opts;
  std::string InFile;
  bool ReleaseAst = false;
  bool AstReleased = false; ///< by backendStarts: Functions' decls are gone
  /// backendStarts: the source-level SEG of each function not yet written,
  /// packed (packFunctionSeg), until writeFunction takes it.
  std::vector<std::vector<std::uint8_t>> Prebuilt;
  std::optional<ASTNameGenerator> Names;
  ASTContext *Ctx = nullptr;
  /// The functions to characterise, in source order (FunctionCollector),
  /// whether each is written, and their indices by source name.
  std::vector<const FunctionDecl *> Functions;
  std::vector<bool> Written;
  std::map<std::string, std::vector<size_t>> ByName;
  std::optional<CallGraph> Graph;
  std::map<std::string, std::string> IRName; ///< source name -> IR (mangled) name
  std::set<std::string> Merged; ///< source names whose IR SEG is merged
  /// Functions with no code of their own, inlined: the IR functions whose
  /// IR SEG (with their code) is not final yet, and the copies of their
  /// code taken so far (takeInlined), by source name.
  std::map<std::string, std::set<std::string>> Carriers;
  std::map<std::string, std::vector<InlinedCopy>> Inlined;
  /// Without quiet: the source-level SEGs for the summary, in source order.
  std::vector<std::optional<FunctionSeg>> Kept;
  SegFile File; ///< the file's header and warnings (functions: Kept)
  /// What building and merging Functions[I] reported: the builder's
  /// warnings, the recursive calls ({function, node id}), the merge's
  /// warnings.
  struct DoneFunction {
    std::vector<BuilderWarning> Warnings;
    std::vector<std::pair<std::string, std::string>> Recursive;
    std::vector<std::string> MergeWarnings;
  };
  std::vector<DoneFunction> Done;
  std::map<std::string, SourceLocation> Where;
  /// The .seg.json (the compact form, as SegFileWriter writes it, but
  /// functions numbered into the vocabulary in the order they are done):
  /// Expect[I] if an IR SEG comes for Functions[I]; texts done but not yet
  /// written (a function before them waits for code generation).
  std::vector<bool> Expect;
  std::map<size_t, std::string> Ready;
  size_t NextToWrite = 0;
  bool AnyWritten = false;
  SegVocabulary Vocab;
  std::error_code EC;
  std::optional<llvm::raw_fd_ostream> OS;
};

class SegtimeAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef InFile) override {
    chooseDefaultMachine();
    enablePhaseTimers(Opts.Timing);
    if (Opts.IR || Opts.Instrument) {
      IRCollection &C = irCollection();
      C = IRCollection();
      C.Enabled = Opts.IR;
      C.Targets = Opts.Targets;
      C.Budget = Opts.Budget;
      const CodeGenOptions &CGO = CI.getCodeGenOpts();
      C.EmitsObject = CI.getFrontendOpts().ProgramAction == frontend::EmitObj &&
                      !CGO.PrepareForLTO && !CGO.PrepareForThinLTO;
      C.Instrument.Enabled = Opts.Instrument;
      C.Instrument.TimeInnermostLoops = Opts.TimeInnermostLoops;
      C.Instrument.NoClock = Opts.NoClock;
      C.Instrument.Functions.emplace(); // filled by HandleTopLevelDecl
      // Line tables let the IR levels attribute optimised code to source.
      // If the user did not ask for debug info, the first pass of the
      // pipeline removes the loop locations that would change the
      // optimiser's block order (passes/SourceLoc.h) and the collection pass
      // strips the rest before code generation: the object code is unchanged.
      CodeGenOptions &CG = CI.getCodeGenOpts();
      if (CG.getDebugInfo() == llvm::codegenoptions::NoDebugInfo) {
        CG.setDebugInfo(llvm::codegenoptions::DebugLineTablesOnly);
        C.StripDebugInfo = true;
        C.Instrument.StripDebugInfo = !Opts.IR; // else the collection pass does
      }
      CG.PassBuilderCallbacks.push_back(registerSegtimePasses);
    }
    // Clang keeps the AST through its back end because a plugin runs after
    // the main action (it sets ClearASTBeforeBackend to false once the
    // plugins' consumers are made); the consumer releases it itself when the
    // back end starts (SegConsumer::backendStarts) if the compile asked for
    // that and no other plugin might need it.
    bool ReleaseAst = CI.getCodeGenOpts().ClearASTBeforeBackend &&
                      std::distance(FrontendPluginRegistry::begin(),
                                    FrontendPluginRegistry::end()) == 1;
    return std::make_unique<SegConsumer>(CI, Opts, InFile.str(), ReleaseAst);
  }

  /// Reads -fplugin-arg-segtime-KEY[=VALUE]. An analysis option never
  /// fails the compile: an unknown key, a value where none is expected, a
  /// missing or bad value, or an unknown ICC target is a warning naming the
  /// argument and what is accepted, and the argument is ignored (the
  /// defaults stand). Only an output that cannot be written is an error
  /// (SegConsumer::prepare). docs/cli.md lists both.
  bool ParseArgs(const CompilerInstance &CI, const std::vector<std::string> &Args) override {
    DiagnosticsEngine &D = CI.getDiagnostics();
    unsigned WarnID = D.getCustomDiagID(DiagnosticsEngine::Warning,
                                        "segtime: plugin argument '%0' ignored: %1");
    unsigned TargetID = D.getCustomDiagID(DiagnosticsEngine::Warning,
                                          "segtime: plugin argument '%0': %1; the target is left out");
    auto Bad = [&](const std::string &A, const std::string &Why) { D.Report(WarnID) << A << Why; };
    for (const std::string &A : Args) {
      llvm::StringRef Key = llvm::StringRef(A).split('=').first;
      llvm::StringRef Val = llvm::StringRef(A).split('=').second;
      bool HasVal = A.find('=') != std::string::npos;
      // A key that takes no value, given one; a key that needs one, without.
      auto NoValue = [&] {
        if (HasVal)
          Bad(A, "'" + Key.str() + "' takes no value");
        return !HasVal;
      };
      auto NeedValue = [&](const char *What) {
        if (!HasVal || Val.empty())
          Bad(A, "'" + Key.str() + "' needs a value: " + Key.str() + "=" + What);
        return HasVal && !Val.empty();
      };
      if (Key == "quiet") {
        if (NoValue())
          Opts.Quiet = true;
      } else if (Key == "machine") {
        if (NeedValue("NAME"))
          Opts.Machine = Val.str();
      } else if (Key == "out") {
        if (NeedValue("PATH"))
          Opts.Out = Val.str();
      } else if (Key == "no-ir") {
        if (NoValue())
          Opts.IR = false;
      } else if (Key == "instrument") {
        if (!HasVal || Val == "all" || Val == "no-clock") {
          Opts.Instrument = true;
          Opts.TimeInnermostLoops = Val == "all";
          Opts.NoClock = Val == "no-clock";
        } else {
          Bad(A, "expected instrument, instrument=all or instrument=no-clock");
        }
      } else if (Key == "targets") {
        if (!NeedValue("CPU,..."))
          continue;
        Opts.Targets.clear();
        llvm::SmallVector<llvm::StringRef> Parts;
        Val.split(Parts, ',', -1, false);
        for (llvm::StringRef P : Parts) {
          // Checked here, so that a misspelt target is said at once rather
          // than only in the SEG file's warnings.
          std::string Err;
          if (P != "compile" && !parseTargetSpec(P.str(), Err))
            D.Report(TargetID) << A << Err + ", or compile";
          else
            Opts.Targets.push_back(P.str());
        }
      } else if (Key == "p") {
        if (!NeedValue("NAME=VALUE"))
          continue;
        try {
          auto [Name, V] = parseParamAssignment(Val.str());
          Opts.Values[Name] = V;
        } catch (const std::runtime_error &) {
          Bad(A, "expected p=NAME=VALUE with a finite number, as segtime predict's -p");
        }
      } else if (Key == "inlined") {
        if (!HasVal) {
          Opts.InlinedAll = true;
          continue;
        }
        if (!NeedValue("NAME,..."))
          continue;
        llvm::SmallVector<llvm::StringRef> Parts;
        Val.split(Parts, ',', -1, false);
        for (llvm::StringRef P : Parts)
          Opts.Inlined.insert(P.str());
      } else if (Key == "timing") {
        if (NoValue())
          Opts.Timing = true;
      } else if (Key == "budget") {
        unsigned long long N = 0;
        if (!NeedValue("N"))
          continue;
        // (getAsInteger returns true on error)
        if (Val.getAsInteger(10, N) || N == 0 || N > static_cast<unsigned long long>(INT64_MAX))
          Bad(A, "expected a whole number > 0, got '" + Val.str() + "' (default " +
                     std::to_string(DefaultAnalysisBudget) + ")");
        else
          Opts.Budget = static_cast<decltype(Opts.Budget)>(N);
      } else if (Key == "help") {
        llvm::errs() << "segtime plugin options (-fplugin-arg-segtime-KEY[=VALUE]):\n"
                        "  quiet          print nothing; still write the .seg.json\n"
                        "  machine=NAME   machine for printed closed forms (default: this\n"
                        "                 machine if calibrated, then also targets=compile;\n"
                        "                 else t800)\n"
                        "  out=PATH       SEG file to write (default <output>.seg.json)\n"
                        "  targets=LIST   ICC targets: znver5, znver4, skylake, sapphirerapids,\n"
                        "                 native, supersparc, leon3, compile, or TRIPLE:CPU\n"
                        "                 (default none)\n"
                        "  no-ir          skip the IR (IntCC) and machine (ICC) levels\n"
                        "  instrument     component timing: timers and counters around every\n"
                        "                 function, loop, call and branch; link\n"
                        "                 build/lib/libsegtime-rt.a; the program writes\n"
                        "                 <program>.ct.json (or $SEGTIME_CT_FILE) at exit;\n"
                        "                 innermost loops are counted, not timed\n"
                        "  instrument=all also time innermost loops (perturbs short loops)\n"
                        "  instrument=no-clock\n"
                        "                 the same code with every timer read an opaque 0\n"
                        "                 (measures what the reads cost: ct_overhead.py)\n"
                        "  p=NAME=VALUE   a parameter value for the printed ICC times (as\n"
                        "                 segtime predict -p; repeatable)\n"
                        "  inlined[=NAME,...]\n"
                        "                 a function with no code of its own (every call\n"
                        "                 inlined; all, or those named) gets IR and machine\n"
                        "                 levels from the code of its calls (their mean)\n"
                        "  timing         print the plugin's own phase times (AST SEG, IR SEG,\n"
                        "                 ICC clone, code generation, block costing, JSON)\n"
                        "  budget=N       units of symbolic work per function at the IR level\n"
                        "                 (default " + std::to_string(DefaultAnalysisBudget) + "); beyond it the\n"
                        "                 function's frequencies are numeric estimates, with a\n"
                        "                 warning, and the compile goes on\n"
                        "A mistake in these arguments is a warning and the argument is ignored;\n"
                        "only an output that cannot be written fails the compile.\n";
      } else {
        Bad(A, "unknown key '" + Key.str() +
                   "' (expected quiet, machine=NAME, out=PATH, targets=CPU,..., no-ir, "
                   "instrument[=all|no-clock], p=NAME=VALUE, timing, budget=N, help)");
      }
    }
    return true;
  }

  ActionType getActionType() override { return AddAfterMainAction; }

private:
  /// No machine= given: the user's calibrated machine, and then ICC for the
  /// compile target unless targets= names others; else t800 (defaultMachine).
  void chooseDefaultMachine() {
    if (!Opts.Machine.empty())
      return;
    DefaultMachine D = defaultMachine();
    Opts.Machine = D.Path;
    Opts.MachineNote = D.Note;
    if (D.ThisMachine && Opts.Targets.empty())
      Opts.Targets = {"compile"};
  }

  PluginOptions Opts;
};

} // namespace
} // namespace segtime

static FrontendPluginRegistry::Add<segtime::SegtimeAction>
    X("segtime", "software execution graphs, RUVs and timing formulas");
