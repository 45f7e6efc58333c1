#!/bin/bash
# ior -flamegraph on the workload's "basic" scenario, checked against live
# -plain runs of the same scenario in the same directory:
#  - the "Wrote FILE (N pairs, B bytes)" line: name HOST-NAME-TIME.ior.zst
#    in the cwd, N = every pair of the scenario, B = the file's size
#  - ior collapsed -fields=tracepoint: -count=count per syscall equals the
#    live CSV and the exact counts of tests/workload.c; -count=bytes equals
#    the bytes of the live CSV's reads and writes (and nothing else)
#  - -fields=flags,tracepoint: the open flags per syscall on the fd;
#    bad -fields/-count/no file exit 2, a missing file 1
#  - ior -ior=FILE -plain: the live header and the same rows (name, ret,
#    file, pid.tid; pids mapped to the run's workload pid)
#  - -fields=comm,path,tracepoint: one stack per (comm, path components,
#    syscall), exactly what the live CSV's rows fold into
#  - -flamegraph -plain in one run: the replay is byte for byte the CSV
#    that run printed live (durations, gaps, comm included), and
#    -count=duration/durationToPrev are its sums per syscall; -path
#    filters the recording like the live trace
#  - -name with "/", ".." and a newline: one file in the cwd, "_" for
#    "/" and control characters
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/flame.sh"
flame_setup

N=20
TOTAL=$((2 * N + 16))
D="$T/basic"
mkdir -p "$D"

# Folded stacks "a;b;c N" of FILE under ior collapsed ARGS, in $T/$LABEL.
collapsed() { # LABEL FILE ARGS...
	local label=$1 file=$2
	shift 2
	if ! "$IOR" collapsed "$@" "$file" >"$T/$label.folded" 2>"$T/$label.err"; then
		WHY="ior collapsed $* exited $?: $(head -c 300 "$T/$label.err")"
		return 1
	fi
	if [ -s "$T/$label.err" ]; then
		WHY="ior collapsed $* printed on stderr: $(head -c 300 "$T/$label.err")"
		return 1
	fi
}

# python3 compare.py KIND ... : exit 0 when equal, else one line of why.
COMPARE="$T/compare.py"
cat >"$COMPARE" <<'PY'
import collections, csv, sys

def folded(path):
    out = collections.Counter()
    for line in open(path, encoding="utf-8", errors="surrogateescape"):
        stack, _, n = line.rstrip("\n").rpartition(" ")
        if not stack or not n.isdigit():
            sys.exit("malformed folded line %r" % line)
        if stack in out:
            sys.exit("stack %r printed twice" % stack)
        out[stack] = int(n)
    return out

def rows(path, pid):
    with open(path, newline="", encoding="utf-8", errors="surrogateescape") as f:
        r = list(csv.reader(f, strict=True))
    return r[0], [x for x in r[1:] if x[3].split(".")[0] == pid]

def diff(what, got, want):
    if got == want:
        return
    keys = sorted(set(got) | set(want))
    bad = ["%s: got %s, want %s" % (k, got.get(k, 0), want.get(k, 0)) for k in keys if got.get(k, 0) != want.get(k, 0)]
    sys.exit("%s differ (%d keys): %s" % (what, len(bad), "; ".join(bad[:6])))

kind = sys.argv[1]
if kind == "counts":  # FOLDED CSV PID EXPECTED(name=n,...)
    got = folded(sys.argv[2])
    _, live = rows(sys.argv[3], sys.argv[4])
    diff("collapsed vs live -plain counts", got, collections.Counter(x[4] for x in live))
    want = {k: int(v) for k, v in (kv.split("=") for kv in sys.argv[5].split(","))}
    diff("collapsed vs tests/workload.c counts", got, want)
elif kind == "bytes":  # FOLDED CSV PID EXPECTED
    got = folded(sys.argv[2])
    _, live = rows(sys.argv[3], sys.argv[4])
    rw = {"read", "write", "pread64"}
    live_bytes = collections.Counter()
    for x in live:
        if x[4] in rw and int(x[5]) > 0:
            live_bytes[x[4]] += int(x[5])
    diff("collapsed -count=bytes vs live -plain bytes", got, live_bytes)
    want = {k: int(v) for k, v in (kv.split("=") for kv in sys.argv[5].split(","))}
    diff("collapsed -count=bytes vs tests/workload.c bytes", got, want)
