//===- Register.h - Registration of segtime's LLVM passes -------*- C++ -*-===//
///
/// \file
/// One registration function for both modules built from passes/ (style.md
/// conventions 2-4): the clang plugin pushes it into
/// CodeGenOptions::PassBuilderCallbacks, the opt pass plugin returns it from
/// llvmGetPassPluginInfo.
///
/// Pass names (opt -passes=...): print<segtime-ir> (IR-level SEG with IntCC
/// RUVs, JSON on stdout); analysis segtime-ir; segtime-instrument (component
/// timing, Instrument.h).
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PASSES_REGISTER_H
#define SEGTIME_PASSES_REGISTER_H

#include "passes/IRSeg.h"
#include "passes/Instrument.h"

#include "llvm/Passes/PassBuilder.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace segtime {

/// What the IR passes collected during one clang compile, handed to the
/// plugin's AST consumer (which runs after code generation).
struct IRCollection {
  bool Enabled = false;          ///< set by the clang plugin
  bool StripDebugInfo = false;   ///< the plugin turned line tables on itself
  std::vector<std::string> Targets; ///< ICC targets (MachineLevel.h syntax)
  /// The compile writes an object file through code generation (clang -c,
  /// not -emit-llvm, -S or -flto): the ICC level of target "compile" is then
  /// recorded from that code generation (recordCompileCodegen), not from a
  /// clone compiled a second time (-mllvm -segtime-icc-clone forces the
  /// clone).
  bool EmitsObject = false;
  /// Units of symbolic work per function for the IR level (buildIRSeg).
  uint64_t Budget = DefaultAnalysisBudget;
  /// A parameter per copy of an optimised branch (buildIRSeg's NameCopies,
  /// -fplugin-arg-segtime-ir-copies).
  bool NameCopies = false;
  /// Source parameter names per IR function name (from the AST).
  std::map<std::string, std::vector<std::string>> ParamNames;
  /// Source name of every function, by IR name (C++ names are mangled).
  std::map<std::string, std::string> SourceNames;
  std::map<std::string, IRFunctionSeg> Functions;
  /// The arguments of the module's calls before the optimiser ran
  /// (recordCallArgs, at the start of the pipeline): the code of an
  /// inlined call is written in the callee's parameters. Cleared once the
  /// IR SEGs are built.
  CallSiteArgMap CallArgs;
  /// Target name -> {"triple", "cpu", "error"?}.
  std::map<std::string, std::map<std::string, std::string>> TargetInfo;
  std::vector<std::string> Errors;
  /// Component timing (-fplugin-arg-segtime-instrument): run InstrumentPass
  /// at the start of the pipeline.
  InstrumentConfig Instrument;
  /// Called once per function of Functions as soon as its IR SEG is final
  /// (every ICC level attached, block maps released), with its IR name and
  /// SEG; the entry is erased from Functions afterwards. The clang plugin
  /// merges and writes the function there, so that only the functions
  /// still waiting for code generation are held (empty: kept in Functions).
  std::function<void(const std::string &, IRFunctionSeg &)> OnFinal;
  /// Called once, by the first pass of the optimisation pipeline (after
  /// clang's IR generation, before any optimisation): the clang plugin
  /// builds the source-level SEGs there and releases the AST, as clang
  /// itself does before its back end (-clear-ast-before-backend).
  std::function<void()> OnBackendStart;
};

/// A byte image held while it waits (an IR SEG waiting for code generation,
/// a source-level SEG waiting for its IR level): zlib-compressed (level 1)
/// where LLVM has zlib and the image has MinCompressedImage bytes or more,
/// else as it is. Packed SEGs compress several times.
struct CompressedImage {
  std::vector<std::uint8_t> Bytes;
  size_t RawSize = 0;
  bool Compressed = false;
  bool empty() const { return Bytes.empty() && !RawSize; }
};

/// The smallest image compressImage compresses (bytes).
constexpr size_t MinCompressedImage = 1024;

/// Raw as a CompressedImage (Raw is consumed).
CompressedImage compressImage(std::vector<std::uint8_t> Raw);

/// The bytes Image was made of, into Raw; false if they do not decompress.
bool decompressImage(const CompressedImage &Image, std::vector<std::uint8_t> &Raw);

/// The collection of the current compile (one per process).
IRCollection &irCollection();

/// After code generation: attaches the ICC RUVs recorded from the compile's
/// own code generation to the IR SEGs of irCollection() (or, if no code
/// generation ran, a note and the target's "error"), then releases the IR
/// SEGs' block maps. Nothing to do if none was recorded.
void finishIccLevels();

/// Registers the analyses, printers and the collection pass (run at the
/// end of the optimisation pipeline when irCollection().Enabled).
void registerSegtimePasses(llvm::PassBuilder &PB);

} // namespace segtime

#endif
