#!/usr/bin/env python3
"""formula_defs_check.py - checks the named subexpressions of `segtime predict --json` (stdin):
per level (and comm_formula), the definitions are named _s1, _s2, ... in
order, each uses only earlier names, and every name is written at least
twice in the formula and the later definitions (else it would not have been
named). Prints one line per formula: 'LEVEL: K definitions ok'.

USAGE: segtime predict ... --json | formula_defs_check.py
"""
import json
import re
import sys

NAME = re.compile(r"(?<![A-Za-z0-9_])_s\d+(?![A-Za-z0-9_])")


def check(where, formula, defs):
    names = [d["name"] for d in defs]
    if names != ["_s%d" % (i + 1) for i in range(len(names))]:
        sys.exit("%s: names %s" % (where, names))
    texts = [d["expr"] for d in defs] + [formula]
    for i, t in enumerate(texts):
        for used in NAME.findall(t):
            if used not in names[:i]:
                sys.exit("%s: %s uses %s before its definition" % (where, t[:80], used))
    for i, n in enumerate(names):
        uses = sum(len([u for u in NAME.findall(t) if u == n]) for t in texts[i + 1:])
        if uses < 2:
            sys.exit("%s: %s is written %d time(s)" % (where, n, uses))
    print("%s: %d definitions ok" % (where, len(defs)))


for f in json.load(sys.stdin)["functions"]:
    for level, lp in sorted(f["levels"].items()):
        check(level, lp["formula"], lp.get("formula_defs", []))
    if "comm_formula" in f:
        check("comm", f["comm_formula"], f.get("comm_formula_defs", []))
