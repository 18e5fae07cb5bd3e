#!/usr/bin/env python3
"""ct_overhead.py - compares CT's overhead correction with the in-situ cost.

USAGE:
  scripts/ct_overhead.py [--opt O2] [--sizes 0,8,32] [--reps 51] [--runs 3]
  scripts/ct_overhead.py --example mergesort[,lu] [--opt O2] [--reps 21] [--runs 5]

Builds scripts/ct_overhead.c plainly and instrumented, runs both at each size
n (the tiny function's work), and prints per call of the tiny function, in TSC
ticks:
  plain       the plain kernel's fastest call / CALLS
  ct          the instrumented kernel's fastest call / CALLS
  in-situ     ct - plain: what the instrumentation really adds per call
  subtracted  what the CT runtime subtracts per call: the kernel function's
              (raw_inclusive_s - inclusive_s) * hz / calls / CALLS
and the runtime's start-up measures (pair_overhead_s, nested_pair_s.function)
in ticks. Minima of many calls are the least disturbed on a shared machine.
tiny's calls are short, so it runs its pair on 1 call in 8 (segtime_ct.h,
ABI 5): in-situ is then 1/8 of a pair plus, on the 7 others, the skip's
bookkeeping (a few loads, stores and a predictable branch: ~10 ticks, not
corrected, like the counters); subtracted covers the pairs that ran.

--example: the same comparison in a real kernel (examples/NAME.c), where the
timer reads overlap with the kernel's own work. Builds the example with
-fplugin-arg-segtime-instrument and with instrument=no-clock (the same code,
every timer read an opaque zero), runs both interleaved and prints per kernel
call, in ms:
  ct, no-clock  the fastest kernel call of each build over all reps and runs
  reads         ct - no-clock: what the timer reads cost there (in-situ)
  subtracted    what the runtime subtracts from the kernel: (raw_inclusive_s
                - inclusive_s) per kernel call, median over runs; it also
                covers each pair's counter updates, which no-clock keeps
and the TSC ticks of both per timer pair run in the kernel (pairs: the counts
of its timed nodes and of the timed functions it calls, per kernel call; a
function that skipped its pair after short calls: its timed_calls).
"""
import argparse, json, os, subprocess, tempfile

from segtime_common import BUILD, CLANG, PLUGIN, ROOT, ct_reachable, measured, median, run

CALLS = 100000
SRC = os.path.join(ROOT, "scripts", "ct_overhead.c")
RT = os.path.join(BUILD, "lib", "libsegtime-rt.a")


def min_ticks(binary, n, reps, env=None):
    p = subprocess.run([binary, str(n), str(reps)], capture_output=True, text=True,
                       env=env, check=True)
    return int(p.stderr.split("min_ticks")[1].split()[0])


def kernel_pairs(ct, kernel):
    """Timer pairs run per kernel call: timed nodes of the kernel and of the
    functions it calls (transitively), by their counts."""
    reach, byname = ct_reachable(ct, kernel)
    pairs = 0
    for f in reach:
        fn = byname[f]
        pairs += fn.get("timed_calls", fn["calls"]) if fn["raw_inclusive_s"] > 0 else 0
        for n in fn["nodes"]:
            if "inclusive_s" in n and n["kind"] == "loop":
                pairs += n["entries"]
    return pairs / byname[kernel]["calls"]


