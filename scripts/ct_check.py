#!/usr/bin/env python3
"""ct_check.py - validates component timing (CT) on the examples.

USAGE:
  scripts/ct_check.py [--opt O0,O2] [--only matmul,lu] [--reps 5] [--runs 3] [--json out.json]
                      [--instructions]

For every example in examples/*.c and optimisation level: build it plainly and
with -fplugin-arg-segtime-instrument (linked with build/lib/libsegtime-rt.a),
run both, and check
  output   the instrumented program prints the same lines as the plain one
           (the SEGTIME_MEASURED timing line only compared for its parameters);
  loops    the loop iterations CT counted in the kernel function, per call,
           equal the SEG's count of loop tests (HLLC 'loop', from segtime
           predict with the example's parameters);
  time     the sum of the exclusive times of the kernel function and its
           nodes per kernel call (CT) in percent against
             (a) the instrumented run's own SEGTIME_MEASURED median (does CT
                 account for the whole kernel?), median over runs; "raw"
                 is the same for the kernel's uncorrected ticks (the timer
                 overhead not subtracted): (a) - raw is the overhead share;
             (b) the plain program's kernel time, the perturbation included,
                 three estimates:
                 med    the medians over runs of both;
                 pair   the median over runs of the ratio of each
                        instrumented run to the plain run just before it (a
                        slow drift of the machine's speed cancels);
                 min    the fastest kernel call of each program over all
                        reps of all runs (the least disturbed call), the
                        instrumented one times CT's correction (sum excl /
                        uncorrected ticks of the kernel, same run; median
                        over runs). Immune to runs slowed down by other
                        jobs, not to single calls that get a fast phase in
                        one program only.
           Both programs are run --runs times, interleaved (plain,
           instrumented, plain, ...); spread = max/min - 1 of the plain
           program's run medians shows how disturbed the machine was.
  instr    with --instructions: the instructions executed while the kernel
           is on the stack, per kernel call, of the instrumented program
           against the plain one (valgrind callgrind, SEGTIME_REPS=1): a
           deterministic measure of how much work the instrumentation adds.
Exit status 1 if an output or loop check fails; times are reported, not
asserted (noise on this machine).
"""
import argparse, json, os, sys, tempfile

from segtime_common import (BUILD, CLANG, PLUGIN, ROOT, SEGTIME, ct_reachable, example_names,
                            extra_params, load_seg, measured, median, pct, run)

RT = os.path.join(BUILD, "lib", "libsegtime-rt.a")


def program_lines(out):
    """The output lines with the SEGTIME_MEASURED line reduced to its parameters."""
    lines = []
    for l in out.splitlines():
        if l.startswith("SEGTIME_MEASURED "):
            m = json.loads(l.split(" ", 1)[1])
            l = "SEGTIME_MEASURED %s %s" % (m["function"], json.dumps(m["params"], sort_keys=True))
        lines.append(l)
    return lines


