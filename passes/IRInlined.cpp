//===- IRInlined.cpp - Inlined calls in the IR SEG ------------------------===//
///
/// \file
/// Which inlined call a node's code came from (its DILocation's inlinedAt
/// chain), and the callee's parameter names of the values that were the
/// call's arguments (recordCallArgs), so that inlined code is written in the
/// callee's names ("kernel.n").
///
//===----------------------------------------------------------------------===//
#include "passes/IRSegBuilder.h"

#include "llvm/IR/InstIterator.h"

using namespace llvm;

namespace segtime {
namespace irseg {

/// The calls DL's code was inlined through, innermost first.
std::vector<Builder::InlineLink> Builder::inlineChain(const DILocation *DL) {
  std::vector<InlineLink> C;
  for (const DILocation *L = DL; L && L->getInlinedAt(); L = L->getInlinedAt()) {
    const DISubprogram *SP = L->getScope()->getSubprogram();
    if (!SP)
      break;
    StringRef Name = SP->getLinkageName().empty() ? SP->getName() : SP->getLinkageName();
    C.push_back({Name.str(), L->getInlinedAt()});
  }
  return C;
}

/// The location that most of B's costed instructions carry, by their
/// inlinedAt (the first such instruction's location; ties: the first
/// seen); null if none has one.
const DILocation *Builder::majorityLoc(const BasicBlock &B) {
  std::vector<std::pair<const DILocation *, unsigned>> Count; // by inlinedAt, first seen first
  std::vector<const DILocation *> First;
  for (const Instruction &I : B) {
    const DILocation *DL = I.getDebugLoc().get();
    if (!DL || !DL->getLine() || intccKey(I).empty())
      continue;
    auto It = llvm::find_if(Count, [&](auto &P) { return P.first == DL->getInlinedAt(); });
    if (It == Count.end()) {
      Count.push_back({DL->getInlinedAt(), 0});
      First.push_back(DL);
      It = std::prev(Count.end());
    }
    ++It->second;
  }
  const DILocation *Best = nullptr;
  unsigned Most = 0;
  for (size_t K = 0; K < Count.size(); ++K)
    if (Count[K].second > Most) {
      Most = Count[K].second;
      Best = First[K];
    }
  return Best;
}

/// The callee-name of every value of F that was an argument of a call
/// in Sites (a cast's operand too: ScalarEvolution looks through it).
void Builder::nameCallArgs(const CallSiteArgMap &Sites) {
  std::map<const Value *, std::set<std::string>> NamesOf;
  std::map<std::string, std::set<const Value *>> ValuesOf;
  // Only calls inlined into F (a call left as a call keeps its own
  // arguments' names).
  // (with the callees inlined at each: the calls at one location, of a
  // macro expansion, name only their own callee's parameters there)
  std::map<SiteKey, std::set<std::string>> Inlined;
  for (const Instruction &I : instructions(F))
    for (const DILocation *L = I.getDebugLoc().get(); L; L = L->getInlinedAt())
      if (L->getInlinedAt())
        if (const DISubprogram *SP = L->getScope()->getSubprogram())
          Inlined[siteKey(L->getInlinedAt())].insert(
              (SP->getLinkageName().empty() ? SP->getName() : SP->getLinkageName()).str());
  if (Inlined.empty())
    return;
  auto Local = [&](const Value *X) {
    if (auto *I = dyn_cast_or_null<Instruction>(X))
      return I->getFunction() == &F;
    if (auto *A = dyn_cast_or_null<Argument>(X))
      return A->getParent() == &F;
    return false;
  };
  // Each call inlined into F: its entries of Sites (by key, in Sites'
  // order: the first value a name is given wins).
  for (const auto &[K, Callees] : Inlined) {
    auto Calls = Sites.BySite.find(K);
    if (Calls == Sites.BySite.end())
      continue;
    for (const CallSiteArgMap::Entry *E : Calls->second)
      for (size_t A = 0; A < E->second.Args.size(); ++A) {
        const auto &[VH, Name] = E->second.Args[A];
        const Value *V = VH;
        if (!Local(V) || !Callees.count(E->second.Callees[A]))
          continue;
        std::vector<const Value *> Vs{V};
        if (auto *C = dyn_cast<CastInst>(V); C && Local(C->getOperand(0)))
          Vs.push_back(C->getOperand(0));
        for (const Value *X : Vs) {
          SiteNames[K].try_emplace(X, Name);
          if (!isa<Argument>(X)) {
            NamesOf[X].insert(Name);
            ValuesOf[Name].insert(X);
          }
        }
      }
  }
  // A call's argument value that the optimiser has split by path (jump
  // threading: the paths on which it is a constant get their own copy of
  // the call's code and a new phi merges the value with those constants,
  // where the recorded value is only the value on the other paths) is the
  // value of that phi at the call: the phi takes the argument's name there.
  for (auto &[K, Names] : SiteNames) {
    std::vector<std::pair<const Value *, std::string>> Work(Names.begin(), Names.end());
    while (!Work.empty()) {
      auto [V, Name] = Work.back();
      Work.pop_back();
      if (isa<Argument>(V))
        continue;
      for (const User *U : V->users()) {
        auto *P = dyn_cast<PHINode>(U);
        if (!P || !Local(P) || Names.count(P))
          continue;
        bool Merge = llvm::all_of(P->incoming_values(), [&](const Value *In) {
          return In == V || In == P || (isa<ConstantInt>(In));
        });
        if (Merge && Names.try_emplace(P, Name).second)
          Work.push_back({P, Name});
      }
    }
  }
  // Outside the code of its calls a value goes by a callee's name only
  // if that name is its alone (two calls of kernel with different values
  // of n: kernel.n names neither), the first by text if it has several
  // (independent of the order of Sites, pointers).
  for (auto &[X, Names] : NamesOf)
    for (const std::string &Name : Names)
      if (ValuesOf[Name].size() == 1) {
        Text.Named.emplace(X, Name);
        break;
      }
}

/// Enters the code of node N located at DL (null: its parent's): the
/// arguments of the calls it was inlined through take the callees'
/// names, and N is recorded as the first node of each call's code that
/// its parent is not already part of. Returns what to restore.
std::pair<std::map<const Value *, std::string>, std::vector<const DILocation *>>
Builder::enterInlined(const Node &N, const DILocation *DL) {
  auto Saved = std::make_pair(Text.Context, ParentSites);
  if (!DL)
    return Saved;
  std::vector<InlineLink> Chain = inlineChain(DL);
  std::map<const Value *, std::string> Ctx;
  std::vector<const DILocation *> Mine;
  for (const InlineLink &L : Chain) {
    if (auto It = SiteNames.find(siteKey(L.Site)); It != SiteNames.end())
      for (auto &[V, Name] : It->second)
        Ctx.try_emplace(V, Name);
    Mine.push_back(L.Site);
    if (llvm::is_contained(ParentSites, L.Site))
      continue;
    auto [It, New] = SiteIndex.try_emplace(L.Site, Out.Inlined.size());
    if (New) {
      InlinedSite S;
      S.Callee = L.Callee;
      S.Line = L.Site->getLine();
      S.Col = L.Site->getColumn();
      for (const DILocation *At = L.Site; At; At = At->getInlinedAt())
        S.Where += (S.Where.empty() ? "" : " in ") + At->getFilename().str() + ":" +
                   std::to_string(At->getLine()) + ":" + std::to_string(At->getColumn());
      Out.Inlined.push_back(std::move(S));
    }
    Out.Inlined[It->second].Nodes.push_back(N.Id);
  }
  Text.Context = std::move(Ctx);
  ParentSites = std::move(Mine);
  return Saved;
}

} // namespace irseg
} // namespace segtime
