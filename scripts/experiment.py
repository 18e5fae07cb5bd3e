#!/usr/bin/env python3
"""experiment.py - the Warwick-94 experiment (§5) on this machine.

USAGE:
  scripts/experiment.py --machine costvectors/local.yaml [--only matmul,integrate]
                        [--opt O2] [--runs 3] [--reps 5] [--quick] [--out build/experiment]
                        [--docs docs/img/experiment]

For every kernel (the Warwick-94 kernels integrate, mergesort and matmul, the
other examples, and a few validation kernels) and 3-4 problem sizes:
  1. compile it plainly with the plugin at each --opt level (default -O2;
     e.g. --opt O0,O2: every kernel at both, named <kernel>-O0, <kernel>-O2;
     the machine file's variant for the level is used) (writes the .seg.json
     with the IR levels and ICC target "compile") and instrumented
     (-fplugin-arg-segtime-instrument, linked with build/lib/libsegtime-rt.a);
  2. run both --runs times, alternately (SEGTIME_REPS=--reps, raised to up
     to 100 for kernels under 20 ms so a run lasts about 0.1 s): the measured
     whole-run time is the median over runs of the plain program's median per
     call, its spread the range of those medians; the CT profile used is the
     run whose kernel CT time per call is the median;
  3. run `segtime compare` per kernel over its sizes (Table 6 per size,
     Table 7, plots: time and error vs size) and once over all kernels and
     sizes (Table 7 of the whole experiment, predicted-vs-measured and
     accuracy-bound plots).
Writes OUT/<kernel>.txt|.csv|.json, OUT/all.*, OUT/plots/, OUT/summary.md (the
tables docs/results.md records). --docs DIR copies the plots summary.md links
into DIR (PNG and SVG). Times are reported, not asserted (noisy shared VM).
"""
import argparse, json, os, shutil, sys

from segtime_common import BUILD, CLANG, PLUGIN, ROOT, SEGTIME, extra_params, load_seg, measured, median, run

RT = os.path.join(BUILD, "lib", "libsegtime-rt.a")
FLAGS = ["-march=native", "-mno-avx512f"]  # after the -O level

# (folder, name, [argv per size], size label per size). Warwick-94 kernels first.
KERNELS = [
    ("examples", "integrate", [["65536"], ["262144"], ["1048576"]], ["65536", "262144", "1048576"]),
    ("examples", "mergesort", [["14"], ["15"], ["16"], ["17"]], ["16384", "32768", "65536", "131072"]),
    ("examples", "matmul", [["64"], ["128"], ["192"], ["256"]], ["64", "128", "192", "256"]),
    ("examples", "lu", [["80"], ["160"], ["320"]], ["80", "160", "320"]),
    ("examples", "dft", [["256"], ["512"], ["1024"]], ["256", "512", "1024"]),
    ("examples", "jacobi", [["128"], ["256"], ["512"]], ["128", "256", "512"]),
    ("examples", "nbody", [["500"], ["1000"], ["2000"]], ["500", "1000", "2000"]),
    ("validation", "dot", [["250000"], ["1000000"], ["2000000"]], ["250000", "1000000", "2000000"]),
    ("validation", "gemv", [["500"], ["1000"], ["2000"]], ["500", "1000", "2000"]),
    ("validation", "stencil1d", [["25000"], ["50000"], ["100000"]], ["25000", "50000", "100000"]),
    ("validation", "floyd", [["50"], ["100"], ["200"]], ["50", "100", "200"]),
    ("validation", "trisolve", [["750"], ["1500"], ["3000"]], ["750", "1500", "3000"]),
]
WARWICK = {"integrate", "mergesort", "matmul"}


