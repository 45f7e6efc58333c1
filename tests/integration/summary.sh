#!/bin/bash
# ior -summary and ior summary FILE (stats/report.h) on the workload's
# "basic" scenario (its exact syscalls: the top of tests/workload.c):
#  - -summary alone: the tables on stdout equal the scenario's counts and
#    bytes per syscall, per file and for its process; nothing else to do
#    is needed
#  - -summary -plain: the CSV keeps stdout, the tables go to stderr and
#    count what the CSV holds
#  - -flamegraph -summary: ior summary on the recording prints byte for
#    byte the tables printed live, and its counts and bytes equal ior
#    collapsed's per syscall (-fields=tracepoint), per file (-fields=path)
#    and per process (-fields=pid); -ior=FILE -summary is the same; the
#    filters (-path, -pid) apply
#  - names from the traced system are escaped (a newline in a directory)
#  - usage errors exit 2, a missing recording 1, one line each
. "$(dirname "$0")/../lib/common.sh"
setup
cd "$T" || exit 1

SUMCHECK="$TESTS_DIR/lib/summarycheck.py"
N=20
TOTAL=$((2 * N + 16))
D="$T/basic"
mkdir -p "$D"

# sumcheck NAME OUT ARGS...: PASS, or FAIL with summarycheck's reason
sumcheck() {
	local name=$1 out
	shift
	if out=$(python3 "$SUMCHECK" "$@" 2>&1); then
		pass "$name"
	else
		fail "$name" "$out"
	fi
}

# The scenario's exact numbers (tests/workload.c), on the summary in $1.
basic_checks() { # PREFIX OUT DIR PID
	local pre=$1 out=$2 d=$3 pid=$4 s
	sumcheck "$pre-totals" "$out" totals "pairs=$TOTAL" errors=0 "read=$((164 * N))" written=66536
	sumcheck "$pre-syscalls" "$out" keys Syscalls openat write pread64 lseek read fsync newfstat close \
		rename newfstatat unlink renameat2 unlinkat
	local bad=""
	for s in openat=2 write=2 pread64=$N lseek=2 read=$((N + 1)) fsync=1 newfstat=1 close=2 rename=1 \
		newfstatat=1 unlink=1 renameat2=1 unlinkat=1; do
		python3 "$SUMCHECK" "$out" row Syscalls "${s%=*}" "calls=${s#*=}" errors=0 >/dev/null 2>&1 ||
			bad="$bad ${s%=*}"
	done
	if [ -z "$bad" ]; then pass "$pre-syscall-calls"; else fail "$pre-syscall-calls" "wrong calls or errors for:$bad"; fi
	sumcheck "$pre-syscall-bytes" "$out" row Syscalls write read=0 written=66536
	sumcheck "$pre-syscall-bytes-pread64" "$out" row Syscalls pread64 "read=$((100 * N))" written=0
	sumcheck "$pre-syscall-bytes-read" "$out" row Syscalls read "read=$((64 * N))" written=0
	sumcheck "$pre-syscall-total" "$out" row Syscalls total "calls=$TOTAL" "read=$((164 * N))" written=66536
	sumcheck "$pre-families" "$out" keys Families FS
	sumcheck "$pre-family-fs" "$out" row Families FS "calls=$TOTAL" errors=0 "read=$((164 * N))" written=66536
	sumcheck "$pre-files" "$out" keys Files "$d/data" "$d/data2" "$d/other" "$d/other2"
	sumcheck "$pre-file-data" "$out" row Files "$d/data" "accesses=$((2 * N + 10))" errors=0 \
		"read=$((164 * N))" written=66536
	sumcheck "$pre-file-other" "$out" row Files "$d/other" accesses=3 read=0 written=0
	sumcheck "$pre-files-renamed" "$out" row Files "$d/data2" accesses=2
	sumcheck "$pre-processes" "$out" keys Processes "$pid"
	sumcheck "$pre-process" "$out" row Processes "$pid" "calls=$TOTAL" errors=0 "read=$((164 * N))" \
		written=66536 comm=workload
}

# 1. -summary alone: tables on stdout
if ! start_workload basic "$D" "$N" || ! run_released -summary -pid "$WL_PID"; then
	fail summary-run "$WHY"
else
	cp "$IOR_OUT" "$T/live.txt"
	basic_checks live "$T/live.txt" "$D" "$WL_LAST"
	if grep -q '^ior: traced ' "$IOR_ERR" && ! grep -q '^ior: warning' "$IOR_ERR" && ! grep -q Syscalls "$IOR_ERR"; then
		pass live-stderr-has-the-statistics-only
	else
		fail live-stderr-has-the-statistics-only "$(head -c 400 "$IOR_ERR")"
	fi
fi

# 2. with -plain the CSV keeps stdout; the tables count what it holds
if ! start_workload basic "$D" "$N" || ! run_released -plain -summary -pid "$WL_PID"; then
	fail plain-run "$WHY"
