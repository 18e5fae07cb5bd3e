//===- CompileSummary.cpp - The compile-time summary, by segtime ---------===//
///
/// \file
/// printCompileTimeSummary (plugin/CompileSummary.h): runs `segtime predict
/// --summary` with its standard output and error in temporary files, and
/// copies the output, or a one-line note, to the plugin's stream.
///
//===----------------------------------------------------------------------===//
#include "plugin/CompileSummary.h"
#include "predictor/Install.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

#include <cstdio>
#include <optional>
#include <vector>

namespace segtime {
namespace {

/// A temporary file, removed when it goes out of scope.
struct TempFile {
  llvm::SmallString<128> Path;
  bool Made = false;
  explicit TempFile(llvm::StringRef Suffix) {
    Made = !llvm::sys::fs::createTemporaryFile("segtime-summary", Suffix, Path);
  }
  ~TempFile() {
    if (Made)
      llvm::sys::fs::remove(Path);
  }
  /// The file's text ("" if it cannot be read).
  std::string text() const {
    auto B = llvm::MemoryBuffer::getFile(Path);
    return B ? (*B)->getBuffer().str() : std::string();
  }
};

/// V as the shortest text that reads back as V ("%.17g": a double round
/// trips through 17 significant digits).
std::string exactNumber(double V) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%.17g", V);
  return Buf;
}

} // namespace

void printCompileTimeSummary(llvm::raw_ostream &OS, const std::string &SegPath,
                             const std::string &Machine,
                             const std::map<std::string, double> &Values, size_t MaxFunctions) {
  const std::string Instead = " (segtime predict " + SegPath + ")\n";
  std::string Tool = toolPath().string();
  if (Tool.empty()) {
    OS << "segtime: no compile-time summary: no segtime command next to the plugin (set "
       << "SEGTIME to its path)" << Instead;
    return;
  }
  // $SEGTIME may be a name to look up in PATH.
  if (Tool.find('/') == std::string::npos)
    if (llvm::ErrorOr<std::string> P = llvm::sys::findProgramByName(Tool))
      Tool = *P;
  std::vector<std::string> Args = {Tool,        "predict",
                                   SegPath,     "--summary",
                                   std::to_string(MaxFunctions), "--machine",
                                   Machine};
  for (const auto &[Name, V] : Values) {
    Args.push_back("-p");
    Args.push_back(Name + "=" + exactNumber(V));
  }
  TempFile Out(".txt"), Err(".err");
  if (!Out.Made || !Err.Made) {
    OS << "segtime: no compile-time summary: cannot create a temporary file" << Instead;
    return;
  }
  std::vector<llvm::StringRef> Refs(Args.begin(), Args.end());
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""), Out.Path.str(),
                                                Err.Path.str()};
  std::string Message;
  int Status = llvm::sys::ExecuteAndWait(Tool, Refs, std::nullopt, Redirects, 0, 0, &Message);
  if (Status == 0) {
    OS << Out.text();
    return;
  }
  // The first line the command wrote on its standard error, else why it
  // could not run (a missing file, a signal).
  std::string Why = Err.text();
  Why = llvm::StringRef(Why).split('\n').first.trim().str();
  if (Why.empty())
    Why = Message.empty() ? "exit status " + std::to_string(Status) : Message;
  OS << "segtime: no compile-time summary: " << Tool << ": " << Why << Instead;
}

} // namespace segtime
