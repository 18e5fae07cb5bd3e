#!/usr/bin/env python3
"""cache_lines.py - predicted cache lines vs valgrind's cache simulation.

USAGE:
  scripts/validate.py --machine costvectors/local.yaml --only matmul,dot   # builds build/validation/*
  scripts/cache_lines.py --machine costvectors/local.yaml --run matmul:128 --run dot:3000 \\
                         [--json build/cache_lines.json] [--per-nest]

For each kernel (binary and .seg.json from build/validation/) and argv:
  1. run it under valgrind --tool=cachegrind with this machine's L1d geometry
     (--D1) and once with the L2's, once with the L3's as last level (--LL),
     with SEGTIME_REPS=1 and 3; the difference / 2 of the misses in the
     kernel function (D1mr + D1mw, DLmr + DLmw) is the lines one call brings
     into each level (cachegrind: write-allocate, LRU, no prefetching);
  2. compare with the lines the ICC memory term predicts for the same
     parameters (segtime predict --level icc, its "lines brought in" note).
With --per-nest, both sides per ICC loop nest: cachegrind's misses summed
over the source lines of each nest (its IR loop's source range in the
.seg.json), the prediction from `segtime predict --breakdown --json` (lines
into L1 and into L2; a nest the ECM model does not analyse is said so). Per
nest needs debug line info: build the kernel with -g (the code is the same).
Deterministic: no timing. The geometry (--I1, --D1, --LL) comes from
memory.<L>.size, .ways, .line_size of the machine file (I1: memory.L1I.*
if the file has it, else the L1d's).
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
    e = mem.get("L1I", {})
    geo["I1"] = ("%d,%d,%d" % (e["size"]["value"], e["ways"]["value"], e["line_size"]["value"])
                 if all(k in e for k in ("size", "ways", "line_size")) else geo["L1"])
    return geo


def misses(binary, argv, function, d1, ll, reps, i1, ranges=()):
    """(D1 misses, LL misses) in `function` with SEGTIME_REPS=reps, and the
    same per source-line range of `ranges` ((first, last) pairs)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        run(["valgrind", "--tool=cachegrind", "--cache-sim=yes", "--D1=" + d1, "--LL=" + ll,
             "--I1=" + i1, "--cachegrind-out-file=" + out, binary] + argv,
            env=dict(os.environ, SEGTIME_REPS=str(reps)))
        events, fn, tot, per = [], None, None, [None] * len(ranges)
        with open(out) as f:
            for line in f:
                m = EVENTS_RE.match(line)
                if m:
                    events = m.group(1).split()
                    tot = [0] * len(events)
                    per = [[0] * len(events) for _ in ranges]
                elif line.startswith("fn="):
                    fn = line[3:].strip()
                elif fn == function and line[:1].isdigit():
                    f_ = line.split()
                    for i, v in enumerate(f_[1:]):
                        tot[i] += int(v)
                    for r, (lo, hi) in enumerate(ranges):
                        if lo <= int(f_[0]) <= hi:
                            for i, v in enumerate(f_[1:]):
                                per[r][i] += int(v)
        ix = {e: i for i, e in enumerate(events)}
        pick = lambda t: (t[ix["D1mr"]] + t[ix["D1mw"]], t[ix["DLmr"]] + t[ix["DLmw"]])
        return pick(tot), [pick(t) for t in per]


def nest_ranges(lines):
    """Source-line ranges of nests starting at `lines`: each to the line
    before the next nest's, the last to the end of the function."""
    lines = sorted(lines)
    return [(lo, lines[k + 1] - 1 if k + 1 < len(lines) else 10 ** 9)
            for k, lo in enumerate(lines)]


def predicted_nests(seg, function, params, machine):
    """{nest line: breakdown row} from segtime predict --breakdown --json."""
    cmd = [SEGTIME, "predict", seg, "--machine", machine, "--function", function, "--level",
           "icc", "--breakdown", "--json"]
    for k, v in params.items():
        cmd += ["-p", "%s=%s" % (k, v)]
    j = json.loads(run(cmd).stdout)
    return {b["line"]: b for f in j["functions"] for b in f.get("breakdown", [])}


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
    ap.add_argument("--per-nest", action="store_true",
                    help="compare per loop nest (cachegrind per source line range)")
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
        pn = predicted_nests(base + ".seg.json", m["function"], m["params"], a.machine) \
            if a.per_nest else {}
        ranges = nest_ranges(pn)
        row["nests"] = [{"loop": pn[lo]["loop"], "lines": [lo, hi], "simulated": {},
                         "predicted": pn[lo].get("lines", {}), "model": pn[lo]["model"]}
                        for lo, hi in ranges]
        for lvl, ll in (("L2", geo.get("L2")), ("L3", geo.get("L3"))):
            if not ll:
                continue
            (d1a, lla), pa = misses(base, argv, m["function"], geo["L1"], ll, 1, geo["I1"], ranges)
            (d1b, llb), pb = misses(base, argv, m["function"], geo["L1"], ll, 3, geo["I1"], ranges)
            row["simulated"]["L1"] = (d1b - d1a) / 2.0
            row["simulated"][lvl] = (llb - lla) / 2.0
            for n, x, y in zip(row["nests"], pa, pb):
                n["simulated"]["L1"] = (y[0] - x[0]) / 2.0
                n["simulated"][lvl] = (y[1] - x[1]) / 2.0
        rows.append(row)
        print("%-10s %-22s" % (name, ",".join("%s=%s" % kv for kv in m["params"].items())), end="")
        for lvl in ("L1", "L2", "L3"):
            s, p = row["simulated"].get(lvl), pred.get(lvl)
            if s is not None and p is not None:
                print("  %s sim %.3g pred %.3g (%s)" % (lvl, s, p,
                      "%+.0f%%" % pct(p, s) if s else "-"), end="")
        print(flush=True)
        for n in row["nests"]:
            print("  nest %s (from line %d, %s)" % (n["loop"], n["lines"][0], n["model"]), end="")
            for lvl in ("L1", "L2", "L3"):
                # (the breakdown's lines into L2 from beyond: its "L2")
                s_, p_ = n["simulated"].get(lvl), n["predicted"].get(lvl if lvl != "L3" else "memory")
                if s_ is not None and p_ is not None:
                    print("  %s sim %.3g pred %.3g (%s)" % (lvl, s_, p_,
                          "%+.0f%%" % pct(p_, s_) if s_ else "-"), end="")
            print(flush=True)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
