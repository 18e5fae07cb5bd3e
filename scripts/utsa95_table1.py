#!/usr/bin/env python3
"""utsa95_table1.py - UTSA-95 Table 1 and the physical scaling of §5.1 from
segtime's predictions on the SPARC machine files (costvectors/sparc*.yaml).

  scripts/utsa95_table1.py [--json FILE] [--no-scaling]

1. Compiles the five applications of UTSA-95 §4.2 (examples/utsa95/ep.c,
   edge.c, cholesky.c, examples/matmul.c, examples/mergesort.c) with the
   plugin and the ICC target supersparc (the one the three SPARC files have an
   ICC cost vector for), predicts each kernel on sparc5-70, sparc10-30 and
   sparcclassic at POC, HLLC, INTCC and ICC (`segtime predict --machine A
   --machine B --machine C --level all --json`) at a data size under 16 MB,
   and prints the power weights W_i = T(SPARC 5) / T(M_i) (UTSA-95 eq. 2)
   beside Table 1.
2. The physical scaling of §5.1 (two SPARC 5, then five SPARCclassic added one
   by one, three SPARC 10, two more SPARC 5; 2 to 12 workstations) at the
   sizes of §5.1: `segtime hetero --seg ... --function ... --machines ...
   --comm T` per configuration; prints W, H, P_deg, speedup and efficiency.
   The communication time is an estimate (the paper gives the network, not
   the programs' messages): the messages of a master/worker PVM program
   (comment of COMM below) sent one after another over the shared Ethernet,
   each costing t0 + bytes / r_inf with the Hockney numbers of the machine
   files' comm section (UTSA-95 §4.1: 2 ms, 1000 KB/s); every workstation
   waits for all of them (shared medium), so comm_j is the same for all j.
"""
import argparse, json, math, os, sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from segtime_common import BUILD, CLANG, PLUGIN, ROOT, SEGTIME, extra_params, load_seg, run

MACHINES = ["sparc5-70", "sparc10-30", "sparcclassic"]
LEVELS = ["POC", "HLLC", "INTCC", "ICC"]
# UTSA-95 Table 1: W of SPARC 10 and SPARCclassic relative to the SPARC 5.
TABLE1 = {"EP": (0.91, 0.39), "EF": (0.96, 0.55), "MM": (0.83, 0.48),
          "Cholesky": (0.91, 0.48), "MS": (0.82, 0.63)}
PI4 = math.pi / 4
# name: source, kernel, size parameter, Table 1 size (data < 16 MB), §5.1 size,
# data bytes at a size, fixed -p values (branch probabilities from the
# algorithm, not fitted).
APPS = {
    # EP: 2^21 pairs (§5.1); t <= 1 with probability pi/4; max(|X|,|Y|) < 9
    # always in practice; |X| > |Y| half the time.
    "EP": ("examples/utsa95/ep.c", "ep", "m", 2 ** 21, 2 ** 21, lambda m: 80,
           {"P_ep_35": PI4, "P_ep_35_2": PI4, "P_ep_38": 0.5, "P_ep_39": 1.0}),
    # EF: float image and result, 8 n^2 B: n = 1400 (15.7 MB); §5.1 n = 1500.
    "EF": ("examples/utsa95/edge.c", "edge", "n", 1400, 1500, lambda n: 8 * n * n, {}),
    # MM: three double matrices, 24 n^2 B: n = 700 (11.8 MB); §5.1 n = 1000.
    "MM": ("examples/matmul.c", "matmul", "n", 700, 1000, lambda n: 24 * n * n, {}),
    # Cholesky: one double matrix, 8 n^2 B: n = 1000 (8 MB), as §5.1.
    "Cholesky": ("examples/utsa95/cholesky.c", "cholesky", "n", 1000, 1000,
                 lambda n: 8 * n * n, {}),
    # MS: two float arrays, 8 n B; n = 2^19 (5.2 * 10^5, §5.1: 5 * 10^5; msort
    # sorts powers of two).
    "MS": ("examples/mergesort.c", "msort", "n", 2 ** 19, 2 ** 19, lambda n: 8 * n, {}),
}


def comm_time(app, n, m, t0, rinf):
    """Estimated communication time (s) of app at size n on m workstations
    (workstation 1 is the master and computes too): the messages, sent one
    after another over the shared Ethernet, each t0 + bytes / r_inf.
      EP: one start and one result message (80 B) per worker.
      MM: B (8 n^2 B) to every worker, rows of A out and of C back
          (8 n^2 B each, the workers' share).
      Cholesky (column-cyclic): step j broadcasts column j (8 (n - j) B) to
          the m - 1 others.
      EF: rows of the image out and of the result back (4 n^2 B each, the
          workers' share; plus two halo rows per worker).
      MS: chunks out and sorted chunks back (4 n B each, the workers' share);
          the master's final m-way merge is not counted."""
    w = m - 1
    if w == 0:
        return 0.0
    share = w / m
    if app == "EP":
        msgs, nbytes = 2 * w, 2 * w * 80
    elif app == "MM":
        msgs, nbytes = 3 * w, w * 8 * n * n + 2 * share * 8 * n * n
    elif app == "Cholesky":
        msgs, nbytes = n * w, w * 8 * n * (n + 1) / 2
    elif app == "EF":
        msgs, nbytes = 2 * w, 2 * share * 4 * n * n + w * 2 * 4 * n
    else:
        msgs, nbytes = 2 * w, 2 * share * 4 * n
    return msgs * t0 + nbytes / rinf


