//===- FuzzCt.cpp - libFuzzer harness of the .ct.json reader --------------===//
///
/// \file
/// The bytes as a .ct.json profile (segtime.ct/1): CtFile::read's steps,
/// the JSON parse and CtFile::fromJSON with its shape checks. Documented
/// error: std::runtime_error.
///
//===----------------------------------------------------------------------===//
#include "FuzzReader.h"
#include "core/Ct.h"
#include "core/JsonShape.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  return segtime_fuzz::runReader<std::runtime_error>(
      Data, Size, "fuzz.ct.json", [](std::istream &In, const std::string &Name) {
        segtime::json J = segtime::parseJson(In, Name);
        try {
          segtime::CtFile::fromJSON(J);
        } catch (const std::runtime_error &E) {
          throw std::runtime_error(Name + ": " + E.what()); // as readJsonAs
        }
      });
}
