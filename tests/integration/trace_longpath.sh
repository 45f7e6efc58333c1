#!/bin/bash
# Paths arrive whole up to the kernel's limit (4095 bytes and the NUL):
# the workload's "longpath" scenario creates, writes, renames and unlinks
# a file whose path is exactly 4095 bytes, then opens a 4196-byte path the
# kernel refuses (ENAMETOOLONG): that one shows cut, with its mark, and the
# closing statistics count it. Live (-plain), recorded and replayed.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/flame.sh"
flame_setup

# $D: nested 200-byte components, the last one sized so that $D/f has
# exactly 4095 bytes.
D=$T
while [ $((${#D} + 1 + 200 + 2)) -lt 4095 ]; do
	D="$D/$(printf 'd%.0s' $(seq 200))"
done
last=$((4095 - 2 - ${#D} - 1))
D="$D/$(printf 'e%.0s' $(seq "$last"))"
mkdir -p "$D" || { fail longpath-setup "mkdir -p of a ${#D}-byte path"; exit 1; }
F="$D/f" G="$D/g"
BIG="$D/$(printf 'x%.0s' $(seq $((4196 - ${#D} - 1))))"
# What ior shows of $BIG: the 4087 bytes before the 8-byte mark (4095 in all).
CUT="${BIG:0:4087}...(cut)"
[ "${#F}" = 4095 ] && [ "${#BIG}" = 4196 ] && [ "${#CUT}" = 4095 ] ||
	{ fail longpath-setup "lengths ${#F}, ${#BIG}, ${#CUT}"; exit 1; }

rows() { # NAME CSV
	check "$1" "pid=$WL_LAST" "count==6" \
		"count[name=openat,path=$F,fd=3]==1" \
		"sum_bytes[name=write,path=$F,fd=3]==5" \
		"count[name=close,path=$F,fd=3]==1" \
		"count[name=rename,path=$F,path2=$G,ret=0]==1" \
		"count[name=openat,path=$CUT,ret=-36]==1" \
		"count[name=unlink,path=$G,ret=0]==1"
}

if ! trace_scenario -plain -- longpath "$D"; then
	fail longpath-plain "$WHY"
else
	pass longpath-plain
	rows longpath-plain-rows
	check_stats longpath-plain-statistics "syscall pairs=6" "lost=0" \
		"paths cut at 4095 bytes (longer than the kernel takes; shown ending in \"...(cut)\")=1"
fi

if ! record_scenario longpath longpath "$D"; then
	fail longpath-record "$WHY"
else
	pass longpath-record
	"$IOR" -ior="$REC" -plain >"$T/replay.csv" 2>"$T/replay.err"
	rc=$?
	if [ "$rc" != 0 ]; then
		fail longpath-replay "exited $rc: $(head -c 300 "$T/replay.err")"
	else
		IOR_OUT=$T/replay.csv rows longpath-replay-rows
	fi
fi
finish
