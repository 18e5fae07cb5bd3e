#!/usr/bin/env python3
"""validate.py - validation of all levels on the examples and validation kernels.

USAGE:
  scripts/validate.py --machine build/costvectors/local.yaml [--only dot,gemv]
                      [--reps 7] [--no-callgrind] [--json build/validation.json]
                      [--markdown build/validation.md]
  scripts/validate.py --counts-only [--only poly,conv2d] [--json FILE]

For every kernel (examples/*.c, validation/*.c):
  1. compile at -O2 -march=native -mno-avx512f (valgrind cannot run AVX-512)
     with the plugin and ICC target "compile" (the code being compiled);
  2. run it at its default size: measured median of SEGTIME_REPS calls;
  3. predict the time at every level (POC, HLLC, INTCC, ICC) for the same
     parameters and report the error against the median;
  4. unless --no-callgrind: run a small size under valgrind --tool=callgrind
     with 1 and with 3 timed repetitions; the difference / 2 of the
     instructions executed in the file's own functions, except the harness's
     (main and segtime_*: the timing loop, sorting the samples), is the exact
     dynamic instruction count of one kernel call; compare with the ICC
     prediction (levels.ICC.counts.instructions) for the same parameters.
Not a test: timings are noisy; it prints numbers (median, spread, errors).
--counts-only does steps 1 and 4 alone (no timed runs, no machine file): the
deterministic check of the ICC instruction counts, a table of kernel, callgrind
instructions, ICC instructions and error.
"""
import argparse, json, os, re, sys, tempfile

from segtime_common import BUILD, CLANG, PLUGIN, ROOT, SEGTIME, extra_params, measured, median, pct, run

FLAGS = ["-O2", "-march=native", "-mno-avx512f"]

# argv for the small runs under valgrind (kernel parameters follow from the
# program's own SEGTIME_MEASURED line).
# --counts-only: `segtime predict --level icc` needs a machine file with an ICC
# section; the counts it reports do not depend on the costs in it.
COUNTS_MACHINE = os.path.join(ROOT, "costvectors", "local.yaml")

SMALL = {
    "matmul": ["48"], "lu": ["48"], "jacobi": ["40", "2"], "nbody": ["150"], "dft": ["96"],
    "integrate": ["2000"], "mergesort": ["10"],
    "daxpy": ["3000"], "dot": ["3000"], "gemv": ["60", "50"], "trisolve": ["80"],
    "stencil1d": ["1000", "3"], "conv2d": ["40", "5"], "floyd": ["24"], "prefix": ["3000"],
    "poly": ["500", "9"], "histogram": ["5000", "64"],
}
def predict(seg_path, kernel, params, extra, machine, levels="all"):
    cmd = [SEGTIME, "predict", seg_path, "--machine", machine, "--function", kernel,
           "--level", levels, "--json"]
    for k, v in params.items():
        cmd += ["-p", "%s=%s" % (k, v)]
    r = run(cmd + extra, check=False)
    if r.returncode != 0:
        return None, r.stderr.strip()
    return json.loads(r.stdout)["functions"][0], ""


