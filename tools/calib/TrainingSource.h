//===- TrainingSource.h - Training kernels for `segtime calibrate` -*- C++ -*-===//
///
/// \file
/// The training set of the HLLC and INTCC group-multiplier fit
/// (predictor/CostFit.h, docs/calibrate.md "Training-set fit"): 30 small
/// typical HPC and C kernels (reductions, element-wise loops, 2-D and 3-D
/// nests, triangular factorisation, integer and bit work, sorting and
/// searching, math-library calls, divisions, branches, recurrences, sparse
/// matrix-vector product). None is one of the 17 validation kernels
/// (examples/, validation/); some are of the same classes. Working sets
/// fit in L1 or L2 (16 KiB arrays, 64 x 64 matrices): the fit is of the
/// levels' core costs; HLLC and INTCC take the time of memory traffic from
/// the memory term of the IR level's loop nests, as ICC does (docs/models.md).
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
