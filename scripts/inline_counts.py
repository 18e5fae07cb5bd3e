#!/usr/bin/env python3
"""inline_counts.py - ICC instruction counts of inlined and not-inlined kernels.

USAGE:
  scripts/inline_counts.py --machine costvectors/local.yaml [--only dot,gemv]
                           [--json build/inline_counts.json]

For every kernel of examples/*.c and validation/*.c, two compiles at -O2
-march=native -mno-avx512f with the plugin (ICC target "compile"):
  - not inlined: the file as it is (the kernel is noinline, weak);
  - inlined: the same file with the kernel `static inline` and always
    inlined into main (segtime_bench.h's SEGTIME_KERNEL redefined), so that
    the kernel has no code of its own and its IR level comes from the code
    of its inlined calls.
In the inlined copy the program's default sizes (`argc > K ? atoi(argv[K]) :
DEFAULT`, `vs_arg(argc, argv, K, DEFAULT)`, in the file and in the copy of
valset.h it includes, whose vs_gemm_main reads m, n, k) are the small sizes:
the optimiser specialises the inlined code to the value main passes when
argc is 1 (a constant it can see), and the IR level of an inlined call is
that code as its caller has it (docs/cli.md "Inlined functions").
Both are run at the small size of validate.py under valgrind --tool=callgrind
with 1 and 3 timed repetitions; the difference / 2 of the instructions
executed in the file's own functions (not inlined: without main and the
harness's segtime_*; inlined: with main, where the kernel now is) is the
exact count of one kernel call. The ICC instruction count that `segtime
predict --function KERNEL` gives for the same parameters (no -p beyond the
kernel's own) is compared with it, for both compiles, and the two
predictions with each other. A kernel inlined at several call sites (the
harness's warm-up call, the timed calls, a checksum call) is predicted per
site (--json "inlined_sites"): the site inside a loop of main is the timed
one (with several, the one at the line of the SEGTIME_BENCH* macro: a
driver's loop inlined into main holds the others), taken even if another
site needs a value. The inlined callgrind count includes main's harness
around each call (timer reads, sample stores); "err less harness" is the
error against it less main's own instructions per call in the not-inlined
compile (an estimate of that harness: it also has the call). A predict
that takes over PREDICT_TIMEOUT_S is reported as such. Prints a table and
how many kernels are predicted and within 1 % and 2 %; not a test.
"""
import argparse, json, os, re, subprocess, sys, tempfile

from segtime_common import (BUILD, CLANG, PLUGIN, ROOT, SEGTIME,
                            load_seg, measured, pct, run)
from validate import FLAGS, SMALL, extra_for

KERNEL_MACRO = "#define SEGTIME_KERNEL __attribute__((noinline, weak))"
INLINED_MACRO = "#define SEGTIME_KERNEL static inline __attribute__((always_inline))"


def small_defaults(text, small):
    """text with the defaults of argv[K] (atoi/strtol/strtod, vs_arg) set to small[K-1]."""
    def arg(k, default):
        k = int(k)
        return small[k - 1] if 0 < k <= len(small) else default
    text = re.sub(r"(argc > (\d+) \? \w+\(argv\[\2\][^)]*\) : )([^;]+);",
                  lambda m: m.group(1) + arg(m.group(2), m.group(3)) + ";", text)
    return re.sub(r"vs_arg\(argc, argv, (\d+), ([^)]+)\)",
                  lambda m: "vs_arg(argc, argv, %s, %s)" % (m.group(1), arg(m.group(1), m.group(2))),
                  text)


