//===- LevelRegistry.cpp - The registered levels and the defaults ---------===//
///
/// \file
/// The one list of the level units (LevelUnit.h), and what every unit shares
/// unless it says otherwise.
///
//===----------------------------------------------------------------------===//
#include "predictor/levels/LevelUnit.h"
#include "predictor/Machine.h"
#include "predictor/ResourceModel.h"

#include <stdexcept>

namespace segtime {

// Each defined in its own file of this folder.
const LevelUnit &pocUnit();
const LevelUnit &hllcUnit();
const LevelUnit &intccUnit();
const LevelUnit &iccUnit();
const LevelUnit &ctUnit();

const std::vector<const LevelUnit *> &levelUnits() {
  // From the least to the most detailed costed level, then the measured one.
  static const std::vector<const LevelUnit *> Units = {
      &pocUnit(),
      &hllcUnit(),
      &intccUnit(),
      &iccUnit(),
      &ctUnit(),
  };
  return Units;
}

const LevelUnit &levelUnit(Level L) {
  for (const LevelUnit *U : levelUnits())
    if (U->level() == L)
      return *U;
  throw std::invalid_argument("level " + levelKey(L) + " has no level unit");
}

bool costedLevel(Level L) {
  for (const LevelUnit *U : levelUnits())
    if (U->level() == L)
      return U->costed();
  return false;
}

std::vector<Level> costedLevelsMostDetailedFirst() {
  std::vector<Level> R;
  for (auto It = levelUnits().rbegin(); It != levelUnits().rend(); ++It)
    if ((*It)->costed())
      R.push_back((*It)->level());
  return R;
}

std::string costedLevelKeys() {
  std::string R;
  for (const LevelUnit *U : levelUnits())
    if (U->costed())
      R += (R.empty() ? "" : ", ") + U->key();
  return R;
}

std::unique_ptr<ResourceModel> LevelUnit::makeModel(const ModelRequest &) const {
  throw std::invalid_argument("no resource model for level " + key() +
                              " (available: " + costedLevelKeys() + ")");
}

bool LevelUnit::machineHas(const Machine &M, const std::string &) const {
  return M.Levels.count(level()) > 0;
}

const std::vector<std::string> &LevelUnit::costGroups() const {
  throw std::invalid_argument("cost groups: level '" + key() + "' has no groups of cost keys "
                              "(no training-set fit)");
}

std::string LevelUnit::costGroup(const std::string &) const {
  costGroups();
  return "";
}

void LevelUnit::printCounts(std::ostream &, const std::map<std::string, double> &,
                            const std::string &) const {}

} // namespace segtime
