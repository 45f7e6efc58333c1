#!/bin/bash
# O_PATH descriptors (the workload's "opath" scenario) through every path
# that renders open flags: musl's O_ACCMODE holds the O_PATH bit, and a
# table indexed by it killed ior with SIGSEGV on the first O_PATH open.
#  - ior -plain: exit 0, every row with its flags (O_RDONLY|O_PATH)
#  - ior -flamegraph, then collapsed -fields=comm,flags,tracepoint and
#    -ior=FILE -plain (replay): exact stacks and rows
#  - ior -live -fields=flags,tracepoint: the served SVG has the flag frames
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/flame.sh"
flame_setup

N=50
F="$T/target"
D="$T/dir"
echo hello >"$F"
mkdir -p "$D"
TOTAL=$((2 * N + 3))
P1='O_RDONLY|O_PATH'
P2='O_RDONLY|O_DIRECTORY|O_CLOEXEC|O_PATH'

# 1. -plain
if ! trace_scenario -- opath "$F" "$D" "$N"; then
	fail opath-plain "$WHY"
else
	pass opath-plain
	check opath-plain-rows "pid=$WL_LAST" "count==$TOTAL" \
		"count[name=openat,path=$F,fd=3,flags=$P1]==$N" \
		"count[name=close,path=$F,fd=3,flags=$P1]==$N" \
		"count[name=openat,path=$D,fd=3,flags=$P2]==1" \
		"count[name=newfstatat,path=$D,fd=3,flags=$P2]==1" \
		"count[name=close,path=$D,fd=3,flags=$P2]==1"
	check_stats opath-plain-statistics "syscall pairs=$TOTAL" "lost=0" "exits without an enter=0"
fi
LIVE=$IOR_OUT LP=$WL_LAST

# 2. recording, collapsed by flags, replay
if ! record_scenario opath opath "$F" "$D" "$N"; then
	fail opath-record "$WHY"
else
	want="workload;$P1;close $N
workload;$P1;openat $N
workload;$P2;close 1
workload;$P2;newfstatat 1
workload;$P2;openat 1"
	"$IOR" collapsed -fields=comm,flags,tracepoint "$REC" >"$T/flags.folded" 2>"$T/flags.err"
	rc=$?
	if [ "$rc" != 0 ]; then
		fail opath-collapsed "exited $rc: $(head -c 300 "$T/flags.err")"
	elif [ "$(sort "$T/flags.folded")" != "$(sort <<<"$want")" ]; then
		fail opath-collapsed "got $(sort "$T/flags.folded" | tr '\n' '/'), want $(sort <<<"$want" | tr '\n' '/')"
	else
		pass opath-collapsed
	fi
	"$IOR" -ior="$REC" -plain >"$T/replay.csv" 2>"$T/replay.err"
	rc=$?
	if [ "$rc" != 0 ]; then
		fail opath-replay "exited $rc: $(head -c 300 "$T/replay.err")"
	elif [ "$(tail -n +2 "$T/replay.csv" | wc -l)" != "$TOTAL" ]; then
		fail opath-replay "$(tail -n +2 "$T/replay.csv" | wc -l) rows replayed, want $TOTAL"
	elif [ "$(tail -n +2 "$T/replay.csv" | cut -d, -f3- | sed 's/,[0-9]*\.[0-9]*,/,P,/' | sort)" != \
		"$(grep ",$LP\.$LP," "$LIVE" | cut -d, -f3- | sed 's/,[0-9]*\.[0-9]*,/,P,/' | sort)" ]; then
		fail opath-replay "replayed rows differ from the live -plain rows"
	else
		pass opath-replay
	fi
fi

# 3. -live with the flags field
if ! start_workload opath "$F" "$D" "$N"; then
	fail opath-live "$WHY"
elif ! start_ior -live -pid "$WL_PID" -fields=flags,tracepoint -count=count; then
	fail opath-live "$WHY"
else
	release_workload
	url=$(grep -m 1 -oE 'http://127\.0\.0\.1:[0-9]+/[0-9a-f]{32}' "$IOR_ERR")
	got=""
	for ((i = 0; i < 24; i++)); do
		if [ -n "$url" ] && [ "$(http_get "${url}/live.svg" "$T/live.svg")" = 200 ] &&
			grep -qF "<title>$P1" "$T/live.svg" && grep -qF "<title>$P2" "$T/live.svg"; then
			got=1
			break
		fi
		sleep 0.25
		[ -n "$url" ] || url=$(grep -m 1 -oE 'http://127\.0\.0\.1:[0-9]+/[0-9a-f]{32}' "$IOR_ERR")
	done
	wait_workload 10
	if ! stop_ior; then
		fail opath-live "$WHY"
	elif [ -z "$got" ]; then
		fail opath-live "the live SVG at ${url:-(no URL)} has no frames $P1 and $P2"
	else
		pass opath-live
	fi
fi
finish
