//===- MergeIR.cpp - The IR-level SEG merged into a function's SEG --------===//
///
/// \file
/// mergeIR (core/MergeIR.h) in steps: the walk over the IR SEG that matches
/// loops and calls to the source and attributes every node; the binding of
/// inlined code to its calls' arguments; the trip counts taken from the
/// source put into the memory terms; the parameters left; the IR level of
/// a function with no code of its own from the code of its inlined calls
/// (resolveInlinedLevels).
///
//===----------------------------------------------------------------------===//
#include "core/MergeIR.h"
#include "core/InlinedLevels.h"
#include "core/Link.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <regex>
#include <set>

namespace segtime {
namespace {

/// [A-Za-z0-9_], whatever the locale.
bool isWordChar(char C) {
  return (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') || (C >= '0' && C <= '9') || C == '_';
}

/// Whether the std::regex \bName\b matches exactly the whole-word
/// occurrences of Name as a literal: Name is a non-empty run of word
/// characters ([A-Za-z0-9_], ECMAScript's \w).
bool isWord(const std::string &Name) {
  return !Name.empty() && std::all_of(Name.begin(), Name.end(), isWordChar);
}

/// Position of the first whole-word occurrence of word Name in Text at or
/// after From, or npos.
size_t findWord(const std::string &Text, const std::string &Name, size_t From = 0) {
  for (size_t At = Text.find(Name, From); At != std::string::npos; At = Text.find(Name, At + 1))
    if ((At == 0 || !isWordChar(Text[At - 1])) &&
        (At + Name.size() == Text.size() || !isWordChar(Text[At + Name.size()])))
      return At;
  return std::string::npos;
}

/// The innermost source-level SEG node whose range contains Line:Col, for
/// attributing optimised code to source (docs/design.md §5); Loop nodes
/// that start on Line win for IR loops.
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

/// Whether node id Id is the edge stage code generation put after node
/// After (<After>e<to>) or After's final loop test (<After>t).
bool followsNode(const std::string &Id, const std::string &After) {
  return Id.rfind(After + "e", 0) == 0 || Id == After + "t";
}

/// One mergeIR: the state its steps share.
class IRMerger {
public:
  IRMerger(std::vector<std::string> &Warnings, FunctionSeg &F, NodeList &Seg,
           const std::vector<Parameter> &IRParams, const MergeIRServices &S)
      : Warnings(Warnings), F(F), Seg(Seg), S(S) {
    for (const Parameter &P : IRParams)
      Fallback[P.Name] = P;
    forEachNode(F.Body, [&](const Node &N) {
      if (N.Kind == NodeKind::Loop && N.Range.Line)
        AstLoops[N.Range.Line].push_back(&N);
      if (N.Kind == NodeKind::Call || !N.Callee.empty())
        AstCalls[{N.Range.Line, N.Callee}].push_back(&N);
    });
    forEachNode(Seg, [&](const Node &N) {
      if (N.Kind == NodeKind::Loop)
        ++IRLoopsAt[N.Range.Line];
    });
  }

  void run(const std::vector<InlinedSite> &Inlined) {
    walk(Seg);
    bindInlined(Inlined);
    memoryTerms();
    F.LevelSegs[IrSegKey] = std::move(Seg);
    for (auto &[Name, P] : Fallback)
      if ((Used.count(Name) || P.Kind == "branch") &&
          std::none_of(F.Parameters.begin(), F.Parameters.end(),
                       [&](const Parameter &Q) { return Q.Name == Name; }))
        F.Parameters.push_back(P); // IR branch probabilities: Pir_... (BPI)
  }

private:
  std::string sourceName(const std::string &IRName) const {
    if (!S.SourceNames)
      return IRName;
    auto It = S.SourceNames->find(IRName);
    return It != S.SourceNames->end() ? It->second : IRName;
  }

  /// A source-level expression in the IR SEG's names: the indices of
  /// enclosing source loops become their IR loops' iteration numbers
  /// (i = start + step*k), innermost first, so that an outer index in an
  /// inner loop's start or step (lo += 2*w) is replaced too. None if it
  /// uses an index with no IR loop.
  std::optional<std::string> inIRNames(std::string T) const {
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
        if (!Other->Index.empty() && containsWord(T, Other->Index))
          return std::nullopt;
    return T;
  }

  /// The source loop of IR loop N: the only source loop at its line when N
  /// is the only IR loop there; null otherwise.
  const Node *sourceLoop(const Node &N) {
    auto A = AstLoops.find(N.Range.Line);
    if (A != AstLoops.end() && A->second.size() == 1 && IRLoopsAt[N.Range.Line] == 1)
      return A->second[0];
    return nullptr;
  }

  /// Cross-check: a counted source loop and its one optimised loop must
  /// agree on the number of iterations (docs/design.md §5), unless the
  /// optimised loop is the source loop unrolled.
  void crossCheck(Node &N, const Node &Src) {
    std::map<std::string, std::string> Subst;
    for (auto &[Outer, K] : Enclosing)
      if (!Outer->Index.empty() && Outer->StepKind == "add")
        Subst[K] = "(" + Outer->Index + " - (" + Outer->Start + "))/(" + Outer->Step + ")";
    double Ratio = S.ValueRatio(Src.Trip, N.Trip, Subst);
    double Factor = std::round(Ratio);
    int Same = S.SameValue(Src.Trip, N.Trip, Subst);
    if (Same == 0 && Factor >= 2 && Factor <= 16 && std::fabs(Ratio - Factor) < 0.01 &&
        ((int)Factor & ((int)Factor - 1)) == 0)
      N.Label = "unrolled x" + std::to_string((int)Factor); // remainder not a loop
    else if (Same == 0)
      Warnings.push_back(F.Name + ":" + std::to_string(N.Range.Line) +
                         ": segtime: trip counts disagree: source loop " + Src.Id + " runs " +
                         Src.Trip + " times, ScalarEvolution says " + S.Simplify(N.Trip) +
                         " for optimised loop " + N.Id);
  }

  /// IR loop N's trip count: cross-checked against, or taken from, its
  /// source loop Src (may be null); then simplified.
  void loopTrip(Node &N, const Node *Src) {
    if (Src && !Src->Index.empty() && !Fallback.count(N.Trip) && Src->StepKind == "add" &&
        N.Label.empty())
      crossCheck(N, *Src);
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
    if (!Src)
      sharedSourceTrip(N);
    if (Fallback.count(N.Trip))
      Used.insert(N.Trip);
    N.Trip = S.Simplify(N.Trip);
  }

  /// IR loop N, one of several at its line (copies in an unrolled
  /// enclosing loop, loop versions, an unrolled loop's parts), whose trip
  /// holds the fallback parameter N_<fn>_<line> of that line: the
  /// parameter is the iterations per reach of the source loop statement
  /// (IRTripCount.cpp), so the count of the only source loop at the line,
  /// when that is counted and the same at every reach (no enclosing loop's
  /// index), is its value in every one of them (TSVC's s161: its i loop
  /// in both copies of the time loop unrolled x2).
  void sharedSourceTrip(Node &N) {
    auto A = AstLoops.find(N.Range.Line);
    if (A == AstLoops.end() || A->second.size() != 1 || A->second[0]->Index.empty())
      return;
    std::string Suffix = "_" + std::to_string(N.Range.Line);
    for (auto &[Name, P] : Fallback) {
      if (P.Kind != "loop" || Name.size() <= Suffix.size() ||
          Name.compare(Name.size() - Suffix.size(), Suffix.size(), Suffix) != 0 ||
          !containsWord(N.Trip, Name))
        continue;
      auto T = inIRNames(A->second[0]->Trip);
      if (!T || T->find("k_") != std::string::npos)
        return;
      TripOf[Name] = *T;
      N.Trip = replaceWord(N.Trip, Name, "(" + *T + ")");
      return;
    }
  }

  /// A call's callee in source names, and the arguments ScalarEvolution
  /// could not express (at -O0 they are loads) from the one source call of
  /// that callee at its line.
  void callArgs(Node &N) {
    N.Callee = sourceName(N.Callee);
    auto A = AstCalls.find({N.Range.Line, N.Callee});
    if (A != AstCalls.end() && A->second.size() == 1)
      for (size_t I = 0; I < N.Args.size() && I < A->second[0]->Args.size(); ++I)
        if (N.Args[I].empty() && !A->second[0]->Args[I].empty())
          if (auto T = inIRNames(A->second[0]->Args[I]))
            N.Args[I] = *T;
  }

  void walk(NodeList &L) {
    for (Node &N : L) {
      const Node *Src = nullptr;
      if (N.Kind == NodeKind::Loop) {
        Src = sourceLoop(N);
        loopTrip(N, Src);
      }
      if (N.Kind == NodeKind::Call || !N.Callee.empty())
        callArgs(N);
      for (std::string &Arg : N.Args)
        Arg = S.Simplify(Arg);
      if (N.Range.Line)
        if (const Node *SN =
                sourceNodeAt(F.Body, N.Range.Line, N.Range.Col, N.Kind == NodeKind::Loop))
          N.SourceNode = SN->Id;
      if (Src)
        Enclosing.push_back({Src, N.Index});
      walk(N.Body);
      if (Src)
        Enclosing.pop_back();
    }
  }

  /// The bindings of IR function IRCallee's parameters at source call
  /// Call. An argument in a source loop's index has no name in the IR
  /// level: that parameter stays.
  std::vector<CallBinding> bindings(const Node &Call, const std::string &IRCallee) const {
    std::vector<std::string> Ps;
    for (unsigned K = 0; K < Call.Args.size(); ++K)
      Ps.push_back(S.ParamName(IRCallee, K));
    std::vector<CallBinding> B = callBindings(Call, Ps);
    B.erase(
        std::remove_if(B.begin(), B.end(), [&](const CallBinding &X) { return !inIRNames(X.Arg); }),
        B.end());
    return B;
  }

  /// Binds the texts of N and its body; a count or argument that changes
  /// is simplified, as walk does.
  void bind(Node &N, const std::string &Callee, const std::vector<CallBinding> &B) const {
    auto One = [&](std::string &T, bool Simplify) {
      std::string Bound = bindCalleeNames(T, Callee, B);
      if (Bound != T)
        T = Simplify ? S.Simplify(Bound) : std::move(Bound);
    };
    auto Counts = [&](Node &X) {
      One(X.Trip, true);
      for (std::string &A : X.Args)
        One(A, true);
    };
    Counts(N);
    forEachNode(N.Body, Counts);
    forEachText(N, [&](std::string &T) { One(T, false); });
  }

  /// The code of inlined call Site: attributed to its source call (the one
  /// at the site's line and column, or the only one on its line) and bound
  /// to that call's arguments. Adds the callee to InlinedCallees (name in
  /// the texts -> IR name).
  void bindSite(const InlinedSite &Site, std::map<std::string, std::string> &InlinedCallees) {
    const std::string Callee = sourceName(Site.Callee);
    InlinedCallees.emplace(Callee, Site.Callee);
    auto A = AstCalls.find({Site.Line, Callee});
    const Node *Call = nullptr;
    if (A != AstCalls.end())
      for (const Node *C : A->second)
        if (C->Range.Col == Site.Col || A->second.size() == 1)
          Call = C;
    if (!Call)
      return;
    std::vector<CallBinding> B = bindings(*Call, Site.Callee);
    auto IsSite = [&](const std::string &Id) {
      return std::find(Site.Nodes.begin(), Site.Nodes.end(), Id) != Site.Nodes.end();
    };
    std::function<void(NodeList &)> Mark = [&](NodeList &L) {
      for (size_t I = 0; I < L.size(); ++I) {
        Node &N = L[I];
        if (!IsSite(N.Id)) {
          Mark(N.Body);
          continue;
        }
        N.SourceNode = Call->Id;
        forEachNode(N.Body, [&](Node &X) { X.SourceNode = Call->Id; });
        bind(N, Callee, B);
        // The edge stages code generation put after it and its final
        // loop test run in the same code.
        while (I + 1 < L.size() && followsNode(L[I + 1].Id, N.Id) && !IsSite(L[I + 1].Id))
          bind(L[++I], Callee, B);
      }
    };
    Mark(Seg);
  }

  /// The code of a call inlined here is attributed to the call, and the
  /// callee's parameters it is written in ("kernel.n") are bound to the
  /// call's arguments by the predictor's binder (core/Link.h
  /// callBindings), per call site; in F's other code (a value F passes and
  /// uses itself) where all its calls of that callee agree.
  void bindInlined(const std::vector<InlinedSite> &Inlined) {
    std::map<std::string, std::string> InlinedCallees;
    for (const InlinedSite &Site : Inlined)
      if (Site.Where.find(" in ") == std::string::npos) // (else: to the outer call)
        bindSite(Site, InlinedCallees);
    for (auto &[Callee, IRCallee] : InlinedCallees) {
      std::optional<std::vector<CallBinding>> Agreed;
      forEachNode(F.Body, [&](const Node &C) {
        if (C.Kind != NodeKind::Call || C.Callee != Callee)
          return;
        std::vector<CallBinding> B = bindings(C, IRCallee);
        if (!Agreed) {
          Agreed = B;
          return;
        }
        Agreed->erase(std::remove_if(Agreed->begin(), Agreed->end(),
                                     [&](const CallBinding &X) {
                                       return std::none_of(
                                           B.begin(), B.end(), [&](const CallBinding &Y) {
                                             return Y.Param == X.Param && Y.Arg == X.Arg;
                                           });
                                     }),
                      Agreed->end());
      });
      if (Agreed && !Agreed->empty())
        for (Node &N : Seg)
          bind(N, Callee, *Agreed);
    }
  }

  /// Trip parameters replaced by source counts, also in the memory terms
  /// of the top-level nodes; the parameters those still use.
  void memoryTerms() {
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
  }

  std::vector<std::string> &Warnings;
  FunctionSeg &F;
  NodeList &Seg;
  const MergeIRServices &S;
  std::map<std::string, Parameter> Fallback;              ///< the IR passes' parameters by name
  std::map<unsigned, std::vector<const Node *>> AstLoops; ///< source loops by line
  /// Source-level calls by line and callee.
  std::map<std::pair<unsigned, std::string>, std::vector<const Node *>> AstCalls;
  std::map<unsigned, int> IRLoopsAt; ///< IR loops per line
  /// The walk's enclosing matched loops: source loop, IR loop index.
  std::vector<std::pair<const Node *, std::string>> Enclosing;
  std::set<std::string> Used;                ///< Fallback parameters still used
  std::map<std::string, std::string> TripOf; ///< N_<fn>_<line> -> source count
  /// Trip parameters replaced by a count in an enclosing IR loop's
  /// iteration number, with the loop's line.
  std::map<std::string, unsigned> PerIteration;
};

} // namespace

bool containsWord(const std::string &Text, const std::string &Name) {
  if (!isWord(Name))
    return std::regex_search(Text, std::regex("\\b" + Name + "\\b"));
  return findWord(Text, Name) != std::string::npos;
}

std::string replaceWord(const std::string &Text, const std::string &Name, const std::string &By) {
  // (By without '$', which the regex would read as a group.)
  if (!isWord(Name) || By.find('$') != std::string::npos)
    return std::regex_replace(Text, std::regex("\\b" + Name + "\\b"), By);
  std::string R;
  size_t From = 0;
  for (size_t At = findWord(Text, Name); At != std::string::npos; At = findWord(Text, Name, From)) {
    R.append(Text, From, At - From);
    R += By;
    From = At + Name.size();
  }
  R.append(Text, From, std::string::npos);
  return R;
}

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

void mergeIR(std::vector<std::string> &Warnings, FunctionSeg &F, NodeList IRSeg,
             const std::vector<Parameter> &IRParams, const std::vector<InlinedSite> &Inlined,
             const MergeIRServices &S) {
  IRMerger(Warnings, F, IRSeg, IRParams, S).run(Inlined);
}

namespace {

/// Whether two file names of one compile name the same file: equal, or
/// one a path that ends in the other (the plugin writes a node's file as
/// the compile names it, a function's as an absolute path); an empty one
/// matches any.
bool sameFile(const std::string &A, const std::string &B) {
  if (A.empty() || B.empty() || A == B)
    return true;
  const std::string &Long = A.size() > B.size() ? A : B, &Short = A.size() > B.size() ? B : A;
  return Long.compare(Long.size() - Short.size(), Short.size(), Short) == 0 &&
         Long[Long.size() - Short.size() - 1] == '/';
}

/// The source ranges of F's code: F's own and those of the functions of
/// File it calls, directly or through others (their code is F's where
/// they are inlined into it).
std::vector<SourceRange> codeRanges(const SegFile &File, const FunctionSeg &F) {
  std::vector<SourceRange> Ranges;
  std::set<std::string> Seen{F.Name};
  std::vector<const FunctionSeg *> Todo{&F};
  while (!Todo.empty()) {
    const FunctionSeg *G = Todo.back();
    Todo.pop_back();
    if (G->Range.Line)
      Ranges.push_back(G->Range);
    forEachNode(G->Body, [&](const Node &N) {
      if (!N.Callee.empty() && Seen.insert(N.Callee).second)
        if (const FunctionSeg *C = File.find(N.Callee))
          Todo.push_back(C);
    });
  }
  return Ranges;
}

/// Whether IR node N is a loop of the caller around F's code: a loop
/// whose line is in none of F's code ranges (codeRanges: F's own, its
/// callees'), e.g. a benchmark harness's loop (the plugin attributes a
/// loop to the inlined call whose code most of its instructions are).
/// A loop of a function inlined into F (sum_points's loop in simpson) is
/// F's code.
bool callerLoop(const std::vector<SourceRange> &Ranges, const Node &N) {
  return N.Kind == NodeKind::Loop && N.Range.Line && !Ranges.empty() &&
         std::none_of(Ranges.begin(), Ranges.end(), [&](const SourceRange &R) {
           return N.Range.Line >= R.Line && N.Range.Line <= R.EndLine &&
                  sameFile(N.Range.File, R.File);
         });
}

/// Whether IR node N's line is in one of Ranges.
bool inRanges(const std::vector<SourceRange> &Ranges, const Node &N) {
  return std::any_of(Ranges.begin(), Ranges.end(), [&](const SourceRange &R) {
    return N.Range.Line >= R.Line && N.Range.Line <= R.EndLine && sameFile(N.Range.File, R.File);
  });
}

/// Copies of the nodes of Ref in Caller's IR level (each with its body),
/// in the order of that level; fewer than Ref.Nodes if some are missing.
/// A loop of the caller (callerLoop) gives the nodes of its body that are
/// F's (Loops: how many such loops, the deepest count).
NodeList referencedCode(const SegFile &File, const NodeList &CallerIR, const InlinedRef &Ref,
                        const FunctionSeg &F, unsigned *Loops = nullptr) {
  std::set<std::string> Ids(Ref.Nodes.begin(), Ref.Nodes.end());
  const std::vector<SourceRange> Ranges = codeRanges(File, F);
  NodeList Code;
  std::function<void(const Node &, unsigned)> Take = [&](const Node &N, unsigned Depth) {
    if (!callerLoop(Ranges, N)) {
      Code.push_back(N);
      if (Loops)
        *Loops = std::max(*Loops, Depth);
      return;
    }
    for (const Node &C : N.Body)
      if (callerLoop(Ranges, C) || inRanges(Ranges, C))
        Take(C, Depth + 1);
  };
  size_t Found = 0;
  std::function<void(const NodeList &)> Walk = [&](const NodeList &L) {
    for (const Node &N : L) {
      if (Ids.count(N.Id)) {
        ++Found;
        Take(N, 0);
        continue;
      }
      Walk(N.Body);
      for (const Arm &A : N.Arms)
        Walk(A.Body);
    }
  };
  Walk(CallerIR);
  if (Found != Ids.size())
    Code.clear();
  return Code;
}

/// The bindings of the source call of F that the code of an inlined call
/// is attributed to (its first node's SourceNode in Caller, a call to F),
/// or none.
std::vector<CallBinding> siteBindings(const FunctionSeg &Caller, const FunctionSeg &F,
                                      const NodeList &Code) {
  if (Code.empty() || Code.front().SourceNode.empty())
    return {};
  const Node *Call = nullptr;
  forEachNode(Caller.Body, [&](const Node &N) {
    if (!Call && N.Id == Code.front().SourceNode && N.Kind == NodeKind::Call && N.Callee == F.Name)
      Call = &N;
  });
  return Call ? callBindings(*Call, F.Params) : std::vector<CallBinding>{};
}

/// Ids of N and its body (and the loops its streams name) with Prefix.
void prefixIds(Node &N, const std::string &Prefix) {
  forEachNode(N.Body, [&](Node &X) { X.Id = Prefix + X.Id; });
  N.Id = Prefix + N.Id;
  auto Streams = [&](Node &X) {
    for (MemStream &M : X.Streams)
      for (MemStream::Step &St : M.Loops)
        St.Loop = Prefix + St.Loop;
  };
  Streams(N);
  forEachNode(N.Body, Streams);
}

} // namespace

void resolveInlinedLevel(const SegFile &File, FunctionSeg &F, const MergeIRServices &S,
                         unsigned Site, std::vector<std::string> &Warnings) {
  if (F.InlinedAt.empty())
    return;
  NodeList Code;
  std::vector<Parameter> Params;
  std::set<std::string> Taken;
  std::vector<CallBinding> Own;
  for (const std::string &P : F.Params)
    Own.push_back({P, P});
  bool Several = Site == 0 && F.InlinedAt.size() > 1;
  for (size_t K = 0; K < F.InlinedAt.size(); ++K) {
    if (Site && K + 1 != Site)
      continue;
    const InlinedRef &R = F.InlinedAt[K];
    const FunctionSeg *Caller = File.find(R.Caller);
    NodeList Here;
    if (Caller && Caller->LevelSegs.count(IrSegKey))
      Here = referencedCode(File, Caller->LevelSegs.at(IrSegKey), R, F);
    if (Here.empty()) {
      Warnings.push_back(F.Name + ": segtime: the inlined call at " + R.Where + ": " +
                         (Caller ? "its nodes are not all in the IR level of '" + R.Caller + "'"
                                 : "no function '" + R.Caller + "' in the file") +
                         ": left out of the IR level of " + F.Name);
      continue;
    }
    // The code in F's names: F.n left unbound by the caller, the
    // caller's names of F's arguments, the caller's uncounted loops
    // N_<caller>_<line> as F's (mergeIR takes F's source counts for them).
    std::vector<CallBinding> Back = siteBindings(*Caller, F, Here);
    std::string Loops = "N_" + R.Caller + "_";
    std::map<std::string, std::string> Renamed;
    auto InF = [&](const std::string &T) {
      return unbindCallerNames(bindCalleeNames(T, F.Name, Own), Back);
    };
    // A caller's parameter as F's own: Pir_<caller>_12_9 -> Pir_<F>_12_9,
    // else the name with "_<F>" appended.
    auto OwnName = [&](const std::string &Name) {
      std::string Mid = "_" + R.Caller + "_";
      size_t At = Name.find(Mid);
      return At == std::string::npos
                 ? Name + "_" + F.Name
                 : Name.substr(0, At) + "_" + F.Name + "_" + Name.substr(At + Mid.size());
    };
    for (const Parameter &P : Caller->Parameters)
      if (P.Name.rfind(Loops, 0) == 0) {
        Renamed[P.Name] = "N_" + F.Name + "_" + P.Name.substr(Loops.size());
      } else if (!P.DefaultExpr.empty() && InF(P.DefaultExpr) != P.DefaultExpr) {
        // a default in F's names here (a data-dependent branch's
        // probability in kernel.n) is not the caller's: a name of its own
        Renamed[P.Name] = OwnName(P.Name);
      }
    // A default naming such a parameter (a branch copy's: ir-copies) is in
    // F's names too: the copy gets a name of its own as well.
    std::map<std::string, std::string> Follows;
    for (const Parameter &P : Caller->Parameters)
      if (!Renamed.count(P.Name) && !P.DefaultExpr.empty())
        for (auto &[From, To] : Renamed)
          if (containsWord(P.DefaultExpr, From)) {
            Follows[P.Name] = OwnName(P.Name);
            break;
          }
    Renamed.insert(Follows.begin(), Follows.end());
    std::vector<CallBinding> Rename = Back;
    for (auto &[From, To] : Renamed)
      Rename.push_back({To, From});
    std::string Texts;
    for (Node &N : Here) {
      forEachText(N, [&](std::string &T) {
        T = unbindCallerNames(bindCalleeNames(T, F.Name, Own), Rename);
        Texts += T + " ";
      });
      if (Several)
        prefixIds(N, "c" + std::to_string(K + 1) + "_");
      Code.push_back(std::move(N));
    }
    // The parameters the code names, then those their defaults name (a
    // branch copy's default is the shared parameter: ir-copies), in rounds.
    std::set<std::string> Seen;
    for (bool More = true; More;) {
      More = false;
      for (Parameter P : Caller->Parameters) {
        if (auto It = Renamed.find(P.Name); It != Renamed.end())
          P.Name = It->second;
        if (Seen.count(P.Name) || !containsWord(Texts, P.Name))
          continue;
        Seen.insert(P.Name);
        More = true;
        if (!Taken.insert(P.Name).second)
          continue;
        // a default in the caller's names (a data-dependent branch's
        // probability in kernel.n) is in F's names as the code is
        if (!P.DefaultExpr.empty()) {
          P.DefaultExpr = unbindCallerNames(bindCalleeNames(P.DefaultExpr, F.Name, Own), Rename);
          Texts += P.DefaultExpr + " ";
        }
        Params.push_back(P);
      }
    }
  }
  F.LevelSegs.erase(IrSegKey);
  if (!Code.empty())
    mergeIR(Warnings, F, std::move(Code), Params, {}, S);
}

void resolveInlinedLevels(SegFile &File, const MergeIRServices &S, unsigned Site,
                          std::vector<std::string> &Warnings) {
  // A caller has code of its own (no InlinedAt): resolving F changes no
  // level another function's resolution reads.
  for (FunctionSeg &F : File.Functions)
    resolveInlinedLevel(File, F, S, Site, Warnings);
}

} // namespace segtime

namespace segtime {

unsigned inlinedCallerLoops(const SegFile &File, const FunctionSeg &F, const InlinedRef &Ref) {
  const FunctionSeg *C = File.find(Ref.Caller);
  if (!C || !C->LevelSegs.count(IrSegKey) || Ref.Nodes.empty())
    return 0;
  const NodeList &IR = C->LevelSegs.at(IrSegKey);
  std::function<int(const NodeList &, unsigned)> Depth = [&](const NodeList &L, unsigned D) {
    for (const Node &N : L) {
      if (N.Id == Ref.Nodes.front())
        return static_cast<int>(D);
      int In = Depth(N.Body, D + (N.Kind == NodeKind::Loop));
      for (const Arm &A : N.Arms)
        In = In >= 0 ? In : Depth(A.Body, D);
      if (In >= 0)
        return In;
    }
    return -1;
  };
  int Outer = Depth(IR, 0);
  if (Outer < 0)
    return 0;
  unsigned Inner = 0;
  referencedCode(File, IR, Ref, F, &Inner);
  return static_cast<unsigned>(Outer) + Inner;
}

} // namespace segtime
