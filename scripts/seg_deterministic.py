#!/usr/bin/env python3
"""seg_deterministic.py - the plugin's .seg.json is byte-identical from run to run.

USAGE:
  scripts/seg_deterministic.py [--plugin build/lib/segtime.so] [--runs 4]
                               [--targets compile] [--only dot,lu] [--jobs 2]
                               [--cflags "-O0 -target x86_64-linux-gnu"]
                               [--keep DIR] [--json]

Compiles every example and validation kernel (examples/*.c, validation/*.c,
and examples/mpi/*.c when `mpicc --showme:compile` finds an mpi.h) with the
plugin (--cflags, default -O2 with x86-64 pinned: -target x86_64-linux-gnu
-march=x86-64-v3; ICC targets --targets) --runs times, each run in another environment, so that
anything that depends on object addresses (maps keyed by pointers, GiNaC's
hash order) shows up as a difference:
  run 1  the environment as given;
  run 2  setarch -R (no address-space randomisation);
  run 3  glibc's malloc without its thread cache and with MALLOC_PERTURB_
         (other chunks are reused: another address order);
  run 4  a 20 kB environment variable and a smaller mmap threshold (other
         stack and heap offsets);
  run 5+ the environment as given again.
The output directory of each run has a name of another length (argv and
paths shift allocations too). Asserts that each kernel's .seg.json bytes
(and object file bytes) are the same in every run; exit status 1 if not, 2
on a usage error or a failed compile. On a difference it prints the first
differing lines.
Run by ctest (test `seg-json-deterministic`).
"""
import argparse, concurrent.futures, json, os, shutil, subprocess, sys, tempfile

from segtime_common import CLANG, PLUGIN, ROOT, run

FLAGS = ["-target", "x86_64-linux-gnu", "-O2", "-march=x86-64-v3"]


def variants():
    """(name, argv prefix, environment) of each run, in order."""
    base = dict(os.environ)
    setarch = shutil.which("setarch")
    out = [("plain", [], base)]
    if setarch:
        out.append(("setarch -R", [setarch, os.uname().machine, "-R"], base))
    out.append(("malloc: no tcache, perturb", [],
                dict(base, MALLOC_PERTURB_="165",
                     GLIBC_TUNABLES="glibc.malloc.tcache_count=0")))
    out.append(("20 kB env, mmap threshold", [],
                dict(base, SEGTIME_ENV_PADDING="x" * 20000, MALLOC_PERTURB_="42",
                     GLIBC_TUNABLES="glibc.malloc.mmap_threshold=8192:glibc.malloc.top_pad=1048576")))
    return out


def mpi_flags():
    """Include flags of the installed MPI, or None when there is no usable mpi.h."""
    if not shutil.which("mpicc"):
        return None
    try:
        flags = subprocess.run(["mpicc", "--showme:compile"], capture_output=True, text=True,
                               timeout=30).stdout.split()
    except (OSError, subprocess.SubprocessError):
        return None
    if any(os.path.exists(os.path.join(f[2:], "mpi.h")) for f in flags if f.startswith("-I")):
        return flags
    return None


def sources(only):
    """(name, path, extra flags) of every kernel, sorted by folder then name."""
    out = []
    mpi = mpi_flags()
    for folder, extra in (("examples", []), ("validation", []), (os.path.join("examples", "mpi"), mpi)):
        d = os.path.join(ROOT, folder)
        if extra is None or not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            if f.endswith(".c"):
                name = f[:-2] if folder != os.path.join("examples", "mpi") else "mpi_" + f[:-2]
                out.append((name, os.path.join(d, f), extra))
    if only:
        keep = only.split(",")
        out = [s for s in out if s[0] in keep]
    return out, mpi is not None


