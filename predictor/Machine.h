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
  /// Level key ("POC", "HLLC", ...) -> variant ("O0", "O2", "any") -> vector.
  std::map<std::string, std::map<std::string, CostVector>> Levels;

  /// Cost vector of Level for optimisation level Opt ("O2"): the variant
  /// Opt, else "any". Throws std::runtime_error listing the variants known.
  const CostVector &vector(const std::string &Level, const std::string &Opt) const;
  /// True if vector(Level, Variant) would find a cost vector.
  bool has(const std::string &Level, const std::string &Variant) const;
};

/// Parses a machine file. Throws MachineFileError with file, line, column.
Machine readMachine(const std::string &Path);

/// Resolves NAME|PATH: an existing path, else costvectors/NAME.yaml in the
/// current directory, then in the source tree. Throws std::runtime_error
/// listing the machines found.
std::string findMachine(const std::string &NameOrPath);

/// Names of the machines in the shipped costvectors/ folder.
std::vector<std::string> knownMachines();

} // namespace segtime

#endif
