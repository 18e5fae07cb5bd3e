#!/usr/bin/env python3
"""Compares the ICC RUVs of two .seg.json files: every IR-level node's
"ICC:<target>" RUV, by function, node id and target, must be the same in
both (and present in both). Prints the number of RUVs compared, or the
first differences, and exits 1 if any differ or if there are none.

Usage: icc_ruvs_equal.py --segtime SEGTIME A.seg.json B.seg.json
(files of schema 2 are read in the expanded form `segtime show --json`
prints, core/Seg.cpp being the one reader of that format)
"""
import json
import subprocess
import sys

SEGTIME = "segtime"


def icc_ruvs(path):
    """{(function, node id, "ICC:<target>"): RUV} over all IR-level nodes."""
    out = {}

    def walk(fn, nodes):
        for n in nodes:
            for key, ruv in n.get("ruv", {}).items():
                if key.startswith("ICC:"):
                    out[(fn, n["id"], key)] = ruv
            walk(fn, n.get("body", []))

    data = json.loads(subprocess.run([SEGTIME, "show", path, "--json"], check=True,
                                     capture_output=True, text=True).stdout)
    for fn in data["functions"]:
        walk(fn["name"], fn.get("level_segs", {}).get("IR", []))
    return out


def main():
    global SEGTIME
    args = sys.argv[1:]
    if args[:1] == ["--segtime"]:
        SEGTIME, args = args[1], args[2:]
    a, b = icc_ruvs(args[0]), icc_ruvs(args[1])
    diffs = [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
    for k in diffs[:10]:
        print("differs:", k, a.get(k), b.get(k))
    if diffs or not a:
        print("%d of %d ICC RUVs differ" % (len(diffs), len(set(a) | set(b))))
        return 1
    print("%d ICC RUVs equal" % len(a))
    return 0


if __name__ == "__main__":
    sys.exit(main())
