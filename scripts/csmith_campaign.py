#!/usr/bin/env python3
"""csmith_campaign.py - random C programs through the segtime plugin and predict.

USAGE:
  scripts/csmith_campaign.py [--seeds 1-1000] [--o0-seeds 1-200] [-j 1]
                             [--targets compile,leon3,supersparc]
                             [--machine t800 --machine sparc10-30@supersparc ...]
                             [--timeout 120] [--mem-cap-gb 8] [--predict-timeout 60]
                             [--build build] [--work DIR] [--fresh] [--json FILE]

For every csmith program (`csmith --seed S`, at -O2 for --seeds and at -O0
for --o0-seeds; no -g), it
  - compiles it with plain clang and with the plugin (all levels, ICC for
    --targets), each under a time-out and an address-space cap;
  - compares `objdump -d` of the two objects (the plugin must not change the
    code);
  - runs `segtime predict FILE.seg.json --level all --json` with each
    --machine (NAME or PATH, @TARGET for the ICC target), and again with
    every value predict reports missing given as --value on --values-machine
    (default the last machine: ICC of the compile's own x86-64 code), and
    checks the JSON for nonsense: a negative, NaN or infinite number, or nan/inf in a
    formula.
Each program lands in the classes it shows (seeds recorded):
  crash            clang or predict killed by a signal, or clang's crash report
  timeout          a compile or a predict did not finish in its time
  out of memory    a compile ran out of its address space
  compile error    the plugin's compile failed where plain clang's did not
  plugin diagnostic  stderr lines of the plugin's compile that plain clang's lacks
  code difference  `objdump -d` differs
  predict error    predict exited 2 (input error or a function failed), or
                   with another status than 0, 1 (some function incomplete), 2
  bad JSON         predict's --json output does not parse
  nonsense         a negative, NaN or infinite value in predict's output
Exit status 1 if any program is in a class other than "plugin diagnostic",
else 0. The table goes to stdout, progress to stderr, every program's result
to --json. Results are cached per program (WORK/cache), keyed by the source,
the flags, the limits and the bytes of clang, the plugin, segtime and the
machine files: a stopped run starts again where it was. Compile-time figures
are not reported (overhead_bench.py does that on a quiet machine).
"""
import argparse, glob, json, math, os, re, shutil, subprocess, sys
from concurrent.futures import ProcessPoolExecutor, as_completed

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from segtime_common import (CLANG, ROOT, cached, csmith_include, csmith_program,  # noqa: E402
                            file_sha, log, objdump_compare, run_limited, sha)

DEFAULT_MACHINES = ["t800", "sparc10-30@supersparc",
                    os.path.join(ROOT, "test", "Inputs", "icc-machine.yaml")]
CLASSES = ["crash", "timeout", "out of memory", "compile error", "plugin diagnostic",
           "code difference", "predict error", "bad JSON", "nonsense"]
NOT_FAILING = {"plugin diagnostic"}
CRASH_MARKS = ("PLEASE submit a bug report", "Stack dump:", "LLVM ERROR", "fatal error: error in backend")
BAD_WORD = re.compile(r"(?<![\w.])(nan|inf|infinity)(?![\w])", re.I)


def seed_range(text):
    """'1-1000' or '5' or '' -> list of seeds."""
    if not text:
        return []
    out = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out += range(int(lo), int(hi or lo) + 1)
    return out


def nonsense(value, path="$"):
    """Where value (predict's JSON) holds a negative, NaN or infinite number or
    a formula with nan/inf: a list of 'path: value'. (bound_parameters are the
    program's own argument values, which may be negative: only NaN and inf
    there are nonsense.)"""
    out = []
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "bound_parameters":
                out += [x for x in nonsense(v, path + "." + k)
                        if "nan" in x.lower() or "inf" in x.lower()]
            elif k != "exit_status":
                out += nonsense(v, path + "." + k)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += nonsense(v, "%s[%d]" % (path, i))
    elif isinstance(value, bool):
        pass
    elif isinstance(value, (int, float)):
        if math.isnan(value) or math.isinf(value) or value < 0:
            out.append("%s: %r" % (path, value))
    elif isinstance(value, str) and (path.endswith(".formula") or path.endswith(".expr")
                                     or path.endswith(".structural")):
        m = BAD_WORD.search(value)
        if m:
            out.append("%s: ...%s..." % (path, value[max(0, m.start() - 40):m.end() + 40]))
    return out


