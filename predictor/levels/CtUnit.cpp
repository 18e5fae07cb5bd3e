//===- CtUnit.cpp - CT: component timing ----------------------------------===//
///
/// \file
/// CT (Warwick-94 §3): what an instrumented build measures per SEG node
/// (passes/Instrument.cpp, runtime/ct_runtime.c, docs/ct-json.md). It is
/// measurement, not a model: no cost vector, no resource model, nothing to
/// calibrate; `segtime compare` holds the other levels against it.
///
//===----------------------------------------------------------------------===//
#include "predictor/levels/LevelUnit.h"

namespace segtime {

namespace {
class CtUnit final : public UnitOf<Level::CT> {
public:
  bool costed() const override { return false; }
};
} // namespace

const LevelUnit &ctUnit() { return unitInstance<CtUnit>(); }

} // namespace segtime
