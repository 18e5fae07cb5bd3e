//===- Link.h - Joins the SEG files of one program -------------*- C++ -*-===//
///
/// \file
/// `segtime link`: the .seg.json files of the translation units of one
/// program joined into one SEG file, with the calls between translation
/// units resolved. A call to a function another unit defines is an Unknown
/// node with Callee and Args in its own unit (the plugin cannot see the
/// body); linking turns it into a Call node, so that the predictor binds
/// the callee's parameters to the arguments and costs the callee. Functions
/// with internal linkage (`static`) are visible only in their own unit:
/// when several units define one of the same name, each is renamed
/// NAME@FILE (FILE: the base name of the unit's source file, its whole path
/// if two units share the base name) and its unit's calls with it.
/// Names the linker cannot resolve (library functions, units not given) stay
/// Unknown and are listed.
///
/// callBindings is the one binder of a callee's parameters to a call's
/// arguments: the predictor binds a callee's formula with it, and the
/// plugin the code of an inlined call ("kernel.n", bindCalleeNames).
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_CORE_LINK_H
#define SEGTIME_CORE_LINK_H

#include "core/Seg.h"

#include <string>
#include <vector>

namespace segtime {

/// What linking did, for the user: calls resolved, calls left unresolved,
/// functions renamed, conflicts.
struct LinkReport {
  /// A callee no unit defines: its name, the number of call sites (source
  /// level), and the first one ("file:line").
  struct UnresolvedCall {
    std::string Callee;
    unsigned Calls = 0;
    std::string First;
  };
  unsigned Resolved = 0;               ///< call sites (source level) resolved across units
  std::vector<UnresolvedCall> Unresolved; ///< sorted by name
  /// "name -> name@file" for static functions made distinct.
  std::vector<std::string> Renamed;
  /// Problems that do not stop linking, one line each ("a.c and b.c both
  /// define 'f' with external linkage: the first is kept").
  std::vector<std::string> Warnings;
};

/// Joins Units (the SEG files of one program; Names: the paths they were
/// read from, for messages, same size) into one SEG file: every function of
/// every unit (static ones renamed where their names clash), calls across
/// units resolved (Unknown nodes with a Callee defined elsewhere become Call
/// nodes, at the source level and in the IR-level SEGs), ICC targets joined,
/// the units' warnings kept (prefixed with their file). SourceFile is the
/// units' source files joined by ", "; OptLevel the first unit's (a unit
/// compiled at another level is a warning). A function with external linkage
/// defined in two units keeps the first definition (a warning). Throws
/// std::runtime_error if Units is empty.
SegFile linkSegFiles(const std::vector<SegFile> &Units, const std::vector<std::string> &Names,
                     LinkReport &Report);

/// One parameter of a callee bound at a call: the parameter's name and the
/// argument, an expression text in the caller's source names.
struct CallBinding {
  std::string Param, Arg;
};

/// The parameters of a callee (Params, its parameter names in order) that
/// call node Call binds: those whose argument (Call.Args, same order) is an
/// expression in the caller's names. An empty argument (one the plugin
/// could not write so) binds nothing: that parameter stays
/// "<callee>.<param>" for the user to give. In parameter order; no
/// binding for arguments beyond Params (varargs) or parameters beyond the
/// arguments.
std::vector<CallBinding> callBindings(const Node &Call, const std::vector<std::string> &Params);

/// Text with every whole name "<Callee>.<param>" that Bindings binds
/// replaced by its argument (in parentheses unless it is a name or a
/// number): the code of an inlined call, written in the callee's names,
/// in its caller's. A name is whole when no letter, digit, '_' or '.'
/// touches it; other names are left as they are.
std::string bindCalleeNames(const std::string &Text, const std::string &Callee,
                            const std::vector<CallBinding> &Bindings);

/// The inverse of a binding for names: Text (code of an inlined call in
/// its caller's names) with every whole name that is the argument of one of
/// Bindings replaced by that binding's parameter (the first binding of that
/// argument), all at once ("i*m + m" with n <- m, m <- n: "i*n + n"). Only
/// arguments that are plain names are inverted (a number or an expression
/// is the caller's value: the text keeps it). A name is whole when no
/// letter, digit, '_' or '.' touches it.
std::string unbindCallerNames(const std::string &Text, const std::vector<CallBinding> &Bindings);

} // namespace segtime

#endif
