//===- Process.h - Running child programs with time-outs; sample stats ---*- C++ -*-===//
///
/// \file
/// Helpers the segtime subcommands share: running a program with its output
/// captured and a time-out that kills its whole process group (so an mpirun
/// and the ranks it started all go), finding a program in PATH, and text
/// helpers for messages. (Statistics of repeated timings: predictor/Parkbench.h
/// median, relSpread.)
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_TOOLS_PROCESS_H
#define SEGTIME_TOOLS_PROCESS_H

#include <optional>
#include <string>
#include <vector>

namespace segtime {

/// How a child program ended, with its output.
struct ProcessResult {
  int ExitCode = -1; ///< valid if !Signal && !TimedOut
  int Signal = 0;
  bool TimedOut = false;
  std::string Out, Err;
  bool ok() const { return !TimedOut && !Signal && ExitCode == 0; }
  /// "exit status 1", "killed by signal 9 (Killed)", "timed out after 30 s".
  std::string status() const;
  double TimeoutS = 0;
};

/// Runs Argv (Argv[0] a path) in a new process group, stdin from /dev/null,
/// stdout and stderr to OutFile and ErrFile (read back into the result).
/// After TimeoutS seconds the group gets SIGTERM, 2 s later SIGKILL.
/// Throws std::runtime_error if the program cannot be started.
ProcessResult runProcess(const std::vector<std::string> &Argv, const std::string &OutFile,
                         const std::string &ErrFile, double TimeoutS);

/// The full path of executable Name found in $PATH (or Name itself if it
/// contains a '/' and is executable), else nothing.
std::optional<std::string> findInPath(const std::string &Name);

/// Argv joined by spaces, for messages.
std::string commandLine(const std::vector<std::string> &Argv);

/// Makes formula text the same from run to run: GiNaC orders the terms of
/// sums and products by hashes seeded with the addresses of its type names
/// (ginac/hash_seed.h), which address-space layout randomisation moves, so
/// which sums a formula shares and the signs they are written with would
/// change between two runs of one command. Re-executes the program
/// (/proc/self/exe, same Argv and environment) once with randomisation off
/// (personality ADDR_NO_RANDOMIZE, as ThreadSanitizer's runtime does); returns
/// without doing anything if it is already off, or if the system refuses the
/// personality or the exec (a seccomp filter, no /proc): the values do not
/// depend on it (docs/cli.md "Deterministic output").
void fixAddressLayout(char **Argv);

/// The whole content of the file Path ("" if it cannot be read).
std::string slurp(const std::string &Path);
/// The last Max characters of S, marked "[...]" if cut.
std::string tail(const std::string &S, size_t Max = 6000);
/// "…", the progress lines' ellipsis.
inline std::string ellipsis() { return "\xE2\x80\xA6"; }

} // namespace segtime

#endif
