#!/usr/bin/env python3
"""validate_mpi.py - MPI examples: predicted vs measured time with mpirun.

USAGE:
  scripts/validate_mpi.py --machine costvectors/local.yaml [--np 2,4] [--opt O2]
                          [--reps 7] [--rounds K] [--fit-comm OUT.yaml] [--nice N]
                          [--json out.json]

Compiles examples/mpi/{pingpong,matmul_bcast,farm}.c with the segtime plugin
(OMPI_CC=clang-19 mpicc -fplugin=build/lib/segtime.so), runs each with
`mpirun -np P` for every P of --np (P > 2 is oversubscribed on this 2-vCPU
machine: --oversubscribe and OMPI_MCA_mpi_yield_when_idle=1; reported
separately), reads the SEGTIME_MEASURED line of rank 0 (median of SEGTIME_REPS
timed calls, each started after an MPI_Barrier), and predicts the same call with
`segtime predict --np P` (every level the machine and SEG files have; the time
reported is the slowest rank's, docs/mpi.md).

--fit-comm OUT.yaml: first measures ping-pong times at 10 message sizes (np 2)
and fits a three-range Hockney model t(n) = (n + n_1/2)/r_inf (PARKBENCH-93
eq. 3.4; ranges < 4096 B (Open MPI's shared-memory eager protocol), <= 64 KiB,
larger) by least squares, writes the --machine file plus that `comm` section to OUT.yaml
(provenance: measured, ref naming this script), and validates with OUT.yaml.
This is a stand-in until `segtime comm calibrate` fills the comm section; the
fit uses sizes different from the validated ping-pong sizes.
"""
import argparse, json, os, shutil, statistics, subprocess, sys, time

from segtime_common import BUILD, PLUGIN, ROOT, SEGTIME, measured, median, pct

CLANG = "clang-19"
EXAMPLES = {
    # example: (function, [parameter sets: argv and the kernel parameters])
    "pingpong": ("pingpong", [["16", "2000"], ["1000", "500"], ["100000", "20"]]),
    "matmul_bcast": ("matmul_mpi", [["128"], ["256"], ["512"]]),
    "farm": ("farm", [["100", "100000"], ["400", "20000"]]),
}
FIT_SIZES = [1, 8, 64, 256, 384, 1024, 2048, 4096, 8192, 32768, 65536, 131072]  # doubles
# Ranges of the piecewise Hockney fit (PARKBENCH-93 §3.3.1: one fit per
# transmission mode), upper bounds in B: Open MPI 4.1's shared-memory eager
# limit (btl_vader_eager_limit) is 4096 B including its header, so 4096-byte
# messages already go by rendezvous; above 64 KiB (two of vader's 32 KiB
# send fragments) the measured byte rate changes again.
RANGES = [4095, 65536, float("inf")]


def mpi_env(np_):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_CC=CLANG)
    if np_ > (os.cpu_count() or 1):
        env["OMPI_MCA_mpi_yield_when_idle"] = "1"
    return env


NICE = 0  # --nice


def mpirun(exe, np_, args, reps, timeout):
    """Runs exe under mpirun; returns the SEGTIME_MEASURED record of rank 0."""
    cmd = (["nice", "-n", str(NICE)] if NICE else []) + ["mpirun", "-np", str(np_)]
    if np_ > (os.cpu_count() or 1):
        cmd += ["--oversubscribe", "--bind-to", "none"]
    cmd += [exe] + args
    env = dict(mpi_env(np_), SEGTIME_REPS=str(reps))
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        sys.exit("validate_mpi: timed out after %d s: %s" % (timeout, " ".join(cmd)))
    if r.returncode != 0:
        sys.exit("validate_mpi: failed: %s\n%s%s" % (" ".join(cmd), r.stdout[-2000:],
                                                    r.stderr[-2000:]))
    return measured(r.stdout)


def compile_example(name, opt, machine, work):
    src = os.path.join(ROOT, "examples", "mpi", name + ".c")
    base = os.path.join(work, "%s-%s" % (name, opt))
    env = mpi_env(1)
    # -march=native: the ICC target `compile` is then this machine's core (as in
    # scripts/validate.py), not generic x86-64.
    for cmd in (["mpicc", "-" + opt, "-march=native", "-fplugin=" + PLUGIN, "-fplugin-arg-segtime-quiet",
                 "-fplugin-arg-segtime-machine=" + machine,
                 "-fplugin-arg-segtime-targets=compile",
                 "-fplugin-arg-segtime-out=" + base + ".seg.json", "-c", src, "-o", base + ".o"],
                ["mpicc", base + ".o", "-o", base, "-lm"]):
        r = subprocess.run(cmd, capture_output=True, text=True, env=env)
        if r.returncode != 0:
            sys.exit("validate_mpi: failed: %s\n%s" % (" ".join(cmd), r.stderr[-3000:]))
    return base


