#!/usr/bin/env python3
"""predict_values.py - compare values of a `segtime predict --json` answer with
expected ones to a relative tolerance.

USAGE: predict_values.py prediction.json LEVEL.time_s=VALUE LEVEL.counts.OP=VALUE ...

Reads the first function of the prediction; exits 1 listing every value that
differs from the expected one by more than 1e-9 relative (1e-300 absolute).
"""
import json
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        levels = json.load(f)["functions"][0]["levels"]
    bad = []
    for arg in sys.argv[2:]:
        path, want = arg.split("=")
        want = float(want)
        v = levels
        for key in path.split(".", 2):  # LEVEL.counts.OP (OP may hold dots)
            if key not in v:
                sys.exit("no '%s' in %s" % (key, path))
            v = v[key]
        if abs(v - want) > 1e-9 * max(abs(want), abs(v)) + 1e-300:
            bad.append("%s = %r, expected %r" % (path, v, want))
    if bad:
        sys.exit("\n".join(bad))
    print("%d values as expected" % (len(sys.argv) - 2))


if __name__ == "__main__":
    main()
