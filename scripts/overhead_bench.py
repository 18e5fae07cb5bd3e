#!/usr/bin/env python3
"""overhead_bench.py - what the segtime plugin costs on programs of any size.

USAGE:
  scripts/overhead_bench.py [--sets csmith,examples,lua,sqlite] [--csmith 50]
                            [--csmith-o0 0] [--reps 1] [--timeout 120]
                            [--mem-cap-gb 8] [--predict-timeout 120]
                            [--targets compile] [--plugin-arg no-ir] [--fresh]
                            [--plugin PATH] [--segtime PATH] [--json FILE]

Compiles every file of each set (-c, no -g) with plain clang and with the
plugin (-fplugin-arg-segtime-targets=compile: all levels, ICC for the
compile's own CPU), each compile under a time-out and an address-space cap
(RLIMIT_AS, as `ulimit -v`), and reports per set:
  - compile wall time and peak RSS with the plugin as a ratio to plain clang
    (median, p90, p99, max over the files both compiled), and the compiles
    that timed out, ran out of memory or failed;
  - the .seg.json bytes against the object file bytes (sum over the set);
  - `segtime predict FILE.seg.json --machine t800 --level all` wall time per
    file (exit status 1, some function not predicted, counts as done);
  - whether `objdump -d` of every object is the same with and without the
    plugin (the plugin must not change the code);
  - Lua: the interpreter linked from each build's objects runs every script
    of test/programs/lua (self-checking with assert) with the same output;
    SQLite: the shell of each build gives the same output on every SQL
    script of test/programs/sql.
    With --lua-tests DIR, both interpreters also run Lua's own test suite
    (DIR = the testes/ directory of github.com/lua/lua at tag v5.4.4:
    `git -C lua archive v5.4.4 testes | tar -x`; never committed) in its
    portable mode, `lua -e"_U=true" all.lua`: each must end "final OK".

Sets:
  csmith    csmith --seed 1..N (--csmith, -O2), and 1..M at -O0 (--csmith-o0)
  examples  examples/*.c and validation/*.c at -O2
  lua       Lua 5.4 (src/*.c, 34 files with lua.c and luac.c; -O2 -std=gnu99
            -DLUA_COMPAT_5_3 -DLUA_USE_LINUX),
            Debian's source package through `apt-get source` with a private
            deb-src list (build/ext/aptsrc; the host's Debian release)
  sqlite    SQLite's sqlite3.c and shell.c (-O2), from the sqlite-autoconf
            tarball bundled in the npm package sqlite3 (`npm pack`); slow:
            not in the default sets
Third-party code is downloaded into build/ext when absent (never committed).

Results are cached per file in build/overhead/cache, keyed by the source's
contents, the flags, the limits and the plugin's (or segtime's) bytes: a run
that stops can be started again, and after a rebuild of the plugin only the
plugin's compiles and predict run again (--fresh: measure everything).
Progress goes to stderr, the table to stdout, everything to --json.
Timing on a shared machine is noisy: --reps R compiles each file R times per
build and takes the median wall time and the largest RSS.
"""
import argparse, glob, json, os, subprocess, sys, tarfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from segtime_common import (BUILD, CLANG, PLUGIN, ROOT, SEGTIME, cached, csmith_include,  # noqa: E402
                            csmith_program, file_sha, log, median, objdump_compare, percentile, run, run_limited, sha)

WORK = os.path.join(BUILD, "overhead")
EXT = os.path.join(BUILD, "ext")
SQLITE_NPM = "sqlite3@6.0.1"  # bundles sqlite-autoconf-3520000.tar.gz
LUA_FLAGS = ["-O2", "-std=gnu99", "-DLUA_COMPAT_5_3", "-DLUA_USE_LINUX"]
# The programs' own checks: Lua scripts (self-checking with assert) and SQL
# scripts for the SQLite shell, run by both builds (functional_check).
PROGRAMS = os.path.join(ROOT, "test", "programs")


# ---- sources ---------------------------------------------------------------

def csmith_sources(n, opt):
    """(name, path, flags) of csmith programs with seeds 1..n."""
    return [("seed%d-%s" % (seed, opt), csmith_program(seed, WORK), ["-" + opt, "-w", "-I" + csmith_include()])
            for seed in range(1, n + 1)]