def missing_names(doc):
    """The names predict reports missing, sorted."""
    names = set()
    for f in doc.get("functions", []) + doc.get("incomplete", []):
        names.update(m["name"] for m in f.get("missing", []))
    return sorted(names)


def clang_crashed(r):
    return (r["rc"] is not None and r["rc"] < 0) or any(m in r["stderr"] for m in CRASH_MARKS)


def predict_one(seg, machine, a, values=()):
    """One predict run: (record, parsed JSON or None)."""
    name, _, target = machine.partition("@")
    cmd = [a.segtime, "predict", seg, "--machine", name, "--level", "all", "--json"]
    cmd += ["--target", target] if target else []
    for v in values:
        cmd += ["-p", "%s=%g" % (v, a.value)]
    r = run_limited(cmd, a.predict_timeout)
    rec = {"machine": machine, "values": len(values), "rc": r["rc"], "wall_s": round(r["wall_s"], 3)}
    if r["rc"] is None:
        rec["class"] = "timeout"
    elif r["rc"] < 0:
        rec["class"] = "crash"
        rec["error"] = "signal %d: %s" % (-r["rc"], r["stderr"][-300:])
    elif r["rc"] not in (0, 1):
        rec["class"] = "predict error"
        rec["error"] = "exit %d: %s" % (r["rc"], r["stderr"][-300:])
    if r["rc"] is None or r["rc"] < 0:
        return rec, None
    try:
        doc = json.loads(r["stdout"])
    except ValueError as e:
        rec.setdefault("class", "bad JSON")
        rec.setdefault("error", "%s: %s" % (e, r["stdout"][:200]))
        return rec, None
    bad = nonsense(doc)
    if bad:
        rec["class"] = "nonsense"
        rec["error"] = "; ".join(bad[:5]) + (" (%d in all)" % len(bad) if len(bad) > 5 else "")
    rec["predicted"] = sum(1 for f in doc.get("functions", []) if f.get("status") == "predicted")
    rec["incomplete"] = len(doc.get("incomplete", []))
    return rec, doc