elif kind == "replay":  # REPLAY RECPID LIVE LIVEPID
    rh, rep = rows(sys.argv[2], sys.argv[3])
    lh, live = rows(sys.argv[4], sys.argv[5])
    if rh != lh:
        sys.exit("replay header %r, live header %r" % (rh, lh))
    with open(sys.argv[2], newline="") as f:
        everything = sum(1 for _ in csv.reader(f)) - 1
    if everything != len(rep):
        sys.exit("replay has %d rows of other pids" % (everything - len(rep)))
    def key(x, pid):
        p, t = x[3].split(".")
        return (x[4], x[5], x[6], "P" if p == pid else p, "P" if t == pid else t)
    a = collections.Counter(key(x, sys.argv[3]) for x in rep)
    b = collections.Counter(key(x, sys.argv[5]) for x in live)
    diff("replay vs live rows (name, ret, file, pid, tid)", a, b)
    print(len(rep))
elif kind == "durations":  # FOLDED CSV COLUMN: per-syscall sums of a CSV column
    got = folded(sys.argv[2])
    col = {"durationNs": 1, "durationToPrevNs": 0}[sys.argv[4]]
    with open(sys.argv[3], newline="") as f:
        live = list(csv.reader(f, strict=True))[1:]
    want = collections.Counter()
    for x in live:
        want[x[4]] += int(x[col])
    diff("collapsed vs live %s sums" % sys.argv[4], got, +want)
elif kind == "stacks":  # FOLDED CSV PID
    got = folded(sys.argv[2])
    _, live = rows(sys.argv[3], sys.argv[4])
    want = collections.Counter()
    for x in live:
        path = x[6]
        if path.endswith(")") and "%(" in path:
            path = path[:path.rindex("%(")]
        path = path.split("=>")[0]
        parts = [p for p in path.split("/") if p]
        want[";".join([x[2], "/"] + parts + [x[4]])] += 1
    diff("comm,path,tracepoint stacks vs live rows", got, want)
PY

EXPECT_COUNTS="openat=2,write=2,pread64=$N,lseek=2,read=$((N + 1)),fsync=1,newfstat=1,close=2,rename=1,newfstatat=1,unlink=1,renameat2=1,unlinkat=1"
EXPECT_BYTES="write=66536,pread64=$((100 * N)),read=$((64 * N))"

# 1. the recording
if ! record_scenario t basic "$D" "$N"; then
	fail record-run "$WHY"
	finish
	exit
