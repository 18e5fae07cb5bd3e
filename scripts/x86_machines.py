#!/usr/bin/env python3
"""Write the reference x86 machine files that are not one calibration run.

    python3 scripts/x86_machines.py     # rewrites costvectors/{icelake-server,znver3,znver4,znver5}.yaml

Two kinds of file, each number with its provenance:

* icelake-server.yaml: Intel Xeon of the Ice Lake server family (family 6,
  model 106) under KVM, 2 vCPUs. The numbers `segtime calibrate` measured on
  such a machine (docs/results.md, "Calibration", 2026-11-21: ranges over
  the runs, written as their mid-point with spread = range / mid-point) and
  the cache geometry sysfs reported there. The ICC and memory parts only: the
  HLLC and INTCC cost vectors of that machine were not kept.
* znver3.yaml, znver4.yaml, znver5.yaml: AMD Zen 3, 4 and 5 without
  measuring them (the facts: scripts/machine_facts/x86.yaml). Cache geometry
  and clocks from AMD's documentation; the bandwidth of each level as the
  CPU's peak bytes per cycle (architecture)
  x the efficiency measured on a reference CPU (measured B/cycle / that
  CPU's peak B/cycle) x the clock. The reference is another CPU: Ice Lake
  for Zen 3 (so that the Zen 3 file is made without any Zen 3 measurement
  and can be checked against costvectors/znver3-epyc.yaml, measured), the
  measured Zen 3 for Zen 4 and 5. Numbers recalled from documentation that
  was not at hand are marked unverified.

Each file has an ICC cost vector keyed by its LLVM CPU (compile with
`-fplugin-arg-segtime-targets=compile,znver4,...` and predict with
`--machine znver4`): t = cycles x t_cyc plus the misprediction term
(docs/models.md, ICC), and the memory section the memory term reads (sizes,
ways, line size, triad bandwidth per level, DRAM).
"""
import os
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sparc_machines import entry, num, q  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KiB, MiB = 1024, 1024 * 1024

RESULTS = "docs/results.md, 'Calibration', ICX 2026-11-21"
AMD_SOG = {
    "znver3": "AMD Software Optimization Guide for AMD EPYC 7003 Processors (pub. 56665)",
    "znver4": "AMD Software Optimization Guide for the AMD Zen4 Microarchitecture (pub. 57647)",
    "znver5": "AMD Software Optimization Guide for the AMD Zen5 Microarchitecture (pub. 58455)",
}
RECALLED = "as recalled, unverified (the document was not at hand)"

# Peak bytes per cycle of one core, for a STREAM triad A(I) = B(I) + S*C(I)
# of 256-bit vectors (the width clang uses for these CPUs by default):
#   l1:  two 32 B loads and one 32 B store per cycle = 96 B of the triad's
#        counted bytes (loads + stores);
#   l2, l3: the fill bandwidth into the level above (B/cycle); a triad element
#        moves 32 B over it (16 loaded, 8 write-allocated, 8 written back) for
#        24 counted bytes, so the counted peak is 0.75 x fill.
PEAK = {
    "icelake-server": dict(l1=96, l2=64, l3=32, ref="Intel 64 and IA-32 Architectures "
                           "Optimization Reference Manual, Ice Lake (Sunny Cove): 2 loads + 2 "
                           "stores per cycle, L2 -> L1 64 B/cycle; L3 -> L2 32 B/cycle " + RECALLED),
    "znver3": dict(l1=96, l2=32, l3=32, ref=AMD_SOG["znver3"] + ": 3 loads (2 of 256 bit) and "
                   "2 stores (1 of 256 bit) per cycle, L2 -> L1 32 B/cycle, L3 -> L2 32 B/cycle, "
                   + RECALLED),
    "znver4": dict(l1=96, l2=32, l3=32, ref=AMD_SOG["znver4"] + ": as Zen 3 for 256-bit "
                   "operations (512-bit ones split in two), L2 -> L1 32 B/cycle, L3 -> L2 "
                   "32 B/cycle, " + RECALLED),
    "znver5": dict(l1=96, l2=64, l3=32, ref=AMD_SOG["znver5"] + ": 4 loads (2 of 512 bit) "
                   "and 2 stores per cycle, L2 -> L1 64 B/cycle (twice Zen 4's), L3 -> L2 "
                   "32 B/cycle, " + RECALLED + "; 256-bit triad code counted as on Zen 4 in L1"),
}

