#!/bin/bash
# The VM scenarios on every kernel series at once (tests/vm/run.sh each),
# their PASS/FAIL lines in series order; exit 1 when any series failed.
# usage: bash tests/vm/matrix.sh [SERIES...]
#        (default: 6.1 5.10 6.12 arm64-6.1 6.1-nobtf; run.sh names them)
# Each qemu is single-threaded TCG (see run.sh), so three fit 2 host CPUs:
# 41 s for all three here, against 35 s for 6.1 alone.
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
series=${*:-6.1 5.10 6.12 arm64-6.1 6.1-nobtf}
mkdir -p "$B/vm"
declare -A pid
for s in $series; do
	bash tests/vm/run.sh "$s" >"$B/vm/matrix-$s.log" 2>&1 &
	pid[$s]=$!
done
rc=0
for s in $series; do
	wait "${pid[$s]}" || rc=1
	cat "$B/vm/matrix-$s.log"
done
exit $rc
