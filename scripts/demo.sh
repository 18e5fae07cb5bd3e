#!/usr/bin/env bash
# demo.sh - the main job on the built-in examples, from a fresh Debian 12 machine.
#
# USAGE: scripts/demo.sh            (installs packages, builds, calibrates once, runs)
#        SEGTIME_RECALIBRATE=1 scripts/demo.sh
#
# 1. scripts/setup.sh: apt packages + CMake build (build/lib/segtime.so, build/bin/segtime)
# 2. segtime calibrate: measures this machine's PARKBENCH-93 low-level parameters and
#    HLLC, POC, INTCC and ICC cost vectors into costvectors/local.yaml (once, about
#    1-2 min; not versioned: it belongs to this machine)
# 3. scripts/run_examples.py: compiles examples/*.c with the plugin at -O0 and -O2,
#    prints the kernels' timing formulas, runs them, prints predicted vs measured.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
# The demo uses its own machine file: never the user's data directory
# (segtime calibrate's default output, the plugin's default machine).
export XDG_DATA_HOME="$root/build/demo-data"
unset SEGTIME_MACHINE_PATH
machine="$root/costvectors/local.yaml"
if [ ! -f "$machine" ] || [ "${SEGTIME_RECALIBRATE:-0}" = 1 ]; then
  "$root/build/bin/segtime" calibrate --out "$machine"
fi
"$root/scripts/run_examples.py" --machine "$machine" --json "$root/build/examples/results.json" "$@"
