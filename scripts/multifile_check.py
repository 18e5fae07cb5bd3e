#!/usr/bin/env python3
"""multifile_check.py - a program of several files, linked and predicted whole, vs callgrind.

USAGE:
  scripts/multifile_check.py [--dir examples/multifile] [--machine test/Inputs/icc-machine.yaml]
                             [--opt O2] [--json out.json]

1. compiles every .c file of --dir with the plugin (-O2 -march=native -mno-avx512f:
   valgrind cannot run AVX-512; ICC target "compile"), each writing its .seg.json;
2. links the objects into the program and the SEG files with `segtime link`;
3. `segtime predict PROG.seg.json --function main --level icc` with no -p at all:
   the predicted instruction count of the whole run (the machine file only has to
   have an ICC cost vector for the target; counts do not depend on its costs);
4. runs the program under valgrind --tool=callgrind and sums the instructions
   executed in the program's own functions (those the linked SEG file has; the C
   library's are not predicted: they are the `not costed` calls);
5. prints both and the error (predicted - measured) / measured.
Not a test: prints numbers (instruction counts are deterministic).
"""
import argparse, json, os, re, sys, tempfile

from segtime_common import BUILD, CLANG, PLUGIN, ROOT, SEGTIME, run


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dir", default=os.path.join(ROOT, "examples", "multifile"))
    ap.add_argument("--machine", default=os.path.join(ROOT, "test", "Inputs", "icc-machine.yaml"))
    ap.add_argument("--opt", default="O2")
    ap.add_argument("--json", default="")
    a = ap.parse_args()
    name = os.path.basename(os.path.normpath(a.dir))
    work = os.path.join(BUILD, name)
    os.makedirs(work, exist_ok=True)
    srcs = sorted(f for f in os.listdir(a.dir) if f.endswith(".c"))
    objs, segs = [], []
    for s in srcs:
        base = os.path.join(work, s[:-2])
        run([CLANG, "-" + a.opt, "-march=native", "-mno-avx512f", "-fplugin=" + PLUGIN,
             "-fplugin-arg-segtime-quiet", "-fplugin-arg-segtime-targets=compile",
             "-fplugin-arg-segtime-out=" + base + ".seg.json", "-c", os.path.join(a.dir, s),
             "-o", base + ".o"])
        objs.append(base + ".o")
        segs.append(base + ".seg.json")
    prog = os.path.join(work, name)
    run([CLANG] + objs + ["-o", prog, "-lm"])
    linked = prog + ".seg.json"
    rep = json.loads(run([SEGTIME, "link"] + segs + ["-o", linked, "--json"]).stdout)
    pr = run([SEGTIME, "predict", linked, "--function", "main", "--level", "icc",
              "--machine", a.machine, "--json"], check=False)
    fn = json.loads(pr.stdout)["functions"][0]
    if fn["status"] != "predicted":
        sys.exit("main not predicted: %s" % fn.get("error", ""))
    predicted = fn["levels"]["ICC"]["counts"]["instructions"]
    with open(linked) as f:
        own = {x["name"].split("@")[0] for x in json.load(f)["functions"]}
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "cg.out")
        run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, prog])
        ann = run(["callgrind_annotate", "--threshold=100", out]).stdout
    measured, per = 0, {}
    for line in ann.splitlines():
        m = re.match(r"^\s*([\d,]+)\s+(?:\([^)]*\)\s+)?\S*?:(\w+)\s", line)
        if m and m.group(2) in own:
            n = int(m.group(1).replace(",", ""))
            measured += n
            per[m.group(2)] = per.get(m.group(2), 0) + n
    err = (predicted - measured) / measured * 100
    print("%s: %d files linked, %d calls resolved, unresolved: %s" % (
        name, len(srcs), rep["resolved_calls"], ", ".join(u["callee"] for u in rep["unresolved"])))
    print("  parameters used: %s" % ", ".join("%s=%g [%s]" % (p["name"], p["value"], p["source"])
                                               for p in fn["parameters"]))
    print("  ICC instructions, whole run (main, no -p): predicted %d, callgrind %d (own functions: %s): "
          "%+.2f %%" % (predicted, measured, ", ".join("%s %d" % kv for kv in sorted(per.items())), err))
    fn.setdefault("costed", {"nodes": 0, "not_costed": 0, "no_seg": []})
    print("  costed: %d of %d SEG nodes; no SEG: %s" % (
        fn["costed"]["nodes"] - fn["costed"]["not_costed"], fn["costed"]["nodes"],
        ", ".join(fn["costed"]["no_seg"])))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"program": name, "files": srcs, "predicted_instructions": predicted,
                       "callgrind_instructions": measured, "per_function": per, "error_pct": err,
                       "link": rep, "parameters": fn["parameters"],
                       "bound_parameters": fn.get("bound_parameters", []), "costed": fn["costed"]},
                      f, indent=2)


if __name__ == "__main__":
    main()
