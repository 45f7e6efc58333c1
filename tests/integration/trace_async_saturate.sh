#!/bin/bash
# Async ops at saturation: 400,000 io_uring reads and 400,000 libaio
# reads (build/iorbench uring|aio, 4 KiB at queue depth 8) recorded with
# 64 KiB rings, made to fill by stopping ior for 0.5 s: the ops the rings cannot take are summarized in
# the kernel like syscalls, and the recording's totals stay exact (count
# and bytes per op, nothing lost).
. "$(dirname "$0")/../lib/common.sh"
setup

GEN="$ROOT/build/iorbench"
N=50000 # iterations: 8 ops each

for m in uring aio; do
	op=uring:read calls=$N # io_uring_enter
	[ $m = aio ] && op=aio:pread calls=$((2 * N)) # io_submit, io_getevents
	mkdir -p "$T/$m"
	cd "$T/$m" || exit 1
	# ior stopped for half a second while the ops run: its rings fill
	# whatever the machine's speed (a fast reader would keep up)
	"$IOR" -flamegraph -nohttp -name "sat$m" -mapSize 64K -- "$GEN" "$m" -n "$N" -dir /dev/shm \
		>"$T/$m.out" 2>"$T/$m.err" </dev/null &
	ipid=$!
	if wait_until 20 file_has "$T/$m.err" '^ior: tracing'; then
		kill -STOP "$ipid"
		sleep 0.5
		kill -CONT "$ipid"
	fi
	wait_until 120 not_alive "$ipid" || kill -KILL "$ipid"
	if ! wait "$ipid"; then
		fail "saturate-$m-run" "ior -- iorbench $m: $(head -c 300 "$T/$m.err")"
		continue
	fi
	rec=$(ls "$T/$m"/*.ior.zst 2>/dev/null | head -n 1)
	count=$("$IOR" collapsed -fields tracepoint "$rec" | awk -v op="$op" '$1 == op { print $2 }')
	bytes=$("$IOR" collapsed -fields tracepoint -count bytes "$rec" | awk -v op="$op" '$1 == op { print $2 }')
	summ=$(sed -n 's/.*summarized: \([0-9]*\) pairs.*/\1/p' "$T/$m.err")
	lost=$(sed -n 's/^ior: lost: \([0-9]*\) records.*/\1/p' "$T/$m.err")
	if [ "$count" = $((8 * N)) ] && [ "$bytes" = $((8 * N * 4096)) ] && [ "$lost" = 0 ]; then
		pass "saturate-$m ($count $op, bytes exact, lost 0, $summ pairs summarized)"
	else
		fail "saturate-$m" "$op: count ${count:-none}, bytes ${bytes:-none} (want $((8 * N)), $((8 * N * 4096))), lost ${lost:-?}: $(grep -E '^ior: (lost|traced)' "$T/$m.err" | tr '\n' ' ')"
	fi
	# ops summarized too: the replay has fewer rows of the op than ops
	# (a summary row stands for many)
	rows=$("$IOR" -ior="$rec" -plain 2>/dev/null | grep -c ",$op,")
	if [ "$rows" -lt $((8 * N)) ]; then
		pass "saturate-$m-ops-summarized ($rows rows for $((8 * N)) ops)"
	else
		fail "saturate-$m-ops-summarized" "$rows rows of $op for $((8 * N)) ops: the rings did not fill, or ops were not summarized"
	fi
done
finish
