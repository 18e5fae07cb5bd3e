//===- PredictParams.cpp - Parameter values of a prediction ---------------===//
///
/// \file
/// Parameter binding for predict() (predictor/Predict.h): the levels whose
/// values are known, each value with its source (-p, --profile, the SEG
/// file's defaults, expression defaults), the missing ones described by
/// where the function uses them, the callees' parameters bound at call
/// sites, what is not costed, the trip counts negative at the values, and
/// the checks of -p values.
///
//===----------------------------------------------------------------------===//
#include "predictor/Predict.h"
#include "core/Library.h"
#include "core/Link.h"
#include "predictor/PredictDetail.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <sstream>

using namespace GiNaC;

namespace segtime {
using namespace predict_detail;

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

std::set<std::string> knownOutcomes(const PredictOptions &O,
                                    const std::map<std::string, Parameter> &Declared) {
  std::set<std::string> Names;
  // The min-update idiom's H_N/N is the frequency of the outcome itself
  // (records of a sequence in random order), not a guess of the branch;
  // so is a merge or search step's estimated 1/2 (an outcome model, source
  // "static: ..."; docs/models.md ICC step 4). BPI's guesses are not.
  for (auto &[Name, P] : Declared)
    if (!P.DefaultExpr.empty() ||
        (Name.rfind("Pir_", 0) == 0 && P.Source.rfind("static: ", 0) == 0))
      Names.insert(Name);
  for (auto &[Name, V] : O.Values)
    Names.insert(Name);
  for (auto &[Name, V] : O.ProfileValues)
    Names.insert(Name);
  return Names;
}

/// The values of the names of E that Values gives, "n=1, m=2" (for messages).
std::string predict_detail::valuesOf(const ex &E, const std::map<std::string, double> &Values) {
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
void predict_detail::negativeTrips(const SegFile &S, const NodeList &L,
                                  const std::map<std::string, double> &Values,
                                  std::vector<std::string> &Notes, const std::string &In,
                                  int Depth) {
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

} // namespace

void predict_detail::addMissing(std::vector<MissingValue> &Ms, MissingValue V) {
  auto It = std::find_if(Ms.begin(), Ms.end(),
                         [&](const MissingValue &X) { return X.Name == V.Name; });
  if (It == Ms.end())
    Ms.push_back(std::move(V));
  else
    It->Levels.insert(It->Levels.end(), V.Levels.begin(), V.Levels.end());
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

std::optional<FilePredictor::Given> FilePredictor::given(const std::string &X,
                                                         bool AssumeArgc) const {
  if (auto U = O.Values.find(X); U != O.Values.end())
    return Given{U->second, "user"};
  if (auto Pr = O.ProfileValues.find(X); Pr != O.ProfileValues.end())
    return Given{Pr->second, "profile"};
  if (auto D = Declared.find(X); D != Declared.end() && D->second.Default)
    return Given{*D->second.Default, D->second.Source};
  if (AssumeArgc && X == "argc")
    return Given{1, "assumed: the program run without arguments"};
  return std::nullopt;
}

bool FilePredictor::hasValue(const std::string &X, bool AssumeArgc) const {
  auto D = Declared.find(X);
  return O.Values.count(X) || O.ProfileValues.count(X) ||
         (D != Declared.end() && D->second.hasDefault()) || (AssumeArgc && X == "argc");
}

bool FilePredictor::knownForLevel(const std::string &X, bool AssumeArgc) const {
  auto D = Declared.find(X);
  if (X == "rank" && hasValue("p", AssumeArgc))
    return true; // every rank is evaluated
  return O.Values.count(X) || (D != Declared.end() && D->second.hasDefault()) ||
         (AssumeArgc && X == "argc");
}

void FilePredictor::keepLevels(FunctionPrediction &FP, const FunctionSeg &FS,
                               FunctionWork &W) {
  // main's argc: the program run without arguments, unless given.
  W.AssumeArgc = FS.Name == "main" && !FS.Params.empty() && FS.Params[0] == "argc" &&
                 !Declared.count("argc");
  // An optional level needing a value nobody gave is left out.
  for (ResourceModel *Model : W.Active) {
    const std::set<std::string> &Deps = W.FreeOf.at(Model->level());
    const Level L = Model->level();
    std::string Missing;
    std::vector<std::string> Lacks;
    for (const std::string &X : Deps)
      if (!knownForLevel(X, W.AssumeArgc)) {
        Missing += (Missing.empty() ? "" : ", ") + X;
        Lacks.push_back(X);
      }
    if (!Missing.empty() && O.Optional.count(L)) {
      FP.Notes.push_back(levelKey(L) + " not predicted: no value for " + Missing);
      for (const std::string &X : Lacks) {
        MissingValue V = describe(FS, X);
        V.Levels = {L};
        addMissing(FP.Missing, std::move(V));
      }
      continue;
    }
    W.Kept.push_back(Model);
    W.Free.insert(Deps.begin(), Deps.end());
  }
}

void FilePredictor::resolveValues(FunctionPrediction &FP, FunctionWork &W) {
  // User, then profile (CT), then SEG defaults. (A numeric default here; an
  // expression default below, once the names it uses have values.)
  std::vector<const Parameter *> ByExpr;
  for (const std::string &F : W.Free) {
    if (F == "rank" && !O.Values.count(F) && hasValue("p", W.AssumeArgc)) {
      W.RankScan = true; // evaluated for every rank (Predict.cpp)
      continue;
    }
    if (auto G = given(F, W.AssumeArgc)) {
      W.Values[F] = G->Value;
      FP.Params.push_back({F, G->Value, G->Source});
      continue;
    }
    auto D = Declared.find(F);
    if (D != Declared.end() && !D->second.DefaultExpr.empty()) {
      ByExpr.push_back(&D->second);
      continue;
    }
    W.Missing.push_back(F);
  }
  // Defaults that are expressions (the min-update idiom's H_N/N) in the
  // values just resolved; a name only they use resolves the same way, and
  // one whose own default is an expression (a branch copy's default, the
  // shared parameter, whose default is H_N/N) is resolved first: in rounds
  // until no default can be resolved that could not before.
  std::set<std::string> Queued;
  for (const Parameter *D : ByExpr)
    Queued.insert(D->Name);
  for (bool Progress = true; Progress && !ByExpr.empty();) {
    Progress = false;
    std::vector<const Parameter *> Later;
    for (size_t K = 0; K < ByExpr.size(); ++K) {
      const Parameter *D = ByExpr[K];
      bool Complete = true;
      for (const std::string &X : freeSymbols(parseExpr(D->DefaultExpr))) {
        Used.insert(X);
        if (W.Values.count(X))
          continue;
        if (auto G = given(X, W.AssumeArgc)) {
          W.Values[X] = G->Value;
          continue;
        }
        auto XD = Declared.find(X);
        if (XD != Declared.end() && !XD->second.DefaultExpr.empty() && X != D->Name) {
          if (Queued.insert(X).second)
            ByExpr.push_back(&XD->second); // (this round, after D)
          Complete = false;
          continue;
        }
        Complete = false;
      }
      if (!Complete) {
        Later.push_back(D);
        continue;
      }
      double V = *defaultValue(*D, W.Values);
      W.Values[D->Name] = V;
      FP.Params.push_back({D->Name, V, D->Source});
      Progress = true;
    }
    ByExpr = std::move(Later);
  }
  // What is left names a value nobody gave.
  for (const Parameter *D : ByExpr)
    for (const std::string &X : freeSymbols(parseExpr(D->DefaultExpr)))
      if (!W.Values.count(X) && !Queued.count(X)) {
        if (!W.ForDefault.count(X))
          W.Missing.push_back(X);
        W.ForDefault[X] = D->Name;
      }
}

void FilePredictor::missingError(FunctionPrediction &FP, const FunctionSeg &FS,
                                 const FunctionWork &W) {
  std::ostringstream E;
  E << "missing parameter value(s) for " << FS.Name << ": ";
  for (size_t I = 0; I < W.Missing.size(); ++I) {
    const std::string &X = W.Missing[I];
    MissingValue V = describe(FS, X);
    auto D = W.ForDefault.find(X);
    for (ResourceModel *Model : W.Kept)
      if (W.FreeOf.at(Model->level()).count(X) || D != W.ForDefault.end())
        V.Levels.push_back(Model->level());
    E << (I ? ", " : "") << X << " (";
    if (D != W.ForDefault.end()) {
      E << "for the default of " << D->second << ")";
      V.Meaning = "for the default of " + D->second + "; " + V.Meaning;
    } else {
      E << V.Meaning << ", " << V.Where << ")";
    }
    addMissing(FP.Missing, std::move(V));
  }
  E << "; give them with -p NAME=VALUE";
  // The values already known, the first few: a file with hundreds of branch
  // probabilities would otherwise bury the message.
  constexpr size_t KnownShown = 12;
  if (!W.Values.empty()) {
    E << " (known:";
    size_t N = 0;
    for (auto &[K, V] : W.Values)
      if (N++ < KnownShown)
        E << " " << K << "=" << V;
    if (N > KnownShown)
      E << " and " << N - KnownShown << " more";
    E << ")";
  }
  FP.Error = E.str();
}

bool FilePredictor::bindParameters(FunctionPrediction &FP, const FunctionSeg &FS,
                                   FunctionWork &W) {
  keepLevels(FP, FS, W);
  resolveValues(FP, W);
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
  std::map<std::string, double> At = W.Values;
  for (auto &[K, V] : O.Values)
    At.emplace(K, V);
  FP.Bound = boundFromCalls(S, FS, At);
  if (W.Missing.empty())
    return true;
  missingError(FP, FS, W);
  return false;
}

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

void checkValues(const SegFile &S, const PredictOptions &O) {
  // (the declarations of the names given only: the last one, as
  // FormulaBuilder::declaredParameters keeps)
  std::map<std::string, Parameter> Declared;
  if (!O.Values.empty())
    for (const FunctionSeg &F : S.Functions)
      for (const Parameter &P : F.Parameters)
        if (O.Values.count(P.Name))
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

} // namespace segtime
