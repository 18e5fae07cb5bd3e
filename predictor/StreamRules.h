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
/// touches, and each further access misses with the probability max(0, 1 -
/// size / X) that its line is not among those the cache holds: 0 for an
/// object that fits (the histogram's bins), nearly 1 for one much larger
/// (y[i] += a x[idx[i]] over 1.7 MB into a 32 KiB L1). Model: the
/// steady-state hit rate C / X of uniformly random references to X bytes
/// in an LRU cache of C bytes (the other streams' lines pass through).
/// With Trips[0] only, the lines of one access per reference: min(Refs, X
/// / line) (what an iteration of the reference's loop touches of it, for
/// the other streams' layer conditions).
GiNaC::ex objectLines(const GiNaC::ex &X, const std::vector<GiNaC::ex> &Trips, size_t Refs,
                      const CacheGeometry *C, double Line);

} // namespace segtime

#endif
