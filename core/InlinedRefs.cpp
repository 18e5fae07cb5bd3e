//===- InlinedRefs.cpp - The compact references to inlined calls' code ---===//
///
/// \file
/// Schema 4's "inlined" table (docs/seg-json.md): the code of each inlined
/// call of a function with no code of its own as runs of sibling nodes of
/// its caller's IR level (inlinedSiteRuns, inlinedSiteNodes), the callers
/// by their index in the file, the call's location not written but taken
/// from the caller's SEG when the file is read (the source node of the
/// code's first node).
///
//===----------------------------------------------------------------------===//
#include "core/InlinedLevels.h"

#include <functional>
#include <set>
#include <stdexcept>
#include <unordered_map>

namespace segtime {

namespace {

/// Where each IR node of CallerIR is: its list and its index there.
using NodePlaces = std::unordered_map<std::string, std::pair<const NodeList *, size_t>>;

NodePlaces nodePlaces(const NodeList &CallerIR) {
  NodePlaces P;
  std::function<void(const NodeList &)> Walk = [&](const NodeList &L) {
    for (size_t I = 0; I < L.size(); ++I) {
      P.try_emplace(L[I].Id, &L, I);
      Walk(L[I].Body);
      for (const Arm &A : L[I].Arms)
        Walk(A.Body);
    }
  };
  Walk(CallerIR);
  return P;
}

/// Id as written: the number K of "ir<K>" (no leading zero), else the text.
json idJSON(const std::string &Id) {
  if (Id.size() > 2 && Id.size() < 12 && Id.compare(0, 2, "ir") == 0 && Id[2] != '0' &&
      Id.find_first_not_of("0123456789", 2) == std::string::npos)
    return std::stoull(Id.substr(2));
  return Id;
}

std::vector<std::string> decodeRuns(const NodePlaces &Places, const json &Runs) {
  std::vector<std::string> Nodes;
  for (size_t I = 0; I < Runs.size(); ++I) {
    const json &E = Runs[I];
    if (E.is_number_unsigned())
      Nodes.push_back("ir" + std::to_string(E.get<std::uint64_t>()));
    else if (E.is_string())
      Nodes.push_back(E.get<std::string>());
    else if (E.is_number_integer() && I > 0 &&
             (Runs[I - 1].is_number_unsigned() || Runs[I - 1].is_string())) {
      // -K: the K siblings after the run's first node.
      std::int64_t K = -E.get<std::int64_t>();
      auto P = Places.find(Nodes.back());
      if (K < 1 || P == Places.end() || P->second.second + K >= P->second.first->size())
        throw std::runtime_error("run " + E.dump() + " after '" + Nodes.back() +
                                 "': not that many nodes follow it in the caller's IR level");
      for (std::int64_t J = 1; J <= K; ++J)
        Nodes.push_back((*P->second.first)[P->second.second + J].Id);
    } else {
      throw std::runtime_error(E.dump() + ": expected a node (a number K for \"ir<K>\", or an "
                               "id) or -K after one (the K nodes that follow it)");
    }
  }
  return Nodes;
}

/// "file:line:col" of the source node of the first node of Nodes that has
/// one (Caller's source SEG), "" if none.
std::string siteWhere(const FunctionSeg &Caller, const NodePlaces &Places,
                      const std::vector<std::string> &Nodes, const std::string &SourceFile) {
  for (const std::string &Id : Nodes) {
    auto P = Places.find(Id);
    if (P == Places.end())
      continue;
    const std::string &Src = (*P->second.first)[P->second.second].SourceNode;
    if (Src.empty())
      continue;
    const Node *Found = nullptr;
    forEachNode(Caller.Body, [&](const Node &N) {
      if (!Found && N.Id == Src)
        Found = &N;
    });
    if (!Found || !Found->Range.Line)
      return "";
    const SourceRange &R = Found->Range;
    const std::string &File =
        !R.File.empty() ? R.File : !Caller.Range.File.empty() ? Caller.Range.File : SourceFile;
    return File + ":" + std::to_string(R.Line) + ":" + std::to_string(R.Col);
  }
  return "";
}

} // namespace

json inlinedSiteRuns(const NodeList &CallerIR, const std::vector<std::string> &Nodes) {
  NodePlaces Places = nodePlaces(CallerIR);
  json Runs = json::array();
  for (size_t I = 0; I < Nodes.size();) {
    Runs.push_back(idJSON(Nodes[I]));
    auto P = Places.find(Nodes[I]);
    size_t K = 0;
    if (P != Places.end()) {
      const NodeList &L = *P->second.first;
      size_t At = P->second.second;
      while (I + K + 1 < Nodes.size() && At + K + 1 < L.size() &&
             L[At + K + 1].Id == Nodes[I + K + 1])
        ++K;
    }
    if (K)
      Runs.push_back(-static_cast<std::int64_t>(K));
    I += K + 1;
  }
  return Runs;
}

std::vector<std::string> inlinedSiteNodes(const NodeList &CallerIR, const json &Runs) {
  return decodeRuns(nodePlaces(CallerIR), Runs);
}

void takeInlinedRefs(SegVocabulary &Vocab, const FunctionSeg &F, size_t Index) {
  Vocab.FunctionIndex.try_emplace(F.Name, Index);
  if (F.InlinedAt.empty())
    return;
  Vocab.Inlined.push_back({Index, {}});
  for (const InlinedRef &R : F.InlinedAt)
    Vocab.Inlined.back().second.emplace_back(R.Caller, R.Runs.is_null() ? json(R.Nodes) : R.Runs);
}

json inlinedTableJSON(const SegVocabulary &Vocab) {
  json Table = json::array();
  for (const auto &[Index, Refs] : Vocab.Inlined) {
    json Entry = json::array({Index});
    const std::string *Last = nullptr;
    for (const auto &[Caller, Runs] : Refs) {
      if (!Last || *Last != Caller) {
        auto It = Vocab.FunctionIndex.find(Caller);
        Entry.push_back(It != Vocab.FunctionIndex.end() ? json(It->second) : json(Caller));
        Last = &Caller;
      }
      Entry.push_back(Runs);
    }
    Table.push_back(std::move(Entry));
  }
  return Table;
}

void readInlinedTable(const json &Table, SegFile &S) {
  std::unordered_map<std::string, NodePlaces> Places; // by caller
  for (size_t T = 0; T < Table.size(); ++T) {
    const std::string At = "SEG file at /inlined/" + std::to_string(T) + ": ";
    const json &E = Table[T];
    if (!E.is_array() || E.size() < 3 || !E[0].is_number_unsigned() ||
        E[0].get<size_t>() >= S.Functions.size())
      throw std::runtime_error(At + "expected [function index, caller, [nodes], ...] with a "
                               "function index below " + std::to_string(S.Functions.size()));
    FunctionSeg &F = S.Functions[E[0].get<size_t>()];
    std::string Caller;
    for (size_t I = 1; I < E.size(); ++I) {
      const json &X = E[I];
      if (X.is_number_unsigned()) {
        if (X.get<size_t>() >= S.Functions.size())
          throw std::runtime_error(At + "caller index " + X.dump() + " out of range (" +
                                   std::to_string(S.Functions.size()) + " functions)");
        Caller = S.Functions[X.get<size_t>()].Name;
      } else if (X.is_string()) {
        Caller = X.get<std::string>();
      } else if (X.is_array() && !Caller.empty()) {
        InlinedRef R;
        R.Caller = Caller;
        R.Runs = X;
        const FunctionSeg *C = S.find(Caller);
        if (C && C->LevelSegs.count(IrSegKey)) {
          auto [P, New] = Places.try_emplace(Caller);
          if (New)
            P->second = nodePlaces(C->LevelSegs.at(IrSegKey));
          try {
            R.Nodes = decodeRuns(P->second, X);
          } catch (const std::runtime_error &Err) {
            throw std::runtime_error(At + F.Name + "'s call in '" + Caller + "': " + Err.what());
          }
          R.Where = siteWhere(*C, P->second, R.Nodes, S.SourceFile);
        } else { // (no such caller: resolveInlinedLevels warns)
          for (const json &Id : X)
            if (Id.is_number_unsigned() || Id.is_string())
              R.Nodes.push_back(Id.is_string() ? Id.get<std::string>()
                                               : "ir" + std::to_string(Id.get<std::uint64_t>()));
        }
        F.InlinedAt.push_back(std::move(R));
      } else {
        throw std::runtime_error(At + X.dump() + ": expected a caller (function index or "
                                 "name) or, after one, a list of its nodes");
      }
    }
  }
}

} // namespace segtime
