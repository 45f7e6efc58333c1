#!/bin/bash
# 1,000,000 back-to-back pread64 calls (1 byte from a tmpfs file) traced
# with -pid: every pair must be accounted for.
#  - default -mapSize (1M per CPU): the consumer may fall behind and the
#    rings fill; then the kernel summarizes pairs (no CSV row, counted in
#    "summarized") and should lose nothing, and the numbers must add up
#    exactly: a pair missing from the CSV was summarized, or lost both
#    records, or lost one and ior counted the other (an exit without an
#    enter, an enter overwritten or still in flight), so
#      2 * (missing - summarized) == lost + unpaired exits + overwritten + in flight
#    (up to 2 more lost records: the thread/process exit records, which
#    belong to no pair).
#  - -mapSize 16M (~2x what the whole run needs per ring): nothing may be
#    lost; all N + 1 rows (the preads and the final close) are there.
. "$(dirname "$0")/../lib/common.sh"
setup

N=${LOOP_N:-1000000}
F=/dev/shm/ior-loop.$$
[ -d /dev/shm ] || F="$T/loop"
at_exit "rm -f '$F'"
echo x >"$F"
WANT=$((N + 1))

# Sets ROWS PREADS CLOSES BAD from the CSV of pid $1 (streaming: the CSV is
# ~100 MB, too big for csvcheck's row dicts).
count_rows() {
	read -r ROWS PREADS CLOSES BAD < <(python3 - "$IOR_OUT" "$1" "$F" <<'PY'
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
}

run_loop() { # LABEL IOR_ARGS...
	local label=$1 start end
	shift
	start=$(date +%s.%N)
	if ! WL_TIMEOUT=180 trace_scenario "$@" -- loop "$F" "$N"; then
		fail "$label-run" "$WHY"
		return 1
	fi
	end=$(date +%s.%N)
	count_rows "$WL_LAST"
	LOST=$(ior_stat lost) UNPAIRED=$(ior_stat "exits without an enter") SUMMARIZED=$(ior_stat summarized)
	OVERWRITTEN=$(ior_stat "enters overwritten") INFLIGHT=$(ior_stat "enters in flight at stop")
	echo "      $label: $N preads traced in $(python3 -c "import sys; print('%.1f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$start" "$end") s; rows $ROWS; ior said: $(grep -v '^ior: tracing' "$IOR_ERR" | tr '\n' ' ' | head -c 500)"
	if [ "$BAD" != 0 ]; then
		fail "$label-csv" "$BAD malformed records"
	else
		pass "$label-csv"
	fi
	if [ -z "$LOST" ] || [ -z "$UNPAIRED" ] || [ -z "$OVERWRITTEN" ] || [ -z "$INFLIGHT" ] || [ -z "$SUMMARIZED" ]; then
		fail "$label-stats" "statistics lack lost/unpaired/overwritten/in flight/summarized counts: $(tail -c 400 "$IOR_ERR")"
		return 1
	fi
}

# default ring size: loss allowed, but reported and exactly accounted for
if run_loop loop-default; then
	missing=$((WANT - ROWS))
	excess=$((LOST + UNPAIRED + OVERWRITTEN + INFLIGHT - 2 * (missing - SUMMARIZED)))
	if [ "$missing" -lt 0 ] || [ "$excess" -lt 0 ] || [ "$excess" -gt 2 ]; then
		fail loop-default-accounted "rows $ROWS of $WANT: $missing missing, $SUMMARIZED summarized, but lost $LOST + unpaired $UNPAIRED + overwritten $OVERWRITTEN + in flight $INFLIGHT records = $((2 * (missing - SUMMARIZED) + excess)), want 2 * (missing - summarized) (+ at most 2)"
	else
		pass loop-default-accounted
		[ "$SUMMARIZED" != 0 ] && echo "      loop-default: the 1M per-CPU ring filled while user space lagged: $SUMMARIZED pairs summarized, $LOST records lost, all accounted for"
	fi
	if [ $((PREADS + CLOSES)) != "$ROWS" ]; then
		fail loop-default-rows "rows $ROWS but $PREADS preads of 1 byte on $F and $CLOSES closes"
	else
		pass loop-default-rows
	fi
fi

# a ring big enough: every pair, nothing lost
if run_loop loop-16M -mapSize 16M; then
	if [ "$LOST" = 0 ] && [ "$ROWS" = "$WANT" ] && [ "$PREADS" = "$N" ] && [ "$CLOSES" = 1 ] &&
		[ "$UNPAIRED" = 0 ] && [ "$OVERWRITTEN" = 0 ] && [ "$INFLIGHT" = 0 ] && [ "$SUMMARIZED" = 0 ]; then
		pass loop-16M-every-pair
	else
		fail loop-16M-every-pair "rows $ROWS (want $WANT: $PREADS preads, $CLOSES closes), lost $LOST, unpaired $UNPAIRED, overwritten $OVERWRITTEN, in flight $INFLIGHT, summarized $SUMMARIZED (want all 0)"
	fi
fi
finish
