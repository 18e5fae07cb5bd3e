//===- StreamRules.h - Line-model rules for particular streams ---*- C++ -*-===//
///
/// \file
/// Two shapes of reference stream that the layer conditions of the ICC
/// memory term (predictor/MemoryModel.h, linesInto) treat apart: the lanes
/// of a vectorised column walk, re-rolled into the walk they come from, and
/// the object of an indexed reference (x[idx[i]]), whose accesses are taken
/// as uniformly random; and the share of a sweep's lines that an LRU cache
/// just smaller than the sweep keeps (lruFit).
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

/// The share (an expression, 0..1) of the lines of a stream that does not move in a loop (its
/// stride S there is 0) that the loop's next iteration finds again in LRU
/// cache C, when all streams touch V bytes in one iteration: 1 up to the
/// cache's size, 0 from (ways + 1) x sets lines on, and between them the
/// share of the lines in sets that do not overflow. Model: V lines spread
/// evenly over the S sets (a contiguous array: q = floor(V / S) lines in
/// each set, r = V - q S sets with one more); a cyclic sweep of the same
/// lines keeps a set's lines when they are at most its W ways and brings
/// all of them in again otherwise (LRU), so with q = W the r sets of W + 1
/// lines miss, r (W + 1) lines per sweep: the miss share min(1, max(0, V -
/// S W) (W + 1) / V). Floyd n = 363 in a 1 MiB 16-way L2: 16471 lines over
/// 1024 sets, 87 sets of 17 lines, 1479 lines again per k, not 16471
/// (cachegrind: 5.44e5 lines for 363 sweeps). The capacity test V <= size
/// stays: for a stream that moves (S != 0: its old lines stay in the sets
/// as new ones come; a column walk shifted by a double overflowed its sets
/// in cachegrind as when nothing fits), where the lines do not spread
/// evenly (Even = 0: a strided walk that uses part of the sets, matmul's
/// column of B 800 B apart in a 128-set cache of 16 B lines, every other
/// set) and in a direct-mapped cache (one way: any two lines of a set
/// conflict, which the even spread does not describe; cachegrind cannot
/// simulate the 16 B lines of the SPARC caches on an AVX host to check).
GiNaC::ex lruFit(const GiNaC::ex &V, const GiNaC::ex &S, const CacheGeometry &C,
                 const GiNaC::ex &Even);

} // namespace segtime

#endif
