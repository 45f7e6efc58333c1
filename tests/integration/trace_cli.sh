#!/bin/bash
# The CLI around tracing: a -pid that does not exist, an unknown flag,
# -duration, SIGTERM, and starting with tracefs unmounted.
. "$(dirname "$0")/../lib/common.sh"
setup

# -pid of a process that does not exist: exit 1 with a message
timeout -k 2 15 "$IOR" -plain -pid 999999999 >"$T/nopid.out" 2>"$T/nopid.err"
rc=$?
if [ "$rc" != 1 ]; then
	fail nopid-exit-1 "exit status $rc: $(head -c 300 "$T/nopid.err")"
elif ! grep -q 999999999 "$T/nopid.err"; then
	fail nopid-exit-1 "stderr does not name the pid: $(head -c 300 "$T/nopid.err")"
elif [ -s "$T/nopid.out" ]; then
	fail nopid-exit-1 "printed on stdout: $(head -c 200 "$T/nopid.out")"
else
	pass nopid-exit-1
fi

# -tid of a thread that does not exist: exit 1 with a message
timeout -k 2 15 "$IOR" -plain -tid 999999999 >"$T/notid.out" 2>"$T/notid.err"
rc=$?
if [ "$rc" = 1 ] && grep -q 999999999 "$T/notid.err" && [ ! -s "$T/notid.out" ]; then
	pass notid-exit-1
else
	fail notid-exit-1 "exit status $rc: $(head -c 300 "$T/notid.err")"
fi

# unknown flag: usage error, exit 2
timeout -k 2 15 "$IOR" -plain -noSuchFlag >"$T/flag.out" 2>"$T/flag.err"
rc=$?
if [ "$rc" = 2 ] && grep -q noSuchFlag "$T/flag.err"; then
	pass unknown-flag-exit-2
else
	fail unknown-flag-exit-2 "exit status $rc: $(head -c 300 "$T/flag.err")"
fi

# -tps: a bad regex and a selection of nothing are usage errors: exit 2,
# a message naming the regex, and no CSV (not even the header) on stdout
for tps in '(' nomatchxyz; do
	timeout -k 2 15 "$IOR" -plain -tps "$tps" >"$T/tps.out" 2>"$T/tps.err"
	rc=$?
	if [ "$rc" = 2 ] && grep -qF -- "$tps" "$T/tps.err"; then
		pass "tps-usage-error '$tps'"
	else
		fail "tps-usage-error '$tps'" "exit status $rc: $(head -c 300 "$T/tps.err")"
	fi
	if [ -s "$T/tps.out" ]; then
		fail "tps-usage-error-stdout '$tps'" "stdout holds: $(head -c 100 "$T/tps.out")"
	else
		pass "tps-usage-error-stdout '$tps'"
	fi
done

# -mapSize: a ring must hold whole 8 KiB batches and be a power of two;
# 64K, the least, traces
for ms in 32K 4K 96K; do
	timeout -k 2 15 "$IOR" -plain -mapSize "$ms" >"$T/ms.out" 2>"$T/ms.err"
	rc=$?
	if [ "$rc" = 2 ] && grep -qF -- "-mapSize $(numfmt --from=iec "$ms")" "$T/ms.err"; then
		pass "mapSize-usage-error-$ms"
	else
		fail "mapSize-usage-error-$ms" "exit status $rc: $(head -c 300 "$T/ms.err")"
	fi
done
timeout -k 2 15 "$IOR" -plain -mapSize 64K -duration 300ms >"$T/ms.out" 2>"$T/ms.err"
rc=$?
if [ "$rc" = 0 ] && [ "$(head -n1 "$T/ms.out" | cut -c1-16)" = durationToPrevNs ]; then
	pass mapSize-64K-traces
else
	fail mapSize-64K-traces "exit status $rc: $(head -c 300 "$T/ms.err")"
fi

