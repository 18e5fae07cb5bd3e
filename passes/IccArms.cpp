//===- IccArms.cpp - ICC: select sides and second tests as SEG stages -----===//
///
/// \file
/// See IccBlocks.h: the machine blocks that run on one side of a select
/// that code generation made into a jump, or as the second test of a branch
/// on a logical and/or split into two jumps, handed on under RUV keys of
/// their own (selectArmKey) and made stages of the IR SEG run with a named
/// probability (selectArmProbability, secondTestProbability,
/// insertSelectArms; docs/models.md "Select arms", "Second tests").
///
//===----------------------------------------------------------------------===//
#include "passes/IccBlocks.h"
#include "passes/IRDataCompare.h"
#include "passes/IRSeg.h"
#include "core/ParamNames.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

using namespace llvm;

namespace segtime {
namespace icc {

static const char *armHead(bool SecondTest) {
  return SecondTest ? "split.second|" : "select.arm|";
}

std::string selectArmKey(bool True, const std::string &Op, bool SecondTest) {
  return std::string(armHead(SecondTest)) + (True ? "t" : "f") + "|" + Op;
}

bool parseSelectArmKey(const std::string &Key, bool &True, std::string &Op, bool &SecondTest) {
  for (bool Second : {false, true}) {
    const std::string Head = armHead(Second);
    if (Key.size() < Head.size() + 3 || Key.compare(0, Head.size(), Head) != 0 ||
        (Key[Head.size()] != 't' && Key[Head.size()] != 'f') || Key[Head.size() + 1] != '|')
      continue;
    True = Key[Head.size()] == 't';
    Op = Key.substr(Head.size() + 2);
    SecondTest = Second;
    return true;
  }
  return false;
}

/// The parameter of FS at Where ("file:line:col"):
/// "Pir_<fn>_<line>_<col>" and Suffix; nullopt if Where has no line (or
/// line 0).
static std::optional<std::string> nameAt(const IRFunctionSeg &FS, const std::string &Where,
                                         const char *Suffix = "") {
  size_t C2 = Where.rfind(':'), C1 = C2 == std::string::npos ? C2 : Where.rfind(':', C2 - 1);
  if (C1 == std::string::npos || C1 == 0)
    return std::nullopt;
  std::string Line = Where.substr(C1 + 1, C2 - C1 - 1), Col = Where.substr(C2 + 1);
  if (Line.empty() || Col.empty() || Line == "0")
    return std::nullopt;
  return "Pir_" + FS.Name + "_" + Line + "_" + Col + Suffix;
}

/// The probability that the side of parameter Name run when True runs:
/// Name or "(1 - Name)".
static std::string sideOf(const std::string &Name, bool True) {
  return True ? Name : "(1 - " + Name + ")";
}

/// The parameter of a side's probability Prob (sideOf), and whether it is
/// the True side.
static std::string nameOfSide(const std::string &Prob, bool &True) {
  True = Prob.rfind("(1 - ", 0) != 0;
  return True ? Prob : Prob.substr(5, Prob.size() - 6);
}

std::optional<std::string> selectArmProbability(IRFunctionSeg &FS, const BasicBlock *B,
                                                bool True) {
  auto Locs = FS.SelectLocs.find(B);
  if (Locs == FS.SelectLocs.end() || Locs->second.empty() ||
      llvm::any_of(Locs->second, [&](const std::string &W) { return W != Locs->second[0]; }))
    return std::nullopt;
  // A merge or search step's select has its parameter already (the
  // probability that its comparison is true): the same.
  if (auto D = FS.DataBranch.find(B); D != FS.DataBranch.end())
    if (auto P = llvm::find_if(FS.Parameters,
                               [&](const Parameter &X) { return X.Name == D->second; });
        P != FS.Parameters.end() && irseg::isSelectStepSource(P->Source))
      return sideOf(P->Name, True);
  const std::string &Where = Locs->second[0];
  std::optional<std::string> At = nameAt(FS, Where);
  if (!At)
    return std::nullopt;
  const std::string &Name = *At;
  auto P = llvm::find_if(FS.Parameters, [&](const Parameter &X) { return X.Name == Name; });
  if (P == FS.Parameters.end())
    FS.Parameters.push_back(Parameter{
        Name, "branch", 0.5, irseg::selectArmSource(), Where,
        "probability that the condition of the select is true (code generation made the "
        "select a jump: estimated 1/2, the outcome is data)"});
  else if (P->Source != irseg::selectArmSource() && !irseg::isSelectStepSource(P->Source))
    return std::nullopt;
  return sideOf(Name, True);
}

/// The id suffix of a select side's stage with probability Prob
/// (selectArmProbability): the select's line and column and t (condition
/// true) or f, "16_15t"; a second test's (secondTestProbability): the
/// branch's line and column, t or f (the first test's outcome that runs
/// it) and 2, "13_9f2".
static std::string armIdSuffix(const std::string &Prob) {
  bool True;
  std::string Name = nameOfSide(Prob, True);
  bool Second = isFirstTestName(Name);
  if (Second)
    Name.resize(Name.size() - std::string(FirstTestSuffix).size());
  size_t C = Name.rfind('_'), L = C == std::string::npos ? C : Name.rfind('_', C - 1);
  return (L == std::string::npos ? Name : Name.substr(L + 1)) + (True ? "t" : "f") +
         (Second ? "2" : "");
}

/// The label of a stage with probability Prob (insertSelectArms).
static const char *armLabel(const std::string &Prob) {
  bool True;
  return isFirstTestName(nameOfSide(Prob, True)) ? "second test" : "select arm";
}

std::optional<std::string> secondTestProbability(IRFunctionSeg &FS, const BasicBlock *B,
                                                 bool True) {
  auto W = FS.SplitLocs.find(B);
  if (W == FS.SplitLocs.end())
    return std::nullopt;
  std::optional<std::string> At = nameAt(FS, W->second, FirstTestSuffix);
  if (!At)
    return std::nullopt;
  const std::string &Name = *At;
  if (llvm::none_of(FS.Parameters, [&](const Parameter &X) { return X.Name == Name; }))
    FS.Parameters.push_back(Parameter{
        Name, "branch", 0.5, irseg::firstTestSource(), W->second,
        "probability that the first test of the branch on a logical and/or is true (code "
        "generation splits it into two jumps; the second test runs when the first does not "
        "decide: estimated 1/2, the outcome is data)"});
  return sideOf(Name, True);
}

void addToStageAfter(NodeList &L, size_t I, const std::string &Prefix, const std::string &Id,
                     const std::string &Label, const std::string &Freq, const std::string &Key,
                     const Ruv &R) {
  size_t K = I + 1;
  while (K < L.size() && L[K].Id != Id && L[K].Id.rfind(Prefix, 0) == 0)
    ++K;
  if (K < L.size() && L[K].Id == Id) {
    L[K].Ruvs[Key].add(R);
    return;
  }
  Node N;
  N.Kind = NodeKind::Stage;
  N.Id = Id;
  N.Label = Label;
  N.Range = L[I].Range;
  N.SourceNode = L[I].SourceNode;
  N.Freq = Freq;
  N.Ruvs[Key] = R;
  L.insert(L.begin() + K, std::move(N));
}

void insertSelectArms(NodeList &L,
                      const std::map<std::string, std::map<std::string, Ruv>> &ArmsOf,
                      const std::string &Key) {
  for (size_t I = 0; I < L.size(); ++I) {
    insertSelectArms(L[I].Body, ArmsOf, Key);
    auto A = ArmsOf.find(L[I].Id);
    if (L[I].Kind != NodeKind::Stage || A == ArmsOf.end())
      continue;
    for (auto &[Prob, R] : A->second)
      addToStageAfter(L, I, L[I].Id + "s", L[I].Id + "s" + armIdSuffix(Prob), armLabel(Prob),
                      L[I].Freq.empty() ? Prob : "(" + L[I].Freq + ")*" + Prob, Key, R);
  }
}

} // namespace icc
} // namespace segtime
