//===- FuzzReader.h - Common part of the file readers' fuzz harnesses -*- C++ -*-===//
///
/// \file
/// Each harness (test/fuzz/Fuzz*.cpp, scripts/fuzz.py) gives the fuzzer's
/// bytes to one reader as the contents of a file: the JSON readers through
/// parseJson, which readJsonFile calls after opening the file; the machine
/// reader through a file in memory (/dev/shm). A reader may refuse the bytes
/// with its documented error (std::runtime_error or MachineFileError), and
/// the message must start with the file's name; anything else is a finding:
/// another exception (nlohmann's json::exception escaping fromJSON means a
/// shape check is missing and the user would get a message with neither the
/// field nor what was expected), a crash, a hang, a sanitizer report.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_TEST_FUZZ_FUZZREADER_H
#define SEGTIME_TEST_FUZZ_FUZZREADER_H

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>

namespace segtime_fuzz {

/// Runs Read(In, Name) on the bytes Data[0, Size) as the contents of file
/// Name. Error is the reader's documented error type; its message must name
/// the file (start with Name), else the harness aborts (a finding). Warnings
/// on std::cerr are dropped (sanitizer reports go to the file descriptor).
template <typename Error, typename ReadFn>
int runReader(const uint8_t *Data, size_t Size, const std::string &Name, ReadFn Read) {
  std::cerr.setstate(std::ios::badbit);
  std::istringstream In(std::string(reinterpret_cast<const char *>(Data), Size));
  try {
    Read(In, Name);
  } catch (const Error &E) {
    const std::string Msg = E.what();
    if (Msg.compare(0, Name.size(), Name) != 0) {
      std::fprintf(stderr, "finding: the error does not name the file: %s\n", Msg.c_str());
      std::abort();
    }
  }
  return 0;
}

} // namespace segtime_fuzz

#endif
