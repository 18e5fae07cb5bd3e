#!/usr/bin/env python3
"""validate.py - validation of all levels on the examples and validation kernels.

USAGE:
  scripts/validate.py --machine build/costvectors/local.yaml [--only dot,gemv]
                      [--reps 7] [--rounds 3] [--no-callgrind | --counts-only]
                      [--json build/validation.json] [--markdown build/validation.md]
                      [--measured-from EARLIER.json]   (re-predict, no timed runs)

For every kernel (examples/*.c, validation/*.c):
  1. compile at -O2 (--opt) -march=native -mno-avx512f (valgrind cannot run AVX-512)
     with the plugin and ICC target "compile" (the code being compiled);
  2. run it at its default size, --rounds times, the rounds interleaved
     over the kernels (the VM has slow phases of seconds to minutes in which
     the same code runs up to 2x slower; a round of one kernel lasts well
     under a second): each round's median of SEGTIME_REPS calls; "measured"
     is the median of the rounds' medians (of the rounds run in a fast
     phase, see below, if any was), the spread (max - min) / median of all
     calls. Before each run a phase probe (Horner's rule of degree 16
     on 2000 points in L1, the poly kernel) is timed; while it is more than
     25 % slower than its fastest value the run waits (at most --phase-wait
     s): in the VM's slow phases code with loads runs up to 2x slower while
     a register-only chain does not, so calibrate's clock probe cannot see
     them. The probe runs again after the run; a run before or after which
     it is slow is set aside (kept in the JSON) and run again, at most
     --retries times; a round still run in a slow phase is kept but left out
     of the median ("slow_phase_rounds" in the JSON). The probe values are in
     the JSON;
  3. predict the time at every level (POC, HLLC, INTCC, ICC) for the same
     parameters and report the error against the measured median; and the
     ICC time again with the branch probabilities and loop counts that
     component timing measured at the same size (an instrumented build,
     segtime predict --profile): column "ICC with CT profile" (the
     Warwick-94 method takes data-dependent branch probabilities as
     measured or given, not guessed);
  4. unless --no-callgrind: run a small size under valgrind --tool=callgrind
     with 1 and with 3 timed repetitions; the difference / 2 of the
     instructions executed in the file's own functions, except the harness's
     (main and segtime_*: the timing loop, sorting the samples), is the exact
     dynamic instruction count of one kernel call; compare with the ICC prediction
     (levels.ICC.counts.instructions) for the same parameters; and again with
     the branch probabilities and loop counts measured by component timing
     (a -fplugin-arg-segtime-instrument build run at the same size,
     segtime predict --profile): column "ICC instr. with CT profile".
--counts-only skips 2 and 3 (no timed runs: a deterministic check of the
instruction counts, usable on a loaded machine).
Not a test: timings are noisy; it prints numbers (median, spread, errors).
"""
import argparse, json, os, sys

from segtime_common import (BUILD, CLANG, PLUGIN, ROOT, PhaseProbe, add_phase_arguments,
                            extra_params, fast_rounds, given_params, kernel_instructions,
                            load_manifest, load_seg, measured, median, pct, predict, run)

RT = os.path.join(BUILD, "lib", "libsegtime-rt.a")

FLAGS = ["-O2", "-march=native", "-mno-avx512f"]

# argv for the small runs under valgrind (kernel parameters follow from the
# program's own SEGTIME_MEASURED line): the manifest's "small" sizes.
SMALL = {k["name"]: [str(v) for v in k["small"]] for k in load_manifest()["kernels"]}
# Data-dependent trip counts the manifest gives from the algorithm.
GIVEN = {k["name"]: k.get("given") for k in load_manifest()["kernels"]}


def extra_for(name, seg, params):
    """-p arguments of the data-dependent parameters: segtime_common.EXTRA's
    branch probabilities and the manifest's given trip counts at params."""
    return extra_params(name, seg) + given_params(seg, GIVEN.get(name), params)


def build_kernels(srcs, work):
    """Compiles each (folder, name) kernel into work twice: with the plugin
    (base: its .seg.json, the program) and instrumented (ct); returns
    (folder, name, base, ct) per kernel."""
    built = []
    for folder, name in srcs:
        print("== %s/%s: compile" % (folder, name), file=sys.stderr, flush=True)
        base = os.path.join(work, name)
        run([CLANG] + FLAGS + ["-fplugin=" + PLUGIN,
             "-fplugin-arg-segtime-quiet", "-fplugin-arg-segtime-targets=compile",
             "-fplugin-arg-segtime-out=" + base + ".seg.json",
             "-c", os.path.join(ROOT, folder, name + ".c"), "-o", base + ".o"])
        run([CLANG, base + ".o", "-o", base, "-lm"])
        # The instrumented build (component timing): measured branch
        # probabilities and loop counts (its own .seg.json is of the
        # instrumented code: not used).
        ct = base + "-ct"
        run([CLANG] + FLAGS + ["-fplugin=" + PLUGIN, "-fplugin-arg-segtime-quiet",
             "-fplugin-arg-segtime-instrument", "-fplugin-arg-segtime-out=" + ct + ".seg.json",
             os.path.join(ROOT, folder, name + ".c"), RT, "-o", ct, "-lm"])
        built.append((folder, name, base, ct))
    return built


