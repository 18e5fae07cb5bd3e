//===- Process.cpp - Running programs for `segtime calibrate` -------------===//
///
/// \file
/// runProgram: tools/Process.h's runner with calibration's file names and
/// error type (see Process.h).
///
//===----------------------------------------------------------------------===//
#include "tools/calib/Process.h"

namespace fs = std::filesystem;

namespace segtime {

RunResult runProgram(const std::vector<std::string> &Argv, const fs::path &Dir,
                     const std::string &Tag, double TimeoutS) {
  try {
    return runProcess(Argv, (Dir / (Tag + ".out")).string(), (Dir / (Tag + ".err")).string(),
                      TimeoutS);
  } catch (const std::runtime_error &E) {
    throw CalibError(E.what());
  }
}

} // namespace segtime
