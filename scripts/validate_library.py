#!/usr/bin/env python3
"""validate_library.py - library calls: predicted vs measured time per call.

For each function of the machine file's `library` section (docs/models.md
"Library calls"), at three sizes for the sized ones: a one-call C function
(bench_<case>) is compiled at -O2 with the plugin and predicted with
`segtime predict --json` (its `library_s`: the library term), and the same
compiled code is timed by a driver (--stat, default the minimum, and the
spread (max - min)/statistic of --reps samples of >= 2 ms each).
memcpy, memmove, memset and the libm functions are constructs at the source
levels: their prediction is INTCC's library term, from the calls left in
the optimised code (marked "IR"); the others' is the source's (POC, "SEG");
sqrt, which the compiler makes an instruction, is compared with the
section's entry itself ("section"). Allocation cases pair the call with its
free (malloc+free, ...), as calibrate times them, at sizes below and above
glibc's mmap threshold (128 KiB).

--unknowns: the Unknown nodes of main in each example (examples/*.c) with
this build's plugin (SEGTIME_PLUGIN=... for another build), by reason, at
the source level and in the IR-level SEG (after "IR:").

Usage:
  scripts/validate_library.py --machine costvectors/local.yaml [--reps 7] [--json]
  scripts/validate_library.py --unknowns
"""
import argparse, collections, json, os, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from segtime_common import CLANG, PLUGIN, ROOT, SEGTIME, example_names, load_seg, median, run

# case: (functions costed, C body of bench_<case>(long n), sizes or None)
ALLOC = [16, 2048, 262144]
BYTES = [16, 1024, 16384]
CASES = collections.OrderedDict([
    ("malloc", ("malloc+free", "void *p = malloc(n); sink_p = p; free(p);", ALLOC)),
    ("calloc", ("calloc+free", "void *p = calloc(1, n); sink_p = p; free(p);", ALLOC)),
    ("realloc", ("malloc(n/2)+realloc+free",
                 "void *p = malloc(n / 2); p = realloc(p, n); sink_p = p; free(p);", ALLOC)),
    ("free", ("malloc(64)+free", "void *p = malloc(64); sink_p = p; free(p);", None)),
    ("memcpy", ("memcpy", "memcpy(bufb, bufa, n);", BYTES)),
    ("memmove", ("memmove", "memmove(bufb + 1, bufb, n);", BYTES)),
    ("memset", ("memset", "memset(bufb, 1, n);", BYTES)),
    ("memcmp", ("memcmp", "sink_i += memcmp(bufa, bufc, n);", BYTES)),
    ("strlen", ("strlen", "sink_i += strlen(str);", BYTES)),
    ("strcmp", ("strcmp", "sink_i += strcmp(str, str2);", BYTES)),
    ("strcpy", ("strcpy", "strcpy(bufb, str);", BYTES)),
    ("snprintf", ("snprintf", "sink_i += snprintf(out, 64, \"%.15g\", x);", None)),
    ("sin", ("sin", "sink_d += sin(x);", None)),
    ("cos", ("cos", "sink_d += cos(x);", None)),
    ("exp", ("exp", "sink_d += exp(x);", None)),
    ("log", ("log", "sink_d += log(x);", None)),
    ("sqrt", ("sqrt", "sink_d += sqrt(x);", None)),
    ("pow", ("pow", "sink_d += pow(x, 1.7);", None)),
    ("clock_gettime", ("clock_gettime", "clock_gettime(CLOCK_MONOTONIC, &ts); sink_i += ts.tv_nsec;", None)),
    ("gettimeofday", ("gettimeofday", "gettimeofday(&tv, 0); sink_i += tv.tv_usec;", None)),
])
IR_ONLY = {"memcpy", "memmove", "memset", "sin", "cos", "exp", "log", "pow"}
SECTION_ONLY = {"sqrt"}

HEAD = r"""#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
char bufa[65536], bufb[65536], bufc[65536], str[65536], str2[65536], out[64];
volatile void *sink_p; volatile long sink_i; volatile double sink_d;
double x = 1.2345;
struct timespec ts; struct timeval tv;
"""

DRIVER = r"""
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
typedef void (*fn)(long);
%s
int main(int argc, char **argv) {
  long n = atol(argv[2]); int reps = atoi(argv[3]); fn f = 0;
  for (int i = 0; names[i]; i++) if (!strcmp(names[i], argv[1])) f = fns[i];
  if (!f) return 2;
  memset(bufa, 'a', sizeof bufa); memset(bufc, 'a', sizeof bufc);
  if (n < 65536) { memset(str, 'a', n); memset(str2, 'a', n); }
  long r = 1;
  for (;; r *= 2) { double t0 = now(); for (long i = 0; i < r; i++) f(n); if (now() - t0 > 2e-3) break; }
  for (int k = 0; k < reps; k++) {
    double t0 = now();
    for (long i = 0; i < r; i++) { f(n); x += 1e-9; }
    printf("%%.6e\n", (now() - t0) / r);
  }
  return 0;
}
"""


def bench_source():
    fns = ""
    for case, (_, body, _) in CASES.items():
        fns += "__attribute__((noinline)) void bench_%s(long n) { %s }\n" % (case, body)
    table = "static const char *names[] = {%s, 0};\nstatic fn fns[] = {%s};" % (
        ", ".join('"%s"' % c for c in CASES), ", ".join("bench_" + c for c in CASES))
    return HEAD + fns, table


def section_cost(machine, name, n):
    import yaml
    lib = (yaml.safe_load(open(machine)) or {}).get("library", {}).get(name)
    if not lib:
        return None
    return lib["per_call"]["value"] + (lib["per_B"]["value"] * n if "per_B" in lib else 0)


