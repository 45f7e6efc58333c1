#!/bin/bash
# -flamegraph -rotate SIZE|DURATION -keep N: the recording as a series of
# complete files in HOST-NAME-TIME/:
#  - by size: the read loop traced by two ior at once, one rotating every
#    256K, one not: the series read as a directory (ior collapsed, ior
#    summary) gives exactly the other's pairs; every file reads alone,
#    none truncated; -keep 3 on the same run keeps the 3 newest
#  - by time: 1 s files of a 6 s run, -keep 3: three left, the others
#    removed and said
#  - usage errors exit 2
. "$(dirname "$0")/../lib/common.sh"
setup
cd "$T" || exit 1

F=/dev/shm/ior-rotate.$$
[ -d /dev/shm ] || F="$T/loop"
at_exit "rm -f '$F'"
echo x >"$F"
N=${ROTATE_N:-2000000}
series() { ls -d "$T"/*-"$1"-*/ 2>/dev/null | head -n 1; }

# ---- by size -------------------------------------------------------------
start_workload loop "$F" "$N" || fail size-run "$WHY"
"$IOR" -pid "$WL_PID" -flamegraph -name whole -mapSize 16M >/dev/null 2>"$T/whole.err" </dev/null &
WHOLE=$!
at_exit "kill -KILL $WHOLE 2>/dev/null"
"$IOR" -pid "$WL_PID" -flamegraph -name kept -rotate 256K -keep 3 -mapSize 16M >/dev/null 2>"$T/kept.err" </dev/null &
KEPT=$!
at_exit "kill -KILL $KEPT 2>/dev/null"
if wait_until 10 file_has "$T/whole.err" '^ior: tracing' && wait_until 10 file_has "$T/kept.err" '^ior: tracing' &&
	run_released -pid "$WL_PID" -flamegraph -name rot -rotate 256K -mapSize 16M; then
	wait "$WHOLE" "$KEPT"
	D=$(series rot)
	W=$(ls "$T"/*-whole-*.ior.zst)
	files=$(ls "$D" | grep -c '\.ior\.zst$')
	wrote=$(grep -c '^Wrote ' "$IOR_ERR")
	if [ "$files" -ge 4 ] && [ "$files" = "$wrote" ]; then pass "size-files ($files)"; else
		fail size-files "$files files, $wrote Wrote lines"; fi
	"$IOR" collapsed -fields=comm,path,tracepoint "$D" >"$T/series.folded" 2>"$T/series.err"
	"$IOR" collapsed -fields=comm,path,tracepoint "$W" >"$T/whole.folded" 2>/dev/null
	if [ -s "$T/whole.folded" ] && cmp -s "$T/series.folded" "$T/whole.folded" && [ ! -s "$T/series.err" ]; then
		pass size-series-equals-whole
	else
		fail size-series-equals-whole "$(diff "$T/series.folded" "$T/whole.folded" | head -4) $(head -c 200 "$T/series.err")"
	fi
	if grep -q "^workload;.*pread64 $N\$" "$T/series.folded"; then pass size-every-pair; else
		fail size-every-pair "$(cat "$T/series.folded")"; fi
	"$IOR" summary "$D" 2>/dev/null | head -n 1 >"$T/s1"
	"$IOR" summary "$W" 2>/dev/null | head -n 1 >"$T/s2"
	if [ -s "$T/s1" ] && [ "$(cut -d' ' -f1 "$T/s1")" = "$(cut -d' ' -f1 "$T/s2")" ] &&
		[ "$(cut -d' ' -f1 "$T/s1")" = $((N + 1)) ]; then
		pass size-summary-totals
	else
		fail size-summary-totals "$(cat "$T/s1") / $(cat "$T/s2")"
	fi
	bad=""
	sum=0
	for f in "$D"/*.ior.zst; do
		out=$("$IOR" summary "$f" 2>&1 >/dev/null)
		[ $? = 0 ] && [ -z "$out" ] || bad="$bad $(basename "$f"): $out"
		sum=$((sum + $("$IOR" summary "$f" 2>/dev/null | head -n 1 | cut -d' ' -f1)))
	done
	if [ -z "$bad" ] && [ "$sum" = $((N + 1)) ]; then pass size-each-file-alone; else
		fail size-each-file-alone "sum $sum;$bad"; fi
	K=$(series kept)
	kfiles=$(ls "$K" | grep -c '\.ior\.zst$')
	kwrote=$(grep -c '^Wrote ' "$T/kept.err")
	removed=$(grep -c '^ior: -keep 3: removed ' "$T/kept.err")
	if [ "$kfiles" = 3 ] && [ "$removed" = $((kwrote - 3)) ] && [ "$kwrote" -ge 4 ]; then
		pass size-keep-3
	else
		fail size-keep-3 "$kfiles files, $kwrote written, $removed removed"
	fi
	# the three kept are the newest: the last one written is there
	last=$(grep '^Wrote ' "$T/kept.err" | tail -n 1 | sed 's/^Wrote \(.*\) ([0-9]* pairs.*/\1/')
	if [ -f "$last" ]; then pass size-keep-newest; else fail size-keep-newest "$last is gone"; fi
else
	fail size-run "$WHY"
fi

# ---- by time ---------------------------------------------------------------
echo x >"$T/f"
start_workload flight "$T/f" "$T/missing" 3000 3000 1 || fail time-run "$WHY"
if run_released -pid "$WL_PID" -flamegraph -name timed -rotate 1s -keep 3; then
	D=$(series timed)
	files=$(ls "$D" | grep -c '\.ior\.zst$')
	wrote=$(grep -c '^Wrote ' "$IOR_ERR")
	removed=$(grep -c '^ior: -keep 3: removed ' "$IOR_ERR")
	# a file a second of the ~6.5 s run (the settle included)
	if [ "$files" = 3 ] && [ "$wrote" -ge 6 ] && [ "$wrote" -le 9 ] && [ "$removed" = $((wrote - 3)) ]; then
		pass "time-files ($wrote written, 3 kept)"
	else
		fail time-files "$files files, $wrote written, $removed removed"
	fi
	if "$IOR" summary "$D" >/dev/null 2>"$T/t.err" && [ ! -s "$T/t.err" ]; then pass time-series-reads; else
		fail time-series-reads "$(head -c 200 "$T/t.err")"; fi
else
	fail time-run "$WHY"
fi

# ---- usage -------------------------------------------------------------------
ior_fails 2 '^ior: -rotate "1h" cuts the -flamegraph recording' -rotate 1h && pass usage-no-flamegraph || fail usage-no-flamegraph "$WHY"
ior_fails 2 '^ior: -rotate "100": say which' -flamegraph -rotate 100 && pass usage-bare-number || fail usage-bare-number "$WHY"
ior_fails 2 '^ior: -rotate "1x": want a size' -flamegraph -rotate 1x && pass usage-bad-unit || fail usage-bad-unit "$WHY"
ior_fails 2 '^ior: -keep N belongs to -rotate' -flamegraph -keep 3 && pass usage-keep-alone || fail usage-keep-alone "$WHY"
finish
