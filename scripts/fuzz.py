#!/usr/bin/env python3
"""fuzz.py - libFuzzer on segtime's three file readers.

USAGE:
  scripts/fuzz.py [--minutes 2] [--reader machine,seg,ct] [--build build-fuzz]
                  [--timeout 10] [--no-build]

Configures and builds the fuzz build (-DSEGTIME_FUZZ=ON, clang-19 with
-fsanitize=fuzzer,address,undefined; cmake/Sanitizers.cmake) in its own
directory, then runs each harness (test/fuzz/Fuzz*.cpp) for --minutes, one
at a time, single process:
  machine  machine files (YAML), readMachine     seeds: costvectors/*.yaml,
                                                 test/Inputs/*.yaml, test/unit/Inputs/*.yaml
  seg      .seg.json, schema 1, 2 and 3          seeds: test/Inputs/*.seg.json
  ct       .ct.json profiles                     seeds: test/Inputs/*.ct.json
The corpus grows in BUILD/corpus/READER across runs (the seeds are copied in
first); a finding (crash, uncaught exception, sanitizer report, an input
that takes more than --timeout seconds, or more than 2 GB) is written to
BUILD/findings/READER/ and stops that reader's run. Reproduce one with
  BUILD/bin/fuzz-READER BUILD/findings/READER/crash-...
Prints one line per reader: minutes run, executions, corpus size (files),
findings (files in BUILD/findings/READER). Exits 1 if a run found something.
Needs libclang-rt-19-dev (libFuzzer and the sanitizer runtimes of clang-19).
"""
import argparse, glob, os, re, shutil, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEEDS = {
    "machine": ["costvectors/*.yaml", "test/Inputs/*.yaml", "test/unit/Inputs/*.yaml"],
    "seg": ["test/Inputs/*.seg.json"],
    "ct": ["test/Inputs/*.ct.json"],
}


def build(bdir):
    launcher = []
    if shutil.which("ccache"):
        launcher = ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache", "-DCMAKE_C_COMPILER_LAUNCHER=ccache"]
    subprocess.run(["cmake", "-S", ROOT, "-B", bdir, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                    "-DCMAKE_C_COMPILER=clang-19", "-DCMAKE_CXX_COMPILER=clang++-19",
                    "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -g1 -DNDEBUG", "-DSEGTIME_FUZZ=ON"] + launcher,
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", bdir, "-j2", "--target"] +
                   ["fuzz-" + r for r in SEEDS], check=True)


def run_reader(bdir, reader, minutes, timeout):
    corpus = os.path.join(bdir, "corpus", reader)
    findings = os.path.join(bdir, "findings", reader)
    os.makedirs(corpus, exist_ok=True)
    os.makedirs(findings, exist_ok=True)
    for pattern in SEEDS[reader]:
        for f in glob.glob(os.path.join(ROOT, pattern)):
            shutil.copy(f, os.path.join(corpus, "seed-" + os.path.basename(f)))
    before = set(os.listdir(findings))
    log = os.path.join(bdir, "fuzz-%s.log" % reader)
    cmd = [os.path.join(bdir, "bin", "fuzz-" + reader), corpus,
           "-max_total_time=%d" % int(minutes * 60), "-timeout=%d" % timeout,
           "-rss_limit_mb=2048", "-max_len=16384", "-print_final_stats=1",
           "-artifact_prefix=" + findings + "/"]
    t0 = time.time()
    with open(log, "w") as out:
        rc = subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT).returncode
    elapsed = (time.time() - t0) / 60
    text = open(log, errors="replace").read()
    runs = re.findall(r"stat::number_of_executed_units:\s*(\d+)", text)
    if not runs:
        runs = re.findall(r"^#(\d+)\s", text, re.M)
    new = sorted(set(os.listdir(findings)) - before)
    return {"reader": reader, "minutes": elapsed, "execs": int(runs[-1]) if runs else 0,
            "corpus": len(os.listdir(corpus)), "new": new, "findings": len(os.listdir(findings)),
            "rc": rc, "log": log}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--minutes", type=float, default=2, help="per reader")
    ap.add_argument("--reader", default="machine,seg,ct")
    ap.add_argument("--build", default=os.path.join(ROOT, "build-fuzz"))
    ap.add_argument("--timeout", type=int, default=10, help="seconds for one input")
    ap.add_argument("--no-build", action="store_true")
    a = ap.parse_args()
    readers = a.reader.split(",")
    for r in readers:
        if r not in SEEDS:
            sys.exit("fuzz.py: unknown reader '%s' (expected %s)" % (r, ", ".join(SEEDS)))
    bdir = os.path.abspath(a.build)
    if not a.no_build:
        build(bdir)
    rows = [run_reader(bdir, r, a.minutes, a.timeout) for r in readers]
    print("%-8s %8s %12s %8s %9s" % ("reader", "minutes", "executions", "corpus", "findings"))
    for r in rows:
        print("%-8s %8.1f %12d %8d %9d" % (r["reader"], r["minutes"], r["execs"], r["corpus"],
                                           r["findings"]))
        for f in r["new"]:
            print("  new finding: %s (log %s)" % (os.path.join(bdir, "findings", r["reader"], f),
                                                 r["log"]))
    return 1 if any(r["new"] or r["rc"] not in (0,) for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
