#!/usr/bin/env python3
"""ct_recursion_check.py - telescoping check of a CT file's recursive functions.

USAGE: ct_recursion_check.py prog.ct.json ENTRY:F1,F2,... [ENTRY:...]

For each cycle (functions F1, F2, ... entered from outside only through
ENTRY), prints the activations of its functions and the sum of the exclusive
times of all their nodes (functions included) divided by ENTRY's inclusive
time, which counts each outermost activation once: 1 when every activation's
nodes are timed and nothing is counted twice.
"""
import json
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        fns = {fn["name"]: fn for fn in json.load(f)["functions"]}
    for spec in sys.argv[2:]:
        entry, members = spec.split(":")
        cycle = [fns[m] for m in members.split(",")]
        excl = sum(fn["exclusive_s"] + sum(n.get("exclusive_s", 0) for n in fn["nodes"])
                   for fn in cycle)
        incl = fns[entry]["inclusive_s"]
        if incl <= 0:
            sys.exit("%s: inclusive time %g" % (entry, incl))
        print("%s: %d activations, exclusive sum / inclusive = %.4f"
              % (entry, sum(fn["calls"] for fn in cycle), excl / incl))


if __name__ == "__main__":
    main()