def first_difference(a, b):
    """The first differing line of a and b (bytes) and the number of differing lines."""
    la, lb = a.decode(errors="replace").splitlines(), b.decode(errors="replace").splitlines()
    diffs = [i for i in range(max(len(la), len(lb)))
             if (la[i] if i < len(la) else None) != (lb[i] if i < len(lb) else None)]
    if not diffs:
        return "", 0
    i = diffs[0]
    return ("line %d:\n    - %s\n    + %s" % (i + 1, la[i][:300] if i < len(la) else "<end>",
                                             lb[i][:300] if i < len(lb) else "<end>"), len(diffs))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n", 2)[2])
    ap.add_argument("--plugin", default=PLUGIN, help="the plugin (default %(default)s)")
    ap.add_argument("--runs", type=int, default=4, help="compiles per kernel, >= 2 (default 4)")
    ap.add_argument("--targets", default="compile",
                    help="-fplugin-arg-segtime-targets= (default compile; '' for none)")
    ap.add_argument("--only", default="", help="comma list of kernels (mpi_farm for examples/mpi/farm.c)")
    ap.add_argument("--jobs", type=int, default=2, help="compiles at a time (default 2)")
    ap.add_argument("--cflags", default=" ".join(FLAGS),
                    help="compiler flags (default '%(default)s')")
    ap.add_argument("--keep", default="", help="write the runs' files into this directory and keep them")
    ap.add_argument("--json", action="store_true", help="print the result as JSON")
    a = ap.parse_args()
    if a.runs < 2:
        ap.error("--runs must be at least 2")
    if not os.path.exists(a.plugin):
        ap.error("plugin not found: %s (build first: ninja -C build)" % a.plugin)
    srcs, with_mpi = sources(a.only)
    if not srcs:
        ap.error("no kernel matches --only %s" % a.only)
    envs = variants()
    runs = [envs[i] if i < len(envs) else envs[0] for i in range(a.runs)]
    work = a.keep or tempfile.mkdtemp(prefix="segdet-")
    # Directories of different name lengths: r1, r2-x, r3-xx, ...
    dirs = [os.path.join(work, "r%d%s" % (i + 1, "-" + "x" * (7 * i) if i else ""))
            for i in range(a.runs)]
    for d in dirs:
        os.makedirs(d, exist_ok=True)

    def compile_one(job):
        (name, path, extra), r = job
        _, prefix, env = runs[r]
        base = os.path.join(dirs[r], name)
        targets = ["-fplugin-arg-segtime-targets=" + a.targets] if a.targets else []
        cmd = (prefix + [CLANG] + a.cflags.split() + extra + ["-fplugin=" + a.plugin, "-fplugin-arg-segtime-quiet"] +
               targets + ["-fplugin-arg-segtime-out=" + base + ".seg.json", "-c", path, "-o", base + ".o"])
        r = run(cmd, env=env, check=False)
        if r.returncode != 0:
            raise RuntimeError("compile failed (run %d, %s): %s\n%s" %
                               (job[1] + 1, runs[job[1]][0], " ".join(cmd), r.stderr[-2000:]))
        with open(base + ".seg.json", "rb") as f, open(base + ".o", "rb") as o:
            return f.read(), o.read()

    jobs = [(s, r) for r in range(a.runs) for s in srcs]
    try:
        with concurrent.futures.ThreadPoolExecutor(max(1, a.jobs)) as pool:
            outputs = dict(zip([(s[0], r) for s, r in jobs], pool.map(compile_one, jobs)))
    except RuntimeError as e:
        print("seg_deterministic.py: %s" % e, file=sys.stderr)
        return 2
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)

    rows = []
    for name, _, _ in srcs:
        seg0, obj0 = outputs[(name, 0)]
        row = {"kernel": name, "seg_bytes": len(seg0), "same": True, "differences": []}
        for r in range(1, a.runs):
            seg, obj = outputs[(name, r)]
            if seg != seg0:
                where, n = first_difference(seg0, seg)
                row["differences"].append({"run": r + 1, "env": runs[r][0], "file": "seg.json",
                                           "lines": n, "first": where})
            if obj != obj0:
                row["differences"].append({"run": r + 1, "env": runs[r][0], "file": "object",
                                           "lines": 0, "first": "object files differ"})
        row["same"] = not row["differences"]
        rows.append(row)
    ok = all(r["same"] for r in rows)
    if a.json:
        print(json.dumps({"runs": [v[0] for v in runs], "targets": a.targets, "mpi": with_mpi,
                          "rows": rows, "deterministic": ok}, indent=1))
    else:
        print("%d runs per kernel (%s), ICC targets '%s'%s" %
              (a.runs, "; ".join(v[0] for v in runs), a.targets,
               "" if with_mpi else "; MPI examples skipped (no mpi.h)"))
        print("%-18s %10s  %s" % ("kernel", "seg bytes", "result"))
        for r in rows:
            print("%-18s %10d  %s" % (r["kernel"], r["seg_bytes"], "identical" if r["same"] else
                                      "DIFFERS in run(s) " +
                                      ", ".join(sorted({str(d["run"]) for d in r["differences"]}))))
            for d in r["differences"]:
                print("    run %d (%s), %s: %d line(s) differ; %s" %
                      (d["run"], d["env"], d["file"], d["lines"], d["first"]))
        print("deterministic" if ok else "NOT deterministic: %d of %d kernels differ" %
              (sum(not r["same"] for r in rows), len(rows)))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
