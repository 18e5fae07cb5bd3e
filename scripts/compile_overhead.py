#!/usr/bin/env python3
"""compile_overhead.py - the segtime plugin's compile-time overhead.

Compiles every example and validation kernel (-O2 -march=native -c) with plain
clang and with the plugin in three configurations, and prints the ratio of the
median wall-clock compile times to plain clang:

  ast      -fplugin-arg-segtime-no-ir        AST levels only (POC, HLLC)
  ir       the IR levels too (IntCC), no ICC target
  icc      all levels, one ICC target (the compile's own CPU: targets=compile)

Each compile runs --reps times (interleaved, so slow phases of the VM hit every
configuration alike); the ratio of medians is per file, and the summary gives the
median and the total-time ratio over all files.

Beside the time, the noise-free measure: the instructions the compiler process
(clang -cc1, which runs the plugin) executes, counted once per file by valgrind
--tool=callgrind (Ir) for plain clang and for the icc configuration (with
--callgrind-all also ast and ir), as a ratio to plain clang. It does not move
with the load of the machine; the time ratio does (instructions of the plugin's
code and of the compiler's do not take the same time each). Under callgrind a
compile takes 50-100 times as long: about a minute per file and configuration.
--no-callgrind leaves it out.

--phases splits the icc configuration's extra instructions by the plugin's
phases (the inclusive Ir of the plugin functions that run them, from
callgrind_annotate), each as a fraction of plain clang's instructions:
loading the plugin (dlopen: segtime.so, GiNaC, CLN, yaml-cpp), the AST SEG,
the IR SEG, the ICC side compile's code generation and its block costing
(llvm-mca, layout), merging the levels, writing the .seg.json, and the rest
(line tables in the front end and the pipeline, analyses). For the plugin's
own wall-clock phase times of one compile, see -fplugin-arg-segtime-timing.

USAGE: scripts/compile_overhead.py [--reps 5] [--no-callgrind | --callgrind-all]
                                   [--phases] [--only matmul,poly] [--json FILE]
"""
import argparse, glob, json, os, re, shlex, statistics, subprocess, sys, tempfile, time

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


# Phases of the plugin: (name, function whose inclusive Ir counts it). The
# AST SEG is the AST consumer's HandleTranslationUnit less merge and write; ICC
# code generation is machineLevelRuvs (the clone's) less the block costing that
# runs in it, plus the recording of the compile's own code generation (its
# blocks and loops, FunctionHooks::beginFunction); the costing of both is
# FunctionCosting::run.
PHASE_FUNCTIONS = {
    "load": "dlopen@@",
    "consumer": "SegConsumer::HandleTranslationUnit(",
    "ir_seg": "segtime::buildIRSeg(",
    "icc": "segtime::machineLevelRuvs(",
    "icc_record": "FunctionHooks::beginFunction(",
    "icc_costing": "FunctionCosting::run(",
    "merge": "mergeIR(",
    "json": "SegConsumer::writeFile(",
}
PHASES = (("load", "plugin load"), ("ast_seg", "AST SEG"), ("ir_seg", "IR SEG"),
          ("icc_codegen", "ICC codegen"), ("icc_costing", "ICC costing"),
          ("merge", "merge"), ("json", "JSON"), ("rest", "rest"))


def phase_instructions(cg_file, total, plain):
    """Instructions per plugin phase (PHASES) in callgrind output cg_file of a
    compile with the plugin that executed total instructions; plain: those of
    plain clang. The largest inclusive Ir of a function that is not a
    recursive cycle ('2) is its count; 0 if it did not run."""
    r = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", cg_file],
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("callgrind_annotate %s failed:\n%s" % (cg_file, r.stderr[-2000:]))
    ir = {k: 0 for k in PHASE_FUNCTIONS}
    for line in r.stdout.splitlines():
        m = re.match(r"\s*([\d,]+) \(", line)
        if not m or "'2" in line:
            continue
        for k, fn in PHASE_FUNCTIONS.items():
            if fn in line:
                ir[k] = max(ir[k], int(m.group(1).replace(",", "")))
    out = {"load": ir["load"], "ir_seg": ir["ir_seg"], "icc_costing": ir["icc_costing"],
           "icc_codegen": max(0, ir["icc"] - ir["icc_costing"]) + ir["icc_record"],
           "merge": ir["merge"], "json": ir["json"],
           "ast_seg": ir["consumer"] - ir["merge"] - ir["json"]}
    out["rest"] = total - plain - sum(out.values())
    return out


