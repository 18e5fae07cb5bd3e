#!/usr/bin/env python3
"""cache_lines.py - predicted cache lines vs valgrind's cache simulation.

USAGE:
  scripts/validate.py --machine costvectors/local.yaml --only matmul,dot   # builds build/validation/*
  scripts/cache_lines.py --machine costvectors/local.yaml --run matmul:128 --run dot:3000 \\
                         [--json build/cache_lines.json]

For each kernel (binary and .seg.json from build/validation/) and argv:
  1. run it under valgrind --tool=cachegrind with this machine's L1d geometry
     (--D1) and once with the L2's, once with the L3's as last level (--LL),
     with SEGTIME_REPS=1 and 3; the difference / 2 of the misses in the
     kernel function (D1mr + D1mw, DLmr + DLmw) is the lines one call brings
     into each level (cachegrind: write-allocate, LRU, no prefetching);
  2. compare with the lines the ICC memory term predicts for the same
     parameters (segtime predict --level icc, its "lines brought in" note).
Deterministic: no timing. The geometry comes from memory.<L>.size, .ways,
.line_size of the machine file.
"""
import argparse, json, os, re, sys, tempfile

import yaml

from segtime_common import BUILD, SEGTIME, measured, pct, run

EVENTS_RE = re.compile(r"^events:\s*(.*)$")


def geometry(machine):
    with open(machine) as f:
        mem = yaml.safe_load(f)["memory"]
    geo = {}
    for lvl in ("L1", "L2", "L3"):
        e = mem.get(lvl, {})
        if all(k in e for k in ("size", "ways", "line_size")):
            geo[lvl] = "%d,%d,%d" % (e["size"]["value"], e["ways"]["value"], e["line_size"]["value"])
    if "L1" not in geo:
        sys.exit("cache_lines.py: %s has no memory.L1.size/ways/line_size" % machine)
    return geo


def misses(binary, argv, function, d1, ll, reps):
    """(D1 misses, LL misses) in `function` with SEGTIME_REPS=reps."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        run(["valgrind", "--tool=cachegrind", "--cache-sim=yes", "--D1=" + d1, "--LL=" + ll,
             "--I1=32768,8,64", "--cachegrind-out-file=" + out, binary] + argv,
            env=dict(os.environ, SEGTIME_REPS=str(reps)))
        events, fn, tot = [], None, None
        with open(out) as f:
            for line in f:
                m = EVENTS_RE.match(line)
                if m:
                    events = m.group(1).split()
                    tot = [0] * len(events)
                elif line.startswith("fn="):
                    fn = line[3:].strip()
                elif fn == function and line[:1].isdigit():
                    for i, v in enumerate(line.split()[1:]):
                        tot[i] += int(v)
        ix = {e: i for i, e in enumerate(events)}
        return tot[ix["D1mr"]] + tot[ix["D1mw"]], tot[ix["DLmr"]] + tot[ix["DLmw"]]


def predicted(seg, function, params, machine):
    cmd = [SEGTIME, "predict", seg, "--machine", machine, "--function", function, "--level", "icc"]
    for k, v in params.items():
        cmd += ["-p", "%s=%s" % (k, v)]
    text = run(cmd).stdout
    total = {}
    for m in re.finditer(r"lines brought in \(layer conditions\): ([^;]*);", text):
        for part in m.group(1).split(","):
            lvl, v = part.split()
            total[lvl] = total.get(lvl, 0) + float(v)
    return total


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--machine", required=True)
    ap.add_argument("--run", action="append", required=True, help="kernel:arg1,arg2")
    ap.add_argument("--json", default="")
    a = ap.parse_args()
    geo = geometry(a.machine)
    rows = []
    for spec in a.run:
        name, _, args = spec.partition(":")
        argv = args.split(",") if args else []
        base = os.path.join(BUILD, "validation", name)
        m = measured(run([base] + argv, env=dict(os.environ, SEGTIME_REPS="1")).stdout)
        pred = predicted(base + ".seg.json", m["function"], m["params"], a.machine)
        row = {"kernel": name, "params": m["params"], "predicted": pred, "simulated": {}}
        for lvl, ll in (("L2", geo.get("L2")), ("L3", geo.get("L3"))):
            if not ll:
                continue
            d1a, lla = misses(base, argv, m["function"], geo["L1"], ll, 1)
            d1b, llb = misses(base, argv, m["function"], geo["L1"], ll, 3)
            row["simulated"]["L1"] = (d1b - d1a) / 2.0
            row["simulated"][lvl] = (llb - lla) / 2.0
        rows.append(row)
        print("%-10s %-22s" % (name, ",".join("%s=%s" % kv for kv in m["params"].items())), end="")
        for lvl in ("L1", "L2", "L3"):
            s, p = row["simulated"].get(lvl), pred.get(lvl)
            if s is not None and p is not None:
                print("  %s sim %.3g pred %.3g (%s)" % (lvl, s, p,
                      "%+.0f%%" % pct(p, s) if s else "-"), end="")
        print(flush=True)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
