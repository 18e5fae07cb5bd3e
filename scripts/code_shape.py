#!/usr/bin/env python3
"""code_shape.py - the code-structure limits of segtime, checked.

USAGE:
  scripts/code_shape.py [--build build] [--jobs 2] [--max-function 150]
                        [--max-file 800] [--longest 10]

Checks, over the repository's own code (docs/style.md, "Size and shape"):
  1. no source file (C, C++, Python, shell, CMake) over --max-file lines;
  2. no function over --max-function lines: C and C++ function extents from
     libclang (Debian's python3-clang-19) over the translation units of
     build/compile_commands.json (headers through the units that include
     them; a file that no unit compiles is parsed on its own), Python
     function extents from the ast module;
  3. the level names ("POC", "HLLC", "INTCC", "ICC", "CT", in any case) as
     whole C/C++ string literals only in the boundary files of BOUNDARY (the
     level units and the JSON key of a level) and in the tests, which assert
     what the boundary writes; every other place asks the level units
     (predictor/levels/LevelUnit.h) or levelKey.
An exception is marked where it is by a comment with the marker and its
reason (`// code-shape: data table`):
within the 3 lines above a function (or on its first line) for that
function, in the first 40 lines of a file for the file's length.
Benchmark kernels and test inputs (the programs the tools read, not the
tools) are not checked: see SKIP.

Each unit's results are kept in BUILD/code_shape_cache.json and reused while
its arguments and the repository files it reads are unchanged: the first run
parses every unit (minutes on 2 cores), a later one only what changed.

Prints every finding as FILE:LINE: what, then the longest functions, then
one line of counts; exit status 1 on a finding, 2 when the checks cannot run
(no libclang bindings, no compile_commands.json, a translation unit that
does not parse). Run by ctest (test `code-shape`).
"""
import argparse, ast, concurrent.futures, hashlib, json, os, re, shlex, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Not the tools' code: programs and inputs the tools read or measure.
SKIP = ("examples/", "validation/", "tools/calib/kernels/", "tools/commbench/",
        "test/plugin/", "test/passes/", "test/tools/", "test/Inputs/", "test/unit/Inputs/")
# Where a level's name may stand as a string literal: the level units, and
# the one mapping between Level and its JSON/YAML/command-line key.
BOUNDARY = ("predictor/levels/",      # the level units
            "core/Vocabulary.cpp")    # levelKey / parseLevel: the key in files and on the command line
# Where they may stand too: the tests assert what the boundary writes and reads.
LITERALS_ALLOWED = ("test/",)
LEVEL_NAMES = {"poc", "hllc", "intcc", "icc", "ct"}
C_EXT = (".c", ".cc", ".cpp", ".h", ".hpp")
SOURCE_EXT = C_EXT + (".py", ".sh", ".cmake")
MARK = re.compile(r"code-shape:\s*(\S.{2,})")


def load_cindex():
    """clang.cindex from python3-clang-19, also under an interpreter other
    than Debian's (a pyenv python3 does not see /usr/lib/python3/dist-packages);
    None if it is not installed."""
    try:
        import clang.cindex as ci
    except ImportError:
        sys.path.append("/usr/lib/python3/dist-packages")
        try:
            import clang.cindex as ci
        except ImportError:
            return None
    lib = "/usr/lib/llvm-19/lib/libclang-19.so.1"
    if not ci.Config.loaded and os.path.exists(lib):
        ci.Config.set_library_file(lib)
    return ci


def fail(msg):
    print("code_shape.py: " + msg, file=sys.stderr)
    sys.exit(2)


def project_files():
    """The repository's source files (relative paths), from git when it can."""
    try:
        out = subprocess.run(["git", "-C", ROOT, "ls-files"], capture_output=True, text=True,
                             check=True).stdout.split("\n")
    except (OSError, subprocess.CalledProcessError):
        out = [os.path.relpath(os.path.join(d, f), ROOT) for d, _, fs in os.walk(ROOT)
               if "/build" not in d and "/." not in d for f in fs]
    return sorted(f for f in out if f and (f.endswith(SOURCE_EXT) or os.path.basename(f) ==
                  "CMakeLists.txt") and not f.startswith(SKIP) and os.path.isfile(os.path.join(ROOT, f)))


