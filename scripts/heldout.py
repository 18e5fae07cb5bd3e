#!/usr/bin/env python3
"""heldout.py - the held-out validation protocol on the kernels of validation/manifest.json.

USAGE:
  scripts/heldout.py --machine MACHINE.yaml [--only gemm_ikj,dot] [--max-footprint 64M]
                     [--reps 7] [--rounds 3] [--opt O2]
                     [--json build/heldout/heldout.json] [--table build/heldout/heldout.md]
                     [--plot build/heldout/plot]
  scripts/heldout.py --machine OTHER.yaml --measured build/heldout/heldout.json   # predict again
  scripts/heldout.py --machine MACHINE.yaml --counts-only [--profile]  # callgrind instruction counts
  scripts/heldout.py --machine MACHINE.yaml --check           # compile + predict, no runs (ctest)
  scripts/heldout.py --check-separation                       # validation vs training kernels (ctest)

The manifest lists every validation kernel (role "validation"): its file, argv
names, a footprint expression and a list of sizes spanning the cache levels
(16 KB .. 256 MB; the cubic kernels to 24-40 MB, the quadratic-work ones with
little data to what runs in seconds). None of them is a training or
calibration kernel (--check-separation); nothing here is fitted: the machine
file's numbers come from `segtime calibrate` (its training kernels only).

For every kernel and size (sizes above --max-footprint left out):
  1. compile at -O2 (--opt) -march=native -mno-avx512f (valgrind cannot run
     AVX-512) with the plugin, ICC target "compile";
  2. run it --rounds times, the rounds interleaved over all kernel sizes and
     each behind the phase probe of validate.py (segtime_common.PhaseProbe);
     a round is the median of SEGTIME_REPS calls; "measured" is the median of
     the rounds run in a fast phase (all rounds if none was), "spread" is
     (max - min) / median over every call;
  3. predict every level (ICC, INTCC, HLLC, POC) at the parameters the
     program reports, data-dependent trip counts given by the manifest from
     the algorithm ("given"; an entry with "opt": [...] only at those
     optimisation levels), and report the error against the measured time.
Summary per level: |error| median, 90th percentile (nearest rank), within
15 % and 35 %; also per size class (footprint within L1, L2, L3, beyond).
Outputs: a table on stdout (and --table), --json, and with --plot a gnuplot
script, its data and (gnuplot installed) predicted-vs-measured.svg.

--counts-only: no timed runs; each kernel at its "small" size under valgrind
--tool=callgrind with 1 and 3 timed calls, the difference / 2 of the
instructions of the file's own functions (the harness's left out) is one
call's exact count; compared with the ICC count predicted for the same
parameters (deterministic: usable on a loaded machine). With --profile also
the count predicted with the CT profile (`segtime predict --profile`) of an
instrumented build run once at that size: measured loop counts and branch
outcomes where the static ones are estimates. With --late also the
profile of a build instrumented with instrument=late (the optimised code's
branch copies, docs/ct-json.md), given after the source one, and the
analysis compile with -fplugin-arg-segtime-ir-copies: each copy of an
optimised branch its own measured rate (build folder ...-late).
Not a test: timings are noisy; it prints numbers.
"""
import argparse, json, os, re, sys
from concurrent.futures import ThreadPoolExecutor

from segtime_common import (BUILD, CLANG, PLUGIN, ROOT, SEGTIME, PhaseProbe, without_profiled, add_phase_arguments, compile_kernel, profile_args,
                            eval_expr, extra_params, fast_rounds, given_params, kernel_instructions,
                            load_manifest, load_seg, measured, median, pct, percentile, predict, run)

LEVELS = ["ICC", "INTCC", "HLLC", "POC"]
RT = os.path.join(BUILD, "lib", "libsegtime-rt.a")
FLAGS = ["-O2", "-march=native", "-mno-avx512f"]
# s a prediction may take (segtime predict of a recursive function at the HLLC
# level can take minutes: reported, not waited for).
PREDICT_TIMEOUT = 60
TRAINING = os.path.join(ROOT, "tools", "calib", "kernels")


