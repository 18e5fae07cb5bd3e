//===- Ct.cpp - Component-timing measurements and their JSON form ---------===//
#include "core/Ct.h"
#include "core/JsonShape.h"
#include "core/ParamNames.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>

namespace segtime {

namespace {

/// J[Key] as T, or an error naming the key and what was expected.
template <typename T> T need(const json &J, const char *Key, const char *What) {
  if (!J.is_object() || !J.contains(Key))
    throw std::runtime_error(std::string("missing \"") + Key + "\" (" + What + ")");
  try {
    return J.at(Key).get<T>();
  } catch (const json::exception &) {
    throw std::runtime_error(std::string("\"") + Key + "\" is not " + What);
  }
}

std::optional<double> optNumber(const json &J, const char *Key) {
  if (!J.contains(Key) || J[Key].is_null())
    return std::nullopt;
  return need<double>(J, Key, "a number of seconds");
}

} // namespace

json CtNode::toJSON() const {
  json J = {{"kind", Kind}, {"file", File}, {"line", Line}, {"col", Col}};
  if (Copy >= 0)
    J["copy"] = Copy;
  else
    J["parent"] = Parent;
  if (Kind == "loop" && Copy >= 0) {
    J["entries"] = Entries;
    J["header_runs"] = HeaderRuns;
  } else if (Kind == "loop") {
    J["end_line"] = EndLine;
    J["end_col"] = EndCol;
    J["entries"] = Entries;
    J["iterations"] = Iterations;
  } else if (Kind == "branch") {
    J["op"] = Op;
    J["executions"] = Executions;
    json A = json::array();
    for (const CtArm &X : Arms)
      A.push_back({{"label", X.Label}, {"count", X.Count}, {"target_line", X.TargetLine},
                   {"target_col", X.TargetCol}});
    J["arms"] = A;
  } else {
    J["callee"] = Callee;
    J["count"] = Count;
  }
  if (InclusiveS)
    J["inclusive_s"] = *InclusiveS;
  if (ExclusiveS)
    J["exclusive_s"] = *ExclusiveS;
  if (!SegId.empty())
    J["seg_id"] = SegId;
  return J;
}

CtNode CtNode::fromJSON(const json &J) {
  CtNode N;
  N.Kind = need<std::string>(J, "kind", "\"loop\", \"branch\" or \"call\"");
  if (N.Kind != "loop" && N.Kind != "branch" && N.Kind != "call")
    throw std::runtime_error("unknown node kind '" + N.Kind +
                             "' (expected loop, branch or call)");
  N.File = J.value("file", "");
  N.Line = need<unsigned>(J, "line", "a line number");
  N.Col = need<unsigned>(J, "col", "a column number");
  N.Parent = J.value("parent", -1);
  N.Copy = J.value("copy", -1);
  if (N.Kind == "loop" && N.Copy >= 0) {
    N.Entries = need<uint64_t>(J, "entries", "a count");
    N.HeaderRuns = need<uint64_t>(J, "header_runs", "a count");
  } else if (N.Kind == "loop") {
    N.EndLine = J.value("end_line", 0u);
    N.EndCol = J.value("end_col", 0u);
    N.Entries = need<uint64_t>(J, "entries", "a count");
    N.Iterations = need<uint64_t>(J, "iterations", "a count");
  } else if (N.Kind == "branch") {
    N.Op = J.value("op", "");
    N.Executions = need<uint64_t>(J, "executions", "a count");
    for (const json &A : need<json>(J, "arms", "a list of arms"))
      N.Arms.push_back({A.value("label", ""), need<uint64_t>(A, "count", "a count"),
                        A.value("target_line", 0u), A.value("target_col", 0u)});
  } else {
    N.Callee = J.value("callee", "");
    N.Count = need<uint64_t>(J, "count", "a count");
  }
  N.InclusiveS = optNumber(J, "inclusive_s");
  N.ExclusiveS = optNumber(J, "exclusive_s");
  N.SegId = J.value("seg_id", "");
  return N;
}

json CtFunction::toJSON() const {
  json J = {{"name", Name},           {"file", File},
            {"line", Line},           {"col", Col},
            {"recursive", Recursive}, {"calls", Calls},
            {"inclusive_s", InclusiveS}, {"exclusive_s", ExclusiveS},
            {"raw_inclusive_s", RawInclusiveS}, {"nodes", toJSONArray(Nodes)}};
  if (TimedCalls)
    J["timed_calls"] = *TimedCalls;
  if (!Late.empty())
    J["late"] = toJSONArray(Late);
  return J;
}

CtFunction CtFunction::fromJSON(const json &J) {
  CtFunction F;
  F.Name = need<std::string>(J, "name", "a function name");
  try {
    F.File = J.value("file", "");
    F.Line = J.value("line", 0u);
    F.Col = J.value("col", 0u);
    F.Recursive = J.value("recursive", false);
    F.Calls = need<uint64_t>(J, "calls", "a count");
    F.InclusiveS = need<double>(J, "inclusive_s", "a number of seconds");
    F.ExclusiveS = need<double>(J, "exclusive_s", "a number of seconds");
    F.RawInclusiveS = J.value("raw_inclusive_s", F.InclusiveS);
    if (J.contains("timed_calls"))
      F.TimedCalls = need<uint64_t>(J, "timed_calls", "a count");
    size_t I = 0;
    for (const json &N : need<json>(J, "nodes", "a list of nodes")) {
      try {
        F.Nodes.push_back(CtNode::fromJSON(N));
      } catch (const std::exception &E) {
        throw std::runtime_error("node " + std::to_string(I) + ": " + E.what());
      }
      ++I;
    }
    if (J.contains("late")) {
      I = 0;
      for (const json &N : need<json>(J, "late", "a list of records")) {
        try {
          F.Late.push_back(CtNode::fromJSON(N));
          if (F.Late.back().Copy < 0 || F.Late.back().Kind == "call")
            throw std::runtime_error("a late record is a loop or branch with a \"copy\"");
        } catch (const std::exception &E) {
          throw std::runtime_error("late record " + std::to_string(I) + ": " + E.what());
        }
        ++I;
      }
    }
  } catch (const std::exception &E) {
    throw std::runtime_error("function '" + F.Name + "': " + E.what());
  }
  return F;
}

json CtTimer::toJSON() const {
  return {{"source", Source},           {"hz", Hz},
          {"hz_source", HzSource},      {"resolution_s", ResolutionS},
          {"pair_overhead_s", PairOverheadS}, {"nested_pair_s", NestedPairS}};
}

CtTimer CtTimer::fromJSON(const json &J) {
  CtTimer T;
  T.Source = need<std::string>(J, "source", "the timer's name");
  T.Hz = need<double>(J, "hz", "the timer's ticks per second");
  T.HzSource = J.value("hz_source", "");
  T.ResolutionS = J.value("resolution_s", 0.0);
  T.PairOverheadS = need<double>(J, "pair_overhead_s", "a number of seconds");
  if (J.contains("nested_pair_s"))
    T.NestedPairS = J["nested_pair_s"].get<std::map<std::string, double>>();
  return T;
}

json CtFile::toJSON() const {
  return {{"schema", Schema}, {"program", Program}, {"timer", Timer.toJSON()},
          {"wall_s", WallS},  {"functions", toJSONArray(Functions)}};
}

CtFile CtFile::fromJSON(const json &J) {
  if (!J.is_object() || !J.contains("schema") || J.at("schema") != Schema)
    throw std::runtime_error(std::string("not a CT file (expected \"schema\": \"") + Schema +
                             "\")");
  checkCtShape(J);
  CtFile C;
  C.Program = J.value("program", "");
  try {
    C.Timer = CtTimer::fromJSON(need<json>(J, "timer", "the timer object"));
  } catch (const std::exception &E) {
    throw std::runtime_error(std::string("timer: ") + E.what());
  }
  C.WallS = need<double>(J, "wall_s", "a number of seconds");
  for (const json &F : need<json>(J, "functions", "a list of functions"))
    C.Functions.push_back(CtFunction::fromJSON(F));
  return C;
}

CtFile CtFile::read(const std::string &Path) { return readJsonAs<CtFile>(Path); }

const CtFunction *CtFile::find(const std::string &Name) const {
  return findByName(Functions, Name);
}

namespace {

bool before(unsigned L1, unsigned C1, unsigned L2, unsigned C2) {
  return L1 < L2 || (L1 == L2 && C1 <= C2);
}

bool contains(const SourceRange &R, unsigned Line, unsigned Col) {
  return R.Line && Line && before(R.Line, R.Col, Line, Col) &&
         before(Line, Col, R.EndLine, R.EndCol);
}

/// The innermost Branch node of L whose range holds Line:Col.
const Node *innermostBranch(const NodeList &L, unsigned Line, unsigned Col) {
  const Node *Best = nullptr;
  forEachNode(L, [&](const Node &N) {
    if (N.Kind == NodeKind::Branch && contains(N.Range, Line, Col) &&
        (!Best || before(Best->Range.Line, Best->Range.Col, N.Range.Line, N.Range.Col)))
      Best = &N;
  });
  return Best;
}

/// The smallest range covering the nodes of an arm ("" range if empty).
SourceRange armRange(const Arm &A) {
  SourceRange R;
  forEachNode(A.Body, [&](const Node &N) {
    if (!N.Range.Line)
      return;
    if (!R.Line || before(N.Range.Line, N.Range.Col, R.Line, R.Col)) {
      R.Line = N.Range.Line;
      R.Col = N.Range.Col;
    }
    if (!R.EndLine || before(R.EndLine, R.EndCol, N.Range.EndLine, N.Range.EndCol)) {
      R.EndLine = N.Range.EndLine;
      R.EndCol = N.Range.EndCol;
    }
  });
  return R;
}

/// "line:col" -> {line, col} ({0, 0} if malformed).
std::pair<unsigned, unsigned> lineCol(const std::string &S) {
  unsigned L = 0, C = 0;
  return sscanf(S.c_str(), "%u:%u", &L, &C) == 2 ? std::pair{L, C} : std::pair{0u, 0u};
}

/// A location "file:line:col": the file's base name (records and SEGs may
/// name it by different paths), line and column; nullopt if Where has no
/// ":line:col".
struct RecordPlace {
  std::string File;
  unsigned Line = 0, Col = 0;
  bool at(const CtNode &N) const {
    return N.Line == Line && N.Col == Col && N.File.substr(N.File.rfind('/') + 1) == File;
  }
};
static std::optional<RecordPlace> placeOf(const std::string &Where) {
  size_t C2 = Where.rfind(':'), C1 = C2 == std::string::npos ? C2 : Where.rfind(':', C2 - 1);
  if (C1 == std::string::npos)
    return std::nullopt;
  std::string File = Where.substr(0, C1);
  auto [Line, Col] = lineCol(Where.substr(C1 + 1));
  return RecordPlace{File.substr(File.rfind('/') + 1), Line, Col};
}

/// Which of a two-arm record's arms P counts: the one whose target is
/// nearer (lines, then columns) to P.TakenAt than the other arm's, with
/// P.OtherAt nearer to the other arm; nullopt if both fit as well.
static std::optional<int> armNearerTaken(const Parameter &P, const CtNode &N) {
  auto Dist = [](std::pair<unsigned, unsigned> A, const CtArm &B) {
    return std::pair{std::abs(long(A.first) - long(B.TargetLine)),
                     std::abs(long(A.second) - long(B.TargetCol))};
  };
  auto T = lineCol(P.TakenAt), O = lineCol(P.OtherAt);
  auto Sum = [](std::pair<long, long> A, std::pair<long, long> B) {
    return std::pair{A.first + B.first, A.second + B.second};
  };
  auto Straight = Sum(Dist(T, N.Arms[0]), Dist(O, N.Arms[1]));
  auto Crossed = Sum(Dist(T, N.Arms[1]), Dist(O, N.Arms[0]));
  if (Straight == Crossed)
    return std::nullopt;
  return Straight < Crossed ? 0 : 1;
}

/// The copy number of a parameter named "..._c<k>" (k), else 0.
static int copyOfName(const std::string &Name) {
  size_t U = Name.rfind("_c");
  if (U != std::string::npos && U + 2 < Name.size() &&
      Name.find_first_not_of("0123456789", U + 2) == std::string::npos)
    return std::atoi(Name.c_str() + U + 2);
  return 0;
}

/// Fn's late record of the IR branch ("br") at At with copy number Copy,
/// if it has two arms and ran; else null.
static const CtNode *lateBranchRecord(const CtFunction &Fn, const RecordPlace &At, int Copy) {
  for (const CtNode &N : Fn.Late)
    if (N.Kind == "branch" && N.Op == "br" && At.at(N) && N.Copy == Copy && N.Arms.size() == 2)
      return N.Executions ? &N : nullptr;
  return nullptr;
}

/// Calls Visit(N) for each two-arm branch record N of Ct (any function: the
/// optimiser inlines) at Where ("file:line:col", files compared by their
/// base names) whose operation is "br" or, with Selects, "select", until
/// Visit returns false; false if Where is not of that form.
template <typename VisitFn>
static bool forTwoArmRecordsAt(const CtFile &Ct, const std::string &Where, bool Selects,
                               VisitFn Visit) {
  auto At = placeOf(Where);
  if (!At)
    return false;
  for (const CtFunction &F : Ct.Functions)
    for (const CtNode &N : F.Nodes)
      if (N.Kind == "branch" && (N.Op == "br" || (Selects && N.Op == "select")) && At->at(N) &&
          N.Arms.size() == 2 && !Visit(N))
        return true;
  return true;
}

/// The measured probability of IR branch parameter P (Where
/// "file:line:col", TakenAt/OtherAt the successors' first locations): the
/// two-arm branch records of Ct at that location (any function: the
/// optimiser inlines), summed; the arm whose target is nearer (lines, then
/// columns) to TakenAt than the other arm's, with OtherAt nearer to the
/// other arm, is the one P counts. nullopt if no record or no clear match.
std::optional<ProfileValue> irBranchValue(const CtFile &Ct, const Parameter &P) {
  uint64_t Exec = 0, Count[2] = {0, 0};
  const CtNode *First = nullptr;
  bool Ambiguous = false;
  forTwoArmRecordsAt(Ct, P.Where, false, [&](const CtNode &N) {
    if (First && (First->Arms[0].TargetLine != N.Arms[0].TargetLine ||
                  First->Arms[0].TargetCol != N.Arms[0].TargetCol))
      return !(Ambiguous = true); // two different branches at one location
    First = First ? First : &N;
    Exec += N.Executions;
    Count[0] += N.Arms[0].Count;
    Count[1] += N.Arms[1].Count;
    return true;
  });
  if (Ambiguous)
    return std::nullopt;
  if (!First || !Exec)
    return std::nullopt;
  std::optional<int> Near = armNearerTaken(P, *First);
  if (!Near)
    return std::nullopt;
  int Arm = *Near;
  return ProfileValue{P.Name, double(Count[Arm]) / double(Exec),
                      "IR branch " + P.Where + " -> " + P.TakenAt + ": arm '" +
                          First->Arms[Arm].Label + "' " + std::to_string(Count[Arm]) + " / " +
                          std::to_string(Exec) + " executions"};
}

/// The measured probability of IR branch parameter P from the records of
/// the optimised code (CtFunction::Late, instrument=late) of function Fn:
/// the record at P's location whose copy number is P's (a name
/// Pir_..._c<k> whose base name without "_c<k>" is also in Names: copy k,
/// made in its own orientation, its first successor the record's true
/// arm; else copy 0, whose arm is the one whose target is nearer P's
/// TakenAt, as irBranchValue). nullopt if no such record, never executed,
/// or copy 0's arms cannot be told apart.
std::optional<ProfileValue> lateBranchValue(const CtFunction &Fn, const Parameter &P,
                                            const std::set<std::string> &Names) {
  auto At = placeOf(P.Where);
  if (!At || Fn.Late.empty())
    return std::nullopt;
  int Copy = copyOfName(P.Name);
  if (Copy && !Names.count(P.Name.substr(0, P.Name.rfind("_c"))))
    Copy = 0;
  const CtNode *R = lateBranchRecord(Fn, *At, Copy);
  if (!R)
    return std::nullopt;
  int Arm = 0;
  if (Copy == 0) {
    std::optional<int> Near = armNearerTaken(P, *R);
    if (!Near)
      return std::nullopt;
    Arm = *Near;
  }
  return ProfileValue{P.Name, double(R->Arms[Arm].Count) / double(R->Executions),
                      "optimised branch " + P.Where + " copy " + std::to_string(Copy) +
                          ": arm '" + R->Arms[Arm].Label + "' " +
                          std::to_string(R->Arms[Arm].Count) + " / " +
                          std::to_string(R->Executions) + " executions"};
}

/// The measured probability that the vectoriser's runtime checks find two
/// ranges overlapping, for parameter P (a name "Pov_<fn>_<line>_<col>"
/// with "_c<k>" for copy k, Where the branch's "file:line:col", TakenAt
/// the arm "true" / "false" that leaves the vector loop out; passes/
/// IRBranchCond.cpp checksPassing): that arm's count over the executions
/// of the instrument=late record of Fn at that location and copy. The
/// branch may test the minimum iteration count too: the value is then the
/// share of executions that left the vector loop out for either reason.
/// nullopt if no such record or never executed.
std::optional<ProfileValue> lateAliasValue(const CtFunction &Fn, const Parameter &P) {
  auto At = placeOf(P.Where);
  if (!At)
    return std::nullopt;
  int Copy = copyOfName(P.Name);
  const CtNode *R = lateBranchRecord(Fn, *At, Copy);
  if (!R)
    return std::nullopt;
  for (const CtArm &A : R->Arms)
    if (A.Label == P.TakenAt)
      return ProfileValue{P.Name, double(A.Count) / double(R->Executions),
                          "optimised branch " + P.Where + " copy " + std::to_string(Copy) +
                              ": vector loop left out (arm '" + A.Label + "') " +
                              std::to_string(A.Count) + " / " + std::to_string(R->Executions) +
                              " executions"};
  return std::nullopt;
}

/// The measured probability that the first test of a branch on a logical
/// and/or is true, for parameter P (a name "Pir_..._first", Where
/// "file:line:col" the branch's location; the second test's share,
/// icc::secondTestProbability in passes/IccBlocks.h): the records of the
/// optimised code (CtFunction::Late, instrument=late) "first-and" /
/// "first-or" of Fn at that location, all copies summed (their first arm
/// counts the first operand true). nullopt if none, or never executed.
std::optional<ProfileValue> lateFirstTestValue(const CtFunction &Fn, const Parameter &P) {
  auto At = placeOf(P.Where);
  if (!At)
    return std::nullopt;
  uint64_t Exec = 0, True = 0;
  int Copies = 0;
  for (const CtNode &N : Fn.Late)
    if (N.Kind == "branch" && (N.Op == "first-and" || N.Op == "first-or") && At->at(N) &&
        !N.Arms.empty()) {
      Exec += N.Executions;
      True += N.Arms[0].Count;
      ++Copies;
    }
  if (!Exec)
    return std::nullopt;
  return ProfileValue{P.Name, double(True) / double(Exec),
                      "optimised branch " + P.Where + ": first test true " +
                          std::to_string(True) + " / " + std::to_string(Exec) +
                          " executions (" + std::to_string(Copies) + " cop" +
                          (Copies == 1 ? "y" : "ies") + ")"};
}

/// The measured probability that the condition of an IR select is true,
/// for parameter P (Kind "branch", a name "Pir_...", no TakenAt: a
/// select's, Where "file:line:col" its location): the two-arm branch
/// records of Ct at that location (any function) with an arm labelled
/// "true" (the source's `?:` or `if`, counted before the optimiser made
/// it a select), summed; nullopt if none.
std::optional<ProfileValue> irSelectValue(const CtFile &Ct, const Parameter &P) {
  uint64_t Exec = 0, True = 0;
  bool AllTrue = true;
  forTwoArmRecordsAt(Ct, P.Where, true, [&](const CtNode &N) {
    auto T = std::find_if(N.Arms.begin(), N.Arms.end(),
                          [](const CtArm &A) { return A.Label == "true"; });
    if (T == N.Arms.end())
      return AllTrue = false;
    Exec += N.Executions;
    True += T->Count;
    return true;
  });
  if (!AllTrue)
    return std::nullopt;
  if (!Exec)
    return std::nullopt;
  return ProfileValue{P.Name, double(True) / double(Exec),
                      "IR select " + P.Where + ": condition true " + std::to_string(True) +
                          " / " + std::to_string(Exec) + " executions"};
}

std::set<std::string> caseLabels(const std::string &L) {
  std::set<std::string> S;
  std::stringstream SS(L);
  std::string X;
  while (std::getline(SS, X, ',')) {
    size_t B = X.find_first_not_of(' ');
    if (B != std::string::npos)
      S.insert(X.substr(B));
  }
  return S;
}

} // namespace

int matchSeg(CtFile &Ct, const SegFile &Seg) {
  int Matched = 0;
  for (CtFunction &F : Ct.Functions) {
    const FunctionSeg *S = Seg.find(F.Name);
    if (!S)
      continue;
    for (CtNode &N : F.Nodes) {
      N.SegId.clear();
      if (N.Kind == "branch") {
        if (const Node *B = innermostBranch(S->Body, N.Line, N.Col))
          N.SegId = B->Id;
      } else {
        forEachNode(S->Body, [&](const Node &X) {
          if (!N.SegId.empty() || X.Range.Line != N.Line || X.Range.Col != N.Col)
            return;
          if ((N.Kind == "loop" && X.Kind == NodeKind::Loop) ||
              (N.Kind == "call" && X.Kind == NodeKind::Call && X.Callee == N.Callee))
            N.SegId = X.Id;
        });
      }
      Matched += !N.SegId.empty();
    }
  }
  return Matched;
}

std::vector<ProfileValue> profileParameters(const CtFile &Ct, const SegFile &Seg) {
  std::vector<ProfileValue> Out;
  for (const FunctionSeg &S : Seg.Functions) {
    const CtFunction *F = Ct.find(S.Name);
    if (!F)
      continue;
    std::set<std::string> Params;
    for (const Parameter &P : S.Parameters)
      Params.insert(P.Name);
    auto where = [&](const CtNode &N) {
      return S.Name + ":" + std::to_string(N.Line) + ":" + std::to_string(N.Col);
    };
    for (const Parameter &P : S.Parameters)
      if (P.Kind == "branch" && isIndicatorName(P.Name)) {
        if (auto V = lateAliasValue(*F, P))
          Out.push_back(*V);
      } else if (P.Kind == "branch" && !P.TakenAt.empty()) {
        // The optimised code's own count of this branch (copy) first.
        if (auto V = lateBranchValue(*F, P, Params))
          Out.push_back(*V);
        else if (auto V = irBranchValue(Ct, P))
          Out.push_back(*V);
      } else if (P.Kind == "branch" && P.Name.rfind("Pir_", 0) == 0 && isFirstTestName(P.Name)) {
        if (auto V = lateFirstTestValue(*F, P))
          Out.push_back(*V);
      } else if (P.Kind == "branch" && P.Name.rfind("Pir_", 0) == 0) {
        if (auto V = irSelectValue(Ct, P))
          Out.push_back(*V);
      }
    forEachNode(S.Body, [&](const Node &X) {
      if (X.Kind == NodeKind::Loop && Params.count(X.Trip)) {
        for (const CtNode &N : F->Nodes)
          if (N.SegId == X.Id && N.Kind == "loop" && N.Entries > 0)
            Out.push_back({X.Trip, double(N.Iterations) / double(N.Entries),
                           "loop " + where(N) + ": " + std::to_string(N.Iterations) +
                               " iterations / " + std::to_string(N.Entries) + " entries"});
        return;
      }
      if (X.Kind != NodeKind::Branch)
        return;
      std::vector<const CtNode *> Recs;
      for (const CtNode &N : F->Nodes)
        if (N.SegId == X.Id && N.Kind == "branch" && N.Executions > 0)
          Recs.push_back(&N);
      for (const Arm &A : X.Arms) {
        if (!Params.count(A.Prob))
          continue;
        // An arm's stages carry their statement's range: clip it to the
        // branch (the right operand of '&&' lies inside the expression).
        SourceRange R = armRange(A);
        if (before(R.Line, R.Col, X.Range.Line, X.Range.Col)) {
          R.Line = X.Range.Line;
          R.Col = X.Range.Col;
        }
        if (before(X.Range.EndLine, X.Range.EndCol, R.EndLine, R.EndCol)) {
          R.EndLine = X.Range.EndLine;
          R.EndCol = X.Range.EndCol;
        }
        std::vector<std::pair<const CtNode *, const CtArm *>> Hits;
        for (const CtNode *N : Recs)
          for (const CtArm &CA : N->Arms)
            if (contains(R, CA.TargetLine, CA.TargetCol))
              Hits.push_back({N, &CA});
        if (Hits.empty() && Recs.size() == 1) {
          const CtNode *N = Recs[0];
          std::set<std::string> Want = caseLabels(A.Label);
          if (N->Op == "switch") {
            uint64_t C = 0;
            bool Any = false;
            for (const CtArm &CA : N->Arms)
              if (Want.count(CA.Label)) {
                C += CA.Count;
                Any = true;
              }
            if (Any)
              Out.push_back({A.Prob, double(C) / double(N->Executions),
                             "switch " + where(*N) + ": arm '" + A.Label + "' " +
                                 std::to_string(C) + " / " +
                                 std::to_string(N->Executions) + " executions"});
            continue;
          }
          if (A.Label == "then" && !N->Arms.empty() && N->Arms[0].Label == "true")
            Hits.push_back({N, &N->Arms[0]});
        }
        if (Hits.size() != 1)
          continue; // none, or a compound condition: keep the static value
        auto [N, CA] = Hits[0];
        Out.push_back({A.Prob, double(CA->Count) / double(N->Executions),
                       "branch " + where(*N) + ": arm '" + A.Label + "' " +
                           std::to_string(CA->Count) + " / " + std::to_string(N->Executions) +
                           " executions"});
      }
    });
  }
  return Out;
}

} // namespace segtime