def build(folder, name, label, opt, work):
    """Plain (with the plugin: the .seg.json) and instrumented binaries at -opt."""
    src = os.path.join(ROOT, folder, name + ".c")
    base = os.path.join(work, label)
    flags = ["-" + opt] + FLAGS
    run([CLANG] + flags + ["-fplugin=" + PLUGIN, "-fplugin-arg-segtime-quiet",
                           "-fplugin-arg-segtime-targets=compile",
                           "-fplugin-arg-segtime-out=" + base + ".seg.json", src, "-o", base, "-lm"])
    # The instrumented compile's SEG describes the instrumented code; not used.
    run([CLANG] + flags + ["-fplugin=" + PLUGIN, "-fplugin-arg-segtime-quiet",
                           "-fplugin-arg-segtime-instrument",
                           "-fplugin-arg-segtime-out=" + base + "-ct.seg.json", src, RT,
                           "-o", base + "-ct", "-lm"])
    return base


def measure(base, argv, size, runs, reps):
    """Median over runs of the plain median per call, the spread, and the CT file of the median run."""
    # CT's time per call averages every call, the untimed warm-up call
    # included: short kernels get more repetitions (about 0.1 s per run).
    first = measured(run([base] + argv, env=dict(os.environ, SEGTIME_REPS=str(reps))).stdout)
    reps = max(reps, min(100, int(0.1 / max(first["median_s"], 1e-9))))
    env = dict(os.environ, SEGTIME_REPS=str(reps))
    meds, cts = [], []
    for r in range(runs):
        m = measured(run([base] + argv, env=env).stdout)
        meds.append(m["median_s"])
        ct = "%s-%s-%d.ct.json" % (base, size, r)
        run([base + "-ct"] + argv, env=dict(env, SEGTIME_CT_FILE=ct))
        with open(ct) as f:
            fn = next(x for x in json.load(f)["functions"] if x["name"] == m["function"])
        cts.append((fn["inclusive_s"] / fn["calls"], ct))
    cts.sort()
    return m, median(meds), min(meds), max(meds), cts[len(cts) // 2][1], [c[0] for c in cts]


def compare(args, out_base, fmt):
    r = run([SEGTIME, "compare"] + args + (["--" + fmt] if fmt != "txt" else []), check=False)
    if r.returncode != 0:
        return None, r.stderr
    with open(out_base + "." + fmt, "w") as f:
        f.write(r.stdout)
    return r.stdout, r.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--machine", required=True)
    ap.add_argument("--only", default="")
    ap.add_argument("--opt", default="O2", help="optimisation levels, e.g. O0,O2")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="the two smallest sizes only")
    ap.add_argument("--out", default=os.path.join(BUILD, "experiment"))
    ap.add_argument("--docs", default="", help="copy the plots summary.md links here")
    ap.add_argument("--recompare", action="store_true",
                    help="only rerun segtime compare on the measurements OUT/runs.json kept")
    a = ap.parse_args()
    opts = a.opt.split(",")
    if any(not o or o[0] != "O" for o in opts):
        sys.exit("experiment.py: --opt takes levels such as O0,O2, got '%s'" % a.opt)
    # (folder, name, label, opt, argvs, sizes): the label names the kernel in
    # the tables, with the level when there are several.
    kernels = [(folder, name, name if len(opts) == 1 else "%s-%s" % (name, opt), opt, argvs, sizes)
               for opt in opts for folder, name, argvs, sizes in KERNELS
               if not a.only or name in a.only.split(",")]
    if a.recompare:
        return recompare(a, kernels)
    work = os.path.join(a.out, "work")
    plots = os.path.join(a.out, "plots")
    os.makedirs(work, exist_ok=True)
    all_args, summary, spreads, kept = [], [], [], {}
    for folder, src_name, name, opt, argvs, sizes in kernels:
        if a.quick:
            argvs, sizes = argvs[:2], sizes[:2]
        print("== %s/%s -%s: build" % (folder, src_name, opt), file=sys.stderr, flush=True)
        base = build(folder, src_name, name, opt, work)
        seg = load_seg(base + ".seg.json")
        extra = extra_params(src_name, seg)
        seg_args, kargs = [base + ".seg.json"], []
        for argv, size in zip(argvs, sizes):
            m, med, lo, hi, ct, ct_times = measure(base, argv, size, a.runs, a.reps)
            spread = 100.0 * (hi - lo) / med
            spreads.append((name, size, med, spread, 100.0 * (max(ct_times) - min(ct_times)) / median(ct_times)))
            print("   size %-8s plain median %.4g s (spread %.1f%% over %d runs)"
                  % (size, med, spread, a.runs), file=sys.stderr, flush=True)
            run_args = ["--profile", ct, "--function", m["function"], "--size", size,
                        "--measured", "%.9g" % med]
            for k, v in m["params"].items():
                run_args += ["-p", "%s=%s" % (k, v)]
            # Probabilities a profile cannot measure (`a && b` compiled into
            # several branches) keep the algorithm's value (segtime_common.EXTRA).
            kargs += run_args + extra
        kept[name] = {"seg": base + ".seg.json", "args": kargs}
        with open(os.path.join(a.out, "runs.json"), "w") as f:
            json.dump({"kernels": kept, "spreads": spreads}, f, indent=1)
        out_base = os.path.join(a.out, name)
        args = seg_args + ["--machine", a.machine] + kargs
        text, err = compare(args + ["--plot", plots], out_base, "txt")
        if text is None:
            print("   compare failed: %s" % err.strip(), file=sys.stderr)
            summary.append((name, None))
            continue
        compare(args, out_base, "csv")
        compare(args, out_base, "json")
        summary.append((name, out_base))
        all_args.append((base + ".seg.json", kargs))
    compare_all(a, all_args)
    write_summary(a, summary, spreads)
    return 0


