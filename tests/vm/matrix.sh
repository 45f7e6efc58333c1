#!/bin/bash
# The VM scenarios on every kernel series at once (tests/vm/run.sh each),
# their PASS/FAIL lines in series order; exit 1 when any series failed.
# usage: bash tests/vm/matrix.sh [SERIES...]
#        (default: 6.1 5.10 6.12 arm64-6.1 6.1-nobtf; run.sh names them)
# Each qemu is single-threaded TCG (see run.sh): all five take 74 s on 2
# host CPUs here, against 24-26 s for one alone; each log ends with its time.
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
series=${*:-6.1 5.10 6.12 arm64-6.1 6.1-nobtf}
mkdir -p "$B/vm"
declare -A pid
for s in $series; do
	(
		start=$SECONDS
		bash tests/vm/run.sh "$s"
		rc=$?
		echo "      vm-$s: $((SECONDS - start)) s wall time"
		exit $rc
	) >"$B/vm/matrix-$s.log" 2>&1 &
	pid[$s]=$!
done
rc=0
for s in $series; do
	wait "${pid[$s]}" || rc=1
	cat "$B/vm/matrix-$s.log"
done
exit $rc