# Ice Lake server, measured by segtime calibrate (docs/results.md): (low, high) over the runs.
ICX = dict(
    name="icelake-server", llvm="icelake-server", vendor="GenuineIntel", family=6, model=106,
    processor="Intel Xeon, Ice Lake server (family 6, model 106), 2 vCPUs under KVM",
    clock=(3.44e9, 3.46e9), clock_ref="core clock of a chain of dependent adds, two runs 0.3 % "
    "apart (" + RESULTS + ": 3.45 GHz; 2.8 GHz nominal)",
    mispredict=(7.32e-9, 8.15e-9), mispredict_ref="random vs sorted data, four runs "
    "(" + RESULTS + ": 7.32-8.15 ns, 25-28 cycles)",
    caches=[("L1", 48 * KiB, 12), ("L2", 1280 * KiB, 20), ("L3", 48 * MiB, 12)],
    caches_ref="sysfs on that machine (docs/results.md, 'Machines'): L1d 48 KiB 12-way, L2 1.25 "
    "MiB 20-way, L3 48 MiB 12-way, 64 B lines",
    bw=dict(L1=(291e9, 294e9), L2=(117e9, 118e9), L3=(23e9, 30e9), DRAM=(8.5e9, 13.3e9)),
    bw_ref="triad bandwidth, nine runs on a busy machine (" + RESULTS + ")",
    overlap=[(640 * KiB, 1.78), (2.5 * MiB, 1.95), (12 * MiB, 2.23), (192 * MiB, 2.29)],
    overlap_ref="segtime calibrate --level overlap, exponent p of t = (t_core^p + t_mem^p)^(1/p) "
    "(" + RESULTS + ", rms 2.1-6.6 %)",
)



def load_estimated(path=os.path.join(ROOT, "scripts", "machine_facts", "x86.yaml")):
    """Zen 3/4/5 without measurement: (value, provenance, basis) per fact."""
    def expand(x):
        if isinstance(x, str):
            return x.format(RECALLED=RECALLED)
        if isinstance(x, list):
            return tuple(expand(v) for v in x)
        return {k: expand(v) for k, v in x.items()} if isinstance(x, dict) else x

    with open(path, encoding="utf-8") as f:
        return expand(yaml.safe_load(f))["estimated"]


ESTIMATED = load_estimated()
CACHE_REF = {k: v + ": L1d, L2, L3 (per 8-core CCD) sizes and ways, 64 B lines"
             for k, v in AMD_SOG.items()}


def mid(lo_hi):
    lo, hi = lo_hi
    m = (lo + hi) / 2
    return m, (hi - lo) / m


def measured(value, spread, ref, unit=None):
    """A measured entry; unit only in the parameter sections (a cost vector has one unit)."""
    u = f", unit: {q(unit)}" if unit else ""
    return (f"{{value: {num(value)}{u}, provenance: measured, spread: {num(spread)}, "
            f"ref: {q(ref)}}}")


def counted_peak(cpu, level):
    """Peak counted triad bytes per cycle of one core at a level."""
    p = PEAK[cpu]
    return {"L1": p["l1"], "L2": 0.75 * p["l2"], "L3": 0.75 * p["l3"]}[level]


def reference_efficiency(ref):
    """Measured triad B/cycle / peak B/cycle per level of a measured CPU, with the basis."""
    if ref == "icelake-server":
        clock = mid(ICX["clock"])[0]
        bw = {lv: mid(ICX["bw"][lv])[0] for lv in ("L1", "L2", "L3")}
        src = RESULTS
    else:
        path = os.path.join(ROOT, "costvectors", ref + ".yaml")
        with open(path, encoding="utf-8") as f:
            m = yaml.safe_load(f)
        clock = 1e9 / m["levels"]["ICC"]["variants"]["any"]["costs"]["cycles"]["value"]
        bw = {lv: m["memory"][lv]["bandwidth"]["value"] for lv in ("L1", "L2", "L3")}
        src = f"costvectors/{ref}.yaml"
    cpu = "znver3" if ref == "znver3-epyc" else ref
    return {lv: (bw[lv] / clock / counted_peak(cpu, lv),
                 f"{ref} measured {num(bw[lv] / 1e9)} GB/s at {num(clock / 1e9)} GHz = "
                 f"{bw[lv] / clock:.1f} B/cycle of a peak {num(counted_peak(cpu, lv))} "
                 f"({src})") for lv in ("L1", "L2", "L3")}


def header(w, name, desc, how, identity):
    w(f"# {desc}.")
    w("# Generated by scripts/x86_machines.py (edit the script, not this file).")
    for line in how:
        w("# " + line)
    w("# changelog: 1 (2026-11-26) first version.")
    w("schema: segtime.machine/1")
    w(f"name: {name}")
    w("version: 1")
    w(f"description: {q(desc)}")
    w("identity:")
    for k, v in identity.items():
        w(f"  {k}: {v if isinstance(v, int) else q(str(v))}")


