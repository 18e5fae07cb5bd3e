"""segtime_common.py - what the scripts share: paths, running commands (with
limits), the SEGTIME_MEASURED line of the example harness, the data-dependent
parameters the examples give, small statistics, and the result cache, csmith
programs and `objdump -d` of scripts/overhead_bench.py and
scripts/csmith_campaign.py."""
import glob, hashlib, json, math, os, re, shutil, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build")
CLANG = "/usr/lib/llvm-19/bin/clang"
SEGTIME = os.path.join(BUILD, "bin", "segtime")
# SEGTIME_PLUGIN: another build of the plugin (e.g. to compare before/after).
PLUGIN = os.environ.get("SEGTIME_PLUGIN") or os.path.join(BUILD, "lib", "segtime.so")

# Data-dependent parameters that are not loop bounds (Warwick-94 §2: branch
# probabilities are inputs of the timing formula). Given from the algorithm,
# not fitted to the measurement:
#  merge(): `j >= hi || (i < mid && src[i] <= src[j])` - the right operand of
#  || runs while the right run is not exhausted (almost always), the right
#  operand of && while the left run is not exhausted (almost always), and the
#  `if` takes each run with probability 1/2 on random data.
EXTRA = {"mergesort": {"merge": {"'||'": 1.0, "'&&'": 1.0, "'if' condition": 0.5}}}


MANIFEST = os.path.join(ROOT, "validation", "manifest.json")


def load_manifest(path=MANIFEST):
    """The validation manifest (validation/manifest.json): {"kernels": [...]},
    each kernel with name, file (relative to ROOT), role, group, args (argv
    names in order), footprint_bytes (a Python expression in the parameters
    the harness reports), sizes (argv lists), small (argv for callgrind) and
    given (data-dependent parameters, see given_params). Exits with the file
    and the problem on a malformed manifest."""
    try:
        with open(path) as f:
            m = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit("%s: cannot read %s: %s" % (os.path.basename(sys.argv[0]), path, e))
    for i, k in enumerate(m.get("kernels", [])):
        missing = [key for key in ("name", "file", "role", "args", "footprint_bytes", "sizes", "small")
                   if key not in k]
        if missing:
            sys.exit("%s: kernel %d (%s): missing %s" % (path, i, k.get("name", "?"), ", ".join(missing)))
        if any(len(s) != len(k["args"]) for s in k["sizes"]) or len(k["small"]) > len(k["args"]):
            sys.exit("%s: kernel %s: a size has not one value per argument %s"
                     % (path, k["name"], k["args"]))
    if not m.get("kernels"):
        sys.exit("%s: no kernels" % path)
    return m


def eval_expr(expr, params):
    """expr (a Python arithmetic expression of the manifest) with params
    (name -> number) and floor, ceil, log2, sqrt."""
    env = {"floor": math.floor, "ceil": math.ceil, "log2": math.log2, "sqrt": math.sqrt}
    return eval(expr, {"__builtins__": {}}, dict(env, **params))


def given_params(seg, given, params):
    """-p values for a manifest kernel's "given" list: each names a function,
    a phrase of the parameter's meaning in the SEG file (the parameter must be
    the only one matching) and its value as an expression of params (the
    values the harness reports): data-dependent trip counts given from the
    algorithm, not fitted."""
    out = []
    for g in given or []:
        fn = next((f for f in seg["functions"] if f["name"] == g["function"]), None)
        if fn is None:
            sys.exit("given: no function %s in the SEG file" % g["function"])
        hits = [p["name"] for p in fn["parameters"] if g["meaning"] in p["meaning"]]
        if len(hits) != 1:
            sys.exit("given: expected one parameter of %s matching '%s', found %s"
                     % (g["function"], g["meaning"], hits))
        out += ["-p", "%s=%.17g" % (hits[0], eval_expr(g["value"], params))]
    return out


def compile_kernel(src, base, flags, link=True):
    """Compiles src with the plugin (ICC target "compile": the code being
    compiled) into base.o and base.seg.json, and links base.o into the program
    base when link."""
    obj = base + ".o"
    run([CLANG] + list(flags) + ["-fplugin=" + PLUGIN, "-fplugin-arg-segtime-quiet",
                                 "-fplugin-arg-segtime-targets=compile",
                                 "-fplugin-arg-segtime-out=" + base + ".seg.json",
                                 "-c", src, "-o", obj])
    if link:
        run([CLANG, obj, "-o", base, "-lm"])


def profile_args(profile):
    """--profile arguments of profile: None, a .ct.json or a list of them."""
    if not profile:
        return []
    return [x for p in ([profile] if isinstance(profile, str) else profile)
            for x in ("--profile", p)]