def program(seed, opt, a, ids):
    """One csmith program at -OPT: its result (classes and details)."""
    src = csmith_program(seed, a.work)
    flags = ["-" + opt, "-w", "-I" + csmith_include()]
    key = sha(file_sha(src), flags, ids, a.targets, a.machines, a.values_machines, a.timeout, a.mem_cap_gb,
              a.predict_timeout, a.value)
    cache = os.path.join(a.work, "cache", "seed%d-%s.json" % (seed, opt))

    def compute():
        # per process: two runs over one --work may meet on a program
        d = os.path.join(a.work, "tmp", "seed%d-%s.%d" % (seed, opt, os.getpid()))
        os.makedirs(d, exist_ok=True)
        plain_o, plugin_o, seg = (os.path.join(d, n) for n in ("plain.o", "plugin.o", "p.seg.json"))
        cap = int(a.mem_cap_gb * 2**30)
        res = {"seed": seed, "opt": opt, "classes": {}, "predict": []}

        def record(cls, detail):
            res["classes"].setdefault(cls, []).append(detail)

        p = run_limited([CLANG] + flags + ["-c", src, "-o", plain_o], a.timeout, cap)
        if p["status"] != "ok":
            res["plain"] = p["status"] + ": " + p["stderr"][-300:]
            return res
        q = run_limited([CLANG] + flags + ["-fplugin=" + a.plugin, "-fplugin-arg-segtime-quiet",
                                           "-fplugin-arg-segtime-targets=" + a.targets,
                                           "-fplugin-arg-segtime-out=" + seg, "-c", src, "-o", plugin_o],
                        a.timeout, cap)
        res["compile_s"] = [round(p["wall_s"], 3), round(q["wall_s"], 3)]
        extra = sorted(set(q["stderr"].splitlines()) - set(p["stderr"].splitlines()))
        if clang_crashed(q):
            record("crash", "clang: " + q["stderr"][-400:])
        elif q["status"] == "timeout":
            record("timeout", "compile after %.0f s" % q["wall_s"])
        elif q["status"] == "out of memory":
            record("out of memory", "compile: %.0f MB" % q["rss_mb"])
        elif q["status"] != "ok":
            record("compile error", "exit %s: %s" % (q["rc"], q["stderr"][-400:]))
        elif extra:
            record("plugin diagnostic", " | ".join(extra)[:400])
        if q["status"] == "ok":
            same, diff = objdump_compare(plain_o, plugin_o)
            if not same:
                record("code difference", "%s lines of objdump -d differ" % diff)
        if q["status"] == "ok" and os.path.exists(seg):
            for m in a.machines:
                rec, doc = predict_one(seg, m, a)
                res["predict"].append(rec)
                names = missing_names(doc) if doc and m in a.values_machines else []
                if names:
                    rec2, _ = predict_one(seg, m, a, names)
                    res["predict"].append(rec2)
            for rec in res["predict"]:
                if "class" in rec:
                    record(rec["class"], "predict %s%s: %s" % (
                        rec["machine"], " with %d values" % rec["values"] if rec["values"] else "",
                        rec.get("error", "after %.0f s" % rec["wall_s"])))
        if not (set(res["classes"]) - NOT_FAILING) or not a.keep:
            shutil.rmtree(d, ignore_errors=True)
        else:
            res["kept"] = d
        return res

    return cached(cache, key, compute, a.fresh)


def summarise(results):
    """{class: {opt: [seeds]}} and the program counts per opt."""
    table = {c: {} for c in CLASSES}
    counts = {}
    for r in results:
        counts.setdefault(r["opt"], {"programs": 0, "plain failed": 0, "predict runs": 0})
        c = counts[r["opt"]]
        c["programs"] += 1
        c["plain failed"] += "plain" in r
        c["predict runs"] += len(r["predict"])
        for cls in r["classes"]:
            table.setdefault(cls, {}).setdefault(r["opt"], []).append(r["seed"])
    return table, counts