def marked(lines, first, last):
    """The reason of a code-shape comment on lines first..last (1-based), or None."""
    for i in range(max(first, 1), min(last, len(lines)) + 1):
        m = MARK.search(lines[i - 1])
        if m:
            return m.group(1).strip()
    return None


def compile_args(entry, build):
    """The arguments of a compile_commands.json entry without the compiler,
    the source, the output and the dependency-file options."""
    args = entry.get("arguments") or shlex.split(entry["command"])
    while args and (os.path.basename(args[0]) in ("ccache", "sccache") or args[0].endswith("ccache")):
        args = args[1:]
    args, out, skip = args[1:], [], 0
    for i, a in enumerate(args):
        if skip:
            skip -= 1
        elif a in ("-o", "-MF", "-MT", "-MQ"):
            skip = 1
        elif a in ("-c", "-MD", "-MMD") or os.path.normpath(os.path.join(entry["directory"], a)) == \
                os.path.normpath(os.path.join(entry["directory"], entry["file"])):
            pass
        else:
            out.append(a)
    return out


FUNCTION_KINDS = ("FUNCTION_DECL", "CXX_METHOD", "CONSTRUCTOR", "DESTRUCTOR",
                  "CONVERSION_FUNCTION", "FUNCTION_TEMPLATE")
SCOPE_KINDS = ("NAMESPACE", "CLASS_DECL", "STRUCT_DECL", "UNION_DECL", "CLASS_TEMPLATE",
               "CLASS_TEMPLATE_PARTIAL_SPECIALIZATION", "LINKAGE_SPEC", "UNEXPOSED_DECL")


def scan_unit(job):
    """Parses one translation unit; returns its project files' functions
    (file, first line, last line, name), level-name literals (file, line,
    text) and errors. Runs in a worker process (libclang objects stay here)."""
    src, args, wanted = job
    ci = load_cindex()
    index = ci.Index.create()
    try:
        tu = index.parse(src, args=args)
    except ci.TranslationUnitLoadError as e:
        return [], [], ["%s: libclang cannot parse it (%s)" % (src, e)], [], []
    errors = ["%s:%s: %s" % (d.location.file.name if d.location.file else src, d.location.line,
                             d.spelling) for d in tu.diagnostics
              if d.severity >= ci.Diagnostic.Error and "unknown argument" not in d.spelling]
    root = ROOT + os.sep
    funcs, rels = [], {}

    def rel_of(name):
        """name relative to ROOT if it is one of the wanted files, else None."""
        if name not in rels:
            p = os.path.realpath(name)
            r = os.path.relpath(p, ROOT) if p.startswith(root) else None
            rels[name] = r if r in wanted else None
        return rels[name]

    def inside(c):
        f = c.location.file
        return f is not None and rel_of(f.name) is not None

    def walk(c):
        for k in c.get_children():
            if not inside(k):
                continue
            kind = k.kind.name
            if kind in SCOPE_KINDS:
                walk(k)
            elif kind in FUNCTION_KINDS and k.is_definition():
                e = k.extent
                if e.start.file is None or e.start.file.name != k.location.file.name:
                    continue  # made by a macro
                parent = k.semantic_parent
                name = k.spelling
                if parent is not None and parent.kind.name in SCOPE_KINDS[1:6]:
                    name = parent.spelling + "::" + name
                funcs.append((rel_of(e.start.file.name), e.start.line, e.end.line, name))

    walk(tu.cursor)
    # Level-name literals, over the raw tokens of each project file the unit reads.
    literals, seen = [], []
    files = {os.path.relpath(os.path.realpath(src), ROOT)}
    for inc in tu.get_includes():
        p = os.path.realpath(inc.include.name)
        if p.startswith(root):
            files.add(os.path.relpath(p, ROOT))
    for rel in sorted(files & wanted):
        path = os.path.join(ROOT, rel)
        f = tu.get_file(path) if rel != os.path.relpath(os.path.realpath(src), ROOT) else tu.get_file(src)
        size = os.path.getsize(path)
        extent = ci.SourceRange.from_locations(ci.SourceLocation.from_offset(tu, f, 0),
                                               ci.SourceLocation.from_offset(tu, f, size))
        seen.append(rel)
        for t in tu.get_tokens(extent=extent):
            if t.kind.name != "LITERAL" or not t.spelling.endswith('"'):
                continue
            text = t.spelling[t.spelling.index('"') + 1:-1]
            if text.lower() in LEVEL_NAMES:
                literals.append((rel, t.location.line, t.spelling))
    deps = {os.path.relpath(os.path.realpath(src), ROOT)}
    for inc in tu.get_includes():
        p = os.path.realpath(inc.include.name)
        if p.startswith(root):
            deps.add(os.path.relpath(p, ROOT))
    return funcs, literals, errors, seen, sorted(deps)


