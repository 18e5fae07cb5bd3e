//===- TestInputs.h - Paths of the unit tests' input files ------*- C++ -*-===//
#ifndef SEGTIME_TEST_UNIT_TESTINPUTS_H
#define SEGTIME_TEST_UNIT_TESTINPUTS_H

#include <cstdlib>
#include <string>

namespace segtime_test {

/// test/unit/Inputs (env SEGTIME_TEST_INPUTS, set by ctest; else the source tree).
inline std::string inputPath(const std::string &Name) {
  const char *Dir = std::getenv("SEGTIME_TEST_INPUTS");
  std::string D = Dir && *Dir ? Dir : std::string(SEGTIME_SOURCE_DIR) + "/test/unit/Inputs";
  return D + "/" + Name;
}

/// The shipped machine file costvectors/NAME.yaml.
inline std::string shippedMachine(const std::string &Name) {
  return std::string(SEGTIME_SOURCE_DIR) + "/costvectors/" + Name + ".yaml";
}

} // namespace segtime_test

#endif
