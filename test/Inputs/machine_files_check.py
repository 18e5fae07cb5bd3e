#!/usr/bin/env python3
"""machine_files_check.py - every machine file of a directory has a provenance
on every number, and segtime loads it.

USAGE: machine_files_check.py COSTVECTORS_DIR SEGTIME SEG_FILE

For each DIR/*.yaml (sorted): every cost of every level and variant, and every
entry of the parameter sections (memory, comm, parkbench), is a mapping with a
finite `value`, a `provenance` of measured, paper, datasheet, estimated,
derived and a non-empty `ref` (the basis of an estimate, the source of a
datasheet or paper value); parameter entries also have a `unit`; a bare
number anywhere in those sections is an error. Then `segtime predict SEG_FILE
--machine FILE --level all` must load the file (exit 0). Prints
"NAME.yaml: ok (N numbers)" per file and "all K machine files ok", or the
problems, exit 1.
"""
import glob
import math
import os
import subprocess
import sys

import yaml

PROVENANCES = {"measured", "paper", "datasheet", "estimated", "derived"}


def check_entry(where, e, need_unit, bad):
    if not isinstance(e, dict) or "value" not in e:
        bad.append(f"{where}: expected a mapping {{value, provenance, ref}}, got {e!r}")
        return
    v = e["value"]
    try:
        ok = not isinstance(v, bool) and math.isfinite(float(v))
    except (TypeError, ValueError):
        ok = False
    if not ok:
        bad.append(f"{where}: value {v!r} is not a finite number")
    if e.get("provenance") not in PROVENANCES:
        bad.append(f"{where}: provenance {e.get('provenance')!r} is not one of "
                   + ", ".join(sorted(PROVENANCES)))
    if not str(e.get("ref", "")).strip():
        bad.append(f"{where}: no ref (source, or the basis of the estimate)")
    if need_unit and not str(e.get("unit", "")).strip():
        bad.append(f"{where}: no unit")


def walk_params(where, node, bad, count):
    if isinstance(node, dict) and "value" in node:
        check_entry(where, node, True, bad)
        count[0] += 1
    elif isinstance(node, dict):
        for k, v in node.items():
            walk_params(f"{where}.{k}", v, bad, count)
    else:
        bad.append(f"{where}: bare value {node!r} without provenance")


def check_file(path, segtime, seg):
    bad, count = [], [0]
    with open(path, encoding="utf-8") as f:
        doc = yaml.safe_load(f)
    for level, body in (doc.get("levels") or {}).items():
        for var, vec in (body.get("variants") or {}).items():
            if not str(vec.get("unit", "")).strip():
                bad.append(f"levels.{level}.{var}: no unit")
            for op, e in (vec.get("costs") or {}).items():
                check_entry(f"levels.{level}.{var}.{op}", e, False, bad)
                count[0] += 1
    for section in ("memory", "comm", "parkbench"):
        if section in doc:
            walk_params(section, doc[section], bad, count)
    r = subprocess.run([segtime, "predict", seg, "--machine", path, "--level", "all",
                        "--function", "tri", "-p", "n=4"], capture_output=True, text=True)
    if r.returncode != 0:
        bad.append("segtime predict does not load it: " + r.stderr.strip())
    return bad, count[0]


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    files = sorted(glob.glob(os.path.join(sys.argv[1], "*.yaml")))
    failed = False
    for path in files:
        bad, n = check_file(path, sys.argv[2], sys.argv[3])
        name = os.path.basename(path)
        if bad:
            failed = True
            for b in bad:
                print(f"{name}: {b}")
        else:
            print(f"{name}: ok ({n} numbers)")
    if not files:
        print("no machine files in " + sys.argv[1])
        sys.exit(1)
    if failed:
        sys.exit(1)
    print(f"all {len(files)} machine files ok")


if __name__ == "__main__":
    main()
