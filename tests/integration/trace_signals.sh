#!/bin/bash
# The ways an incident session ends:
#  - SIGHUP (the ssh session dropped): ior finishes like Ctrl-C: exit 0,
#    the statistics, a recording that reads back whole
#  - a reader that closes stdout (ior -plain | head -n 1): ior ends
#    quietly (exit 0, no error line) and its recording is still whole
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/flame.sh"
flame_setup

N=20
TOTAL=$((2 * N + 16))

# Reads a recording back: its pair count, and nothing on stderr.
readback() { # FILE WANT_PAIRS
	local got
	got=$("$IOR" collapsed -fields=tracepoint "$1" 2>"$T/readback.err" | awk '{n += $NF} END {print n + 0}')
	if [ -s "$T/readback.err" ]; then
		WHY="ior collapsed said: $(head -c 300 "$T/readback.err")"
		return 1
	fi
	[ "$got" = "$2" ] || { WHY="the recording holds $got pairs, want $2"; return 1; }
}

# ---- SIGHUP -----------------------------------------------------------------
mkdir -p "$T/hup"
if ! start_workload basic "$T/hup" "$N"; then
	fail sighup "$WHY"
elif ! start_ior -plain -flamegraph -name hup -pid "$WL_PID"; then
	fail sighup "$WHY"
else
	release_workload
	wait_workload 30 || fail sighup-workload "$WHY"
	sleep "$SETTLE"
	if ! stop_ior HUP; then
		fail sighup "$WHY"
	else
		rec=$(sed -n 's/^Wrote \(.*\) ([0-9]* pairs, [0-9]* bytes)$/\1/p' "$IOR_ERR")
		if [ -z "$rec" ]; then
			fail sighup "no Wrote line after SIGHUP: $(tail -c 300 "$IOR_ERR")"
		elif ! readback "$rec" "$TOTAL"; then
			fail sighup "$WHY"
		else
			pass sighup
		fi
		check_stats sighup-statistics "syscall pairs=$TOTAL" "lost=0"
	fi
fi

# ---- a closed stdout ----------------------------------------------------------
# The loop makes rows faster than head reads one: ior's next writes fail
# with EPIPE.
echo x >"$T/loopfile"
LOOPS=300000
if ! start_workload loop "$T/loopfile" "$LOOPS"; then
	fail closed-stdout "$WHY"
else
	WPID=$WL_PID
	( "$IOR" -plain -flamegraph -name pipe -pid "$WPID" 2>"$T/pipe.err" | head -n 1 >"$T/pipe.out"
	  echo "${PIPESTATUS[0]}" >"$T/pipe.rc" ) &
	PIPE=$!
	if ! wait_until 10 file_has "$T/pipe.err" '^ior: tracing'; then
		fail closed-stdout "ior printed no tracing line: $(head -c 300 "$T/pipe.err")"
		kill -KILL "$WPID" 2>/dev/null
	else
		release_workload
		wait_workload 60 || fail closed-stdout-workload "$WHY"
		wait_until 15 test -s "$T/pipe.rc"
		rc=$(cat "$T/pipe.rc" 2>/dev/null)
		rec=$(sed -n 's/^Wrote \(.*\) ([0-9]* pairs, [0-9]* bytes)$/\1/p' "$T/pipe.err")
		pairs=$(sed -n 's/^Wrote .* (\([0-9]*\) pairs, [0-9]* bytes)$/\1/p' "$T/pipe.err")
		if [ "$rc" != 0 ] && [ "$rc" != 141 ]; then
			fail closed-stdout "ior exited ${rc:-?} when head closed its stdout: $(grep -v '^ior: tracing' "$T/pipe.err" | head -c 300)"
		elif grep -E '^ior: (writing|error|.*No such file)' "$T/pipe.err"; then
			fail closed-stdout "ior printed an error: $(grep -E '^ior: (writing|error)' "$T/pipe.err" | head -n 1)"
		elif [ "$(cat "$T/pipe.out")" != "durationToPrevNs,durationNs,comm,pid.tid,name,ret,file" ]; then
			fail closed-stdout "head read '$(head -c 100 "$T/pipe.out")', not the CSV header"
		elif [ -z "$rec" ]; then
			fail closed-stdout "no Wrote line: the recording was not finished: $(tail -c 300 "$T/pipe.err")"
		elif ! readback "$rec" "$pairs"; then
			fail closed-stdout "$WHY"
		else
			pass closed-stdout
		fi
	fi
	wait "$PIPE" 2>/dev/null
fi
finish
