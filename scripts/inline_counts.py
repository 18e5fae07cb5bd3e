#!/usr/bin/env python3
"""inline_counts.py - ICC instruction counts of inlined and not-inlined kernels.

USAGE:
  scripts/inline_counts.py --machine costvectors/local.yaml [--only dot,gemv]
                           [--profile [--late]] [--json build/inline_counts.json]

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
site needs a value. In the inlined compile the kernel runs in main beside
main's harness (timer reads, sample stores): its count is that of the
kernel's own code in main, on a copy compiled with -gline-tables-only (the
same code, checked) run under callgrind --dump-instr=yes: the basic blocks
whose instructions have more of the source lines of the kernel and of the
functions it calls than other lines (kernel_own_count); the rest of main per
call is reported as "main's harness". A predict that takes over
PREDICT_TIMEOUT_S is reported as such. With --profile each compile is also
built instrumented (-fplugin-arg-segtime-instrument), run once at the small
size, and predicted with `segtime predict --profile` (its measured loop
counts and branch outcomes replace the values extra_for gives); with --late
also built with instrument=late (the optimised code's counts, docs/ct-json.md)
and predicted with both profiles, the late one after the source one, from an
analysis compile with -fplugin-arg-segtime-ir-copies: each copy of an
optimised branch its own measured rate (build folder inline-counts-late).
Prints a table and
how many kernels are predicted and within 1 % and 2 %; not a test.
"""
import argparse, json, os, re, subprocess, sys, tempfile

from segtime_common import (BUILD, CLANG, PLUGIN, ROOT, SEGTIME, without_profiled,
                            load_seg, measured, pct, profile_args, run)
from validate import FLAGS, RT, SMALL, extra_for

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


def callgrind_by_instruction(binary, args, reps):
    """Instructions executed per instruction of binary (run with args and
    SEGTIME_REPS=reps) under valgrind --tool=callgrind --dump-instr=yes:
    {function: {address: (source file, line, count)}} (parse_callgrind_instr)."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "cg.out")
        run(["valgrind", "--tool=callgrind", "--dump-instr=yes", "--callgrind-out-file=" + out,
             binary] + list(args), env=dict(os.environ, SEGTIME_REPS=str(reps)))
        with open(out) as f:
            return parse_callgrind_instr(f.read())


def block_starts(binary):
    """Addresses that start a basic block in binary's code: jump targets and
    the instructions after a jump or return (objdump -d)."""
    starts, after = set(), False
    for line in run(["objdump", "-d", "--no-show-raw-insn", binary]).stdout.splitlines():
        m = re.match(r"^\s*([0-9a-f]+):\s+(\S+)\s*(\S*)", line)
        if not m:
            continue
        addr, op = int(m.group(1), 16), m.group(2)
        if after:
            starts.add(addr)
        after = op.startswith("j") or op.startswith("ret")
        t = re.match(r"^([0-9a-f]+)$", m.group(3))
        if op.startswith("j") and t:
            starts.add(int(t.group(1), 16))
    return starts


def parse_callgrind_instr(text):
    """A callgrind output file of --dump-instr=yes (positions "instr line")
    as {function: {address: (source file, line, self count)}}; the costs of
    calls (the line after "calls=") are left out: they are the callee's."""
    names = {}
    kinds = {"fl": "fl", "fi": "fl", "fe": "fl", "cfi": "fl", "cfl": "fl",
             "fn": "fn", "cfn": "fn", "ob": "ob", "cob": "ob"}
    out = {}
    fl = cur = fn = None
    pos = [0, 0]
    skip = False
    for s in text.splitlines():
        m = re.match(r"^(\w+)=(.*)$", s)
        if m:
            key, value = m.groups()
            if key in kinds:
                c = re.match(r"\((\d+)\)(?:\s+(.*))?$", value)
                if c:
                    if c.group(2) is not None:
                        names[(kinds[key], c.group(1))] = c.group(2)
                    value = names.get((kinds[key], c.group(1)), "?")
                if key == "fl":
                    fl = cur = value
                elif key in ("fi", "fe"):
                    cur = value
                elif key == "fn":
                    fn, cur = value, fl
            elif key == "calls":
                skip = True
            continue
        if not s or not (s[0].isdigit() or s[0] in "+-*"):
            continue
        parts = s.split()
        if len(parts) < 2:
            continue
        for k in (0, 1):
            t = parts[k]
            if t == "*":
                continue
            rel = t[0] in "+-"
            v = int(t[1:] if rel else t, 0)
            pos[k] = pos[k] + (v if t[0] == "+" else -v) if rel else v
        if skip:
            skip = False
            continue
        n = int(parts[2]) if len(parts) > 2 else 0
        path, line, old = out.setdefault(fn, {}).get(pos[0], (cur, pos[1], 0))
        out[fn][pos[0]] = (cur, pos[1], old + n)
    return out


