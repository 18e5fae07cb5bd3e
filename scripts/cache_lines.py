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

  scripts/cache_lines.py --machine costvectors/znver3-epyc.yaml --heldout \
                         [--only lu,gemm_ikj] [--budget 60] [--json build/cache_lines_heldout.json]

--heldout: every loop nest of every kernel of validation/manifest.json
(compiled with -g into build/cache_lines/) at two of its manifest sizes, an
in-cache one (the largest footprint that fits the L2, or the next smaller
if that is over --budget) and an out-of-cache
one (the smallest that does not; if that is over --budget, the geometric
mean of the two sizes when its footprint still exceeds the L2), under cachegrind with the machine's L1
as D1 and its L2 as LL (SEGTIME_REPS=1 and 2: the difference is one call).
Nests are paired with source lines by the outermost source loop they come
from (an unrolled outer loop and its remainder nest, which the optimiser
attributes to the inner source loop, share that loop's lines and are
compared as one; so are a vector loop and its remainder on one line).
Per nest and level (lines into L1, lines into L2) the predicted lines brought
in (the breakdown's "lines_in" times the nest's executions per call) against
the simulated misses; a nest agrees at a level if |pred - sim| <= 10 % of
sim, or at most the floor max(8, 1 % of the kernel's footprint in lines)
(a cache that holds the data: a few conflict misses against 0). A nest the
ECM model does not analyse counts as a miss. A size whose cachegrind runs
would take more than --budget s (the native time x 50) is left out and
listed (unless --sim-from simulated it: the native time varies with the
machine's load, and runs against one --sim-from must compare the same
nests). --sim-from JSON[,JSON] reuses earlier runs' simulated misses (the
kernels' code does not change with the model: re-predicting takes seconds).
Prints the nests, how many agree at every level, the misses, the
fraction; --json the rows.
"""
import argparse, json, os, re, sys, tempfile

import yaml

from segtime_common import (BUILD, ROOT, SEGTIME, compile_kernel, eval_expr, load_manifest,
                            load_seg, measured, pct, run)

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
                        # (line 0: code without a source line, e.g. a load the
                        # optimiser hoisted; the one nest's when there is one)
                        if lo <= int(f_[0]) <= hi or (int(f_[0]) == 0 and len(ranges) == 1):
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


def source_lines(seg, function):
    """{IR loop id: first source line of the outermost source loop its
    source node lies in}: an outer loop that the optimiser unrolled leaves
    its remainder as a nest attributed to the inner source loop (trmv's
    rows mod 8), whose code shares the inner loop's lines with the unrolled
    nest; cachegrind's misses per source line cannot tell the two apart, so
    both are compared as one."""
    fn = next((f for f in seg["functions"] if f["name"] == function), None)
    if fn is None:
        return {}
    top = {}  # source node id -> line of its outermost enclosing source loop

    def walk(nodes, line):
        for n in nodes:
            here = line if line is not None else (
                n["range"]["line"] if n["kind"] == "Loop" else None)
            top[n["id"]] = here
            walk(n.get("body", []), here)
    walk(fn["seg"], None)
    out = {}
    for segs in fn.get("level_segs", {}).values():
        for n in segs:
            if n["kind"] == "Loop" and top.get(n.get("source_node")) is not None:
                out[n["id"]] = top[n["source_node"]]
    return out


def predicted_nests(seg, function, params, machine, extra=(), group=False, lines=None):
    """{nest line: breakdown row} from segtime predict --breakdown --json
    (group: nests on one line merged, nest_groups; lines: {IR loop id:
    line} to group by instead of the nest's own first line)."""
    cmd = [SEGTIME, "predict", seg, "--machine", machine, "--function", function, "--level",
           "icc", "--breakdown", "--json"] + list(extra)
    for k, v in params.items():
        cmd += ["-p", "%s=%s" % (k, v)]
    j = json.loads(run(cmd).stdout)
    if not group:
        return {b["line"]: b for f in j["functions"] for b in f.get("breakdown", [])}
    out = {}
    for f in j["functions"]:
        for b in f.get("breakdown", []):
            out.setdefault((lines or {}).get(b["loop"], b["line"]), []).append(b)
    return nest_groups(out)


def nest_groups(pn):
    """{line: row}: the breakdown rows of nests that start on one source line
    (a vector loop, its remainder, the versions of a runtime check) as one:
    lines_in times executions summed, model "ECM" only if every nest that
    runs is analysed."""
    out = {}
    for line, rows in pn.items():
        g = {"loop": "+".join(b["loop"] for b in rows), "lines_in": {}, "executions": 1,
             "model": "ECM"}
        for b in rows:
            if b["executions"] <= 0 and b["iterations"] <= 0:
                continue
            if "lines_in" not in b:
                g["model"] = b["model"]
                g["not_analysable"] = b.get("not_analysable", "no lines")
                continue
            for lvl, v in b["lines_in"].items():
                g["lines_in"][lvl] = g["lines_in"].get(lvl, 0.0) + v * b["executions"]
        if "not_analysable" in g:
            del g["lines_in"]
        out[line] = g
    return out


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


# cachegrind runs a kernel about this many times slower than natively
# (measured here: 30-60x).
CACHEGRIND_SLOWDOWN = 50


def agrees(pred, sim, floor):
    """Within 10 % of the simulated lines, or within the floor (lines)."""
    return abs(pred - sim) <= max(0.10 * sim, floor)


def choose_sizes(k, l2):
    """[(label, [(footprint, argv), ...])]: the largest manifest size whose
    footprint fits the L2 ("in-cache"; the smaller ones as cheaper
    candidates); the smallest that does not
    ("out-of-cache"), then as a cheaper candidate the geometric mean of the
    two (arguments that differ, rounded) if its footprint still exceeds the L2."""
    fp = lambda s: eval_expr(k["footprint_bytes"], dict(zip(k["args"], s)))
    inside = [s for s in k["sizes"] if fp(s) <= l2]
    outside = [s for s in k["sizes"] if fp(s) > l2]
    out = []
    if inside:
        i = max(inside, key=fp)
        out.append(("in-cache", [(fp(x), x) for x in sorted(inside, key=fp, reverse=True)]))
    if outside:
        o = min(outside, key=fp)
        cands = [(fp(o), o)]
        if inside:
            g = [x if x == y else int(round((x * y) ** 0.5)) for x, y in zip(i, o)]
            if fp(g) > l2 and g != o:
                cands.append((fp(g), g))
        out.append(("out-of-cache", cands))
    return out


def heldout(a, geo):
    """The --heldout mode (module docstring)."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from heldout import FLAGS, given
    manifest = load_manifest()
    kernels = [k for k in manifest["kernels"]
               if not a.only or k["name"] in a.only.split(",")]
    l2 = float(geo["L2"].split(",")[0])
    work = os.path.join(BUILD, "cache_lines")
    os.makedirs(work, exist_ok=True)
    rows, skipped = [], []
    # --sim-from: the simulated misses of an earlier run (same compiler, same
    # kernels: the code does not depend on the model), by kernel, argv and
    # source-line range
    cached, cached_sizes = {}, set()
    for path in filter(None, a.sim_from.split(",")):
        with open(path) as f:
            for r in json.load(f)["rows"]:
                cached[(r["kernel"], tuple(r["argv"]), r["lines"][0], r["lines"][1])] = \
                    r["simulated"]
                cached_sizes.add((r["kernel"], tuple(r["argv"])))
    for k in kernels:
        base = os.path.join(work, k["name"])
        compile_kernel(os.path.join(ROOT, k["file"]), base, FLAGS + ["-g"])
        seg = load_seg(base + ".seg.json")
        for label, cands in choose_sizes(k, l2):
            for fp, size in cands:
                argv = [str(x) for x in size]
                m = measured(run([base] + argv, env=dict(os.environ, SEGTIME_REPS="1")).stdout)
                est = m["median_s"] * 3 * CACHEGRIND_SLOWDOWN
                # (a size --sim-from simulated costs no cachegrind run: taken
                # whatever the native time, which varies with the machine's
                # load, so that runs against one --sim-from compare the same
                # nests)
                if est <= a.budget or (k["name"], tuple(argv)) in cached_sizes:
                    break
                skipped.append("%s %s (%s): cachegrind ~%.0f s > --budget %g" %
                               (k["name"], " ".join(argv), label, est, a.budget))
                print("skip " + skipped[-1], flush=True)
            else:
                continue
            extra = given(k, seg, m["params"])
            pn = predicted_nests(base + ".seg.json", m["function"], m["params"], a.machine, extra,
                                 group=True, lines=source_lines(seg, m["function"]))
            ranges = nest_ranges(pn)
            key = lambda lo, hi: (k["name"], tuple(argv), lo, hi)
            if all(key(lo, hi) in cached for lo, hi in ranges):
                sims = [cached[key(lo, hi)] for lo, hi in ranges]
            else:
                (_, _), pa = misses(base, argv, m["function"], geo["L1"], geo["L2"], 1,
                                    geo["I1"], ranges)
                (_, _), pb = misses(base, argv, m["function"], geo["L1"], geo["L2"], 2,
                                    geo["I1"], ranges)
                sims = [{"L1": float(y[0] - x[0]), "L2": float(y[1] - x[1])}
                        for x, y in zip(pa, pb)]
            floor = max(8.0, 0.01 * fp / 64)
            for (lo, hi), sim in zip(ranges, sims):
                b = pn[lo]
                n = {"kernel": k["name"], "size": label, "argv": argv, "footprint": fp,
                     "loop": b["loop"], "lines": [lo, hi], "model": b["model"],
                     "simulated": sim, "floor": floor}
                if "lines_in" in b:
                    n["predicted"] = {lvl: b["lines_in"].get(lvl, 0.0) for lvl in sim}
                    n["agrees"] = {lvl: agrees(n["predicted"][lvl], sim[lvl], floor)
                                   for lvl in sim}
                else:
                    n["predicted"] = None
                    n["agrees"] = {lvl: False for lvl in sim}
                    n["why"] = b.get("not_analysable", "no lines")
                n["ok"] = all(n["agrees"].values())
                rows.append(n)
                print("%-14s %-12s %-14s %-5s line %-4d" % (k["name"], label, " ".join(argv),
                                                         n["loop"], lo), end="")
                for lvl in ("L1", "L2"):
                    p = n["predicted"][lvl] if n["predicted"] else None
                    print("  %s sim %-9.4g pred %-9s %s" % (
                        lvl, sim[lvl], "%.4g" % p if p is not None else "-",
                        "ok" if n["agrees"][lvl] else "MISS"), end="")
                print("" if n["predicted"] else "  (" + n["why"] + ")", flush=True)
        if a.json:  # (after every kernel: a long run that is stopped keeps what it has)
            dump(a.json, rows, skipped)
    ok = sum(r["ok"] for r in rows)
    print("\nnests %d, within 10 %% (or the floor) at L1 and L2: %d (%.1f %%)" %
          (len(rows), ok, 100.0 * ok / len(rows) if rows else 0))
    for lbl in ("in-cache", "out-of-cache"):
        sub = [r for r in rows if r["size"] == lbl]
        if sub:
            print("  %s: %d of %d" % (lbl, sum(r["ok"] for r in sub), len(sub)))
    print("misses:")
    for r in rows:
        if not r["ok"]:
            print("  %s %s %s %s: %s" % (r["kernel"], r["size"], " ".join(r["argv"]), r["loop"],
                  ", ".join("%s sim %.4g pred %s" % (l, r["simulated"][l],
                            "%.4g" % r["predicted"][l] if r["predicted"] else "-")
                            for l in ("L1", "L2") if not r["agrees"][l])
                  + ("" if r["predicted"] else " (" + r["why"] + ")")))
    for s_ in skipped:
        print("  not run: " + s_)
    if a.json:
        dump(a.json, rows, skipped)


def dump(path, rows, skipped):
    """The --heldout rows and summary as JSON."""
    ok = sum(r["ok"] for r in rows)
    with open(path, "w") as f:
        json.dump({"nests": len(rows), "within": ok, "fraction": ok / len(rows) if rows else 0,
                   "rows": rows, "skipped": skipped}, f, indent=1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--machine", required=True)
    ap.add_argument("--run", action="append", default=[], help="kernel:arg1,arg2")
    ap.add_argument("--json", default="")
    ap.add_argument("--per-nest", action="store_true",
                    help="compare per loop nest (cachegrind per source line range)")
    ap.add_argument("--heldout", action="store_true",
                    help="every nest of the validation manifest's kernels, in and out of cache")
    ap.add_argument("--only", default="", help="--heldout: these kernels (comma-separated)")
    ap.add_argument("--budget", type=float, default=60,
                    help="--heldout: s of cachegrind a size may take (estimated)")
    ap.add_argument("--sim-from", default="",
                    help="--heldout: reuse the cachegrind misses of these earlier --json "
                         "files (comma-separated); a size they simulated is run whatever "
                         "its time")
    a = ap.parse_args()
    geo = geometry(a.machine)
    if a.heldout:
        if "L2" not in geo:
            sys.exit("cache_lines.py: --heldout needs memory.L2.size/ways/line_size in %s"
                     % a.machine)
        return heldout(a, geo)
    if not a.run:
        ap.error("--run or --heldout is required")
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
