//===- Vocabulary.cpp - Levels and vocabularies ---------------------------===//
///
/// \file
/// The one definition of every level's vocabulary (see Vocabulary.h).
///
//===----------------------------------------------------------------------===//
#include "core/Vocabulary.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <stdexcept>

namespace segtime {

std::string levelKey(Level L) {
  switch (L) {
  case Level::DBC: return "DBC";
  case Level::POC: return "POC";
  case Level::HLLC: return "HLLC";
  case Level::IntCC: return "INTCC";
  case Level::ICC: return "ICC";
  case Level::CT: return "CT";
  }
  return "?";
}

bool parseLevel(const std::string &S, Level &L) {
  std::string U = S;
  std::transform(U.begin(), U.end(), U.begin(), ::toupper);
  for (Level X : {Level::DBC, Level::POC, Level::HLLC, Level::IntCC, Level::ICC,
                  Level::CT})
    if (levelKey(X) == U) {
      L = X;
      return true;
    }
  return false;
}

Level levelFromKey(const std::string &S) {
  Level L;
  if (!parseLevel(S, L))
    throw std::invalid_argument("unknown level '" + S + "'");
  return L;
}

std::vector<std::string> levelKeys(const std::vector<Level> &Ls) {
  std::vector<std::string> Keys;
  for (Level L : Ls)
    Keys.push_back(levelKey(L));
  return Keys;
}

std::string ruvKey(Level L, const std::string &Target) {
  return L == Level::ICC ? levelKey(L) + ":" + Target : levelKey(L);
}

namespace {
std::vector<Construct> buildHllc() {
  std::vector<Construct> V;
  const char *Types[] = {"i32", "i64", "f32", "f64"};
  const std::pair<const char *, const char *> Arith[] = {
      {"add", "addition"},        {"sub", "subtraction or negation"},
      {"mul", "multiplication"},  {"div", "division"},
      {"cmp", "comparison (<, <=, ==, !=, >, >=, !)"},
      {"abs", "absolute value (abs, labs, fabs)"}};
  for (const char *T : Types)
    for (auto &[Op, Desc] : Arith)
      V.push_back({std::string(T) + "." + Op, std::string(T) + " " + Desc});
  for (const char *T : {"i32", "i64"}) {
    V.push_back({std::string(T) + ".rem", std::string(T) + " remainder (%)"});
    V.push_back({std::string(T) + ".shift", std::string(T) + " shift (<<, >>)"});
    V.push_back({std::string(T) + ".bit", std::string(T) + " bitwise and/or/xor/not"});
  }
  for (const char *T : {"f32", "f64"}) {
    std::string S = T;
    V.push_back({S + ".sqrt", S + " square root (sqrt, sqrtf)"});
    V.push_back({S + ".exp", S + " exponential (exp, exp2, expm1)"});
    V.push_back({S + ".log", S + " logarithm (log, log2, log10, log1p)"});
    V.push_back({S + ".trig", S + " sin, cos, tan and their inverses"});
    V.push_back({S + ".pow", S + " power (pow)"});
    V.push_back({S + ".libm", S + " other libm functions (tanh, cbrt, erf, hypot, ...)"});
  }
  V.push_back({"cvt.i2f", "conversion integer -> floating"});
  V.push_back({"cvt.f2i", "conversion floating -> integer"});
  V.push_back({"cvt.f2f", "conversion float <-> double"});
  V.push_back({"cvt.i2i", "conversion between integer widths"});
  V.push_back({"loop", "one iteration of a loop: test, increment, back branch"});
  V.push_back({"if", "one conditional branch: if, ?:, one operand of && or ||"});
  V.push_back({"switch", "one switch dispatch"});
  V.push_back({"call", "call and return of a function defined in the program"});
  V.push_back({"mem.local.read", "read of a local scalar variable or parameter"});
  V.push_back({"mem.local.write", "assignment to a local scalar variable"});
  V.push_back({"mem.global.read", "read of a global or static scalar variable"});
  V.push_back({"mem.global.write", "assignment to a global or static scalar variable"});
  V.push_back({"mem.array.read", "read of an array element or through a pointer"});
  V.push_back({"mem.array.write", "assignment to an array element or through a pointer"});
  V.push_back({"mem.copy.byte", "one byte moved by memcpy/memmove/memset"});
  return V;
}
} // namespace

const std::vector<Construct> &hllcVocabulary() {
  static const std::vector<Construct> V = buildHllc();
  return V;
}

bool isHllcConstruct(const std::string &Name) {
  static const std::set<std::string> S = [] {
    std::set<std::string> R;
    for (auto &C : hllcVocabulary())
      R.insert(C.Name);
    return R;
  }();
  return S.count(Name) != 0;
}

double mcmahonWeight(const std::string &C) {
  if (C.size() < 5 || (C.compare(0, 4, "f32.") != 0 && C.compare(0, 4, "f64.") != 0))
    return 0;
  std::string Op = C.substr(4);
  if (Op == "add" || Op == "sub" || Op == "mul" || Op == "cmp")
    return 1;
  if (Op == "div" || Op == "sqrt")
    return 4;
  if (Op == "exp" || Op == "log" || Op == "trig" || Op == "pow" || Op == "libm")
    return 8;
  return 0; // abs: not in Warwick-94 Table 1
}

std::string intccKey(const std::string &Operation, const std::string &Qualifier) {
  return Qualifier.empty() ? Operation : Operation + "." + Qualifier;
}

std::string mathLibraryConstruct(const std::string &F) {
  static const std::map<std::string, std::string> Ops = {
      {"sqrt", "sqrt"},  {"fabs", "abs"},   {"exp", "exp"},    {"exp2", "exp"},
      {"expm1", "exp"},  {"log", "log"},    {"log2", "log"},   {"log10", "log"},
      {"log1p", "log"},  {"sin", "trig"},   {"cos", "trig"},   {"tan", "trig"},
      {"asin", "trig"},  {"acos", "trig"},  {"atan", "trig"},  {"atan2", "trig"},
      {"pow", "pow"},    {"tanh", "libm"},  {"sinh", "libm"},  {"cosh", "libm"},
      {"cbrt", "libm"},  {"erf", "libm"},   {"erfc", "libm"},  {"hypot", "libm"},
      {"fmod", "libm"}};
  if (F == "abs")
    return "i32.abs";
  if (F == "labs" || F == "llabs")
    return "i64.abs";
  std::string Base = F;
  const char *Type = "f64.";
  if (Ops.find(F) == Ops.end() && !F.empty() && (F.back() == 'f' || F.back() == 'l')) {
    Base = F.substr(0, F.size() - 1);
    if (F.back() == 'f')
      Type = "f32.";
  }
  if (F.compare(0, 10, "__builtin_") == 0)
    return mathLibraryConstruct(F.substr(10));
  auto It = Ops.find(Base);
  if (It == Ops.end())
    return "";
  return Type + It->second;
}

} // namespace segtime
