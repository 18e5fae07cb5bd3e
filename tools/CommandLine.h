//===- CommandLine.h - The command-line layer of segtime --------*- C++ -*-===//
///
/// \file
/// What every `segtime` subcommand uses to read its arguments: the command
/// table and dispatcher (`segtime COMMAND ...`), an option reader, the
/// number, time and list parsers (one function each, the option's name in
/// every error), and the usage error that ends a command with exit status 2.
/// Numbers are read with std::from_chars (the whole text, no locale).
///
/// A command's Main gets the arguments after its name and throws UsageError
/// (or any std::exception) on bad input; runCommand prints
/// "PREFIX: error: MESSAGE" on stderr and returns 2.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_TOOLS_COMMANDLINE_H
#define SEGTIME_TOOLS_COMMANDLINE_H

#include <climits>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace segtime::cli {

/// A usage or input error: the command prints it and exits with status 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

//===--- Commands ---------------------------------------------------------===//

/// One subcommand of `segtime`.
struct Command {
  const char *Name;
  /// Its lines in `segtime --help` (the name first, aligned by the caller).
  const char *Summary;
  /// Argv: the arguments after the name. Returns the exit status.
  int (*Main)(int Argc, char **Argv);
  /// What its error messages start with: "segtime" or "segtime NAME".
  const char *ErrorPrefix;
};

/// `segtime --help`: Header, then one block per command.
std::string commandsUsage(const std::string &Header, const std::vector<Command> &Commands,
                          const std::string &Footer);

/// Runs the command Argv[0] names with the arguments after it. Without
/// arguments prints Usage and returns 2; --help/-h print it and return 0;
/// an unknown name prints "Prefix: error: unknown WHAT 'NAME'" and Usage and
/// returns 2. An exception out of the command is printed as
/// "ERRORPREFIX: error: MESSAGE" and gives 2.
int runCommand(const std::vector<Command> &Commands, int Argc, char **Argv,
               const std::string &Usage, const std::string &Prefix, const std::string &What);

/// Calls Main(Argc, Argv) and turns an exception into "Prefix: error: MESSAGE"
/// on stderr and exit status 2 (a message that starts with "NAME: " for the
/// last word NAME of Prefix does not repeat it).
int guarded(const std::string &Prefix, int (*Main)(int, char **), int Argc, char **Argv);

//===--- Options ----------------------------------------------------------===//

/// Walks the arguments: next() moves to the next one, flag() is it, value()
/// the one after it (the option's value).
class ArgReader {
public:
  ArgReader(int Argc, char **Argv) : Argc(Argc), Argv(Argv) {}
  bool next() { return ++I < Argc; }
  std::string flag() const { return Argv[I]; }
  /// True for "-x", "--xy" (not for "-" alone or a negative number).
  bool isOption() const;
  /// Throws UsageError "FLAG needs a value" after the last argument.
  std::string value();

private:
  int Argc;
  char **Argv;
  int I = -1;
};

/// Throws "unknown option 'F' (see segtime CMD --help)".
[[noreturn]] void unknownOption(const std::string &Cmd, const std::string &F);

/// Throws "missing --x --y (see segtime CMD --help)" for the options, in the
/// order given, that were not given.
void requireOptions(const std::string &Cmd,
                    std::initializer_list<std::pair<bool, const char *>> Given);

//===--- Values -----------------------------------------------------------===//

/// A finite number (the whole text). Error: "FLAG: 'TEXT' is not a number".
double parseNumber(const std::string &Flag, const std::string &Text);

/// A number in [Lo, Hi]. Error: "FLAG: 'TEXT' is not a number in [Lo, Hi]".
double parseNumberIn(const std::string &Flag, const std::string &Text, double Lo, double Hi);

/// A whole number in [Min, Max] (also written as 1e6). Error: "FLAG: 'TEXT'
/// is not a WHAT", or without What "FLAG: expected an integer in Min..Max,
/// got 'TEXT'".
long long parseWhole(const std::string &Flag, const std::string &Text, long long Min = 0,
                     long long Max = LLONG_MAX, const std::string &What = "");

/// A whole number >= 0 that fits an unsigned: "FLAG: 'TEXT' is not a whole number".
unsigned parseUnsigned(const std::string &Flag, const std::string &Text);

/// A task count: a whole number >= 1, also written as 1e6.
std::uint64_t parseCount(const std::string &Flag, const std::string &Text);

/// Seconds, from "0.01", "10ms", "250us", "250µs", "40ns", "2s".
double parseTime(const std::string &Flag, const std::string &Text);

/// The items of a comma list; an empty item is an error unless SkipEmpty
/// (then empty items are dropped).
std::vector<std::string> splitList(const std::string &Flag, const std::string &S,
                                   bool SkipEmpty = false);

std::vector<double> parseNumberList(const std::string &Flag, const std::string &S);

std::vector<double> parseTimeList(const std::string &Flag, const std::string &S);

std::vector<unsigned> parseUnsignedList(const std::string &Flag, const std::string &S);

} // namespace segtime::cli

#endif
