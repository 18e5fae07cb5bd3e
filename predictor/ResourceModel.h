//===- ResourceModel.h - One resource model per level -----------*- C++ -*-===//
///
/// \file
/// A resource model turns a SEG node's RUV into time on one machine
/// (Warwick-94 §3.3). One class per level, same interface:
///  - POCModel:  t_x = N_flops / R_fpu            (Warwick-94 eq. 6)
///  - HLLCModel: t_x = c^T f                      (Warwick-94 eq. 4)
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PREDICTOR_RESOURCEMODEL_H
#define SEGTIME_PREDICTOR_RESOURCEMODEL_H

#include "predictor/Formula.h"
#include "predictor/Machine.h"

#include <memory>

namespace segtime {

class ResourceModel {
public:
  virtual ~ResourceModel() = default;
  /// Level key of the RUVs this model reads ("POC", "HLLC").
  virtual std::string level() const = 0;
  /// Time in seconds of one execution of a node's own RUV. Throws
  /// std::runtime_error naming machine, level and operation if a cost is missing.
  virtual StageWeight timeWeight() const = 0;
};

/// Warwick-94 eq. 6: t_x = N_flops / R_fpu, with R_fpu the sustained rate
/// (Mflop/s) of the machine's POC cost vector, entry "flop".
class POCModel : public ResourceModel {
public:
  POCModel(const Machine &M, const std::string &Opt);
  std::string level() const override { return "POC"; }
  StageWeight timeWeight() const override;
  double rateFlopPerS() const { return Rate; }

private:
  double Rate = 0;
};

/// Warwick-94 eq. 4: t_x = c^T f, the inner product of the HLLC cost vector
/// c (seconds per construct) and the node's RUV f (construct counts).
class HLLCModel : public ResourceModel {
public:
  HLLCModel(const Machine &M, const std::string &Opt);
  std::string level() const override { return "HLLC"; }
  StageWeight timeWeight() const override;

private:
  std::string MachineName, Opt;
  std::map<std::string, double> Cost; ///< s per construct
};

/// Model for a level key ("POC", "HLLC"); throws std::invalid_argument for
/// levels without a resource model in this build.
std::unique_ptr<ResourceModel> makeModel(const std::string &Level, const Machine &M,
                                         const std::string &Opt);

} // namespace segtime

#endif