def print_table(table, counts, a):
    opts = sorted(counts, reverse=True)  # O2 before O0
    print("csmith campaign: plugin %s, targets=%s; predict --level all with %s; "
          "time-outs %g s (compile), %g s (predict); %g GB per compile"
          % (a.plugin, a.targets, ", ".join(a.machines), a.timeout, a.predict_timeout, a.mem_cap_gb))
    print()
    print("| | " + " | ".join("-" + o for o in opts) + " |")
    print("|---|" + "---|" * len(opts))
    for what in ("programs", "plain failed", "predict runs"):
        print("| %s | %s |" % (what, " | ".join(str(counts[o][what]) for o in opts)))
    for cls in table:
        cells = []
        for o in opts:
            seeds = sorted(table[cls].get(o, []))
            cells.append(str(len(seeds)) + (" (seeds %s%s)" % (", ".join(map(str, seeds[:15])),
                                                                ", ..." if len(seeds) > 15 else "")
                                            if seeds else ""))
        print("| %s | %s |" % (cls, " | ".join(cells)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n", 2)[2])
    ap.add_argument("--seeds", default="1-1000", help="seeds at -O2: 1-1000, 5, 1-3,7 (default 1-1000)")
    ap.add_argument("--o0-seeds", default="1-200", help="seeds at -O0 (default 1-200; '' none)")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="programs in parallel (default 1)")
    ap.add_argument("--targets", default="compile,leon3,supersparc",
                    help="-fplugin-arg-segtime-targets (default %(default)s)")
    ap.add_argument("--machine", action="append", dest="machines", metavar="NAME[@TARGET]",
                    help="machine for predict, repeatable (default: t800, sparc10-30@supersparc, "
                         "test/Inputs/icc-machine.yaml: ICC for the compile's x86-64 code)")
    ap.add_argument("--values-machine", action="append", dest="values_machines", metavar="NAME[@TARGET]",
                    help="machines (of --machine) that predict a second time with the missing values "
                         "given, repeatable (default: the last --machine)")
    ap.add_argument("--value", type=float, default=3,
                    help="value given to every missing name in the second predict (default 3)")
    ap.add_argument("--timeout", type=float, default=120, help="per compile, s (default 120)")
    ap.add_argument("--mem-cap-gb", type=float, default=8, help="address space per compile, GB (default 8)")
    ap.add_argument("--predict-timeout", type=float, default=60, help="per predict, s (default 60)")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"), help="build tree (default %(default)s)")
    ap.add_argument("--work", help="sources, cache and kept files (default BUILD/campaign)")
    ap.add_argument("--keep", action="store_true", help="keep the files of programs in a failing class")
    ap.add_argument("--fresh", action="store_true", help="ignore the cached results")
    ap.add_argument("--build-id", help="the cache's key for clang, the plugin, segtime and the machine "
                                       "files instead of their hash (printed at the start): to go on "
                                       "with a run across a rebuild that does not change what it checks")
    ap.add_argument("--json", help="write every program's result and the table here")
    a = ap.parse_args()
    a.plugin = os.path.join(a.build, "lib", "segtime.so")
    a.segtime = os.path.join(a.build, "bin", "segtime")
    a.work = os.path.abspath(a.work or os.path.join(a.build, "campaign"))
    a.machines = a.machines or DEFAULT_MACHINES
    a.values_machines = a.values_machines or a.machines[-1:]
    for p in (a.plugin, a.segtime):
        if not os.path.exists(p):
            sys.exit("csmith_campaign.py: no %s: build first (cmake --build %s)" % (p, a.build))
    csmith_include()
    clang_v = subprocess.run([CLANG, "--version"], capture_output=True, text=True).stdout
    machine_ids = [file_sha(m.partition("@")[0]) for m in a.machines if os.path.exists(m.partition("@")[0])]
    machine_ids += [file_sha(p) for p in sorted(glob.glob(os.path.join(ROOT, "costvectors", "*.yaml")))]
    ids = a.build_id or sha(clang_v, file_sha(a.plugin), file_sha(a.segtime), machine_ids)
    log("build id %s%s" % (ids, " (given)" if a.build_id else ""))
    o2, o0 = [(s, "O2") for s in seed_range(a.seeds)], [(s, "O0") for s in seed_range(a.o0_seeds)]
    # Both levels advance together, in proportion (a run stopped early has some of each).
    work = sorted(o2 + o0, key=lambda w: (w[0] - 1) / (len(o2) if w[1] == "O2" else len(o0)))
    results = []
    with ProcessPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        futs = {pool.submit(program, s, o, a, ids): (s, o) for s, o in work}
        for i, f in enumerate(as_completed(futs)):
            r = f.result()
            results.append(r)
            log("[%d/%d] seed %d -O%s: %s" % (i + 1, len(work), r["seed"], r["opt"][1:],
                                             "plain clang failed" if "plain" in r else
                                             ", ".join(r["classes"]) or "ok"))
    results.sort(key=lambda r: (r["opt"], r["seed"]))
    table, counts = summarise(results)
    print_table(table, counts, a)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"targets": a.targets, "machines": a.machines, "timeout_s": a.timeout,
                       "predict_timeout_s": a.predict_timeout, "mem_cap_gb": a.mem_cap_gb,
                       "counts": counts, "classes": table, "programs": results}, f, indent=1)
    failing = {c: v for c, v in table.items() if v and c not in NOT_FAILING}
    sys.exit(1 if failing else 0)


if __name__ == "__main__":
    main()
