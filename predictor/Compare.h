//===- Compare.h - Predicted vs measured per SEG node (Warwick-94 §5) -*- C++ -*-===//
///
/// \file
/// The report of `segtime compare`: the Warwick-94 Table 6 layout (per SEG
/// node of a kernel, the component-timing (CT) time and each level's
/// predicted time, with the error of each level against CT), the kernel
/// totals against the measured whole-run time, and the Warwick-94 Table 7
/// statistics of the errors per level (mean, standard deviation, min, max,
/// 90% confidence interval of the mean). Computes; prints text, CSV and
/// JSON from the same object.
///
/// Errors (percent), Warwick-94 §5.2:
///  - node resource-model error  e_node = 100 (t_L - t_CT) / t_CT, per node
///    CT timed (level vs CT per node: the SEG is the same, only the resource
///    model differs);
///  - overall error              e_L = 100 (T_L - T_meas) / T_meas of the
///    kernel totals, T_meas the measured whole-run time;
///  - structure error            e_CT = 100 (T_CT - T_meas) / T_meas, T_CT
///    the CT time of the kernel (the sum of its CT components), which has no
///    resource-model error ("in the case of component timing this is zero");
///  - total resource-model error e_L - e_CT (Warwick-94 §5.2: "subtracting
///    the resulting errors in the component timing from the errors in the
///    predicted times").
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PREDICTOR_COMPARE_H
#define SEGTIME_PREDICTOR_COMPARE_H

#include "core/Ct.h"
#include "core/Seg.h"
#include "predictor/Machine.h"
#include "predictor/Predict.h"

#include <optional>
#include <ostream>

namespace segtime {

/// t_{0.95, Dof}: the critical value of Student's t distribution for a
/// two-sided 90% interval with Dof degrees of freedom (Dof >= 1), the 0.95
/// quantile from Boost.Math. Throws std::invalid_argument for Dof = 0.
double studentT90(unsigned Dof);

/// Warwick-94 Table 7 statistics of a sample of errors E_i (percent), taken
/// as magnitudes |E_i| as in the paper's table: mean, sample standard
/// deviation s (n-1 divisor; 0 if n = 1), min, max, and the 90% confidence
/// interval of the mean, mean -/+ t_{0.95,n-1} s / sqrt(n) (Student t; none
/// when n < 2). Bias is the mean of the signed E_i.
struct ErrorStats {
  size_t N = 0;
  double Mean = 0, SD = 0, Min = 0, Max = 0, Bias = 0;
  std::optional<double> CILow, CIHigh;
  json toJSON() const;
};
/// Statistics of E (percent). Throws std::invalid_argument if E is empty or
/// holds a non-finite value.
ErrorStats errorStats(const std::vector<double> &E);

/// One row of Table 6: a loop, branch or call of the kernel's source SEG.
struct CompareRow {
  std::string Id, Kind, Label; ///< "v3", "loop", "for i"
  unsigned Line = 0;
  int Depth = 0;              ///< nesting depth in the SEG (0: function body)
  std::optional<double> CtS;  ///< CT inclusive time per kernel call, s (unset: untimed)
  LevelMap<double> LevelS; ///< predicted time per kernel call, s
  /// e_node per level, percent (only when CtS > 0).
  LevelMap<double> errors() const;
};

/// One kernel run: a SEG file, the CT profile of one run, its rows and totals.
struct CompareRun {
  std::string SegPath, CtPath, Function;
  std::string Size;                ///< problem size label ("" = none)
  double Calls = 0;                ///< kernel calls in the CT run
  std::vector<ParamValue> Params;  ///< values the formulas were evaluated with
  std::vector<CompareRow> Rows;
  LevelMap<double> TotalS;             ///< T_L per level, s per call
  double CtTotalS = 0;                  ///< T_CT, s per call
  std::optional<double> MeasuredS;      ///< --measured, s per call
  std::vector<std::string> Notes;
  /// T_meas: MeasuredS, else T_CT.
  double wholeS() const { return MeasuredS ? *MeasuredS : CtTotalS; }
  double overallErr(Level L) const;  ///< e_L, percent
  double structureErr() const;       ///< e_CT, percent
  double resourceErr(Level L) const; ///< e_L - e_CT, percent
};

/// Options of one run.
struct CompareOptions {
  std::string Function;                 ///< "" = the costliest CT function with a SEG, not main
  std::map<std::string, double> Values; ///< -p NAME=VALUE (win over the profile)
  std::string Target;                   ///< ICC target ("" = as segtime predict)
  std::optional<double> MeasuredS;
  std::string Size;
};

/// Compares one run: matches Ct to S (core/Ct.h matchSeg), takes the loop
/// counts and branch probabilities it measured (profileParameters), predicts
/// the kernel with every level S and M allow (POC, HLLC; INTCC and ICC when
/// both files have them), and each loop, branch and call of the kernel's
/// source SEG as FormulaBuilder::nodeForm (IR levels: the IR nodes whose
/// SourceNode is the node or a descendant; a node no IR node comes from has
/// no INTCC/ICC time, with a note). Throws std::runtime_error naming
/// the files when the kernel is missing from either or cannot be predicted.
CompareRun compareRun(const SegFile &S, CtFile &Ct, const Machine &M, const CompareOptions &O);

/// Table 7 rows: per level and scope ("nodes": e_node over every CT-timed
/// node of every run; "totals": e_L - e_CT over runs; "overall": e_L over
/// runs), plus the structure error e_CT over runs (level "CT").
struct CompareStat {
  segtime::Level Level; ///< CT for the structure error
  std::string Scope;
  ErrorStats S;
};

/// The report: runs, Table 7, text/CSV/JSON printers (layout: docs/cli.md).
struct CompareReport {
  std::string MachineName, MachinePath;
  std::vector<Level> Levels; ///< levels present, in ICC, INTCC, HLLC, POC order
  std::vector<CompareRun> Runs;
  std::vector<CompareStat> Stats;
  /// Fills Levels and Stats from Runs (a level is listed if any run has it;
  /// statistics use the runs that have it).
  void finish();
  json toJSON() const;
  void printText(std::ostream &OS) const;
  /// Two CSV tables separated by a blank line: Table 6 rows (one per node
  /// and run, then a "total" row per run), then Table 7.
  void printCSV(std::ostream &OS) const;
};

} // namespace segtime

#endif
