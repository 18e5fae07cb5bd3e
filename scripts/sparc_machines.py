#!/usr/bin/env python3
"""Write the machine files of the three SPARC workstations of UTSA-95 §4.1.

    python3 scripts/sparc_machines.py            # rewrites costvectors/sparc*.yaml

One table of cycles per instruction class per CPU (scripts/machine_facts/sparc.yaml,
each number with its basis) is turned into the HLLC, INTCC and ICC cost vectors
(cycles x t_cyc), so that the three levels of one machine agree with each other. The facts that
UTSA-95 states (data cache and memory sizes, the Ethernet) carry provenance
`paper`; the clocks come from Sun's model designations; everything else is an
estimate whose basis is given in its `ref` (no SPARC of the time was available
to measure, and the benchmark tables of the time were not at hand: the values
recalled from them are marked unverified, docs/machines-facts.md).

The ICC cost vector is linear in the RUV the plugin records for the SPARC
targets (`instructions`, `mem.load`, `mem.store`, `branch`, `call`, `fp`,
passes/MachineLevel.cpp): no cycles, since LLVM has no scheduling model for
supersparc or v8. `instructions` costs the issue time of one instruction; the
other keys cost the extra cycles of their class on top of it (load-use
interlock, store cycles, FPU latencies exposed in dependent chains, call
overhead), an in-order model in the form of Warwick-94 eq. 7.
"""
import os

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

UTSA41 = ("UTSA-95 §4.3 (data caches 2, 8, 16 KB and memories 16, 16, 32 MB of the SPARCclassic, "
          "SPARC 5-70 and SPARC 10-30 workstations of §4.1)")
NET = "UTSA-95 §4.1: 10 Mbit/s Ethernet, PVM, maximal throughput 1000 KB/s, minimal latency about 2 ms"
SS_GCC = "SuperSPARC latencies of GCC's pipeline description gcc/config/sparc/supersparc.md (docs/machines-facts.md)"
MS_REC = ("microSPARC pipeline (5-stage, single issue, on-chip FPU) as recalled from the TI "
          "TMS390S10 / STP1012 documentation, unverified")
SPEC_REC = ("SPECfp92 recalled (SS2 22.8, SPARCclassic 21.0, SS5-70 47.3, SS10-30 54.0), "
            "unverified; SPARCstation 2 LINPACK 100 about 4 Mflop/s, recalled, unverified")



def ms_latencies(imul, idiv, fadd, fmul, fdivs, fdivd, fsqrt):
    """The microSPARC FPU and multiplier latencies (cycles, as recalled)."""
    names = dict(imul="umul/smul", idiv="sdiv/udiv", fadd="fadd/fsub", fmul="fmuld",
                 fdivs="fdivs", fdivd="fdivd", fsqrt="fsqrtd")
    given = dict(imul=imul, idiv=idiv, fadd=fadd, fmul=fmul, fdivs=fdivs, fdivd=fdivd, fsqrt=fsqrt)
    return {k: (v, "estimated", f"{names[k]} about {v} cycles ({MS_REC})") for k, v in given.items()}


def load_cpus(path=os.path.join(ROOT, "scripts", "machine_facts", "sparc.yaml")):
    """Per CPU: clock, caches, memory, then cycles per class: (cycles, provenance, basis)."""
    refs = dict(SS_GCC=SS_GCC, MS_REC=MS_REC, SPEC_REC=SPEC_REC)

    def expand(x):
        if isinstance(x, str):
            return x.format(**refs)
        if isinstance(x, list):
            return tuple(expand(v) for v in x)
        return {k: expand(v) for k, v in x.items()} if isinstance(x, dict) else x

    with open(path, encoding="utf-8") as f:
        facts = expand(yaml.safe_load(f))
    cpus = {}
    for name, m in facts["cpus"].items():
        cyc = dict(facts["pipelines"][m.pop("pipeline")]) if "pipeline" in m else {}
        cyc.update(m["cyc"])
        if "microsparc_latencies" in m:
            cyc.update(ms_latencies(**m.pop("microsparc_latencies")))
        m["cyc"] = cyc
        cpus[name] = m
    return cpus