def example_sources():
    out = []
    for folder in ("examples", "validation"):
        for path in sorted(glob.glob(os.path.join(ROOT, folder, "*.c"))):
            name = os.path.splitext(os.path.basename(path))[0]
            out.append((folder + "/" + name, path, ["-O2", "-w"]))
    return out


def debian_release():
    with open("/etc/os-release") as f:
        for line in f:
            if line.startswith("VERSION_CODENAME="):
                return line.split("=", 1)[1].strip().strip('"')
    sys.exit("overhead_bench.py: no VERSION_CODENAME in /etc/os-release (Lua comes from "
             "Debian's source package)")


def lua_dir():
    """build/ext/lua-5.4.*/src, from `apt-get source lua5.4` (private list)."""
    found = sorted(glob.glob(os.path.join(EXT, "lua-5.4*", "src")))
    if found:
        return found[-1]
    apt = os.path.join(EXT, "aptsrc")
    os.makedirs(os.path.join(apt, "lists", "partial"), exist_ok=True)
    with open(os.path.join(apt, "sources.list"), "w") as f:
        f.write("deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] "
                "http://deb.debian.org/debian %s main\n" % debian_release())
    opts = ["-o", "Dir::Etc::SourceList=" + os.path.join(apt, "sources.list"),
            "-o", "Dir::Etc::SourceParts=/dev/null", "-o", "Dir::State::Lists=" + os.path.join(apt, "lists")]
    log("lua: apt-get source --download-only lua5.4 (into %s)" % EXT)
    run(["apt-get"] + opts + ["update"])
    run(["apt-get"] + opts + ["source", "--download-only", "lua5.4"], cwd=EXT)
    tars = sorted(glob.glob(os.path.join(EXT, "lua5.4_*.orig.tar.gz")))
    if not tars:
        sys.exit("overhead_bench.py: apt-get source lua5.4 gave no lua5.4_*.orig.tar.gz in " + EXT)
    with tarfile.open(tars[-1]) as t:
        t.extractall(EXT)
    found = sorted(glob.glob(os.path.join(EXT, "lua-5.4*", "src")))
    if not found:
        sys.exit("overhead_bench.py: no lua-5.4*/src in " + tars[-1])
    return found[-1]


def lua_sources():
    d = lua_dir()
    return [("lua/" + os.path.basename(p)[:-2], p, LUA_FLAGS)
            for p in sorted(glob.glob(os.path.join(d, "*.c")))]


def sqlite_dir():
    """build/ext/sqlite-autoconf-*/ (sqlite3.c, shell.c, sqlite3.h), from the
    npm package sqlite3 (`npm pack`)."""
    found = sorted(glob.glob(os.path.join(EXT, "sqlite-autoconf-*", "shell.c")))
    if found:
        return os.path.dirname(found[-1])
    os.makedirs(EXT, exist_ok=True)
    log("sqlite: npm pack %s (into %s)" % (SQLITE_NPM, EXT))
    r = run(["npm", "pack", SQLITE_NPM], cwd=EXT)
    tgz = os.path.join(EXT, r.stdout.strip().splitlines()[-1])
    with tarfile.open(tgz) as t:
        inner = [m for m in t.getmembers() if "sqlite-autoconf-" in m.name and m.name.endswith(".tar.gz")]
        if not inner:
            sys.exit("overhead_bench.py: no sqlite-autoconf tarball in " + tgz)
        with tarfile.open(fileobj=t.extractfile(inner[0])) as a:
            a.extractall(EXT)
    found = sorted(glob.glob(os.path.join(EXT, "sqlite-autoconf-*", "shell.c")))
    if not found:
        sys.exit("overhead_bench.py: no shell.c in the sqlite-autoconf tarball of " + tgz)
    return os.path.dirname(found[-1])


def sqlite_sources():
    d = sqlite_dir()
    return [("sqlite/" + n, os.path.join(d, n + ".c"), ["-O2", "-w", "-I" + d]) for n in ("sqlite3", "shell")]


# ---- measuring one file ----------------------------------------------------

def compile_runs(cmd, a):
    """a.reps compiles of cmd: median wall time, largest RSS, the worst status."""
    runs = []
    for _ in range(a.reps):
        r = run_limited(cmd, a.timeout, int(a.mem_cap_gb * 2**30))
        runs.append(r)
        if r["status"] != "ok":
            break
    bad = [r for r in runs if r["status"] != "ok"]
    return {"wall_s": median([r["wall_s"] for r in runs]), "rss_mb": max(r["rss_mb"] for r in runs),
            "status": bad[0]["status"] if bad else "ok",
            "error": bad[0]["stderr"][-600:] if bad else ""}