def add_callgrind(row, name, base, ct, seg, machine):
    """Row's "callgrind": the ICC instruction count at the small size against
    callgrind, without and with the measured branch probabilities (the
    instrumented build ct)."""
    kernel = row["function"]
    small = measured(run([base] + SMALL[name], env=dict(os.environ, SEGTIME_REPS="1")).stdout)
    per_call = kernel_instructions(base, SMALL[name], seg)
    sp, err2 = predict(base + ".seg.json", kernel, small["params"],
                       extra_for(name, seg, small["params"]), machine, "icc")
    row["callgrind"] = {"params": small["params"], "instructions": per_call}
    if sp:
        icc = sp["levels"]["ICC"]["counts"].get("instructions", 0)
        row["callgrind"].update({"predicted": icc, "error_pct": pct(icc, per_call)})
    else:
        row["callgrind"]["error"] = err2
    # The same with measured branch probabilities (the instrumented build).
    run([ct] + SMALL[name], env=dict(os.environ, SEGTIME_REPS="1",
                                    SEGTIME_CT_FILE=ct + ".ct.json"))
    pp, err3 = predict(base + ".seg.json", kernel, small["params"],
                       extra_for(name, seg, small["params"]), machine, "icc",
                       profile=ct + ".ct.json")
    if pp:
        icc = pp["levels"]["ICC"]["counts"].get("instructions", 0)
        row["callgrind"].update({"profiled": icc, "profiled_error_pct": pct(icc, per_call)})
    else:
        row["callgrind"]["profiled_error"] = err3


def table_lines(rows, levels):
    """The Markdown table of the rows."""
    lines = ["| kernel | function | callgrind instr. | ICC instr. | err | ICC instr. with CT profile "
             "| err | measured (spread) | " + " | ".join(levels) + " | ICC with CT profile |",
             "|---|---|---|---|---|---|---|---|" + "---|" * (len(levels) + 1)]
    for r in rows:
        cg = r.get("callgrind", {})
        cells = ["%+.1f%%" % r["levels"][l]["error_pct"] if l in r["levels"] else "n/a" for l in levels]
        if "measured_median_s" in r:
            spread = 100.0 * (r["measured_max_s"] - r["measured_min_s"]) / r["measured_median_s"]
            timed = "%.3f ms (%.0f%%)" % (r["measured_median_s"] * 1e3, spread)
        else:
            timed = "-"
        prof = r.get("icc_profiled")
        cells.append("%+.1f%%" % prof["error_pct"] if prof else "n/a")
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["kernel"], r["function"],
            "%.0f" % cg["instructions"] if "instructions" in cg else "-",
            "%.0f" % cg["predicted"] if "predicted" in cg else "-",
            "%+.2f%%" % cg["error_pct"] if "error_pct" in cg else "-",
            "%.0f" % cg["profiled"] if "profiled" in cg else "-",
            "%+.2f%%" % cg["profiled_error_pct"] if "profiled_error_pct" in cg else "-",
            timed, " | ".join(cells)))
    return lines


