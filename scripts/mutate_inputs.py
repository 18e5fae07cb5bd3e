#!/usr/bin/env python3
"""mutate_inputs.py - random malformed inputs for segtime predict's readers.

USAGE:
  scripts/mutate_inputs.py [--build build] [--count 200] [--seed 1] [--timeout 10]

For each reader (machine file, .seg.json, .ct.json, -p values) it writes
--count mutants of a valid test input (test/Inputs/tiny.yaml,
tri.seg.json, compare-tri.ct.json): a value replaced by another type, a
negative, zero, NaN, infinite or huge number, a key deleted or renamed, a
byte flipped, the text cut short, or a list nested deeply; then runs
`segtime predict` on each and counts the outcomes:
  ok      exit 0 or 1 (the mutant is still a valid input)
  error   exit 2 with a message naming the file (or the -p parameter)
  vague   exit 2 without naming it
  crash   a signal or an exit status other than 0, 1, 2
  hang    no answer within --timeout seconds
Prints one line per reader. Deterministic for a given --seed; no timing.
"""
import argparse, json, os, random, shutil, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INPUTS = os.path.join(ROOT, "test", "Inputs")
BAD_VALUES = [-1, -0.48, 0, 1e308, -1e308, "nan", ".nan", ".inf", "-.inf", "x", None, True,
              [], {}, [1, 2], "1e999", 2**64, -2**63, 0.5, "", "n +", "n/0"]


def mutate_json(doc, rnd):
    """Replaces, deletes or renames one member somewhere in doc."""
    paths = []

    def walk(v, path):
        paths.append(path)
        if isinstance(v, dict):
            for k in v:
                walk(v[k], path + [k])
        elif isinstance(v, list):
            for i, x in enumerate(v):
                walk(x, path + [i])

    walk(doc, [])
    path = rnd.choice(paths[1:])
    parent = doc
    for p in path[:-1]:
        parent = parent[p]
    last = path[-1]
    op = rnd.random()
    if op < 0.6:
        v = rnd.choice(BAD_VALUES)
        parent[last] = float(v) if v in ("nan",) else v
    elif op < 0.8 and isinstance(parent, dict):
        del parent[last]
    elif isinstance(parent, dict):
        parent[last + "x"] = parent.pop(last)
    else:
        parent[last] = [[[[[[[[parent[last]]]]]]]]]
    return json.dumps(doc, allow_nan=True)


def mutate_text(text, rnd):
    """A byte flipped, the text cut, or one value replaced (machine files)."""
    op = rnd.random()
    if op < 0.2:
        i = rnd.randrange(len(text))
        return text[:i] + chr(rnd.randrange(1, 127)) + text[i + 1:]
    if op < 0.3:
        return text[:rnd.randrange(len(text))]
    if op < 0.4:
        return text + "\nmemory:\n  a: &a {x: {value: 1, unit: B, provenance: estimated}}\n" + \
            "".join("  l%d: &l%d {p: *%s, q: *%s, r: *%s, s: *%s}\n" %
                    (i, i, "a" if i == 0 else "l%d" % (i - 1), "a" if i == 0 else "l%d" % (i - 1),
                     "a" if i == 0 else "l%d" % (i - 1), "a" if i == 0 else "l%d" % (i - 1))
                    for i in range(30))
    lines = text.split("\n")
    cand = [i for i, l in enumerate(lines) if "value:" in l or "unit:" in l or ":" in l]
    i = rnd.choice(cand)
    v = rnd.choice(["-0.48", "0", ".nan", ".inf", "-.inf", "x", "[1]", "{a: 1}", "1e999", "~", "*nope"])
    key = rnd.choice(["value", "unit", "provenance", "spread"])
    if key + ":" in lines[i]:
        a = lines[i].index(key + ":") + len(key) + 1
        b = lines[i].find(",", a)
        b = lines[i].find("}", a) if b < 0 else b
        lines[i] = lines[i][:a] + " " + v + (lines[i][b:] if b >= 0 else "")
    else:
        lines[i] = lines[i].replace(":", ": " + v + " #", 1) if rnd.random() < 0.5 else "  " + lines[i]
    return "\n".join(lines)


def run(cmd, timeout):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return r.returncode, r.stderr
    except subprocess.TimeoutExpired:
        return None, ""


def classify(rc, err, name):
    if rc is None:
        return "hang"
    if rc in (0, 1):
        return "ok"
    if rc == 2:
        return "error" if name in err else "vague"
    return "crash"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=10)
    a = ap.parse_args()
    seg = os.path.join(a.build, "bin", "segtime")
    rnd = random.Random(a.seed)
    tri = os.path.join(INPUTS, "tri.seg.json")
    tiny = os.path.join(INPUTS, "tiny.yaml")
    ct = os.path.join(INPUTS, "compare-tri.ct.json")
    base = [seg, "predict", "--function", "tri"]
    tmp = tempfile.mkdtemp(prefix="segtime-mutants-")
    results = {}
    bad = []
    for reader in ("machine", "seg", "ct", "values"):
        counts = {"ok": 0, "error": 0, "vague": 0, "crash": 0, "hang": 0}
        for i in range(a.count):
            if reader == "machine":
                path = os.path.join(tmp, "m%d.yaml" % i)
                open(path, "w").write(mutate_text(open(tiny).read(), rnd))
                cmd, name = base + [tri, "--machine", path, "-p", "n=3"], os.path.basename(path)
            elif reader == "seg":
                path = os.path.join(tmp, "s%d.seg.json" % i)
                open(path, "w").write(mutate_json(json.load(open(tri)), rnd))
                cmd, name = base + [path, "--machine", tiny, "-p", "n=3"], os.path.basename(path)
            elif reader == "ct":
                path = os.path.join(tmp, "c%d.ct.json" % i)
                open(path, "w").write(mutate_json(json.load(open(ct)), rnd))
                cmd, name = base + [tri, "--machine", tiny, "--profile", path], os.path.basename(path)
            else:
                p = rnd.choice(["n", "P_pick_9", "N_loopy_15", "p", "rank"])
                v = rnd.choice(["-5", "nan", "inf", "-inf", "1e400", "-0", "1.5", "-1e-300", "0x10",
                                "1e308", "", "3", "0.5"])
                fn = "tri" if p == "n" else "pick" if p.startswith("P_") else "loopy" if p.startswith("N_") else "tri"
                cmd = [seg, "predict", tri, "--machine", os.path.join(ROOT, "costvectors", "t800.yaml"),
                       "--function", fn, "-p", "%s=%s" % (p, v)]
                if fn == "tri" and p != "n":
                    cmd += ["-p", "n=3"]
                name = p
            rc, err = run(cmd, a.timeout)
            k = classify(rc, err, name)
            counts[k] += 1
            if k in ("crash", "hang", "vague"):
                bad.append((reader, k, " ".join(cmd), err.strip()[-300:]))
        results[reader] = counts
        print("%-8s %4d mutants: %4d still valid, %4d clean errors, %d vague, %d crashes, %d hangs" %
              (reader, a.count, counts["ok"], counts["error"], counts["vague"], counts["crash"],
               counts["hang"]))
    shutil.rmtree(tmp, ignore_errors=True)
    seen = set()
    for r in bad:
        if r[3] in seen or len(seen) >= 20:
            continue
        seen.add(r[3])
        print("  %s %s: %s\n    %s" % r)
    return 1 if any(c["crash"] or c["hang"] for c in results.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
