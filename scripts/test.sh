#!/usr/bin/env bash
# test.sh - every test: lit + FileCheck (test/plugin, test/tools) and GoogleTest
# unit tests (test/unit), through ctest. Installs and builds first (setup.sh).
#
# USAGE: scripts/test.sh [ctest options]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
cd "$root/build"
ctest --output-on-failure "$@"
