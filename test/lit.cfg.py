# lit configuration for segtime: one folder per component (plugin/, tools/).
import os
import lit.formats

config.name = "segtime"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".c", ".cpp", ".test", ".ll"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in", "unit", "fuzz"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.segtime_obj_root, "test")

tools = config.llvm_tools_dir
config.substitutions.append(("%segtime_plugin", os.path.join(config.segtime_obj_root, "lib", "segtime.so")))
config.substitutions.append(("%segtime_expr", os.path.join(config.segtime_obj_root, "lib", "segtime-expr.so")))
config.substitutions.append(("%segtime_passes", os.path.join(config.segtime_obj_root, "lib", "segtime-passes.so")))
config.substitutions.append(("%segtime_rt", os.path.join(config.segtime_obj_root, "lib", "libsegtime-rt.a")))
config.substitutions.append(("%segtime", os.path.join(config.segtime_obj_root, "bin", "segtime")))
config.substitutions.append(("%clang", os.path.join(tools, "clang")))
config.substitutions.append(("%costvectors", os.path.join(config.segtime_src_root, "costvectors")))
import sys
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
config.environment["PATH"] = os.pathsep.join([tools, config.environment.get("PATH", "")])
# The user's data directory is an empty one in the build tree: no test reads
# or writes the real home directory; tests of the user's machines set their own.
config.environment["XDG_DATA_HOME"] = os.path.join(config.segtime_obj_root, "test", "xdg-empty")
config.environment.pop("SEGTIME_MACHINE_PATH", None)
# Sanitizer build (scripts/sanitize.sh): the preloaded sanitizer runtime and
# its options reach every command, clang-19 with the plugin included.
for _var in ("LD_PRELOAD", "ASAN_OPTIONS", "UBSAN_OPTIONS"):
    if _var in os.environ:
        config.environment[_var] = os.environ[_var]
# MPI (test/plugin/mpi-*.c): the include flags of the installed MPI, and the
# feature `mpi` when its mpi.h is present (tests say REQUIRES: mpi).
import shutil, subprocess
_mpi_flags = ""
if shutil.which("mpicc"):
    try:
        _mpi_flags = subprocess.run(["mpicc", "--showme:compile"], capture_output=True,
                                    text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        _mpi_flags = ""
if shutil.which("mpirun") and any(os.path.exists(os.path.join(f[2:], "mpi.h")) for f in _mpi_flags.split() if f.startswith("-I")):
    config.available_features.add("mpi")
config.substitutions.append(("%mpi_cflags", _mpi_flags))
