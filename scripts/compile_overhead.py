#!/usr/bin/env python3
"""compile_overhead.py - the segtime plugin's compile-time overhead (issue 3).

Compiles every example and validation kernel (-O2 -march=native -c) with plain
clang and with the plugin in three configurations, and prints the ratio of the
median wall-clock compile times to plain clang:

  ast      -fplugin-arg-segtime-no-ir        AST levels only (POC, HLLC)
  ir       the IR levels too (IntCC), no ICC target
  icc      all levels, one ICC target (the compile's own CPU: targets=compile)

Each compile runs --reps times (interleaved, so slow phases of the VM hit every
configuration alike); the ratio of medians is per file, and the summary gives the
median and the total-time ratio over all files.

USAGE: scripts/compile_overhead.py [--reps 5] [--json FILE]
"""
import argparse, glob, json, os, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from segtime_common import ROOT, CLANG, PLUGIN  # noqa: E402

FLAGS = ["-O2", "-march=native", "-mno-avx512f", "-c", "-w"]
CONFIGS = {
    "plain": [],
    "ast": ["-fplugin=" + PLUGIN, "-fplugin-arg-segtime-quiet", "-fplugin-arg-segtime-no-ir"],
    "ir": ["-fplugin=" + PLUGIN, "-fplugin-arg-segtime-quiet"],
    "icc": ["-fplugin=" + PLUGIN, "-fplugin-arg-segtime-quiet", "-fplugin-arg-segtime-targets=compile"],
}


def compile_time(src, extra, out):
    t0 = time.perf_counter()
    r = subprocess.run([CLANG] + FLAGS + extra + [src, "-o", out], capture_output=True, text=True)
    t = time.perf_counter() - t0
    if r.returncode != 0:
        sys.exit("compile failed: %s\n%s" % (src, r.stderr[-2000:]))
    return t


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--json")
    a = ap.parse_args()
    if not os.path.exists(PLUGIN):
        sys.exit("no %s: build first (scripts/setup.sh)" % PLUGIN)
    srcs = sorted(glob.glob(os.path.join(ROOT, "examples", "*.c")) +
                  glob.glob(os.path.join(ROOT, "validation", "*.c")))
    rows = []
    with tempfile.TemporaryDirectory() as d:
        for i, src in enumerate(srcs):
            name = os.path.splitext(os.path.basename(src))[0]
            print("[%d/%d] %s" % (i + 1, len(srcs), name), file=sys.stderr)
            times = {c: [] for c in CONFIGS}
            for _ in range(a.reps):
                for c, extra in CONFIGS.items():
                    times[c].append(compile_time(src, extra, os.path.join(d, name + "." + c + ".o")))
            med = {c: statistics.median(v) for c, v in times.items()}
            rows.append({"file": os.path.relpath(src, ROOT), "median_s": med,
                         "ratio": {c: med[c] / med["plain"] for c in CONFIGS if c != "plain"}})
    print("| file | clang -O2 (ms) | AST only | + IR levels | + ICC (1 target) |")
    print("|---|---|---|---|---|")
    for r in rows:
        print("| %s | %.0f | %.2fx | %.2fx | %.2fx |" % (
            r["file"], 1e3 * r["median_s"]["plain"], r["ratio"]["ast"], r["ratio"]["ir"], r["ratio"]["icc"]))
    summary = {}
    for c in ("ast", "ir", "icc"):
        summary[c] = {"median_ratio": statistics.median(r["ratio"][c] for r in rows),
                      "total_ratio": sum(r["median_s"][c] for r in rows) /
                                     sum(r["median_s"]["plain"] for r in rows)}
    print()
    for c, label in (("ast", "AST levels only"), ("ir", "with the IR levels"),
                     ("icc", "all levels, one ICC target")):
        print("%s: median ratio %.2fx, total %.2fx over %d files" % (
            label, summary[c]["median_ratio"], summary[c]["total_ratio"], len(rows)))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"rows": rows, "summary": summary, "reps": a.reps}, f, indent=1)


if __name__ == "__main__":
    main()