def recompare(a, kernels):
    """segtime compare again on the kept measurements (after a change to segtime)."""
    with open(os.path.join(a.out, "runs.json")) as f:
        kept = json.load(f)
    plots = os.path.join(a.out, "plots")
    all_args, summary = [], []
    for _, _, name, _, _, _ in kernels:
        if name not in kept["kernels"]:
            continue
        k = kept["kernels"][name]
        out_base = os.path.join(a.out, name)
        args = [k["seg"], "--machine", a.machine] + k["args"]
        text, err = compare(args + ["--plot", plots], out_base, "txt")
        if text is None:
            print("   %s: compare failed: %s" % (name, err.strip()), file=sys.stderr)
            summary.append((name, None))
            continue
        compare(args, out_base, "csv")
        compare(args, out_base, "json")
        summary.append((name, out_base))
        all_args.append((k["seg"], k["args"]))
    compare_all(a, all_args)
    write_summary(a, summary, [tuple(x) for x in kept["spreads"]])
    return 0


def compare_all(a, all_args):
    """The whole experiment in one compare: one SEG per run."""
    plots = os.path.join(a.out, "plots")
    segs, runs = [], []
    for seg, kargs in all_args:
        n = kargs.count("--profile")
        segs += [seg] * n
        runs += kargs
    if segs:
        args = segs + ["--machine", a.machine] + runs
        compare(args + ["--plot", plots], os.path.join(a.out, "all"), "txt")
        compare(args, os.path.join(a.out, "all"), "csv")
        compare(args, os.path.join(a.out, "all"), "json")


def pct(x):
    return "%+.1f" % x