def parse_bytes(text):
    """'64M', '512K', '1G' or a number of bytes."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMG]?)i?B?\s*", text, re.I)
    if not m:
        raise argparse.ArgumentTypeError("expected a size such as 4M, 512K or 1048576, got %r" % text)
    return int(float(m.group(1)) * {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}[m.group(2).upper()])


def cache_sizes(machine):
    """[(name, bytes)] of the machine file's caches (memory.LN.size), smallest first."""
    import yaml
    with open(machine) as f:
        mem = (yaml.safe_load(f) or {}).get("memory", {}) or {}
    out = []
    for name, v in mem.items():
        size = v.get("size") if isinstance(v, dict) else None
        if re.fullmatch(r"L\d", name) and isinstance(size, dict) and "value" in size:
            out.append((name, float(size["value"])))
    return sorted(out, key=lambda x: x[1])


def size_class(footprint, caches):
    """The first cache level that holds footprint bytes, else 'memory'."""
    return next((n for n, s in caches if footprint <= s), "memory")


# ---------------------------------------------------------------- separation

def kernel_bodies(path):
    """{function name: its body as a token list with identifiers and numbers
    normalised} of the C file at path (top-level function definitions)."""
    text = re.sub(r"/\*.*?\*/|//[^\n]*", " ", open(path).read(), flags=re.S)
    tokens = re.findall(r"[A-Za-z_]\w*|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?[fFlL]?|\S", text)
    bodies, i = {}, 0
    keywords = {"for", "while", "if", "else", "do", "return", "double", "float", "int", "long",
                "unsigned", "char", "signed", "const", "void", "sqrt", "fabs", "exp", "log"}
    while i < len(tokens):
        # NAME ( ... ) { at depth 0: a function definition
        if re.match(r"[A-Za-z_]", tokens[i]) and i + 1 < len(tokens) and tokens[i + 1] == "(":
            j, depth = i + 1, 0
            while j < len(tokens):
                depth += {"(": 1, ")": -1}.get(tokens[j], 0)
                j += 1
                if depth == 0:
                    break
            if j < len(tokens) and tokens[j] == "{":
                k, depth = j, 0
                while k < len(tokens):
                    depth += {"{": 1, "}": -1}.get(tokens[k], 0)
                    k += 1
                    if depth == 0:
                        break
                body = [t if t in keywords or not re.match(r"\w", t)
                        else ("N" if t[0].isdigit() else "ID") for t in tokens[j:k]]
                bodies[tokens[i]] = body
                i = k
                continue
        i += 1
    return bodies


def check_separation(manifest, whole=True):
    """Problems (strings) if a validation kernel is also a training or
    calibration kernel: same function name (with or without the train_
    prefix), or the same normalised body, as a function of
    tools/calib/kernels/*.c; or a manifest entry that is not role validation
    or names a function its file does not define; whole: also a kernel file of
    validation/ missing from the manifest."""
    problems = []
    train = {}
    for f in sorted(os.listdir(TRAINING)):
        if f.endswith(".c"):
            for name, body in kernel_bodies(os.path.join(TRAINING, f)).items():
                train[name] = (f, body)
    train_names = set(train) | {n[len("train_"):] for n in train if n.startswith("train_")}
    train_bodies = {tuple(b): (f, n) for n, (f, b) in train.items() if len(b) > 8}
    files = set()
    for k in manifest["kernels"]:
        if k["role"] != "validation":
            problems.append("%s: role %r, expected 'validation'" % (k["name"], k["role"]))
        path = os.path.join(ROOT, k["file"])
        if not os.path.exists(path):
            problems.append("%s: no file %s" % (k["name"], k["file"]))
            continue
        files.add(os.path.abspath(path))
        if os.path.abspath(os.path.dirname(path)) == os.path.abspath(TRAINING):
            problems.append("%s: %s is a calibration source" % (k["name"], k["file"]))
        bodies = {n: b for n, b in kernel_bodies(path).items() if n != "main"
                  and not n.startswith(("segtime_", "vs_"))}
        if not bodies:
            problems.append("%s: no kernel function in %s" % (k["name"], k["file"]))
        for n, b in bodies.items():
            if n in train_names:
                problems.append("%s: function %s is also a training/calibration function"
                                % (k["name"], n))
            elif tuple(b) in train_bodies:
                f, tn = train_bodies[tuple(b)]
                problems.append("%s: function %s has the body of %s (%s)" % (k["name"], n, tn, f))
    # Every kernel file of validation/ is in the manifest.
    vdir = os.path.join(ROOT, "validation")
    for f in sorted(os.listdir(vdir)) if whole else []:
        if f.endswith(".c") and os.path.abspath(os.path.join(vdir, f)) not in files:
            problems.append("validation/%s: not in the manifest" % f)
    return problems


