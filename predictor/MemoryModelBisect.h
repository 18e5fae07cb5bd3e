//===- MemoryModelBisect.h - Cache lines of a batch of binary searches -*- C++ -*-===//
///
/// \file
/// The fallback of the ICC memory term for a bisection's table
/// (docs/models.md "Memory term", "Bisections"): a load whose index halves
/// an interval [lo, hi) at every step of a search loop is not an affine
/// reference, so the layer conditions do not apply to it. The pass
/// (passes/IRMemStream.cpp) writes its stream with the pseudo-loop
/// "<loop>.bisect" (stride: the element's bytes s, trip: the table's
/// elements T), then the search loop (its steps) and the loops that enclose
/// it (each of its executions is a search); the lines follow from the
/// implicit search tree:
///
///   - level l (l = 0, 1, ...) of a search probes one of 2^l elements;
///     from level floor(log2(T s / line)) + 1 on, the remaining interval lies
///     within lines the earlier probes of the same search bounded, so only
///     the first Lf = floor(log2(T s / line)) + 1 levels touch new lines,
///     one line per search and level;
///   - K random searches touch D(K) = sum_{l < Lf} 2^l (1 - (1 - 2^-l)^K)
///     distinct lines (the expected occupancy of 2^l lines by K uniform
///     draws; at most the table's T s / line lines);
///   - in a cache of C lines, replayed calls with the same keys (warm
///     caches): a line of level l is touched again after a geometric number
///     of searches of mean 2^l, and LRU keeps it if fewer than N_C searches
///     came between, N_C the searches whose lines fill the cache (D(N_C) =
///     C): each search misses a level-l line with probability (1 -
///     2^-l)^N_C, K sum_l (1 - 2^-l)^N_C lines per call; nothing is brought
///     in again when all D(K) lines fit (D(K) <= C).
///
/// Cachegrind (EPYC5's 48 KiB L1, 1024 keys): T = 64512 ints 3510 lines
/// per call against 3509, T = 1047552 8572 against 8729.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PREDICTOR_MEMORYMODELBISECT_H
#define SEGTIME_PREDICTOR_MEMORYMODELBISECT_H

#include "core/Seg.h"
#include "predictor/MemoryModel.h"

#include <functional>
#include <ginac/ginac.h>
#include <vector>

namespace segtime {

/// bisect_lines(table_bytes, searches, cache_lines, line): the lines K =
/// searches binary searches in a sorted table of table_bytes bring into a
/// cache of cache_lines lines of line bytes per call (cache_lines = 0: the
/// distinct lines they touch), by the rule above; unevaluated until all
/// arguments are numbers. 0 for no search or an empty table.
DECLARE_FUNCTION_4P(bisect_lines)

/// bisect_set_lines(elements, element_bytes, searches, sets, ways, line):
/// the same for a cache of sets x ways lines indexed by address bits (L1,
/// L2): the probes of the search tree (mid = lo + (hi - lo) / 2 of a table
/// whose start is line-aligned) are placed in their sets, and the replay
/// rule above runs per set, with its own N_C (the searches whose lines of
/// that set fill its ways). A table of a power of two near its size puts
/// the probes of a level at multiples of a large power of two, in few sets:
/// lines that the whole cache would hold miss there. More than 2^22 probes
/// to place: bisect_lines of the whole cache. Unevaluated until all
/// arguments are numbers.
DECLARE_FUNCTION_6P(bisect_set_lines)

/// Is S the stream of a bisection's table (its first loop the pseudo-loop
/// "<loop>.bisect" of passes/IRMemStream.cpp)?
bool bisection(const MemStream &S);

/// The streams of S that are not bisections, in their order.
std::vector<MemStream> withoutBisections(const std::vector<MemStream> &S);

/// Per stream of S, the lines into cache C (null: distinct lines): a
/// bisection's by bisectionLines, the others' as Plain gives them for the
/// streams that are not bisections (in their order; linesIntoEach). The
/// bisections' lines are left out of the other streams' layer conditions
/// and warm-cache test (a search's levels that stay cached are its own
/// rule's).
std::vector<GiNaC::ex>
bisectionsApart(const std::vector<MemStream> &S, const CacheGeometry *C, double Line,
                const std::function<std::vector<GiNaC::ex>(const std::vector<MemStream> &)> &Plain);

/// Lines bisection stream S (bisection(S)) brings into cache C per
/// execution of its nest (null: its distinct lines): bisect_lines of the
/// table's bytes (the pseudo-loop's stride x trip) and the searches (the
/// references per iteration, 1 + its offsets: the copies of an unrolled
/// loop's search, times the trips of the loops enclosing the search loop,
/// its third loop on; the second, the search loop, is its steps); for an
/// L1 or L2 of more than one set, bisect_set_lines (an L3 is sliced and
/// hashed: taken as fully associative).
/// Throws std::invalid_argument if S is not a bisection.
GiNaC::ex bisectionLines(const MemStream &S, const CacheGeometry *C, double Line = 64);

/// Time (s) of the dependent loads of the bisection streams of S per
/// execution of their nest: the lines into cache k that cache k + 1 holds
/// cost its load-to-use latency Latency[k + 1] (Latency: per cache level,
/// then memory, s; memory.<L>.latency measured by `segtime calibrate
/// --level caches`), those into the last cache memory's. A search's next
/// address depends on its previous load, so the loads of the table's lines
/// wait one after the other (docs/models.md "Bisections": EPYC5's held-out
/// rows cost 3.2 to 8 ns per such line above the core, where the L2's
/// bandwidth would charge 0.3 ns). 0 without bisection streams; Caches and
/// Latency must have the cache levels (Latency one more), else throws
/// std::invalid_argument.
GiNaC::ex bisectionChainTime(const std::vector<MemStream> &S,
                             const std::vector<CacheGeometry> &Caches,
                             const std::vector<double> &Latency);

} // namespace segtime

#endif
