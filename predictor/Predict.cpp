//===- Predict.cpp - Predicted times per function and level ---------------===//
#include "predictor/Predict.h"
#include "core/Library.h"
#include "core/Link.h"
#include "predictor/PredictedSpeed.h"
#include "predictor/MemoryModel.h"
#include "predictor/Collectives.h"
#include "predictor/Formula.h"
#include "predictor/ResourceModel.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <iomanip>
#include <memory>
#include <set>
#include <sstream>

using namespace GiNaC;

namespace segtime {

std::optional<std::string> iccTarget(const SegFile &S, const Machine &M,
                                     const std::string &Wanted) {
  if (!Wanted.empty())
    return S.Targets.count(Wanted) ? std::optional<std::string>(Wanted) : std::nullopt;
  // A target the machine has its own ICC cost vector for; then the machine's
  // own CPU (identity llvm_cpu, which `segtime calibrate` records); then the
  // first target an `any` cost vector serves.
  auto Icc = M.Levels.find("ICC");
  for (auto &[T, Info] : S.Targets)
    if (Icc != M.Levels.end() && Icc->second.count(T) && !Info.count("error"))
      return T;
  if (auto Cpu = M.Identity.find("llvm_cpu"); Cpu != M.Identity.end())
    if (auto T = S.Targets.find(Cpu->second);
        T != S.Targets.end() && M.has("ICC", T->first) && !T->second.count("error"))
      return T->first;
  for (auto &[T, Info] : S.Targets)
    if (M.has("ICC", T) && !Info.count("error"))
      return T;
  return std::nullopt;
}

std::vector<BoundValue> boundFromCalls(const SegFile &S, const FunctionSeg &F,
                                       const std::map<std::string, double> &Values,
                                       size_t Max) {
  std::vector<BoundValue> Out;
  std::set<std::string> OnPath; // recursion
  // Env: the current function's parameters -> expressions in F's names.
  std::function<void(const FunctionSeg &, const exmap &, int)> Walk =
      [&](const FunctionSeg &Fn, const exmap &Env, int Depth) {
        if (Depth > 8 || !OnPath.insert(Fn.Name).second)
          return;
        forEachNode(Fn.Body, [&](const Node &N) {
          const FunctionSeg *C = N.Kind == NodeKind::Call ? S.find(N.Callee) : nullptr;
          if (!C)
            return;
          exmap Sub;
          for (const CallBinding &Arg : callBindings(N, C->Params)) {
            ex A;
            try {
              A = parseExpr(Arg.Arg).subs(Env);
            } catch (const std::exception &) {
              continue;
            }
            Sub[sym(Arg.Param)] = A;
            if (Out.size() >= Max)
              continue;
            BoundValue B{C->Name + "." + Arg.Param, toString(A, 6), std::nullopt,
                         N.Range.File + ":" + std::to_string(N.Range.Line)};
            bool All = true;
            for (const std::string &X : freeSymbols(A))
              All &= Values.count(X) > 0;
            if (All)
              try {
                B.Value = evaluate(A, Values);
              } catch (const std::exception &) {
              }
            Out.push_back(std::move(B));
          }
          Walk(*C, Sub, Depth + 1);
        });
        OnPath.erase(Fn.Name);
      };
  Walk(F, {}, 0);
  return Out;
}

CostedSummary costedSummary(const SegFile &S, const FunctionSeg &F,
                            const std::set<std::string> &LibraryCosted) {
  CostedSummary R;
  std::set<std::string> Seen;
  std::function<void(const FunctionSeg &)> Walk = [&](const FunctionSeg &Fn) {
    if (!Seen.insert(Fn.Name).second)
      return;
    R.Functions.insert(Fn.Name);
    std::vector<const FunctionSeg *> Callees;
    forEachNode(Fn.Body, [&](const Node &N) {
      ++R.Nodes;
      if (N.Kind == NodeKind::Unknown) {
        ++R.NotCosted;
        if (!N.Callee.empty())
          R.NoSeg.insert(N.Callee);
      } else if (N.Kind == NodeKind::Call) {
        const LibraryFunction *L = libraryFunction(N.Callee);
        if (const FunctionSeg *C = S.find(N.Callee))
          Callees.push_back(C);
        else if (!L || !LibraryCosted.count(L->Name)) {
          ++R.NotCosted;
          R.NoSeg.insert(N.Callee);
        }
      }
    });
    for (const FunctionSeg *C : Callees)
      Walk(*C);
  };
  Walk(F);
  return R;
}

/// iccTarget, or an error that says what each side has.
static std::string chooseTarget(const SegFile &S, const Machine &M, const std::string &Wanted) {
  if (auto T = iccTarget(S, M, Wanted))
    return *T;
  std::string Have, InSeg;
  auto Icc = M.Levels.find("ICC");
  if (Icc != M.Levels.end())
    for (auto &[V, CV] : Icc->second)
      Have += (Have.empty() ? "" : ", ") + V;
  for (auto &[T, Info] : S.Targets)
    InSeg += (InSeg.empty() ? "" : ", ") + T;
  if (!Wanted.empty())
    throw std::runtime_error("the SEG file has no ICC data for target '" + Wanted +
                             "' (it has: " + (InSeg.empty() ? "none" : InSeg) +
                             "; compile with -fplugin-arg-segtime-targets=" + Wanted + ")");
  throw std::runtime_error("no ICC target in common: the SEG file has " +
                           (InSeg.empty() ? std::string("none") : InSeg) + ", machine '" +
                           M.Name + "' has " + (Have.empty() ? std::string("none") : Have));
}

/// The RUV key a level's counts are read from.
static std::string ruvKey(const std::string &Level, const std::string &Target) {
  return Level == "ICC" ? "ICC:" + Target : Level;
}

std::set<std::string> knownOutcomes(const PredictOptions &O,
                                    const std::map<std::string, Parameter> &Declared) {
  std::set<std::string> Names;
  // The min-update idiom's H_N/N is the frequency of the outcome itself
  // (records of a sequence in random order), not a guess of the branch.
  for (auto &[Name, P] : Declared)
    if (!P.DefaultExpr.empty())
      Names.insert(Name);
  for (auto &[Name, V] : O.Values)
    Names.insert(Name);
  for (auto &[Name, V] : O.ProfileValues)
    Names.insert(Name);
  return Names;
}

/// The reference streams of nest N for the memory term: with the values
/// Values substituted when a stream has a triangular loop (a trip in an
/// enclosing loop's counter), whose per-row line sums are otherwise
/// symbolic expressions of millions of characters (LU: 33 M, 25 s); as
/// they are otherwise. Sets Bound if it substituted.
static std::vector<MemStream> streamsFor(const Node &N, const std::map<std::string, double> &Values,
                                         bool *Bound = nullptr) {
  bool Tri = false;
  for (const MemStream &St : N.Streams)
    for (const MemStream::Step &L : St.Loops)
      Tri |= !L.Index.empty();
  if (Bound)
    *Bound = Tri && !Values.empty();
  if (!Tri || Values.empty())
    return N.Streams;
  GiNaC::exmap M;
  for (auto &[K, V] : Values)
    M[sym(K)] = numeric(V) == numeric(static_cast<long>(V)) ? numeric(static_cast<long>(V))
                                                           : numeric(V);
  auto Bind = [&](std::string &X) {
    if (X.empty())
      return;
    std::ostringstream OS;
    OS << parseExpr(X).subs(M);
    X = OS.str();
  };
  std::vector<MemStream> R = N.Streams;
  for (MemStream &St : R) {
    for (std::string &O : St.Offsets)
      Bind(O);
    for (MemStream::Step &L : St.Loops) {
      Bind(L.Stride);
      Bind(L.Trip);
    }
  }
  return R;
}

/// Memory time (s) of one execution of IR loop nest N (its Footprint,
/// Traffic and Streams; MemoryModel::lineTime, or time without streams).
static ex nestMemoryTime(const MemoryModel &Mem, const Node &N, const ex &F,
                         const std::map<std::string, double> &Values) {
  if (Mem.hasCaches() && !N.Streams.empty())
    return Mem.lineTime(streamsFor(N, Values), parseExpr(N.Traffic), F);
  return Mem.time(parseExpr(N.Traffic), F);
}

/// Count of operation Op (RUV key Key) per execution of IR node N: a
/// stage's own count, a loop's trip times its body's (summed over its
/// counter where the body depends on it: a triangular nest).
static ex countPerExecution(const Node &N, const std::string &Key, const std::string &Op) {
  if (N.Kind == NodeKind::Stage) {
    auto R = N.Ruvs.find(Key);
    return R == N.Ruvs.end() ? ex(0) : ex(numeric(R->second.get(Op)));
  }
  if (N.Kind != NodeKind::Loop)
    return 0;
  ex Body = 0;
  for (const Node &X : N.Body)
    Body += frequencyOf(X) * countPerExecution(X, Key, Op);
  ex Trip = parseExpr(N.Trip);
  if (!N.Index.empty() && Body.has(sym(N.Index)))
    return seg_sum(Body, sym(N.Index), 0, Trip - 1);
  return Trip * Body;
}

static ex nestLoadStoreTime(const Node &Nest, const std::string &Target, double TCyc,
                     const MemoryModel &Mem) {
  std::string Key = "ICC:" + Target;
  auto [Ld, St] = Mem.loadStorePorts();
  return numeric(TCyc) * max(countPerExecution(Nest, Key, "mem.load") / numeric(Ld),
                             countPerExecution(Nest, Key, "mem.store") / numeric(St));
}

/// The ECM model needs L1 and L2 geometry and every reference of the nest
/// as a stream: a nest whose pass left a reference out or bounded it
/// (Node::MemoryNotes: indirect, non-affine) keeps the p-norm.
/// s per core cycle (the ICC entry "cycles"); 0 if the cost vector has none
/// (an in-order target costed per instruction class: no ECM then).
static double cycleTime(const ICCModel &Icc) {
  try {
    return Icc.cost("cycles");
  } catch (const std::exception &) {
    return 0;
  }
}

static bool ecmApplies(const MemoryModel &Mem, const Node &Nest) {
  return Mem.caches().size() >= 2 && !Nest.Streams.empty() && !Nest.Footprint.empty() &&
         Nest.MemoryNotes.empty();
}

/// The source-level loops that IR loop nests with a memory term are
/// attributed to (Node::SourceNode), each with those nests: the outermost
/// IR loops with a Footprint, at the top of the function's IR-level SEG (a
/// nest inside an IR loop or branch is left to ICC and INTCC only: its
/// frequency is not per execution of the source loop).
static std::map<const Node *, std::vector<const Node *>> nestsBySourceLoop(const SegFile &S) {
  std::map<const Node *, std::vector<const Node *>> R;
  for (const FunctionSeg &F : S.Functions) {
    auto IR = F.LevelSegs.find("IR");
    if (IR == F.LevelSegs.end())
      continue;
    std::map<std::string, const Node *> Loops;
    forEachNode(F.Body, [&](const Node &N) {
      if (N.Kind == NodeKind::Loop)
        Loops[N.Id] = &N;
    });
    for (const Node &X : IR->second)
      if (X.Kind == NodeKind::Loop && !X.Footprint.empty())
        if (auto L = Loops.find(X.SourceNode); L != Loops.end())
          R[L->second].push_back(&X);
  }
  return R;
}

void installLoopModels(FormulaBuilder &FB, const SegFile &S, const Machine &M,
                       const std::string &Target, const ResourceModel &Model,
                       std::optional<MemoryModel> &Mem, std::string &MemWhy,
                       const std::map<std::string, double> &Values,
                       std::shared_ptr<std::map<const Node *, ex>> Cores) {
  auto *Icc = dynamic_cast<const ICCModel *>(&Model);
  if (!Icc && Model.level() != "INTCC" && Model.level() != "HLLC")
    return;
  if (!Mem) {
    Mem = MemoryModel::fromMachine(M, MemWhy);
    if (auto P = Values.find("p"); Mem && P != Values.end())
      Mem->setRanksSharing(P->second);
  }
  if (Model.level() == "HLLC") {
    // A source loop costs its constructs and the memory time of the IR
    // nests attributed to it, each as often as it runs (its frequency per
    // call), combined as ICC combines them.
    auto Nests = std::make_shared<std::map<const Node *, std::vector<const Node *>>>(
        nestsBySourceLoop(S));
    FB.setLoopBound("time:HLLC", [Nests, &Mem, Values](const Node &N, const ex &Core,
                                                       int) -> ex {
      auto It = Nests->find(&N);
      if (!Mem || It == Nests->end())
        return Core;
      // The overlap exponent of the largest footprint (a vectorised loop's,
      // not its epilogue's).
      ex T = 0;
      std::optional<ex> F;
      for (const Node *X : It->second) {
        ex Fx = parseExpr(X->Footprint);
        T += frequencyOf(*X) * nestMemoryTime(*Mem, *X, Fx, Values);
        F = F ? max(*F, Fx) : Fx;
      }
      return Mem->combine(Core, T, *F);
    });
    return;
  }
  double Rob = 0;
  auto T = S.Targets.find(Target);
  if (Icc && T != S.Targets.end() && T->second.count("micro_op_buffer"))
    Rob = std::stod(T->second.at("micro_op_buffer"));
  if (Icc && Mem)
    Mem->setTarget(Target);
  double TCyc = Icc ? cycleTime(*Icc) : 0;
  FB.setLoopBound("time:" + Model.level(), [Icc, Rob, &Mem, Values, Target, TCyc,
                                            Cores](const Node &N, const ex &Core,
                                                   int Depth) -> ex {
    ex C = Icc ? Icc->overlap(N, Core, Depth, Rob) : Core;
    if (!Mem || N.Footprint.empty())
      return C;
    if (Icc && Cores)
      (*Cores)[&N] = C;
    ex F = parseExpr(N.Footprint);
    // ICC: the ECM model where the nest's streams are known (docs/models.md).
    if (Icc && TCyc > 0 && ecmApplies(*Mem, N))
      return Mem->ecmTime(C,
                          Mem->ecmTerms(streamsFor(N, Values), parseExpr(N.Traffic), F,
                                        nestLoadStoreTime(N, Target, TCyc, *Mem)),
                          F);
    return Mem->combine(C, nestMemoryTime(*Mem, N, F, Values), F);
  });
}

/// Iterations of the innermost loops of IR node N per execution.
static ex innerIterations(const Node &N) {
  if (N.Kind != NodeKind::Loop)
    return 0;
  ex Body = 0;
  bool Inner = false;
  for (const Node &X : N.Body)
    if (X.Kind == NodeKind::Loop) {
      Body += frequencyOf(X) * innerIterations(X);
      Inner = true;
    }
  ex Trip = parseExpr(N.Trip);
  if (!Inner)
    return Trip;
  if (!N.Index.empty() && Body.has(sym(N.Index)))
    return seg_sum(Body, sym(N.Index), 0, Trip - 1);
  return Trip * Body;
}

/// The ECM breakdown of the IR loop nests of F at Values (ICC, target
/// Target, s per cycle TCyc); Cores: their core times (installLoopModels).
static std::vector<NestBreakdown> breakdownOf(const FunctionSeg &F, const MemoryModel *Mem,
                                              const std::string &Why, const std::string &Target,
                                              double TCyc,
                                              const std::map<const Node *, ex> &Cores,
                                              const std::map<std::string, double> &Values) {
  std::vector<NestBreakdown> R;
  auto It = F.LevelSegs.find("IR");
  if (It == F.LevelSegs.end())
    return R;
  for (const Node &N : It->second) {
    if (N.Kind != NodeKind::Loop)
      continue;
    NestBreakdown B;
    B.Id = N.Id;
    B.Line = N.Range.Line;
    B.CycleS = TCyc;
    B.Executions = evaluate(frequencyOf(N), Values);
    B.Iterations = evaluate(innerIterations(N), Values);
    auto C = Cores.find(&N);
    if (!Mem) {
      B.NotAnalysable = "no memory term: " + Why;
    } else if (N.Footprint.empty()) {
      B.NotAnalysable = "no footprint (" +
                        (N.MemoryNotes.empty() ? std::string("no analysable references")
                                               : N.MemoryNotes.front()) +
                        "): core time only";
    } else if (C == Cores.end()) {
      B.NotAnalysable = "not costed at the ICC level";
    } else if (TCyc <= 0) {
      B.NotAnalysable = "the ICC cost vector has no 'cycles' entry (no core time in cycles); the "
                        "p-norm of core and memory time";
    } else if (!ecmApplies(*Mem, N)) {
      B.NotAnalysable =
          std::string(!N.MemoryNotes.empty() ? N.MemoryNotes.front()
                      : N.Streams.empty()    ? "no reference streams"
                                             : "the machine file lacks L1/L2 geometry") +
          "; traffic / bandwidth combined with the core time by the overlap exponent";
    }
    double Core = C == Cores.end() ? 0 : evaluate(C->second, Values);
    B.CoreCycles = TCyc > 0 ? Core / TCyc : 0;
    B.Terms.push_back({"T_OL", "core", Core, true});
    if (!B.NotAnalysable.empty()) {
      if (Mem && !N.Footprint.empty() && C != Cores.end()) {
        ex Fx = parseExpr(N.Footprint);
        double Tm = evaluate(nestMemoryTime(*Mem, N, Fx, Values), Values);
        B.Terms.push_back({"T_mem", Mem->levelOf(evaluate(Fx, Values)).Name, Tm, true});
        B.TimeS = evaluate(Mem->combine(C->second, nestMemoryTime(*Mem, N, Fx, Values), Fx),
                           Values);
      } else {
        B.TimeS = Core;
      }
    } else {
      std::vector<MemStream> St = streamsFor(N, Values);
      ex Fx = parseExpr(N.Footprint);
      std::vector<EcmTerm> T = Mem->ecmTerms(St, parseExpr(N.Traffic), Fx,
                                             nestLoadStoreTime(N, Target, TCyc, *Mem));
      B.TimeS = evaluate(Mem->ecmTime(C->second, T, Fx), Values);
      if (auto P = Mem->overlapExponent(evaluate(Fx, Values)))
        B.OverlapExponent = *P;
      B.Lines["L1"] = evaluate(T[1].Lines, Values);
      B.Lines["L2"] = evaluate(T[2].Lines + T[3].Lines, Values);
      B.Lines["L3"] = evaluate(T[2].Lines, Values);
      B.Lines["memory"] = evaluate(T[3].Lines, Values);
      for (size_t K = 0; K + 1 < Mem->caches().size() || K == 0; ++K)
        B.LinesIn[Mem->caches()[K].Name] =
            evaluate(linesInto(St, &Mem->caches()[K], false, &Fx), Values);
      for (const EcmTerm &E : T)
        B.Terms.push_back({E.Name, E.Bound, evaluate(E.Time, Values), E.Overlaps});
    }
    // The bound: the largest overlapping term, or the largest member of the
    // non-overlapping sum when the sum is larger.
    double Best = -1, Serial = 0, BestSerial = -1;
    std::string Which, WhichSerial;
    for (const NestBreakdown::Term &X : B.Terms)
      if (X.Overlaps) {
        if (X.TimeS > Best) {
          Best = X.TimeS;
          Which = X.Bound;
        }
      } else {
        Serial += X.TimeS;
        if (X.TimeS > BestSerial) {
          BestSerial = X.TimeS;
          WhichSerial = X.Bound;
        }
      }
    if (Serial > Best) {
      B.Bound = WhichSerial;
      B.Share = B.TimeS > 0 ? BestSerial / B.TimeS : 0;
    } else {
      B.Bound = Which;
      B.Share = B.TimeS > 0 ? Best / B.TimeS : 0;
    }
    R.push_back(std::move(B));
  }
  return R;
}

/// How the memory note's transfer time combines with the core time.
static std::string overlapNote(const MemoryModel &Mem, double Fp) {
  std::optional<double> P = Mem.overlapExponent(Fp);
  if (!P)
    return "; combined with the core time as max (full overlap: the machine file has no "
           "memory.overlap curve)";
  char Buf[160];
  std::snprintf(Buf, sizeof Buf,
                "; combined with the core time as (t_core^p + t_mem^p)^(1/p), p = %.3g "
                "(memory.overlap)",
                *P);
  return Buf;
}

/// Notes on the memory term (ICC, INTCC, HLLC) of each loop nest of F: footprint, the
/// level it lives in, traffic and transfer time, and the references it
/// bounds or leaves out (Node::MemoryNotes).
static void memoryNotes(const FunctionSeg &F, const std::optional<MemoryModel> &Mem,
                        const std::string &Why, const std::map<std::string, double> &Values,
                        std::vector<std::string> &Notes) {
  auto It = F.LevelSegs.find("IR");
  if (It == F.LevelSegs.end())
    return;
  if (!Mem) {
    Notes.push_back("memory term not applied: " + Why);
    return;
  }
  for (const Node &N : It->second) {
    if (N.Kind != NodeKind::Loop)
      continue;
    // References the pass bounded or left out (indirect ones), never silently.
    for (const std::string &M : N.MemoryNotes)
      Notes.push_back("memory term, loop nest at line " + std::to_string(N.Range.Line) +
                      ": " + M);
    if (N.Footprint.empty())
      continue;
    // A nest that no predicted level costs (HLLC costs only the nests of
    // its source loops) may use a name without a value: said, not evaluated.
    std::set<std::string> Names, Counters; // (a nest's own loop counters)
    auto Add = [&](const std::string &E) {
      if (!E.empty())
        for (const std::string &X : freeSymbols(parseExpr(E)))
          Names.insert(X);
    };
    Add(N.Footprint);
    Add(N.Traffic);
    for (const MemStream &St : N.Streams) {
      for (const std::string &O : St.Offsets)
        Add(O);
      for (const MemStream::Step &L : St.Loops) {
        Add(L.Stride);
        Add(L.Trip);
        Counters.insert(L.Index);
      }
    }
    std::string Unbound;
    for (const std::string &X : Names)
      if (!Values.count(X) && !Counters.count(X))
        Unbound += (Unbound.empty() ? "" : ", ") + X;
    if (!Unbound.empty()) {
      Notes.push_back("memory term, loop nest at line " + std::to_string(N.Range.Line) +
                      ": not evaluated (no value for " + Unbound + ")");
      continue;
    }
    double Fp = evaluate(parseExpr(N.Footprint), Values);
    double V = evaluate(parseExpr(N.Traffic), Values);
    char Buf[256];
    if (Fp < 0 || V < 0) {
      // Out of the expressions' domain (a trip count below 0: the nest
      // does not run). A loop's time is max(core, memory), so a negative
      // memory time never lowers a time.
      std::snprintf(Buf, sizeof Buf,
                    "memory term, loop nest at line %u: footprint %.3g B, traffic %.3g B at "
                    "these values (below 0: the nest does not run), taken as 0",
                    N.Range.Line, Fp, V);
      Notes.push_back(Buf);
      continue;
    }
    if (Mem->hasCaches() && !N.Streams.empty()) {
      bool Bound = false;
      std::vector<MemStream> Streams = streamsFor(N, Values, &Bound);
      const MemoryModel::Level &Last = Mem->levelOf(Fp);
      std::string Lines;
      ex F = parseExpr(N.Footprint);
      for (const CacheGeometry &C : Mem->caches()) {
        std::snprintf(Buf, sizeof Buf, "%s%s %.3g", Lines.empty() ? "" : ", ", C.Name.c_str(),
                      evaluate(linesInto(Streams, &C, false, &F), Values));
        Lines += Buf;
      }
      std::snprintf(Buf, sizeof Buf,
                    "memory term, loop nest at line %u: footprint %.3g B, traffic %.3g B, "
                    "lines brought in (layer conditions): %s; last level at %.3g GB/s (%s); %.3g s",
                    N.Range.Line, Fp, V, Lines.c_str(), Mem->bandwidthAt(Fp) / 1e9, Last.Name.c_str(),
                    evaluate(Mem->lineTime(Streams, parseExpr(N.Traffic), F), Values));
      std::string Note = Buf;
      if (Bound)
        Note += "; triangular streams: the line count is built for the given parameter "
                "values (numbers in the closed form)";
      if (const MemoryModel::Level *At = Mem->stridedLevelOf(Fp)) {
        std::vector<std::string> Bases; // page-strided streams' bases, once each
        for (const MemStream &St : N.Streams)
          if (evaluate(pageStrided(St), Values) > 0.5) {
            std::string B = St.Base.empty() ? std::string("?") : St.Base;
            if (std::find(Bases.begin(), Bases.end(), B) == Bases.end())
              Bases.push_back(B);
          }
        if (!Bases.empty()) {
          std::string Str;
          for (const std::string &B : Bases)
            Str += (Str.empty() ? "" : ", ") + B;
          std::snprintf(Buf, sizeof Buf, "; page-strided streams (%s) at %.3g GB/s (memory.%s)",
                        Str.c_str(), At->Bandwidth / 1e9, Mem->stridedCurveName().c_str());
          Note += Buf;
        }
      }
      Notes.push_back(Note + overlapNote(*Mem, Fp));
      continue;
    }
    const MemoryModel::Level &L = Mem->levelOf(Fp);
    double B = Mem->bandwidthAt(Fp);
    std::snprintf(Buf, sizeof Buf,
                  "memory term, loop nest at line %u: footprint %.3g B (%s), traffic %.3g B, "
                  "%.3g s at %.3g GB/s",
                  N.Range.Line, Fp, L.Name.c_str(), V, V / B, B / 1e9);
    Notes.push_back(Buf + overlapNote(*Mem, Fp));
  }
  // Which cache sizes the nests above used: measured effective or reported.
  if (!Mem->sizeNote().empty() &&
      std::any_of(It->second.begin(), It->second.end(),
                  [](const Node &N) { return N.Kind == NodeKind::Loop && !N.Footprint.empty(); }))
    Notes.push_back("memory term, " + Mem->sizeNote());
}

/// The values of the names of E that Values gives, "n=1, m=2" (for messages).
static std::string valuesOf(const ex &E, const std::map<std::string, double> &Values) {
  std::ostringstream OS;
  for (const std::string &X : freeSymbols(E))
    if (auto It = Values.find(X); It != Values.end())
      OS << (OS.tellp() ? ", " : "") << X << "=" << It->second;
  return OS.str();
}

/// Notes for the loops of L whose trip count, evaluated at Values, is
/// negative (the loop runs 0 times: FormulaBuilder::setClampTrips), and for
/// those of the functions L calls (Values bound through the calls'
/// arguments; In names the callee, Depth bounds the walk). Trip counts with
/// names Values lacks (an enclosing loop's index) are skipped.
static void negativeTrips(const SegFile &S, const NodeList &L,
                          const std::map<std::string, double> &Values,
                          std::vector<std::string> &Notes, const std::string &In = "",
                          int Depth = 0) {
  auto Value = [&](const std::string &Text, double &V) {
    if (Text.empty())
      return false;
    try {
      ex T = parseExpr(Text);
      for (const std::string &X : freeSymbols(T))
        if (!Values.count(X))
          return false;
      V = evaluate(T, Values);
      return true;
    } catch (const std::exception &) {
      return false;
    }
  };
  forEachNode(L, [&](const Node &N) {
    double V;
    if (N.Kind == NodeKind::Loop && Value(N.Trip, V) && V < 0) {
      std::ostringstream OS;
      OS << (In.empty() ? "" : "in " + In + ", ") << "loop at " << N.Range.File << ":"
         << N.Range.Line << " (" << N.Id << "): trip count " << N.Trip << " = " << V
         << " < 0 at " << valuesOf(parseExpr(N.Trip), Values) << ", taken as 0";
      Notes.push_back(OS.str());
    }
    const FunctionSeg *Callee = N.Kind == NodeKind::Call ? S.find(N.Callee) : nullptr;
    if (!Callee || Depth >= 8)
      return;
    std::map<std::string, double> Args;
    for (const CallBinding &B : callBindings(N, Callee->Params))
      if (Value(B.Arg, V))
        Args[B.Param] = V;
    negativeTrips(S, Callee->Body, Args, Notes, In.empty() ? N.Callee : In + " -> " + N.Callee,
                  Depth + 1);
  });
}

namespace {
/// Stage weight 1 for a node with a non-zero count under RUV key Key, else
/// 0: FormulaBuilder::dependsOn over it gives the names any of the level's
/// counts depends on.
StageWeight anyCountWeight(const std::string &Key) {
  return [Key](const Node &N) -> ex {
    auto It = N.Ruvs.find(Key);
    if (It == N.Ruvs.end())
      return 0;
    for (auto &[Op, C] : It->second.counts())
      if (C != 0)
        return 1;
    return 0;
  };
}

/// Does expression text T mention the name X (as a whole word)?
bool mentions(const std::string &T, const std::string &X) {
  for (size_t P = T.find(X); P != std::string::npos; P = T.find(X, P + 1)) {
    auto Word = [](char C) { return std::isalnum(static_cast<unsigned char>(C)) || C == '_' || C == '.'; };
    if ((P == 0 || !Word(T[P - 1])) && (P + X.size() == T.size() || !Word(T[P + X.size()])))
      return true;
  }
  return false;
}

/// The first node of L (depth first) whose expressions mention X, and what
/// it uses X for; nullptr if none does.
const Node *firstUse(const NodeList &L, const std::string &X, std::string &What) {
  for (const Node &N : L) {
    if (mentions(N.Trip, X) || mentions(N.Start, X) || mentions(N.Step, X)) {
      What = "the trip count of the loop";
      return &N;
    }
    if (mentions(N.Freq, X) || mentions(N.BranchProb, X)) {
      What = "the condition of the block";
      return &N;
    }
    for (const Arm &A : N.Arms)
      if (mentions(A.Prob, X)) {
        What = "the probability of an arm of the branch";
        return &N;
      }
    for (const std::string &A : N.Args)
      if (mentions(A, X)) {
        What = "an argument of the call to " + N.Callee;
        return &N;
      }
    if (mentions(N.Footprint, X) || mentions(N.Traffic, X) || mentions(N.Bytes, X)) {
      What = N.Kind == NodeKind::Comm ? "the message size" : "the memory term of the loop nest";
      return &N;
    }
    if (const Node *U = firstUse(N.Body, X, What))
      return U;
    for (const Arm &A : N.Arms)
      if (const Node *U = firstUse(A.Body, X, What))
        return U;
  }
  return nullptr;
}

/// Adds V to Ms, or V's levels to the entry of the same name.
void addMissing(std::vector<MissingValue> &Ms, MissingValue V) {
  auto It = std::find_if(Ms.begin(), Ms.end(),
                         [&](const MissingValue &X) { return X.Name == V.Name; });
  if (It == Ms.end())
    Ms.push_back(std::move(V));
  else
    It->Levels.insert(It->Levels.end(), V.Levels.begin(), V.Levels.end());
}

/// predict()'s work over one file: the resource, memory and comm models and
/// one formula builder (its memo of closed forms serves every function).
class FilePredictor {
public:
  FilePredictor(const SegFile &S, const Machine &M, const PredictOptions &O, Prediction &P)
      : S(S), M(M), O(O), P(P), FB(S), Declared(FB.declaredParameters()) {
    FB.setMaxTerms(O.MaxTerms);
    std::set<std::string> Known = knownOutcomes(O, Declared);
    for (const std::string &L : O.Levels) {
      if (L == "ICC")
        P.Target = chooseTarget(S, M, O.Target);
      Models.push_back(makeModel(L, M, S.OptLevel, P.Target, Known));
    }
    // Library calls: the functions the machine has a cost for.
    std::set<std::string> Costed;
    for (const LibraryFunction &F : libraryFunctions()) {
      const CostEntry *A = M.param(libraryKey(F, "per_call"));
      const CostEntry *B = M.param(libraryKey(F, "per_B"));
      if (!A || (F.Sized && !B))
        continue;
      Costed.insert(F.Name);
      LibraryCosts[libraryKey(F, "per_call")] = A->Value;
      if (B)
        LibraryCosts[libraryKey(F, "per_B")] = B->Value;
    }
    // At INTCC and ICC a call left in the optimised code to one of them is
    // costed by its entry (the IR SEG's Call node), not by the vector's
    // "call.<name>" (nor ICC's math-library cost).
    for (auto &Model : Models)
      if (auto *V = dynamic_cast<CostVectorModel *>(Model.get());
          V && (V->level() == "INTCC" || V->level() == "ICC"))
        V->setCostedElsewhere([Costed](const std::string &Callee) {
          return libraryCallInIR(Callee) && Costed.count(libraryFunction(Callee)->Name);
        });
    LibraryCostedNames = Costed;
    FB.setLibraryCosts(std::move(Costed), M.Name);
    // ICC loops: overlap of iterations and the memory term.
    for (auto &Model : Models)
      installLoopModels(FB, S, M, P.Target, *Model, Mem, MemWhy, O.Values, Cores);
    for (auto &Model : Models)
      if (auto *I = dynamic_cast<const ICCModel *>(Model.get()))
        CycleS = cycleTime(*I);
  }