CPUS = load_cpus()

def q(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'


def num(v):
    return f"{v:.10g}"


def entry(value, prov, ref, unit=None):
    u = f", unit: {q(unit)}" if unit else ""
    return f"{{value: {num(value)}{u}, provenance: {prov}, ref: {q(ref)}}}"


def hllc_table(c, cost):
    """HLLC constructs (same set as t800.yaml) -> (cycles, provenance, ref)."""
    ia, im, idv = c["ialu"][0], c["imul"][0], c["idiv"][0]
    fa, fm, fds, fdd, fsq = (c[k][0] for k in ("fadd", "fmul", "fdivs", "fdivd", "fsqrt"))
    ld, st = c["ldlat"][0], c["stlat"][0]
    libm = 40 * fa + 2 * fdd  # a polynomial of ~20 terms (mul+add) plus range reduction
    libm_ref = ("software libm: about 20 multiply-adds and 2 divisions (range reduction and a "
                "polynomial); assumed")
    callc = 5 * ia + c["call"][0]  # call, nop, save, ret, restore + overhead

    H = {}
    for t in ("i32", "i64"):
        k = 2 if t == "i64" else 1
        two = " (two 32-bit operations on SPARC V8)" if k == 2 else ""
        H[f"{t}.add"] = cost(k * ia, "add/addcc+addx" + two, "ialu")
        H[f"{t}.sub"] = cost(k * ia, "sub/subcc+subx" + two, "ialu")
        H[f"{t}.bit"] = cost(k * ia, "and/or/xor" + two, "ialu")
        H[f"{t}.cmp"] = cost(k * ia, "cmp (subcc)" + two, "ialu")
        H[f"{t}.shift"] = cost((3 if k == 2 else 1) * ia, "sll/srl/sra" + (" (a 64-bit shift "
                               "is about 3 instructions)" if k == 2 else ""), "ialu")
        H[f"{t}.abs"] = cost(k * 3 * ia, "sra, xor, sub" + two, "ialu")
        H[f"{t}.mul"] = cost(k * k * im if k == 1 else 3 * im + 2 * ia,
                             "smul" + (" x3 plus adds (64-bit product from 32-bit "
                                       "multiplies)" if k == 2 else ""), "imul", "ialu")
        H[f"{t}.div"] = cost(idv if k == 1 else 4 * idv, "sdiv (wr %y first)" + (
            " x4: a 64-bit division is a library call (__divdi3), assumed 4 divisions" if k == 2
            else ""), "idiv")
        H[f"{t}.rem"] = cost(idv + im + ia if k == 1 else 4 * idv + 3 * im,
                             "sdiv, smul, sub" + (" (64-bit: __moddi3, assumed)" if k == 2
                                                  else ""), "idiv", "imul", "ialu")
    for t in ("f32", "f64"):
        H[f"{t}.add"] = cost(fa, "fadd latency", "fadd")
        H[f"{t}.sub"] = cost(fa, "fsub latency", "fadd")
        H[f"{t}.mul"] = cost(fm, "fmul latency", "fmul")
        H[f"{t}.div"] = cost(fds if t == "f32" else fdd, "fdiv latency",
                             "fdivs" if t == "f32" else "fdivd")
        H[f"{t}.sqrt"] = cost(fsq, "fsqrt latency (fsqrtd; fsqrts taken equal)", "fsqrt")
        H[f"{t}.abs"] = cost(ia, "fabss (one instruction)", "ialu")
        H[f"{t}.cmp"] = cost(fa + ia, "fcmp, then a dependent fbfcc waits the FP add latency",
                             "fadd", "ialu")
        k = 1 if t == "f64" else 0.6
        H[f"{t}.exp"] = cost(k * libm, libm_ref, "fadd", "fdivd")
        H[f"{t}.log"] = cost(k * libm, libm_ref, "fadd", "fdivd")
        H[f"{t}.trig"] = cost(k * libm, libm_ref, "fadd", "fdivd")
        H[f"{t}.libm"] = cost(k * libm, libm_ref, "fadd", "fdivd")
        H[f"{t}.pow"] = cost(2 * k * libm, "exp(y log x): twice the exp estimate", "fadd", "fdivd")
    H["cvt.i2f"] = cost(st + ld + fa, "st, ldf, fitod: through memory on SPARC V8", "stlat",
                        "ldlat", "fadd")
    H["cvt.f2i"] = cost(fa + st + ld, "fdtoi, stf, ld: through memory on SPARC V8", "fadd",
                        "stlat", "ldlat")
    H["cvt.f2f"] = cost(fa, "fstod/fdtos: FP add latency", "fadd")
    H["cvt.i2i"] = cost(2 * ia, "sll+sra (sign extension)", "ialu")
    H["if"] = cost(3 * ia, "cmp, branch, delay slot", "ialu")
    H["loop"] = cost(4 * ia, "add, cmp, branch, delay slot", "ialu")
    H["switch"] = cost(8 * ia + ld, "bounds check, table load, jmp, delay slot", "ialu", "ldlat")
    H["call"] = cost(callc, "call, nop, save, ret, restore plus pipeline breaks", "ialu", "call")
    H["mem.local.read"] = cost(ld, "ld from the frame", "ldlat")
    H["mem.local.write"] = cost(st, "st to the frame", "stlat")
    H["mem.global.read"] = cost(2 * ia + ld, "sethi/or of the address, ld", "ialu", "ldlat")
    H["mem.global.write"] = cost(2 * ia + st, "sethi/or of the address, st", "ialu", "stlat")
    H["mem.array.read"] = cost(2 * ia + ld, "sll of the index, add, ld", "ialu", "ldlat")
    H["mem.array.write"] = cost(2 * ia + st, "sll of the index, add, st", "ialu", "stlat")
    H["mem.copy.byte"] = cost((ld + st) / 4, "word copy loop: ld+st per 4 bytes", "ldlat", "stlat")
    return H


def intcc_table(c, cost, H):
    """INTCC: IR operation (wildcards as in t800.yaml) -> (cycles, provenance,
    ref); operations that are HLLC constructs take their HLLC entry H."""
    ia, im, idv = c["ialu"][0], c["imul"][0], c["idiv"][0]
    fa, fm = c["fadd"][0], c["fmul"][0]
    ld, st = c["ldlat"][0], c["stlat"][0]
    I = {}
    for op in ("add", "sub", "and", "or", "xor", "shl", "lshr", "ashr"):
        I[f"{op}.i64"] = cost((3 if op in ("shl", "lshr", "ashr") else 2) * ia,
                              f"{op} on 64-bit values: two or three 32-bit instructions", "ialu")
        I[f"{op}.*"] = cost(ia, f"{op}: one integer instruction", "ialu")
    I["mul.i64"] = H["i64.mul"]
    I["mul.*"] = cost(im, "smul", "imul")
    for op in ("sdiv", "udiv"):
        I[f"{op}.i64"] = H["i64.div"]
        I[f"{op}.*"] = cost(idv, op + " (wr %y first)", "idiv")
    for op in ("srem", "urem"):
        I[f"{op}.i64"] = H["i64.rem"]
        I[f"{op}.*"] = H["i32.rem"]
    I["icmp.i64"] = cost(2 * ia, "two compares", "ialu")
    I["icmp.*"] = cost(ia, "cmp (subcc)", "ialu")
    I["fadd.*"] = H["f64.add"]
    I["fsub.*"] = H["f64.sub"]
    I["fmul.*"] = H["f64.mul"]
    I["fdiv.f32"] = H["f32.div"]
    I["fdiv.*"] = H["f64.div"]
    I["fneg.*"] = cost(ia, "fnegs", "ialu")
    I["fcmp.*"] = H["f64.cmp"]
    I["load.*"] = cost(ld, "ld/ldd/ldf/lddf", "ldlat")
    I["store.*"] = cost(st, "st/std/stf/stdf", "stlat")
    I["getelementptr.*"] = cost(2 * ia, "sll of the index and add (constant offsets fold into "
                                "the load)", "ialu")
    I["phi.*"] = cost(0.5 * ia, "a register move, often coalesced away: half an instruction",
                      "ialu")
    I["select.*"] = cost(3 * ia, "V8 has no conditional move: branch, delay slot, move", "ialu")
    I["br"] = cost(2 * ia, "ba with its delay slot", "ialu")
    I["br.cond"] = cost(2 * ia, "bcc with its delay slot (the compare is the icmp)", "ialu")
    I["ret"] = cost(2 * ia, "ret, restore", "ialu")
    I["zext.*"] = cost(ia, "and or nothing", "ialu")
    I["sext.*"] = cost(ia, "sra or nothing", "ialu")
    I["trunc.*"] = cost(ia, "and or nothing", "ialu")
    for op in ("sitofp", "uitofp"):
        I[f"{op}.*"] = H["cvt.i2f"]
    for op in ("fptosi", "fptoui"):
        I[f"{op}.*"] = H["cvt.f2i"]
    I["fpext.*"] = H["cvt.f2f"]
    I["fptrunc.*"] = H["cvt.f2f"]
    I["call.sqrt.f64"] = H["f64.sqrt"]
    I["call.llvm.sqrt.f64"] = H["f64.sqrt"]
    I["call.llvm.fmuladd.f64"] = cost(fm + fa, "fmuld then a dependent faddd (no fused "
                                      "multiply-add in SPARC V8)", "fmul", "fadd")
    I["call.llvm.fabs.f64"] = H["f64.abs"]
    I["call.*"] = H["call"]
    I["*"] = cost(ia, "one integer instruction (fallback for operations without their own "
                  "entry)", "ialu")
    return I


def icc_table(c, cost):
    """ICC: per RUV key, extra cycles of the class x t_cyc (ns)."""
    C = {}
    C["instructions"] = cost(c["issue"][0], "issue time of one instruction", "issue")
    C["mem.load"] = cost(c["load"][0], "extra cycles of a load beyond its issue", "load")
    C["mem.store"] = cost(c["store"][0], "extra cycles of a store beyond its issue", "store")
    C["branch"] = cost(c["branch"][0], "extra cycles of a branch beyond its issue", "branch")
    C["call"] = cost(c["call"][0], "extra cycles of a call beyond its instructions", "call")
    C["fp"] = cost(c["fp"][0], "extra cycles of an FP instruction beyond its issue", "fp")
    C["uops"] = (0, "derived", "the SPARC targets record one micro-op per instruction: the "
                 "time is in 'instructions'")
    C["call.external"] = (0, "derived", "the PLT jump is counted in 'instructions'; the "
                          "callee's time comes from the HLLC cost of its construct "
                          "(docs/models.md ICC step 3)")
    C["branch.mispredict"] = (0, "estimated", "no dynamic branch prediction: a SPARC V8 "
                              "delayed branch costs the same taken or not taken (the "
                              "'branch' entry)")
    return C


def generate(name, m):
    c = m["cyc"]
    tns = 1e9 / m["clock"]  # ns per cycle
    tus = tns / 1000
    cyc_ref = f"{num(tns)} ns cycle at {num(m['clock'] / 1e6)} MHz"
    out = []
    w = out.append

    def basis(*keys):
        """The provenance and ref of a cost built from the classes keys."""
        return "estimated", "; ".join(f"{k} {num(c[k][0])}: {c[k][2]}" for k in keys)

    def cost(cycles, text, *keys):
        prov, ref = basis(*keys) if keys else ("estimated", "")
        ref = f"{num(cycles)} cycles x {cyc_ref}: {text}" + (f"; {ref}" if ref else "")
        return cycles, prov, ref

    H = hllc_table(c, cost)
    I = intcc_table(c, cost, H)
    C = icc_table(c, cost)
    clock_mhz = num(m["clock"] / 1e6)
    w(f"# {m['description']}.")
    w("# Generated by scripts/sparc_machines.py from one cycle table per CPU (edit the")
    w("# script, not this file). UTSA-95 §4.1 gives the cache and memory sizes and the")
    w("# network; every other number is an estimate with its basis (no such machine was")
    w("# measured; values recalled from the benchmark tables of the time are marked unverified).")
    w("# changelog: 1 (2026-11-25) first version.")
    w("schema: segtime.machine/1")
    w(f"name: {name}")
    w("version: 1")
    w(f"description: {q(m['description'])}")
    w("identity:")
    w(f"  processor: {q(m['processor'])}")
    w(f"  clock_hz: {int(m['clock'])}")
    w(f"  clock_ref: {q('datasheet: ' + m['clock_ref'])}")
    w(f"  cycle_ns: {num(tns)}")
    w("  cores: 1")
    w("  compiler: \"SPARC V8 code as LLVM generates it for -mcpu=supersparc (ICC targets "
      "supersparc and v8)\"")
    w("levels:")
    w("  POC:")
    w("    variants:")
    w("      any:")
    w("        unit: Mflop/s")
    w("        costs:")
    w(f"          flop: {entry(*m['flop'])}")

    def vector(level, unit, table, scale, variants=("any",)):
        w(f"  {level}:")
        w("    variants:")
        for v in variants:
            w(f"      {v}:")
            w(f"        unit: {unit}")
            w("        costs:")
            for k, (cy, prov, ref) in table.items():
                w(f"          {q(k)}: {entry(cy * scale, prov, ref)}")

    vector("HLLC", "us", H, tus)
    vector("INTCC", "us", I, tus)
    vector("ICC", "ns", C, tns, ("supersparc", "v8"))

    w("memory:")
    w("  L1:")
    w(f"    size: {entry(m['dcache'], 'paper', UTSA41, 'B')}")
    w(f"    ways: {entry(m['ways'], 'estimated', m['geom_ref'], 'ways')}")
    w(f"    line_size: {entry(m['line'], 'estimated', m['geom_ref'], 'B')}")
    l1bw = 8 / (c["ldlat"][0] if c["ldlat"][0] > 1 else 1) * m["clock"]
    w(f"    bandwidth: {entry(l1bw, 'estimated', 'one 8-byte ldd per ' + num(max(1, c['ldlat'][0])) + ' cycle(s) at ' + clock_mhz + ' MHz; ' + c['ldlat'][2], 'B/s')}")
    w(f"    latency: {entry(c['ldlat'][0] / m['clock'], 'estimated', c['ldlat'][2], 's')}")
    w("  DRAM:")
    w(f"    size: {entry(m['memory'], 'paper', UTSA41, 'B')}")
    dram = c["dram"]
    w(f"    latency: {entry(dram[0], dram[1], dram[2], 's')}")
    w(f"    bandwidth: {entry(m['line'] / dram[0], 'estimated', 'one ' + str(m['line']) + '-byte cache line per main-memory latency (blocking cache, no prefetch); latency: ' + dram[2], 'B/s')}")
    # Two points (a curve needs two), the same exponent at every working set.
    w("  overlap:")
    for i, ws in enumerate((m["dcache"], m["memory"])):
        w(f"    \"{i:02d}\":")
        w(f"      working_set: {entry(ws, 'estimated', 'point of the overlap curve: the data cache, then the whole memory (the same exponent at every working set)', 'B')}")
        w(f"      exponent: {entry(1, 'estimated', 'p = 1, no overlap: the caches block and the pipeline is in order, so a miss stalls it and the memory time adds to the core time, as in Warwick-94 eq. 7 (e n_ex_mem; predictor/Overlap.h)', '1')}")
    w("comm:")
    w("  hockney:")
    w("    \"0\":")
    w(f"      r_inf: {entry(1.0e6, 'paper', NET + ' (1000 KB/s read as 10^6 B/s)', 'B/s')}")
    w(f"      n_half: {entry(2000, 'derived', 'n_1/2 = t_0 x r_inf = 2 ms x 10^6 B/s (PARKBENCH-93 eq. 3.6); ' + NET, 'B')}")
    w(f"      t0: {entry(2e-3, 'paper', NET, 's')}")
    w(f"      pi0: {entry(500, 'derived', 'pi_0 = 1/t_0 (PARKBENCH-93); ' + NET, '1/s')}")
    return "\n".join(out) + "\n"


def main():
    for name, m in CPUS.items():
        path = os.path.join(ROOT, "costvectors", name + ".yaml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(generate(name, m))
        print("wrote", path)


if __name__ == "__main__":
    main()
