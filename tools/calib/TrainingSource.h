//===- TrainingSource.h - Training kernels for `segtime calibrate` -*- C++ -*-===//
///
/// \file
/// The training set of the HLLC and INTCC group-multiplier fit
/// (predictor/CostFit.h, docs/calibrate.md "Training-set fit"): 34 small
/// typical HPC and C kernels (reductions, element-wise loops, 2-D and 3-D
/// nests, triangular factorisation, integer and bit work, sorting and
/// searching, math-library calls, divisions, branches, recurrences, sparse
/// matrix-vector product). None is one of the 17 validation kernels
/// (examples/, validation/); some are of the same classes. Working sets of
/// 30 fit in L1 or L2 (16 KiB arrays, 64 x 64 matrices); 4 (train_mem_*)
/// stream 16-48 MiB from memory, since HLLC and INTCC have no memory term
/// and half the validation kernels run from memory (docs/calibrate.md).
///
/// Each kernel is `void train_NAME(long R)`, R repetitions of the kernel
/// separated by a compiler barrier (CLOBBER, BenchSource.h), timed by the
/// same program and statistics as the construct benchmarks (MaskTrain).
///
/// USAGE:
///   std::string C = trainingSource();            // appended to bench.c
///   for (const BenchInfo &B : trainingBenches()) ...
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_TOOLS_CALIB_TRAININGSOURCE_H
#define SEGTIME_TOOLS_CALIB_TRAININGSOURCE_H

#include "tools/calib/BenchSource.h"

#include <string>
#include <vector>

namespace segtime {

/// The C text of the training kernels and their data (uses the macros B,
/// BF and CLOBBER of the benchmark program's prologue).
const std::string &trainingSource();

/// One BenchInfo (Train = true) per training kernel, in source order, What
/// = its one-line description.
std::vector<BenchInfo> trainingBenches();

} // namespace segtime

#endif