def predicted(seg, machine, case, n, params, level="POC"):
    args = [SEGTIME, "predict", seg, "--machine", machine, "--function", "bench_" + case,
            "--level", level.lower(), "--json"]
    for p in params.get("bench_" + case, []):
        args += ["-p", "%s=%d" % (p, n)]
    if n and not params.get("bench_" + case):
        args += ["-p", "n=%d" % n]
    r = run(args, check=False)
    if r.returncode not in (0, 1):
        sys.exit("predict failed for %s:\n%s" % (case, r.stderr))
    j = json.loads(r.stdout)
    f = j["functions"][0]
    return f["levels"][level].get("library_s"), f.get("unresolved", [])


def validate(a):
    tmp = tempfile.mkdtemp(prefix="segtime-lib-")
    src, table = bench_source()
    kernel, driver = os.path.join(tmp, "bench.c"), os.path.join(tmp, "driver.c")
    open(kernel, "w").write(src)
    open(driver, "w").write(HEAD.split("char bufa")[0] +
                            "extern char bufa[65536], bufc[65536], str[65536], str2[65536]; extern double x;\n" +
                            "".join("void bench_%s(long);\n" % c for c in CASES) + DRIVER % table)
    seg = os.path.join(tmp, "bench.seg.json")
    run([CLANG, "-O2", "-fplugin=" + PLUGIN, "-fplugin-arg-segtime-quiet",
         "-fplugin-arg-segtime-out=" + seg, "-c", kernel, "-o", os.path.join(tmp, "bench.o")])
    run([CLANG, "-O2", driver, os.path.join(tmp, "bench.o"), "-o", os.path.join(tmp, "bench"), "-lm"])
    params = {f["name"]: [p["name"] for p in f["parameters"] if p["kind"] == "library"]
              for f in load_seg(seg)["functions"]}
    rows = []
    for case, (what, _, sizes) in CASES.items():
        for n in sizes or [0]:
            r = run([os.path.join(tmp, "bench"), case, str(max(n, 1)), str(a.reps)])
            t = [float(v) for v in r.stdout.split()]
            m = min(t) if a.stat == "min" else median(t)
            if case in SECTION_ONLY:
                p, how = section_cost(a.machine, case, n), "section"
            elif case in IR_ONLY:
                p, unres = predicted(seg, a.machine, case, n, params, "INTCC")
                how = "IR"
            else:
                p, unres = predicted(seg, a.machine, case, n, params)
                how = "SEG"
            rows.append({"case": what, "function": case, "size_B": n, "measured_s": m,
                         "spread": (max(t) - min(t)) / m if m > 0 else None, "median_s": median(t),
                         "predicted_s": p, "from": how,
                         "error": (p - m) / m if p is not None and m > 0 else None})
    if a.json:
        print(json.dumps(rows, indent=1))
        return
    print("%-26s %7s %12s %8s %12s %8s  %s" % ("case", "size B", "measured", "spread",
                                                "predicted", "error", "from"))
    for r in rows:
        print("%-26s %7d %10.1f ns %7.0f%% %10s ns %7s  %s" % (
            r["case"], r["size_B"], r["measured_s"] * 1e9, 100 * (r["spread"] or 0),
            "%.1f" % (r["predicted_s"] * 1e9) if r["predicted_s"] is not None else "-",
            "%+.0f%%" % (100 * r["error"]) if r["error"] is not None else "-", r["from"]))
    errs = sorted(abs(r["error"]) for r in rows if r["error"] is not None)
    if errs:
        print("|error|: median %.0f%%, largest %.0f%% over %d points" %
              (100 * median(errs), 100 * errs[-1], len(errs)))


def unknowns(a):
    tmp = tempfile.mkdtemp(prefix="segtime-unk-")
    total = total_ir = 0
    for name in example_names():
        seg = os.path.join(tmp, name + ".seg.json")
        run([CLANG, "-O2", "-fplugin=" + PLUGIN, "-fplugin-arg-segtime-quiet",
             "-fplugin-arg-segtime-out=" + seg, "-c",
             os.path.join(ROOT, "examples", name + ".c"), "-o", os.path.join(tmp, name + ".o")])
        f = next((f for f in load_seg(seg)["functions"] if f["name"] == "main"), None)

        def walk(nodes, reasons):
            for n in nodes:
                if n.get("kind") == "Unknown":
                    reasons[n["reason"].split(" (")[0].replace("call to external function", "no source:")] += 1
                walk(n.get("body", []), reasons)
                for arm in n.get("arms", []):
                    walk(arm["body"], reasons)
            return reasons
        src = walk(f["seg"] if f else [], collections.Counter())
        ir = walk((f or {}).get("level_segs", {}).get("IR", []), collections.Counter())
        total += sum(src.values())
        total_ir += sum(ir.values())
        print("%-10s %3d  %s\n%10s %3d  %s" % (
            name, sum(src.values()), "; ".join("%s x%d" % kv for kv in sorted(src.items())),
            "IR:", sum(ir.values()), "; ".join("%s x%d" % kv for kv in sorted(ir.items()))))
    print("total Unknown nodes in main: %d (source), %d (IR)" % (total, total_ir))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--machine", help="machine file with a library section")
    p.add_argument("--reps", type=int, default=7)
    p.add_argument("--stat", choices=["min", "median"], default="min",
                   help="statistic of the samples (min, as calibrate: noise only slows calls down)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--unknowns", action="store_true", help="count main's Unknown nodes in the examples")
    a = p.parse_args()
    if a.unknowns:
        return unknowns(a)
    if not a.machine:
        p.error("--machine is required")
    validate(a)


if __name__ == "__main__":
    main()