def measure(set_name, name, src, flags, a, ids):
    """One file: plain and plugin compiles, sizes, objdump identity, predict."""
    src_id = file_sha(src)
    limits = (a.reps, a.timeout, a.mem_cap_gb)
    # Each configuration's files and results side by side (another plugin
    # build, other arguments), named by the key of what made them.
    pkey = sha(src_id, flags, ids["clang"], limits)
    qkey = sha(pkey, ids["plugin"], a.targets, a.plugin_arg)
    base = os.path.join(WORK, "obj", set_name, name.replace("/", "_"))
    os.makedirs(os.path.dirname(base), exist_ok=True)
    plain_o = base + ".plain." + pkey[:8] + ".o"
    plugin_o, seg = base + ".plugin." + qkey[:8] + ".o", base + "." + qkey[:8] + ".seg.json"
    plain_cmd = [CLANG] + flags + ["-c", src, "-o", plain_o]
    plugin_cmd = [CLANG] + flags + ["-fplugin=" + a.plugin, "-fplugin-arg-segtime-quiet",
                                    "-fplugin-arg-segtime-targets=" + a.targets]
    plugin_cmd += ["-fplugin-arg-segtime-" + x for x in a.plugin_arg]
    plugin_cmd += ["-fplugin-arg-segtime-out=" + seg, "-c", src, "-o", plugin_o]
    cache = os.path.join(WORK, "cache", set_name, name.replace("/", "_"))

    def plain():
        r = compile_runs(plain_cmd, a)
        r["obj_bytes"] = os.path.getsize(plain_o) if r["status"] == "ok" else None
        return r

    def plugin():
        for f in (plugin_o, seg):
            if os.path.exists(f):
                os.remove(f)
        r = compile_runs(plugin_cmd, a)
        ok = r["status"] == "ok"
        r["obj_bytes"] = os.path.getsize(plugin_o) if ok else None
        r["seg_bytes"] = os.path.getsize(seg) if ok and os.path.exists(seg) else None
        return r

    p = cached(cache + ".plain." + pkey[:8] + ".json", pkey, plain, a.fresh, [plain_o])
    q = cached(cache + ".plugin." + qkey[:8] + ".json", qkey, plugin, a.fresh, [plugin_o, seg])
    row = {"set": set_name, "file": name, "plain": p, "plugin": q}
    if p["status"] == "ok" and q["status"] == "ok":
        row["time_ratio"] = q["wall_s"] / p["wall_s"]
        row["rss_ratio"] = q["rss_mb"] / p["rss_mb"]
        row["objdump_identical"], diff = objdump_compare(plain_o, plugin_o)
        if diff is not None:
            row["objdump_diff_lines"] = diff

    def predict():
        r = run_limited([a.segtime, "predict", seg, "--machine", "t800", "--level", "all"],
                        a.predict_timeout)
        # exit 1: some function lacks a parameter value (still printed others)
        st = "ok" if r["rc"] in (0, 1) else r["status"]
        return {"wall_s": r["wall_s"], "rc": r["rc"], "status": st,
                "error": "" if st == "ok" else r["stderr"][-400:]}

    if q["status"] == "ok" and q.get("seg_bytes"):
        rkey = sha(file_sha(seg), ids["segtime"], a.predict_timeout)
        row["predict"] = cached(cache + ".predict." + rkey[:8] + ".json", rkey, predict, a.fresh)
    return row, plain_o, plugin_o


# ---- functional checks -----------------------------------------------------

def link_and_run(objs, exe, libs):
    r = subprocess.run([CLANG] + objs + ["-o", exe] + libs, capture_output=True, text=True)
    return r.returncode == 0, r.stderr[-400:]


def run_script(exe, script, set_name):
    """The program's output (stdout, exit status, stderr) on one script: Lua
    runs it, the SQLite shell reads it on stdin with an in-memory database."""
    if set_name == "lua":
        cmd, stdin_text = [exe, os.path.basename(script)], None
    else:
        with open(script) as f:
            cmd, stdin_text = [exe, ":memory:"], f.read()
    r = subprocess.run(cmd, input=stdin_text, capture_output=True, text=True, timeout=300,
                       cwd=os.path.dirname(script))
    return r.returncode, r.stdout + "exit %d\n" % r.returncode + r.stderr