# ---------------------------------------------------------------- protocol

def build(kernels, work, jobs=2, plugin_args=()):
    """Compiles every kernel (in parallel; plugin_args: more
    -fplugin-arg-segtime-... flags); returns {name: (base, seg dict)}."""
    def one(k):
        base = os.path.join(work, k["name"])
        compile_kernel(os.path.join(ROOT, k["file"]), base, FLAGS + list(plugin_args))
        return k["name"], (base, load_seg(base + ".seg.json"))
    with ThreadPoolExecutor(jobs) as ex:
        return dict(ex.map(one, kernels))


def given(k, seg, params, opt=None):
    """-p arguments of the data-dependent parameters: the manifest's "given"
    and the branch probabilities segtime_common.EXTRA gives an example. A
    "given" entry with an "opt" list applies at those optimisation levels
    only (opt: this run's, default FLAGS[0]): a count of an optimised loop
    names a parameter that the -O0 SEG file, whose IR loops are the source
    loops and counted from them, does not have."""
    opt = opt or FLAGS[0].lstrip("-")
    wanted = [g for g in k.get("given") or [] if "opt" not in g or opt in g["opt"]]
    return extra_params(k["name"], seg) + given_params(seg, wanted, params)


def predict_levels(seg_path, function, params, extra, machine, levels=LEVELS):
    """Every level's prediction, one `segtime predict` per level (a level that
    fails or exceeds PREDICT_TIMEOUT is left out and named in the error):
    ({"levels": {...}}, error text)."""
    out, errors = {}, []
    for l in levels:
        p, err = predict(seg_path, function, params, extra, machine, l.lower(),
                         timeout=PREDICT_TIMEOUT)
        if p:
            out.update(p["levels"])
        else:
            errors.append("%s: %s" % (l, err))
    return {"levels": out}, "; ".join(errors)


def levels_of(pred, measured_s):
    out = {}
    for lvl, v in (pred or {}).get("levels", {}).items():
        out[lvl] = {"time_s": v["time_s"]}
        if measured_s:
            out[lvl]["error_pct"] = pct(v["time_s"], measured_s)
    return out


def stats(rows, key=lambda r: True):
    """{level: {n, median, p90, within15, within35}} of |error| over rows."""
    out = {}
    for l in LEVELS:
        e = [abs(r["levels"][l]["error_pct"]) for r in rows
             if key(r) and "error_pct" in r["levels"].get(l, {})]
        if e:
            out[l] = {"n": len(e), "median_abs_error_pct": median(e),
                      "p90_abs_error_pct": percentile(e, 90),
                      "within_15": sum(1 for x in e if x <= 15),
                      "within_35": sum(1 for x in e if x <= 35)}
    return out


def write_plot(rows, folder):
    """predicted-vs-measured.{dat,gp} (and .svg if gnuplot runs) in folder."""
    os.makedirs(folder, exist_ok=True)
    dat = os.path.join(folder, "predicted-vs-measured.dat")
    with open(dat, "w") as f:
        f.write("# kernel size measured_s " + " ".join(l + "_s" for l in LEVELS) + "\n")
        for r in rows:
            f.write("%s %s %.6g %s\n" % (r["kernel"], "x".join(str(v) for v in r["argv"]),
                                         r["measured_median_s"],
                                         " ".join("%.6g" % r["levels"][l]["time_s"]
                                                  if l in r["levels"] else "NaN" for l in LEVELS)))
    gp = os.path.join(folder, "predicted-vs-measured.gp")
    with open(gp, "w") as f:
        f.write("set terminal svg size 900,700\nset output 'predicted-vs-measured.svg'\n"
                "set logscale xy\nset xlabel 'measured time (s)'\nset ylabel 'predicted time (s)'\n"
                "set key top left\nset grid\n"
                "set title 'held-out validation set: predicted vs measured (median of runs)'\n"
                "plot " + ", ".join("'predicted-vs-measured.dat' using 3:%d title '%s' with points pt %d"
                                    % (4 + i, l, 7 + i) for i, l in enumerate(LEVELS))
                + ", x title 'exact' with lines lc rgb 'black', 1.35*x title '+35%%' dt 2 lc rgb 'gray', "
                "x/1.35 notitle dt 2 lc rgb 'gray'\n")
    r = run(["gnuplot", "predicted-vs-measured.gp"], check=False, cwd=folder) \
        if any(os.access(os.path.join(p, "gnuplot"), os.X_OK)
               for p in os.environ.get("PATH", "").split(os.pathsep)) else None
    return gp, (r is not None and r.returncode == 0)


