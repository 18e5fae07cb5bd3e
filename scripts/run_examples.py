#!/usr/bin/env python3
"""run_examples.py - the main job: compile the examples with the segtime plugin,
print their timing formulas, run them, and compare predicted with measured time.

USAGE:
  scripts/run_examples.py --machine build/costvectors/local.yaml [--opt O0,O2]
                          [--only matmul,lu] [--reps 7] [--json out.json] [--quiet]

For every example in examples/*.c and every optimisation level: compile with
-fplugin=build/lib/segtime.so (the plugin prints the formulas and writes the
.seg.json), link and run it (the program times its kernel function SEGTIME_REPS
times and prints one SEGTIME_MEASURED line; the run waits for a fast phase of the
VM and is repeated if the phase turned slow meanwhile: PhaseProbe), then run
`segtime predict --json --function KERNEL -p <kernel parameters>` for every
level (ICC for this machine's core, `-fplugin-arg-segtime-targets=native`; INTCC,
HLLC, POC) and print the error (predicted - measured) / measured in percent.
"""
import argparse, json, os, sys

from segtime_common import (BUILD, CLANG, PLUGIN, ROOT, SEGTIME, PhaseProbe, add_phase_arguments,
                            example_names, extra_params, load_seg, measured, median, pct, run)


LEVELS = ("ICC", "INTCC", "HLLC", "POC")


def fmt(s):
    return "%8.2f ms" % (s * 1e3)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--machine", required=True, help="machine file (from segtime calibrate)")
    ap.add_argument("--opt", default="O0,O2")
    ap.add_argument("--only", default="", help="comma list of example names")
    ap.add_argument("--reps", default="7", help="SEGTIME_REPS for the examples")
    add_phase_arguments(ap, 20)
    ap.add_argument("--json", default="", help="write all results to this file")
    ap.add_argument("--quiet", action="store_true", help="do not print the formulas")
    a = ap.parse_args()

    names = example_names(a.only)
    work = os.path.join(BUILD, "examples")
    os.makedirs(work, exist_ok=True)
    env = dict(os.environ, SEGTIME_REPS=a.reps)
    probe = PhaseProbe(work, wait=a.phase_wait,
                       log=lambda line: print("   " + line, file=sys.stderr, flush=True))
    rows = []
    for opt in a.opt.split(","):
        for name in names:
            src = os.path.join(ROOT, "examples", name + ".c")
            base = os.path.join(work, "%s-%s" % (name, opt))
            print("== %s -%s: compiling with the plugin, running, predicting" % (name, opt),
                  file=sys.stderr, flush=True)
            comp = run([CLANG, "-" + opt, "-fplugin=" + PLUGIN,
                        "-fplugin-arg-segtime-machine=" + a.machine,
                        "-fplugin-arg-segtime-out=" + base + ".seg.json",
                        "-fplugin-arg-segtime-targets=native",
                        "-c", src, "-o", base + ".o"])
            run([CLANG, base + ".o", "-o", base, "-lm"])
            m, _, _, _ = probe.measure(lambda: measured(run([base], env=env).stdout),
                                       a.retries, "run")
            kernel = m["function"]
            if not a.quiet and opt == a.opt.split(",")[0]:
                # the plugin's printout for the kernel function
                lines = comp.stderr.splitlines()
                start = [i for i, l in enumerate(lines) if l.startswith("segtime: %s (" % kernel)]
                if start:
                    i = start[0]
                    print(lines[i])
                    i += 1
                    while i < len(lines) and lines[i].startswith("  "):
                        print(lines[i])
                        i += 1
            seg = load_seg(base + ".seg.json")
            cmd = [SEGTIME, "predict", base + ".seg.json",
                   "--machine", a.machine, "--function", kernel, "--json"]
            for k, v in m["params"].items():
                cmd += ["-p", "%s=%s" % (k, v)]
            cmd += extra_params(name, seg)
            pred = json.loads(run(cmd).stdout)["functions"][0]
            row = {"example": name, "function": kernel, "opt": opt, "params": m["params"],
                   "measured_median_s": m["median_s"], "measured_min_s": m["min_s"],
                   "measured_max_s": m["max_s"], "reps": m["reps"]}
            for lvl in LEVELS:
                if lvl in pred["levels"]:
                    t = pred["levels"][lvl]["time_s"]
                    row[lvl] = {"time_s": t, "error_pct": pct(t, m["median_s"])}
            row["flop"] = pred["levels"]["POC"]["counts"]["flop"]
            rows.append(row)

    print()
    print("Predicted vs measured on %s (measured: median of %s calls, run behind the phase probe"
          " (scripts/segtime_common.py PhaseProbe); spread = (max-min)/median)"
          % (os.path.basename(a.machine), a.reps))
    print("%-10s %-13s %-4s %11s %7s" % ("example", "function", "opt", "measured", "spread")
          + "".join(" %11s %8s" % (l, "err") for l in LEVELS))
    for r in rows:
        spread = 100.0 * (r["measured_max_s"] - r["measured_min_s"]) / r["measured_median_s"]
        line = "%-10s %-13s %-4s %s %6.1f%%" % (r["example"], r["function"], r["opt"],
                                                fmt(r["measured_median_s"]), spread)
        for l in LEVELS:
            line += (" %s %+7.1f%%" % (fmt(r[l]["time_s"]), r[l]["error_pct"]) if l in r
                     else " %11s %8s" % ("-", ""))
        print(line)
    for opt in a.opt.split(","):
        for lvl in LEVELS:
            errs = sorted(abs(r[lvl]["error_pct"]) for r in rows if r["opt"] == opt and lvl in r)
            if errs:
                med = median(errs)
                print("  -%s %-5s median |error| %.1f%%, max %.1f%% over %d kernels"
                      % (opt, lvl, med, errs[-1], len(errs)))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"machine": a.machine, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