def callgrind_instructions(binary, args, functions, reps):
    """Instructions executed in the file's own functions with SEGTIME_REPS=reps."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "cg.out")
        env = dict(os.environ, SEGTIME_REPS=str(reps))
        run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, binary] + args, env=env)
        ann = run(["callgrind_annotate", "--threshold=100", out]).stdout
    total = 0
    for line in ann.splitlines():
        m = re.match(r"^\s*([\d,]+)\s+(?:\([^)]*\)\s+)?\S*?:(\w+)\s", line)
        if m and m.group(2) in functions:
            total += int(m.group(1).replace(",", ""))
    return total


def within_2pct(rows):
    """The summary line of the ICC instruction counts against callgrind."""
    cg = [r["callgrind"] for r in rows if "error_pct" in r.get("callgrind", {})]
    within = sum(1 for c in cg if abs(c["error_pct"]) <= 2.0)
    return "ICC instruction count within 2%% of callgrind: %d of %d kernels" % (within, len(cg))


def counts_report(rows, a):
    """--counts-only: the table of callgrind and ICC instructions per kernel call."""
    lines = ["| kernel | function | parameters | callgrind instr. | ICC instr. | err |",
             "|---|---|---|---|---|---|"]
    for r in rows:
        cg = r["callgrind"]
        lines.append("| %s | %s | %s | %.0f | %s | %s |" % (
            r["kernel"], r["function"], " ".join("%s=%s" % kv for kv in cg["params"].items()),
            cg["instructions"], "%.0f" % cg["predicted"] if "predicted" in cg else cg.get("error", "-"),
            "%+.2f%%" % cg["error_pct"] if "error_pct" in cg else "-"))
    summary = [within_2pct(rows)]
    print("\n".join(lines) + "\n\n" + summary[0])
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"flags": FLAGS, "rows": rows, "summary": summary}, f, indent=1)
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write("\n".join(lines) + "\n\n- " + summary[0] + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--machine", help="machine file (not needed with --counts-only)")
    ap.add_argument("--counts-only", action="store_true",
                    help="only the ICC instruction counts against callgrind (deterministic)")
    ap.add_argument("--only", default="")
    ap.add_argument("--reps", default="7")
    ap.add_argument("--no-callgrind", action="store_true")
    ap.add_argument("--json", default="")
    ap.add_argument("--markdown", default="")
    a = ap.parse_args()
    if a.counts_only and a.no_callgrind:
        ap.error("--counts-only needs callgrind")
    if not a.counts_only and not a.machine:
        ap.error("--machine is required (unless --counts-only)")
    if a.counts_only and not a.machine and not os.path.exists(COUNTS_MACHINE):
        ap.error("--counts-only without --machine uses %s (segtime calibrate): not found"
                 % COUNTS_MACHINE)

    srcs = []
    for folder in ("examples", "validation"):
        d = os.path.join(ROOT, folder)
        if os.path.isdir(d):
            srcs += [(folder, f[:-2]) for f in sorted(os.listdir(d)) if f.endswith(".c")]
    if a.only:
        srcs = [s for s in srcs if s[1] in a.only.split(",")]
    work = os.path.join(BUILD, "validation")
    os.makedirs(work, exist_ok=True)
    rows = []
    for folder, name in srcs:
        print("== %s/%s" % (folder, name), file=sys.stderr, flush=True)
        base = os.path.join(work, name)
        run([CLANG] + FLAGS + ["-fplugin=" + PLUGIN,
             "-fplugin-arg-segtime-quiet", "-fplugin-arg-segtime-targets=compile",
             "-fplugin-arg-segtime-out=" + base + ".seg.json",
             "-c", os.path.join(ROOT, folder, name + ".c"), "-o", base + ".o"])
        run([CLANG, base + ".o", "-o", base, "-lm"])
        with open(base + ".seg.json") as f:
            seg = json.load(f)
        extra = extra_params(name, seg)
        if a.counts_only:
            if name not in SMALL:
                sys.exit("%s: no small size for callgrind (SMALL)" % name)
            small = measured(run([base] + SMALL[name], env=dict(os.environ, SEGTIME_REPS="1")).stdout)
            row = {"kernel": name, "function": small["function"], "levels": {}}
        else:
            m = measured(run([base], env=dict(os.environ, SEGTIME_REPS=a.reps)).stdout)
            pred, err = predict(base + ".seg.json", m["function"], m["params"], extra, a.machine)
            row = {"kernel": name, "function": m["function"], "params": m["params"],
                   "measured_median_s": m["median_s"], "measured_min_s": m["min_s"],
                   "measured_max_s": m["max_s"], "levels": {}, "error": err}
            if pred:
                for lvl, v in pred["levels"].items():
                    row["levels"][lvl] = {"time_s": v["time_s"], "error_pct": pct(v["time_s"], m["median_s"])}
        kernel = row["function"]
        if not a.no_callgrind and name in SMALL:
            if not a.counts_only:
                small = measured(run([base] + SMALL[name], env=dict(os.environ, SEGTIME_REPS="1")).stdout)
            funcs = {f["name"] for f in seg["functions"]
                     if f["name"] != "main" and not f["name"].startswith("segtime_")}
            i1 = callgrind_instructions(base, SMALL[name], funcs, 1)
            i3 = callgrind_instructions(base, SMALL[name], funcs, 3)
            per_call = (i3 - i1) / 2.0
            sp, err2 = predict(base + ".seg.json", kernel, small["params"], extra,
                               a.machine or COUNTS_MACHINE, "icc")
            row["callgrind"] = {"params": small["params"], "instructions": per_call}
            if sp:
                icc = sp["levels"]["ICC"]["counts"].get("instructions", 0)
                row["callgrind"].update({"predicted": icc, "error_pct": pct(icc, per_call)})
            else:
                row["callgrind"]["error"] = err2
        rows.append(row)

    if a.counts_only:
        counts_report(rows, a)
        return
    levels = ["ICC", "INTCC", "HLLC", "POC"]
    lines = ["| kernel | function | callgrind instr. | ICC instr. | err | measured (spread) | "
             + " | ".join(levels) + " |",
             "|---|---|---|---|---|---|" + "---|" * len(levels)]
    for r in rows:
        cg = r.get("callgrind", {})
        spread = 100.0 * (r["measured_max_s"] - r["measured_min_s"]) / r["measured_median_s"]
        cells = ["%+.1f%%" % r["levels"][l]["error_pct"] if l in r["levels"] else "n/a" for l in levels]
        lines.append("| %s | %s | %s | %s | %s | %.3f ms (%.0f%%) | %s |" % (
            r["kernel"], r["function"],
            "%.0f" % cg["instructions"] if "instructions" in cg else "-",
            "%.0f" % cg["predicted"] if "predicted" in cg else "-",
            "%+.2f%%" % cg["error_pct"] if "error_pct" in cg else "-",
            r["measured_median_s"] * 1e3, spread, " | ".join(cells)))
    summary = []
    if any("error_pct" in r.get("callgrind", {}) for r in rows):
        summary.append(within_2pct(rows))
    for l in levels:
        errs = sorted(abs(r["levels"][l]["error_pct"]) for r in rows if l in r["levels"])
        if errs:
            summary.append("%s: median |error| %.1f%%, max %.1f%% over %d kernels"
                           % (l, median(errs), errs[-1], len(errs)))
    order = 0
    for r in rows:
        e = {l: abs(r["levels"][l]["error_pct"]) for l in levels if l in r["levels"]}
        if len(e) == 4 and e["ICC"] <= min(e["INTCC"], e["HLLC"]) and e["POC"] >= max(e["ICC"], e["INTCC"], e["HLLC"]):
            order += 1
    summary.append("levels ordered as in Warwick-94 Table 7 (ICC best, POC worst): %d of %d kernels"
                   % (order, len(rows)))
    print("\n".join(lines))
    print()
    print("\n".join(summary))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"machine": a.machine, "flags": FLAGS, "rows": rows, "summary": summary}, f, indent=1)
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write("\n".join(lines) + "\n\n" + "\n".join("- " + s for s in summary) + "\n")


if __name__ == "__main__":
    main()
