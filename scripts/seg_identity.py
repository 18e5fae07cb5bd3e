#!/usr/bin/env python3
"""seg_identity.py - whether two builds of the plugin write the same .seg.json bytes.

USAGE:
  scripts/seg_identity.py --plugin PATH --out FILE [--sets examples,lua,csmith]
                          [--csmith 50] [--targets compile] [--jobs 2]
                          [--plugin-arg no-inlined ...]
  scripts/seg_identity.py --compare BEFORE.json AFTER.json

The first form compiles every file of the sets (the sets and flags of
scripts/overhead_bench.py: examples/*.c and validation/*.c at -O2, Lua 5.4's
src/*.c, csmith programs of seeds 1..N at -O2) with the plugin
(-fplugin-arg-segtime-targets=TARGETS, quiet, -fplugin-arg-segtime-ARG for
each --plugin-arg ARG; objects in build/seg_identity,
the same directory for every build) and writes, per file, the
key of its .seg.json (with the checkout's root path written as <ROOT>, so
that builds in different clones compare) and of its object file to FILE. The second form
compares two such files: it lists every file whose .seg.json differs, or
that only one of them compiled, and exits 1 if there is one. Used to check
that a change meant to make the plugin faster changes no figure.
"""
import argparse, concurrent.futures, json, os, shutil, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import overhead_bench as ob  # noqa: E402
from segtime_common import CLANG, PLUGIN, ROOT, file_sha, log, run_limited, sha  # noqa: E402


def sources(sets, n_csmith):
    out = []
    for s in sets:
        if s == "examples":
            out += ob.example_sources()
        elif s == "lua":
            out += ob.lua_sources()
        elif s == "csmith":
            out += ob.csmith_sources(n_csmith, "O2")
        else:
            sys.exit("seg_identity.py: unknown set %s (expected examples, lua, csmith)" % s)
    return out


def seg_sha(path):
    """The key of a .seg.json with the checkout's root written as <ROOT>: the
    same from any clone or worktree (the file names its source and object)."""
    with open(path, "rb") as f:
        return sha(f.read().replace(ROOT.encode(), b"<ROOT>"))


def compile_one(item, plugin, targets, work, plugin_args=()):
    name, src, flags = item
    d = os.path.join(work, name.replace("/", "_"))
    os.makedirs(d, exist_ok=True)
    obj = os.path.join(d, "out.o")
    cmd = [CLANG] + flags + ["-fplugin=" + plugin, "-fplugin-arg-segtime-targets=" + targets,
                             "-fplugin-arg-segtime-quiet", "-c", src, "-o", obj]
    cmd[-4:-4] = ["-fplugin-arg-segtime-" + x for x in plugin_args]
    r = run_limited(cmd, 300)
    seg = os.path.join(d, "out.seg.json")
    if r["status"] != "ok" or not os.path.exists(seg):
        return name, {"status": r["status"], "error": r["stderr"][-300:]}
    return name, {"status": "ok", "seg": seg_sha(seg), "obj": file_sha(obj)}


def compare(a_path, b_path):
    a, b = (json.load(open(p))["files"] for p in (a_path, b_path))
    bad = 0
    for name in sorted(set(a) | set(b)):
        x, y = a.get(name), b.get(name)
        if not x or not y or x.get("status") != "ok" or y.get("status") != "ok":
            print("%s: compiled in only one (%s / %s)" % (name, x and x.get("status"), y and y.get("status")))
            bad += 1
        elif x["seg"] != y["seg"] or x["obj"] != y["obj"]:
            print("%s: .seg.json %s, object %s" % (name, "same" if x["seg"] == y["seg"] else "DIFFERS",
                                                    "same" if x["obj"] == y["obj"] else "DIFFERS"))
            bad += 1
    print("%d files, %d differ" % (len(set(a) | set(b)), bad))
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--plugin", default=PLUGIN)
    ap.add_argument("--out")
    ap.add_argument("--sets", default="examples,lua,csmith")
    ap.add_argument("--csmith", type=int, default=50)
    ap.add_argument("--targets", default="compile")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--plugin-arg", action="append", default=[],
                    help="a plugin option for every compile (-fplugin-arg-segtime-ARG)")
    ap.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"))
    a = ap.parse_args()
    if a.compare:
        sys.exit(compare(*a.compare))
    if not a.out:
        sys.exit("seg_identity.py: --out FILE or --compare BEFORE AFTER expected")
    items = sources(a.sets.split(","), a.csmith)
    files = {}
    # the same directory for every build: the .seg.json may name its object
    work = os.path.join(ob.BUILD, "seg_identity")
    shutil.rmtree(work, ignore_errors=True)
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        for name, res in ex.map(lambda it: compile_one(it, a.plugin, a.targets, work, a.plugin_arg), items):
            files[name] = res
            if res["status"] != "ok":
                log("%s: %s" % (name, res["status"]))
    with open(a.out, "w") as f:
        json.dump({"plugin": a.plugin, "targets": a.targets, "files": files}, f, indent=1, sort_keys=True)
    log("%d files, %d compiled" % (len(files), sum(r["status"] == "ok" for r in files.values())))


if __name__ == "__main__":
    main()
