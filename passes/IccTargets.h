//===- IccTargets.h - ICC: targets and the clone compiled for them -*- C++ -*-===//
///
/// \file
/// The target side of the ICC level (MachineLevel.h): the back ends, the
/// target machine that compiles and costs a target's code, and the clone of
/// the module made into a module of that target. Internal to passes/.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PASSES_ICCTARGETS_H
#define SEGTIME_PASSES_ICCTARGETS_H

#include "passes/MachineLevel.h"

#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <map>
#include <memory>
#include <string>

namespace llvm {
class Target;
class TargetMachine;
class Triple;
} // namespace llvm

namespace segtime {
namespace icc {

/// Registers the X86 and SPARC back ends. clang and opt have done it already;
/// this is for other hosts of the passes (the calls are idempotent).
void initialiseTargets();

/// The target machine whose scheduling model, encoder and assembler back
/// end cost the blocks of T (and which compiles the clone); nullptr and Err
/// set if the target cannot make one.
std::unique_ptr<llvm::TargetMachine> costingMachine(const llvm::Target &Tgt,
                                                    const llvm::Triple &TT, const TargetSpec &T,
                                                    std::string &Err);

/// The scheduling model's facts for the SEG file's "targets" entry.
void describeTarget(const llvm::TargetMachine &TM, std::map<std::string, std::string> &Info);

/// Gives the clone's values the use-list order of M's (VMap: M's values to
/// the clone's). Code generation walks users in use-list order in places
/// (instruction selection, address folding), and CloneModule creates the
/// uses in another order: without this a few blocks of the clone compile
/// differently from M itself. Constants are shared by the two modules and
/// are left alone.
void copyUseListOrder(const llvm::Module &M, const llvm::ValueToValueMapTy &VMap);

/// Makes the clone a module of target TM: no debug info, TM's triple and data
/// layout, no per-function CPU, features and tuning unless the function was
/// compiled for TM's CPU (so that TM's CPU applies, as with
/// `clang -march=CPU`), and, for a module made for another architecture
/// (Foreign), no bodies that code generation for TM would reject (nor, for
/// any target, bodies with stack allocations it cannot lower): Skipped
/// receives their names and why.
void prepareClone(llvm::Module &C, llvm::TargetMachine &TM, bool Foreign,
                  std::map<std::string, std::string> &Skipped);

} // namespace icc
} // namespace segtime

#endif
