#!/bin/bash
# PID churn: the workload's "churn" scenario forks N short-lived children,
# one after the other, each opening, writing and closing a file it
# inherits nothing of. ior -plain -comm traces them all:
#  - every child's three pairs, with the file's path (3N rows), pids reused
#  - ior's memory stays flat: its RSS once a quarter of the children ran,
#    and at most 4 MiB more at the end (exited processes' tables are freed)
#  - the fd table ends with (almost) no processes (-v statistics)
. "$(dirname "$0")/../lib/common.sh"
setup

N=${CHURN_N:-100000}
F="$T/churn.out"
: >"$F"
NAME="iorch-${T##*.}"
cp "$WORKLOAD" "$T/$NAME"

rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status" 2>/dev/null; }

if ! WORKLOAD="$T/$NAME" start_workload churn "$F" "$N"; then
	fail churn-run "$WHY"
	finish
	exit
fi
if ! start_ior -plain -v -comm "$NAME"; then
	fail churn-run "$WHY"
	finish
	exit
fi
release_workload
early="" peak=0
for ((i = 0; i < 1200; i++)); do # <= 120 s
	alive "$WL_PID" || break
	done_n=$(stat -c %s "$F")
	r=$(rss_kib "$IOR_PID")
	[ -n "$r" ] || break
	if [ -z "$early" ] && [ "$done_n" -ge $((N / 4)) ]; then
		early=$r
	fi
	[ -n "$early" ] && [ "$r" -gt "$peak" ] && peak=$r
	sleep 0.1
done
if ! wait_workload 10; then
	fail churn-run "$WHY"
	stop_ior
	finish
	exit
fi
sleep 2 # past the exited tables' grace second, then the last drains
r=$(rss_kib "$IOR_PID")
[ -n "$r" ] && [ "$r" -gt "$peak" ] && peak=$r
if ! stop_ior; then
	fail churn-run "$WHY"
	finish
	exit
fi
pass churn-run

# pids are reused (pid_max is often 32768): each child starts from its real
# parent's table, never from the exited process that had its pid
check churn-rows "count==$((3 * N))" "pids>=$((N < 30000 ? N / 2 : 15000))" "count[name=openat,path=$F,fd=3]==$N" \
	"count[name=write,path=$F,fd=3]==$N" "count[name=close,path=$F,fd=3]==$N" "sum_bytes[name=write]==$N"
check_stats churn-statistics "lost=0" "fds without a path=0"

if [ -z "$early" ]; then
	fail churn-rss "no RSS sample after a quarter of the children (ran too fast? raise CHURN_N)"
elif [ $((peak - early)) -gt 4096 ]; then
	fail churn-rss "ior's RSS grew from $early KiB (a quarter in) to $peak KiB over $N processes"
else
	pass churn-rss
	echo "      ior RSS $early KiB a quarter in, peak $peak KiB, $N processes"
fi

procs=$(sed -n 's/^ior: fd table: [0-9]* fds of \([0-9]*\) processes.*/\1/p' "$IOR_ERR")
if [ -z "$procs" ]; then
	fail churn-table "no fd table line in -v statistics: $(tail -c 300 "$IOR_ERR")"
elif [ "$procs" -gt 100 ]; then
	fail churn-table "the fd table still holds $procs processes after $N exited"
else
	pass churn-table
fi
finish
