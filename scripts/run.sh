#!/bin/sh
# The main job from a fresh clone: install build dependencies, build ior,
# trace the whole system for a few seconds and serve the flamegraph.
# usage: sudo scripts/run.sh [SECONDS] [extra ior flags for the trace]
set -eu
cd "$(dirname "$0")/.."
seconds=${1:-5}
[ $# -gt 0 ] && shift

scripts/deps.sh build
make --no-print-directory
out=$(mktemp)
trap 'rm -f "$out"' EXIT
./ior -flamegraph -name demo -duration "$seconds" "$@" 2>&1 | tee "$out"
file=$(sed -n 's/^Wrote \([^ ]*\.ior\.zst\).*/\1/p' "$out" | tail -n 1)
[ -n "$file" ] || { echo "run.sh: ior wrote no recording (see above)" >&2; exit 1; }
exec ./ior -ior="$file" ${IOR_HTTP:+-http="$IOR_HTTP"}
