//===- Install.h - Where segtime's files are, installed or in a build tree -*-
//C++ -*-===//
///
/// \file
/// segtime finds its own files relative to the file its code runs from (the
/// `segtime` executable or the plugin module), never through paths compiled
/// in: an installation can be moved, and a build tree works the same way.
///
/// Layout (docs/cli.md, "Install"), PREFIX being an installation prefix or
/// a build directory:
///   PREFIX/bin/segtime
///   PREFIX/lib/segtime/segtime.so, segtime-passes.so   (build tree:
///   PREFIX/lib/) PREFIX/share/segtime/machines/*.yaml                 (build
///   tree: a link to
///                                                         the source
///                                                         costvectors/)
///   PREFIX/share/segtime/commbench/commbench.c
///
/// Machines are searched in $SEGTIME_MACHINE_PATH (a colon list), then the
/// user's data directory ($XDG_DATA_HOME/segtime/machines, by default
/// ~/.local/share/segtime/machines), then PREFIX/share/segtime/machines.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PREDICTOR_INSTALL_H
#define SEGTIME_PREDICTOR_INSTALL_H

#include <filesystem>
#include <string>
#include <vector>

namespace segtime {

/// The directory of the file this code was loaded from (the executable, or
/// the plugin module inside clang), with symbolic links resolved.
std::filesystem::path moduleDirectory();

/// PREFIX: the nearest ancestor (at most three levels up) of
/// moduleDirectory() that holds share/segtime/machines. Empty if none (a
/// binary copied out of its tree): then only the user's machines are found.
std::filesystem::path installPrefix();

/// PREFIX/share/segtime, or empty.
std::filesystem::path dataDirectory();

/// The user's segtime data directory: $XDG_DATA_HOME/segtime if
/// XDG_DATA_HOME is an absolute path, else $HOME/.local/share/segtime
/// (XDG Base Directory Specification). Empty if neither is set.
std::filesystem::path userDataDirectory();

/// userDataDirectory()/machines, or empty.
std::filesystem::path userMachineDirectory();

/// The directories searched for NAME.yaml, in order: the entries of
/// $SEGTIME_MACHINE_PATH (empty entries skipped), the user's machine
/// directory, the installed (bundled) machines.
std::vector<std::filesystem::path> machineSearchPath();

/// The clang plugin next to this installation: PREFIX/lib/segtime/segtime.so,
/// or in a build tree PREFIX/lib/segtime.so. Empty if neither exists.
std::filesystem::path pluginPath();

/// The segtime command, for the plugin's compile-time summary: $SEGTIME if
/// set and not empty (returned as given, even if it is no file: the caller
/// names it); else PREFIX/bin/segtime (installed, or build/bin/segtime in a
/// build tree); else moduleDirectory()/../bin/segtime. Empty if neither
/// of the last two is an executable file.
std::filesystem::path toolPath();

/// The machine used when none is named.
struct DefaultMachine {
  std::string Path; ///< machine file
  bool ThisMachine; ///< the user's calibrated machine (default.yaml)
  std::string Note; ///< one line: which machine and why
};

/// The user's machine, if calibrated: userMachineDirectory()/default.yaml
/// (a link that `segtime calibrate` without --out points at the file it
/// wrote); else the bundled t800 with a note saying how to calibrate. The
/// Note reads "segtime: machine NAME (...)".
DefaultMachine defaultMachine();

} // namespace segtime

#endif