else
	P=$WL_LAST
	check plain-csv "count==$TOTAL" "count[name=write]==2" "sum_bytes[name=write]==66536"
	if grep -q '^Syscalls$' "$IOR_OUT"; then
		fail plain-tables-on-stderr "the tables are in the CSV"
	else
		basic_checks plain "$IOR_ERR" "$D" "$P"
	fi
fi

# 3. a recording and its summary, made live in the same run
if ! start_workload basic "$D" "$N" || ! run_released -flamegraph -name s -summary -pid "$WL_PID"; then
	fail record-run "$WHY"
	finish
	exit
fi
RP=$WL_LAST
REC=$(sed -n 's/^Wrote \(.*\) ([0-9]* pairs, [0-9]* bytes)$/\1/p' "$IOR_ERR")
cp "$IOR_OUT" "$T/rec-live.txt"
if [ ! -f "$REC" ]; then
	fail record-file "no \"Wrote FILE\" line or no file: $(tail -c 300 "$IOR_ERR")"
	finish
	exit
fi
if ! "$IOR" summary "$REC" >"$T/rec.txt" 2>"$T/rec.err"; then
	fail summary-recording "ior summary exited $?: $(head -c 300 "$T/rec.err")"
else
	if [ -s "$T/rec.err" ]; then
		fail summary-recording-quiet "stderr: $(head -c 300 "$T/rec.err")"
	else
		pass summary-recording-quiet
	fi
	basic_checks rec "$T/rec.txt" "$D" "$RP"
	if cmp -s "$T/rec.txt" "$T/rec-live.txt"; then
		pass recording-equals-live
	else
		fail recording-equals-live "$(diff "$T/rec-live.txt" "$T/rec.txt" | head -n 6 | tr '\n' '|')"
	fi
	for spec in "Syscalls calls tracepoint count" "Syscalls bytes tracepoint bytes" \
		"Files accesses path count" "Processes calls pid count"; do
		set -- $spec
		if ! "$IOR" collapsed -fields="$3" -count="$4" "$REC" >"$T/c.folded" 2>"$T/c.err"; then
			fail "collapsed-$1-$2" "ior collapsed -fields=$3 -count=$4 exited $?: $(head -c 200 "$T/c.err")"
		else
			sumcheck "collapsed-$1-$2" "$T/rec.txt" folded "$1" "$2" "$T/c.folded"
		fi
	done
	if "$IOR" -ior="$REC" -summary >"$T/rec2.txt" 2>"$T/rec2.err" && cmp -s "$T/rec.txt" "$T/rec2.txt"; then
		pass ior-flag-summary
	else
		fail ior-flag-summary "-ior=FILE -summary differs from ior summary FILE: $(head -c 300 "$T/rec2.err")"
	fi
fi

# filters: -path is a substring of the path, -pid another process's
if "$IOR" summary -path="$D/other" "$REC" >"$T/f.txt" 2>&1; then
	sumcheck filter-path "$T/f.txt" totals pairs=4
	sumcheck filter-path-files "$T/f.txt" keys Files "$D/other" "$D/other2"
else
	fail filter-path "exit $?: $(head -c 300 "$T/f.txt")"
fi
"$IOR" summary -pid=1 "$REC" >"$T/f.txt" 2>&1
if [ $? = 0 ] && [ "$(cat "$T/f.txt")" = "0 pairs in 0ns; 0 errors; 0 bytes read, 0 written; 0ns in syscalls" ]; then
	pass filter-pid-none
else
	fail filter-pid-none "$(head -c 300 "$T/f.txt")"
fi

# 4. names from the traced system are escaped: a newline in the directory
E="$T/a"$'\n'"b"
mkdir -p "$E"
if ! start_workload basic "$E" "$N" || ! run_released -summary -pid "$WL_PID"; then
	fail escape-run "$WHY"
else
	sumcheck escape-newline "$IOR_OUT" row Files "$T/a\\x0ab/data" "accesses=$((2 * N + 10))"
	if grep -qx "b/data" "$IOR_OUT"; then
		fail escape-one-line "a path spilled onto its own line"
	else
		pass escape-one-line
	fi
fi

# 5. usage: exit 2 and one line; a missing recording: exit 1
bad=""
ior_fails 2 'usage: ior summary' summary || bad="$bad; $WHY"
ior_fails 2 'usage: ior summary' summary "$REC" "$REC" || bad="$bad; $WHY"
ior_fails 2 bogus summary -escape=bogus "$REC" || bad="$bad; $WHY"
ior_fails 2 fields summary -fields || bad="$bad; $WHY"
ior_fails 1 'No such file' summary "$T/no-such.ior.zst" || bad="$bad; $WHY"
ior_fails 2 'use one of them' -ior="$REC" -summary -plain || bad="$bad; $WHY"
if [ -z "$bad" ]; then pass summary-usage; else fail summary-usage "${bad#; }"; fi

finish
