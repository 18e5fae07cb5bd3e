#!/bin/sh
# sanitize.sh - the whole project built with ASan + UBSan, and its lit and
# unit tests run on that build.
#
# USAGE: scripts/sanitize.sh [BUILD_DIR (default build-asan)] [ctest arguments...]
#
# Configures BUILD_DIR with clang++-19 and -DSEGTIME_SANITIZE="address;undefined"
# (cmake/Sanitizers.cmake: every C++ target instrumented, a UBSan report stops
# the program, the shared sanitizer runtime), builds it and runs ctest.
# Needs libclang-rt-19-dev (the runtime libclang_rt.asan-x86_64.so).
#
# How the plugins are tested: segtime.so and segtime-passes.so are loaded
# into clang-19 and opt-19, which are not instrumented. ASan must come first
# in the process, so every test command runs with
#   LD_PRELOAD=$(clang-19 -print-file-name=libclang_rt.asan-x86_64.so)
# (test/lit.cfg.py passes LD_PRELOAD, ASAN_OPTIONS and UBSAN_OPTIONS on to
# the tests). The instrumented segtime and unit tests use the same shared
# runtime. Options:
#   detect_leaks=0   clang and python free little at exit by design; LeakSanitizer
#                    would report their allocations, not the plugin's.
#   detect_container_overflow=0   yaml-cpp and GiNaC are not instrumented;
#                    containers passed between them and the instrumented
#                    code can give false reports (ASan documents this).
# Every ctest test runs (lit, unit, install-package, malformed-inputs,
# seg-json-deterministic); SANITIZE_EXCLUDE='regex' leaves some out (ctest -E),
# e.g. the calibrate tests, whose benchmarks run much slower under ASan.
# The whole build is heavy: about 70 objects with LLVM's headers, one to
# several minutes each on 2 cores (JOBS=N sets the parallelism).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build-asan}
[ $# -gt 0 ] && shift
RT=$(clang-19 -print-file-name=libclang_rt.asan-x86_64.so)
if [ ! -f "$RT" ]; then
  echo "sanitize.sh: $RT not found: install libclang-rt-19-dev" >&2
  exit 2
fi
LAUNCHER=""
command -v ccache >/dev/null && LAUNCHER="-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache"
# shellcheck disable=SC2086
cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 -DCMAKE_CXX_FLAGS_RELEASE="-O1 -g1 -DNDEBUG" \
  -DSEGTIME_SANITIZE="address;undefined" $LAUNCHER
# (The options are set before the build: gtest_discover_tests runs the
# instrumented unit-test binary at build time; CLN leaks a static buffer.)
export ASAN_OPTIONS="detect_leaks=0:detect_container_overflow=0:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
cmake --build "$BUILD" -j"${JOBS:-2}"
export LD_PRELOAD="$RT"
cd "$BUILD"
if [ -n "${SANITIZE_EXCLUDE:-}" ]; then
  ctest --output-on-failure -E "$SANITIZE_EXCLUDE" "$@"
else
  ctest --output-on-failure "$@"
fi