def check_kernels(kernels, built, machine):
    """--check: each kernel predicts its small size at every level it should;
    prints a line per kernel and returns the exit status."""
    # One run at the small size (SEGTIME_REPS=1, milliseconds): the name of
    # the timed function and the parameters the harness reports; its time
    # is not used.
    bad = 0
    for k in kernels:
        base, seg = built[k["name"]]
        m = measured(run([base] + [str(v) for v in k["small"]],
                         env=dict(os.environ, SEGTIME_REPS="1")).stdout)
        want = k.get("check_levels", LEVELS)
        pred, err = predict(base + ".seg.json", m["function"], m["params"],
                            given(k, seg, m["params"]), machine, ",".join(want).lower(),
                            timeout=PREDICT_TIMEOUT)
        times = {l: (pred or {}).get("levels", {}).get(l, {}).get("time_s") for l in want}
        # POC counts flop only: 0 s for a kernel without floating point.
        good = pred is not None and all(t is not None and (0 < t < 1e6 or l == "POC" and t == 0)
                                        for l, t in times.items())
        bad += not good
        print("%-15s %-15s %s" % (k["name"], m["function"], " ".join(
            "%s=%.3g s" % (l, t) if t is not None else "%s=n/a" % l for l, t in times.items())
            if pred else "error: " + err))
    print("%d of %d kernels predict at every level" % (len(kernels) - bad, len(kernels)))
    return 1 if bad else 0


def count_rows(kernels, built, machine, profile=False, late=False):
    """--counts-only: the ICC instruction count of each kernel at its small
    size against callgrind; with profile also with the CT profile of an
    instrumented build run at that size (`segtime predict --profile`; the
    profile's values replace the manifest's "given" ones; late: also the
    instrument=late profile of the optimised code, after the source one, so
    that each optimised branch copy takes its own rate); returns the rows, the table lines
    and the summary."""
    rows = []
    for k in kernels:
        base, seg = built[k["name"]]
        argv = [str(v) for v in k["small"]]
        print("== callgrind %s %s" % (k["name"], " ".join(argv)), file=sys.stderr, flush=True)
        m = measured(run([base] + argv, env=dict(os.environ, SEGTIME_REPS="1")).stdout)
        per_call = kernel_instructions(base, argv, seg)
        extra = given(k, seg, m["params"])
        row = {"kernel": k["name"], "function": m["function"], "params": m["params"],
               "callgrind_instructions": per_call}
        for key, ct in (("", None), ("_profile", ct_profile(k, base, argv, late) if profile else None)):
            if key and not ct:
                continue
            pred, err = predict(base + ".seg.json", m["function"], m["params"],
                                profiled_extra(base, m, extra, machine, ct) if ct else extra,
                                machine, "icc", profile=ct)
            if pred:
                icc = pred["levels"]["ICC"]["counts"].get("instructions", 0)
                row.update({"icc_instructions" + key: icc, "error_pct" + key: pct(icc, per_call)})
            else:
                row["error" + key] = err
        rows.append(row)
    lines = ["| kernel | parameters | callgrind instr. | ICC instr. | error |"
             + (" ICC instr. (CT profile) | error |" if profile else ""),
             "|---|---|---|---|---|" + ("---|---|" if profile else "")]
    for r in rows:
        cells = [r["kernel"], " ".join("%s=%g" % kv for kv in r["params"].items()),
                 "%.0f" % r["callgrind_instructions"]]
        for key in ("", "_profile") if profile else ("",):
            cells += ["%.0f" % r["icc_instructions" + key] if "icc_instructions" + key in r else "-",
                      "%+.2f%%" % r["error_pct" + key] if "error_pct" + key in r
                      else r.get("error" + key, "")[:60]]
        lines.append("| " + " | ".join(cells) + " |")
    summary = []
    for key, label in (("", ""), ("_profile", " with the CT profile")) if profile else (("", ""),):
        errs = [abs(r["error_pct" + key]) for r in rows if "error_pct" + key in r]
        summary += ["ICC instruction count%s vs callgrind over %d kernels: |error| median %.2f%%, "
                    "p90 %.2f%%, max %.2f%%; within 1%%: %d, within 2%%: %d, within 10%%: %d; "
                    "not predicted: %d"
                    % (label, len(errs), median(errs), percentile(errs, 90), max(errs),
                       sum(1 for e in errs if e <= 1), sum(1 for e in errs if e <= 2),
                       sum(1 for e in errs if e <= 10), len(rows) - len(errs))] if errs else \
                   ["no kernel predicted" + label]
    return rows, lines, summary


