//===- MachineCompare.h - Agreement of two machine files --------*- C++ -*-===//
///
/// \file
/// The reproducibility check of `segtime calibrate`: two machine files (two
/// runs of calibrate) compared per group, a level and variant ("HLLC O0") or
/// a parameter group ("parkbench.RINF1", "memory.L1"), over the numbers
/// measured in both: the median and the largest relative difference
/// |B - A| / |A| of each group. HLLC/INTCC costs under 0.1 ns in both files
/// are left out (their relative difference is noise).
///
/// USAGE:
///   int Status = compareMachineFiles("run1.yaml", "run2.yaml", 0.10, false, std::cout);
///   segtime calibrate --compare run1.yaml run2.yaml [--tolerance 0.1] [--json]
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_TOOLS_CALIB_MACHINECOMPARE_H
#define SEGTIME_TOOLS_CALIB_MACHINECOMPARE_H

#include <ostream>
#include <string>

namespace segtime {

/// Compares the machine files PathA and PathB and prints a table (or JSON
/// with every entry if Json) to Out. Returns 0 if every group's median
/// relative difference is <= Tolerance, else 1. Throws MachineFileError if a
/// file does not load.
int compareMachineFiles(const std::string &PathA, const std::string &PathB, double Tolerance,
                        bool Json, std::ostream &Out);

} // namespace segtime

#endif
