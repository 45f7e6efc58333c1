#!/bin/bash
# Recordings that did not end cleanly (docs/format.md: frames flushed at
# least once a second; a cut file reads back to its last complete frame and
# the reader says it was truncated):
#  - kill -9 ior 2 s into the workload's "loop" scenario: ior collapsed and
#    the -plain replay exit 0, warn "truncated after N pairs", N > 0 and N
#    is what they deliver
#  - a cleanly closed recording (lossless, -mapSize 16M): zstd -t passes,
#    zstd -d yields the magic, exact pairs, no warning
#  - the clean file cut inside its last frame: truncated, not an error
#  - a full disk (1 MiB tmpfs): ior exits 1 naming ENOSPC, the file reads
#    back truncated with > 0 pairs
#  - bytes that are no recording: exit 1 with one line, nothing on stdout
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/flame.sh"
flame_setup

F=/dev/shm/ior-flame-trunc.$$
[ -d /dev/shm ] || F="$T/loopfile"
at_exit "rm -f '$F'"
echo x >"$F"

# Sets SUM (total of the folded counts) and STACKS from $1.
sum_folded() {
	SUM=$(awk '{ s += $NF } END { print s + 0 }' "$1")
	STACKS=$(wc -l <"$1")
}

# The N of "truncated after N pairs" in $1, empty when there is none.
truncated_pairs() {
	sed -n 's/^ior: .*: truncated after \([0-9][0-9]*\) pairs (last complete frame at byte [0-9]*)$/\1/p' "$1" | head -n 1
}

# 1. kill -9 mid-recording
mkdir -p "$T/killed"
cd "$T/killed" || exit 1
if ! start_workload loop "$F" 100000000; then
	fail killed-run "$WHY"
elif ! start_ior -flamegraph -name k -pid "$WL_PID"; then
	fail killed-run "$WHY"
