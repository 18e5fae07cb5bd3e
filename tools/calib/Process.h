//===- Process.h - Running programs for `segtime calibrate` ------*- C++ -*-===//
///
/// \file
/// The process runner and small text helpers shared by the calibration
/// parts (tools/Calibrate.cpp, tools/calib/LowLevel.cpp): run a program with
/// its output captured to files and a time limit, and CalibError, the one
/// error type of a calibration step.
///
/// USAGE:
///   RunResult R = runProgram({"/usr/bin/clang", "--version"}, Dir, "cc", 30);
///   if (!R.ok()) throw CalibError("failed (" + R.status() + ")\n" + tail(R.Err));
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_TOOLS_CALIB_PROCESS_H
#define SEGTIME_TOOLS_CALIB_PROCESS_H

#include "tools/Process.h"

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace segtime {

/// Any failure of a calibration step; calibrateMain turns it into exit status 2.
struct CalibError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The outcome of runProgram (tools/Process.h).
using RunResult = ProcessResult;

/// Runs Argv (Argv[0] a path) with stdin from /dev/null and stdout and stderr
/// to Dir/Tag.out and Dir/Tag.err, which are read back into the result; kills
/// it (and its process group) after TimeoutS seconds. Throws CalibError if it
/// cannot be started.
RunResult runProgram(const std::vector<std::string> &Argv, const std::filesystem::path &Dir,
                     const std::string &Tag, double TimeoutS);

} // namespace segtime

#endif
