//===- Library.h - C library functions costed per call -----------*- C++ -*-===//
///
/// \file
/// The C library functions segtime costs as library calls (docs/models.md
/// "Library calls"): a call to one of them that has no SEG of its own is a
/// Call node whose time is t = per_call + per_B * size, both measured by
/// `segtime calibrate --level library` into the machine file's `library`
/// section (docs/calibrate.md). The size (bytes, the node's `bytes`) comes
/// from the call's arguments (libraryCallSize); a function without one costs
/// per call. No LLVM or Clang dependency: the plugin, the predictor and
/// calibrate share this table.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_CORE_LIBRARY_H
#define SEGTIME_CORE_LIBRARY_H

#include <optional>
#include <string>
#include <vector>

namespace segtime {

/// One function of the machine file's `library` section.
struct LibraryFunction {
  std::string Name; ///< its key in the section ("memcpy")
  bool Sized;       ///< costs per byte too: entries per_call (s) and per_B (s/B)
  std::string Size; ///< what the size is ("n, bytes copied"); "" if not Sized
  std::string Bench; ///< what calibrate times per call
};

/// Every function the library section holds, in calibration order.
const std::vector<LibraryFunction> &libraryFunctions();

/// The library-section function a call to Callee is costed as ("printf" ->
/// the "snprintf" entry: formatting a number), or nullptr if Callee is not
/// one segtime costs.
const LibraryFunction *libraryFunction(const std::string &Callee);

/// Whether a call to Callee left in the optimised IR is costed as the
/// library call of libraryFunction(Callee): all but sqrt, which the
/// backend makes the square-root instruction (PartiallyInlineLibCalls; the
/// call stays for a negative argument only).
bool libraryCallInIR(const std::string &Callee);

/// Machine-file keys of function F's entries: "library.memcpy.per_call",
/// "library.memcpy.per_B".
std::string libraryKey(const LibraryFunction &F, const char *Entry);

/// Argument indices whose product is the size in bytes of a call to Callee
/// (calloc: {0, 1}; memcpy: {2}); empty for a function costed per call, or
/// whose size is a string's length (StringArgs then lists the string
/// arguments, any of which gives it: strlen {0}, strcmp {0, 1}, strcpy {1}).
std::vector<unsigned> librarySizeArgs(const std::string &Callee,
                                      std::vector<unsigned> *StringArgs = nullptr);

} // namespace segtime

#endif