def profiled_extra(base, m, extra, machine, ct):
    """extra (-p NAME=VALUE pairs) less the names the CT profile ct gives
    (segtime predict --profile says "-p given, not used" for them): with
    the profile, its measured values replace those given from the algorithm."""
    cmd = [SEGTIME, "predict", base + ".seg.json", "--machine", machine, "--function",
           m["function"], "--level", "icc"] + profile_args(ct)
    for kv in m["params"].items():
        cmd += ["-p", "%s=%s" % kv]
    err = run(cmd + list(extra), check=False, timeout=PREDICT_TIMEOUT).stderr
    return without_profiled(list(extra), err)


def ct_profile(k, base, argv, late=False):
    """The .ct.json of kernel k compiled instrumented (-fplugin-arg-segtime-
    instrument, the CT runtime) and run once with argv; with late, the list
    of it and the .ct.json of the build instrumented with instrument=late
    (the optimised code's counts), run the same way."""
    out = []
    for kind, arg in (("-ct", "instrument"), ("-late", "instrument=late"))[:2 if late else 1]:
        ct = base + kind
        run([CLANG] + FLAGS + ["-fplugin=" + PLUGIN, "-fplugin-arg-segtime-quiet",
                               "-fplugin-arg-segtime-" + arg,
                               "-fplugin-arg-segtime-out=" + ct + ".seg.json",
                               os.path.join(ROOT, k["file"]), RT, "-o", ct, "-lm"])
        run([ct] + argv, env=dict(os.environ, SEGTIME_REPS="1", SEGTIME_CT_FILE=ct + ".ct.json"))
        out.append(ct + ".ct.json")
    return out if late else out[0]


def timing_of(earlier, rs, probe):
    """(round medians, fast-phase rounds, measured median, min, max, first
    measurement) of one kernel size: from an earlier run's row (--measured)
    or from this run's rounds rs [(measurement, probe before, probe after)]."""
    if earlier:
        vals = earlier["round_medians_s"]
        return (vals, vals[:len(vals) - earlier["slow_phase_rounds"]], earlier["measured_median_s"],
                earlier["measured_min_s"], earlier["measured_max_s"],
                {"function": earlier["function"], "params": earlier["params"]})
    vals = [m["median_s"] for m, _, _ in rs]
    fast = fast_rounds(vals, [b for _, b, _ in rs], [f for _, _, f in rs], probe.best)
    return (vals, fast, median(fast or vals), min(m["min_s"] for m, _, _ in rs),
            max(m["max_s"] for m, _, _ in rs), rs[0][0])