def kernel_instructions(binary, kernel, env):
    """Instructions executed while kernel is on the stack (callgrind)."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "cg.out")
        run(["valgrind", "--tool=callgrind", "--toggle-collect=" + kernel,
             "--callgrind-out-file=" + out, binary], env=env)
        with open(out) as f:
            for line in f:
                if line.startswith("summary:"):
                    return int(line.split()[1])
    sys.exit("ct_check.py: no callgrind summary for %s" % binary)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--opt", default="O0,O2")
    ap.add_argument("--only", default="")
    ap.add_argument("--reps", default="5")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", default="")
    ap.add_argument("--instructions", action="store_true",
                    help="also count the kernel's instructions under callgrind")
    a = ap.parse_args()
    names = example_names(a.only)
    work = os.path.join(BUILD, "ct-check")
    os.makedirs(work, exist_ok=True)
    rows, bad = [], 0
    print("%-10s %-3s %-6s %14s %14s %6s %11s %11s %7s %7s %7s %7s %7s %7s" % (
        "example", "opt", "output", "CT iterations", "SEG loop tests", "loops", "plain med",
        "sum excl", "(a) %", "raw %", "(b)med%", "(b)pair", "(b)min%", "spread%"))
    for opt in a.opt.split(","):
        for name in names:
            src = os.path.join(ROOT, "examples", name + ".c")
            base = os.path.join(work, "%s-%s" % (name, opt))
            run([CLANG, "-" + opt, src, "-o", base + "-plain", "-lm"])
            run([CLANG, "-" + opt, "-fplugin=" + PLUGIN, "-fplugin-arg-segtime-quiet",
                 "-fplugin-arg-segtime-instrument", "-fplugin-arg-segtime-out=" + base + ".seg.json",
                 src, RT, "-o", base + "-ct", "-lm"])
            env = dict(os.environ, SEGTIME_REPS=a.reps)
            ienv = dict(env, SEGTIME_CT_FILE=base + ".ct.json")
            meds, inst_meds, incls, excls, own, raw, same = [], [], [], [], [], [], True
            pairs, corr, plain_mins, inst_mins = [], [], [], []
            for r in range(a.runs):
                plain = run([base + "-plain"], env=env).stdout
                inst = run([base + "-ct"], env=ienv).stdout
                same = same and program_lines(plain) == program_lines(inst)
                m, mi = measured(plain), measured(inst)
                meds.append(m["median_s"])
                plain_mins.append(m["min_s"])
                inst_meds.append(mi["median_s"])
                inst_mins.append(mi["min_s"])
                kernel = m["function"]
                with open(base + ".ct.json") as f:
                    ct = json.load(f)
                fn = next(f for f in ct["functions"] if f["name"] == kernel)
                # Per call of the harness (reps timed calls + 1 warm-up): a
                # program may also call the kernel itself at other sizes
                # (integrate's convergence driver); CT's total includes those.
                calls = int(a.reps) + 1 if fn["calls"] > int(a.reps) + 1 else fn["calls"]
                incls.append(fn["inclusive_s"] / calls)
                excls.append((fn["exclusive_s"] + sum(n.get("exclusive_s", 0)
                                                      for n in fn["nodes"])) / calls)
                own.append(pct(excls[-1], inst_meds[-1]))
                raw.append(pct(fn["raw_inclusive_s"] / calls, inst_meds[-1]))
                pairs.append(pct(excls[-1], meds[-1]))
                corr.append(excls[-1] * calls / fn["raw_inclusive_s"])
            # Loop iterations of the kernel and of every function it calls
            # (transitively): the SEG's loop count includes its callees'.
            reach, byname = ct_reachable(ct, kernel)
            iters = sum(n["iterations"] for f in reach for n in byname[f]["nodes"]
                        if n["kind"] == "loop") / calls
            seg = load_seg(base + ".seg.json")
            cmd = [SEGTIME, "predict", base + ".seg.json", "--machine", "t800", "--level", "hllc",
                   "--function", kernel, "--json"]
            for k, v in m["params"].items():
                cmd += ["-p", "%s=%s" % (k, v)]
            cmd += extra_params(name, seg)
            pred = json.loads(run(cmd, check=False).stdout or "{}")
            fp = (pred.get("functions") or [{}])[0]
            tests = fp.get("levels", {}).get("HLLC", {}).get("counts", {}).get("loop")
            # exact, up to calls the program makes itself at other sizes (a
            # 1e-3 allowance: integrate's convergence driver adds 0.05 %)
            loops_ok = tests is not None and abs(tests - iters) <= max(0.5, 1e-3 * tests)
            incl, excl, plain_med = median(incls), median(excls), median(meds)
            row = {"example": name, "opt": opt, "kernel": kernel, "output_same": same,
                   "ct_iterations_per_call": iters, "seg_loop_tests_per_call": tests,
                   "plain_median_s": plain_med, "plain_run_medians_s": meds,
                   "ct_inclusive_s": incl, "ct_sum_exclusive_s": excl,
                   "ct_sum_exclusive_runs_s": excls, "instrumented_median_s": median(inst_meds),
                   "incl_err_pct": pct(incl, plain_med), "excl_err_pct": pct(excl, plain_med),
                   "own_err_pct": median(own), "raw_err_pct": median(raw), "pair_err_pct": median(pairs),
                   "min_err_pct": pct(min(inst_mins) * median(corr), min(plain_mins)),
                   "plain_min_s": min(plain_mins), "instrumented_min_s": min(inst_mins),
                   "ct_correction": median(corr),
                   "plain_spread_pct": pct(max(meds), min(meds))}
            if a.instructions:
                cenv = dict(os.environ, SEGTIME_REPS="1", SEGTIME_CT_FILE=base + "-cg.ct.json")
                ip = kernel_instructions(base + "-plain", kernel, cenv)
                ii = kernel_instructions(base + "-ct", kernel, cenv)
                with open(base + "-cg.ct.json") as f:
                    ccalls = next(f for f in json.load(f)["functions"] if f["name"] == kernel)["calls"]
                row.update({"plain_instructions_per_call": ip / ccalls,
                            "ct_instructions_per_call": ii / ccalls,
                            "instructions_added_pct": pct(ii, ip)})
                print("%-10s %-3s instructions per kernel call: plain %.4g, instrumented %.4g (%+.1f %%)"
                      % (name, opt, ip / ccalls, ii / ccalls, pct(ii, ip)), flush=True)
            rows.append(row)
            bad += (not same) + (tests is not None and not loops_ok)
            print("%-10s %-3s %-6s %14.0f %14s %6s %9.2fms %9.2fms %+7.1f %+7.1f %+7.1f %+7.1f %+7.1f %7.1f" % (
                name, opt, "same" if same else "DIFF", iters,
                "n/a" if tests is None else "%.0f" % tests,
                "n/a" if tests is None else ("ok" if loops_ok else "WRONG"),
                plain_med * 1e3, excl * 1e3, row["own_err_pct"], row["raw_err_pct"], row["excl_err_pct"],
                row["pair_err_pct"], row["min_err_pct"], row["plain_spread_pct"]), flush=True)
    print()
    for key, what in (("own_err_pct", "(a) vs the instrumented run"),
                      ("excl_err_pct", "(b) vs plain, medians"),
                      ("pair_err_pct", "(b) vs plain, paired runs"),
                      ("min_err_pct", "(b) vs plain, minima")):
        errs = [abs(r[key]) for r in rows]
        print("sum of exclusive %-28s median |error| %5.1f%%, max %5.1f%%, within 10%%: %d of %d"
              % (what + ":", median(errs), max(errs), sum(e <= 10 for e in errs), len(errs)))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
