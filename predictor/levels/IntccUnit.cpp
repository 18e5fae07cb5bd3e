//===- IntccUnit.cpp - INTCC: intermediate-code constructs ----------------===//
///
/// \file
/// INTCC (Warwick-94 §3.3.4): the RUV counts the optimised IR's operations
/// per opcode and type (core intccKey), on the IR-level SEG; the model is
/// t = c^T f (eq. 4, CostVectorModel) over a cost vector per optimisation
/// level, with "<opcode>.*" and "*" fallbacks, and each IR loop nest adds its
/// memory time. `segtime calibrate` fits one cost per operation class the
/// construct benchmarks execute, then one multiplier per group of classes on
/// the training kernels (docs/calibrate.md).
///
//===----------------------------------------------------------------------===//
#include "predictor/levels/LevelUnit.h"
#include "predictor/ResourceModel.h"

#include <algorithm>
#include <initializer_list>
#include <set>

namespace segtime {

namespace {
bool in(const std::string &X, std::initializer_list<const char *> L) {
  return std::any_of(L.begin(), L.end(), [&](const char *S) { return X == S; });
}

/// The group of a call's cost key "call.<callee>".
std::string callGroup(const std::string &Key) {
  std::string Callee = Key.substr(5);
  if (Key.compare(0, 10, "call.llvm.") == 0) {
    std::string I = Callee.substr(5);
    I = I.substr(0, I.find('.'));
    if (in(I, {"sqrt"}))
      return "div";
    if (in(I, {"fmuladd", "fma", "fabs", "minnum", "maxnum", "minimum", "maximum", "copysign",
               "floor", "ceil", "trunc", "rint", "nearbyint", "round"}))
      return "fp";
    if (in(I, {"abs", "smax", "smin", "umax", "umin", "ctpop", "ctlz", "cttz", "bswap", "fshl",
               "fshr", "bitreverse"}))
      return "int";
    if (in(I, {"exp", "exp2", "log", "log2", "log10", "sin", "cos", "pow", "powi"}))
      return "math";
    return "other"; // memcpy, memset, lifetime markers, ...
  }
  if (in(Callee, {"sqrt", "sqrtf"}))
    return "div";
  static const std::set<std::string> Libm{
      "exp",   "expf",  "exp2",  "exp2f",  "expm1", "expm1f", "log",   "logf",   "log2",
      "log2f", "log10", "log10f", "log1p", "log1pf", "sin",   "sinf",  "cos",    "cosf",
      "tan",   "tanf",  "asin",  "asinf",  "acos",  "acosf",  "atan",  "atanf",  "atan2",
      "atan2f", "sinh", "sinhf", "cosh",   "coshf", "tanh",   "tanhf", "pow",    "powf",
      "cbrt",  "cbrtf", "erf",   "erff",   "erfc",  "erfcf",  "hypot", "hypotf", "fmod",
      "fmodf", "sincos", "sincosf"};
  return Libm.count(Callee) ? "math" : "other";
}

class IntccUnit final : public UnitOf<Level::IntCC> {
public:
  std::unique_ptr<ResourceModel> makeModel(const ModelRequest &R) const override {
    return std::make_unique<CostVectorModel>(R.M, Level::IntCC, R.Opt);
  }
  MemoryTerm memoryTerm() const override { return MemoryTerm::IrNests; }

  const std::vector<std::string> &costGroups() const override {
    static const std::vector<std::string> Groups{"fp",   "div",   "math", "int",
                                                 "load", "store", "other"};
    return Groups;
  }
  std::string costGroup(const std::string &Key) const override {
    size_t Dot = Key.find('.');
    std::string Op = Dot == std::string::npos ? Key : Key.substr(0, Dot);
    if (Op == "call")
      return callGroup(Key);
    if (in(Op, {"fadd", "fsub", "fmul", "fneg", "fcmp", "fpext", "fptrunc", "sitofp", "uitofp",
                "fptosi", "fptoui"}))
      return "fp";
    if (in(Op, {"fdiv", "frem", "sdiv", "udiv", "srem", "urem"}))
      return "div";
    if (in(Op, {"add", "sub", "mul", "and", "or", "xor", "shl", "lshr", "ashr", "icmp",
                "select", "getelementptr", "sext", "zext", "trunc", "ptrtoint", "inttoptr",
                "bitcast", "freeze"}))
      return "int";
    if (Op == "load")
      return "load";
    if (Op == "store")
      return "store";
    return "other"; // br, switch, phi, ret, alloca, vector shuffles, "*"
  }

  CalibFit calibFit() const override { return CalibFit::Costs; }
  FitColumns fitColumns() const override { return FitColumns::ExecutedClasses; }
  /// Calls by callee ("call.exp", "call.llvm.sqrt.f64"), everything else by
  /// opcode ("fadd.*").
  std::string fitClass(const std::string &Op) const override {
    if (Op.compare(0, 5, "call.") == 0)
      return Op;
    size_t Dot = Op.find('.');
    return Dot == std::string::npos ? Op : Op.substr(0, Dot) + ".*";
  }
  std::vector<std::string> machineFileComments() const override {
    return {"IR operation classes (opcode.*, calls by callee), least squares over every",
            "benchmark's IR-level counts, times a group multiplier fitted on training",
            "kernels where the ref says so (docs/models.md, docs/calibrate.md)."};
  }
};
} // namespace

const LevelUnit &intccUnit() { return unitInstance<IntccUnit>(); }

} // namespace segtime
