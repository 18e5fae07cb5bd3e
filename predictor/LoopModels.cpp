//===- LoopModels.cpp - Loop models of the levels and their report -------===//
///
/// \file
/// The loop models predict() installs in the formula builder
/// (installLoopModels, predictor/Predict.h): ICC's overlap of iterations,
/// the memory term (the p-norm of core and memory time, or the ECM model
/// where a nest's streams are known) of ICC and INTCC per IR loop nest and
/// of HLLC per source loop; HLLC's loop-carried chains at -O0; and what predict() reports of them: the ECM
/// breakdown per nest (--breakdown) and the memory-term notes.
///
//===----------------------------------------------------------------------===//
#include "predictor/Predict.h"
#include "predictor/PredictDetail.h"
#include "predictor/levels/LevelUnit.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

using namespace GiNaC;

namespace segtime {
using namespace predict_detail;

/// The reference streams of nest N for the memory term. A loop inside the
/// nest that runs less than once per iteration of its parent (its Freq: a
/// vectorised version whose runtime check fails, LU's 16-wide j loop when
/// the rows may overlap; a remainder loop) has its trip scaled by that
/// frequency, so that versions of one loop do not each count the whole
/// row (0 where a version does not run; the expected trip for a branch
/// probability). With the values Values substituted when a stream has a
/// triangular loop (a trip in an enclosing loop's counter), whose per-row
/// line sums are otherwise symbolic expressions of millions of characters
/// (LU: 33 M, 25 s). Sets Bound if it substituted.
static std::vector<MemStream> streamsFor(const Node &N, const std::map<std::string, double> &Values,
                                         bool *Bound = nullptr) {
  std::map<std::string, const std::string *> Freqs; // inner loop id -> its frequency
  std::vector<GiNaC::symbol> Counters;                // the nest's loop counters
  if (!N.Index.empty())
    Counters.push_back(sym(N.Index));
  forEachNode(N.Body, [&](const Node &X) {
    if (X.Kind == NodeKind::Loop && !X.Index.empty())
      Counters.push_back(sym(X.Index));
    if (X.Kind == NodeKind::Loop && !X.Freq.empty() && X.Freq != "1")
      Freqs[X.Id] = &X.Freq;
  });
  bool Tri = false;
  for (const MemStream &St : N.Streams)
    for (const MemStream::Step &L : St.Loops)
      Tri |= !L.Index.empty();
  if (Bound)
    *Bound = Tri && !Values.empty();
  if (Freqs.empty() && (!Tri || Values.empty()))
    return N.Streams;
  std::vector<MemStream> R = N.Streams;
  // (only where the frequency's counters are ones the stream sums over: a
  // frequency in the counter of a loop the stream multiplies would be left
  // free)
  for (MemStream &St : R)
    for (MemStream::Step &L : St.Loops) {
      auto F = Freqs.find(L.Loop);
      if (F == Freqs.end())
        continue;
      ex Fx = parseExpr(*F->second);
      bool Summed = true;
      for (const GiNaC::symbol &K : Counters)
        if (Fx.has(K))
          Summed = Summed && std::any_of(St.Loops.begin(), St.Loops.end(),
                                         [&](const MemStream::Step &O) {
                                           return !O.Index.empty() && sym(O.Index) == K;
                                         });
      if (Summed)
        L.Trip = "(" + L.Trip + ")*(" + *F->second + ")";
    }
  if (!Tri || Values.empty())
    return R;
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
  std::string Key = ruvKey(Level::ICC, Target);
  auto [Ld, St] = Mem.loadStorePorts();
  return numeric(TCyc) * max(countPerExecution(Nest, Key, "mem.load") / numeric(Ld),
                             countPerExecution(Nest, Key, "mem.store") / numeric(St));
}

double predict_detail::cycleTime(const ICCModel &Icc) {
  try {
    return Icc.cost("cycles");
  } catch (const std::exception &) {
    return 0;
  }
}

/// The ECM model needs L1 and L2 geometry and every reference of the nest
/// as a stream (none: a nest without references, footprint 0): a nest
/// whose pass left a reference out or bounded it (Node::MemoryNotes:
/// indirect, non-affine) keeps the p-norm; one whose notes are all
/// "estimated: ..." (an indirect reference whose object's extent the pass
/// made a stream, passes/IRMemStream.cpp) is analysed.
static bool ecmApplies(const MemoryModel &Mem, const Node &Nest) {
  return Mem.caches().size() >= 2 && (!Nest.Streams.empty() || Nest.Footprint == "0") &&
         !Nest.Footprint.empty() &&
         std::all_of(Nest.MemoryNotes.begin(), Nest.MemoryNotes.end(),
                     [](const std::string &M) { return M.rfind("estimated: ", 0) == 0; });
}

/// The source-level loops that IR loop nests with a memory term are
/// attributed to (Node::SourceNode), each with those nests: the outermost
/// IR loops with a Footprint, at the top of the function's IR-level SEG (a
/// nest inside an IR loop or branch is left to ICC and INTCC only: its
/// frequency is not per execution of the source loop).
static std::map<const Node *, std::vector<const Node *>> nestsBySourceLoop(const SegFile &S) {
  std::map<const Node *, std::vector<const Node *>> R;
  for (const FunctionSeg &F : S.Functions) {
    auto IR = F.LevelSegs.find(IrSegKey);
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
  const Level Lv = Model.level();
  const MemoryTerm Term = levelUnit(Lv).memoryTerm();
  if (Term == MemoryTerm::None)
    return;
  if (!Mem) {
    Mem = MemoryModel::fromMachine(M, MemWhy);
    if (auto P = Values.find("p"); Mem && P != Values.end())
      Mem->setRanksSharing(P->second);
  }
  if (Term == MemoryTerm::SourceLoops) {
    // A source loop costs its constructs and the memory time of the IR
    // nests attributed to it, each as often as it runs (its frequency per
    // call), combined as ICC combines them.
    // At -O0 the constructs' time of a loop is first bounded below by its
    // loop-carried scalar chains (HLLCModel::chainBound, docs/models.md
    // "HLLC at -O0"), when the machine has the chain latencies.
    auto Nests = std::make_shared<std::map<const Node *, std::vector<const Node *>>>(
        nestsBySourceLoop(S));
    auto *Hllc = dynamic_cast<const HLLCModel *>(&Model);
    if (Hllc && !Hllc->hasChainCosts())
      Hllc = nullptr;
    FB.setLoopBound(timeKey(Lv), [Nests, &Mem, Values, Hllc](const Node &N, const ex &Bare,
                                                           int) -> ex {
      ex Core = Hllc ? Hllc->chainBound(N, Bare) : Bare;
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
  // The machine file's measured window, where it has one (ICC "reorder_buffer").
  if (Icc && Icc->reorderBuffer())
    Rob = *Icc->reorderBuffer();
  if (Icc && Mem)
    Mem->setTarget(Target);
  double TCyc = Icc ? cycleTime(*Icc) : 0;
  FB.setLoopBound(timeKey(Lv), [Icc, Rob, &Mem, Values, Target, TCyc,
                                 Cores](const Node &N, const ex &Core, int Depth) -> ex {
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

std::vector<NestBreakdown>
predict_detail::breakdownOf(const FunctionSeg &F, const MemoryModel *Mem, const std::string &Why,
                            const std::string &Target, double TCyc,
                            const std::map<const Node *, ex> &Cores,
                            const std::map<std::string, double> &Values) {
  std::vector<NestBreakdown> R;
  auto It = F.LevelSegs.find(IrSegKey);
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

void predict_detail::memoryNotes(const FunctionSeg &F, const std::optional<MemoryModel> &Mem,
                                 const std::string &Why,
                                 const std::map<std::string, double> &Values,
                                 std::vector<std::string> &Notes) {
  auto It = F.LevelSegs.find(IrSegKey);
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

} // namespace segtime
