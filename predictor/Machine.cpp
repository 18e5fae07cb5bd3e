//===- Machine.cpp - Machine files: cost vectors with provenance ----------===//
#include "predictor/Machine.h"
#include "predictor/Install.h"
#include "predictor/levels/LevelUnit.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <yaml-cpp/yaml.h>

namespace fs = std::filesystem;

namespace segtime {

static MachineFileError err(const std::string &Path, const YAML::Mark &M,
                            const std::string &Msg) {
  return MachineFileError(Path + ":" + std::to_string(M.line + 1) + ":" +
                          std::to_string(M.column + 1) + ": " + Msg);
}

static double unitScale(const std::string &U) {
  if (U == "s") return 1;
  if (U == "ms") return 1e-3;
  if (U == "us" || U == "µs") return 1e-6;
  if (U == "ns") return 1e-9;
  if (U == "Mflop/s") return 1e6;
  return 0;
}

double CostVector::si(const std::string &Op) const {
  auto It = Costs.find(Op);
  if (It == Costs.end())
    throw std::out_of_range(Op);
  return It->second.Value * unitScale(Unit);
}

bool Machine::has(Level Lv, const std::string &Variant) const {
  auto L = Levels.find(Lv);
  return L != Levels.end() && (L->second.count(Variant) || L->second.count("any"));
}

const CostVector &Machine::vector(Level Lv, const std::string &Opt) const {
  const std::string Level = levelKey(Lv);
  auto L = Levels.find(Lv);
  if (L == Levels.end()) {
    std::string Known;
    for (auto &[K, V] : Levels)
      Known += (Known.empty() ? "" : ", ") + levelKey(K);
    throw std::runtime_error("machine '" + Name + "' has no " + Level +
                             " section (it has: " + Known + ")");
  }
  for (const std::string &V : {Opt, std::string("any")}) {
    auto It = L->second.find(V);
    if (It != L->second.end())
      return It->second;
  }
  std::string Known;
  for (auto &[K, V] : L->second)
    Known += (Known.empty() ? "" : ", ") + K;
  throw std::runtime_error("machine '" + Name + "' has no " + Level +
                           " cost vector for -" + Opt + " (variants: " + Known + ")");
}

/// Warns about a key of mapping N that is not in Known (a typo such as
/// `provenence` would otherwise be dropped without a word).
static void warnUnknownKeys(const std::string &Path, const YAML::Node &N,
                            std::initializer_list<const char *> Known, const std::string &Where) {
  for (auto It : N) {
    std::string K = It.first.Scalar();
    if (std::none_of(Known.begin(), Known.end(), [&](const char *X) { return K == X; })) {
      std::string List;
      for (const char *X : Known)
        List += (List.empty() ? "" : ", ") + std::string(X);
      const YAML::Mark M = It.first.Mark();
      std::cerr << "segtime: warning: " << Path << ":" << M.line + 1 << ":" << M.column + 1
                << ": " << Where << ": unknown key '" << K << "' ignored (expected " << List
                << ")\n";
    }
  }
}

/// The scalar N as text; Key names it in the error.
static std::string scalar(const std::string &Path, const YAML::Node &N, const std::string &Key) {
  if (!N.IsScalar())
    throw err(Path, N.Mark(), "'" + Key + "': expected a single value (a scalar), got " +
                                  (N.IsMap() ? "a mapping" : N.IsSequence() ? "a list" : "nothing"));
  return N.Scalar();
}

/// The number N (finite); Key names it in the error.
static double number(const std::string &Path, const YAML::Node &N, const std::string &Key) {
  double V;
  try {
    V = N.as<double>();
  } catch (const YAML::Exception &) {
    throw err(Path, N.Mark(), "'" + Key + "': expected a number, got '" +
                                  (N.IsScalar() ? N.Scalar() : std::string("a non-scalar")) + "'");
  }
  if (!std::isfinite(V))
    throw err(Path, N.Mark(), "'" + Key + "': expected a finite number, got '" + N.Scalar() + "'");
  return V;
}

/// Reads one entry {value, provenance, ref, spread[, unit]}; Key (the
/// operation or dotted parameter) names it in messages. The value is
/// finite; its sign is checked by the caller, which knows the unit.
static CostEntry readEntry(const std::string &Path, const YAML::Node &N, const std::string &Key,
                           bool WithUnit = false) {
  CostEntry E;
  E.Line = N.Mark().line + 1;
  if (N.IsScalar()) {
    throw err(Path, N.Mark(), "'" + Key + "': expected a mapping {value, provenance, ...}, got a "
                              "bare number: every number needs its provenance");
  }
  if (!N.IsMap())
    throw err(Path, N.Mark(), "'" + Key + "': expected a mapping {value, provenance, ...}");
  if (WithUnit)
    warnUnknownKeys(Path, N, {"value", "unit", "provenance", "ref", "spread"}, "'" + Key + "'");
  else
    warnUnknownKeys(Path, N, {"value", "provenance", "ref", "spread"}, "'" + Key + "'");
  if (!N["value"])
    throw err(Path, N.Mark(), "'" + Key + "': missing 'value'");
  E.Value = number(Path, N["value"], Key + ".value");
  if (!N["provenance"])
    throw err(Path, N.Mark(), "'" + Key + "': missing 'provenance' (measured, paper, datasheet, "
                              "estimated, derived)");
  E.Provenance = scalar(Path, N["provenance"], Key + ".provenance");
  static const char *Kinds[] = {"measured", "paper", "datasheet", "estimated", "derived"};
  bool Ok = false;
  for (const char *K : Kinds)
    Ok |= E.Provenance == K;
  if (!Ok)
    throw err(Path, N["provenance"].Mark(),
              "'" + Key + "': provenance must be one of measured, paper, datasheet, estimated, "
                          "derived, got '" + E.Provenance + "'");
  if (N["ref"])
    E.Ref = scalar(Path, N["ref"], Key + ".ref");
  if (N["spread"]) {
    E.Spread = number(Path, N["spread"], Key + ".spread");
    if (*E.Spread < 0)
      throw err(Path, N["spread"].Mark(), "'" + Key + ".spread': expected a relative spread >= 0, "
                                          "got " + N["spread"].Scalar());
  }
  return E;
}

const std::vector<std::string> &paramSections() {
  static const std::vector<std::string> S = {"parkbench", "memory", "comm", "library"};
  return S;
}

const CostEntry *Machine::param(const std::string &Key) const {
  auto It = Params.find(Key);
  return It == Params.end() ? nullptr : &It->second;
}

double Machine::paramValue(const std::string &Key) const {
  if (const CostEntry *E = param(Key))
    return E->Value;
  throw std::runtime_error("machine '" + Name + "' (" + Path + ") has no parameter '" + Key +
                           "'" + (Key.find("memory.") == 0 || Key.find("parkbench.") == 0
                                      ? " (measure it with `segtime calibrate`)"
                                  : Key.find("library.") == 0
                                      ? " (measure it with `segtime calibrate --level library`)"
                                  : Key.find("comm.") == 0
                                      ? " (measure it with `segtime comm calibrate`)"
                                      : ""));
}

std::vector<std::string> Machine::paramKeys(const std::string &Prefix) const {
  std::vector<std::string> R;
  for (auto It = Params.lower_bound(Prefix); It != Params.end() && It->first.compare(0, Prefix.size(), Prefix) == 0; ++It)
    R.push_back(It->first);
  return R;
}

/// The unit a memory parameter must have, by the last part of its key
/// ("size_effective" -> "B"), or "" if the key is not one the memory term
/// reads.
static std::string memoryUnit(const std::string &Key) {
  std::string Last = Key.substr(Key.rfind('.') + 1);
  if (Last.rfind("size", 0) == 0 || Last == "line_size")
    return "B";
  if (Last.rfind("bandwidth", 0) == 0)
    return "B/s";
  if (Last == "latency")
    return "s";
  if (Last == "ways")
    return "ways";
  return "";
}

/// Limits of a parameter section: nesting depth and number of entries. An
/// alias (*a) of YAML repeats a whole subtree, so a few lines of aliases of
/// aliases stand for billions of nodes; the limits stop the walk long before.
static constexpr int MaxParamDepth = 8;
static constexpr size_t MaxParams = 100000;

/// Reads the nested mappings of a parameter section into M.Params: a mapping
/// with a `value` key is an entry (its `unit` is required), any other
/// mapping nests one level deeper. Values are finite; memory parameters
/// (sizes, ways, latencies, bandwidths) and parkbench rates are > 0 and in
/// their unit; comm parameters may be negative (fitted intercepts such as
/// LogGP's L, docs/comm.md).
static void readParams(const std::string &Path, const YAML::Node &N, const std::string &Key,
                       Machine &M, int Depth = 0) {
  if (!N.IsMap())
    throw err(Path, N.Mark(), "'" + Key + "': expected a mapping (a nested section, or an entry "
                              "{value, unit, provenance, ...})");
  if (Depth > MaxParamDepth)
    throw err(Path, N.Mark(), "'" + Key + "': nested more than " + std::to_string(MaxParamDepth) +
                                  " levels deep (a YAML alias that contains itself?)");
  if (N["value"]) {
    CostEntry E = readEntry(Path, N, Key, true);
    if (!N["unit"])
      throw err(Path, N.Mark(), "'" + Key + "': missing 'unit' (s, B, B/s, Mflop/s, ...)");
    E.Unit = scalar(Path, N["unit"], Key + ".unit");
    bool Memory = Key.rfind("memory.", 0) == 0;
    std::string Want = Memory ? memoryUnit(Key) : "";
    if (Key.rfind("library.", 0) == 0) // library.F.per_call (s), library.F.per_B (s/B)
      Want = Key.size() > 6 && Key.compare(Key.size() - 6, 6, ".per_B") == 0 ? "s/B" : "s";
    if (!Want.empty() && E.Unit != Want)
      throw err(Path, N["unit"].Mark(), "'" + Key + "': unit must be '" + Want + "', got '" +
                                            E.Unit + "'");
    bool Rate = E.Unit == "B/s" || E.Unit == "Mflop/s";
    if ((Memory || (Rate && Key.rfind("comm.", 0) != 0)) && E.Value <= 0)
      throw err(Path, N["value"].Mark(), "'" + Key + "': expected a value > 0 (" + E.Unit +
                                             "), got " + N["value"].Scalar());
    if (M.Params.size() >= MaxParams)
      throw err(Path, N.Mark(), "more than " + std::to_string(MaxParams) +
                                    " parameters (YAML aliases repeating a section?)");
    M.Params[Key] = std::move(E);
    return;
  }
  for (auto It : N)
    readParams(Path, It.second, Key + "." + scalar(Path, It.first, Key + " key"), M, Depth + 1);
}

/// readMachine without the catch of yaml-cpp's conversion errors.
static Machine readMachineChecked(const std::string &Path, const YAML::Node &Root) {
  if (!Root.IsMap())
    throw MachineFileError(Path + ":1:1: expected a mapping at the top level");
  warnUnknownKeys(Path, Root,
                  {"schema", "name", "version", "description", "identity", "levels", "parkbench",
                   "memory", "comm", "library"},
                  "top level");
  if (!Root["schema"] || scalar(Path, Root["schema"], "schema") != "segtime.machine/1")
    throw err(Path, Root["schema"] ? Root["schema"].Mark() : Root.Mark(),
              "expected 'schema: segtime.machine/1'");
  Machine M;
  M.Path = Path;
  if (!Root["name"])
    throw err(Path, Root.Mark(), "missing 'name'");
  M.Name = scalar(Path, Root["name"], "name");
  if (Root["description"])
    M.Description = scalar(Path, Root["description"], "description");
  if (Root["identity"]) {
    if (!Root["identity"].IsMap())
      throw err(Path, Root["identity"].Mark(), "'identity' must be a mapping");
    for (auto It : Root["identity"])
      if (It.second.IsScalar())
        M.Identity[scalar(Path, It.first, "identity key")] = It.second.Scalar();
  }
  YAML::Node Levels = Root["levels"];
  if (!Levels || !Levels.IsMap())
    throw err(Path, Levels ? Levels.Mark() : Root.Mark(), "missing 'levels' mapping");
  for (auto L : Levels) {
    std::string LevelName = scalar(Path, L.first, "level");
    segtime::Level Lv;
    if (!parseLevel(LevelName, Lv) || LevelName != levelKey(Lv) || !costedLevel(Lv))
      throw err(Path, L.first.Mark(),
                "unknown level '" + LevelName + "' (expected " + costedLevelKeys() + ")");
    const LevelUnit &Unit = levelUnit(Lv);
    if (!L.second.IsMap())
      throw err(Path, L.second.Mark(), "level " + LevelName + ": expected a mapping with 'variants'");
    warnUnknownKeys(Path, L.second, {"variants"}, "level " + LevelName);
    YAML::Node Variants = L.second["variants"];
    if (!Variants || !Variants.IsMap())
      throw err(Path, L.second.Mark(), "level " + LevelName + ": missing 'variants' mapping");
    for (auto V : Variants) {
      CostVector CV;
      std::string Var = scalar(Path, V.first, "variant");
      if (!V.second.IsMap() || !V.second["unit"])
        throw err(Path, V.second.Mark(), "variant '" + Var +
                                             "': missing 'unit' (s, ms, us, ns, Mflop/s)");
      warnUnknownKeys(Path, V.second, {"unit", "costs"}, "level " + LevelName + ", variant " + Var);
      CV.Unit = scalar(Path, V.second["unit"], "unit");
      if (unitScale(CV.Unit) == 0)
        throw err(Path, V.second["unit"].Mark(), "unknown unit '" + CV.Unit +
                                                     "' (expected s, ms, us, ns, Mflop/s)");
      // A rate (POC's flop rate, LevelUnit::costIsRate) is > 0; every other
      // cost is a time per operation (>= 0: a construct the compiler removes
      // costs 0).
      const bool Rate = CV.Unit == "Mflop/s";
      if (Rate != Unit.costIsRate())
        throw err(Path, V.second["unit"].Mark(),
                  "level " + LevelName + ", variant " + Var + ": unit '" + CV.Unit + "' is " +
                      (Rate ? "a rate; " + LevelName + " costs are times per operation (s, ms, us, ns)"
                            : "a time; " + LevelName + " needs a flop rate (Mflop/s)"));
      YAML::Node Costs = V.second["costs"];
      if (!Costs || !Costs.IsMap())
        throw err(Path, V.second.Mark(), "variant '" + Var + "': missing 'costs' mapping");
      for (auto C : Costs) {
        std::string Op = scalar(Path, C.first, "operation");
        CostEntry E = readEntry(Path, C.second, Op);
        if (Rate ? E.Value <= 0 : E.Value < 0)
          throw err(Path, C.second["value"].Mark(),
                    "level " + LevelName + ", variant " + Var + ", '" + Op + "': expected " +
                        (Rate ? "a rate > 0" : "a time >= 0") + " (" + CV.Unit + "), got " +
                        C.second["value"].Scalar());
        CV.Costs[Op] = std::move(E);
      }
      M.Levels[Lv][Var] = std::move(CV);
    }
  }
  for (const std::string &S : paramSections())
    if (Root[S])
      readParams(Path, Root[S], S, M);
  return M;
}

Machine readMachine(const std::string &Path) {
  YAML::Node Root;
  try {
    Root = YAML::LoadFile(Path);
  } catch (const YAML::BadFile &) {
    throw MachineFileError(Path + ": cannot open machine file");
  } catch (const YAML::ParserException &E) {
    throw err(Path, E.mark, "YAML syntax error: " + E.msg);
  }
  try {
    return readMachineChecked(Path, Root);
  } catch (const YAML::Exception &E) {
    // A conversion the checks above did not foresee: still file:line:col.
    throw err(Path, E.mark, E.msg);
  }
}

std::string yamlQuote(const std::string &S) {
  std::string R = "\"";
  for (char C : S) {
    if (C == '"' || C == '\\')
      R += '\\';
    R += C;
  }
  return R + "\"";
}

std::string yamlNumber(double V, int Digits) {
  char Buf[64];
  if (V == 0)
    return "0";
  double A = std::fabs(V);
  if (A >= 1e-4 && A < 1e9) {
    int Dec = std::max(0, Digits - 1 - static_cast<int>(std::floor(std::log10(A))));
    std::snprintf(Buf, sizeof Buf, "%.*f", Dec, V);
  } else {
    std::snprintf(Buf, sizeof Buf, "%.*g", Digits, V);
  }
  return Buf;
}

std::string paramsSectionYaml(const std::string &Section, const ParamList &Params,
                              const std::vector<std::string> &Comments) {
  std::ostringstream OS;
  for (const std::string &C : Comments)
    OS << "# " << C << "\n";
  OS << Section << ":\n";
  std::vector<std::string> Open; // the nested keys written so far
  for (const auto &[Key, E] : Params) {
    std::vector<std::string> Parts;
    std::stringstream KS(Key);
    for (std::string P; std::getline(KS, P, '.');)
      Parts.push_back(P);
    size_t Common = 0;
    while (Common < Open.size() && Common + 1 < Parts.size() && Open[Common] == Parts[Common])
      ++Common;
    Open.resize(Common);
    for (size_t I = Common; I + 1 < Parts.size(); ++I) {
      OS << std::string(2 * (I + 1), ' ') << Parts[I] << ":\n";
      Open.push_back(Parts[I]);
    }
    OS << std::string(2 * Parts.size(), ' ') << Parts.back() << ": {value: " << yamlNumber(E.Value, 6)
       << ", unit: " << yamlQuote(E.Unit) << ", provenance: " << E.Provenance;
    if (E.Spread)
      OS << ", spread: " << yamlNumber(*E.Spread, 3);
    if (!E.Ref.empty())
      OS << ", ref: " << yamlQuote(E.Ref);
    OS << "}\n";
  }
  return OS.str();
}

std::string spliceSection(const std::string &Text, const std::string &Section,
                          const std::string &NewSection) {
  std::vector<std::string> Lines;
  std::stringstream SS(Text);
  for (std::string L; std::getline(SS, L);)
    Lines.push_back(L);
  auto TopKey = [](const std::string &L) {
    return !L.empty() && L[0] != ' ' && L[0] != '#' && L[0] != '-' && L.find(':') != std::string::npos;
  };
  size_t Begin = Lines.size(), End = Lines.size();
  for (size_t I = 0; I < Lines.size(); ++I)
    if (Lines[I].rfind(Section + ":", 0) == 0) {
      Begin = I;
      End = I + 1;
      while (End < Lines.size() && !TopKey(Lines[End]))
        ++End;
      // Comment lines at the end belong to the next section.
      while (End > Begin + 1 && Lines[End - 1].rfind("#", 0) == 0)
        --End;
      while (Begin > 0 && Lines[Begin - 1].rfind("#", 0) == 0)
        --Begin;
      break;
    }
  std::string R;
  for (size_t I = 0; I < Begin; ++I)
    R += Lines[I] + "\n";
  R += NewSection;
  if (!NewSection.empty() && NewSection.back() != '\n')
    R += "\n";
  for (size_t I = End; I < Lines.size(); ++I)
    R += Lines[I] + "\n";
  return R;
}

void updateMachineFile(const std::string &Path, const std::string &Section,
                       const std::string &NewSection) {
  std::ifstream In(Path);
  if (!In)
    throw std::runtime_error(Path + ": cannot read machine file (run `segtime calibrate --out " +
                             Path + "` first)");
  std::stringstream Buf;
  Buf << In.rdbuf();
  std::string Out = spliceSection(Buf.str(), Section, NewSection);
  std::string Tmp = Path + ".tmp";
  {
    std::ofstream O(Tmp);
    if (!(O << Out))
      throw std::runtime_error(Tmp + ": cannot write");
  }
  readMachine(Tmp); // throws MachineFileError if the result is not a machine file
  fs::rename(Tmp, Path);
}

static std::vector<fs::path> machineDirs() { return machineSearchPath(); }

std::vector<std::string> knownMachines() {
  std::vector<std::string> R;
  for (const fs::path &D : machineDirs()) {
    std::error_code EC;
    for (auto &E : fs::directory_iterator(D, EC))
      if (E.path().extension() == ".yaml") {
        std::string N = E.path().stem().string();
        if (std::find(R.begin(), R.end(), N) == R.end())
          R.push_back(N);
      }
  }
  std::sort(R.begin(), R.end());
  return R;
}

std::string findMachine(const std::string &N) {
  if (fs::exists(N) && !fs::is_directory(N))
    return N;
  for (const fs::path &D : machineDirs()) {
    fs::path P = D / (N + ".yaml");
    if (fs::exists(P))
      return P.string();
  }
  std::string Known;
  for (const std::string &K : knownMachines())
    Known += (Known.empty() ? "" : ", ") + K;
  std::string Dirs;
  for (const fs::path &D : machineDirs())
    Dirs += (Dirs.empty() ? "" : ":") + D.string();
  throw std::runtime_error("no machine '" + N + "' (not a file; known machines: " + Known +
                           "; searched " + Dirs + ")");
}

} // namespace segtime