def kernel_lines(seg, kernel):
    """{(file name, line)} of the source of kernel and of the functions of
    seg it calls, directly or not (by the function ranges of seg: a compile
    where they are functions of their own)."""
    funcs = {f["name"]: f for f in seg["functions"]}
    todo, seen, lines = [kernel], set(), set()
    def callees(x):
        if isinstance(x, dict):
            if x.get("callee") in funcs:
                todo.append(x["callee"])
            for v in x.values():
                callees(v)
        elif isinstance(x, list):
            for v in x:
                callees(v)
    while todo:
        name = todo.pop()
        if name in seen or name not in funcs or name == "main":
            continue
        seen.add(name)
        f = funcs[name]
        r = f.get("range") or {}
        if r.get("line"):
            base = os.path.basename(r.get("file", ""))
            lines |= {(base, k) for k in range(r["line"], r.get("end_line", r["line"]) + 1)}
        callees(f.get("seg", []))
    return lines


def text_section(obj):
    """The bytes of obj's .text section."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "text.bin")
        run(["objcopy", "-O", "binary", "--only-section=.text", obj, out])
        with open(out, "rb") as f:
            return f.read()


def kernel_own_count(src, base, args, funcs, lines):
    """Instructions per kernel call executed in the kernel's code in the
    functions funcs of the program base, counted on a copy compiled with
    line tables (-gline-tables-only) whose code is the same as base.o's.
    The kernel's code: the basic blocks (objdump's jumps) more of whose
    instructions have one of lines (kernel_lines) than another source line
    (an instruction the optimiser merged with one of main's keeps main's
    line, as the kernel's n > 0 test merged with main's loop's); a block
    with as many (none: code of no statement, line 0) goes with the block
    before it in the code. Returns (count, harness, ""), harness the
    rest of funcs' instructions per call (main's timer reads, sample
    stores), or (None, None, why)."""
    dbg = base + "-g"
    run([CLANG] + FLAGS + ["-gline-tables-only", "-fplugin=" + PLUGIN, "-fplugin-arg-segtime-quiet",
                           "-fplugin-arg-segtime-targets=compile", "-fplugin-arg-segtime-inlined",
                           "-fplugin-arg-segtime-out=" + dbg + ".seg.json",
                           "-c", src, "-o", dbg + ".o"])
    if text_section(dbg + ".o") != text_section(base + ".o"):
        return None, None, "the compile with line tables has other code"
    run([CLANG, dbg + ".o", "-o", dbg, "-lm"])
    c1 = callgrind_by_instruction(dbg, args, 1)
    c3 = callgrind_by_instruction(dbg, args, 3)
    starts = block_starts(dbg)
    own = other = 0.0
    for fn in funcs:
        rows1, rows3 = c1.get(fn, {}), c3.get(fn, {})
        addrs = sorted(set(rows1) | set(rows3))
        blocks, kernels = [], False
        for a in addrs:
            if not blocks or a in starts:
                blocks.append([])
            blocks[-1].append(a)
        for b in blocks:
            at = [rows3.get(a) or rows1.get(a) for a in b]
            mine = sum(1 for path, line, _ in at if line and (os.path.basename(path or ""), line) in lines)
            others = sum(1 for path, line, _ in at if line and (os.path.basename(path or ""), line) not in lines)
            d = sum(rows3.get(a, (0, 0, 0))[2] - rows1.get(a, (0, 0, 0))[2] for a in b) / 2.0
            kernels = mine > others if mine != others else kernels
            if kernels:
                own += d
            else:
                other += d
    return own, other, ""


def profile_of(src, base, args, late=False):
    """The CT profile (.ct.json) of src compiled instrumented like base
    (-fplugin-arg-segtime-instrument, the runtime library) and run once
    with args: its path; with late, the list of it and the profile of the
    build instrumented with instrument=late, run the same way."""
    out = []
    for kind, arg in (("-ct", "instrument"), ("-late", "instrument=late"))[:2 if late else 1]:
        ct = base + kind
        run([CLANG] + FLAGS + ["-fplugin=" + PLUGIN, "-fplugin-arg-segtime-quiet",
                               "-fplugin-arg-segtime-" + arg, "-fplugin-arg-segtime-out=" + ct + ".seg.json",
                               src, RT, "-o", ct, "-lm"])
        run([ct] + list(args), env=dict(os.environ, SEGTIME_REPS="1", SEGTIME_CT_FILE=ct + ".ct.json"))
        out.append(ct + ".ct.json")
    return out if late else out[0]


def compile_kernel(src, base, plugin_args=()):
    run([CLANG] + FLAGS + list(plugin_args) + ["-fplugin=" + PLUGIN, "-fplugin-arg-segtime-quiet",
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


def predicted_instructions(seg_path, kernel, params, extra, machine, timed_lines, profile=None):
    """The ICC instruction count of one call of kernel (the timed site if it
    is inlined at several) and "" or the site, or (None, why). With profile
    (a .ct.json, or a list of them: a later one's value wins) the profile's
    values replace those of extra."""
    cmd = [SEGTIME, "predict", seg_path, "--machine", machine, "--function", kernel, "--level",
           "icc", "--json"] + profile_args(profile)
    for k, v in params.items():
        cmd += ["-p", "%s=%s" % (k, v)]
    try:
        r = run(cmd + extra, check=False, timeout=PREDICT_TIMEOUT_S)
        if profile and without_profiled(extra, r.stderr) != extra:
            r = run(cmd + without_profiled(extra, r.stderr), check=False,
                    timeout=PREDICT_TIMEOUT_S)
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


def print_table(rows, profile):
    """The table of rows (main's) and how many kernels are within 1 % and
    2 %, statically and (profile) with the CT profile, inlined and not."""
    head = ["kernel", "callgrind (not inlined)", "ICC", "err"]
    head += ["ICC profile", "err"] if profile else []
    head += ["callgrind (inlined, kernel's lines)", "main's harness", "ICC", "err"]
    head += ["ICC profile", "err"] if profile else []
    print("| " + " | ".join(head + ["ICC inlined vs not", "callgrind inlined vs not"]) + " |")
    print("|" + "---|" * (len(head) + 2))
    def cell(x, key="predicted", err="error_pct", why="error"):
        if x.get(key) is None:
            return ["- (%s)" % (x.get(why) or "")[:60], "-"]
        return ["%.0f" % x[key], "%+.2f %%" % x[err]]
    for r in rows:
        n, i = r["not_inlined"], r["inlined"]
        line = [r["kernel"], "%.0f" % n["callgrind"]] + cell(n)
        if profile:
            line += cell(n, "predicted_profile", "error_pct_profile", "error_profile")
        line += ["%.0f" % i["callgrind"],
                 "%.0f" % i["harness"] if i.get("harness") is not None
                 else "- (%s)" % i.get("own_error", "")] + cell(i)
        if profile:
            line += cell(i, "predicted_profile", "error_pct_profile", "error_profile")
        line.append("%+.2f %%" % pct(i["predicted"], n["predicted"])
                    if i["predicted"] and n["predicted"] else "-")
        line.append("%+.2f %%" % pct(i["callgrind"], n["callgrind"]))
        print("| " + " | ".join(line) + " |")
    print()
    for kind in ("not_inlined", "inlined"):
        for key, label in (("error_pct", "static"), ("error_pct_profile", "CT profile")):
            if key == "error_pct_profile" and not profile:
                continue
            errs = [r[kind].get(key) for r in rows]
            print("%s, %s: predicted %d of %d, within 1 %%: %d, within 2 %%: %d" % (
                kind.replace("_", " "), label, sum(e is not None for e in errs), len(rows),
                sum(e is not None and abs(e) <= 1 for e in errs),
                sum(e is not None and abs(e) <= 2 for e in errs)))
    both = [pct(r["inlined"]["predicted"], r["not_inlined"]["predicted"]) for r in rows
            if r["inlined"]["predicted"] and r["not_inlined"]["predicted"]]
    same = [r for r in rows if abs(pct(r["inlined"]["callgrind"], r["not_inlined"]["callgrind"])) <= 1]
    print("ICC inlined vs not inlined: %d of %d within 1 %% (callgrind: %d; of those %d, ICC %d)" % (
        sum(abs(e) <= 1 for e in both), len(rows), len(same), len(same),
        sum(1 for r in same if r["inlined"]["predicted"] and r["not_inlined"]["predicted"]
            and abs(pct(r["inlined"]["predicted"], r["not_inlined"]["predicted"])) <= 1)))
    # Where the two compiles are different code, the predictions should
    # differ as callgrind's counts do: the ratio inlined / not inlined of the
    # predictions against callgrind's ratio.
    for key, label in (("predicted", "static"), ("predicted_profile", "CT profile")):
        if key == "predicted_profile" and not profile:
            continue
        devs = [pct(r["inlined"][key] / r["not_inlined"][key],
                    r["inlined"]["callgrind"] / r["not_inlined"]["callgrind"])
                for r in rows if r["inlined"].get(key) and r["not_inlined"].get(key)]
        if devs:
            print("ICC ratio inlined / not inlined against callgrind's, %s: %d of %d within 1 %%, "
                  "max %.2f %%" % (label, sum(abs(e) <= 1 for e in devs), len(rows),
                                   max(abs(e) for e in devs)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--machine", required=True,
                    help="a machine file with this machine's ICC target (counts do not depend on it)")
    ap.add_argument("--only", default="")
    ap.add_argument("--json", default="")
    ap.add_argument("--profile", action="store_true",
                    help="also predict with the CT profile of an instrumented run of each compile")
    ap.add_argument("--late", action="store_true",
                    help="with --profile: also the instrument=late profile; each optimised branch "
                         "copy (ir-copies) its own measured rate")
    a = ap.parse_args()
    if a.late and not a.profile:
        ap.error("--late goes with --profile")
    with open(os.path.join(ROOT, "examples", "segtime_bench.h")) as f:
        header = f.read()
    if KERNEL_MACRO not in header:
        sys.exit("examples/segtime_bench.h: no '%s' to redefine" % KERNEL_MACRO)
    work = os.path.join(BUILD, "inline-counts-late" if a.late else "inline-counts")
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
                seg = compile_kernel(path, base,
                                     ["-fplugin-arg-segtime-ir-copies"] if a.late else [])
                m = measured(run([base] + SMALL[name], env=dict(os.environ, SEGTIME_REPS="1")).stdout)
                kernel = m["function"]
                funcs = {f["name"] for f in seg["functions"]
                         if not f["name"].startswith("segtime_")
                         and (kind == "inlined" or f["name"] != "main")}
                i1 = callgrind_by_function(base, SMALL[name], 1)
                i3 = callgrind_by_function(base, SMALL[name], 3)
                per_call = sum(i3.get(f, 0) - i1.get(f, 0) for f in funcs) / 2.0
                whole = per_call
                if kind == "not_inlined":
                    lines = kernel_lines(seg, kernel)
                    harness, why = None, ""
                else:
                    # the kernel's own instructions in main: those at its
                    # source lines (and its callees'), not main's harness
                    own, harness, why = kernel_own_count(path, base, SMALL[name], funcs, lines)
                    if own is not None:
                        per_call = own
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
                    # the whole count of main (with the harness), and the
                    # harness: main's instructions at other lines than the
                    # kernel's (None: not counted by line, see "own_error")
                    row[kind].update({"callgrind_with_harness": whole, "harness": harness,
                                      "own_error": why})
                if a.profile:
                    ct = profile_of(path, base, SMALL[name], a.late)
                    pp, perr = predicted_instructions(base + ".seg.json", kernel, m["params"], extra,
                                                      a.machine, bench_lines(path), ct)
                    row[kind].update({"profile": ct, "predicted_profile": pp, "error_profile": perr,
                                      "error_pct_profile": pct(pp, per_call) if pp else None})
            rows.append(row)
            print("   %s: callgrind %.0f / %.0f, ICC %s / %s (%s)" % (
                name, row["not_inlined"]["callgrind"], row["inlined"]["callgrind"],
                row["not_inlined"]["predicted"], row["inlined"]["predicted"],
                row["inlined"]["error"]), file=sys.stderr, flush=True)
    print_table(rows, a.profile)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
