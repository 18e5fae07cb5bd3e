//===- LinkCommand.cpp - segtime link ---------------------------*- C++ -*-===//
///
/// \file
/// `segtime link A.seg.json B.seg.json ... -o PROG.seg.json [--json]`: the
/// SEG files of one program's translation units joined into one
/// (core/Link.h), written in the form the plugin writes (SegFileWriter). Prints
/// what it resolved, renamed and left unresolved; --json prints the same as a
/// JSON object (docs/cli.md "link").
///
//===----------------------------------------------------------------------===//
#include "core/Link.h"
#include "tools/CommandLine.h"

#include <cstring>
#include <fstream>
#include <iostream>

using namespace segtime;

namespace {
const char *LinkUsage =
    "usage: segtime link A.seg.json B.seg.json ... -o PROG.seg.json [--json]\n"
    "\n"
    "Joins the SEG files of the translation units of one program: calls to a\n"
    "function another unit defines become calls (costed by predict and\n"
    "compare, parameters bound to the arguments); static functions of the same\n"
    "name in several units stay distinct (renamed NAME@FILE). Prints the calls\n"
    "resolved, the names renamed and the callees no unit defines (library\n"
    "functions, units not given), which stay Unknown (not costed).\n"
    "  -o PATH   the linked SEG file (required)\n"
    "  --json    the report as JSON on stdout\n"
    "Exit status: 0 linked; 2 usage or input error.\n";
} // namespace

int linkMain(int Argc, char **Argv) {
  std::vector<std::string> Inputs;
  std::string Out;
  bool Json = false;
  cli::ArgReader Args(Argc, Argv);
  while (Args.next()) {
    std::string A = Args.flag();
    if (A == "--help" || A == "-h")
      return std::cout << LinkUsage, 0;
    if (A == "-o")
      Out = Args.value();
    else if (A == "--json")
      Json = true;
    else if (Args.isOption())
      cli::unknownOption("link", A);
    else
      Inputs.push_back(A);
  }
  if (Inputs.empty())
    throw cli::UsageError("no SEG files given (see segtime link --help)");
  if (Out.empty())
    throw cli::UsageError("no output file (-o PATH)");
  std::vector<SegFile> Units;
  for (const std::string &P : Inputs)
    Units.push_back(SegFile::read(P));
  LinkReport R;
  SegFile Linked = linkSegFiles(Units, Inputs, R);
  std::ofstream OS(Out, std::ios::binary);
  if (!OS)
    throw std::runtime_error(Out + ": cannot open for writing");
  SegFileWriter W([&](const std::string &Piece) { OS << Piece; });
  for (const FunctionSeg &F : Linked.Functions)
    W.add(F);
  W.finish(Linked);
  OS.close();
  if (!OS)
    throw std::runtime_error(Out + ": write failed");
  if (Json) {
    json J = {{"output", Out},         {"units", Inputs},
              {"functions", Linked.Functions.size()}, {"resolved_calls", R.Resolved},
              {"renamed", R.Renamed},  {"warnings", R.Warnings}};
    J["unresolved"] = json::array();
    for (const auto &U : R.Unresolved)
      J["unresolved"].push_back({{"callee", U.Callee}, {"calls", U.Calls}, {"first", U.First}});
    std::cout << J.dump(2) << "\n";
    return 0;
  }
  std::cout << "linked " << Inputs.size() << " files, " << Linked.Functions.size()
            << " functions -> " << Out << "\n"
            << "  calls resolved across files: " << R.Resolved << "\n";
  for (const std::string &N : R.Renamed)
    std::cout << "  static function renamed: " << N << "\n";
  for (const auto &U : R.Unresolved)
    std::cout << "  unresolved (no SEG, not costed): " << U.Callee << ", " << U.Calls
              << " call" << (U.Calls == 1 ? "" : "s") << " (first at " << U.First << ")\n";
  for (const std::string &W : R.Warnings)
    std::cerr << "segtime link: warning: " << W << "\n";
  return 0;
}
