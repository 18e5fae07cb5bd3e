#!/usr/bin/env python3
"""ct_overhead.py - compares CT's overhead correction with the in-situ cost.

USAGE:
  scripts/ct_overhead.py [--opt O2] [--sizes 0,8,32] [--reps 51] [--runs 3]

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
"""
import argparse, json, os, subprocess, tempfile

from segtime_common import BUILD, CLANG, PLUGIN, ROOT, run

CALLS = 100000
SRC = os.path.join(ROOT, "scripts", "ct_overhead.c")
RT = os.path.join(BUILD, "lib", "libsegtime-rt.a")


def min_ticks(binary, n, reps, env=None):
    p = subprocess.run([binary, str(n), str(reps)], capture_output=True, text=True,
                       env=env, check=True)
    return int(p.stderr.split("min_ticks")[1].split()[0])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--opt", default="O2")
    ap.add_argument("--sizes", default="0,8,32")
    ap.add_argument("--reps", type=int, default=51)
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
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