def functional_check(set_name, objs, a):
    """Links the plain and the plugin objects of Lua (interpreter, no luac) or
    SQLite (shell) and runs both on every script of test/programs/lua (each
    must exit 0: they check themselves with assert) or test/programs/sql;
    the outputs must be the same."""
    d = os.path.join(WORK, "run", set_name)
    os.makedirs(d, exist_ok=True)
    if set_name == "lua":
        keep = [(n, o) for n, o in objs if not n.endswith("/luac")]
        libs = ["-lm", "-ldl", "-Wl,-E"]
        scripts = sorted(glob.glob(os.path.join(PROGRAMS, "lua", "*.lua")))
    else:
        keep, libs = objs, ["-lm", "-ldl", "-lpthread"]
        scripts = sorted(glob.glob(os.path.join(PROGRAMS, "sql", "*.sql")))
    exes = {}
    for which, k in (("plain", 0), ("plugin", 1)):
        files = [o[k] for _, o in keep]
        missing = [f for f in files if not os.path.exists(f)]
        if missing:
            return {"status": "not run", "reason": "no object (compile failed or timed out): "
                    + ", ".join(os.path.basename(m) for m in missing[:3])}
        exes[which] = os.path.join(d, set_name + "-" + which)
        ok, err = link_and_run(files, exes[which], libs)
        if not ok:
            return {"status": "not run", "reason": which + " link failed: " + err}
    differ, failed, lines = [], [], 0
    for script in scripts:
        (rc, plain), (_, plugin) = (run_script(exes[w], script, set_name) for w in ("plain", "plugin"))
        name = os.path.basename(script)
        lines += plain.count("\n")
        if plain != plugin:
            differ.append(name)
        if set_name == "lua" and rc != 0:
            failed.append(name)
    status = "same output" if not differ else "DIFFERENT output"
    out = {"status": "%s on %d of %d scripts (%d lines)" % (status, len(scripts) - len(differ), len(scripts), lines)
           + ("; plain build fails " + ", ".join(failed) if failed else ""),
           "scripts": [os.path.basename(s) for s in scripts], "differ": differ, "failed": failed}
    if set_name == "lua" and a.lua_tests:
        out["lua_tests"] = {w: lua_test_suite(exes[w], a.lua_tests) for w in ("plain", "plugin")}
        out["status"] += "; Lua's test suite (all.lua, portable): " + ", ".join(
            "%s %s" % (w, r) for w, r in out["lua_tests"].items())
    return out


def lua_test_suite(exe, testes):
    """'passed' if Lua's own test suite (all.lua in testes, portable mode)
    ends with "final OK" and exit status 0, else what went wrong."""
    try:
        r = subprocess.run([exe, "-e", "_U=true", "all.lua"], capture_output=True, text=True,
                           timeout=900, cwd=testes)
    except subprocess.TimeoutExpired:
        return "timed out (900 s)"
    if r.returncode == 0 and "final OK" in r.stdout:
        return "passed"
    return "FAILED (exit %d): %s" % (r.returncode, (r.stdout + r.stderr)[-300:])


# ---- report ----------------------------------------------------------------

def stats(values):
    if not values:
        return None
    return {"median": median(values), "p90": percentile(values, 90), "p99": percentile(values, 99),
            "max": max(values), "n": len(values)}


