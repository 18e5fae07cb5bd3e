//===- JsonShape.h - Shape checks of the SEG and CT JSON files --*- C++ -*-===//
///
/// \file
/// Checks that a parsed .seg.json (docs/seg-json.md) or .ct.json
/// (docs/ct-json.md) document has the shape its reader expects, before the
/// reader (SegFile::fromJSON, CtFile::fromJSON) converts it, so that a
/// malformed file is refused with a message naming the JSON path (RFC 6901,
/// "/functions/0/seg/1/trip"), the function and node, and what was expected,
/// instead of nlohmann-json's "type must be string, but is number".
///
/// Checked: the type of every key the readers use (strings, whole numbers
/// >= 0, finite numbers, lists, objects), the keys each node kind needs
/// (Loop: trip; Branch: arms; Call: callee; Comm: op, pattern), the node
/// kinds, RUV counts (numbers >= 0), nesting depth (<= MaxJsonDepth, so that
/// the recursive readers cannot run out of stack), and for CT files counts
/// >= 0, times >= 0, the timer rate > 0 and node parents that are nodes of
/// the same function. Unknown keys are allowed (newer writers may add some).
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_CORE_JSONSHAPE_H
#define SEGTIME_CORE_JSONSHAPE_H

#include <nlohmann/json.hpp>
#include <iosfwd>
#include <stdexcept>
#include <string>

namespace segtime {

/// Deepest nesting of arrays and objects a SEG or CT document may have.
constexpr int MaxJsonDepth = 1000;
/// Deepest nesting the JSON parser accepts: deeper than MaxJsonDepth, so that
/// the shape checks name the path of a deep nest, and shallow enough that
/// copying or walking the parsed document cannot run out of stack.
constexpr int MaxJsonParseDepth = 8 * MaxJsonDepth;

/// The JSON document read from In, the contents of file Path (named in the
/// error): what readJsonFile (core/Seg.h) reads after opening the file.
/// Throws std::runtime_error "PATH: invalid JSON: ..." if it is not JSON
/// (nlohmann-json's message, with line and column), has a number beyond the
/// range of a double, or nests deeper than MaxJsonParseDepth.
nlohmann::json parseJson(std::istream &In, const std::string &Path);

/// Throws std::runtime_error "at /functions/0/seg/1 (function f, node v2):
/// \"trip\" must be a string, got number" if J is not shaped as a SEG file.
/// The schema key itself is checked by SegFile::fromJSON. CheckFunctions
/// false: the document's own keys only (schemas 2 and 3 keep their functions
/// in the compact form, whose reader checks every index into its tables;
/// schema 3's warnings are texts, checked as they are expanded).
void checkSegShape(const nlohmann::json &J, bool CheckFunctions = true);

/// The same for a CT file.
void checkCtShape(const nlohmann::json &J);

} // namespace segtime

#endif