def cc1_instructions(src, extra, out, tmp, keep=None):
    """Instructions (callgrind Ir) of the clang -cc1 process compiling src;
    keep: a path to keep callgrind's output at."""
    r = subprocess.run([CLANG, "-###"] + FLAGS + extra + [src, "-o", out],
                       capture_output=True, text=True)
    jobs = [l for l in r.stderr.splitlines() if l.startswith(" ") and '"-cc1"' in l]
    if r.returncode != 0 or len(jobs) != 1:
        sys.exit("clang -### %s: expected one -cc1 job\n%s" % (src, r.stderr[-2000:]))
    cg = keep or os.path.join(tmp, "callgrind.out")
    v = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + cg]
                       + shlex.split(jobs[0]), capture_output=True, text=True)
    m = re.search(r"Collected\s*:\s*(\d+)", v.stderr)
    if v.returncode != 0 or not m:
        sys.exit("valgrind on clang -cc1 failed: %s\n%s" % (src, v.stderr[-2000:]))
    return int(m.group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--json")
    ap.add_argument("--no-callgrind", action="store_true",
                    help="leave out the instruction counts (callgrind)")
    ap.add_argument("--callgrind-all", action="store_true",
                    help="instruction counts of the ast and ir configurations too")
    ap.add_argument("--phases", action="store_true",
                    help="split the icc configuration's instructions by plugin phase")
    ap.add_argument("--only", default="", help="comma-separated file names (no .c)")
    a = ap.parse_args()
    if a.phases and a.no_callgrind:
        sys.exit("--phases needs callgrind (leave out --no-callgrind)")
    if not os.path.exists(PLUGIN):
        sys.exit("no %s: build first (scripts/setup.sh)" % PLUGIN)
    srcs = sorted(glob.glob(os.path.join(ROOT, "examples", "*.c")) +
                  glob.glob(os.path.join(ROOT, "validation", "*.c")))
    if a.only:
        srcs = [s for s in srcs if os.path.splitext(os.path.basename(s))[0] in a.only.split(",")]
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
            row = {"file": os.path.relpath(src, ROOT), "median_s": med,
                   "ratio": {c: med[c] / med["plain"] for c in CONFIGS if c != "plain"}}
            if not a.no_callgrind:
                counted = CONFIGS if a.callgrind_all else ("plain", "icc")
                keep = os.path.join(d, name + ".icc.callgrind")
                ir = {c: cc1_instructions(src, CONFIGS[c], os.path.join(d, name + "." + c + ".o"), d,
                                          keep if c == "icc" else None)
                      for c in counted}
                row["instructions"] = ir
                row["ir_ratio"] = {c: ir[c] / ir["plain"] for c in counted if c != "plain"}
                if a.phases:
                    row["phase_instructions"] = phase_instructions(keep, ir["icc"], ir["plain"])
            rows.append(row)
    cg = not a.no_callgrind
    print("| file | clang -O2 (ms) | AST only | + IR levels | + ICC (1 target) |"
          + (" clang -cc1 (M instr.) | AST only | + IR levels | + ICC |" if cg else ""))
    print("|---|---|---|---|---|" + ("---|---|---|---|" if cg else ""))
    for r in rows:
        line = "| %s | %.0f | %.2fx | %.2fx | %.2fx |" % (
            r["file"], 1e3 * r["median_s"]["plain"], r["ratio"]["ast"], r["ratio"]["ir"], r["ratio"]["icc"])
        if cg:
            line += " %.0f | %s |" % (r["instructions"]["plain"] / 1e6, " | ".join(
                "%.2fx" % r["ir_ratio"][c] if c in r["ir_ratio"] else "-" for c in ("ast", "ir", "icc")))
        print(line)
    summary = {}
    for c in ("ast", "ir", "icc"):
        summary[c] = {"median_ratio": statistics.median(r["ratio"][c] for r in rows),
                      "total_ratio": sum(r["median_s"][c] for r in rows) /
                                     sum(r["median_s"]["plain"] for r in rows)}
        if cg and c in rows[0]["ir_ratio"]:
            summary[c]["median_instr_ratio"] = statistics.median(r["ir_ratio"][c] for r in rows)
            summary[c]["total_instr_ratio"] = (sum(r["instructions"][c] for r in rows) /
                                               sum(r["instructions"]["plain"] for r in rows))
    print()
    for c, label in (("ast", "AST levels only"), ("ir", "with the IR levels"),
                     ("icc", "all levels, one ICC target")):
        line = "%s: time median ratio %.2fx, total %.2fx" % (
            label, summary[c]["median_ratio"], summary[c]["total_ratio"])
        if "median_instr_ratio" in summary[c]:
            line += "; instructions (callgrind) median %.2fx, total %.2fx" % (
                summary[c]["median_instr_ratio"], summary[c]["total_instr_ratio"])
        print(line + " over %d files" % len(rows))
    if a.phases:
        print()
        print("Extra instructions of the icc configuration by plugin phase, in % of plain clang's:")
        print("| file | " + " | ".join(l for _, l in PHASES) + " | total |")
        print("|---|" + "---|" * (len(PHASES) + 1))
        for r in rows:
            ph, plain = r["phase_instructions"], r["instructions"]["plain"]
            print("| %s | %s | %.0f%% |" % (r["file"], " | ".join(
                "%.1f%%" % (100.0 * ph[k] / plain) for k, _ in PHASES),
                100.0 * (r["instructions"]["icc"] - plain) / plain))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"rows": rows, "summary": summary, "reps": a.reps}, f, indent=1)


if __name__ == "__main__":
    main()