def summarise(rows, checks):
    out = {}
    for s in dict.fromkeys(r["set"] for r in rows):
        rs = [r for r in rows if r["set"] == s]
        both = [r for r in rs if "time_ratio" in r]
        pred = [r["predict"] for r in rs if "predict" in r]
        segb = sum(r["plugin"]["seg_bytes"] or 0 for r in both)
        objb = sum(r["plain"]["obj_bytes"] or 0 for r in both)
        out[s] = {
            "files": len(rs),
            "plain_not_ok": {r["file"]: r["plain"]["status"] for r in rs if r["plain"]["status"] != "ok"},
            "plugin_not_ok": {r["file"]: r["plugin"]["status"] for r in rs
                              if r["plugin"]["status"] != "ok" and r["plain"]["status"] == "ok"},
            "time_ratio": stats([r["time_ratio"] for r in both]),
            "rss_ratio": stats([r["rss_ratio"] for r in both]),
            "plain_total_s": sum(r["plain"]["wall_s"] for r in both),
            "plugin_total_s": sum(r["plugin"]["wall_s"] for r in both),
            "plain_max_rss_mb": max((r["plain"]["rss_mb"] for r in rs), default=0),
            "plugin_max_rss_mb": max((r["plugin"]["rss_mb"] for r in rs), default=0),
            "seg_bytes": segb, "obj_bytes": objb, "seg_per_obj": segb / objb if objb else None,
            "predict_s": stats([p["wall_s"] for p in pred if p["status"] == "ok"]),
            "predict_not_ok": {r["file"]: r["predict"]["status"] for r in rs
                               if "predict" in r and r["predict"]["status"] != "ok"},
            "objdump_identical": sum(1 for r in both if r.get("objdump_identical")),
            "objdump_compared": len(both),
            "objdump_differ": {r["file"]: r.get("objdump_diff_lines") for r in both
                               if not r.get("objdump_identical")},
            "worst_time": sorted(((r["time_ratio"], r["file"]) for r in both), reverse=True)[:5],
        }
        if s in checks:
            out[s]["run_check"] = checks[s]
    return out


def fmt_stats(st, unit="x"):
    if not st:
        return "-"
    return "%.2f / %.2f / %.2f / %.2f%s" % (st["median"], st["p90"], st["p99"], st["max"], unit)