class Cache:
    """The results of each translation unit, kept in the build folder and
    reused while its arguments and the repository files it reads (the source,
    the project headers, generated files) are unchanged: a full scan parses
    every unit (minutes), a later one only what changed."""

    def __init__(self, path, wanted):
        self.path, self.hashes = path, {}
        self.wanted = hashlib.sha1("\n".join(sorted(wanted)).encode()).hexdigest()
        try:
            with open(path) as f:
                self.units = json.load(f)
        except (OSError, ValueError):
            self.units = {}

    def sha(self, rel):
        if rel not in self.hashes:
            try:
                with open(os.path.join(ROOT, rel), "rb") as f:
                    self.hashes[rel] = hashlib.sha1(f.read()).hexdigest()
            except OSError:
                self.hashes[rel] = None
        return self.hashes[rel]

    def get(self, job):
        u = self.units.get(job[0])
        if not u or u["args"] != job[1] or u["wanted"] != self.wanted or \
                any(self.sha(r) != h for r, h in u["deps"].items()):
            return None
        return [[tuple(x) for x in part] if i < 2 else part for i, part in enumerate(u["result"])]

    def put(self, job, result):
        self.units[job[0]] = {"args": job[1], "wanted": self.wanted,
                              "deps": {r: self.sha(r) for r in result[4]},
                              "result": [list(map(list, result[0])), list(map(list, result[1]))] +
                                        list(result[2:])}

    def save(self):
        try:
            with open(self.path + ".tmp", "w") as f:
                json.dump(self.units, f)
            os.replace(self.path + ".tmp", self.path)
        except OSError:
            pass


def scan_all(pool, cache, jobs, standalone=False):
    """scan_unit over jobs, from the cache where it can (a unit with errors is
    not kept, unless parsed on its own: its includes are not found)."""
    results = [cache.get(j) for j in jobs]
    todo = [i for i, r in enumerate(results) if r is None]
    for i, r in zip(todo, pool.map(scan_unit, [jobs[i] for i in todo])):
        results[i] = r
        if standalone or not r[2]:
            cache.put(jobs[i], r)
    return results, len(todo)


def standalone_args(rel):
    lang = ["-x", "c"] if rel.endswith(".c") else ["-x", "c++", "-std=c++17"]
    return lang + ["-I", ROOT, "-fsyntax-only"]


