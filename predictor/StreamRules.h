//===- StreamRules.h - Line-model rules for particular streams ---*- C++ -*-===//
///
/// \file
/// Two shapes of reference stream that the layer conditions of the ICC
/// memory term (predictor/MemoryModel.h, linesInto) treat apart: the lanes
/// of a vectorised column walk, re-rolled into the walk they come from, and
/// the object of an indexed reference (x[idx[i]]), whose accesses are taken
/// as uniformly random.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PREDICTOR_STREAMRULES_H
#define SEGTIME_PREDICTOR_STREAMRULES_H

#include "core/Seg.h"
#include "predictor/MemoryModel.h"

#include <ginac/ginac.h>
#include <vector>

namespace segtime {

/// Re-rolls a stream whose other references (Offsets, B) lie at r / U of
/// its innermost stride Stride (B), r = 1 .. U-1 (U = offsets + 1: the U
/// loads of a column that a loop vectorised by U makes per iteration,
/// Stride = U rows): it walks with stride Stride / U, Trip x U iterations,
/// and no offsets. Left as it is when Stride / U is less than Line bytes
/// (lanes within a line share it anyway) or the offsets are not those
/// fractions. trsv_col's l[i*n + j], 4 rows per iteration: stride 32 n,
/// offsets 8 n, 16 n, 24 n -> stride 8 n, 4 x the trip.
void reroll(GiNaC::ex &Stride, GiNaC::ex &Trip, std::vector<GiNaC::ex> &Offsets, double Line);

/// Is S the stream of an indexed reference's object (its first loop the
/// pseudo-loop "<loop>.object" that passes/IRMemStream.cpp writes:
/// hist[data[i]], x[idx[i]])?
bool indexedObject(const MemStream &S);

/// Lines of an indexed object of X bytes (the pseudo-loop's stride x trip)
/// brought into cache C (null: its distinct lines), touched by A = Refs x
/// the product of Trips[1..] accesses (Trips[0] is the pseudo-loop's; Refs
/// the references per iteration, the lanes of a vectorised gather), taken
/// as uniformly random: min(A, X / line) lines come in at the first
/// touches, and each further access misses with probability max(0, 1 -
/// size / V1), V1 (B) what one iteration of the reference's loop touches
/// (the object and the other streams' lines): 0 while they fit (the
/// histogram's bins), nearly 1 for an object much larger than the cache
/// (y[i] += a x[idx[i]] over 1.7 MB into a 32 KiB L1: 2.59e5 lines,
/// cachegrind 2.46e5). Model: the random-access miss rate 1 - C/X of an
/// LRU cache of C bytes over X (e.g. Hennessy & Patterson, "Computer
/// Architecture", capacity misses).
GiNaC::ex objectLines(const GiNaC::ex &X, const std::vector<GiNaC::ex> &Trips, size_t Refs,
                      const CacheGeometry *C, double Line, const GiNaC::ex &V1);

} // namespace segtime

#endif
