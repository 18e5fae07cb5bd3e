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

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace segtime {

/// Any failure of a calibration step; calibrateMain turns it into exit status 2.
struct CalibError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The outcome of runProgram.
struct RunResult {
  int ExitCode = -1; ///< valid if !Signal && !TimedOut
  int Signal = 0;
  bool TimedOut = false;
  std::string Out, Err;
  bool ok() const { return !TimedOut && !Signal && ExitCode == 0; }
  /// "exit status N", "killed by signal N (NAME)" or "timed out".
  std::string status() const;
};

/// Runs Argv (Argv[0] a path) with stdin from /dev/null and stdout and stderr
/// to Dir/Tag.out and Dir/Tag.err, which are read back into the result; kills
/// it after TimeoutS seconds. Throws CalibError if it cannot be started.
RunResult runProgram(const std::vector<std::string> &Argv, const std::filesystem::path &Dir,
                     const std::string &Tag, double TimeoutS);

/// Argv joined by spaces, for messages.
std::string commandLine(const std::vector<std::string> &Argv);

/// The whole content of the file Path ("" if it cannot be read).
std::string slurp(const std::string &Path);

/// The last Max characters of S, marked "[...]" if cut.
std::string tail(const std::string &S, size_t Max = 6000);

/// "…", the progress lines' ellipsis.
inline std::string ellipsis() { return "\xE2\x80\xA6"; }

} // namespace segtime

#endif
