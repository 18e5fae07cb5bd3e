//===- FuzzSeg.cpp - libFuzzer harness of the .seg.json reader ------------===//
///
/// \file
/// The bytes as a .seg.json file, any schema (segtime.seg/1 expanded,
/// segtime.seg/2 and /3 compact with their tables): SegFile::read's steps, the
/// JSON parse and SegFile::fromJSON with its shape checks. Documented error:
/// std::runtime_error.
///
//===----------------------------------------------------------------------===//
#include "FuzzReader.h"
#include "core/JsonShape.h"
#include "core/Seg.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  return segtime_fuzz::runReader<std::runtime_error>(
      Data, Size, "fuzz.seg.json", [](std::istream &In, const std::string &Name) {
        segtime::json J = segtime::parseJson(In, Name);
        try {
          segtime::SegFile::fromJSON(J);
        } catch (const std::runtime_error &E) {
          throw std::runtime_error(Name + ": " + E.what()); // as readJsonAs
        }
      });
}