def icc(w, llvm, cycle, mispredict):
    w("levels:")
    w("  ICC:")
    w("    # Out-of-order model: t = scheduling-model cycles x t_cyc (docs/models.md);")
    w(f"    # the counts of ICC target {llvm} (-fplugin-arg-segtime-targets={llvm}).")
    w("    variants:")
    w(f"      {llvm}:")
    w("        unit: ns")
    w("        costs:")
    w(f"          cycles: {cycle}")
    w(f"          branch.mispredict: {mispredict}")
    w('          "*": {value: 0, provenance: derived, ref: "out-of-order model: time is cycles '
      'x t_cyc; instructions, uops and memory operations are reported, not costed"}')


def geometry(w, level, size, ways, ref):
    w(f"  {level}:")
    w(f"    size: {entry(size, 'datasheet', ref, 'B')}")
    w(f"    ways: {entry(ways, 'datasheet', ref, 'ways')}")
    w(f"    line_size: {entry(64, 'datasheet', ref, 'B')}")


def generate_icx():
    out = []
    w = out.append
    m = ICX
    clock, clock_spread = mid(m["clock"])
    header(w, m["name"], "Intel Xeon, Ice Lake server, 2 vCPUs under KVM: the numbers segtime "
           "calibrate measured there (ICC and memory)",
           ["The values of docs/results.md (2026-11-21): mid-point of the range over the runs,",
            "spread = range / mid-point. HLLC, INTCC and POC of that machine were not kept:",
            "calibrate on such a machine for them."],
           dict(processor=m["processor"], cores=2, clock_hz=int(clock), vendor=m["vendor"],
                family=m["family"], model=m["model"], llvm_cpu=m["llvm"],
                virtualised="yes (KVM)", date="2026-11-21"))
    mp, mp_spread = mid(m["mispredict"])
    icc(w, m["llvm"],
        measured(1e9 / clock, clock_spread, m["clock_ref"]),
        measured(mp * 1e9, mp_spread, m["mispredict_ref"]))
    w("memory:")
    for level, size, ways in m["caches"]:
        geometry(w, level, size, ways, m["caches_ref"])
        v, s = mid(m["bw"][level])
        w(f"    bandwidth: {measured(v, s, m['bw_ref'], 'B/s')}")
    v, s = mid(m["bw"]["DRAM"])
    w("  DRAM:")
    w(f"    bandwidth: {measured(v, s, m['bw_ref'], 'B/s')}")
    w("  overlap:")
    for i, (ws, p) in enumerate(m["overlap"]):
        w(f"    \"{i:02d}\":")
        w(f"      working_set: {entry(ws, 'derived', 'footprint of the overlap benchmark', 'B')}")
        w(f"      exponent: {entry(p, 'measured', m['overlap_ref'], '1')}")
    return "\n".join(out) + "\n"


def generate_estimated(llvm, m):
    out = []
    w = out.append
    clock, cprov, cref = m["clock"]
    eff = reference_efficiency(m["reference"])
    header(w, llvm, f"{m['processor']}: an estimate made without measuring the CPU",
           ["Cache geometry and clock from AMD's documentation; bandwidth per level = the",
            "CPU's peak triad bytes per cycle x the efficiency measured on " + m["reference"],
            "x the clock. Calibrate on the machine itself (`segtime calibrate`) when you have it."],
           dict(processor=m["processor"], clock_hz=int(clock), vendor=m["vendor"],
                family=m["family"], model=m["model"], llvm_cpu=llvm,
                date="2026-11-26", basis="estimated from documentation and a measured "
                "reference CPU (" + m["reference"] + "); not measured"))
    mp, mprov, mref = m["mispredict"]
    icc(w, llvm, entry(1e9 / clock, cprov, f"1 / clock: {cref}"),
        entry(mp * 1e9 / clock, mprov, f"{num(mp)} cycles x t_cyc: {mref}"))
    w("memory:")
    for level, size, ways in m["caches"]:
        geometry(w, level, size, ways, CACHE_REF[llvm])
        e, basis = eff[level]
        peak = counted_peak(llvm, level)
        fill = "" if level == "L1" else (
            f" (fill {PEAK[llvm][level.lower()]} B/cycle x 0.75)")
        over = ("; an efficiency above 1 says the reference's recalled peak is too low"
                if e > 1 else "")
        ref = (f"peak {num(peak)} B/cycle{fill}, {PEAK[llvm]['ref']}; x efficiency {e:.3f}: "
               f"{basis}{over}; x clock {num(clock / 1e9)} GHz")
        w(f"    bandwidth: {entry(peak * e * clock, 'estimated', ref, 'B/s')}")
    d, dprov, dref = m["dram"]
    w("  DRAM:")
    w(f"    bandwidth: {entry(d, dprov, dref, 'B/s')}")
    return "\n".join(out) + "\n"


def main():
    files = {"icelake-server": generate_icx()}
    for llvm, m in ESTIMATED.items():
        files[llvm] = generate_estimated(llvm, m)
    for name, text in files.items():
        path = os.path.join(ROOT, "costvectors", name + ".yaml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        print("wrote", path)


if __name__ == "__main__":
    main()