def write_summary(a, summary, spreads):
    """summary.md: Table 6 at the largest size per kernel, Table 7, the error split."""
    lines = ["# The Warwick-94 experiment on this machine (scripts/experiment.py)", "",
             "machine file: `%s`; -%s %s; %d runs x SEGTIME_REPS=%d"
             % (a.machine, "/-".join(a.opt.split(",")), " ".join(FLAGS), a.runs, a.reps), ""]
    totals = ["| kernel | size | measured (plain) | spread | CT | e_CT (structure) | "
              "ICC e_L | INTCC e_L | HLLC e_L | POC e_L | ICC e_L-e_CT | INTCC | HLLC | POC |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    sp = {(n, s): (m, p) for n, s, m, p, _ in spreads}
    tables6 = []
    for name, base in summary:
        if base is None:
            totals.append("| %s | compare failed |" % name)
            continue
        with open(base + ".json") as f:
            rep = json.load(f)
        for r in rep["runs"]:
            t = r["totals"]
            lv = lambda d, L: pct(d[L]) if L in d else "-"
            m, p = sp.get((name, r["size"]), (t["whole_s"], float("nan")))
            totals.append("| %s | %s | %.4g s | %.1f%% | %.4g s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                name, r["size"], m, p, t["ct_s"], pct(t["structure_error_pct"]),
                *[lv(t["overall_error_pct"], L) for L in ("ICC", "INTCC", "HLLC", "POC")],
                *[lv(t["resource_error_pct"], L) for L in ("ICC", "INTCC", "HLLC", "POC")]))
        r = rep["runs"][-1]
        levels = rep["levels"]
        unit, sc = ("ms", 1e3) if r["totals"]["whole_s"] >= 1e-3 else ("us", 1e6)
        t6 = ["", "**%s** (%s, size %s), times per call in %s; error of each level vs CT:" % (
            name, r["function"], r["size"], unit), "",
            "| node | line | CT | " + " | ".join(levels) + " | " + " | ".join(l + " %" for l in levels) + " |",
            "|---" * (3 + 2 * len(levels)) + "|"]
        for row in r["rows"]:
            ct = "%.4g" % (row["ct_s"] * sc) if row["ct_s"] is not None else "-"
            t6.append("| %s%s %s | %d | %s | %s | %s |" % (
                "&nbsp;&nbsp;" * row["depth"], row["id"], row["label"], row["line"], ct,
                " | ".join("%.4g" % (row["predicted_s"][l] * sc) if l in row["predicted_s"] else "-" for l in levels),
                " | ".join(pct(row["error_pct"][l]) if l in row["error_pct"] else "-" for l in levels)))
        t = r["totals"]
        t6.append("| **total** (CT sum; measured %.4g) | | %.4g | %s | %s |" % (
            t["whole_s"] * sc, t["ct_s"] * sc,
            " | ".join("%.4g" % (t["predicted_s"][l] * sc) if l in t["predicted_s"] else "-" for l in levels),
            " | ".join(pct(t["overall_error_pct"][l]) if l in t["overall_error_pct"] else "-" for l in levels)))
        tables6 += t6
    lines += ["## Totals per kernel and size (errors in %)", ""] + totals
    lines += ["", "## Table 6: SEG node times, largest size per kernel", ""] + tables6
    allj = os.path.join(a.out, "all.json")
    if os.path.exists(allj):
        with open(allj) as f:
            rep = json.load(f)
        lines += ["", "## Table 7: error statistics per level over all kernels and sizes", "",
                  "| level | scope | n | mean | sd | min | max | 90% CI of mean | bias |",
                  "|---|---|---|---|---|---|---|---|---|"]
        for s in rep["stats"]:
            ci = "(%.2f, %.2f)" % tuple(s["ci90_pct"]) if s["ci90_pct"] else "-"
            lines.append("| %s | %s | %d | %.2f | %.2f | %.2f | %.2f | %s | %+.2f |" % (
                s["level"], s["scope"], s["n"], s["mean_pct"], s["sd_pct"], s["min_pct"],
                s["max_pct"], ci, s["bias_pct"]))
    lines += ["", "## Measurement spread (range of the per-run medians / median)", "",
              "| kernel | size | plain median | plain spread | CT spread |", "|---|---|---|---|---|"]
    for n, s, m, p, c in spreads:
        lines.append("| %s | %s | %.4g s | %.1f%% | %.1f%% |" % (n, s, m, p, c))
    with open(os.path.join(a.out, "summary.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    if a.docs:
        os.makedirs(a.docs, exist_ok=True)
        for f in os.listdir(os.path.join(a.out, "plots")):
            if f.endswith((".png", ".svg")):
                shutil.copy(os.path.join(a.out, "plots", f), a.docs)


if __name__ == "__main__":
    sys.exit(main())