def example(a):
    """--example: in-situ cost of the timer reads in real kernels."""
    rt = RT
    print("%-10s %-3s %9s %9s %9s %10s %8s %10s %12s" % (
        "example", "opt", "ct ms", "no-clock", "reads ms", "subtracted", "pairs",
        "reads/pair", "subtr./pair"))
    with tempfile.TemporaryDirectory() as d:
        for name in a.example.split(","):
            src = os.path.join(ROOT, "examples", name + ".c")
            bins = {}
            for kind, arg in (("ct", "instrument"), ("nc", "instrument=no-clock")):
                bins[kind] = os.path.join(d, "%s-%s" % (name, kind))
                run([CLANG, "-" + a.opt, "-fplugin=" + PLUGIN, "-fplugin-arg-segtime-quiet",
                     "-fplugin-arg-segtime-" + arg,
                     "-fplugin-arg-segtime-out=" + os.path.join(d, name + ".seg.json"),
                     src, rt, "-o", bins[kind], "-lm"])
            ctfile = os.path.join(d, name + ".ct.json")
            env = dict(os.environ, SEGTIME_REPS=str(a.reps), SEGTIME_CT_FILE=ctfile)
            mins = {"ct": [], "nc": []}
            subs, pairs, hz = [], 0, 0
            for _ in range(a.runs):
                for kind in ("ct", "nc"):
                    m = measured(run([bins[kind]], env=env).stdout)
                    mins[kind].append(m["min_s"])
                    if kind == "ct":
                        ct = json.load(open(ctfile))
                        k = next(f for f in ct["functions"] if f["name"] == m["function"])
                        subs.append((k["raw_inclusive_s"] - k["inclusive_s"]) / k["calls"])
                        pairs, hz = kernel_pairs(ct, m["function"]), ct["timer"]["hz"]
            c, n, sub = min(mins["ct"]), min(mins["nc"]), median(subs)
            print("%-10s %-3s %9.3f %9.3f %9.3f %10.3f %8.0f %10.1f %12.1f" % (
                name, a.opt, c * 1e3, n * 1e3, (c - n) * 1e3, sub * 1e3, pairs,
                (c - n) * hz / pairs, sub * hz / pairs))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--opt", default="O2")
    ap.add_argument("--sizes", default="0,8,32")
    ap.add_argument("--reps", type=int, default=0, help="kernel calls per run (default 51; "
                    "--example: 21)")
    ap.add_argument("--runs", type=int, default=0, help="runs (default 3; --example: 5)")
    ap.add_argument("--example", default="", help="examples (comma list): in-situ cost of "
                    "the timer reads in their kernels")
    a = ap.parse_args()
    if a.example:
        a.reps, a.runs = a.reps or 21, a.runs or 5
        return example(a)
    a.reps, a.runs = a.reps or 51, a.runs or 3
    with tempfile.TemporaryDirectory() as d:
        plain, ct = os.path.join(d, "plain"), os.path.join(d, "ct")
        run([CLANG, "-" + a.opt, SRC, "-o", plain])
        run([CLANG, "-" + a.opt, "-fplugin=" + PLUGIN, "-fplugin-arg-segtime-quiet",
             "-fplugin-arg-segtime-instrument", "-fplugin-arg-segtime-out=" + os.path.join(d, "x.seg.json"),
             SRC, RT, "-o", ct])
        ctfile = os.path.join(d, "ct.json")
        env = dict(os.environ, SEGTIME_CT_FILE=ctfile)
        print("%4s %8s %8s %8s %10s %6s %7s" % ("n", "plain", "ct", "in-situ", "subtracted",
                                               "pair", "nested"))
        for _ in range(a.runs):
            for n in [int(x) for x in a.sizes.split(",")]:
                p = min_ticks(plain, n, a.reps) / CALLS
                c = min_ticks(ct, n, a.reps, env) / CALLS
                j = json.load(open(ctfile))
                hz = j["timer"]["hz"]
                k = next(f for f in j["functions"] if f["name"] == "kernel")
                sub = (k["raw_inclusive_s"] - k["inclusive_s"]) * hz / k["calls"] / CALLS
                print("%4d %8.1f %8.1f %8.1f %10.1f %6.1f %7.1f" % (
                    n, p, c, c - p, sub, j["timer"]["pair_overhead_s"] * hz,
                    j["timer"]["nested_pair_s"]["function"] * hz))


if __name__ == "__main__":
    main()
