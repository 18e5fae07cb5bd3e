#!/usr/bin/env python3
"""icc_count.py - evaluate an IR-level SEG numerically (dynamic RUV counts).

Sums one RUV entry over the IR-level SEG of one function (functions[].
level_segs.IR of a .seg.json written by the segtime plugin), executing loops
explicitly: Warwick-94 eq. 1 evaluated by walking the graph instead of in
closed form. A Stage contributes ruv[LEVEL][OP] x freq per execution; a Loop
runs its body trip times with its index k_... = 0, 1, ..., trip-1 bound for
the trip and freq expressions inside; a Branch weighs its arms by their
probabilities; Call nodes count nothing (self counts, as callgrind's "self").

Expressions use the syntax of core/Seg.h: + - * / ^ and parentheses, numbers,
names, idiv(a,b) (C truncating division), imod(a,b) (C remainder), umod(a,b) (a mod b in [0,b)), min, max,
ltrip(a,b,c) (iterations of for(i=a;i<b;i*=c)), cmp_eq, cmp_lt, cmp_le (1 if a = b, a < b, a <= b, else 0).

The typical use is the noise-free check of SEG + trip counts + ICC counts
against valgrind (design.md §7): the ICC "instructions" of the target matching
the real compile's CPU, times the dynamic frequencies, against callgrind's
self instruction count of the function (remember the bench harness calls the
kernel reps + 1 times).

USAGE:
  scripts/icc_count.py x.seg.json matmul --key ICC:x86-64 -p n=64
  scripts/icc_count.py x.seg.json jacobi --key ICC:znver5 --op cycles -p n=64 -p steps=4
  scripts/icc_count.py x.seg.json lu --key INTCC --op fadd.f64 -p n=32 --by-node
  --key LEVEL   RUV level key (default ICC:x86-64); --op OP RUV entry
                (default instructions; "all" sums every entry; "executions"
                counts Stage executions, i.e. the dynamic block frequencies)
  -p NAME=VAL   parameter values (function parameters, N_... loop parameters;
                parameters with a default in the SEG file need none)
  --by-node     also print each Stage's total contribution
  --missing-ok  count Stages without the LEVEL RUV as 0 (default: error)
"""
import argparse
import json
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from segtime_common import load_seg  # noqa: E402


def idiv(a, b):
    """C integer division (truncates toward zero)."""
    a, b = int(a), int(b)
    if b == 0:
        raise ZeroDivisionError("idiv by zero")
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def imod(a, b):
    """C remainder: a - b * idiv(a, b)."""
    return int(a) - int(b) * idiv(a, b)


def ltrip(a, b, c):
    """Iterations of for (i = a; i < b; i *= c)."""
    a, b, c = float(a), float(b), float(c)
    n = 0
    while a < b and n < 10**9:
        if c <= 1 or a <= 0:
            raise ValueError("ltrip(%g, %g, %g) does not terminate" % (a, b, c))
        a *= c
        n += 1
    return n


FUNCS = {"idiv": idiv, "imod": imod, "min": min, "max": max, "ltrip": ltrip,
         "cmp_eq": lambda a, b: 1.0 if a == b else 0.0, "cmp_lt": lambda a, b: 1.0 if a < b else 0.0,
         "cmp_le": lambda a, b: 1.0 if a <= b else 0.0, "umod": lambda a, b: a % b,
         "sqrt": math.sqrt, "log": math.log, "log2": math.log2, "floor": math.floor, "ceil": math.ceil}
NAME = re.compile(r"[A-Za-z_][A-Za-z_0-9.]*")
_compiled = {}


def names(expr):
    return {n for n in NAME.findall(expr or "") if n not in FUNCS}


def evaluate(expr, env):
    """Value of a SEG expression ("" is 1) with the names bound in env."""
    if expr is None or str(expr).strip() == "":
        return 1.0
    code = _compiled.get(expr)
    if code is None:
        py = str(expr).replace("^", "**")
        code = compile(py, "<seg expression>", "eval")
        _compiled[expr] = code
    scope = dict(FUNCS)
    scope.update(env)
    try:
        return eval(code, {"__builtins__": {}}, scope)
    except NameError as e:
        raise SystemExit("icc_count: expression '%s' needs a value: %s (give it with -p)" % (expr, e))


