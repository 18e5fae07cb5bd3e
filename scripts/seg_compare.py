#!/usr/bin/env python3
"""seg_compare.py - two sets of .seg.json files (e.g. the same sources compiled
by two plugin builds, or two versions of the format) hold the same content.

  scripts/seg_compare.py --old-segtime OLD/bin/segtime --new-segtime build/bin/segtime \\
      OLD_DIR NEW_DIR [--machine t800] [-p n=64]

For every NAME.seg.json in OLD_DIR and NEW_DIR: `segtime show NAME.seg.json --json`
(the expanded form) and `segtime predict NAME.seg.json --machine M --level all --json`
of each with its own segtime must be byte-identical (exit statuses too). Prints one
line per file, the bytes of each side (total .seg.json sizes) and exits 1 if any
differ."""
import argparse, glob, os, subprocess, sys


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.returncode, r.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("old_dir")
    ap.add_argument("new_dir")
    ap.add_argument("--old-segtime", required=True)
    ap.add_argument("--new-segtime", required=True)
    ap.add_argument("--machine", default="t800")
    ap.add_argument("-p", action="append", default=[], help="NAME=VALUE for predict")
    a = ap.parse_args()
    names = sorted(os.path.basename(f) for f in glob.glob(os.path.join(a.old_dir, "*.seg.json")))
    if not names:
        sys.exit("seg_compare.py: no .seg.json in " + a.old_dir)
    bad = 0
    sizes = [0, 0]
    for n in names:
        old, new = os.path.join(a.old_dir, n), os.path.join(a.new_dir, n)
        if not os.path.exists(new):
            print("%-28s missing in %s" % (n, a.new_dir))
            bad += 1
            continue
        sizes[0] += os.path.getsize(old)
        sizes[1] += os.path.getsize(new)
        same = []
        for what, args in (("show", ["show", "{}", "--json"]),
                           ("predict", ["predict", "{}", "--machine", a.machine, "--level", "all",
                                        "--json"] + sum((["-p", x] for x in a.p), []))):
            o = run([a.old_segtime] + [old if x == "{}" else x for x in args])
            w = run([a.new_segtime] + [new if x == "{}" else x for x in args])
            same.append("%s %s" % (what, "same" if o == w else "DIFFERENT"))
            bad += o != w
        print("%-28s %8d -> %8d B  %s" % (n, os.path.getsize(old), os.path.getsize(new), ", ".join(same)))
    print("total .seg.json %d -> %d B (%.1f %%); %d difference(s)"
          % (sizes[0], sizes[1], 100.0 * (sizes[1] - sizes[0]) / max(sizes[0], 1), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