  bool clampTrips() const { return FB.clampTrips(); }
  void setClampTrips(bool On) { FB.setClampTrips(On); }
  /// Predicts function FS into FP; throws on what is not a missing value.
  void predictFunction(FunctionPrediction &FP, const FunctionSeg &FS);
  /// Names given with -p that no predicted function uses.
  std::set<std::string> Used;

private:
  /// The comm model is read when a function communicates; a machine file
  /// without one fails only those functions.
  bool needComm() {
    if (!Comm && CommError.empty()) {
      try {
        Comm = CollectiveModel::fromMachine(M);
        CommScope = std::make_unique<CommModelScope>(*Comm);
        P.CommModel = Comm->describe();
      } catch (const std::exception &E) {
        CommError = E.what();
      }
    }
    return Comm.has_value();
  }
  /// The operations counted under Key by Fn's level body or its callees'
  /// (the others' counts are 0): the file's ones, once per key.
  const std::set<std::string> &opsOf(const std::string &Fn, const std::string &Key,
                                     const std::string &Level);
  /// What F lacks when X has no value: its declaration, or where F uses it.
  MissingValue describe(const FunctionSeg &F, const std::string &X) const;

  const SegFile &S;
  const Machine &M;
  const PredictOptions &O;
  Prediction &P;
  FormulaBuilder FB;
  std::map<std::string, Parameter> Declared;
  std::vector<std::unique_ptr<ResourceModel>> Models;
  std::string MemWhy;
  std::optional<MemoryModel> Mem;
  /// ICC core time per loop nest (the breakdown's T_OL).
  std::shared_ptr<std::map<const Node *, ex>> Cores =
      std::make_shared<std::map<const Node *, ex>>();
  double CycleS = 0; ///< the ICC entry "cycles"
  std::optional<CollectiveModel> Comm;
  std::string CommError;
  std::unique_ptr<CommModelScope> CommScope;
  std::map<std::pair<std::string, std::string>, std::set<std::string>> OpsMemo;
  std::map<std::string, double> LibraryCosts; ///< library.F.per_call / per_B, s and s/B
  std::set<std::string> LibraryCostedNames;   ///< the library functions costed
};

const std::set<std::string> &FilePredictor::opsOf(const std::string &Fn, const std::string &Key,
                                                  const std::string &Level) {
  auto It = OpsMemo.find({Fn, Key});
  if (It != OpsMemo.end())
    return It->second;
  std::set<std::string> &Ops = OpsMemo[{Fn, Key}]; // (a recursive call finds it)
  std::vector<std::string> Callees;
  const FunctionSeg *F = S.find(Fn);
  if (F)
    forEachNode(F->bodyFor(Level), [&](const Node &N) {
      auto R = N.Ruvs.find(Key);
      if (R != N.Ruvs.end())
        for (auto &[Op, C] : R->second.counts())
          Ops.insert(Op);
      if (N.Kind == NodeKind::Call)
        Callees.push_back(N.Callee);
    });
  for (const std::string &C : Callees)
    if (C != Fn && S.find(C)) {
      std::set<std::string> Sub = opsOf(C, Key, Level); // (a copy: the map may grow)
      OpsMemo[{Fn, Key}].insert(Sub.begin(), Sub.end());
    }
  return OpsMemo[{Fn, Key}];
}

MissingValue FilePredictor::describe(const FunctionSeg &F, const std::string &X) const {
  MissingValue V;
  V.Name = X;
  auto Loc = [](const SourceRange &R) { return R.File + ":" + std::to_string(R.Line); };
  if (auto D = Declared.find(X); D != Declared.end()) {
    V.Meaning = D->second.Meaning;
    V.Where = D->second.Where;
    return V;
  }
  size_t Dot = X.rfind('.'); // (a linked static callee: "f@a.c.n")
  if (Dot != std::string::npos) {
    std::string Callee = X.substr(0, Dot);
    V.Meaning = "parameter '" + X.substr(Dot + 1) + "' of " + Callee +
                ", which a call does not bind to an expression in source names";
    if (const FunctionSeg *C = S.find(Callee))
      V.Where = Loc(C->Range);
    return V;
  }
  bool Param = std::find(F.Params.begin(), F.Params.end(), X) != F.Params.end();
  V.Meaning = Param ? "parameter of " + F.Name : "a source name (a global, or a callee's)";
  std::string What;
  const Node *U = firstUse(F.Body, X, What);
  std::string Level = "";
  if (!U)
    for (auto &[K, L] : F.LevelSegs)
      if ((U = firstUse(L, X, What))) {
        Level = K;
        break;
      }
  if (U) {
    V.Meaning += ", used in " + What + (Level.empty() ? "" : " (" + Level + "-level SEG)");
    V.Where = F.Range.File + ":" + std::to_string(U->Range.Line);
  } else {
    V.Where = Loc(F.Range);
  }
  return V;
}

void FilePredictor::predictFunction(FunctionPrediction &FP, const FunctionSeg &FS) {
  const std::string &Name = FS.Name;
  FP.Structural = FB.structural(Name);
  std::map<std::string, ex> Closed;
  std::set<std::string> Free;
  std::vector<ResourceModel *> Active;
  std::string IRError;
  for (auto &[L, Why] : O.LeftOut)
    FP.Notes.push_back(L + " not predicted: " + Why);
  for (auto &Model : Models) {
    std::string L = Model->level();
    if ((L == "INTCC" || L == "ICC") && !FS.LevelSegs.count("IR")) {
      IRError = "no IR-level SEG for " + Name +
                " (the file was written with -fplugin-arg-segtime-no-ir, or the function "
                "was not emitted)";
      if (O.Optional.count(L)) {
        FP.Notes.push_back(L + " not predicted: " + IRError);
        continue;
      }
    }
    Active.push_back(Model.get());
  }
  if (!IRError.empty() && Active.size() < Models.size() - FP.Notes.size()) {
    FP.Error = IRError;
    FP.Failed = true;
    return;
  }
  // Communication time from the source-level SEG's Comm nodes.
  ex CommE = FB.closedForm(Name, commWeight(), "comm", "");
  std::set<std::string> CommDeps;
  if (!CommE.is_zero()) {
    FP.CommFormula = toFormulaText(CommE);
    CommDeps = FB.dependsOn(Name, commWeight(), "comm", "");
    if (!needComm()) {
      FP.Error = Name + " communicates (MPI calls) but: " + CommError;
      FP.Failed = true;
      return;
    }
  }
  // Library calls' time, the same way: POC and HLLC those of the source,
  // INTCC and ICC those left in the optimised code (the IR-level SEG).
  StageWeight LibW = libraryWeight(LibraryCosts);
  ex LibE = FB.closedForm(Name, LibW, "library", "");
  std::set<std::string> LibDeps, LibIrDeps;
  if (!LibE.is_zero()) {
    FP.LibraryFormula = toFormulaText(LibE);
    LibDeps = FB.dependsOn(Name, LibW, "library", "");
  }
  ex LibIrE = LibE;
  LibIrDeps = LibDeps;
  if (FS.LevelSegs.count("IR")) {
    LibIrE = FB.closedForm(Name, LibW, "library:IR", "INTCC");
    LibIrDeps = LibIrE.is_zero() ? std::set<std::string>()
                                 : FB.dependsOn(Name, LibW, "library:IR", "INTCC");
  }
  if (!LibIrE.is_zero())
    FP.LibraryIrFormula = toFormulaText(LibIrE);
  auto irLevel = [](const std::string &L) { return L == "INTCC" || L == "ICC"; };
  // Per level, the names its time and counts depend on, from the SEG's
  // structure (FormulaBuilder::dependsOn): a name whose coefficient cancels
  // in value is still needed, so that needing it does not depend on
  // floating-point round-off. The closed forms are built once the values
  // are known to be there.
  std::map<std::string, std::set<std::string>> FreeOf;
  for (ResourceModel *Model : Active) {
    const std::string L = Model->level(), Key = ruvKey(L, P.Target);
    std::set<std::string> &Deps = FreeOf[L];
    Deps = FB.dependsOn(Name, Model->timeWeight(), "time:" + L, L);
    for (const std::string &X : FB.dependsOn(Name, anyCountWeight(Key), "any:" + Key, L))
      Deps.insert(X);
    Deps.insert(CommDeps.begin(), CommDeps.end());
    const std::set<std::string> &Lib = irLevel(L) ? LibIrDeps : LibDeps;
    Deps.insert(Lib.begin(), Lib.end());
    Used.insert(Deps.begin(), Deps.end());
  }
  // An optional level needing a value nobody gave is left out.
  // main's argc: the program run without arguments, unless given.
  const bool AssumeArgc = Name == "main" && !FS.Params.empty() && FS.Params[0] == "argc" &&
                          !Declared.count("argc");
  auto Known0 = [&](const std::string &X) {
    auto D = Declared.find(X);
    return O.Values.count(X) || O.ProfileValues.count(X) ||
           (D != Declared.end() && D->second.hasDefault()) || (AssumeArgc && X == "argc");
  };
  auto Known = [&](const std::string &X) {
    auto D = Declared.find(X);
    if (X == "rank" && Known0("p"))
      return true; // every rank is evaluated
    return O.Values.count(X) || (D != Declared.end() && D->second.hasDefault()) ||
           (AssumeArgc && X == "argc");
  };
  std::vector<ResourceModel *> Kept;
  bool RankScan = false;
  for (ResourceModel *Model : Active) {
    std::string L = Model->level(), Missing;
    std::vector<std::string> Lacks;
    for (const std::string &X : FreeOf[L])
      if (!Known(X)) {
        Missing += (Missing.empty() ? "" : ", ") + X;
        Lacks.push_back(X);
      }
    if (!Missing.empty() && O.Optional.count(L)) {
      FP.Notes.push_back(L + " not predicted: no value for " + Missing);
      for (const std::string &X : Lacks) {
        MissingValue V = describe(FS, X);
        V.Levels = {L};
        addMissing(FP.Missing, std::move(V));
      }
      continue;
    }
    Kept.push_back(Model);
    for (const std::string &X : FreeOf[L])
      Free.insert(X);
  }
  // Resolve parameter values: user, then profile (CT), then SEG defaults.
  // (A numeric default here; an expression default below, once the names
  // it uses have values.)
  struct Given {
    double Value;
    std::string Source;
  };
  auto given = [&](const std::string &X) -> std::optional<Given> {
    if (auto U = O.Values.find(X); U != O.Values.end())
      return Given{U->second, "user"};
    if (auto Pr = O.ProfileValues.find(X); Pr != O.ProfileValues.end())
      return Given{Pr->second, "profile"};
    if (auto D = Declared.find(X); D != Declared.end() && D->second.Default)
      return Given{*D->second.Default, D->second.Source};
    if (AssumeArgc && X == "argc")
      return Given{1, "assumed: the program run without arguments"};
    return std::nullopt;
  };
  std::map<std::string, double> Values;
  std::vector<std::string> Missing;
  std::vector<const Parameter *> ByExpr;
  for (const std::string &F : Free) {
    if (F == "rank" && !O.Values.count(F) && Known0("p")) {
      RankScan = true; // evaluated for every rank below
      continue;
    }
    if (auto G = given(F)) {
      Values[F] = G->Value;
      FP.Params.push_back({F, G->Value, G->Source});
      continue;
    }
    auto D = Declared.find(F);
    if (D != Declared.end() && !D->second.DefaultExpr.empty()) {
      ByExpr.push_back(&D->second);
      continue;
    }
    Missing.push_back(F);
  }
  // Defaults that are expressions (the min-update idiom's H_N/N) in the
  // values just resolved; a name only they use resolves the same way.
  std::map<std::string, std::string> ForDefault; // missing name -> the parameter it is for
  for (const Parameter *D : ByExpr) {
    bool Complete = true;
    for (const std::string &X : freeSymbols(parseExpr(D->DefaultExpr))) {
      Used.insert(X);
      if (Values.count(X))
        continue;
      if (auto G = given(X)) {
        Values[X] = G->Value;
      } else {
        if (!ForDefault.count(X))
          Missing.push_back(X);
        ForDefault[X] = D->Name;
        Complete = false;
      }
    }
    if (!Complete)
      continue;
    double V = *defaultValue(*D, Values);
    Values[D->Name] = V;
    FP.Params.push_back({D->Name, V, D->Source});
  }
  // What is not costed, in the function and in those it calls.
  FP.Costed = costedSummary(S, FS, LibraryCostedNames);
  for (const std::string &U : FB.unresolved())
    for (const std::string &Fn : FP.Costed.Functions)
      if (U.compare(0, Fn.size() + 2, Fn + ": ") == 0 ||
          (U.compare(0, Fn.size() + 1, Fn + ":") == 0 && U.size() > Fn.size() + 1 &&
           std::isdigit(static_cast<unsigned char>(U[Fn.size() + 1])))) {
        FP.Unresolved.push_back(U);
        break;
      }
  {
    std::map<std::string, double> At = Values;
    for (auto &[K, V] : O.Values)
      At.emplace(K, V);
    FP.Bound = boundFromCalls(S, FS, At);
  }
  if (!Missing.empty()) {
    std::ostringstream E;
    E << "missing parameter value(s) for " << Name << ": ";
    for (size_t I = 0; I < Missing.size(); ++I) {
      MissingValue V = describe(FS, Missing[I]);
      auto D = ForDefault.find(Missing[I]);
      for (ResourceModel *Model : Kept)
        if (FreeOf[Model->level()].count(Missing[I]) || D != ForDefault.end())
          V.Levels.push_back(Model->level());
      E << (I ? ", " : "") << Missing[I] << " (";
      if (D != ForDefault.end()) {
        E << "for the default of " << D->second << ")";
        V.Meaning = "for the default of " + D->second + "; " + V.Meaning;
      } else {
        E << V.Meaning << ", " << V.Where << ")";
      }
      addMissing(FP.Missing, std::move(V));
    }
    E << "; give them with -p NAME=VALUE";
    if (!Values.empty()) {
      E << " (known:";
      for (auto &[K, V] : Values)
        E << " " << K << "=" << V;
      E << ")";
    }
    FP.Error = E.str();
    return;
  }
  if (Values.count("rank") && O.Values.count("p") &&
      (Values.at("rank") < 0 || Values.at("rank") >= O.Values.at("p"))) {
    FP.Error = "rank " + std::to_string(static_cast<long>(Values.at("rank"))) +
               " is not one of the ranks 0.." +
               std::to_string(static_cast<long>(O.Values.at("p")) - 1) + " of p processes";
    FP.Failed = true;
    return;
  }
  int NumRanks = 0;
  if (RankScan) {
    // p bounds the ranks even where the formula itself does not use it.
    auto D = Declared.find("p");
    double Pv = O.Values.count("p") ? O.Values.at("p")
                : D != Declared.end() && D->second.Default ? *D->second.Default
                                                           : 0;
    Used.insert("p");
    if (Pv < 1 || Pv > 65536 || Pv != std::floor(Pv)) {
      FP.Error = "p = " + std::to_string(Pv) +
                 " is not a number of processes (a whole number, 1 to 65536)";
      FP.Failed = true;
      return;
    }
    NumRanks = static_cast<int>(Pv);
  }
  // The memory term's notes, once: ICC, INTCC and HLLC use it. Without
  // memory numbers only ICC says so (the term is part of its model; HLLC
  // and INTCC, as on the T800, are then their cost vectors alone).
  bool Icc = false, Other = false;
  for (const ResourceModel *Model : Kept)
    (Model->level() == "ICC" ? Icc : Other) |= Model->level() != "POC";
  if (Icc || (Other && Mem))
    memoryNotes(FS, Mem, MemWhy, Values, FP.Notes);
  // A value given with -p binds its name wherever it occurs, whether or not
  // the structure says the level needs it.
  std::map<std::string, double> Bound = Values;
  for (auto &[K, V] : O.Values)
    Bound.emplace(K, V);
  {
    std::vector<std::string> Neg;
    negativeTrips(S, FS.Body, Bound, Neg);
    for (auto &[K, L] : FS.LevelSegs)
      negativeTrips(S, L, Bound, Neg);
    if (!Neg.empty())
      FB.setClampTrips(true);
    for (const std::string &N : Neg) // an IR loop may repeat its source loop
      if (std::find(FP.Notes.begin(), FP.Notes.end(), N) == FP.Notes.end())
        FP.Notes.push_back(N);
  }
  for (ResourceModel *Model : Kept) {
    const std::string L = Model->level(), Key = ruvKey(L, P.Target);
    // The round-off a name of coefficient 0 leaves (see above) is dropped,
    // and a term that cancellation leaves with a coefficient of round-off
    // size (present or not depending on GiNaC's order of addition).
    auto Clean = [&](const ex &E) {
      std::set<std::string> Stray;
      for (const std::string &X : freeSymbols(E))
        if (!FreeOf[L].count(X))
          Stray.insert(X);
      return dropRoundoff(Stray.empty() ? E : dropTermsWith(E, Stray));
    };
    const ex &LibL = irLevel(L) ? LibIrE : LibE;
    Closed[L] = Clean(FB.closedForm(Name, Model->timeWeight(), "time:" + L, L) + CommE + LibL);
    if (FB.factored(Name, "time:" + L))
      FP.Notes.push_back(L + " closed form left factored: its expansion has more than " +
                         std::to_string(O.MaxTerms) + " terms (--max-terms)");
    LevelPrediction LP;
    LP.Formula = toFormulaText(Closed[L]);
    // evaluate(), with what failed named: level, quantity, formula, values
    // (GiNaC's own message, "floating point NaN occurred", says none).
    auto Eval = [&](const ex &E, const std::map<std::string, double> &At,
                    const std::string &What) {
      try {
        return evaluate(E, At);
      } catch (const std::exception &X) {
        std::string F = toString(E);
        if (F.size() > 200)
          F = F.substr(0, 200) + "...";
        std::string Vals = valuesOf(E, At);
        throw std::runtime_error(L + " " + What + " " + F + (Vals.empty() ? "" : " at " + Vals) +
                                 ": " + X.what());
      }
    };
    // The given rank, or the slowest of the p ranks.
    std::map<std::string, double> V = Bound;
    if (RankScan) {
      LP.TimeS = -1;
      for (int R = 0; R < NumRanks; ++R) {
        V["rank"] = R;
        double T = Eval(Closed[L], V, "time");
        if (T > LP.TimeS) {
          LP.TimeS = T;
          LP.Rank = R;
        }
      }
      V["rank"] = LP.Rank;
    } else {
      LP.TimeS = Eval(Closed[L], V, "time");
      if (V.count("rank") && FreeOf[L].count("rank"))
        LP.Rank = static_cast<int>(V.at("rank"));
    }
    LP.CommS = CommE.is_zero() ? 0 : Eval(CommE, V, "communication time");
    LP.LibraryS = LibL.is_zero() ? 0 : Eval(LibL, V, "library-call time");
    for (const std::string &Op : opsOf(Name, Key, L)) {
      double C =
          Eval(Clean(FB.closedForm(Name, countWeight(Key, Op), "count:" + Key + ":" + Op, L)), V,
               "count of " + Op);
      if (C != 0 || L == "POC")
        LP.Counts[Op] = C;
    }
    if (RankScan && L == Kept.front()->level())
      FP.Params.push_back({"rank", double(LP.Rank), "the slowest of the p ranks"});
    if (L == "POC" && !LP.Counts.count("flop"))
      LP.Counts["flop"] = 0;
    if (L == "ICC" && O.Breakdown)
      FP.Breakdown = breakdownOf(FS, Mem ? &*Mem : nullptr, MemWhy, P.Target, CycleS, *Cores, V);
    FP.Levels[L] = LP;
  }
}
} // namespace

/// Where a source name X is a whole loop trip count in S (a number of
/// iterations, hence a size), "file:line" of the first such loop; "".
static std::string sizeUse(const SegFile &S, const std::string &X) {
  std::string Where;
  auto Visit = [&](const Node &N) {
    if (Where.empty() && N.Kind == NodeKind::Loop && N.Trip == X)
      Where = N.Range.File + ":" + std::to_string(N.Range.Line);
  };
  for (const FunctionSeg &F : S.Functions) {
    forEachNode(F.Body, Visit);
    for (auto &[K, L] : F.LevelSegs)
      forEachNode(L, Visit);
  }
  return Where;
}

std::pair<std::string, double> parseParamAssignment(const std::string &KV) {
  size_t Eq = KV.find('=');
  if (Eq == std::string::npos || Eq == 0)
    throw std::runtime_error("-p expects NAME=VALUE, got '" + KV + "'");
  double V = 0;
  try {
    size_t Used = 0;
    V = std::stod(KV.substr(Eq + 1), &Used);
    if (Used != KV.size() - Eq - 1)
      throw std::invalid_argument("");
  } catch (const std::exception &) {
    throw std::runtime_error("-p " + KV + ": '" + KV.substr(Eq + 1) + "' is not a number");
  }
  // stod reads "nan" and "inf": a value must be a finite number (the range
  // of each parameter is checked against the SEG file, predict()).
  if (!std::isfinite(V))
    throw std::runtime_error("-p " + KV + ": parameter '" + KV.substr(0, Eq) +
                             "' must be a finite number, got '" + KV.substr(Eq + 1) + "'");
  return {KV.substr(0, Eq), V};
}

void checkValues(const SegFile &S, const PredictOptions &O) {
  std::map<std::string, Parameter> Declared;
  for (const FunctionSeg &F : S.Functions)
    for (const Parameter &P : F.Parameters)
      Declared[P.Name] = P;
  for (auto &[Name, V] : O.Values) {
    auto Bad = [&, &Name = Name, &V = V](const std::string &What, const std::string &Expected) {
      std::ostringstream OS;
      OS << "-p " << Name << "=" << V << ": parameter '" << Name << "' is " << What
         << ": expected " << Expected;
      throw std::runtime_error(OS.str());
    };
    if (!std::isfinite(V))
      Bad("a value of the formulas", "a finite number");
    auto D = Declared.find(Name);
    std::string Where = D != Declared.end() ? " (" + D->second.Meaning + ", " + D->second.Where + ")" : "";
    if (D != Declared.end() && D->second.Kind == "branch" && (V < 0 || V > 1))
      Bad("a probability" + Where, "a value in [0, 1]");
    if (D != Declared.end() && D->second.Kind == "loop" && V < 0)
      Bad("a number of iterations" + Where, "a value >= 0");
    if (Name == "p" && V < 1)
      Bad("the number of processes", "a value >= 1");
    if (Name == "rank" && V < 0)
      Bad("an MPI rank", "a value >= 0");
    if (V < 0) {
      std::string Loop = sizeUse(S, Name);
      if (!Loop.empty())
        Bad("a size (the trip count of the loop at " + Loop + ")", "a value >= 0");
    }
  }
}

/// A negative or non-finite time or count of FP, described; "" if none.
static std::string badResult(const FunctionPrediction &FP) {
  for (auto &[L, LP] : FP.Levels) {
    if (!std::isfinite(LP.TimeS) || LP.TimeS < 0) {
      std::ostringstream OS;
      OS << L << " time " << LP.TimeS << " s (formula " << LP.Formula.Formula << ")";
      return OS.str();
    }
    for (auto &[Op, C] : LP.Counts)
      if (!std::isfinite(C) || C < 0) {
        std::ostringstream OS;
        OS << L << " count of " << Op << " " << C;
        return OS.str();
      }
  }
  return "";
}

Prediction predict(const SegFile &S, const Machine &M, const PredictOptions &O) {
  checkValues(S, O);
  Prediction P;
  P.MachineName = M.Name;
  P.MachinePath = M.Path;
  P.OptLevel = S.OptLevel;
  std::vector<std::string> Names = O.Functions;
  if (Names.empty())
    for (const FunctionSeg &F : S.Functions)
      if (F.InMainFile)
        Names.push_back(F.Name);
  for (const std::string &N : Names)
    if (!S.find(N)) {
      std::string Known;
      for (const FunctionSeg &F : S.Functions)
        Known += (Known.empty() ? "" : ", ") + F.Name;
      throw std::runtime_error("no function '" + N + "' in the SEG file (functions: " + Known + ")");
    }
  FilePredictor FPr(S, M, O, P);
  for (const std::string &Name : Names) {
    FunctionPrediction FP;
    FP.Name = Name;
    const FunctionSeg &FS = *S.find(Name);
    FP.Where = FS.Range.File + ":" + std::to_string(FS.Range.Line);
    try {
      FPr.predictFunction(FP, FS);
      // A trip count negative at these values (in a callee, or one the
      // notes could not evaluate): again with every trip count max(0, .).
      if (!badResult(FP).empty() && !FPr.clampTrips()) {
        FPr.setClampTrips(true);
        FP = FunctionPrediction();
        FP.Name = Name;
        FP.Where = FS.Range.File + ":" + std::to_string(FS.Range.Line);
        FPr.predictFunction(FP, FS);
        FP.Notes.push_back("a trip count is negative at the values given: every trip count "
                           "taken as max(0, trip count)");
      }
      if (std::string Bad = badResult(FP); !Bad.empty())
        throw std::runtime_error("the formulas give a meaningless result, " + Bad +
                                 ": a value given is outside their domain");
    } catch (const std::exception &E) {
      // Whatever else fails fails this function only, and says which.
      FP.Levels.clear();
      FP.Failed = true;
      FP.Error = Name + " (" + FP.Where + "): " + E.what();
    }
    P.Functions.push_back(std::move(FP));
  }
  for (auto &[K, V] : O.Values)
    if (!FPr.Used.count(K))
      P.UnusedValues.push_back(K);
  return P;
}

/// J[Key] = F's formula and, when it names subexpressions, J[Key + "_defs"] =
/// [{"name", "expr"}, ...] (docs/cli.md).
static void putFormula(json &J, const std::string &Key, const FormulaText &F) {
  J[Key] = F.Formula;
  if (F.Defs.empty())
    return;
  json Defs = json::array();
  for (const FormulaDef &D : F.Defs)
    Defs.push_back({{"name", D.Name}, {"expr", D.Expr}});
  J[Key + "_defs"] = Defs;
}

static json missingJSON(const std::vector<MissingValue> &Ms) {
  json A = json::array();
  for (const MissingValue &V : Ms)
    A.push_back({{"name", V.Name}, {"where", V.Where}, {"meaning", V.Meaning}, {"levels", V.Levels}});
  return A;
}

int Prediction::exitStatus() const {
  int St = 0;
  for (const FunctionPrediction &F : Functions)
    if (!F.Error.empty())
      St = std::max(St, F.Failed ? 2 : 1);
  return St;
}

json Prediction::toJSON() const {
  json Fs = json::array();
  for (const FunctionPrediction &F : Functions) {
    json J = {{"name", F.Name}, {"structural", F.Structural}};
    json Ps = json::array();
    for (const ParamValue &V : F.Params)
      Ps.push_back({{"name", V.Name}, {"value", V.Value}, {"source", V.Source}});
    J["parameters"] = Ps;
    if (!F.Bound.empty()) {
      json Bs = json::array();
      for (const BoundValue &B : F.Bound) {
        json X = {{"name", B.Name}, {"expression", B.Expr}, {"source", "bound from call at " + B.Where}};
        if (B.Value)
          X["value"] = *B.Value;
        Bs.push_back(std::move(X));
      }
      J["bound_parameters"] = Bs;
    }
    if (F.Costed.NotCosted) // (as "unresolved": nothing when all is costed)
      J["costed"] = {{"nodes", F.Costed.Nodes},
                     {"not_costed", F.Costed.NotCosted},
                     {"no_seg", F.Costed.NoSeg}};
    json Ls = json::object();
    for (auto &[L, LP] : F.Levels) {
      Ls[L] = {{"time_s", LP.TimeS}};
      putFormula(Ls[L], "formula", LP.Formula);
      Ls[L]["counts"] = LP.Counts;
      if (!F.CommFormula.Formula.empty())
        Ls[L]["comm_s"] = LP.CommS;
      if (!F.LibraryFormula.Formula.empty() || !F.LibraryIrFormula.Formula.empty())
        Ls[L]["library_s"] = LP.LibraryS;
      if (LP.Rank >= 0)
        Ls[L]["rank"] = LP.Rank;
    }
    if (Ls.contains("ICC"))
      Ls["ICC"]["target"] = Target;
    J["levels"] = Ls;
    if (!F.CommFormula.Formula.empty())
      putFormula(J, "comm_formula", F.CommFormula);
    if (!F.LibraryFormula.Formula.empty())
      putFormula(J, "library_formula", F.LibraryFormula);
    if (!F.LibraryIrFormula.Formula.empty())
      putFormula(J, "library_ir_formula", F.LibraryIrFormula);
    J["unresolved"] = F.Unresolved;
    if (!F.Notes.empty())
      J["notes"] = F.Notes;
    if (!F.Breakdown.empty()) {
      json Bs = json::array();
      for (const NestBreakdown &B : F.Breakdown) {
        json X = {{"loop", B.Id},           {"line", B.Line},
                  {"executions", B.Executions}, {"time_s", B.TimeS},
                  {"iterations", B.Iterations}, {"core_cycles", B.CoreCycles},
                  {"core_cycles_per_iteration", B.Iterations > 0 ? B.CoreCycles / B.Iterations : 0.0},
                  {"lines", B.Lines},       {"bound", B.Bound},
                  {"share", B.Share},       {"model", B.NotAnalysable.empty() ? "ECM" : "fallback"}};
        if (B.OverlapExponent > 0)
          X["overlap_exponent"] = B.OverlapExponent;
        if (!B.LinesIn.empty())
          X["lines_in"] = B.LinesIn;
        if (!B.NotAnalysable.empty())
          X["not_analysable"] = B.NotAnalysable;
        json Ts = json::array();
        for (const NestBreakdown::Term &T : B.Terms)
          Ts.push_back({{"name", T.Name},
                        {"bound", T.Bound},
                        {"time_s", T.TimeS},
                        {"cycles", B.CycleS > 0 ? T.TimeS / B.CycleS : 0.0},
                        {"overlaps", T.Overlaps}});
        X["terms"] = Ts;
        Bs.push_back(X);
      }
      J["breakdown"] = Bs;
    }
    J["where"] = F.Where;
    J["status"] = F.Failed ? "error" : !F.Error.empty() ? "incomplete" : "predicted";
    if (!F.Error.empty())
      J["error"] = F.Error;
    if (!F.Missing.empty())
      J["missing"] = missingJSON(F.Missing);
    Fs.push_back(J);
  }
  // The functions not predicted, with what they lack.
  json Inc = json::array();
  for (const FunctionPrediction &F : Functions)
    if (!F.Error.empty()) {
      json X = {{"name", F.Name}, {"where", F.Where}, {"status", F.Failed ? "error" : "incomplete"},
                {"error", F.Error}};
      std::vector<MissingValue> Need;
      for (const MissingValue &V : F.Missing)
        if (!F.Failed && !V.Levels.empty() && !F.Levels.count(V.Levels.front()))
          Need.push_back(V);
      X["missing"] = missingJSON(Need);
      Inc.push_back(X);
    }
  json J = {{"machine", MachineName}, {"machine_file", MachinePath}, {"opt_level", OptLevel},
            {"functions", Fs}, {"unused_parameters", UnusedValues}, {"incomplete", Inc},
            {"exit_status", exitStatus()}};
  if (!Target.empty())
    J["target"] = Target;
  if (!CommModel.empty())
    J["comm_model"] = CommModel;
  return J;
}

std::string formatSeconds(double S, int Digits) {
  if (std::isinf(S))
    return "unlimited";
  double A = std::fabs(S);
  std::ostringstream OS;
  OS << std::setprecision(Digits);
  if (A == 0 || A >= 1)
    OS << S << " s";
  else if (A >= 1e-3)
    OS << S * 1e3 << " ms";
  else if (A >= 1e-6)
    OS << S * 1e6 << " us";
  else
    OS << S * 1e9 << " ns";
  return OS.str();
}


/// The --breakdown table: one block per loop nest.
static void printBreakdown(std::ostream &OS, const std::vector<NestBreakdown> &Bs) {
  if (Bs.empty())
    return;
  OS << "  breakdown (ICC, per execution of each loop nest; ECM: T = max(T_OL, T_data), T_data "
        "= max(overlapping terms, sum of the others)):\n";
  char Buf[256];
  for (const NestBreakdown &B : Bs) {
    std::snprintf(Buf, sizeof Buf,
                  "  loop nest %s at line %u: %s x %.4g per call; bound: %s (%.0f %%)%s\n",
                  B.Id.c_str(), B.Line, formatSeconds(B.TimeS).c_str(), B.Executions,
                  B.Bound.c_str(), 100 * B.Share, B.NotAnalysable.empty() ? "" : " [fallback]");
    OS << Buf;
    if (!B.NotAnalysable.empty())
      OS << "    not analysable by ECM: " << B.NotAnalysable << "\n";
    else if (B.OverlapExponent > 0) {
      std::snprintf(Buf, sizeof Buf,
                    "    T = (T_OL^p + T_data^p)^(1/p), p = %.3g (memory.overlap), T_data = "
                    "max(overlapping transfers, sum of the others)\n",
                    B.OverlapExponent);
      OS << Buf;
    }
    std::snprintf(Buf, sizeof Buf, "    core: %.4g cycles, %.4g iterations, %.3g cycles per iteration\n",
                  B.CoreCycles, B.Iterations, B.Iterations > 0 ? B.CoreCycles / B.Iterations : 0.0);
    OS << Buf;
    if (!B.Lines.empty()) {
      OS << "    lines:";
      for (const char *L : {"L1", "L2", "L3", "memory"})
        if (B.Lines.count(L)) {
          std::snprintf(Buf, sizeof Buf, " %s %.4g", L, B.Lines.at(L));
          OS << Buf;
        }
      OS << "  (into L1, into L2, into L2 from L3, from memory)\n";
    }
    OS << "    term      level    time         cycles       overlaps  share\n";
    for (const NestBreakdown::Term &T : B.Terms) {
      std::snprintf(Buf, sizeof Buf, "    %-9s %-8s %-12s %-12.4g %-9s %.0f %%\n", T.Name.c_str(),
                    T.Bound.c_str(), formatSeconds(T.TimeS).c_str(),
                    B.CycleS > 0 ? T.TimeS / B.CycleS : 0.0, T.Overlaps ? "yes" : "no",
                    B.TimeS > 0 ? 100 * T.TimeS / B.TimeS : 0.0);
      OS << Buf;
    }
  }
}

void Prediction::printText(std::ostream &OS) const {
  OS << "machine: " << MachineName << " (" << MachinePath << "), code compiled at -" << OptLevel
     << "\n";
  if (!CommModel.empty())
    OS << "communication: " << CommModel << "\n";
  for (const FunctionPrediction &F : Functions) {
    OS << "\n" << F.Name << "\n  " << F.Structural << "\n";
    if (!F.Error.empty()) {
      OS << "  error: " << F.Error << "\n";
      continue;
    }
    if (!F.Params.empty()) {
      OS << "  parameters:";
      for (const ParamValue &V : F.Params)
        OS << " " << V.Name << "=" << V.Value << " [" << V.Source << "]";
      OS << "\n";
    }
    if (!F.Bound.empty()) {
      OS << "  bound from calls:";
      for (const BoundValue &B : F.Bound) {
        OS << " " << B.Name << "=" << B.Expr;
        char *End = nullptr;
        std::strtod(B.Expr.c_str(), &End);
        if (B.Value && End && *End) // an expression, not a number: its value too
          OS << "=" << *B.Value;
        OS << " [" << B.Where << "]";
      }
      OS << "\n";
    }
    if (!F.CommFormula.Formula.empty())
      OS << "  comm  t = " << cutFormula(F.CommFormula, 400, "in --json")
         << " s (included in every level below)\n";
    {
      bool Src = false, Ir = false; // the levels shown that use each
      for (auto &[L, LP] : F.Levels)
        (L == "INTCC" || L == "ICC" ? Ir : Src) = true;
      const FormulaText &A = F.LibraryFormula, &B = F.LibraryIrFormula;
      if (!A.Formula.empty() && (!Ir || A.Formula == B.Formula))
        OS << "  lib   t = " << cutFormula(A, 400, "in --json")
           << " s (library calls, included in every level below)\n";
      else if (!A.Formula.empty() && Src)
        OS << "  lib   t = " << cutFormula(A, 400, "in --json")
           << " s (library calls of the source, included in POC and HLLC)\n";
      if (!B.Formula.empty() && Ir && (!Src || A.Formula != B.Formula))
        OS << "  libIR t = " << cutFormula(B, 400, "in --json")
           << " s (library calls of the optimised code, included in INTCC and ICC)\n";
    }
    for (auto &[L, LP] : F.Levels) {
      OS << "  " << std::left << std::setw(5) << L << " t = " << cutFormula(LP.Formula, 400, "in --json") << " s\n"
         << "        = " << formatSeconds(LP.TimeS);
      if (!F.CommFormula.Formula.empty())
        OS << "   (comm " << formatSeconds(LP.CommS) << ")";
      if (LP.LibraryS != 0)
        OS << "   (library " << formatSeconds(LP.LibraryS) << ")";
      if (LP.Rank >= 0)
        OS << "   [rank " << LP.Rank << "]";
      if (L == "POC")
        OS << "   (" << LP.Counts.at("flop") << " flop)";
      if (L == "ICC") {
        OS << "   (" << Target;
        for (const char *K : {"instructions", "cycles"})
          if (LP.Counts.count(K))
            OS << ", " << LP.Counts.at(K) << " " << K;
        OS << ")";
      }
      OS << "\n";
    }
    for (const std::string &U : F.Unresolved)
      OS << "  not costed: " << U << "\n";
    if (F.Costed.NotCosted) {
      OS << "  costed: " << F.Costed.Nodes - F.Costed.NotCosted << " of " << F.Costed.Nodes
         << " SEG nodes (with the functions called); not costed: " << F.Costed.NotCosted
         << " (their time is not in the figures above)";
      if (!F.Costed.NoSeg.empty()) {
        OS << "; functions with no SEG:";
        for (const std::string &C : F.Costed.NoSeg)
          OS << " " << C;
      }
      OS << "\n";
    }
    for (const std::string &N : F.Notes)
      OS << "  note: " << N << "\n";
    printBreakdown(OS, F.Breakdown);
  }
  // The functions not predicted, with what they lack, last.
  size_t Incomplete = 0, Failed = 0;
  for (const FunctionPrediction &F : Functions)
    if (!F.Error.empty())
      ++(F.Failed ? Failed : Incomplete);
  if (Incomplete) {
    OS << "\nincomplete: " << Incomplete << " of " << Functions.size()
       << " functions not predicted for want of values (give them with -p NAME=VALUE):\n";
    for (const FunctionPrediction &F : Functions) {
      if (F.Error.empty() || F.Failed)
        continue;
      OS << "  " << F.Name << " (" << F.Where << "):";
      std::string Sep = " ";
      for (const MissingValue &V : F.Missing)
        if (!V.Levels.empty() && !F.Levels.count(V.Levels.front())) {
          OS << Sep << V.Name << " (" << V.Meaning << ", " << V.Where << ")";
          Sep = ", ";
        }
      OS << "\n";
    }
  }
  if (Failed) {
    OS << "\nfailed: " << Failed << " of " << Functions.size() << " functions:\n";
    for (const FunctionPrediction &F : Functions)
      if (F.Failed)
        OS << "  " << (F.Error.compare(0, F.Name.size(), F.Name) ? F.Name + ": " : "") << F.Error
           << "\n";
  }
}

} // namespace segtime

