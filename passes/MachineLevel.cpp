//===- MachineLevel.cpp - ICC: machine instructions per basic block -------===//
// (stub: filled in by the machine-level work)
#include "passes/MachineLevel.h"

namespace segtime {
std::optional<TargetSpec> parseTargetSpec(const std::string &S, std::string &Err) {
  Err = "machine level not built yet: " + S;
  return std::nullopt;
}
bool machineLevelRuvs(const llvm::Module &, const TargetSpec &, std::map<const llvm::BasicBlock *, Ruv> &,
                      std::string &Err) {
  Err = "machine level not built yet";
  return false;
}
} // namespace segtime