def timed_rows(a, kernels, built, work, caches):
    """Every (kernel, size) up to --max-footprint timed in --rounds interleaved
    rounds and predicted at every level; returns the rows, the table lines and
    the summary."""
    rows = []
    # Every (kernel, size) up to --max-footprint.
    jobs = []
    for k in kernels:
        for argv in k["sizes"]:
            fp = eval_expr(k["footprint_bytes"], dict(zip(k["args"], argv)))
            if a.max_footprint is None or fp <= a.max_footprint:
                jobs.append((k, argv, fp))
    probe = PhaseProbe(work, wait=a.phase_wait,
                       log=lambda line: print("== " + line, file=sys.stderr, flush=True))
    res = {}
    earlier = {}
    if a.measured:
        with open(a.measured) as f:
            earlier = {(r["kernel"], tuple(r["argv"])): r for r in json.load(f)["rows"]
                       if "measured_median_s" in r}
    for rnd in range(a.rounds):
        for k, argv, fp in jobs:
            if (k["name"], tuple(argv)) in earlier:
                continue
            base, _ = built[k["name"]]
            m, before, after, _aside = probe.measure(
                lambda: measured(run([base] + [str(v) for v in argv],
                                     env=dict(os.environ, SEGTIME_REPS=a.reps)).stdout),
                a.retries, "round %d/%d: %s %s" % (rnd + 1, a.rounds, k["name"],
                                                   " ".join(map(str, argv))))
            res.setdefault((k["name"], tuple(argv)), []).append((m, before, after))
    for k, argv, fp in jobs:
        base, seg = built[k["name"]]
        vals, fast, med, lo, hi, m0 = timing_of(earlier.get((k["name"], tuple(argv))),
                                                res.get((k["name"], tuple(argv))), probe)
        pred, err = predict_levels(base + ".seg.json", m0["function"], m0["params"],
                                   given(k, seg, m0["params"]), a.machine)
        rows.append({"kernel": k["name"], "function": m0["function"], "group": k.get("group", ""),
                     "argv": argv, "params": m0["params"], "footprint_bytes": fp,
                     "size_class": size_class(fp, caches),
                     "measured_median_s": med, "measured_min_s": lo, "measured_max_s": hi,
                     "spread_pct": 100.0 * (hi - lo) / med if med else float("nan"),
                     "round_medians_s": vals, "slow_phase_rounds": len(vals) - len(fast),
                     "levels": levels_of(pred, med), "error": err})
    lines = ["| kernel | size | footprint | class | measured (spread) | " +
             " | ".join(LEVELS) + " |", "|---|---|---|---|---|" + "---|" * len(LEVELS)]
    for r in rows:
        lines.append("| %s | %s | %.3g MB | %s | %.4g s (%.0f%%) | %s |" % (
            r["kernel"], "x".join(map(str, r["argv"])), r["footprint_bytes"] / 2 ** 20,
            r["size_class"], r["measured_median_s"], r["spread_pct"], " | ".join(
                "%+.0f%%" % r["levels"][l]["error_pct"] if "error_pct" in r["levels"].get(l, {})
                else "n/a" for l in LEVELS)))
    summary = []
    for title, key in [("all", lambda r: True)] + [
            ("footprint in " + c, (lambda c: lambda r: r["size_class"] == c)(c))
            for c in [n for n, _ in caches] + ["memory"]]:
        st = stats(rows, key)
        if st:
            summary.append("%s (%d kernel sizes, %d kernels): " % (
                title, sum(1 for r in rows if key(r)),
                len({r["kernel"] for r in rows if key(r)})) + "; ".join(
                "%s |error| median %.1f%%, p90 %.1f%%, within 15%%: %d, within 35%%: %d of %d"
                % (l, s["median_abs_error_pct"], s["p90_abs_error_pct"], s["within_15"],
                   s["within_35"], s["n"]) for l, s in st.items()))
    slow = sum(r["slow_phase_rounds"] for r in rows)
    if slow:
        summary.append("rounds run in a slow phase (left out of the medians): %d" % slow)
    if a.plot:
        gp, ok = write_plot(rows, a.plot)
        summary.append("plot: %s%s" % (gp, " (and predicted-vs-measured.svg)" if ok else
                                       " (gnuplot not run)"))
    return rows, lines, summary


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--machine", help="machine file (calibrated on the machine that measures)")
    ap.add_argument("--manifest", default=os.path.join(ROOT, "validation", "manifest.json"))
    ap.add_argument("--only", default="", help="comma list of kernel names")
    ap.add_argument("--max-footprint", type=parse_bytes, default=None,
                    help="leave out sizes with a larger footprint (e.g. 4M)")
    ap.add_argument("--reps", default="7", help="timed calls per round (SEGTIME_REPS)")
    ap.add_argument("--rounds", type=int, default=3, help="timing rounds, interleaved (default 3)")
    add_phase_arguments(ap, 60)
    ap.add_argument("--opt", default="O2", choices=["O0", "O1", "O2", "O3"])
    ap.add_argument("--counts-only", action="store_true", help="callgrind instruction counts only")
    ap.add_argument("--profile", action="store_true",
                    help="with --counts-only: also the ICC counts with the CT profile of an "
                         "instrumented run at the same size")
    ap.add_argument("--late", action="store_true",
                    help="with --profile: also the instrument=late profile of the optimised code; "
                         "the analysis compile names each optimised branch copy (ir-copies), which "
                         "takes its own measured rate")
    ap.add_argument("--check", action="store_true",
                    help="compile every kernel and predict its smallest size at every level "
                         "(no runs); exit 1 on a kernel that does not predict")
    ap.add_argument("--check-separation", action="store_true",
                    help="exit 1 if a validation kernel is a training/calibration kernel")
    ap.add_argument("--work", default="", help="build folder (default build/heldout[-OPT])")
    ap.add_argument("--measured", default="", metavar="JSON",
                    help="take the measured times from an earlier run's --json (same kernels, sizes "
                         "and flags; the plugin does not change the code) and only predict again; "
                         "kernel sizes missing from it are measured")
    ap.add_argument("--json", default="")
    ap.add_argument("--table", default="")
    ap.add_argument("--plot", default="", help="folder for the gnuplot predicted-vs-measured plot")
    a = ap.parse_args()
    FLAGS[0] = "-" + a.opt
    manifest = load_manifest(a.manifest)
    kernels = [k for k in manifest["kernels"] if not a.only or k["name"] in a.only.split(",")]
    if a.only and len(kernels) != len(set(a.only.split(","))):
        ap.error("--only: unknown kernel(s) %s" % sorted(set(a.only.split(",")) -
                                                       {k["name"] for k in kernels}))

    if a.check_separation:
        problems = check_separation(manifest, os.path.abspath(a.manifest) == os.path.abspath(
            os.path.join(ROOT, "validation", "manifest.json")))
        for p in problems:
            print("separation: " + p)
        print("%d validation kernels, %d problems" % (len(manifest["kernels"]), len(problems)))
        sys.exit(1 if problems else 0)
    if not a.machine:
        ap.error("--machine is required")
    if a.profile and not a.counts_only:
        ap.error("--profile goes with --counts-only")
    if a.late and not a.profile:
        ap.error("--late goes with --profile")

    work = a.work or os.path.join(BUILD, ("heldout" if a.opt == "O2" else "heldout-" + a.opt)
                                  + ("-late" if a.late else ""))
    os.makedirs(work, exist_ok=True)
    print("== compiling %d kernels" % len(kernels), file=sys.stderr, flush=True)
    built = build(kernels, work, plugin_args=["-fplugin-arg-segtime-ir-copies"] if a.late else [])
    caches = cache_sizes(a.machine)

    if a.check:
        sys.exit(check_kernels(kernels, built, a.machine))

    if a.counts_only:
        rows, lines, summary = count_rows(kernels, built, a.machine, a.profile, a.late)
    else:
        rows, lines, summary = timed_rows(a, kernels, built, work, caches)
    print("\n".join(lines))
    print()
    print("\n".join(summary))
    out = {"machine": a.machine, "flags": FLAGS, "measured_from": a.measured or None, "manifest": os.path.relpath(a.manifest, ROOT),
           "fitted": "nothing: the machine file's numbers come from segtime calibrate "
                     "(training and calibration kernels only)", "rows": rows, "summary": summary}
    if not a.counts_only:
        out["stats"] = stats(rows)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)
    if a.table:
        with open(a.table, "w") as f:
            f.write("\n".join(lines) + "\n\n" + "\n".join("- " + s for s in summary) + "\n")


if __name__ == "__main__":
    main()
