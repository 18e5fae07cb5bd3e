//===- CommandLine.cpp - The command-line layer of segtime ----------------===//
///
/// \file
/// Command dispatch, the option reader and the value parsers of every
/// `segtime` subcommand (see CommandLine.h).
///
//===----------------------------------------------------------------------===//
#include "tools/CommandLine.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <iostream>
#include <sstream>

namespace segtime::cli {

//===--- Commands ---------------------------------------------------------===//

std::string commandsUsage(const std::string &Header, const std::vector<Command> &Commands,
                          const std::string &Footer) {
  std::string S = Header;
  for (const Command &C : Commands)
    S += C.Summary;
  return S + Footer;
}

int guarded(const std::string &Prefix, int (*Main)(int, char **), int Argc, char **Argv) {
  try {
    return Main(Argc, Argv);
  } catch (const std::exception &E) {
    std::string Msg = E.what();
    std::string Last = Prefix.substr(Prefix.rfind(' ') + 1);
    if (Last != Prefix && Msg.rfind(Last + ": ", 0) == 0) // the library names the model too
      Msg.erase(0, Last.size() + 2);
    std::cerr << Prefix << ": error: " << Msg << "\n";
  }
  return 2;
}

int runCommand(const std::vector<Command> &Commands, int Argc, char **Argv,
               const std::string &Usage, const std::string &Prefix, const std::string &What) {
  if (Argc < 1 || !std::strcmp(Argv[0], "--help") || !std::strcmp(Argv[0], "-h")) {
    std::cout << Usage;
    return Argc < 1 ? 2 : 0;
  }
  for (const Command &C : Commands)
    if (!std::strcmp(Argv[0], C.Name))
      return guarded(C.ErrorPrefix, C.Main, Argc - 1, Argv + 1);
  std::cerr << Prefix << ": error: unknown " << What << " '" << Argv[0] << "'\n" << Usage;
  return 2;
}

//===--- Options ----------------------------------------------------------===//

bool ArgReader::isOption() const {
  const char *A = Argv[I];
  return A[0] == '-' && A[1] != '\0' && !std::isdigit(static_cast<unsigned char>(A[1])) &&
         A[1] != '.';
}

std::string ArgReader::value() {
  std::string F = Argv[I];
  if (I + 1 >= Argc)
    throw UsageError(F + " needs a value");
  return Argv[++I];
}

void unknownOption(const std::string &Cmd, const std::string &F) {
  throw UsageError("unknown option '" + F + "' (see segtime " + Cmd + " --help)");
}

void requireOptions(const std::string &Cmd,
                    std::initializer_list<std::pair<bool, const char *>> Given) {
  std::string Missing;
  for (const auto &[Have, Flag] : Given)
    if (!Have)
      Missing += std::string(" ") + Flag;
  if (!Missing.empty())
    throw UsageError("missing" + Missing + " (see segtime " + Cmd + " --help)");
}

//===--- Values -----------------------------------------------------------===//

namespace {

/// The number that is the whole of [B, E) (a leading '+' allowed), if any.
bool readDouble(const char *B, const char *E, double &V) {
  if (B != E && *B == '+' && E - B > 1 && B[1] != '-')
    ++B;
  auto [Ptr, Ec] = std::from_chars(B, E, V);
  return B != E && Ec == std::errc() && Ptr == E;
}

std::string rangeText(double Lo, double Hi) {
  std::ostringstream OS;
  OS << "[" << Lo << ", " << Hi << "]";
  return OS.str();
}

} // namespace

double parseNumber(const std::string &Flag, const std::string &Text) {
  double V = 0;
  if (!readDouble(Text.data(), Text.data() + Text.size(), V) || !std::isfinite(V))
    throw UsageError(Flag + ": '" + Text + "' is not a number");
  return V;
}

double parseNumberIn(const std::string &Flag, const std::string &Text, double Lo, double Hi) {
  double V = 0;
  if (!readDouble(Text.data(), Text.data() + Text.size(), V) || !(V >= Lo && V <= Hi))
    throw UsageError(Flag + ": '" + Text + "' is not a number in " + rangeText(Lo, Hi));
  return V;
}

long long parseWhole(const std::string &Flag, const std::string &Text, long long Min,
                     long long Max, const std::string &What) {
  double V = 0;
  if (!readDouble(Text.data(), Text.data() + Text.size(), V) || V != std::floor(V) ||
      V < static_cast<double>(Min) || V > static_cast<double>(Max) || V >= 9.2e18)
    throw UsageError(What.empty() ? Flag + ": expected an integer in " + std::to_string(Min) +
                                        ".." + std::to_string(Max) + ", got '" + Text + "'"
                                  : Flag + ": '" + Text + "' is not a " + What);
  return static_cast<long long>(V);
}

unsigned parseUnsigned(const std::string &Flag, const std::string &Text) {
  return static_cast<unsigned>(parseWhole(Flag, Text, 0, UINT_MAX, "whole number"));
}

std::uint64_t parseCount(const std::string &Flag, const std::string &Text) {
  double V = parseNumber(Flag, Text);
  if (V < 1 || V != std::floor(V) || V > 9007199254740992.0)
    throw UsageError(Flag + ": the number of tasks must be a whole number >= 1, got '" + Text +
                     "'");
  return static_cast<std::uint64_t>(V);
}

double parseTime(const std::string &Flag, const std::string &Text) {
  // The unit: the letters (and µ) at the end.
  size_t U = Text.size();
  while (U > 0 && (std::isalpha(static_cast<unsigned char>(Text[U - 1])) ||
                   Text[U - 1] == '\xC2' || Text[U - 1] == '\xB5'))
    --U;
  double V = 0;
  if (!readDouble(Text.data(), Text.data() + U, V) || !std::isfinite(V))
    throw UsageError(Flag + ": '" + Text + "' is not a time (e.g. 0.01, 10ms, 250us)");
  std::string Unit = Text.substr(U);
  double Scale = 0;
  if (Unit.empty() || Unit == "s")
    Scale = 1;
  else if (Unit == "ms")
    Scale = 1e-3;
  else if (Unit == "us" || Unit == "\xC2\xB5s")
    Scale = 1e-6;
  else if (Unit == "ns")
    Scale = 1e-9;
  else
    throw UsageError(Flag + ": unknown time unit '" + Unit + "' in '" + Text +
                     "' (use s, ms, us or ns)");
  return V * Scale;
}

std::vector<std::string> splitList(const std::string &Flag, const std::string &S,
                                   bool SkipEmpty) {
  std::vector<std::string> R;
  size_t P = 0;
  while (true) {
    size_t Q = S.find(',', P);
    std::string Item = S.substr(P, Q == std::string::npos ? std::string::npos : Q - P);
    if (!Item.empty())
      R.push_back(Item);
    else if (!SkipEmpty)
      throw UsageError(Flag + ": empty item in the list '" + S + "'");
    if (Q == std::string::npos)
      return R;
    P = Q + 1;
  }
}

std::vector<double> parseNumberList(const std::string &Flag, const std::string &S) {
  std::vector<double> R;
  for (const std::string &X : splitList(Flag, S))
    R.push_back(parseNumber(Flag, X));
  return R;
}

std::vector<double> parseTimeList(const std::string &Flag, const std::string &S) {
  std::vector<double> R;
  for (const std::string &X : splitList(Flag, S))
    R.push_back(parseTime(Flag, X));
  return R;
}

std::vector<unsigned> parseUnsignedList(const std::string &Flag, const std::string &S) {
  std::vector<unsigned> R;
  for (const std::string &X : splitList(Flag, S))
    R.push_back(parseUnsigned(Flag, X));
  return R;
}

} // namespace segtime::cli
