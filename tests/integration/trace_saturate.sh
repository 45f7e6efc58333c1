#!/bin/bash
# The incident case: the read loop flat out in 2 and 4 threads on this
# machine's CPUs under ior -flamegraph, 5 M pread64 per run, at the
# default -mapSize and at 64K (the rings fill, so pairs are summarized in
# every run). Whether the pairs came as events or as summaries:
#  - collapsed -fields comm,tracepoint: pread64 count == the syscalls the
#    loop made, and its bytes == count * 4096;
#  - nothing lost;
#  - per loop thread, sum(durationNs) + sum(durationToPrevNs) == its last
#    exit - its first enter (the gaps chain the pairs: exact to the ns);
#  - at 64K: summarized > 0, and the recording's trailer says so.
. "$(dirname "$0")/../lib/common.sh"
setup

GEN="$ROOT/build/iorbench"
N=${SATURATE_N:-5000000}
[ -x "$GEN" ] || { fail saturate-setup "$GEN missing (make tests builds it)"; finish; exit; }

collapsed_sum() { # FILE FIELDS METRIC FRAME_REGEX
	"$IOR" collapsed -fields "$2" -count "$3" "$1" | awk -v re="$4" '$0 ~ re { s += $NF } END { printf "%.0f", s }'
}

# Per loop thread: duration and gap totals against the span the JSON gives.
check_spans() { # LABEL FILE
	local label=$1 file=$2 tid d g first last bad="" n=0 base json
	base=${file%.ior.zst}
	for tid in $("$IOR" collapsed -fields tid,tracepoint -count count "$file" | awk '/;pread64 / { sub(/;.*/, ""); print $NF }'); do
		n=$((n + 1))
		d=$(collapsed_sum "$file" tid duration '')
		"$IOR" -ior "$file" -tid "$tid" -fields tid -count duration -flamegraphJson -nohttp >/dev/null 2>&1
		json="$base.tid-by-duration.json"
		read -r first last d < <(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["firstRealtimeNs"], j["lastRealtimeNs"], j["value"])' "$json")
		"$IOR" -ior "$file" -tid "$tid" -fields tid -count durationToPrev -flamegraphJson -nohttp >/dev/null 2>&1
		g=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["value"])' "$base.tid-by-durationToPrev.json")
		if [ $((d + g)) != $((last - first)) ]; then
			bad="$bad tid $tid: duration $d + gap $g = $((d + g)), span $((last - first));"
		fi
	done
	if [ "$n" = 0 ]; then
		fail "$label-spans" "no thread with pread64 in the recording"
	elif [ -n "$bad" ]; then
		fail "$label-spans" "$bad"
	else
		pass "$label-spans"
	fi
}

run_sat() { # LABEL THREADS IOR_ARGS...
	local label=$1 threads=$2 dir syscalls file count bytes summarized lost
	shift 2
	dir="$T/$label"
	mkdir -p "$dir"
	cd "$dir" || return 1
	"$GEN" read -n $((N / threads)) -threads "$threads" -wait -dir /dev/shm >gen.out 2>&1 </dev/null &
	local gen=$!
	if ! wait_until 10 file_has gen.out '^iorbench: ready'; then
		fail "$label-run" "iorbench not ready: $(head -c 300 gen.out)"
		kill -KILL "$gen"
		cd "$T" || exit 1
		return 1
	fi
	if ! start_ior -flamegraph -name sat -pid "$gen" "$@"; then
		fail "$label-run" "$WHY"
		kill -KILL "$gen"
		cd "$T" || exit 1
		return 1
	fi
	kill -USR1 "$gen"
	wait "$gen" || { fail "$label-run" "iorbench failed: $(head -c 300 gen.out)"; stop_ior; cd "$T"; return 1; }
	sleep "$SETTLE"
	if ! stop_ior; then
		fail "$label-run" "$WHY"
		cd "$T" || exit 1
		return 1
	fi
	cd "$T" || exit 1
	syscalls=$(sed -n 's/.* syscalls=\([0-9]*\).*/\1/p' "$dir/gen.out")
	file=$(ls "$dir"/*.ior.zst 2>/dev/null | head -n 1)
	lost=$(ior_stat lost) summarized=$(ior_stat summarized)
	echo "      $label: $(grep 'elapsed_ns' "$dir/gen.out"); ior: $(grep -E '^ior: (traced|lost)' "$IOR_ERR" | tr '\n' ' ')"
	if [ -z "$file" ] || [ "$syscalls" != "$N" ]; then
		fail "$label-run" "no recording ($file) or iorbench made $syscalls syscalls, want $N"
		return 1
	fi
	count=$(collapsed_sum "$file" comm,tracepoint count '^iorbench;pread64 ')
	bytes=$(collapsed_sum "$file" comm,tracepoint bytes '^iorbench;pread64 ')
	if [ "$count" = "$N" ] && [ "$bytes" = $((N * 4096)) ]; then
		pass "$label-exact-totals"
	else
		fail "$label-exact-totals" "pread64: $count pairs and $bytes bytes, want $N and $((N * 4096))"
	fi
	if [ "$lost" = 0 ]; then
		pass "$label-nothing-lost"
	else
		fail "$label-nothing-lost" "lost: ${lost:-missing} (want 0): $(grep '^ior: lost' "$IOR_ERR")"
	fi
	check_spans "$label" "$file"
	SUMMARIZED=$summarized FILE=$file
}

for threads in 2 4; do
	run_sat "sat-${threads}t" "$threads"
	if run_sat "sat-${threads}t-64K" "$threads" -mapSize 64K; then
		trailer=$("$IOR" -ior "$FILE" -plain 2>&1 >/dev/null | grep -c 'summar')
		if [ "${SUMMARIZED:-0}" -gt 0 ] && [ "$trailer" -gt 0 ]; then
			pass "sat-${threads}t-64K-summarized"
		else
			fail "sat-${threads}t-64K-summarized" "summarized: ${SUMMARIZED:-missing} (want > 0 with 64K rings); replay said $trailer lines about summaries"
		fi
	fi
done
finish
