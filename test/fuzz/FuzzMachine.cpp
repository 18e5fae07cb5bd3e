//===- FuzzMachine.cpp - libFuzzer harness of the machine-file reader ----===//
///
/// \file
/// The bytes as a machine file (YAML): written to a file in /dev/shm (memory)
/// and read by readMachine, which parses and validates them (levels, units,
/// signs, provenance, parameter sections). Documented error:
/// MachineFileError with FILE:LINE:COL.
///
//===----------------------------------------------------------------------===//
#include "FuzzReader.h"
#include "predictor/Machine.h"

#include <fstream>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static const std::string Path =
      (access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp") +
      std::string("/segtime-fuzz-") + std::to_string(getpid()) + ".yaml";
  return segtime_fuzz::runReader<segtime::MachineFileError>(
      Data, Size, Path, [](std::istream &In, const std::string &Name) {
        {
          std::ofstream Out(Name, std::ios::binary | std::ios::trunc);
          Out << In.rdbuf();
        }
        segtime::readMachine(Name);
      });
}