fi
HOST=$(uname -n | tr '/' '_')
base=${REC##*/}
if [[ ! "$base" =~ ^"$HOST"-t-[0-9]{4}-[0-9]{2}-[0-9]{2}_[0-9]{2}:[0-9]{2}:[0-9]{2}\.ior\.zst$ ]]; then
	fail record-wrote-line "file name $base is not $HOST-t-YYYY-MM-DD_HH:MM:SS.ior.zst"
elif [ "${REC%/*}" != "$T" ]; then
	fail record-wrote-line "recording $REC is not in the cwd $T"
elif [ "$REC_PAIRS" != "$TOTAL" ]; then
	fail record-wrote-line "Wrote says $REC_PAIRS pairs, the scenario makes $TOTAL"
elif [ "$REC_BYTES" != "$(stat -c %s "$REC")" ]; then
	fail record-wrote-line "Wrote says $REC_BYTES bytes, the file has $(stat -c %s "$REC")"
else
	pass record-wrote-line
fi
check_stats record-statistics "syscall pairs=$TOTAL" "after filters=$TOTAL" "lost=0" \
	"exits without an enter=0" "enters overwritten=0" "enters in flight at stop=0"
RP=$REC_WPID

# 2. the same scenario, same directory, traced live
if ! trace_scenario -- basic "$D" "$N"; then
	fail live-run "$WHY"
	finish
	exit
fi
LIVE="$T/live.csv"
cp "$IOR_OUT" "$LIVE"
LP=$WL_LAST
check live-counts "pid=$LP" "count==$TOTAL"

if ! collapsed tp-count "$REC" -fields=tracepoint -count=count; then
	fail collapsed-count "$WHY"
elif out=$(python3 "$COMPARE" counts "$T/tp-count.folded" "$LIVE" "$LP" "$EXPECT_COUNTS" 2>&1); then
	pass collapsed-count
else
	fail collapsed-count "$out"
fi

if ! collapsed tp-bytes "$REC" -fields=tracepoint -count=bytes; then
	fail collapsed-bytes "$WHY"
elif out=$(python3 "$COMPARE" bytes "$T/tp-bytes.folded" "$LIVE" "$LP" "$EXPECT_BYTES" 2>&1); then
	pass collapsed-bytes
else
	fail collapsed-bytes "$out"
fi

if ! "$IOR" -ior="$REC" -plain >"$T/replay.csv" 2>"$T/replay.err"; then
	fail replay "ior -ior=FILE -plain exited $?: $(head -c 300 "$T/replay.err")"
elif [ -s "$T/replay.err" ]; then
	fail replay "stderr: $(head -c 300 "$T/replay.err")"
elif ! out=$(python3 "$COMPARE" replay "$T/replay.csv" "$RP" "$LIVE" "$LP" 2>&1); then
	fail replay "$out"
elif [ "$out" != "$REC_PAIRS" ]; then
	fail replay "$out rows replayed, Wrote said $REC_PAIRS pairs"
else
	pass replay
fi
IOR_OUT="$T/replay.csv" check replay-csv "count[pid=$RP]==$TOTAL" "count[name=openat,path=$D/data,fd=3,flags=O_RDWR|O_CREAT]==1" \
	"count[name=rename,path=$D/data,path2=$D/data2]==1" "sum_bytes[name=write]==66536" "tids==1"

# -fields=flags: the open flags of the fd each syscall used
if ! collapsed flags "$REC" -fields=flags,tracepoint; then
	fail collapsed-flags "$WHY"
else
	want="O_RDWR|O_CREAT;close 1
O_RDWR|O_CREAT;fsync 1
O_RDWR|O_CREAT;lseek 2
O_RDWR|O_CREAT;newfstat 1
O_RDWR|O_CREAT;openat 1
O_RDWR|O_CREAT;pread64 $N
O_RDWR|O_CREAT;read $((N + 1))
O_RDWR|O_CREAT;write 2
O_WRONLY|O_CREAT|O_CLOEXEC;close 1
O_WRONLY|O_CREAT|O_CLOEXEC;openat 1"
	got=$(grep '^O_' "$T/flags.folded" | LC_ALL=C sort)
	sum=$(awk '{ s += $NF } END { print s }' "$T/flags.folded")
	if [ "$got" != "$(echo "$want" | LC_ALL=C sort)" ] || [ "$sum" != "$TOTAL" ]; then
		fail collapsed-flags "stacks with flags differ or do not add up to $TOTAL: $(tr '\n' ' ' <"$T/flags.folded")"
	else
		pass collapsed-flags
	fi
fi

# usage errors: exit 2 and one line naming the problem; a missing file: 1
usage_bad=""
ior_fails 2 bogus collapsed -fields=bogus "$REC" || usage_bad="$usage_bad; $WHY"
ior_fails 2 bogus collapsed -count=bogus "$REC" || usage_bad="$usage_bad; $WHY"
ior_fails 2 '' collapsed || usage_bad="$usage_bad; $WHY"
ior_fails 1 'No such file' collapsed "$T/no-such.ior.zst" || usage_bad="$usage_bad; $WHY"
if [ -z "$usage_bad" ]; then
	pass collapsed-usage
else
	fail collapsed-usage "${usage_bad#; }"
fi

if ! collapsed stacks "$REC" -fields=comm,path,tracepoint; then
	fail collapsed-stacks "$WHY"
elif ! out=$(python3 "$COMPARE" stacks "$T/stacks.folded" "$LIVE" "$LP" 2>&1); then
	fail collapsed-stacks "$out"
else
	# spelled out too: the comm, then one frame per path component
	frames=${D#/}
	frames=${frames//\//;}
	c=$(grep -c "^workload;/;$frames;data;" "$T/stacks.folded")
	o=$(grep -c "^workload;/;$frames;other;" "$T/stacks.folded")
	if [ "$c" = 9 ] && [ "$o" = 3 ]; then
		pass collapsed-stacks
	else
		fail collapsed-stacks "want 9 stacks workload;/;...;data;* and 3 ...;other;*, got $c and $o"
		head -n 20 "$T/stacks.folded" | sed 's/^/      /'
	fi
fi

# 3. one run with -flamegraph and -plain: the recording replays to exactly
# the CSV printed live
mkdir -p "$T/both"
cd "$T/both" || exit 1
REC_ARGS=(-plain)
if ! record_scenario both basic "$D" "$N"; then
	fail both-run "$WHY"
elif ! "$IOR" -ior="$REC" -plain >"$T/both.replay.csv" 2>"$T/both.replay.err"; then
	fail both-replay "ior -ior=FILE -plain exited $?: $(head -c 300 "$T/both.replay.err")"
elif ! cmp -s "$IOR_OUT" "$T/both.replay.csv"; then
	fail both-replay "replay differs from the live CSV of the same run: $(diff "$IOR_OUT" "$T/both.replay.csv" | head -n 4 | tr '\n' ' ')"
elif [ "$(($(wc -l <"$IOR_OUT") - 1))" != "$TOTAL" ]; then
	fail both-replay "the live CSV has $(($(wc -l <"$IOR_OUT") - 1)) rows, want $TOTAL"
else
	pass both-replay
	# the time metrics, in ns, are the live CSV's sums per syscall
	for m in duration:durationNs durationToPrev:durationToPrevNs; do
		if ! collapsed "both-${m%%:*}" "$REC" -fields=tracepoint -count="${m%%:*}"; then
			fail "collapsed-${m%%:*}" "$WHY"
		elif ! out=$(python3 "$COMPARE" durations "$T/both-${m%%:*}.folded" "$IOR_OUT" "${m#*:}" 2>&1); then
			fail "collapsed-${m%%:*}" "$out"
		else
			pass "collapsed-${m%%:*}"
		fi
	done
	# filters apply to recordings too: -path is a substring of the path
	if ! collapsed both-path "$REC" -fields=tracepoint -path="$D/other"; then
		fail collapsed-path-filter "$WHY"
	elif [ "$(tr '\n' ' ' <"$T/both-path.folded")" != "close 1 openat 1 renameat2 1 unlinkat 1 " ]; then
		fail collapsed-path-filter "-path=$D/other: $(tr '\n' ' ' <"$T/both-path.folded"), want close, openat, renameat2, unlinkat once each"
	else
		pass collapsed-path-filter
	fi
fi
REC_ARGS=()

# 4. -name with a slash, a dot-dot and a newline: the file stays in the
# cwd, "/" and control characters become "_" (docs/format.md)
mkdir -p "$T/named/cwd"
cd "$T/named/cwd" || exit 1
echo x >"$T/named/f"
if ! record_scenario $'../a/b<c>\nz' loop "$T/named/f" 10; then
	fail record-name "$WHY"
elif [[ ! "${REC##*/}" =~ ^"$HOST"-\.\._a_b\<c\>_z-[0-9_:-]+\.ior\.zst$ ]]; then
	fail record-name "file name ${REC##*/}, want $HOST-.._a_b<c>_z-TIME.ior.zst"
elif [ "${REC%/*}" != "$T/named/cwd" ] || [ "$(find "$T/named/cwd" -mindepth 1 | wc -l)" != 1 ] || [ -e "$T/named/a" ]; then
	fail record-name "the recording is not the one file in the cwd: $REC; $(find "$T/named" -mindepth 1 | tr '\n' ' ')"
elif [ "$REC_PAIRS" != 11 ]; then
	fail record-name "Wrote says $REC_PAIRS pairs, want 11"
else
	pass record-name
fi
cd "$T" || exit 1

finish