else
	release_workload
	sleep 2
	if ! alive "$WL_PID"; then
		fail killed-run "the loop ended before ior was killed: $(head -c 200 "$WL_ERR")"
	fi
	# kill and reap at once, stderr aside: no "Killed" notice in the output
	{ kill -KILL "$IOR_PID" && wait "$IOR_PID"; } 2>/dev/null
	IOR_PID=""
	kill -KILL "$WL_PID" 2>/dev/null
	wait "$WL_PID" 2>/dev/null
	WL_PID=""
	shopt -s nullglob
	files=("$T"/killed/*-k-*.ior.zst)
	shopt -u nullglob
	if [ "${#files[@]}" != 1 ]; then
		fail killed-file "want one *-k-*.ior.zst in the cwd, found ${#files[@]}: $(ls "$T/killed")"
	else
		K=${files[0]}
		"$IOR" collapsed "$K" >"$T/k.folded" 2>"$T/k.err"
		rc=$?
		sum_folded "$T/k.folded"
		n=$(truncated_pairs "$T/k.err")
		if [ "$rc" != 0 ]; then
			fail killed-collapsed "ior collapsed exited $rc: $(head -c 300 "$T/k.err")"
		elif [ -z "$n" ]; then
			fail killed-collapsed "no \"truncated after N pairs\" warning on stderr: $(head -c 300 "$T/k.err")"
		elif [ "$(wc -l <"$T/k.err")" != 1 ]; then
			fail killed-collapsed "want the one warning line on stderr, got: $(head -c 300 "$T/k.err")"
		elif [ "$n" -le 0 ]; then
			fail killed-collapsed "0 pairs read back from 2 s of recording (no frame flushed?)"
		elif [ "$SUM" != "$n" ]; then
			fail killed-collapsed "the warning says $n pairs, the stacks add up to $SUM"
		elif [ "$STACKS" != 1 ] || ! grep -q "^workload;.*;pread64 $n\$" "$T/k.folded"; then
			fail killed-collapsed "want the one stack workload;...;pread64 $n, got: $(head -c 300 "$T/k.folded")"
		else
			pass killed-collapsed
		fi
		KN=$n
		"$IOR" -ior="$K" -plain >"$T/k.csv" 2>"$T/k.replay.err"
		rc=$?
		rows=$(($(wc -l <"$T/k.csv") - 1))
		n=$(truncated_pairs "$T/k.replay.err")
		if [ "$rc" != 0 ]; then
			fail killed-replay "ior -ior=FILE -plain exited $rc: $(head -c 300 "$T/k.replay.err")"
		elif [ "$n" != "$KN" ] || [ "$rows" != "$KN" ]; then
			fail killed-replay "want $KN rows and the warning with $KN pairs, got $rows rows, warning: $(head -c 200 "$T/k.replay.err")"
		else
			IOR_OUT="$T/k.csv" check killed-replay "count==$KN" "count[name=pread64,ret=1,fd=3]==$KN"
		fi
	fi
fi
cd "$T" || exit 1

# 2. a clean recording, lossless
M=20000
REC_ARGS=(-mapSize 16M)
if ! record_scenario c loop "$F" "$M"; then
	fail clean-run "$WHY"
else
	C=$REC
	if [ "$REC_PAIRS" != $((M + 1)) ]; then
		fail clean-wrote "Wrote says $REC_PAIRS pairs, want $((M + 1)) ($M pread64 + close)"
	else
		pass clean-wrote
	fi
	if out=$(zstd -q -t "$C" 2>&1); then
		pass clean-zstd-test
	else
		fail clean-zstd-test "zstd -t: $out"
	fi
	magic=$(zstd -q -d -c "$C" 2>/dev/null | head -c 8 | od -An -c | tr -s ' ')
	if [ "$magic" = " I O R R E C \r \n" ]; then
		pass clean-zstd-decode
	else
		fail clean-zstd-decode "zstd -d output starts with '$magic', want the magic I O R R E C \\r \\n"
	fi
	"$IOR" collapsed -fields=tracepoint "$C" >"$T/c.folded" 2>"$T/c.err"
	rc=$?
	if [ "$rc" != 0 ] || [ -s "$T/c.err" ]; then
		fail clean-collapsed "exit $rc, stderr: $(head -c 300 "$T/c.err")"
	elif [ "$(sort "$T/c.folded" | tr '\n' ' ')" != "close 1 pread64 $M " ]; then
		fail clean-collapsed "want 'close 1' and 'pread64 $M', got: $(head -c 200 "$T/c.folded")"
	else
		pass clean-collapsed
	fi

	# 3. the clean file cut 10 bytes short: inside the last frame
	size=$(stat -c %s "$C")
	head -c $((size - 10)) "$C" >"$T/cut.ior.zst"
	if zstd -q -t "$T/cut.ior.zst" 2>/dev/null; then
		fail cut-collapsed "zstd -t accepts the cut file: the cut is not inside a frame"
	else
		"$IOR" collapsed -fields=tracepoint "$T/cut.ior.zst" >"$T/cut.folded" 2>"$T/cut.err"
		rc=$?
		sum_folded "$T/cut.folded"
		n=$(truncated_pairs "$T/cut.err")
		if [ "$rc" != 0 ]; then
			fail cut-collapsed "exit $rc: $(head -c 300 "$T/cut.err")"
		elif [ -z "$n" ] || [ "$n" != "$SUM" ] || [ "$n" -gt $((M + 1)) ]; then
			fail cut-collapsed "want a truncation warning with the $SUM pairs read (<= $((M + 1))), stderr: $(head -c 300 "$T/cut.err")"
		else
			pass cut-collapsed
		fi
	fi

	# 3b. bytes appended after the last frame: read whole, and said
	cp "$C" "$T/tail.ior.zst"
	printf 'appended by something else\n' >>"$T/tail.ior.zst"
	"$IOR" collapsed -fields=tracepoint "$T/tail.ior.zst" >"$T/tail.folded" 2>"$T/tail.err"
	rc=$?
	if [ "$rc" != 0 ]; then
		fail trailing-bytes "exit $rc: $(head -c 300 "$T/tail.err")"
	elif [ "$(sort "$T/tail.folded" | tr '\n' ' ')" != "close 1 pread64 $M " ]; then
		fail trailing-bytes "want every pair read, got: $(head -c 200 "$T/tail.folded")"
	elif ! grep -qx "ior: $T/tail.ior.zst: 27 trailing bytes ignored after the recording's end at byte $size (appended to, or damaged)" "$T/tail.err"; then
		fail trailing-bytes "want one line saying 27 trailing bytes at byte $size, stderr: $(head -c 300 "$T/tail.err")"
	else
		pass trailing-bytes
	fi
fi
REC_ARGS=()

# 4. the disk fills up mid-recording (a 1 MiB tmpfs): ior says so and
# exits 1; the file reads back to its last complete frame
FULL="$T/full"
mkdir -p "$FULL"
if ! mount -t tmpfs -o size=1m ior-flame-test "$FULL"; then
	fail full-mount "cannot mount a 1 MiB tmpfs on $FULL"
else
	at_exit "umount -l '$FULL'"
	cd "$FULL" || exit 1
	if ! start_workload loop "$F" 100000000; then
		fail full-run "$WHY"
	elif ! start_ior -flamegraph -name full -pid "$WL_PID"; then
		fail full-run "$WHY"
	else
		release_workload
		disk_full() { [ "$(df -k --output=avail "$FULL" | tail -n 1 | tr -d ' ')" = 0 ]; }
		wait_until 30 disk_full
		filled=$?
		sleep 1.5 # a flush or two after the disk filled up
		kill -INT "$IOR_PID"
		wait_ior 10
		kill -KILL "$WL_PID" 2>/dev/null
		wait "$WL_PID" 2>/dev/null
		WL_PID=""
		shopt -s nullglob
		files=("$FULL"/*-full-*.ior.zst)
		shopt -u nullglob
		if [ "$filled" != 0 ]; then
			fail full-run "the 1 MiB disk was not full after 30 s of recording"
		elif [ "$IOR_RC" != 1 ] || ! grep -q "No space left on device" "$IOR_ERR" ||
			grep -q '^Wrote ' "$IOR_ERR"; then
			fail full-error "ior exited ${IOR_RC:-?} (want 1), stderr must name ENOSPC and not say Wrote: $(grep -v '^ior: tracing' "$IOR_ERR" | tail -c 400)"
		else
			pass full-error
		fi
		if [ "${#files[@]}" != 1 ]; then
			fail full-readback "want one *-full-*.ior.zst, found ${#files[@]}"
		else
			"$IOR" collapsed -fields=tracepoint "${files[0]}" >"$T/full.folded" 2>"$T/full.err"
			rc=$?
			n=$(truncated_pairs "$T/full.err")
			sum_folded "$T/full.folded"
			if [ "$rc" != 0 ] || [ -z "$n" ] || [ "$n" -le 0 ] || [ "$n" != "$SUM" ]; then
				fail full-readback "exit $rc, want a truncation warning with > 0 pairs = the $SUM read: $(head -c 300 "$T/full.err")"
			else
				pass full-readback
			fi
		fi
	fi
	cd "$T" || exit 1
fi

# 5. not a recording at all
head -c 4096 /dev/urandom >"$T/junk.ior.zst"
"$IOR" collapsed "$T/junk.ior.zst" >"$T/junk.out" 2>"$T/junk.err"
rc=$?
if [ "$rc" != 1 ]; then
	fail junk-refused "ior collapsed on random bytes exited $rc, want 1: $(head -c 200 "$T/junk.err")"
elif [ -s "$T/junk.out" ] || [ "$(wc -l <"$T/junk.err")" != 1 ] || ! grep -q '^ior: ' "$T/junk.err"; then
	fail junk-refused "want nothing on stdout and one 'ior: ...' line on stderr, got: $(head -c 200 "$T/junk.out") / $(head -c 300 "$T/junk.err")"
else
	pass junk-refused
fi

finish