def python_functions(rel):
    with open(os.path.join(ROOT, rel)) as f:
        tree = ast.parse(f.read(), rel)
    out = []
    for n in ast.walk(tree):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([n.lineno] + [d.lineno for d in n.decorator_list])
            out.append((rel, first, n.end_lineno, n.name))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--max-function", type=int, default=150)
    ap.add_argument("--max-file", type=int, default=800)
    ap.add_argument("--longest", type=int, default=10, help="how many of the longest functions to list")
    a = ap.parse_args()
    if load_cindex() is None:
        fail("no libclang Python bindings (Debian: apt-get install python3-clang-19; scripts/setup.sh)")
    db = os.path.join(a.build, "compile_commands.json")
    try:
        with open(db) as f:
            entries = json.load(f)
    except (OSError, ValueError) as e:
        fail("cannot read %s (configure with CMAKE_EXPORT_COMPILE_COMMANDS, CMakeLists.txt): %s" % (db, e))

    files = project_files()
    lines = {}
    for rel in files:
        with open(os.path.join(ROOT, rel), errors="replace") as f:
            lines[rel] = f.read().split("\n")
            if lines[rel] and lines[rel][-1] == "":
                lines[rel].pop()
    c_files = {f for f in files if f.endswith(C_EXT)}
    resource = subprocess.run(["/usr/lib/llvm-19/bin/clang", "-print-resource-dir"],
                              capture_output=True, text=True).stdout.strip()
    extra = ["-resource-dir", resource] if resource else []

    jobs, units = [], set()
    for e in entries:
        src = os.path.realpath(os.path.join(e["directory"], e["file"]))
        rel = os.path.relpath(src, ROOT)
        if rel in c_files and rel not in units:
            units.add(rel)
            jobs.append((src, compile_args(e, a.build) + extra, c_files))
    funcs, literals, errors, seen = set(), set(), [], set()
    cache = Cache(os.path.join(a.build, "code_shape_cache.json"), c_files)
    with concurrent.futures.ProcessPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        results, parsed = scan_all(pool, cache, jobs)
        for fs, ls, es, sn, _ in results:
            funcs.update(fs), literals.update(ls), errors.extend(es), seen.update(sn)
        # What no unit reads (a header no one includes, a program built by a script):
        # parsed on its own, its errors (includes not found) not counted.
        rest = sorted(c_files - seen)
        results, n = scan_all(pool, cache, [(os.path.join(ROOT, r), standalone_args(r) + extra,
                                             {r}) for r in rest], standalone=True)
        parsed += n
        for fs, ls, es, sn, _ in results:
            funcs.update(fs), literals.update(ls), seen.update(sn)
    cache.save()
    if errors:
        fail("translation units with errors (the extents would be wrong):\n  " +
             "\n  ".join(sorted(set(errors))[:20]))
    for rel in files:
        if rel.endswith(".py"):
            funcs.update(python_functions(rel))

    findings, excepted = [], []
    for rel in files:
        n = len(lines[rel])
        if n > a.max_file:
            why = marked(lines[rel], 1, 40)
            (excepted if why else findings).append(
                "%s:1: file of %d lines (limit %d)%s" % (rel, n, a.max_file, ": " + why if why else ""))
    long_funcs = sorted(funcs, key=lambda f: (-(f[2] - f[1] + 1), f[0], f[1]))
    for rel, first, last, name in long_funcs:
        n = last - first + 1
        if n <= a.max_function:
            break
        why = marked(lines.get(rel, []), first - 3, first)
        (excepted if why else findings).append("%s:%d: function %s of %d lines (limit %d)%s" % (
            rel, first, name, n, a.max_function, ": " + why if why else ""))
    for rel, line, text in sorted(literals):
        if not rel.startswith(BOUNDARY + LITERALS_ALLOWED):
            findings.append("%s:%d: level name %s as a string literal outside the boundary files "
                            "(use levelKey or the level unit)" % (rel, line, text))

    for f in findings:
        print(f)
    for f in excepted:
        print("excepted: " + f)
    if a.longest:
        print("longest functions:")
        for rel, first, last, name in long_funcs[:a.longest]:
            print("  %4d  %s:%d %s" % (last - first + 1, rel, first, name))
    print("code_shape: %d files (%d C/C++, %d through %d translation units, %d parsed now, "
          "%d on their own), %d functions, %d level-name literals in boundary files; "
          "%d findings, %d marked exceptions" % (
              len(files), len(c_files), len(seen), len(jobs), parsed, len(rest), len(funcs),
              sum(1 for l in literals if l[0].startswith(BOUNDARY)), len(findings), len(excepted)))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