# -duration stops by itself and prints statistics; the workload is never
# released, so no rows
for d in 1s 500ms 2; do
	case $d in 1s) lo=0.9 hi=4 ;; 500ms) lo=0.4 hi=3.5 ;; 2) lo=1.9 hi=5 ;; esac
	if ! start_workload preopen /etc/hostname 1; then
		fail "duration-$d" "$WHY"
		continue
	fi
	t0=$(date +%s.%N)
	if ! start_ior -plain -pid "$WL_PID" -duration "$d"; then
		fail "duration-$d" "$WHY"
	elif ! wait_ior 15; then
		fail "duration-$d" "$WHY"
	else
		took=$(python3 -c "import sys; print('%.2f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$t0" "$(date +%s.%N)")
		if [ "$IOR_RC" != 0 ]; then
			fail "duration-$d" "exit status $IOR_RC: $(tail -c 300 "$IOR_ERR")"
		elif ! python3 -c "import sys; sys.exit(not ($lo <= float(sys.argv[1]) <= $hi))" "$took"; then
			fail "duration-$d" "ran ${took}s (start included), want ${lo}..${hi}s"
		elif [ -z "$(ior_stat lost)" ]; then
			fail "duration-$d" "no statistics with a lost count on stderr: $(tail -c 300 "$IOR_ERR")"
		else
			check "duration-$d-no-rows" "count==0"
		fi
	fi
	kill -KILL "$WL_PID" 2>/dev/null
	wait "$WL_PID" 2>/dev/null
	WL_PID=""
done

# SIGTERM stops like SIGINT: exit 0, rows flushed
F="$T/small"
head -c 100 /dev/zero >"$F"
if ! start_workload sleepgap "$F"; then
	fail sigterm "$WHY"
elif ! start_ior -plain -pid "$WL_PID"; then
	fail sigterm "$WHY"
else
	P=$WL_PID
	release_workload
	if ! wait_workload 10; then
		fail sigterm "$WHY"
	fi
	sleep "$SETTLE"
	if stop_ior TERM; then
		check sigterm-rows pid=$P "count==4"
	else
		fail sigterm "$WHY"
	fi
fi

# -plain streams: the rows reach stdout (a file here, fully buffered by
# default) while ior still runs, not only when it stops
M=50
head -c 1000 /dev/zero >"$T/stream"
if ! start_workload preopen "$T/stream" "$M"; then
	fail streaming "$WHY"
elif ! start_ior -plain -pid "$WL_PID"; then
	fail streaming "$WHY"
else
	P=$WL_PID
	release_workload
	wait_workload 10 || fail streaming-workload "$WHY"
	rows_now() { [ "$(grep -c ",$P\.$P," "$IOR_OUT")" = $((M + 1)) ]; }
	if wait_until 3 rows_now; then
		pass streaming
	else
		fail streaming "$(grep -c ",$P\.$P," "$IOR_OUT") of $((M + 1)) rows on stdout 3 s after the workload exited, ior still running"
	fi
	stop_ior || fail streaming-stop "$WHY"
fi

# tracefs unmounted at start: ior mounts it. Restored afterwards whatever
# ior does.
TRACEFS=/sys/kernel/tracing
if mountpoint -q "$TRACEFS"; then
	at_exit "mountpoint -q $TRACEFS || mount -t tracefs nodev $TRACEFS"
	for i in 1 2 3 4 5; do
		umount "$TRACEFS" 2>"$T/umount.err" && break
		sleep 1 # busy: someone reads a tracefs file right now
	done
fi
if mountpoint -q "$TRACEFS"; then
	fail tracefs-unmounted "could not unmount $TRACEFS: $(cat "$T/umount.err")"
elif [ -d /sys/kernel/debug/tracing ] && [ -e /sys/kernel/debug/tracing/events ]; then
	fail tracefs-unmounted "tracefs still reachable under /sys/kernel/debug/tracing"
elif trace_scenario -- sleepgap "$F"; then
	check tracefs-unmounted pid=$WL_LAST "count==4" "count[name=read]==2"
else
	fail tracefs-unmounted "$WHY"
fi
mountpoint -q "$TRACEFS" || mount -t tracefs nodev "$TRACEFS"

finish