def predict(seg_path, kernel, params, extra, machine, levels="all", profile=None, timeout=None):
    """`segtime predict --json` of one function at params (name -> value) and
    extra -p arguments: (the function's JSON, "") or (None, the error; also
    when it takes more than timeout s). profile: a .ct.json, or a list of
    them (predict takes them in order: a later one's value wins)."""
    cmd = [SEGTIME, "predict", seg_path, "--machine", machine, "--function", kernel,
           "--level", levels, "--json"] + profile_args(profile)
    for k, v in params.items():
        cmd += ["-p", "%s=%s" % (k, v)]
    try:
        r = run(cmd + list(extra), check=False, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "segtime predict --level %s took more than %g s" % (levels, timeout)
    if r.returncode != 0:
        return None, r.stderr.strip()
    return json.loads(r.stdout)["functions"][0], ""


def callgrind_instructions(binary, args, functions, reps):
    """Instructions executed in the named functions of binary (run with args
    and SEGTIME_REPS=reps) under valgrind --tool=callgrind."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "cg.out")
        env = dict(os.environ, SEGTIME_REPS=str(reps))
        run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, binary] + list(args),
            env=env)
        ann = run(["callgrind_annotate", "--threshold=100", out]).stdout
    total = 0
    for line in ann.splitlines():
        m = re.match(r"^\s*([\d,]+)\s+(?:\([^)]*\)\s+)?\S*?:(\w+)\s", line)
        if m and m.group(2) in functions:
            total += int(m.group(1).replace(",", ""))
    return total


def kernel_instructions(binary, args, seg):
    """The dynamic instruction count of one kernel call: the difference / 2 of
    the instructions executed with 3 and with 1 timed repetitions in the
    file's own functions except the harness's (main, segtime_*)."""
    funcs = {f["name"] for f in seg["functions"]
             if f["name"] != "main" and not f["name"].startswith("segtime_")}
    i1 = callgrind_instructions(binary, args, funcs, 1)
    i3 = callgrind_instructions(binary, args, funcs, 3)
    return (i3 - i1) / 2.0


def example_names(only=""):
    """Names of the examples (examples/*.c without .c), sorted; only: a comma
    list to keep (empty: all)."""
    names = sorted(f[:-2] for f in os.listdir(os.path.join(ROOT, "examples")) if f.endswith(".c"))
    return [n for n in names if n in only.split(",")] if only else names


def run(cmd, env=None, check=True, cwd=None, timeout=None):
    """Runs cmd, capturing its output; exits with its output if it fails and
    check; timeout (s): subprocess.TimeoutExpired after that long."""
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd, timeout=timeout)
    if check and r.returncode != 0:
        sys.exit("%s: command failed: %s\n%s%s" % (os.path.basename(sys.argv[0]), " ".join(cmd),
                                                 r.stdout[-2000:], r.stderr[-2000:]))
    return r


def measured(out):
    """The JSON of the one SEGTIME_MEASURED line an example program prints."""
    lines = [l for l in out.splitlines() if l.startswith("SEGTIME_MEASURED ")]
    if len(lines) != 1:
        sys.exit("expected one SEGTIME_MEASURED line, got %d in:\n%s" % (len(lines), out[-2000:]))
    return json.loads(lines[0].split(" ", 1)[1])


def load_seg(path):
    """The .seg.json file at path as a dict in schema 1's layout (the expanded
    form, docs/seg-json.md), whichever schema the file has: as `segtime show
    FILE --json` prints it (one reader of the format, core/Seg.cpp)."""
    r = subprocess.run([SEGTIME, "show", path, "--json"], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("%s: %s" % (os.path.basename(sys.argv[0]), r.stderr.strip() or "cannot read " + path))
    return json.loads(r.stdout)


def extra_params(name, seg):
    """-p values for EXTRA, found by the parameters' meaning in the SEG file."""
    out = []
    for fn, wanted in EXTRA.get(name, {}).items():
        params = next(f["parameters"] for f in seg["functions"] if f["name"] == fn)
        for key, value in wanted.items():
            hits = [p["name"] for p in params if key in p["meaning"]]
            if len(hits) != 1:
                sys.exit("%s: expected one parameter of %s matching %s, found %s"
                         % (name, fn, key, hits))
            out += ["-p", "%s=%g" % (hits[0], value)]
    return out


def median(values):
    v = sorted(values)
    n = len(v)
    return v[n // 2] if n % 2 else 0.5 * (v[n // 2 - 1] + v[n // 2])


def percentile(values, q):
    """The q-th percentile (0-100) of values by the nearest-rank method (a
    value of the sample, not interpolated); None for no values."""
    v = sorted(values)
    if not v:
        return None
    k = max(0, min(len(v) - 1, int(-(-q * len(v) // 100)) - 1))
    return v[k]


def run_limited(cmd, timeout, mem_bytes=None, cwd=None):
    """Runs cmd (output captured) in a process group of its own, with address
    space limited to mem_bytes (RLIMIT_AS, as `ulimit -v`; None: no limit),
    and kills that group after timeout s. Returns a dict: wall_s (s), rss_mb
    (peak resident set of the process and its waited-for children, MB), rc
    (None after a time-out), status ('ok', 'timeout', 'out of memory',
    'failed') and the output (stdout, stderr)."""
    import resource, signal, tempfile

    def limit():
        if mem_bytes:
            resource.setrlimit(resource.RLIMIT_AS, (mem_bytes, mem_bytes))

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=out, stderr=err, cwd=cwd, preexec_fn=limit,
                             start_new_session=True)
        timed_out, status, usage = False, 0, None
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - t0 > timeout:
                os.killpg(p.pid, signal.SIGKILL)
                _, status, usage = os.wait4(p.pid, 0)
                timed_out = True
                break
            time.sleep(0.01)
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout = out.read().decode(errors="replace")
        stderr = err.read().decode(errors="replace")
    rc = None if timed_out else p.returncode
    if timed_out:
        state = "timeout"
    elif rc == 0:
        state = "ok"
    elif any(m in stderr for m in ("out of memory", "bad_alloc", "Cannot allocate memory")):
        state = "out of memory"
    else:
        state = "failed"
    return {"wall_s": wall, "rss_mb": usage.ru_maxrss / 1024.0, "rc": rc, "status": state,
            "stdout": stdout, "stderr": stderr}


def log(msg):
    """A progress line on stderr."""
    print(msg, file=sys.stderr, flush=True)


def sha(*parts):
    """A 16-hex-digit key of parts (bytes, or anything as its str)."""
    h = hashlib.sha1()
    for p in parts:
        h.update(p if isinstance(p, bytes) else str(p).encode())
    return h.hexdigest()[:16]


def file_sha(path):
    with open(path, "rb") as f:
        return sha(f.read())


def cached(path, key, compute, fresh=False, files=()):
    """The result (a dict) cached at path under key, else compute() (then
    cached); a result with status ok whose files are gone is computed again."""
    if not fresh and os.path.exists(path):
        try:
            with open(path) as f:
                c = json.load(f)
            r = c["result"]
            if c.get("key") == key and (r.get("status") != "ok" or all(map(os.path.exists, files))):
                return r
        except (OSError, ValueError, KeyError, AttributeError):
            pass
    result = compute()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tmp", "w") as f:
        json.dump({"key": key, "result": result}, f)
    os.replace(path + ".tmp", path)
    return result


def objdump(obj):
    """`objdump -d` of obj without its header (which names the file); None if
    objdump fails."""
    r = subprocess.run(["objdump", "-d", obj], capture_output=True, text=True)
    return r.stdout.split("\n", 3)[-1] if r.returncode == 0 else None


def objdump_compare(a, b):
    """Whether objects a and b have the same `objdump -d`: (identical, number
    of differing lines or None when identical or objdump failed)."""
    import difflib
    da, db = objdump(a), objdump(b)
    if da is not None and da == db:
        return True, None
    if da is None or db is None:
        return False, None
    return False, sum(1 for l in difflib.unified_diff(da.splitlines(), db.splitlines(), n=0)
                      if l[:1] in "+-" and l[:3] not in ("+++", "---"))


def csmith_include():
    """csmith's header directory; exits if csmith is not installed."""
    inc = sorted(glob.glob("/usr/include/csmith*"))
    if not shutil.which("csmith") or not inc:
        sys.exit("%s: csmith and its headers (/usr/include/csmith*) are needed"
                 % os.path.basename(sys.argv[0]))
    return inc[-1]


def csmith_program(seed, work):
    """work/src/csmith/seedSEED.c, made by `csmith --seed SEED` when absent."""
    d = os.path.join(work, "src", "csmith")
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, "seed%d.c" % seed)
    if not os.path.exists(path):
        # cwd: csmith writes and reads back platform.info in the current
        # directory, so each run has a directory of its own (parallel runs
        # sharing one read a half-written file: "please specify integer size")
        tmp = "%s.%d.tmp" % (path, os.getpid())
        with tempfile.TemporaryDirectory(dir=d) as cwd:
            run(["csmith", "--seed", str(seed), "-o", tmp], cwd=cwd)
        os.replace(tmp, path)
    return path


def without_profiled(extra, stderr):
    """extra (-p NAME=VALUE pairs) less the names that `segtime predict
    --profile` said it measured ("...; -p given, not used" on stderr): with
    the profile, a measured value replaces the one given from the algorithm."""
    names = set(re.findall(r"^segtime: profile .*?: (\S+) = .*; -p given, not used$", stderr, re.M))
    out = []
    for k in range(0, len(extra) - 1, 2):
        if not (extra[k] == "-p" and extra[k + 1].split("=", 1)[0] in names):
            out += extra[k:k + 2]
    return out


def pct(predicted, measured_value):
    """(predicted - measured) / measured in percent."""
    return 100.0 * (predicted - measured_value) / measured_value if measured_value else float("nan")


def ct_reachable(ct, kernel):
    """Names of the functions of a .ct.json that kernel reaches by calls
    (itself included, transitively), and the functions by name."""
    byname = {f["name"]: f for f in ct["functions"]}
    reach, todo = set(), [kernel]
    while todo:
        f = todo.pop()
        if f in reach or f not in byname:
            continue
        reach.add(f)
        todo += [n.get("callee", "") for n in byname[f]["nodes"] if n["kind"] == "call"]
    return reach, byname


def add_phase_arguments(ap, wait):
    """--phase-wait (default wait s) and --retries for a script that runs behind
    PhaseProbe."""
    ap.add_argument("--phase-wait", type=float, default=wait,
                    help="seconds to wait, per timed run, for the phase probe to come within "
                         "25%% of its fastest value (default " + "%g" % wait + "; 0: do not wait)")
    ap.add_argument("--retries", type=int, default=2,
                    help="runs again, at most this often, a run before or after which the phase "
                         "probe is more than 25%% slower than its fastest value (default 2)")


def fast_rounds(values, before, after, best, limit=1.25):
    """The values (one per run) of the runs with the phase probe (s per point)
    within `limit` of `best` both before and after the run (PhaseProbe)."""
    return [v for v, b, f in zip(values, before, after) if max(b, f) <= limit * best]


class PhaseProbe:
    """The VM's slow phases (docs/results.md "Machines"): for seconds to
    minutes code with loads runs up to 2x slower while a register-only chain
    does not, so a clock probe cannot see them. The probe: Horner's rule of
    degree 16 on 2000 points in L1 (validation/poly.c, built once with plain
    clang -O2 -march=native), s per point (minimum of 15 calls).

    measure(run_once) waits (at most `wait` s, probing every 3 s) until the
    probe is within `limit` of its fastest value, runs, probes again, and if
    the phase turned slow meanwhile sets the run aside and runs again (at most
    `retries` times); a run that started in a slow phase (the wait ran out)
    is run again the same way. `log` receives one line per run."""

    def __init__(self, workdir, wait=60.0, limit=1.25, log=None):
        self.binary = os.path.join(workdir, "phase-probe")
        run([CLANG, "-O2", "-march=native", os.path.join(ROOT, "validation", "poly.c"),
             "-o", self.binary, "-lm"])
        self.wait, self.limit, self.log = wait, limit, log or (lambda line: None)
        self.best = float("inf")
        # The fastest value: first from a few probes a second apart, so that
        # the first run does not set it in a slow phase.
        for _ in range(5):
            self.probe()
            time.sleep(1)

    def probe(self):
        """Seconds per point of the probe; updates the fastest value."""
        m = measured(run([self.binary, "2000", "16"],
                         env=dict(os.environ, SEGTIME_REPS="15")).stdout)
        p = m["min_s"] / 2000
        self.best = min(self.best, p)
        return p

    def slow(self, p):
        return p > self.limit * self.best

    def wait_fast(self):
        """Probes until the phase is fast (or `wait` s passed): (probe, s waited)."""
        p, waited = self.probe(), 0
        while self.slow(p) and waited < self.wait:
            time.sleep(3)
            waited += 3
            p = self.probe()
        return p, waited

    def measure(self, run_once, retries=2, what=""):
        """run_once() behind the probe: (its result, probe before, probe after,
        results of the runs set aside)."""
        aside = []
        for attempt in range(retries + 1):
            before, waited = self.wait_fast()
            m = run_once()
            after = self.probe()
            again = (self.slow(before) or self.slow(after)) and attempt < retries
            self.log("%s (phase probe %.1f ns/point before, %.1f after%s%s)"
                     % (what, before * 1e9, after * 1e9,
                        ", waited %d s" % waited if waited else "",
                        ", slow phase: run again" if again else ""))
            if not again:
                return m, before, after, aside
            aside.append(m)
