//===- LevelUnit.h - What one characterisation level is ---------*- C++ -*-===//
///
/// \file
/// One characterisation level (Warwick-94 §3.3) as one unit: a LevelUnit
/// says what differs from level to level -- how its resource model is made
/// from a machine's cost vector, whether its cost vectors are per target,
/// how its loops take the memory term, its cost groups, how `segtime
/// calibrate` measures it and what the machine file says of it, what the
/// report adds to its time. One implementation per level, in this folder
/// (PocUnit.cpp, HllcUnit.cpp, IntccUnit.cpp, IccUnit.cpp, CtUnit.cpp),
/// registered in LevelRegistry.cpp; the code that used to ask "which level
/// is this?" asks the unit (design.md §5).
///
/// What the plugin writes stays in core/Vocabulary.h, because the plugin does
/// not link the predictor: the enum, the JSON key (levelKey), the
/// vocabularies, the RUV key rule (ruvKey) and irLevel. A unit reads them
/// from there.
///
/// Adding a level: its enum value and key (core/Vocabulary.*), one class
/// deriving from UnitOf<its Level> here, one line in LevelRegistry.cpp.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PREDICTOR_LEVELS_LEVELUNIT_H
#define SEGTIME_PREDICTOR_LEVELS_LEVELUNIT_H

#include "core/Vocabulary.h"

#include <map>
#include <memory>
#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace segtime {

struct Machine;
class ResourceModel;

/// What a level's resource model is made from.
struct ModelRequest {
  const Machine &M;
  std::string Opt;    ///< the SEG's optimisation level ("O2")
  std::string Target; ///< the ICC target ("" where the level has none)
  /// Parameters whose values are measured or given (ICCModel::setKnownOutcomes).
  std::set<std::string> KnownOutcomes;
};

/// How a level's loops take the memory term (predictor/LoopModels.cpp,
/// docs/models.md).
enum class MemoryTerm {
  None,        ///< no memory term (POC: flop only)
  SourceLoops, ///< a source loop adds the memory time of the IR nests attributed to it (HLLC)
  IrNests,     ///< each IR loop nest adds its own (INTCC, ICC)
};

/// How `segtime calibrate` (tools/calib/CalibRun.h) measures a level's cost
/// vector. The calibration code lives in tools/ (it runs compilers and
/// benchmark programs); the unit gives it the rule, tools/calib applies it.
enum class CalibFit {
  None,     ///< no cost vector (CT)
  FlopRate, ///< R_fpu: total flop / total time of the POC kernels (solvePoc)
  /// Least squares over the construct benchmarks, then the training-set fit
  /// (solveCosts, fitTraining).
  Costs,
  Clock, ///< the core clock and the misprediction penalty (CalibIcc.cpp)
};

/// The columns of a CalibFit::Costs least-squares fit.
enum class FitColumns {
  /// One per entry of the level's vocabulary, each isolated by its own
  /// construct benchmark (HLLC).
  Vocabulary,
  /// One per operation class the benchmarks execute (fitClass); only the
  /// classes executed in the benchmarks' repeated loops are fitted, with the
  /// minimum-norm solution for collinear columns, and "*" (the median of the
  /// fitted classes) costs the others (INTCC).
  ExecutedClasses,
};

/// One characterisation level. Instances are singletons (levelUnit).
class LevelUnit {
public:
  virtual ~LevelUnit() = default;
  virtual Level level() const = 0;
  /// The level's key ("POC", "HLLC", "INTCC", "ICC", "CT"; core levelKey).
  std::string key() const { return levelKey(level()); }

  // --- Cost vectors and the resource model

