//===- Link.cpp - Joins the SEG files of one program -----------*- C++ -*-===//
///
/// \file
/// linkSegFiles (Link.h): names resolved per unit (its own functions first,
/// then the external functions of the others), Unknown call nodes turned into
/// Call nodes, static functions of clashing names renamed NAME@FILE; the
/// binder of a callee's parameters to a call's arguments (callBindings)
/// and its inverse for names (unbindCallerNames).
///
//===----------------------------------------------------------------------===//
#include "core/Link.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <stdexcept>

namespace segtime {

namespace {

std::string where(const Node &N, const std::string &Unit) {
  return (N.Range.File.empty() ? Unit : N.Range.File) + ":" + std::to_string(N.Range.Line);
}

} // namespace

std::vector<CallBinding> callBindings(const Node &Call, const std::vector<std::string> &Params) {
  std::vector<CallBinding> R;
  for (size_t I = 0; I < Params.size() && I < Call.Args.size(); ++I)
    if (!Params[I].empty() && !Call.Args[I].empty())
      R.push_back({Params[I], Call.Args[I]});
  return R;
}

std::string unbindCallerNames(const std::string &Text, const std::vector<CallBinding> &Bindings) {
  auto NameChar = [](char C) {
    return std::isalnum(static_cast<unsigned char>(C)) || C == '_' || C == '.';
  };
  std::map<std::string, std::string> To; // caller's name -> parameter
  for (const CallBinding &B : Bindings)
    if (!B.Arg.empty() && !std::isdigit(static_cast<unsigned char>(B.Arg[0])) &&
        B.Arg[0] != '.' && std::all_of(B.Arg.begin(), B.Arg.end(), NameChar))
      To.emplace(B.Arg, B.Param);
  if (To.empty())
    return Text;
  std::string R;
  for (size_t I = 0; I < Text.size();) {
    if (!NameChar(Text[I])) {
      R += Text[I++];
      continue;
    }
    size_t End = I;
    while (End < Text.size() && NameChar(Text[End]))
      ++End;
    std::string Name = Text.substr(I, End - I);
    auto It = To.find(Name);
    R += It != To.end() ? It->second : Name;
    I = End;
  }
  return R;
}

std::string bindCalleeNames(const std::string &Text, const std::string &Callee,
                            const std::vector<CallBinding> &Bindings) {
  auto NameChar = [](char C) {
    return std::isalnum(static_cast<unsigned char>(C)) || C == '_' || C == '.';
  };
  const std::string Prefix = Callee + ".";
  std::string R;
  size_t From = 0;
  for (size_t At = Text.find(Prefix); At != std::string::npos; At = Text.find(Prefix, At + 1)) {
    if (At > 0 && NameChar(Text[At - 1]))
      continue;
    size_t End = At + Prefix.size();
    while (End < Text.size() && NameChar(Text[End]))
      ++End;
    std::string Param = Text.substr(At + Prefix.size(), End - At - Prefix.size());
    auto B = std::find_if(Bindings.begin(), Bindings.end(),
                          [&](const CallBinding &X) { return X.Param == Param; });
    if (B == Bindings.end())
      continue;
    bool Plain = std::all_of(B->Arg.begin(), B->Arg.end(), NameChar);
    R.append(Text, From, At - From);
    R += Plain ? B->Arg : "(" + B->Arg + ")";
    From = End;
  }
  R.append(Text, From, std::string::npos);
  return R;
}

SegFile linkSegFiles(const std::vector<SegFile> &Units, const std::vector<std::string> &Names,
                     LinkReport &Report) {
  if (Units.empty())
    throw std::runtime_error("link: no SEG files given");
  auto UnitName = [&](size_t U) {
    return !Units[U].SourceFile.empty() ? Units[U].SourceFile
           : U < Names.size()           ? Names[U]
                                        : "unit " + std::to_string(U + 1);
  };
  // How many units define each name, and the unit of each external one.
  std::map<std::string, std::set<size_t>> DefinedIn;
  std::map<std::string, size_t> External;
  for (size_t U = 0; U < Units.size(); ++U)
    for (const FunctionSeg &F : Units[U].Functions) {
      DefinedIn[F.Name].insert(U);
      if (F.Static)
        continue;
      auto [It, New] = External.emplace(F.Name, U);
      if (!New && It->second != U)
        Report.Warnings.push_back(UnitName(It->second) + " and " + UnitName(U) +
                                  " both define '" + F.Name +
                                  "' with external linkage: the first is kept");
    }
  // A unit's tag in renamed functions: its source file's base name, or the
  // whole path where two units share the base name.
  auto Base = [](const std::string &P) {
    size_t Slash = P.find_last_of('/');
    return Slash == std::string::npos ? P : P.substr(Slash + 1);
  };
  std::map<std::string, unsigned> BaseUses;
  for (size_t U = 0; U < Units.size(); ++U)
    ++BaseUses[Base(UnitName(U))];
  auto Tag = [&](size_t U) {
    std::string B = Base(UnitName(U));
    return BaseUses[B] > 1 ? UnitName(U) : B;
  };
  // The name of unit U's function F in the linked file.
  auto LinkedName = [&](size_t U, const FunctionSeg &F) {
    if (F.Static && DefinedIn[F.Name].size() > 1)
      return F.Name + "@" + Tag(U);
    return F.Name;
  };

  SegFile Out;
  Out.OptLevel = Units[0].OptLevel;
  std::map<std::string, LinkReport::UnresolvedCall> Unres;
  std::map<std::string, std::string> ParamOwner; // parameter name -> function
  for (size_t U = 0; U < Units.size(); ++U) {
    const SegFile &In = Units[U];
    Out.SourceFile += (U ? ", " : "") + UnitName(U);
    if (In.OptLevel != Out.OptLevel)
      Report.Warnings.push_back(UnitName(U) + " was compiled at -" + In.OptLevel + ", " +
                                UnitName(0) + " at -" + Out.OptLevel);
    for (const std::string &W : In.Warnings)
      Out.Warnings.push_back(UnitName(U) + ": " + W);
    for (auto &[T, Info] : In.Targets) {
      auto [It, New] = Out.Targets.emplace(T, Info);
      if (!New && It->second != Info)
        Report.Warnings.push_back("ICC target '" + T + "' of " + UnitName(U) +
                                  " differs from an earlier unit's: the first is kept");
    }
    // Names as unit U sees them -> names in the linked file.
    std::map<std::string, std::string> Local;
    for (const FunctionSeg &F : In.Functions)
      Local[F.Name] = LinkedName(U, F);
    auto Resolve = [&](const std::string &Name) -> std::string {
      if (auto It = Local.find(Name); It != Local.end())
        return It->second;
      if (External.count(Name))
        return Name;
      return "";
    };
    for (const FunctionSeg &F : In.Functions) {
      if (!F.Static && External.at(F.Name) != U)
        continue; // a second external definition (warned above)
      FunctionSeg G = F;
      G.Name = Local.at(F.Name);
      if (G.Name != F.Name)
        Report.Renamed.push_back(F.Name + " -> " + G.Name);
      for (const Parameter &P : G.Parameters) {
        auto [It, New] = ParamOwner.emplace(P.Name, G.Name);
        if (!New && It->second != G.Name)
          Report.Warnings.push_back("parameter '" + P.Name + "' is declared by " + It->second +
                                    " and " + G.Name + ": one value serves both");
      }
      auto Fix = [&](bool SourceLevel) {
        return [&, SourceLevel](Node &N) {
          if (N.Kind != NodeKind::Call && !(N.Kind == NodeKind::Unknown && !N.Callee.empty()))
            return;
          std::string To = Resolve(N.Callee);
          if (To.empty()) {
            if (SourceLevel) {
              LinkReport::UnresolvedCall &R = Unres[N.Callee];
              R.Callee = N.Callee;
              if (R.Calls++ == 0)
                R.First = where(N, UnitName(U));
            }
            return;
          }
          // (an Unknown call to a function of its own unit stays: the
          // plugin found it recursive)
          if (N.Kind == NodeKind::Unknown && !Local.count(N.Callee)) {
            N.Kind = NodeKind::Call;
            N.Reason.clear();
            if (SourceLevel) {
              N.Ruvs[levelKey(Level::HLLC)].add("call"); // as the plugin's Call nodes
              ++Report.Resolved;
            }
          }
          N.Callee = To;
        };
      };
      forEachNode(G.Body, Fix(true));
      for (auto &[K, L] : G.LevelSegs)
        forEachNode(L, Fix(false));
      for (InlinedRef &R : G.InlinedAt) // the caller is in the same unit
        if (auto It = Local.find(R.Caller); It != Local.end())
          R.Caller = It->second;
      Out.Functions.push_back(std::move(G));
    }
  }
  for (auto &[Name, R] : Unres)
    Report.Unresolved.push_back(R);
  return Out;
}

} // namespace segtime