def fit_line(xs, ys):
    """Least squares t = a + b n; returns (r_inf = 1/b, n_half = a/b)."""
    b, a = statistics.linear_regression(xs, ys)
    if b <= 0:
        sys.exit("validate_mpi: fitted byte time %g s/B is not positive" % b)
    return 1.0 / b, a / b


def yaml_entry(value, unit, ref, spread=None):
    s = "{value: %.6g, unit: \"%s\", provenance: measured" % (value, unit)
    if spread is not None:
        s += ", spread: %.3g" % spread
    return s + ", ref: \"%s\"}" % ref


def fit_comm(machine, out, opt, work, timeout):
    """Ping-pong at FIT_SIZES (np 2), piecewise Hockney fit, machine file OUT."""
    exe = compile_example("pingpong", opt, machine, work)
    pts = []
    for n in FIT_SIZES:
        reps = max(10, min(2000, 400000 // max(n, 1)))
        m = mpirun(exe, 2, [str(n), str(reps)], 9, timeout)
        # one message; the minimum of 9 calls (noise on this shared VM only
        # slows a call down, as in `segtime calibrate`)
        t = m["min_s"] / (2 * reps)
        spread = (m["max_s"] - m["min_s"]) / m["median_s"]
        pts.append((8 * n, t, spread))
        print("  ping-pong %8d B: t = %.3f us (spread %.0f%%)" % (8 * n, t * 1e6, 100 * spread),
              file=sys.stderr)
    ref = ("scripts/validate_mpi.py --fit-comm: examples/mpi/pingpong.c, mpirun -np 2, "
           "-%s, %s" % (opt, time.strftime("%Y-%m-%d")))
    lines = ["# comm: fitted by scripts/validate_mpi.py --fit-comm from the ping-pong example",
             "# (stand-in for `segtime comm calibrate`); PARKBENCH-93 eq. 3.4 per range.",
             "comm:", "  hockney:"]
    fits, lo = [], 0
    for k, hi in enumerate(RANGES):
        rng = [p for p in pts if lo < p[0] <= hi]
        lo = hi
        r_inf, n_half = fit_line([p[0] for p in rng], [p[1] for p in rng])
        spread = max(p[2] for p in rng)
        fits.append((r_inf, n_half))
        lines.append("    \"%d\":" % k)
        if hi != float("inf"):
            lines.append("      upto: " + yaml_entry(hi, "B", ref))
        lines.append("      r_inf: " + yaml_entry(r_inf, "B/s", ref, spread))
        lines.append("      n_half: " + yaml_entry(n_half, "B", ref, spread))
    text = open(machine).read()
    kept, skip = [], False
    for line in text.splitlines():
        if line and not line[0].isspace() and not line.startswith("#"):
            skip = line.startswith("comm:")
        if not skip:
            kept.append(line)
    with open(out, "w") as f:
        f.write("\n".join(kept).rstrip("\n") + "\n" + "\n".join(lines) + "\n")
    for k, (r, nh) in enumerate(fits):
        print("  range %d: r_inf = %.3g B/s, n_1/2 = %.0f B, t_0 = %.2f us"
              % (k, r, nh, 1e6 * nh / r), file=sys.stderr)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--machine", required=True, help="machine file with HLLC (and INTCC/ICC) "
                    "cost vectors and a comm section (or use --fit-comm)")
    ap.add_argument("--np", default="2,4", help="process counts (comma list)")
    ap.add_argument("--opt", default="O2")
    ap.add_argument("--reps", default="7", help="SEGTIME_REPS for the examples")
    ap.add_argument("--rounds", type=int, default=1,
                    help="measure every configuration this many times, in rounds over all "
                    "of them (median of the runs' medians, minimum of all calls)")
    ap.add_argument("--only", default="", help="comma list of examples")
    ap.add_argument("--fit-comm", default="", metavar="OUT.yaml",
                    help="fit the comm section from ping-pong first, write OUT.yaml")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per mpirun")
    ap.add_argument("--json", default="", help="write all results to this file")
    ap.add_argument("--nice", type=int, default=0,
                    help="run mpirun under `nice -n N` (N < 0, as root: shield the timed runs "
                    "from other jobs on a shared machine; default 0)")
    a = ap.parse_args()
    global NICE
    NICE = a.nice
    for tool in ("mpicc", "mpirun", CLANG):
        if not shutil.which(tool):
            sys.exit("validate_mpi: %s not found (scripts/setup.sh installs Open MPI)" % tool)
    work = os.path.join(BUILD, "examples", "mpi")
    os.makedirs(work, exist_ok=True)
    machine = os.path.abspath(a.machine)
    if a.fit_comm:
        print("== fitting the comm section from ping-pong (np 2)", file=sys.stderr)
        machine = fit_comm(machine, os.path.abspath(a.fit_comm), a.opt, work, a.timeout)
    names = [n for n in EXAMPLES if not a.only or n in a.only.split(",")]
    exes = {name: compile_example(name, a.opt, machine, work) for name in names}
    configs = [(name, np_, args) for name in names for np_ in [int(x) for x in a.np.split(",")]
               for args in EXAMPLES[name][1]]
    # Rounds over all configurations: the runs of one configuration are spread
    # over time, so that a burst of other jobs on this shared VM hits few.
    runs = {c: [] for c in range(len(configs))}
    for rnd in range(a.rounds):
        for c, (name, np_, args) in enumerate(configs):
            print("== round %d/%d: %s -np %d %s" % (rnd + 1, a.rounds, name, np_, " ".join(args)),
                  file=sys.stderr, flush=True)
            load = os.getloadavg()[0]  # other users of this shared VM
            m = mpirun(exes[name], np_, args, a.reps, a.timeout)
            m["load_avg"] = load
            runs[c].append(m)
    rows = []
    for c, (name, np_, args) in enumerate(configs):
        fn = EXAMPLES[name][0]
        ms = runs[c]
        med = median([m["median_s"] for m in ms])  # median over rounds of each run's median
        mn = min(m["min_s"] for m in ms)
        mx = max(m["max_s"] for m in ms)
        params = {k: v for k, v in ms[0]["params"].items() if k != "p"}
        cmd = [SEGTIME, "predict", exes[name] + ".seg.json", "--machine", machine,
               "--function", fn, "--np", str(np_), "--json"]
        for k, v in params.items():
            cmd += ["-p", "%s=%s" % (k, v)]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit("validate_mpi: %s\n%s%s" % (" ".join(cmd), r.stdout, r.stderr))
        pred = json.loads(r.stdout)
        f = pred["functions"][0]
        row = {"example": name, "function": fn, "np": np_, "opt": a.opt, "params": params,
               "measured_median_s": med, "measured_min_s": mn, "measured_max_s": mx,
               "reps": sum(m["reps"] for m in ms), "runs": ms,
               "comm_model": pred.get("comm_model", ""),
               "load_avg": median([m["load_avg"] for m in ms]), "levels": {}}
        for lvl, lp in f["levels"].items():
            row["levels"][lvl] = {"time_s": lp["time_s"], "comm_s": lp["comm_s"],
                                  "rank": lp.get("rank", -1),
                                  "error_pct": pct(lp["time_s"], med),
                                  "error_min_pct": pct(lp["time_s"], mn)}
        rows.append(row)

    levels = [l for l in ("HLLC", "INTCC", "ICC", "POC") if any(l in r["levels"] for r in rows)]
    print()
    print("Predicted vs measured, -%s, machine %s; measured: %d round(s) of %s calls of rank 0 "
          "(median of the rounds' medians, minimum of all), spread = (max-min)/median; load: "
          "median 1-min load average before the runs (2 vCPUs)%s"
          % (a.opt, os.path.basename(machine), a.rounds, a.reps,
             "; mpirun under nice -n %d" % NICE if NICE else ""))
    if rows:
        print("communication model: %s" % rows[0]["comm_model"])
    hdr = "%-12s %3s %-22s %5s %10s %10s %6s %10s" % ("example", "np", "params", "load",
                                                     "median", "min", "spread", "comm")
    for l in levels:
        hdr += " %10s %7s %7s" % (l, "err", "vs min")
    print(hdr)
    for r in rows:
        spread = 100.0 * (r["measured_max_s"] - r["measured_min_s"]) / r["measured_median_s"]
        ps = " ".join("%s=%g" % kv for kv in r["params"].items())
        comm = r["levels"].get("HLLC", next(iter(r["levels"].values())))["comm_s"]
        line = "%-12s %3d %-22s %5.1f %7.3f ms %7.3f ms %5.0f%% %7.3f ms" % (
            r["example"], r["np"], ps, r["load_avg"], 1e3 * r["measured_median_s"],
            1e3 * r["measured_min_s"], spread, 1e3 * comm)
        for l in levels:
            lp = r["levels"].get(l)
            line += (" %7.3f ms %+6.1f%% %+6.1f%%" % (1e3 * lp["time_s"], lp["error_pct"],
                                                     lp["error_min_pct"])) if lp else \
                " %10s %7s %7s" % ("-", "-", "-")
        print(line)
    for np_ in sorted({r["np"] for r in rows}):
        for l in levels:
            sel = [r["levels"][l] for r in rows if r["np"] == np_ and l in r["levels"]]
            if sel:
                errs = sorted(abs(x["error_pct"]) for x in sel)
                emin = sorted(abs(x["error_min_pct"]) for x in sel)
                print("  np %d %-5s |error| vs median: median %.1f%%, max %.1f%%; vs min: median "
                      "%.1f%%, max %.1f%% (%d runs)%s"
                      % (np_, l, median(errs), errs[-1], median(emin), emin[-1], len(sel),
                         " (oversubscribed)" if np_ > (os.cpu_count() or 1) else ""))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"machine": machine, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
