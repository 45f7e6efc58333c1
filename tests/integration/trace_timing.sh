#!/bin/bash
# Timing semantics: durationToPrevNs is the gap from the same thread's
# previous exit (a 100 ms sleep shows on the next pair; each of 4 threads
# sees its own sleep, not another thread's), durationNs covers a blocking
# read; -tid selects one thread. Scenarios: see tests/workload.c.
. "$(dirname "$0")/../lib/common.sh"
setup

MS=1000000
F="$T/small"
head -c 100 /dev/zero >"$F"

if trace_scenario -- sleepgap "$F"; then
	P=$WL_LAST
	check sleepgap-rows pid=$P "count==4" "count[seq=1,name=openat]==1" \
		"count[seq=2,name=read]==1" "count[seq=3,name=read]==1" "count[seq=4,name=close]==1"
	check sleepgap-100ms pid=$P "min_gap[seq=3]>=$((100 * MS))" "max_gap[seq=3]<$((150 * MS))"
	check sleepgap-others-short pid=$P "max_gap[seq=1]==0" "max_gap[seq!=3]<$((50 * MS))"
else
	fail sleepgap-run "$WHY"
fi

if trace_scenario -- pipeblock; then
	P=$WL_LAST
	check pipeblock-rows pid=$P "count==4" "count[name=read,tid=$P]==1" \
		"count[name=write,tid!=$P]==1" "count[name=close,tid=$P]==2" "tids==2"
	check pipeblock-50ms pid=$P "min_dur[name=read]>=$((50 * MS))" \
		"max_dur[name=read]<$((1000 * MS))" "max_dur[name!=read]<$((50 * MS))"
	check pipeblock-fds pid=$P "count[name=read,fd=3]==1" "count[name=write,fd=4]==1" \
		"count[name=close,fd=3]==1" "count[name=close,fd=4]==1"
else
	fail pipeblock-run "$WHY"
fi

if trace_scenario -- threads "$F"; then
	P=$WL_LAST
	read -r -a TIDS <<<"$WL_READY"
	if [ "${#TIDS[@]}" != 4 ]; then
		fail threads-ready "ready line has ${#TIDS[@]} tids: $WL_READY"
	else
		check threads-rows pid=$P "count==13" "tids==5" "count[tid=$P,name=close]==1" \
			"count[name=pread64,path=$F,fd=3]==12"
		for i in 0 1 2 3; do
			s=$((20 * (i + 1)))
			# own sleep s, within 15 ms: the next thread sleeps s + 20
			check "threads-tid$((i + 1))-gap-${s}ms" tid=${TIDS[$i]} \
				"count[name=pread64]==3" "max_gap[seq=1]==0" \
				"min_gap[seq!=1]>=$((s * MS))" "max_gap[seq!=1]<$(((s + 15) * MS))"
		done
	fi
else
	fail threads-run "$WHY"
fi

# -tid: only the third thread (sleeps 60 ms)
if ! start_workload threads "$F"; then
	fail tid-run "$WHY"
else
	read -r -a TIDS <<<"$WL_READY"
	if trace_released -tid "${TIDS[2]}"; then
		check tid-filter "count==3" "count[tid!=${TIDS[2]}]==0" \
			"min_gap[seq!=1]>=$((60 * MS))" "max_gap[seq!=1]<$((75 * MS))"
	else
		fail tid-run "$WHY"
	fi
fi

finish