def callgrind_by_function(binary, args, reps):
    """Instructions executed per function of binary (run with args and
    SEGTIME_REPS=reps) under valgrind --tool=callgrind: {name: count}."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "cg.out")
        run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, binary] + list(args),
            env=dict(os.environ, SEGTIME_REPS=str(reps)))
        ann = run(["callgrind_annotate", "--threshold=100", out]).stdout
    counts = {}
    for line in ann.splitlines():
        m = re.match(r"^\s*([\d,]+)\s+(?:\([^)]*\)\s+)?\S*?:(\w+)\s", line)
        if m:
            counts[m.group(2)] = counts.get(m.group(2), 0) + int(m.group(1).replace(",", ""))
    return counts


def compile_kernel(src, base):
    run([CLANG] + FLAGS + ["-fplugin=" + PLUGIN, "-fplugin-arg-segtime-quiet",
                           "-fplugin-arg-segtime-targets=compile", "-fplugin-arg-segtime-inlined",
                           "-fplugin-arg-segtime-out=" + base + ".seg.json",
                           "-c", src, "-o", base + ".o"])
    run([CLANG, base + ".o", "-o", base, "-lm"])
    return load_seg(base + ".seg.json")


# predict must stay fast: one that takes longer is reported, not waited for
PREDICT_TIMEOUT_S = 120


def bench_lines(path):
    """Lines of path where a SEGTIME_BENCH* harness macro is invoked."""
    with open(path) as f:
        return {k + 1 for k, line in enumerate(f) if re.search(r"\bSEGTIME_BENCH\w*\(", line)}


def predicted_instructions(seg_path, kernel, params, extra, machine, timed_lines):
    cmd = [SEGTIME, "predict", seg_path, "--machine", machine, "--function", kernel, "--level",
           "icc", "--json"]
    for k, v in params.items():
        cmd += ["-p", "%s=%s" % (k, v)]
    try:
        r = run(cmd + extra, check=False, timeout=PREDICT_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return None, "predict took over %d s" % PREDICT_TIMEOUT_S
    try:
        f = json.loads(r.stdout)["functions"][0]
    except (ValueError, KeyError, IndexError):
        f = {}
    failed = (r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "failed")
    sites = f.get("inlined_sites", [])
    if sites:
        # the timed call: the site in a loop of main at the harness macro's
        # line (a driver's loop inlined into main holds other sites); its
        # figures stand even if another site needs a value (the sum fails)
        timed = [x for x in sites if x.get("caller_loops", 0) > 0]
        if len(timed) > 1:
            timed = [x for x in timed
                     if int(x.get("where", "").rsplit(":", 2)[-2] or 0) in timed_lines]
        if len(timed) != 1:
            return None, "%d inlined call sites, %d in a loop" % (len(sites), len(timed))
        icc = [v for k, v in timed[0]["levels"].items() if k.startswith("ICC")]
        if not icc:
            return None, "site %d: %s" % (timed[0]["site"], failed)
        return icc[0].get("instructions"), "site %d" % timed[0]["site"]
    if r.returncode != 0:
        return None, failed
    return f["levels"]["ICC"]["counts"].get("instructions"), ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--machine", required=True,
                    help="a machine file with this machine's ICC target (counts do not depend on it)")
    ap.add_argument("--only", default="")
    ap.add_argument("--json", default="")
    a = ap.parse_args()
    with open(os.path.join(ROOT, "examples", "segtime_bench.h")) as f:
        header = f.read()
    if KERNEL_MACRO not in header:
        sys.exit("examples/segtime_bench.h: no '%s' to redefine" % KERNEL_MACRO)
    work = os.path.join(BUILD, "inline-counts")
    os.makedirs(os.path.join(work, "examples"), exist_ok=True)
    os.makedirs(os.path.join(work, "validation"), exist_ok=True)
    with open(os.path.join(work, "examples", "segtime_bench.h"), "w") as f:
        f.write(header.replace(KERNEL_MACRO, INLINED_MACRO))
    with open(os.path.join(ROOT, "validation", "valset.h")) as f:
        valset = f.read()
    rows = []
    for folder in ("examples", "validation"):
        for name in sorted(n[:-2] for n in os.listdir(os.path.join(ROOT, folder)) if n.endswith(".c")):
            if (a.only and name not in a.only.split(",")) or name not in SMALL:
                continue
            print("== %s/%s" % (folder, name), file=sys.stderr, flush=True)
            src = os.path.join(ROOT, folder, name + ".c")
            inl_src = os.path.join(work, folder, name + ".c")
            with open(src) as f:
                text = f.read()
            with open(inl_src, "w") as f:
                f.write(small_defaults(text, SMALL[name]))
            # valset.h's harness mains read the sizes too (vs_gemm_main:
            # vs_arg(argc, argv, 1, def), ...): the same small defaults
            with open(os.path.join(work, "validation", "valset.h"), "w") as f:
                f.write(small_defaults(valset, SMALL[name]))
            row = {"kernel": name}
            for kind, path in (("not_inlined", src), ("inlined", inl_src)):
                base = os.path.join(work, "%s-%s" % (name, kind))
                seg = compile_kernel(path, base)
                m = measured(run([base] + SMALL[name], env=dict(os.environ, SEGTIME_REPS="1")).stdout)
                kernel = m["function"]
                funcs = {f["name"] for f in seg["functions"]
                         if not f["name"].startswith("segtime_")
                         and (kind == "inlined" or f["name"] != "main")}
                i1 = callgrind_by_function(base, SMALL[name], 1)
                i3 = callgrind_by_function(base, SMALL[name], 3)
                per_call = sum(i3.get(f, 0) - i1.get(f, 0) for f in funcs) / 2.0
                if kind == "not_inlined":
                    # main's own instructions per timed call: the harness's
                    # loop around the call (timer reads, sample stores) and
                    # the call itself
                    harness = (i3.get("main", 0) - i1.get("main", 0)) / 2.0
                try:
                    extra = extra_for(name, seg, m["params"])
                except (SystemExit, Exception):
                    # the inlined kernel's parameters are made when its level is
                    # (predict): the not-inlined compile's names
                    extra = row["not_inlined"]["extra"]
                pred, err = predicted_instructions(base + ".seg.json", kernel, m["params"], extra,
                                                   a.machine, bench_lines(path))
                has_own = any(f["name"] == kernel and ("IR" in f.get("level_segs", {})
                                                       or f.get("inlined_at"))
                              for f in seg["functions"])
                row[kind] = {"function": kernel, "params": m["params"], "callgrind": per_call,
                             "predicted": pred, "error": err, "ir_level": has_own,
                             "error_pct": pct(pred, per_call) if pred else None, "extra": extra}
                if kind == "inlined":
                    # the harness's share of main, measured in the not-inlined
                    # compile (estimated: the inlined harness has no call)
                    row[kind]["harness"] = harness
                    row[kind]["error_pct_less_harness"] = (pct(pred, per_call - harness)
                                                           if pred else None)
            rows.append(row)
            print("   %s: callgrind %.0f / %.0f, ICC %s / %s (%s)" % (
                name, row["not_inlined"]["callgrind"], row["inlined"]["callgrind"],
                row["not_inlined"]["predicted"], row["inlined"]["predicted"],
                row["inlined"]["error"]), file=sys.stderr, flush=True)
    print("| kernel | callgrind (not inlined) | ICC | err | callgrind (inlined) | ICC | err "
          "| err less harness | ICC inlined vs not |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        n, i = r["not_inlined"], r["inlined"]
        def cell(x):
            if x["predicted"] is None:
                return ["%.0f" % x["callgrind"], "- (%s)" % x["error"][:60], "-"]
            return ["%.0f" % x["callgrind"], "%.0f" % x["predicted"], "%+.2f %%" % x["error_pct"]]
        both = ("%+.2f %%" % pct(i["predicted"], n["predicted"])
                if i["predicted"] and n["predicted"] else "-")
        less = ("%+.2f %%" % i["error_pct_less_harness"]
                if i.get("error_pct_less_harness") is not None else "-")
        print("| " + " | ".join([r["kernel"]] + cell(n) + cell(i) + [less, both]) + " |")
    for key, label in (("error_pct", "inlined"), ("error_pct_less_harness", "inlined, less harness")):
        errs = [r["inlined"].get(key) for r in rows]
        print("\n%s: predicted %d of %d, within 1 %%: %d, within 2 %%: %d" % (
            label, sum(e is not None for e in errs), len(rows),
            sum(e is not None and abs(e) <= 1 for e in errs),
            sum(e is not None and abs(e) <= 2 for e in errs)))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