def print_report(summary, a):
    print("segtime plugin overhead (plugin: %s, targets=%s%s; per compile time-out %g s, "
          "address space %g GB; %d rep(s))" % (a.plugin, a.targets, "".join(", " + x for x in a.plugin_arg),
                                               a.timeout, a.mem_cap_gb, a.reps))
    print()
    print("| set | files | not done with plugin | time ratio med/p90/p99/max | peak RSS ratio "
          "med/p90/p99/max | total time plain -> plugin | .seg.json / object | predict s "
          "med/p90/p99/max | objdump -d identical |")
    print("|---|---|---|---|---|---|---|---|---|")
    for s, v in summary.items():
        nd = len(v["plugin_not_ok"])
        kinds = sorted(set(v["plugin_not_ok"].values()))
        print("| %s | %d | %s | %s | %s | %.1f s -> %.1f s | %s | %s | %d of %d |" % (
            s, v["files"], "%d (%s)" % (nd, ", ".join(kinds)) if nd else "0",
            fmt_stats(v["time_ratio"]), fmt_stats(v["rss_ratio"]),
            v["plain_total_s"], v["plugin_total_s"],
            "%.1fx" % v["seg_per_obj"] if v["seg_per_obj"] is not None else "-",
            fmt_stats(v["predict_s"], " s") + (" (%d not done)" % len(v["predict_not_ok"])
                                               if v["predict_not_ok"] else ""),
            v["objdump_identical"], v["objdump_compared"]))
    print()
    for s, v in summary.items():
        notes = []
        for key, label, item in (("plain_not_ok", "plain clang did not compile", "%s (%s)"),
                                 ("plugin_not_ok", "with the plugin not done", "%s (%s)"),
                                 ("objdump_differ", "objdump -d differs", "%s (%s lines)"),
                                 ("predict_not_ok", "predict not done", "%s (%s)")):
            if v[key]:
                notes.append(label + ": " + ", ".join(item % kv for kv in sorted(v[key].items())))
        if v["worst_time"]:
            notes.append("largest time ratios: " + ", ".join(
                "%s %.2fx" % (f, t) for t, f in v["worst_time"]))
        if "run_check" in v:
            c = v["run_check"]
            notes.append("program built with the plugin: " + c["status"]
                         + (" (%s)" % c["reason"] if c.get("reason") else ""))
        notes.append("peak RSS: plain %.0f MB, with the plugin %.0f MB at most"
                     % (v["plain_max_rss_mb"], v["plugin_max_rss_mb"]))
        print("%s:" % s)
        for n in notes:
            print("  - " + n)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n", 2)[2])
    ap.add_argument("--sets", default="csmith,examples,lua",
                    help="comma list of csmith, examples, lua, sqlite (default csmith,examples,lua)")
    ap.add_argument("--csmith", type=int, default=50, help="csmith seeds 1..N at -O2 (default 50)")
    ap.add_argument("--csmith-o0", type=int, default=0, help="csmith seeds 1..M at -O0 (default 0)")
    ap.add_argument("--reps", type=int, default=1, help="compiles per file and build (default 1)")
    ap.add_argument("--timeout", type=float, default=120, help="per compile, s (default 120)")
    ap.add_argument("--mem-cap-gb", type=float, default=8,
                    help="address space per compile, GB (RLIMIT_AS; default 8)")
    ap.add_argument("--predict-timeout", type=float, default=120, help="per predict, s (default 120)")
    ap.add_argument("--targets", default="compile", help="-fplugin-arg-segtime-targets (default compile)")
    ap.add_argument("--plugin-arg", action="append", default=[], metavar="ARG",
                    help="another -fplugin-arg-segtime-ARG (repeatable), e.g. no-ir")
    ap.add_argument("--plugin", default=PLUGIN, help="plugin to measure (default %(default)s)")
    ap.add_argument("--segtime", default=SEGTIME, help="segtime tool for predict (default %(default)s)")
    ap.add_argument("--lua-tests", metavar="DIR",
                    help="Lua 5.4.4's testes/ directory: both interpreters run its all.lua")
    ap.add_argument("--fresh", action="store_true", help="ignore the cached results")
    ap.add_argument("--json", help="write every file's results and the summary here")
    a = ap.parse_args()
    for p in (a.plugin, a.segtime):
        if not os.path.exists(p):
            sys.exit("overhead_bench.py: no %s: build first (cmake --build build)" % p)
    sets = a.sets.split(",")
    unknown = set(sets) - {"csmith", "examples", "lua", "sqlite"}
    if unknown:
        sys.exit("overhead_bench.py: unknown set(s) %s (expected csmith, examples, lua, sqlite)"
                 % ", ".join(sorted(unknown)))
    clang_v = subprocess.run([CLANG, "--version"], capture_output=True, text=True).stdout
    ids = {"clang": sha(clang_v), "plugin": file_sha(a.plugin), "segtime": file_sha(a.segtime)}
    work = []
    for s in sets:
        if s == "csmith":
            work += [("csmith-O2", x) for x in csmith_sources(a.csmith, "O2")]
            if a.csmith_o0:
                work += [("csmith-O0", x) for x in csmith_sources(a.csmith_o0, "O0")]
        elif s == "examples":
            work += [("examples", x) for x in example_sources()]
        elif s == "lua":
            work += [("lua", x) for x in lua_sources()]
        elif s == "sqlite":
            work += [("sqlite", x) for x in sqlite_sources()]
    rows, objs = [], {}
    for i, (s, (name, src, flags)) in enumerate(work):
        row, po, qo = measure(s, name, src, flags, a, ids)
        rows.append(row)
        objs.setdefault(s, []).append((name, (po, qo)))
        p, q = row["plain"], row["plugin"]
        msg = "[%d/%d] %s: plain %.2f s %.0f MB" % (i + 1, len(work), name, p["wall_s"], p["rss_mb"])
        if q["status"] != "ok":
            msg += " | plugin %s after %.1f s, %.0f MB" % (q["status"].upper(), q["wall_s"], q["rss_mb"])
        elif "time_ratio" in row:
            msg += " | plugin %.2f s (%.2fx) %.0f MB | .seg.json %.0f kB (%.1fx object) | objdump %s" % (
                q["wall_s"], row["time_ratio"], q["rss_mb"], (q["seg_bytes"] or 0) / 1e3,
                (q["seg_bytes"] or 0) / max(1, p["obj_bytes"] or 1),
                "same" if row["objdump_identical"] else "DIFFERS")
        if "predict" in row:
            msg += " | predict %.2f s %s" % (row["predict"]["wall_s"], row["predict"]["status"])
        log(msg)
    checks = {}
    for s in ("lua", "sqlite"):
        if s in objs:
            log("%s: linking both builds and comparing the programs' output" % s)
            checks[s] = functional_check(s, objs[s], a)
            log("%s: %s" % (s, checks[s]["status"]))
    summary = summarise(rows, checks)
    print_report(summary, a)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"plugin": a.plugin, "targets": a.targets, "plugin_args": a.plugin_arg, "timeout_s": a.timeout,
                       "mem_cap_gb": a.mem_cap_gb, "reps": a.reps, "summary": summary, "files": rows},
                      f, indent=1)


if __name__ == "__main__":
    main()