  /// Whether machine files have cost vectors of it and `segtime predict`
  /// a resource model (POC, HLLC, INTCC, ICC; not CT, which is measured).
  virtual bool costed() const { return true; }
  /// Whether its cost vectors are per ICC target (the variant names a target
  /// CPU, and a prediction chooses one) rather than per optimisation level.
  virtual bool perTarget() const { return false; }
  /// Whether its cost vector's unit is a rate (POC's Mflop/s) rather than a
  /// time per operation (s, ms, us, ns).
  virtual bool costIsRate() const { return false; }
  /// What one entry of its cost vector is called in messages.
  virtual const char *entryWord() const { return "operation"; }
  /// Its resource model (predictor/ResourceModel.h). Throws
  /// std::invalid_argument if it has none or the request lacks what it
  /// needs (an ICC target), std::runtime_error for missing machine data.
  virtual std::unique_ptr<ResourceModel> makeModel(const ModelRequest &R) const;
  /// Whether machine M has a cost vector of it (for Target where perTarget).
  virtual bool machineHas(const Machine &M, const std::string &Target) const;

  // --- Loops and memory

  virtual MemoryTerm memoryTerm() const { return MemoryTerm::None; }
  /// Whether the memory term is part of its model, so that missing memory
  /// numbers are noted (ICC); the others are then their cost vectors alone,
  /// as on the T800.
  virtual bool memoryTermInModel() const { return false; }

  // --- Training-set fit (predictor/CostFit.h)

  /// The groups of cost keys whose multipliers the training-set fit fits.
  /// Throws std::invalid_argument for a level without groups.
  virtual const std::vector<std::string> &costGroups() const;
  /// The group (one of costGroups()) of cost key Key. Throws like costGroups.
  virtual std::string costGroup(const std::string &Key) const;

  // --- Calibration (tools/calib)

  virtual CalibFit calibFit() const { return CalibFit::None; }
  /// For CalibFit::Costs: the columns of the fit.
  virtual FitColumns fitColumns() const { return FitColumns::Vocabulary; }
  /// For FitColumns::ExecutedClasses: the class operation Op is fitted in.
  virtual std::string fitClass(const std::string &Op) const { return Op; }
  /// The entries of its closed vocabulary (HLLC's constructs, POC's flop),
  /// which every calibrated variant must have and FitColumns::Vocabulary
  /// fits; empty for an open vocabulary (INTCC, ICC).
  virtual std::vector<std::string> vocabulary() const { return {}; }
  /// Comment lines (without "# ") the machine writer puts under the level's
  /// key in the `levels` section.
  virtual std::vector<std::string> machineFileComments() const { return {}; }

  // --- The report (predictor/Predict.h, PredictView.cpp)

  /// Counts reported even when zero (POC: "flop").
  virtual std::vector<std::string> alwaysCounted() const { return {}; }
  /// Prints what follows the level's time in `segtime predict`'s text
  /// report, from its counts ("   (1024 flop)"); nothing by default.
  virtual void printCounts(std::ostream &OS, const std::map<std::string, double> &Counts,
                           const std::string &Target) const;
  /// Whether `--breakdown` (the ECM breakdown of its loop nests) applies.
  virtual bool hasBreakdown() const { return false; }
};

/// The base of level L's unit: its level() is L.
template <Level L> class UnitOf : public LevelUnit {
public:
  Level level() const final { return L; }
};

/// The one instance of unit class U, which each unit's accessor (pocUnit,
/// ..., registered in LevelRegistry.cpp) returns.
template <typename U> const LevelUnit &unitInstance() {
  static const U Instance;
  return Instance;
}

/// The unit of level L. Throws std::invalid_argument naming the level if it
/// has none (DBC: hand-written graphs).
const LevelUnit &levelUnit(Level L);
/// The registered units, in registration order (POC, HLLC, INTCC, ICC, CT:
/// from the least to the most detailed costed level).
const std::vector<const LevelUnit *> &levelUnits();
/// Whether L has a unit that is costed (LevelUnit::costed).
bool costedLevel(Level L);
/// The costed levels, the most detailed first (ICC, INTCC, HLLC, POC): the
/// order in which a single figure is chosen and the report's columns.
std::vector<Level> costedLevelsMostDetailedFirst();
/// The keys of the costed levels, in registration order, joined by ", ".
std::string costedLevelKeys();

} // namespace segtime

#endif