def summarise(rows, levels, counts_only):
    """The summary lines: instruction counts, errors per level, Table 7 order."""
    summary = []
    cg_rows = [r["callgrind"] for r in rows if "error_pct" in r.get("callgrind", {})]
    if cg_rows:
        within = sum(1 for c in cg_rows if abs(c["error_pct"]) <= 2.0)
        summary.append("ICC instruction count within 2%% of callgrind: %d of %d kernels"
                       % (within, len(cg_rows)))
    prof_rows = [r["callgrind"] for r in rows if "profiled_error_pct" in r.get("callgrind", {})]
    if prof_rows:
        within = sum(1 for c in prof_rows if abs(c["profiled_error_pct"]) <= 2.0)
        summary.append("ICC instruction count with the CT profile within 2%% of callgrind: "
                       "%d of %d kernels" % (within, len(prof_rows)))
    for l in levels:
        errs = sorted(abs(r["levels"][l]["error_pct"]) for r in rows if l in r["levels"])
        if errs:
            summary.append("%s: median |error| %.1f%%, max %.1f%% over %d kernels"
                           % (l, median(errs), errs[-1], len(errs)))
    errs = sorted(abs(r["icc_profiled"]["error_pct"]) for r in rows if "icc_profiled" in r)
    if errs:
        summary.append("ICC with the CT profile: median |error| %.1f%%, max %.1f%% over %d kernels"
                       % (median(errs), errs[-1], len(errs)))
    if not counts_only:
        within = sum(1 for r in rows if "ICC" in r["levels"] and abs(r["levels"]["ICC"]["error_pct"]) <= 15)
        summary.append("ICC within 15%%: %d of %d kernels" % (within, len(rows)))
        vs_min = sorted(abs(pct(r["levels"]["ICC"]["time_s"], r["measured_min_s"])) for r in rows
                        if "ICC" in r["levels"] and "measured_min_s" in r)
        if vs_min:
            summary.append("ICC against the minimum of the calls: median |error| %.1f%%, within "
                           "15%%: %d of %d kernels" % (median(vs_min),
                                                       sum(1 for e in vs_min if e <= 15), len(vs_min)))
    order = best = worst = table7 = 0
    for r in rows:
        e = {l: abs(r["levels"][l]["error_pct"]) for l in levels if l in r["levels"]}
        if len(e) < 4:
            continue
        b = e["ICC"] <= min(e["INTCC"], e["HLLC"], e["POC"])
        w = e["POC"] >= max(e["ICC"], e["INTCC"], e["HLLC"])
        best, worst, order = best + b, worst + w, order + (b and w)
        # Table 7 itself has ICC, HLLC and POC (no intermediate level).
        table7 += e["ICC"] <= e["HLLC"] <= e["POC"]
    if not counts_only:
        summary.append("levels ordered as in Warwick-94 Table 7 (ICC best, POC worst): %d of %d kernels"
                       % (order, len(rows)))
        summary.append("  ICC best of the four levels on %d, POC worst on %d; Table 7's own levels "
                       "in its order (ICC <= HLLC <= POC) on %d" % (best, worst, table7))
        slow = sum(r.get("slow_phase_rounds", 0) for r in rows)
        if slow:
            summary.append("rounds run in a slow phase after every retry (left out of the medians): "
                           "%d of %d" % (slow, sum(len(r.get("round_medians_s", [])) for r in rows)))
            vs_all = [abs(pct(r["levels"]["ICC"]["time_s"], r["measured_median_all_rounds_s"]))
                      for r in rows if "ICC" in r["levels"] and "measured_median_all_rounds_s" in r]
            summary.append("ICC against the median of all rounds (slow phases included): median "
                           "|error| %.1f%%, within 15%%: %d of %d kernels"
                           % (median(vs_all), sum(1 for e in vs_all if e <= 15), len(vs_all)))
    return summary


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--machine", required=True)
    ap.add_argument("--only", default="")
    ap.add_argument("--reps", default="7", help="timed calls per round (SEGTIME_REPS)")
    ap.add_argument("--rounds", type=int, default=3,
                    help="timing rounds, interleaved over the kernels (default 3)")
    add_phase_arguments(ap, 60)
    ap.add_argument("--no-callgrind", action="store_true")
    ap.add_argument("--counts-only", action="store_true",
                    help="only the callgrind instruction counts (no timed runs)")
    ap.add_argument("--opt", default="O2", choices=["O0", "O1", "O2", "O3"],
                    help="optimisation level of the kernels (default O2)")
    ap.add_argument("--measured-from", default="",
                    help="take the measured times from an earlier run's --json (no timed runs): "
                         "re-predicts against the same measurements, e.g. after a model change")
    ap.add_argument("--json", default="")
    ap.add_argument("--markdown", default="")
    a = ap.parse_args()
    FLAGS[0] = "-" + a.opt
    earlier = {}
    if a.measured_from:
        with open(a.measured_from) as f:
            earlier = {r["kernel"]: r for r in json.load(f)["rows"] if "measured_median_s" in r}
        earlier_best = min([p for r in earlier.values() for k in ("phase_probe_s_per_point",
                            "phase_probe_after_s_per_point") for p in r.get(k, [])] or [0])
    if a.counts_only and a.no_callgrind:
        ap.error("--counts-only and --no-callgrind exclude each other")

    srcs = []
    for folder in ("examples", "validation"):
        d = os.path.join(ROOT, folder)
        if os.path.isdir(d):
            srcs += [(folder, f[:-2]) for f in sorted(os.listdir(d)) if f.endswith(".c")]
    if a.only:
        srcs = [s for s in srcs if s[1] in a.only.split(",")]
    work = os.path.join(BUILD, "validation" if a.opt == "O2" else "validation-" + a.opt)
    os.makedirs(work, exist_ok=True)
    rows = []
    built = build_kernels(srcs, work)
    # Timing rounds, interleaved over the kernels, each behind the phase probe.
    rounds = {}
    probes = {}
    probes_after = {}
    set_aside = {}
    slow_rounds = {}
    all_rounds = {}  # median over every round, slow phases included
    if not a.counts_only and not earlier:
        # The VM has slow phases (seconds to minutes) in which code with loads
        # runs up to 2x slower while register-only code does not (docs/results.md
        # "Machines"): each run behind the phase probe (segtime_common.PhaseProbe).
        probe = PhaseProbe(work, wait=a.phase_wait,
                           log=lambda line: print("== " + line, file=sys.stderr, flush=True))
        for r in range(a.rounds):
            for folder, name, base, ct in built:
                m, before, after, aside = probe.measure(
                    lambda: measured(run([base], env=dict(os.environ, SEGTIME_REPS=a.reps)).stdout),
                    a.retries, "round %d/%d: %s" % (r + 1, a.rounds, name))
                set_aside.setdefault(name, []).extend(x["median_s"] for x in aside)
                probes.setdefault(name, []).append(before)
                probes_after.setdefault(name, []).append(after)
                rounds.setdefault(name, []).append(m)
    for folder, name, base, ct in built:
        seg = load_seg(base + ".seg.json")
        if a.counts_only:
            m = measured(run([base] + SMALL.get(name, []),
                             env=dict(os.environ, SEGTIME_REPS="1")).stdout)
            pred, err = None, ""
        elif earlier:
            if name not in earlier:
                print("== %s: not in %s (no measured time): skipped" % (name, a.measured_from),
                      file=sys.stderr)
                continue
            e = earlier[name]
            rounds[name] = [{"median_s": x} for x in e["round_medians_s"]]
            probes[name] = e.get("phase_probe_s_per_point", [])
            probes_after[name] = e.get("phase_probe_after_s_per_point", [])
            set_aside[name] = e.get("set_aside_round_medians_s", [])
            m = {"function": e["function"], "params": e["params"], "median_s": e["measured_median_s"],
                 "min_s": e["measured_min_s"], "max_s": e["measured_max_s"]}
            # The same choice of rounds as a live run, against the fastest
            # probe value of the earlier run (runs from before the choice was
            # made keep their median: no probe was stored after them).
            best = earlier_best if probes[name] and probes_after[name] else None
        else:
            ms = rounds[name]
            m = dict(ms[0])
            m["min_s"] = min(x["min_s"] for x in ms)
            m["max_s"] = max(x["max_s"] for x in ms)
            best = probe.best
        if not a.counts_only:
            # The median over the rounds run in a fast phase (the probe within
            # 25 % of its fastest value before and after, judged against the
            # fastest value of the whole run); all rounds if none was.
            vals = [x["median_s"] for x in rounds[name]]
            all_rounds[name] = median(vals)
            if best is not None:
                fast = fast_rounds(vals, probes[name], probes_after[name], best)
                slow_rounds[name] = len(vals) - len(fast)
                m["median_s"] = median(fast or vals)
            pred, err = predict(base + ".seg.json", m["function"], m["params"],
                                extra_for(name, seg, m["params"]), a.machine)
            # ICC with the branch probabilities and loop counts measured by CT
            # at the timed size (argv: the parameters the program reported).
            run([ct], env=dict(os.environ, SEGTIME_REPS="1", SEGTIME_CT_FILE=ct + "-big.ct.json"))
            pt, _ = predict(base + ".seg.json", m["function"], m["params"],
                            extra_for(name, seg, m["params"]), a.machine,
                            "icc", profile=ct + "-big.ct.json")
        kernel = m["function"]
        row = {"kernel": name, "function": kernel, "params": m["params"], "levels": {},
               "error": err}
        if not a.counts_only:
            row.update({"measured_median_s": m["median_s"], "measured_min_s": m["min_s"],
                        "measured_max_s": m["max_s"],
                        "round_medians_s": [x["median_s"] for x in rounds[name]],
                        "phase_probe_s_per_point": probes[name],
                        "phase_probe_after_s_per_point": probes_after.get(name, []),
                        "set_aside_round_medians_s": set_aside.get(name, []),
                        "slow_phase_rounds": slow_rounds.get(name, 0),
                        "measured_median_all_rounds_s": all_rounds.get(name, m["median_s"])})
            if pt:
                t = pt["levels"]["ICC"]["time_s"]
                row["icc_profiled"] = {"time_s": t, "error_pct": pct(t, m["median_s"])}
        if pred:
            for lvl, v in pred["levels"].items():
                row["levels"][lvl] = {"time_s": v["time_s"], "error_pct": pct(v["time_s"], m["median_s"])}
        if not a.no_callgrind and name in SMALL:
            add_callgrind(row, name, base, ct, seg, a.machine)
        rows.append(row)

    levels = ["ICC", "INTCC", "HLLC", "POC"]
    lines = table_lines(rows, levels)
    summary = summarise(rows, levels, a.counts_only)
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
