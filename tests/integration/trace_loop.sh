#!/bin/bash
# 1,000,000 back-to-back pread64 calls (1 byte from a tmpfs file) traced
# with -pid: every pair must be accounted for. Either all N + 1 rows (the
# preads and the final close) are there and ior reports 0 lost, or ior
# reports the records it lost and the missing pairs fit them: each missing
# pair lost its enter, its exit or both, so lost/2 <= missing <= lost.
. "$(dirname "$0")/../lib/common.sh"
setup

N=${LOOP_N:-1000000}
F=/dev/shm/ior-loop.$$
[ -d /dev/shm ] || F="$T/loop"
at_exit "rm -f '$F'"
echo x >"$F"

start=$(date +%s.%N)
if ! WL_TIMEOUT=180 trace_scenario -- loop "$F" "$N"; then
	fail loop-run "$WHY"
	finish
	exit
fi
end=$(date +%s.%N)
P=$WL_LAST

# streaming count: the CSV is ~100 MB, too big for csvcheck's row dicts
read -r rows preads closes bad < <(python3 - "$IOR_OUT" "$P" "$F" <<'PY'
import csv, sys
path, pid, file = sys.argv[1], sys.argv[2], sys.argv[3]
rows = preads = closes = bad = 0
with open(path, newline="", errors="surrogateescape") as f:
    r = csv.reader(f, strict=True)
    if next(r, None) != ["durationToPrevNs", "durationNs", "comm", "pid.tid", "name", "ret", "file"]:
        bad += 1
    for rec in r:
        if len(rec) != 7:
            bad += 1
            continue
        if rec[3].split(".")[0] != pid:
            continue
        rows += 1
        on_file = rec[6] == file + "%(3)" or rec[6].startswith(file + "%(3,")
        if rec[4] == "pread64" and rec[5] == "1" and on_file:
            preads += 1
        elif rec[4] == "close" and rec[5] == "0" and on_file:
            closes += 1
print(rows, preads, closes, bad)
PY
)
lost=$(ior_stat lost)
want=$((N + 1))
echo "      loop: $N preads in $(python3 -c "import sys; print('%.1f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$start" "$end") s (traced); rows $rows, lost records ${lost:-?}"
echo "      ior said: $(grep -v '^ior: tracing' "$IOR_ERR" | tr '\n' ' ' | head -c 400)"

if [ "$bad" != 0 ]; then
	fail loop-csv "$bad malformed records"
else
	pass loop-csv
fi
if [ -z "$lost" ]; then
	fail loop-lost-reported "no lost count in ior's statistics: $(tail -c 300 "$IOR_ERR")"
elif [ "$rows" = "$want" ] && [ "$lost" = 0 ]; then
	pass loop-every-pair
	[ "$preads" = "$N" ] && [ "$closes" = 1 ] && pass loop-rows-exact ||
		fail loop-rows-exact "preads $preads (want $N), closes $closes (want 1)"
else
	missing=$((want - rows))
	if [ "$missing" -lt 0 ] || [ $((2 * missing)) -lt "$lost" ] || [ "$missing" -gt "$lost" ]; then
		fail loop-accounted "rows $rows + missing $missing != $want with $lost lost records (want lost/2 <= missing <= lost)"
	else
		# the per-CPU ring overflowed while user space lagged: reported, and
		# the numbers add up
		pass loop-accounted
		echo "      loop: $lost records lost (ring overflow at the default -mapSize), $missing pairs missing: accounted"
	fi
fi
finish