def values_args(app, seg_path, n):
    src, fn, pname, _, _, _, fixed = APPS[app]
    args = ["-p", "%s=%d" % (pname, n)]
    for k, v in fixed.items():
        args += ["-p", "%s=%.17g" % (k, v)]
    if fn == "msort":
        args += extra_params("mergesort", load_seg(seg_path))
    return args


def compile_app(app, work):
    src = APPS[app][0]
    seg = os.path.join(work, app + ".seg.json")
    run([CLANG, "-O2", "-fplugin=" + PLUGIN, "-fplugin-arg-segtime-quiet",
         "-fplugin-arg-segtime-targets=compile,supersparc", "-fplugin-arg-segtime-out=" + seg,
         "-I" + os.path.join(ROOT, "examples"), "-c", os.path.join(ROOT, src),
         "-o", os.path.join(work, app + ".o")])
    return seg


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", help="also write the results as JSON to this file")
    ap.add_argument("--no-scaling", action="store_true", help="Table 1 only")
    a = ap.parse_args()
    work = os.path.join(BUILD, "utsa95")
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(ROOT, "costvectors", "sparc5-70.yaml")) as f:
        hock = yaml.safe_load(f)["comm"]["hockney"]["0"]
    t0, rinf = hock["t0"]["value"], hock["r_inf"]["value"]

    out = {"table1": {}, "scaling": {}}
    segs = {app: compile_app(app, work) for app in APPS}
    print("UTSA-95 Table 1 from predictions: W = T(sparc5-70) / T(M) (eq. 2); paper in [ ]")
    print("%-9s %-20s %-6s %-22s %-22s" % ("app", "size", "level", "W SPARC 10 (diff)",
                                          "W SPARCclassic (diff)"))
    for app, (src, fn, pname, n, _, nbytes, _) in APPS.items():
        cmd = [SEGTIME, "predict", segs[app], "--function", fn, "--level", "all", "--json"]
        for mname in MACHINES:
            cmd += ["--machine", mname]
        r = json.loads(run(cmd + values_args(app, segs[app], n)).stdout)
        times = {m["machine"]: m["functions"][0]["levels"] for m in r["machines"]}
        row = {"size": {pname: n}, "data_MB": nbytes(n) / 1e6, "paper": TABLE1[app], "levels": {}}
        for lv in LEVELS:
            t = [times[mn][lv]["time_s"] for mn in MACHINES]
            w = [t[0] / t[1], t[0] / t[2]]
            row["levels"][lv] = {"times_s": dict(zip(MACHINES, t)), "W_sparc10": w[0],
                                 "W_sparcclassic": w[1]}
            print("%-9s %-20s %-6s %-22s %-22s" % (
                app, "%s=%d (%.1f MB)" % (pname, n, nbytes(n) / 1e6) if lv == "POC" else "", lv,
                "%.2f [%.2f] (%+.2f)" % (w[0], TABLE1[app][0], w[0] - TABLE1[app][0]),
                "%.2f [%.2f] (%+.2f)" % (w[1], TABLE1[app][1], w[1] - TABLE1[app][1])))
        out["table1"][app] = row

    if not a.no_scaling:
        order = ["sparc5-70"] * 2 + ["sparcclassic"] * 5 + ["sparc10-30"] * 3 + ["sparc5-70"] * 2
        print("\nUTSA-95 §5.1 physical scaling, predicted (ICC), dedicated; communication "
              "estimated (t0 = %g s, r_inf = %g B/s, messages one after another)" % (t0, rinf))
        for app, (src, fn, pname, _, n, _, _) in APPS.items():
            print("\n%s (%s=%d): m, sum W, H, P_deg, comm, speedup, efficiency" % (app, pname, n))
            rows = []
            vals = values_args(app, segs[app], n)
            for m in range(2, 13):
                counts = {}
                for mn in order[:m]:
                    counts[mn] = counts.get(mn, 0) + 1
                machines = ",".join("%s:%d" % kv for kv in counts.items())
                c = comm_time(app, n, m, t0, rinf)
                r = json.loads(run([SEGTIME, "hetero", "--seg", segs[app], "--function", fn,
                                    "--machines", machines, "--comm", "%.17g" % c, "--json"]
                                   + vals).stdout)
                row = {"workstations": m, "machines": machines, "comm_s": c,
                       "total_power": r["total_power"], "heterogeneity": r["heterogeneity"],
                       "parallelism_degree": r["parallelism_degree"], "speedup": r["speedup"],
                       "efficiency": r["efficiency"],
                       "single_time_s": min(r["single_times_s"])}
                rows.append(row)
                print("  %2d  %5.2f  %.3f  %5.2f  %8.2f s  %5.2f  %.2f" % (
                    m, row["total_power"], row["heterogeneity"], row["parallelism_degree"], c,
                    row["speedup"], row["efficiency"]))
            best = max(rows, key=lambda x: x["speedup"])
            print("  fastest single machine %.1f s; maximal speedup %.2f on %d workstations"
                  % (rows[0]["single_time_s"], best["speedup"], best["workstations"]))
            out["scaling"][app] = rows
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
