//===- Machine.h - Machine files: cost vectors with provenance ---*- C++ -*-===//
///
/// \file
/// A machine file (design.md §4, costvectors/*.yaml, schema
/// "segtime.machine/1", documented in costvectors/README.md) gives, per
/// characterisation level and per variant (the optimisation level the numbers
/// were measured at: "O0", "O2", or "any"), a cost vector: operation -> value
/// with a unit and provenance (measured / paper / datasheet / estimated /
/// derived). A missing value is an error naming machine, level and
/// operation; it is never read as zero.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PREDICTOR_MACHINE_H
#define SEGTIME_PREDICTOR_MACHINE_H

#include "core/Vocabulary.h"

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace segtime {

/// An error in a machine file; what() is "FILE:LINE:COL: message".
struct MachineFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// One number of a machine file.
struct CostEntry {
  double Value = 0;    ///< in the section's unit
  std::string Provenance; ///< measured | paper | datasheet | estimated | derived
  std::string Ref;     ///< reference or basis (paper + table, benchmark name, ...)
  std::optional<double> Spread; ///< relative spread (max-min)/median over repeats
  int Line = 0;        ///< line in the file, for messages
  /// Unit of this entry: set for model parameters (Machine::Params, e.g.
  /// "s", "B", "B/s", "Mflop/s", "flop", "1"); cost-vector entries use the
  /// vector's unit and leave it empty.
  std::string Unit;

  /// An entry with its own unit (a model parameter, Machine::Params).
  static CostEntry of(double Value, const std::string &Unit, const std::string &Provenance,
                      const std::string &Ref, std::optional<double> Spread = std::nullopt) {
    return CostEntry{Value, Provenance, Ref, Spread, /*Line=*/0, Unit};
  }
};

/// One cost vector: operation -> entry, all in Unit.
struct CostVector {
  std::string Unit; ///< "s", "ms", "us", "ns" (time per operation) or "Mflop/s"
  std::map<std::string, CostEntry> Costs;
  /// Value of Op converted to seconds (or to flop/s for Mflop/s).
  /// Throws std::out_of_range if absent.
  double si(const std::string &Op) const;
};

/// A machine: identity plus per level, per variant cost vectors.
struct Machine {
  std::string Name, Description, Path;
  std::map<std::string, std::string> Identity; ///< clock, cores, triple, ...
  /// Level (POC, HLLC, INTCC, ICC) -> variant ("O0", "O2", "any") -> vector.
  LevelMap<std::map<std::string, CostVector>> Levels;

  /// Cost vector of level L for optimisation level Opt ("O2"): the variant
  /// Opt, else "any". Throws std::runtime_error listing the variants known.
  const CostVector &vector(Level L, const std::string &Opt) const;
  /// True if vector(L, Variant) would find a cost vector.
  bool has(Level L, const std::string &Variant) const;

  /// Model parameters outside the levels' cost vectors, from the top-level
  /// sections `parkbench` (PARKBENCH-93 low-level results: TICK1, TICK2,
  /// RINF1, POLY1/2), `memory` (cache sizes and bandwidths) and `comm`
  /// (communication models). Nested mappings become dotted keys
  /// ("memory.L1.bandwidth"); every leaf is an entry with value, unit and
  /// provenance.
  std::map<std::string, CostEntry> Params;
  /// The parameter Key, or nullptr.
  const CostEntry *param(const std::string &Key) const;
  /// Value of parameter Key; throws std::runtime_error naming the machine
  /// file and the key if it is absent.
  double paramValue(const std::string &Key) const;
  /// Keys of Params starting with Prefix (e.g. "comm.hockney.").
  std::vector<std::string> paramKeys(const std::string &Prefix) const;
};

/// S as a double-quoted YAML scalar.
std::string yamlQuote(const std::string &S);
/// V with Digits significant digits, fixed notation for ordinary magnitudes
/// (1e-4 <= |V| < 1e9), else %g.
std::string yamlNumber(double V, int Digits = 4);

/// Top-level sections of a machine file that hold Machine::Params.
const std::vector<std::string> &paramSections();

/// One parameter to write: dotted key below its section, and its entry
/// (Unit and Provenance required).
using ParamList = std::vector<std::pair<std::string, CostEntry>>;

/// YAML text of top-level section Section ("parkbench", "memory", "comm")
/// holding Params (keys relative to the section, dotted = nested), in the
/// flow style the shipped files use, preceded by the comment lines Comments
/// (without "# "). Ends with a newline.
std::string paramsSectionYaml(const std::string &Section, const ParamList &Params,
                              const std::vector<std::string> &Comments = {});

/// Replaces top-level section Section of the YAML text Text with NewSection
/// (the full text of the section, its key line and any comment lines just
/// above it included), or appends it if Text has no such section. Comment
/// lines directly above the old section's key line are replaced too.
std::string spliceSection(const std::string &Text, const std::string &Section,
                          const std::string &NewSection);

/// Writes section Section into the machine file Path (spliceSection), then
/// re-reads the file to check it; throws std::runtime_error (cannot read or
/// write) or MachineFileError (the result does not parse).
void updateMachineFile(const std::string &Path, const std::string &Section,
                       const std::string &NewSection);

/// Parses a machine file. Throws MachineFileError with file, line, column.
Machine readMachine(const std::string &Path);

/// Resolves NAME|PATH: an existing path, else NAME.yaml in the first
/// directory of machineSearchPath() (Install.h) that has it. Throws
/// std::runtime_error listing the machines found and the directories searched.
std::string findMachine(const std::string &NameOrPath);

/// Names of the machines in machineSearchPath(), sorted, each once.
std::vector<std::string> knownMachines();

} // namespace segtime

#endif
