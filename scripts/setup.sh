#!/usr/bin/env bash
# setup.sh - install every Debian 12 package segtime needs, then configure and build.
#
# USAGE: scripts/setup.sh            (idempotent; run as root or with sudo available)
#        SEGTIME_SKIP_APT=1 scripts/setup.sh   (build only)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
PKGS=(llvm-19-dev libclang-19-dev clang-19 llvm-19-tools libeigen3-dev libginac-dev
      libcln-dev nlohmann-json3-dev libyaml-cpp-dev libgtest-dev cmake ninja-build
      python3 gnuplot-nox graphviz valgrind zlib1g-dev libzstd-dev libedit-dev libxml2-dev
      libcurl4-openssl-dev libffi-dev openmpi-bin libopenmpi-dev csmith libcsmith-dev binutils
      libclang-rt-19-dev libboost-dev python3-clang-19)  # libclang-rt: the sanitizer and libFuzzer runtimes (fuzz.py, sanitize.sh); boost: Boost.Math (Student t); python3-clang: libclang for code_shape.py
need=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
if [ "${SEGTIME_SKIP_APT:-0}" != 1 ] && [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
cmake -S "$here" -B "$here/build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$here/build" -j"$(nproc)"
