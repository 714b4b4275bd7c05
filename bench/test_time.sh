#!/usr/bin/env bash
# The test suite's cost, run the way `make test` runs it (two xdist workers): wall time and
# CPU seconds (user+sys of pytest, its workers and every process they waited for), and the
# tests and files that cost the most CPU (bench/cpu_durations.py). Chromium is mostly not in
# the "CPU" line (its processes are not waited for): the plugin's per-worker lines give it
# ("CPU s of the processes still running at the end"); add the two for the suite's CPU.
#
#   bench/test_time.sh                  # the whole suite
#   bench/test_time.sh -m "not browser"   # extra pytest arguments
#   TARGET=test-quick bench/test_time.sh  # make test-quick instead
#   COLD=1 bench/test_time.sh           # without the compiled-module cache (as in a fresh clone)
#
# On a machine shared with other work, compare the CPU seconds: the wall time depends on the
# neighbours.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -n "${COLD:-}" ]]; then
  rm -rf .venv/pycache
fi
args=(-q -p no:cacheprovider -p bench.cpu_durations --cpu-durations="${TOP:-30}")
for arg in "$@"; do
  args+=("$(printf '%q' "$arg")")
done
/usr/bin/time -f "== wall %e s, CPU %U s user + %S s sys" make "${TARGET:-test}" PYTEST_ARGS="${args[*]}"
