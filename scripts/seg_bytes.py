#!/usr/bin/env python3
"""seg_bytes.py - what takes the bytes of compact .seg.json files (schemas 2 and 3).

  scripts/seg_bytes.py FILE.seg.json ... [--top 40]

Sums, over the files, the bytes each key takes as written (compact JSON): the
file's own keys (`file.warnings`, `file.vocabulary`, `file.strings`, `file.ruvs`,
...), each function's keys (`fn.parameters`, `fn.strings`, ...) and the node keys
of each level's SEG (`seg.u` the source level's RUVs, `IR.r` the IR level's
ranges, `seg.arm.p` the arms' probabilities, ...). Prints the largest, with
their share of the total (docs/seg-json.md)."""
import argparse, collections, json


def size(v):
    return len(json.dumps(v, separators=(",", ":"), ensure_ascii=False).encode())


def nodes(c, ns, level):
    for n in ns:
        c[level + ".{}"] += 2
        for k, v in n.items():
            if k == "b":
                c[level + ".b[]"] += 6
                nodes(c, v, level)
            elif k == "a":
                for a in v:
                    for ak, av in a.items():
                        if ak == "b":
                            c[level + ".arm.b"] += 6
                            nodes(c, av, level)
                        else:
                            c[level + ".arm." + ak] += size(ak) + 2 + size(av)
            else:
                c[level + "." + k] += size(k) + 2 + size(v)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--top", type=int, default=40)
    a = ap.parse_args()
    c, total = collections.Counter(), 0
    for f in a.files:
        with open(f, "rb") as h:
            data = h.read()
        total += len(data)
        doc = json.loads(data)
        for k, v in doc.items():
            if k != "functions":
                c["file." + k] += size(v)
        for fn in doc["functions"]:
            for k, v in fn.items():
                if k == "seg":
                    nodes(c, v, "seg")
                elif k == "level_segs":
                    for level, ns in v.items():
                        nodes(c, ns, level)
                else:
                    c["fn." + k] += size(k) + 2 + size(v)
    print("total %d B in %d file(s)" % (total, len(a.files)))
    for k, v in c.most_common(a.top):
        print("  %10d  %5.1f %%  %s" % (v, 100.0 * v / max(total, 1), k))


if __name__ == "__main__":
    main()