namespace segtime {
/// The ICC line of the compile-time summary for one function: its
/// prediction by predict() (time, instructions, cycles) or, where values
/// are missing, what it needs and the closed-form instruction count if it
/// is short.
static void printIccLine(std::ostream &OS, FormulaBuilder &FB, const FunctionPrediction &FP,
                         const std::string &MachineName, const std::string &Target) {
  const std::string Head = "  ICC   t on " + MachineName + " (" + Target + ")";
  auto It = FP.Levels.find("ICC");
  if (It != FP.Levels.end()) {
    const LevelPrediction &LP = It->second;
    OS << Head << " = " << formatSeconds(LP.TimeS);
    std::string Sep = "   (";
    for (const char *K : {"instructions", "cycles"})
      if (LP.Counts.count(K)) {
        OS << Sep << LP.Counts.at(K) << " " << K;
        Sep = ", ";
      }
    if (Sep == ", ")
      OS << ")";
    std::string At;
    for (const ParamValue &V : FP.Params)
    {
      std::ostringstream X;
      X << V.Name << "=" << V.Value << (V.Source == "user" ? "" : " [" + V.Source + "]");
      At += (At.empty() ? " at " : ", ") + X.str();
    }
    OS << At << "\n";
    return;
  }
  if (FP.Missing.empty()) {
    const std::string Pre = "ICC not predicted: ";
    std::string Why = FP.Error;
    for (const std::string &N : FP.Notes)
      if (Why.empty() && N.compare(0, Pre.size(), Pre) == 0)
        Why = N.substr(Pre.size());
    OS << Head << ": not predicted: " << (Why.empty() ? "no ICC data" : Why) << "\n";
    return;
  }
  std::string Needs;
  for (const MissingValue &V : FP.Missing)
    Needs += (Needs.empty() ? "" : ", ") + V.Name;
  OS << Head << ": needs " << Needs << " (-fplugin-arg-segtime-p=NAME=VALUE)\n";
  try {
    ex I = FB.closedForm(FP.Name, countWeight("ICC:" + Target, "instructions"),
                         "count:ICC:" + Target + ":instructions", "ICC");
    // Only a short one: the exact IR-level forms (remainders of unrolled
    // loops, guards) of most loops are not for reading at compile time.
    FormulaText Text = toFormulaText(I);
    if (!I.is_zero() && Text.Defs.empty() && Text.Formula.size() <= 160)
      OS << "  ICC   instructions = " << Text.Formula << "\n";
  } catch (const std::exception &) {
    // (the time line above already says what is missing)
  }
}

std::string compileTimeSummary(const SegFile &File, const std::string &MachineName,
                               const std::map<std::string, double> &Values,
                               size_t MaxFunctions) {
  std::ostringstream OS;
  std::unique_ptr<Machine> M;
  std::string MachineNote;
  try {
    M = std::make_unique<Machine>(readMachine(findMachine(MachineName)));
  } catch (const std::exception &E) {
    MachineNote = E.what();
  }
  std::vector<const FunctionSeg *> Shown;
  size_t NotShown = 0;
  for (const FunctionSeg &F : File.Functions)
    if (F.InMainFile && Shown.size() < MaxFunctions)
      Shown.push_back(&F);
    else if (F.InMainFile)
      ++NotShown;
  // ICC: the prediction of segtime predict itself (the same models: overlap
  // of iterations, memory term) for the first target of the file that the
  // machine has a cost vector for.
  std::string Target, IccNote;
  Prediction Icc;
  std::map<std::string, const FunctionPrediction *> IccOf;
  if (M && !Shown.empty()) {
    if (auto T = iccTarget(File, *M, "")) {
      Target = *T;
      PredictOptions PO;
      PO.Levels = {"ICC"};
      PO.Optional = {"ICC"};
      PO.Values = Values;
      for (const FunctionSeg *F : Shown)
        PO.Functions.push_back(F->Name);
      try {
        checkValues(File, PO);
        Icc = predict(File, *M, PO);
        for (const FunctionPrediction &FP : Icc.Functions)
          IccOf[FP.Name] = &FP;
        for (const std::string &U : Icc.UnusedValues)
          IccNote += "segtime: -fplugin-arg-segtime-p: no function uses '" + U + "'\n";
      } catch (const std::exception &E) {
        IccNote = "segtime: no ICC predictions: " + std::string(E.what()) + "\n";
      }
    }
  }
  FormulaBuilder FB(File);
  // Long closed forms (a whole main()) are cut.
  const std::string Whole = "in segtime predict --json";
  for (const FunctionSeg *FPtr : Shown) {
    const FunctionSeg &F = *FPtr;
    OS << "segtime: " << F.Name << " (" << F.Range.File << ":" << F.Range.Line << ", -"
       << File.OptLevel << ")\n";
    OS << "  " << FB.structural(F.Name) << "\n";
    try {
      ex Flop = FB.closedForm(F.Name, countWeight("POC", "flop"), "count:POC:flop");
      OS << "  POC   flop = " << cutFormula(toFormulaText(Flop), 240, Whole) << "\n";
      ex C = FB.closedForm(F.Name, commWeight(), "comm");
      if (!C.is_zero())
        OS << "  COMM  t = " << cutFormula(toFormulaText(C), 240, Whole) << " s (docs/mpi.md)\n";
      if (M)
        for (const char *L : {"POC", "HLLC"}) {
          auto Model = makeModel(L, *M, File.OptLevel);
          ex T = FB.closedForm(F.Name, Model->timeWeight(), std::string("time:") + L);
          OS << "  " << std::left << std::setw(5) << L << " t on " << M->Name << " = "
             << cutFormula(toFormulaText(T), 240, Whole) << " s\n";
        }
    } catch (const std::exception &E) {
      OS << "  (no closed form: " << E.what() << ")\n";
    }
    if (auto It = IccOf.find(F.Name); It != IccOf.end())
      printIccLine(OS, FB, *It->second, M->Name, Target);
  }
  if (NotShown)
    OS << "segtime: " << NotShown << " more functions of the main file not shown "
       << "(segtime predict FILE.seg.json)\n";
  OS << IccNote;
  if (!MachineNote.empty())
    OS << "segtime: no times printed: " << MachineNote << "\n";
  return OS.str();
}
} // namespace segtime