class Walker:
    def __init__(self, key, op, missing_ok, by_node):
        self.key, self.op, self.missing_ok, self.by_node = key, op, missing_ok, by_node
        self.per_node = {}
        self._refs = {}

    def stage_value(self, node):
        if self.op == "executions":
            return 1.0
        ruvs = node.get("ruv", {})
        if self.key not in ruvs:
            if self.missing_ok:
                return 0.0
            raise SystemExit("icc_count: stage %s (%s) has no '%s' RUV (use --missing-ok to count 0)"
                             % (node["id"], node.get("label", ""), self.key))
        ruv = ruvs[self.key]
        if self.op == "all":
            return float(sum(ruv.values()))
        return float(ruv.get(self.op, 0.0))

    def refs(self, nodes, ident):
        """Names used by the expressions below a node list (cached)."""
        r = self._refs.get(ident)
        if r is None:
            r = set()
            for n in nodes:
                r |= names(n.get("freq")) | names(n.get("trip"))
                r |= self.refs(n.get("body", []), n["id"] + "/body")
                for i, a in enumerate(n.get("arms", [])):
                    r |= names(a.get("prob"))
                    r |= self.refs(a.get("body", []), "%s/arm%d" % (n["id"], i))
            self._refs[ident] = r
        return r

    def walk(self, nodes, env, weight):
        """Total of the node list executed once, times weight."""
        total = 0.0
        for n in nodes:
            w = weight * evaluate(n.get("freq"), env)
            if w == 0:
                continue
            kind = n["kind"]
            if kind == "Stage":
                v = self.stage_value(n) * w
                total += v
                if self.by_node:
                    self.per_node[n["id"]] = self.per_node.get(n["id"], 0.0) + v
            elif kind == "Loop":
                trip = evaluate(n.get("trip"), env)
                trip = max(0, int(math.floor(trip + 1e-9)))
                body = n.get("body", [])
                index = n.get("index", "")
                if index and index in self.refs(body, n["id"] + "/body"):
                    for k in range(trip):
                        env[index] = k
                        total += self.walk(body, env, w)
                    env.pop(index, None)
                elif trip:
                    total += self.walk(body, env, w * trip)
            elif kind == "Branch":
                for a in n.get("arms", []):
                    total += self.walk(a.get("body", []), env, w * evaluate(a.get("prob"), env))
            # Call, Comm, Unknown: nothing (self counts)
        return total


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("seg")
    ap.add_argument("function")
    ap.add_argument("--key", default="ICC:x86-64")
    ap.add_argument("--op", default="instructions")
    ap.add_argument("-p", action="append", default=[], metavar="NAME=VAL")
    ap.add_argument("--by-node", action="store_true")
    ap.add_argument("--missing-ok", action="store_true")
    a = ap.parse_args()

    doc = load_seg(a.seg)
    fns = [f for f in doc["functions"] if f["name"] == a.function]
    if not fns:
        raise SystemExit("icc_count: no function '%s' in %s (have: %s)" % (
            a.function, a.seg, ", ".join(f["name"] for f in doc["functions"])))
    fn = fns[0]
    seg = fn.get("level_segs", {}).get("IR")
    if seg is None:
        raise SystemExit("icc_count: function '%s' has no IR-level SEG" % a.function)
    env = {}
    for p in fn.get("parameters", []):
        if isinstance(p.get("default"), (int, float)):
            env[p["name"]] = p["default"]
    for kv in a.p:
        k, _, v = kv.partition("=")
        env[k] = float(v) if re.search(r"[.eE]", v) else int(v)
    # Defaults that are expressions (the min-update idiom's H_N/N) use the values above.
    for p in fn.get("parameters", []):
        if isinstance(p.get("default"), str) and p["name"] not in env:
            env[p["name"]] = evaluate(p["default"], env)
    w = Walker(a.key, a.op, a.missing_ok, a.by_node)
    total = w.walk(seg, env, 1.0)
    if a.by_node:
        labels = {}

        def collect(nodes):
            for n in nodes:
                labels[n["id"]] = n.get("label", "")
                collect(n.get("body", []))
                for arm in n.get("arms", []):
                    collect(arm.get("body", []))
        collect(seg)
        for nid, v in sorted(w.per_node.items(), key=lambda x: -x[1]):
            print("  %-8s %-8s %16.1f" % (nid, labels.get(nid, ""), v))
    print("%.1f" % total if abs(total) < 1e15 else "%g" % total)


if __name__ == "__main__":
    main()
