#!/bin/bash
# ior next to the tracers people use today, measured side by side in one run.
#
# usage: scripts/bench.sh [--smoke] [--runs N] [--tracers LIST] [--workloads LIST] [--keep]
#                         [--ab-runs N] [--stats-runs N] [--baseline REV]
#   --smoke       tiny counts, 1 run, untraced + ior + one installed peer;
#                 prints PASS:/FAIL: lines (tests/run bench)
#   --runs N      runs per figure, the median is reported (default 5)
#   --tracers L   comma-separated subset of: untraced empty ior-flame ior-fs
#                 ior-recorder ior-plain ior-summary ior-dash bt-count-raw bt-count bt-count-enter bt-hist
#                 bt-print perf-trace strace, plus "ior-extra" (sustained
#                 rate, bytes/pair, aggregation, RSS), "ior-reader"
#                 (ior collapsed on big synthetic recordings) and
#                 "ior-parquet" (ior parquet on a 10 M-pair recording:
#                 pairs/s, size against the .ior.zst, DuckDB's totals)
#   --keep        keep the work directory (tracer outputs, recordings)
#   --workloads L comma-separated subset of: read open write mixed read2
#                 getpid send uring aio coldread direct (default all), or
#                 read4 (4 threads flat out; not in the default list)
#   --stats-runs N  runs per workload of the BPF run-time statistics phase
#                 (empty, ior-flame, ior-plain; default 3, 0: none)
#   --ab-runs N   runs per workload of the A/B phase (scripts/bench_ab.sh:
#                 programs toggled every 20 ms during one loop; the cost
#                 targets read it; default 3, 0: none)
#   --baseline REV  also ior built from git revision REV (in
#                 build/baseline/SHA, kept for the next bench): each ior
#                 output of the paired phase runs under both binaries, one
#                 after the other in every run, and a table compares their
#                 CPU per pair and added ns/syscall
#
# build/iorbench (tests/bench/gen.c) is the workload. Every tracer filters
# to it by comm ("iorbench") in the kernel, except the empty program (no
# filter: the floor of attaching at all) and perf trace / strace, which
# trace only the generator they start. ior runs one session per workload
# (RUNS runs); bpftrace one session for all workloads, interleaved (its
# tear-down takes ~20 s: synchronize_rcu_tasks_trace per closed perf
# event); perf trace and strace start per run. Those two and bpftrace
# printf run a tenth of the iterations (they are 20-70x slower), so
# compare ns/syscall, not elapsed. The generator times its own loop:
# tracer start-up and tear-down never count.
set -u
cd "$(dirname "$0")/.." || exit 1
ROOT=$PWD
# shellcheck source=scripts/bench_ab.sh
. "$ROOT/scripts/bench_ab.sh"
# shellcheck source=scripts/baseline.sh
. "$ROOT/scripts/baseline.sh"
IOR=${IOR:-$ROOT/ior}
GEN=${GEN:-$ROOT/build/iorbench}
RECGEN=${RECGEN:-$ROOT/build/iorrecgen}
COMM=iorbench
PROGSTAT=${PROGSTAT:-$ROOT/build/iorprogstat}
RUNS=5 SMOKE=0 KEEP=0 TRACERS="" WORKLOADS="" STATS_RUNS=3 AB_RUNS=3 AB_SECS=2 AB_MS=20 BASELINE="" BASE_IOR=""

usage() { sed -n '3,24p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while [ $# -gt 0 ]; do
	case $1 in
	--smoke) SMOKE=1 ;;
	--runs) RUNS=${2:-}; shift ;;
	--runs=*) RUNS=${1#*=} ;;
	--tracers) TRACERS=${2:-}; shift ;;
	--tracers=*) TRACERS=${1#*=} ;;
	--keep) KEEP=1 ;;
	--stats-runs) STATS_RUNS=${2:-}; shift ;;
	--ab-runs) AB_RUNS=${2:-}; shift ;;
	--ab-runs=*) AB_RUNS=${1#*=} ;;
	--stats-runs=*) STATS_RUNS=${1#*=} ;;
	--workloads) WORKLOADS=${2:-}; shift ;;
	--baseline) BASELINE=${2:-}; shift ;;
	--baseline=*) BASELINE=${1#*=} ;;
	--workloads=*) WORKLOADS=${1#*=} ;;
	-h | --help) usage 0 ;;
	*) echo "bench.sh: unknown argument '$1'" >&2; usage 2 ;;
	esac
	shift
done
case $RUNS in '' | *[!0-9]* | 0) echo "bench.sh: --runs needs a positive number" >&2; exit 2 ;; esac
case $STATS_RUNS in '' | *[!0-9]*) echo "bench.sh: --stats-runs needs a number" >&2; exit 2 ;; esac
case $AB_RUNS in '' | *[!0-9]*) echo "bench.sh: --ab-runs needs a number" >&2; exit 2 ;; esac

# ---- workloads -----------------------------------------------------------
# getpid: a syscall no default family has (it must stay nearly free);
# send: Network syscalls, the cost of the default families beyond FS
# (ior -flamegraph traces them, ior -trace-families=FS does not)
# uring, aio: async reads at queue depth 8 (their figures are per op, 8 per
# io_uring_enter or io_submit + io_getevents)
# coldread and direct go to the disk (their file in the work directory,
# not tmpfs): the cost of the block and page-cache programs per request.
WLS=(read open write mixed read2 getpid send uring aio coldread direct)
declare -A WL_MODE=([read]=read [open]=open [write]=write [mixed]=mixed [read2]=read [read4]=read [getpid]=getpid
	[send]=send [uring]=uring [aio]=aio [coldread]=coldread [direct]=direct)
declare -A WL_ITERS=([read]=300000 [open]=100000 [write]=300000 [mixed]=33000 [read2]=150000 [read4]=75000
	[getpid]=300000 [send]=150000 [uring]=40000 [aio]=40000 [coldread]=20000 [direct]=5000)
declare -A WL_THREADS=([read]=1 [open]=1 [write]=1 [mixed]=1 [read2]=2 [read4]=4 [getpid]=1 [send]=1 [uring]=1 [aio]=1
	[coldread]=1 [direct]=1)
# where a workload's file lives (-dir), when not /dev/shm
wl_dir() { case $1 in coldread | direct) echo -dir "$W" ;; esac; }
declare -A WL_DESC=([read]="pread64 4 KiB, /dev/shm" [open]="openat+fstat+close"
	[write]="write 64 B" [mixed]="open,fstat,4 pread,2 write,close" [read2]="pread64, 2 threads"
	[read4]="pread64, 4 threads"
	[getpid]="getpid (not traced by default)" [send]="sendto+recvfrom 64 B, unix socketpair"
	[uring]="io_uring read 4 KiB, depth 8 (per op)" [aio]="libaio pread 4 KiB, depth 8 (per op)"
	[coldread]="fadvise DONTNEED + pread64 4 KiB: a miss, on disk" [direct]="O_DIRECT pread64 4 KiB, on disk")
if [ -n "$WORKLOADS" ]; then
	for w in ${WORKLOADS//,/ }; do
		[ -n "${WL_MODE[$w]:-}" ] || { echo "bench.sh: unknown workload '$w'" >&2; exit 2; }
	done
	read -r -a WLS <<<"${WORKLOADS//,/ }"
fi
SLOW_DIV=10            # perf trace, strace, bpftrace printf: a tenth of the iterations
SUST_PAIRS=10500000    # flat-out sessions: pairs each (>= 10 M recorded despite some loss)
SUST_THREADS="1 2 4"
RATE_STEPS=5 RATE_SECONDS=3  # paced sessions when 1 thread flat out loses
AGG_RUNS=3
ROUND_RUNS=2
READER_PAIRS=1500000   # ior-reader: pairs of each synthetic recording
PARQUET_PAIRS=10000000 # ior-parquet: pairs of the recording converted
if [ "$SMOKE" = 1 ]; then
	RUNS=1 STATS_RUNS=1 AB_RUNS=1 AB_SECS=0.5 AB_KINDS="empty ior-flame" AB_WLS=${WLS[0]}
	for w in "${WLS[@]}"; do WL_ITERS[$w]=$((WL_ITERS[$w] / 100)); done
	SLOW_DIV=1 SUST_PAIRS=20000 SUST_THREADS="1" AGG_RUNS=1 ROUND_RUNS=1 READER_PAIRS=150000 PARQUET_PAIRS=200000
fi

declare -A NAME=([untraced]="untraced" [empty]="empty BPF prog (ior -benchEmpty)"
	[ior-flame]="ior -flamegraph" [ior-fs]="ior -flamegraph -trace-families=FS" [ior-plain]="ior -plain >/dev/null"
	[ior-recorder]="ior -recorder 60s (the flight recorder, a trigger that never fires)"
	[ior-summary]="ior -summary (the dashboard's statistics)"
	[ior-dash]="ior -tui (the dashboard, on a pty)"
	[bt-count]="bpftrace count, enter+exit" [bt-count-enter]="bpftrace count, enter only"
	[bt-count-raw]="bpftrace count, raw_syscalls"
	[bt-hist]="bpftrace pair+latency hist" [bt-print]="bpftrace printf per pair"
	[perf-trace]="perf trace -o FILE" [strace]="strace -f -o FILE")
declare -A FILTER=([untraced]="-" [empty]="none (all processes)" [ior-flame]="comm, in kernel" [ior-fs]="comm, in kernel"
	[ior-plain]="comm, in kernel" [ior-recorder]="comm, in kernel" [ior-summary]="comm, in kernel" [ior-dash]="comm, in kernel" [bt-count]="comm, in kernel" [bt-count-enter]="comm, in kernel"
	[bt-count-raw]="comm + syscall set, in kernel"
	[bt-hist]="comm, in kernel" [bt-print]="comm, in kernel"
	[perf-trace]="its child task (all its syscalls)" [strace]="its child (all its syscalls)")
ALL_TRACERS="untraced empty ior-flame ior-recorder ior-fs ior-plain ior-summary ior-dash bt-count-raw bt-count bt-count-enter bt-hist bt-print perf-trace strace ior-extra ior-reader ior-parquet"

log() { echo "bench: $*" >&2; }
PASSES=0 FAILS=0
pass() { echo "PASS: bench-smoke: $1"; PASSES=$((PASSES + 1)); }
fail() { echo "FAIL: bench-smoke: $1"; FAILS=$((FAILS + 1)); }
problem() { # a failure in full mode is reported, the bench goes on
	if [ "$SMOKE" = 1 ]; then fail "$1"; else log "PROBLEM: $1"; PROBLEMS+=("$1"); fi
}
PROBLEMS=()

# ---- CPU placement ---------------------------------------------------------
# With 2+ CPUs a one-thread workload runs on the last CPU and ior and
# bpftrace on CPU 0 (the issue's setting: the workload flat out on one
# core, the tracer on another), which also keeps the scheduler's noise out
# of the ratios. Two-thread workloads, and perf trace and strace with
# their child, run where they like.
NCPU=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
GEN_PIN=() TRACER_PIN=()
if [ "$NCPU" -ge 2 ] && command -v taskset >/dev/null; then
	GEN_PIN=(taskset -c $((NCPU - 1))) TRACER_PIN=(taskset -c 0)
fi
gen_pin() { # WL: prints the pinning prefix for its generator
	[ "${WL_THREADS[$1]}" = 1 ] && echo "${GEN_PIN[@]}"
}

# ---- process bookkeeping -------------------------------------------------
W=""
cleanup() {
	local p
	# the statistics' holder first: its sleep and iorprogstat are its children
	[ -n "${STATS_JOB:-}" ] && pkill -P "$STATS_JOB" 2>/dev/null
	# only our own children still running (no pid that may have been reused)
	for p in $(jobs -p); do kill -KILL "$p" 2>/dev/null; done
	for p in "${GEN_PIDS[@]}"; do rm -f "/dev/shm/iorbench-$p-"*; done
	if [ -n "$W" ]; then
		if [ "$KEEP" = 1 ]; then log "kept $W"; else rm -rf "$W"; fi
	fi
}
GEN_PIDS=()
FLAME_FILE=""
trap cleanup EXIT
trap 'exit 130' INT TERM

alive() { kill -0 "$1" 2>/dev/null; }
# Polls for an extended regex in FILE every 50 ms; gives up after SECONDS
# or when PID (optional) exits.
wait_for() { # FILE REGEX SECONDS [PID]
	local i
	for ((i = 0; i < $3 * 20; i++)); do
		grep -qE -- "$2" "$1" 2>/dev/null && return 0
		[ -n "${4:-}" ] && ! alive "$4" && { grep -qE -- "$2" "$1" 2>/dev/null; return; }
		sleep 0.05
	done
	return 1
}
# SIGINT, then waits up to SECONDS for the exit; SIGKILL after that.
stop_proc() { # PID SECONDS
	local i
	kill -INT "$1" 2>/dev/null
	for ((i = 0; i < $2 * 20; i++)); do
		alive "$1" || { wait "$1" 2>/dev/null; return 0; }
		sleep 0.05
	done
	log "pid $1 ignored SIGINT for $2 s: killed"
	kill -KILL "$1" 2>/dev/null
	wait "$1" 2>/dev/null
	return 1
}

# ---- the generator -------------------------------------------------------
RESULTS=""   # tracer wl run pid syscalls elapsed_ns pairs lost
GEN_SEQ=0
iters_of() { # WL DIV
	local n=$((WL_ITERS[$1] / $2))
	[ "$n" -ge 1 ] || n=1
	echo "$n"
}

# Starts the generator waiting for SIGUSR1; sets GEN_PID and GEN_OUT.
gen_start() { # WL DIV
	GEN_SEQ=$((GEN_SEQ + 1))
	GEN_OUT=$W/gen.$GEN_SEQ
	$(gen_pin "$1") "$GEN" "${WL_MODE[$1]}" -n "$(iters_of "$1" "$2")" -threads "${WL_THREADS[$1]}" \
		$(wl_dir "$1") -wait -mark >"$GEN_OUT" 2>&1 </dev/null &
	GEN_PID=$!
	GEN_PIDS+=("$GEN_PID")
	if ! wait_for "$GEN_OUT" '^iorbench: ready' 10 "$GEN_PID"; then
		problem "iorbench $1 not ready: $(head -c 300 "$GEN_OUT")"
		kill -KILL "$GEN_PID" 2>/dev/null
		return 1
	fi
}

# Reads the result line of GEN_OUT into GEN_SYSCALLS and GEN_ELAPSED.
gen_result() {
	local line
	line=$(grep '^iorbench: mode=' "$GEN_OUT" | tail -n 1)
	GEN_SYSCALLS=$(echo "$line" | sed -n 's/.* syscalls=\([0-9]*\).*/\1/p')
	GEN_ELAPSED=$(echo "$line" | sed -n 's/.* elapsed_ns=\([0-9]*\).*/\1/p')
	if [ -z "$GEN_SYSCALLS" ] || [ -z "$GEN_ELAPSED" ]; then
		problem "no result from iorbench: $(head -c 300 "$GEN_OUT")"
		return 1
	fi
}

# Releases the waiting generator and waits for it; records the run.
gen_go() { # TRACER WL RUN
	kill -USR1 "$GEN_PID"
	if ! wait "$GEN_PID"; then
		problem "iorbench $2 under $1 failed: $(head -c 300 "$GEN_OUT")"
		return 1
	fi
	gen_result || return 1
	record "$1" "$2" "$3" "$GEN_PID" "$GEN_SYSCALLS" "$GEN_ELAPSED" - -
}

record() { echo "$*" >>"$RESULTS"; }

# Tracers 20-200x slower than untraced run a tenth of the iterations.
div_of() { # TRACER
	case $1 in bt-print | perf-trace | strace) echo "$SLOW_DIV" ;; *) echo 1 ;; esac
}

# Every workload RUNS times, interleaved; HOOK runs after each generator
# exits (bpftrace: wait for its per-run mark).
run_workloads() { # TRACER [HOOK]
	local run w
	for ((run = 1; run <= RUNS; run++)); do
		for w in "${WLS[@]}"; do
			gen_start "$w" "$(div_of "$1")" || continue
			gen_go "$1" "$w" "$run" || continue
			[ -n "${2:-}" ] && "$2" "$GEN_PID"
		done
	done
}

# ---- untraced ------------------------------------------------------------
# ROUND_RUNS untraced runs of every workload. A round runs before every
# tracer and one at the end; a tracer is compared with the rounds just
# before and after it, because this machine's speed drifts over minutes
# (other work, the host): a bench-wide baseline moved by 2x in one run.
UNTRACED_ROUND=0
declare -A ROUND_OF
untraced_round() { # [TRACER about to run]
	local w i
	want untraced || return 0
	UNTRACED_ROUND=$((UNTRACED_ROUND + 1))
	[ -n "${1:-}" ] && ROUND_OF[$1]=$UNTRACED_ROUND
	for ((i = 0; i < ROUND_RUNS; i++)); do
		for w in "${WLS[@]}"; do
			gen_start "$w" 1 || continue
			gen_go untraced "$w" "$UNTRACED_ROUND"
		done
	done
	return 0
}

# ---- ior -----------------------------------------------------------------
# Starts ior in DIR with ARGS, stdout to OUT; waits for its tracing line.
# Sets IOR_PID and IOR_ERR.
ior_start() { # TAG DIR OUT ARGS...
	local tag=$1 dir=$2 out=$3
	shift 3
	mkdir -p "$dir"
	IOR_ERR=$W/$tag.err
	(cd "$dir" && exec "${TRACER_PIN[@]}" "$IOR" "$@") >"$out" 2>"$IOR_ERR" </dev/null &
	IOR_PID=$!
	if ! wait_for "$IOR_ERR" '^ior: (tracing|attached)|Ctrl-C to stop' 60 "$IOR_PID"; then
		problem "$tag: ior $* did not start tracing: $(tail -c 400 "$IOR_ERR")"
		kill -KILL "$IOR_PID" 2>/dev/null
		wait "$IOR_PID" 2>/dev/null
		return 1
	fi
}

# The dashboard needs a terminal: script(1) gives ior a pty, whose frames
# (the Overview, 10 a second) go to /dev/null; its stdin is a pipe kept
# open (EOF on it would end the session). IOR_PID is ior itself, from the
# pid its shell writes before exec, so its CPU is ior's alone.
ior_start_pty() { # TAG DIR ARGS...
	local tag=$1 dir=$2 pidf i
	shift 2
	mkdir -p "$dir"
	IOR_ERR=$W/$tag.err pidf=$W/$tag.pid
	rm -f "$pidf"
	(sleep 3600 | (cd "$dir" && exec script -qfec \
		"echo \$\$ >$pidf; exec ${TRACER_PIN[*]} $IOR $* 2>$IOR_ERR" /dev/null) >/dev/null 2>&1) &
	PTY_JOB=$!
	for ((i = 0; i < 200; i++)); do [ -s "$pidf" ] && break; sleep 0.05; done
	IOR_PID=$(cat "$pidf" 2>/dev/null)
	if [ -z "$IOR_PID" ] || ! wait_for "$IOR_ERR" '^ior: tracing' 60 "$IOR_PID"; then
		problem "$tag: ior $* on a pty did not start tracing: $(tail -c 400 "$IOR_ERR" 2>/dev/null)"
		[ -n "$IOR_PID" ] && kill -KILL "$IOR_PID" 2>/dev/null
		pty_done
		return 1
	fi
}

# The pty's job: its sleep (by parent pid, so no stranger's), then itself.
pty_done() {
	pkill -P "$PTY_JOB" 2>/dev/null
	kill "$PTY_JOB" 2>/dev/null
	wait "$PTY_JOB" 2>/dev/null
}

# A number from ior's statistics: "N LABEL" or "LABEL: N" / "LABEL=N".
ior_stat() { # FILE LABEL
	local v
	v=$(grep -oE "[0-9]+ +$2\b" "$1" | head -n 1 | grep -oE '^[0-9]+')
	[ -n "$v" ] || v=$(grep -oE "\b$2 *[:=] *[0-9]+" "$1" | head -n 1 | grep -oE '[0-9]+$')
	echo "$v"
}

vm_kib() { # PID FIELD
	sed -n "s/^$2:[[:space:]]*\([0-9]*\) kB/\1/p" "/proc/$1/status" 2>/dev/null
}

# CPU seconds of a process so far, all its threads: schedstat's time on
# a CPU in ns (user + system; /proc/PID/stat's ticks are 10 ms, as long
# as a whole session of the read loop under ior).
cpu_s() { # PID
	cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { if (NR) printf "%.4f", s / 1e9 }'
}

declare -A SESSION_PAIRS SESSION_LOST SESSION_RSS SESSION_EXPECT SESSION_CPU
session_expect() { # TRACER: loop syscalls of its recorded runs
	awk -v t="$1" '$1 == t { s += $5 } END { print s + 0 }' "$RESULTS"
}

# empty, ior -flamegraph and ior -plain are measured paired: every run of
# every workload runs untraced, then under a fresh session of each (ior
# starts in ~0.1 s), then untraced again, and is compared with those two
# untraced runs only. The cost target is a ratio of added costs of ~150
# and ~300 ns, and this machine's speed drifts by more than that over the
# minutes between two sessions measured one after the other.
PAIRED=""
is_paired() { [[ " $PAIRED " == *" $1 "* ]]; }

ior_args() { # TRACER WL RUN (base-X: X's arguments)
	case ${1#base-} in
	empty) echo -benchEmpty -duration 1h ;;
	ior-flame) echo -flamegraph -name "bench-$2-$3" -comm "$COMM" ;;
	ior-fs) echo -flamegraph -trace-families=FS -name "bench-fs-$2-$3" -comm "$COMM" ;;
	ior-recorder) echo -recorder 60s -trigger duration\>1h -comm "$COMM" ;;
	ior-plain) echo -plain -comm "$COMM" ;;
	ior-summary) echo -summary -comm "$COMM" ;;
	ior-dash) echo -tui -comm "$COMM" ;;
	esac
}

bench_ior_paired() {
	local t w run
	for t in empty ior-flame ior-recorder ior-fs ior-plain ior-summary ior-dash; do
		want "$t" || continue
		PAIRED="$PAIRED $t"
		[ -n "$BASE_IOR" ] && [ "$t" != empty ] && PAIRED="$PAIRED base-$t"
	done
	for t in $PAIRED; do
		SESSION_PAIRS[$t]=0 SESSION_LOST[$t]=0 SESSION_CPU[$t]=0 SESSION_RSS[$t]=0
	done
	[ -n "$PAIRED" ] || return 0
	log "paired:$PAIRED: each run untraced, under each, untraced again; $RUNS runs"
	for ((run = 1; run <= RUNS; run++)); do
		for w in "${WLS[@]}"; do
			gen_start "$w" 1 && gen_go untraced "$w" "p$run"
			for t in $PAIRED; do ior_session_run "$t" "$w" "$run"; done
			gen_start "$w" 1 && gen_go untraced "$w" "p$run"
		done
	done
	for t in $PAIRED; do
		[ "$t" = empty ] && SESSION_PAIRS[$t]="" SESSION_LOST[$t]=""
		SESSION_EXPECT[$t]=$(session_expect "$t")
	done
	is_paired ior-flame && ior_pairs_per_run ior-flame
	is_paired base-ior-flame && ior_pairs_per_run base-ior-flame
	return 0
}

# One run of WL under a fresh ior session; the session's pairs and lost
# records go into the run's row.
ior_session_run() { # TRACER WL RUN
	local t=$1 w=$2 run=$3 rss cpu cpu0 pairs lost IOR=$IOR
	[[ $t == base-* ]] && IOR=$BASE_IOR # ior_start runs $IOR
	# shellcheck disable=SC2046 # ior_args prints words without spaces
	if [ "$t" = ior-dash ]; then
		ior_start_pty "$t-$w-$run" "$W/$t" $(ior_args "$t" "$w" "$run") || return 1
	else
		ior_start "$t-$w-$run" "$W/$t" /dev/null $(ior_args "$t" "$w" "$run") || return 1
	fi
	cpu0=$(cpu_s "$IOR_PID") # start-up (kernel BTF, verifier) is not per pair
	gen_start "$w" 1 && gen_go "$t" "$w" "$run"
	rss=$(vm_kib "$IOR_PID" VmHWM)
	cpu=$(awk -v a="$(cpu_s "$IOR_PID")" -v b="${cpu0:-0}" 'BEGIN { printf "%.4f", a - b }')
	stop_proc "$IOR_PID" 300 || problem "$t: ior did not stop on SIGINT within 300 s"
	[ "$t" = ior-dash ] && pty_done
	SESSION_CPU[$t]=$(awk -v a="${SESSION_CPU[$t]}" -v b="${cpu:-0}" 'BEGIN { printf "%.4f", a + b }')
	[ "${rss:-0}" -gt "${SESSION_RSS[$t]}" ] && SESSION_RSS[$t]=$rss
	[ "$t" = empty ] && return 0
	pairs=$(ior_stat "$IOR_ERR" "syscall pairs") lost=$(ior_stat "$IOR_ERR" lost)
	if [ -z "$lost" ] || [ -z "$pairs" ]; then
		problem "$t: no pairs or lost count in ior's statistics: $(tail -c 300 "$IOR_ERR")"
		return 1
	fi
	[ "$lost" = 0 ] || log "$t-$w-$run: $(grep -E '^ior: (lost|perf samples)' "$IOR_ERR" | tr '\n' ' ')"
	SESSION_PAIRS[$t]=$((SESSION_PAIRS[$t] + pairs)) SESSION_LOST[$t]=$((SESSION_LOST[$t] + lost))
	awk -v t="$t" -v w="$w" -v r="$run" -v p="$pairs" -v l="$lost" \
		'$1 == t && $2 == w && $3 == r { $7 = p; $8 = l } { print }' \
		"$RESULTS" >"$RESULTS.new" && mv "$RESULTS.new" "$RESULTS"
}

# The recordings' pairs per generator pid, from ior collapsed -fields pid
# (this ior reads the baseline's recordings too), written into the
# TRACER's rows of RESULTS.
ior_pairs_per_run() { # TRACER (ior-flame or base-ior-flame)
	local file counts=$W/$1.pids
	: >"$counts"
	for file in "$W/$1"/*.ior.zst; do
		if [ ! -f "$file" ]; then
			problem "$1: no .ior.zst written: $(tail -c 300 "$IOR_ERR")"
			return 1
		fi
		[ "$1" = ior-flame ] && FLAME_FILE=$file
		if ! "$IOR" collapsed -fields pid -count count "$file" >>"$counts" 2>"$counts.err"; then
			problem "ior collapsed -fields pid $file failed: $(head -c 300 "$counts.err")"
			return 1
		fi
	done
	awk 'NR == FNR { n = $NF; $NF = ""; gsub(/[^0-9]/, "", $0); if ($0 != "") c[$0] += n; next }
	     $1 == t { $7 = ($4 in c) ? c[$4] : 0 } { print }' t="$1" \
		"$counts" "$RESULTS" >"$RESULTS.new" && mv "$RESULTS.new" "$RESULTS"
}

# ---- BPF run-time statistics ---------------------------------------------
# The programs themselves, far less sensitive to the machine's load than
# wall time: with the kernel's run-time statistics on (iorprogstat enable,
# during this phase only: they cost every program two clock reads), a
# fresh session of each of empty, ior-flame and ior-plain per run and
# workload, and its programs' run_cnt and run_time_ns before and after the
# loop. The programs run for every syscall on the machine (the filters
# drop others' early), so runs per loop syscall above 1 are other
# processes'. Rows of $W/progstats: tracer wl run prog runs ns insns syscalls
STATS_T=""
bench_bpf_stats() {
	local t w run pre post
	for t in empty ior-flame ior-plain; do want "$t" && STATS_T="$STATS_T $t"; done
	[ -n "$STATS_T" ] && [ "$STATS_RUNS" -gt 0 ] || return 0
	[ -x "$PROGSTAT" ] || { problem "$PROGSTAT missing: run make build/iorprogstat"; return 1; }
	: >"$W/progstats"
	(sleep 36000 | "$PROGSTAT" enable >"$W/progstat.en" 2>&1) &
	STATS_JOB=$!
	if ! wait_for "$W/progstat.en" '^iorprogstat: enabled' 10; then
		problem "BPF run-time statistics: $(head -c 300 "$W/progstat.en")"
		return 1
	fi
	log "bpf stats:$STATS_T; $STATS_RUNS runs of every workload, a fresh session each"
	for ((run = 1; run <= STATS_RUNS; run++)); do
		for w in "${WLS[@]}"; do
			for t in $STATS_T; do
				# shellcheck disable=SC2046 # ior_args prints words without spaces
				ior_start "stats-$t-$w-$run" "$W/stats-$t" /dev/null $(ior_args "$t" "$w" "s$run") || continue
				gen_start "$w" 1 || { stop_proc "$IOR_PID" 60; continue; }
				pre=$("$PROGSTAT" "$IOR_PID")
				kill -USR1 "$GEN_PID"
				wait "$GEN_PID"
				post=$("$PROGSTAT" "$IOR_PID")
				stop_proc "$IOR_PID" 300 || problem "stats-$t: ior did not stop on SIGINT within 300 s"
				gen_result || continue
				join <(sort <<<"$pre") <(sort <<<"$post") |
					awk -v t="$t" -v w="$w" -v r="$run" -v n="$GEN_SYSCALLS" \
					'$8 > $3 { print t, w, r, $1, $8 - $3, $9 - $4, $10, n }' >>"$W/progstats"
			done
		done
	done
	bench_probes
	pkill -P "$STATS_JOB" 2>/dev/null
	wait "$STATS_JOB" 2>/dev/null
	STATS_JOB=""
}

# What one helper call costs a program here: iorprogstat's one-call
# programs on sys_enter and sys_exit during the read loop, ns per run
# (median of STATS_RUNS). empty is the statistics' own cost (two clock
# reads around every run); the others add their helper to it.
PROBE_KINDS="empty clock pidtgid comm"
declare -A PROBE_NS
bench_probes() {
	local k i
	for k in $PROBE_KINDS; do
		for ((i = 0; i < STATS_RUNS; i++)); do
			"$PROGSTAT" probe "$k" "${GEN_PIN[@]}" "$GEN" read -n "$(iters_of read 1)" 2>&1 |
				sed -n "s/^iorprogstat: $k runs=[0-9]* ns_per_run=//p"
		done >"$W/probe.$k"
		PROBE_NS[$k]=$(median <"$W/probe.$k")
	done
}

# Per tracer, workload and program, over the runs: median ns/run, its
# range, runs per loop syscall, xlated instructions; and per tracer and
# workload the programs' ns per loop syscall (all their runs: what the
# session cost in BPF time, over the loop's syscalls).
# Rows of $W/progsum: tracer wl prog ns lo hi runs_per_syscall insns
stats_summarize() {
	[ -s "$W/progstats" ] || return 0
	awk '
	function med(s,  n, v, i, j, t) {
		n = split(s, v, " ")
		for (i = 2; i <= n; i++) { t = v[i] + 0; for (j = i - 1; j >= 1 && v[j] + 0 > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
		lo = v[1]; hi = v[n]
		return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
	}
	{
		k = $1 " " $2 " " $4
		if (!(k in ns)) order[++nk] = k
		ns[k] = ns[k] " " $6 / $5; rps[k] = rps[k] " " $5 / $8; insns[k] = $7
		kt = $1 " " $2 " " $3; tot[kt] += $6; sys[kt] = $8; tw[kt] = $1 " " $2
	}
	END {
		for (i = 1; i <= nk; i++) {
			k = order[i]; m = med(ns[k]); l = lo; h = hi
			printf "%s %.1f %.1f %.1f %.2f %s\n", k, m, l, h, med(rps[k]), insns[k]
		}
		for (kt in tot) per[tw[kt]] = per[tw[kt]] " " tot[kt] / sys[kt]
		for (k in per) { m = med(per[k]); printf "%s (all) %.1f %.1f %.1f - -\n", k, m, lo, hi }
	}' "$W/progstats" >"$W/progsum"
}

prog_field() { # TRACER WL PROG FIELD(4..8)
	awk -v t="$1" -v w="$2" -v p="$3" -v f="$4" '$1 == t && $2 == w && $3 == p { print $f }' "$W/progsum" 2>/dev/null
}

print_stats_table() {
	local w t
	if perf stat -x, -e instructions true 2>&1 | grep -q 'not supported\|not counted'; then
		echo "perf stat -e instructions: not supported on this machine (no PMU in the VM): no instruction counts."
		echo
	fi
	[ -s "$W/progsum" ] || return 0
	echo "BPF run-time statistics (kernel.bpf_stats via BPF_ENABLE_STATS), median of $STATS_RUNS fresh sessions per workload;"
	echo "runs/syscall above 1 are other processes' syscalls (the machine is shared); (all) is every ior program's run time over the loop's syscalls."
	echo
	if [ -n "${PROBE_NS[empty]:-}" ]; then
		echo "One helper call in a program on sys_enter and sys_exit (iorprogstat probe, read loop), ns/run: empty ${PROBE_NS[empty]} (the statistics' own cost), bpf_ktime_get_ns ${PROBE_NS[clock]:-?}, bpf_get_current_pid_tgid ${PROBE_NS[pidtgid]:-?}, bpf_get_current_comm ${PROBE_NS[comm]:-?}."
		echo
	fi
	echo "| workload | tracer | program | ns/run | range | runs/loop syscall | xlated insns |"
	echo "|---|---|---|---:|---:|---:|---:|"
	for w in "${WLS[@]}"; do
		for t in $STATS_T; do
			awk -v t="$t" -v w="$w" -v n="${NAME[$t]}" '$1 == t && $2 == w && $3 ~ /^ior_(btf|raw)_(enter|exit|empty)$|^\(all\)$/ {
				printf "| %s | %s | %s | %s | %s-%s | %s | %s |\n", w, n, $3, $4, $5, $6, $7, $8 }' "$W/progsum"
		done
	done
	echo
}

# ---- bpftrace ------------------------------------------------------------
# ior's default syscall set that this kernel has tracepoints for (ior -list).
ior_syscalls() {
	"$IOR" -list | awk '$4 == "yes" { print $2 }'
}

probes() { # enter|exit
	ior_syscalls | sed "s/^/tracepoint:syscalls:sys_$1_/" | paste -sd, -
}

# "@want[NR] = 1;" for every syscall number ior traces by default.
want_numbers() {
	"$IOR" -list | awk '$4 == "yes" { print $1 }' | sed 's/.*/@want[&] = 1;/' | paste -sd' ' -
}

# Every script prints "bench: attached" from BEGIN (after all probes are
# attached), and on the generator's getppid mark prints "bench: mark PID"
# followed by what it counted for that run, then clears it.
bt_script() { # TRACER
	local mark='tracepoint:syscalls:sys_enter_getppid /comm == "'$COMM'"/ { printf("bench: mark %d\n", pid);'
	if [ "$1" = bt-count-raw ]; then
		echo "BEGIN { $(want_numbers) printf(\"bench: attached\\n\"); }"
	else
		echo 'BEGIN { printf("bench: attached\n"); }'
	fi
	case $1 in
	bt-count-raw)
		# the tracepoints ior attaches to, filtered to ior's syscalls
		echo 'tracepoint:raw_syscalls:sys_enter'
		echo "/comm == \"$COMM\" && @want[args->id]/ { @enter[args->id] = count(); }"
		echo 'tracepoint:raw_syscalls:sys_exit'
		echo "/comm == \"$COMM\" && @want[args->id]/ { @exit[args->id] = count(); }"
		echo "$mark print(@enter); clear(@enter); clear(@exit); }"
		echo 'END { printf("bench: end\n"); clear(@enter); clear(@exit); clear(@want); }' ;;
	bt-count)
		echo "$(probes enter),"
		echo "$(probes exit)"
		echo "/comm == \"$COMM\"/ { @[probe] = count(); }"
		echo "$mark print(@); clear(@); }"
		echo 'END { printf("bench: end\n"); clear(@); }' ;;
	bt-count-enter)
		echo "$(probes enter)"
		echo "/comm == \"$COMM\"/ { @[probe] = count(); }"
		echo "$mark print(@); clear(@); }"
		echo 'END { printf("bench: end\n"); clear(@); }' ;;
	bt-hist)
		echo "$(probes enter)"
		echo "/comm == \"$COMM\"/ { @start[tid] = nsecs; }"
		echo "$(probes exit)"
		echo '/@start[tid]/ { @ns[probe] = hist(nsecs - @start[tid]); delete(@start[tid]); }'
		echo "$mark print(@ns); clear(@ns); }"
		echo 'END { printf("bench: end\n"); clear(@ns); clear(@start); }' ;;
	bt-print)
		echo "$(probes enter)"
		echo "/comm == \"$COMM\"/ { @start[tid] = nsecs; }"
		echo "$(probes exit)"
		echo '/@start[tid]/ { printf("%d %d %s %d %d\n", pid, tid, probe, args->ret, nsecs - @start[tid]); delete(@start[tid]); }'
		echo "$mark }"
		echo 'END { printf("bench: end\n"); clear(@start); }' ;;
	esac
}

bt_wait_mark() { # GEN_PID
	wait_for "$BT_OUT" "^bench: mark $1\$" 120 "$BT_PID" ||
		problem "$BT_T: no mark for run $1 in bpftrace's output"
}

bench_bpftrace() { # TRACER
	local t=$1
	BT_T=$t BT_OUT=$W/$t.out
	bt_script "$t" >"$W/$t.bt"
	log "$t: bpftrace $W/$t.bt ($(grep -o 'tracepoint:' "$W/$t.bt" | wc -l) tracepoints)"
	"${TRACER_PIN[@]}" bpftrace "$W/$t.bt" >"$BT_OUT" 2>&1 </dev/null &
	BT_PID=$!
	if ! wait_for "$BT_OUT" '^bench: attached' 120 "$BT_PID"; then
		problem "$t: bpftrace did not attach: $(tail -c 400 "$BT_OUT")"
		kill -KILL "$BT_PID" 2>/dev/null
		return 1
	fi
	run_workloads "$t" bt_wait_mark
	SESSION_RSS[$t]=$(vm_kib "$BT_PID" VmHWM)
	SESSION_CPU[$t]=$(cpu_s "$BT_PID")
	stop_proc "$BT_PID" 300 || problem "$t: bpftrace did not stop within 300 s"
	bt_parse "$t"
	SESSION_EXPECT[$t]=$(session_expect "$t")
}

# Pairs per run from the marks: count maps (sys_enter lines), hist buckets,
# or printed pair lines; "Lost N events" lines are charged to the run
# whose mark follows them.
bt_parse() { # TRACER
	local t=$1 per=$W/$1.per
	awk -v t="$t" '
	/^bench: mark / { cur = $3; mark[cur] = 1; if (t == "bt-print") { n[cur] += pending; pending = 0 }; lost[cur] += plost; plost = 0; next }
	/^bench: end/ { cur = ""; next }
	/^Lost [0-9]+ events/ { plost += $2; total_lost += $2; next }
	t ~ /^bt-count/ && cur != "" && /^@(enter)?\[(tracepoint:syscalls:sys_enter_|[0-9])/ { n[cur] += $NF; next }
	t == "bt-hist" && cur != "" && /^\[/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+$/ && $(i-1) ~ /[])]$/) { n[cur] += $i; break }; next }
	t == "bt-print" && /^[0-9]+ [0-9]+ tracepoint:/ { pending++; next }
	END { for (p in mark) print p, n[p] + 0, lost[p] + 0; print "total", 0, total_lost + plost }
	' "$BT_OUT" >"$per"
	SESSION_LOST[$t]=$(awk '$1 == "total" { print $3 }' "$per")
	SESSION_PAIRS[$t]=$(awk '$1 != "total" { s += $2 } END { print s + 0 }' "$per")
	awk -v t="$t" 'NR == FNR { n[$1] = $2; l[$1] = $3; next }
		$1 == t { $7 = ($4 in n) ? n[$4] : 0; $8 = ($4 in l) ? l[$4] : 0 } { print }' \
		"$per" "$RESULTS" >"$RESULTS.new" && mv "$RESULTS.new" "$RESULTS"
}

# ---- perf trace, strace: one tracer per run, started with the generator --
bench_child_tracer() { # TRACER
	local t=$1 run w out f n pairs lost
	log "$t (1/$SLOW_DIV of the iterations per run)"
	for ((run = 1; run <= RUNS; run++)); do
		for w in "${WLS[@]}"; do
			GEN_SEQ=$((GEN_SEQ + 1))
			GEN_OUT=$W/gen.$GEN_SEQ f=$W/$t.$GEN_SEQ.out
			n=$(iters_of "$w" "$SLOW_DIV")
			# not pinned: a ptrace stop is a round trip to the tracer,
			# which costs several times more across CPUs
			local cmd=("$GEN" "${WL_MODE[$w]}" -n "$n" -threads "${WL_THREADS[$w]}" $(wl_dir "$w"))
			case $t in
			perf-trace) perf trace -o "$f" -- "${cmd[@]}" >"$GEN_OUT" 2>"$f.err" </dev/null ;;
			strace) strace -f -o "$f" -- "${cmd[@]}" >"$GEN_OUT" 2>"$f.err" </dev/null ;;
			esac
			gen_result || { problem "$t: $(head -c 300 "$f.err")"; continue; }
			case $t in
			perf-trace)
				pairs=$(grep -cE ' [a-z_0-9]+\(.*\) += ' "$f")
				lost=$(grep -oiE 'LOST [0-9]+' "$f" | awk '{ s += $2 } END { print s + 0 }') ;;
			strace)
				pairs=$(grep -cvE 'resumed>|^[0-9]+ +(\+\+\+|---)' "$f")
				lost=0 ;;
			esac
			record "$t" "$w" "$run" 0 "$GEN_SYSCALLS" "$GEN_ELAPSED" "$pairs" "$lost"
			rm -f "$f"
		done
	done
	SESSION_PAIRS[$t]=$(awk -v t="$t" '$1 == t { s += $7 } END { print s + 0 }' "$RESULTS")
	SESSION_LOST[$t]=$(awk -v t="$t" '$1 == t { s += $8 } END { print s + 0 }' "$RESULTS")
	SESSION_EXPECT[$t]=$(session_expect "$t")
}

# ---- ior: sustained rate, recording size, aggregation, RSS ---------------
EXTRA=()      # "key value" lines for the ior table and the bench: line
extra() { EXTRA+=("$1 $2"); }

# One read-loop session under ior -flamegraph: TAG names it, GEN_ARGS go
# to iorbench read (-n N | -t S -rate R); samples ior's VmHWM every 0.5 s
# while the loop runs. Sets SUST_*[TAG].
sustained_session() { # TAG THREADS GEN_ARGS...
	local tag=$1 T=$2 dir=$W/sust-$1 sampler hwm_early hwm_last lost pairs summ
	shift 2
	ior_start "sust-$tag" "$dir" /dev/null -flamegraph -name "sust-$tag" -comm "$COMM" || return 1
	GEN_SEQ=$((GEN_SEQ + 1))
	GEN_OUT=$W/gen.$GEN_SEQ
	$([ "$T" = 1 ] && echo "${GEN_PIN[@]}") "$GEN" read -threads "$T" "$@" -wait -mark >"$GEN_OUT" 2>&1 </dev/null &
	GEN_PID=$!
	GEN_PIDS+=("$GEN_PID")
	if ! wait_for "$GEN_OUT" '^iorbench: ready' 10 "$GEN_PID"; then
		problem "sust-$tag: generator not ready: $(head -c 300 "$GEN_OUT")"
		stop_proc "$IOR_PID" 60
		return 1
	fi
	(while alive "$GEN_PID"; do vm_kib "$IOR_PID" VmHWM; sleep 0.5; done) >"$dir.hwm" &
	sampler=$!
	kill -USR1 "$GEN_PID"
	wait "$GEN_PID" || problem "sust-$tag: generator failed: $(head -c 300 "$GEN_OUT")"
	wait "$sampler" 2>/dev/null
	hwm_last=$(vm_kib "$IOR_PID" VmHWM)
	stop_proc "$IOR_PID" 300 || problem "sust-$tag: ior did not stop within 300 s"
	gen_result || return 1
	lost=$(ior_stat "$IOR_ERR" lost) pairs=$(ior_stat "$IOR_ERR" "syscall pairs")
	summ=$(ior_stat "$IOR_ERR" summarized)
	# the sample a quarter into the run: warm (rings touched, buffers grown)
	hwm_early=$(grep -E '^[0-9]+$' "$dir.hwm" | awk '{ v[NR] = $1 } END { if (NR) print v[int(NR / 4) + 1] }')
	SUST_RATE[$tag]=$(awk -v s="$GEN_SYSCALLS" -v e="$GEN_ELAPSED" 'BEGIN { printf "%.0f", s * 1e9 / e }')
	SUST_LOST[$tag]=${lost:-?}
	SUST_SUMM[$tag]=${summ:-?}
	SUST_PAIRS_REC[$tag]=${pairs:-?}
	SUST_HWM_EARLY[$tag]=${hwm_early:-?}
	SUST_HWM_LAST[$tag]=${hwm_last:-?}
	SUST_FILE[$tag]=$(ls "$dir"/*.ior.zst 2>/dev/null | head -n 1)
	log "sust-$tag: $GEN_SYSCALLS syscalls at ${SUST_RATE[$tag]}/s, ior pairs ${pairs:-?} lost ${lost:-?} summarized ${summ:-?}, VmHWM ${hwm_early:-?} -> ${hwm_last:-?} KiB"
}

# Loss with one thread flat out: bisect a paced 1-thread read loop between
# 0 and that rate, RATE_STEPS sessions of RATE_SECONDS each. Sets
# RATE_BEST to the highest rate (measured) that lost nothing, 0 if none.
rate_search() { # UNPACED_RATE
	local lo=0 hi=$1 mid i
	RATE_BEST=0
	for ((i = 1; i <= RATE_STEPS; i++)); do
		mid=$(((lo + hi) / 2))
		[ "$mid" -gt 0 ] || break
		log "sustained: paced read loop at $mid pairs/s"
		sustained_session "rate$i" 1 -t "$RATE_SECONDS" -rate "$mid" || return 1
		if [ "${SUST_LOST[rate$i]}" = 0 ]; then
			lo=$mid
			[ "${SUST_RATE[rate$i]}" -gt "$RATE_BEST" ] && RATE_BEST=${SUST_RATE[rate$i]}
		else
			hi=$mid
		fi
	done
}

# Median wall time and peak RSS of an ior command on a recording.
time_ior() { # TAG CMD...
	local tag=$1 i t0 t1 rss
	shift
	: >"$W/$tag.times"
	for ((i = 0; i < AGG_RUNS; i++)); do
		t0=$(date +%s%N)
		# GNU time for the peak RSS when installed (scripts/deps.sh bench)
		if [ -x /usr/bin/time ]; then
			(cd "$W/agg" && /usr/bin/time -f '%M' -o "$W/$tag.rss" "$@" >"$W/$tag.out" 2>"$W/$tag.err")
		else
			echo - >"$W/$tag.rss"
			(cd "$W/agg" && "$@" >"$W/$tag.out" 2>"$W/$tag.err")
		fi || {
			problem "$tag: $* failed: $(tail -c 300 "$W/$tag.err")"
			return 1
		}
		t1=$(date +%s%N)
		rss=$(tail -n 1 "$W/$tag.rss")
		echo "$((t1 - t0)) $rss" >>"$W/$tag.times"
	done
	TIME_NS=$(sort -n "$W/$tag.times" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	TIME_RSS=$(sort -n -k2 "$W/$tag.times" | tail -n 1 | awk '{ print $2 }')
}

# ior parquet on an iorrecgen recording of PARQUET_PAIRS pairs over 1000
# paths (a few hot files, like most traces) and over 100000 (the
# dictionary's worst case that still fits it): pairs/s (wall, median of
# AGG_RUNS, and one run's user+sys CPU), the size against the .ior.zst,
# and DuckDB's count and duration sum against ior collapsed's.
bench_parquet() {
	local spec tag n d file out cpu
	mkdir -p "$W/agg"
	for spec in "hot $PARQUET_PAIRS 1000" "wide $PARQUET_PAIRS 100000"; do
		read -r tag n d <<<"$spec"
		file=$W/agg/parquet-$tag.ior.zst out=$W/agg/parquet-$tag.parquet
		log "parquet: ior parquet on $n pairs over $d paths"
		"$RECGEN" "$file" "$n" "$d" || { problem "iorrecgen $file $n $d failed"; continue; }
		time_ior "parquet-$tag" "$IOR" parquet "$file" -o "$out" || continue
		/usr/bin/time -f '%U %S' -o "$W/parquet-$tag.cpu" "$IOR" parquet "$file" -o "$out" >/dev/null 2>&1
		cpu=$(tail -n 1 "$W/parquet-$tag.cpu")
		extra "parquet_${tag}_pairs" "$n"
		extra "parquet_${tag}_pairs_per_s" "$(awk -v p="$n" -v t="$TIME_NS" 'BEGIN { printf "%.0f", p * 1e9 / t }')"
		extra "parquet_${tag}_cpu_pairs_per_s" "$(echo "$cpu" | awk -v p="$n" '{ if ($1 + $2 > 0) printf "%.0f", p / ($1 + $2); else print "-" }')"
		extra "parquet_${tag}_rss_kib" "$TIME_RSS"
		extra "parquet_${tag}_size_ratio" "$(awk -v a="$(stat -c %s "$out")" -v b="$(stat -c %s "$file")" 'BEGIN { printf "%.2f", a / b }')"
		parquet_duckdb "$tag" "$file" "$out"
	done
}

# DuckDB's count(*) and sum(duration_ns) of the file against ior collapsed.
parquet_duckdb() { # TAG RECORDING PARQUET
	local want got
	(ROOT=$ROOT WHY=""; . "$ROOT/tests/lib/duckdb.sh"; duckdb_setup) || { log "parquet: no DuckDB, totals not checked"; return; }
	want=$("$IOR" collapsed -fields comm -count duration "$2" 2>/dev/null | awk '{ s += $NF } END { printf "%.0f", s }')
	got=$(ROOT=$ROOT; . "$ROOT/tests/lib/duckdb.sh"; duckdb_sql "SELECT count(*)::VARCHAR AS n, sum(duration_ns)::VARCHAR AS d FROM '$3'")
	if [ "$got" = "[{\"n\":\"$(ex "parquet_$1_pairs")\",\"d\":\"$want\"}]" ]; then
		extra "parquet_$1_duckdb" "rows and duration sum equal ior collapsed's"
	else
		problem "parquet $1: DuckDB says $got, ior collapsed $want ns over $(ex "parquet_$1_pairs") pairs"
	fi
}

declare -A SUST_RATE SUST_LOST SUST_SUMM SUST_PAIRS_REC SUST_HWM_EARLY SUST_HWM_LAST SUST_FILE
bench_ior_extra() {
	local T best=0 best_t="" loss_t="" paced=no file pairs size
	# smoke: no extra session; the aggregation numbers come from the
	# ior -flamegraph session's recording
	[ "$SMOKE" = 1 ] && SUST_THREADS=""
	for T in $SUST_THREADS; do
		log "sustained: read loop flat out, $T thread(s), $SUST_PAIRS pairs under ior -flamegraph"
		sustained_session "t$T" "$T" -n $((SUST_PAIRS / T)) || continue
		if [ "${SUST_LOST[t$T]}" = 0 ]; then
			[ "${SUST_RATE[t$T]}" -gt "$best" ] && best=${SUST_RATE[t$T]} best_t=$T
		else
			[ -n "$loss_t" ] || loss_t=$T
			# 1 and 2 threads always run (targets); more only while lossless
			[ "$T" -ge 2 ] && break
		fi
	done
	if [ "$loss_t" = 1 ]; then
		rate_search "${SUST_RATE[t1]}"
		best=$RATE_BEST best_t=1 paced=yes
	fi
	if [ "$SMOKE" = 0 ]; then
		extra sustained_pairs_per_s "$best"
		extra sustained_threads "${best_t:-none}"
		extra sustained_paced "$paced"
		extra loss_at_threads "${loss_t:-none}"
	fi
	for T in 1 2 4; do
		[ -n "${SUST_LOST[t$T]:-}" ] && extra "lost_read_${T}t" "${SUST_LOST[t$T]}"
		[ -n "${SUST_SUMM[t$T]:-}" ] && extra "summarized_read_${T}t" "${SUST_SUMM[t$T]}"
	done
	file=${SUST_FILE[t1]:-}
	[ "$SMOKE" = 1 ] && file=${FLAME_FILE:-}
	if [ -z "$file" ] || [ ! -s "$file" ]; then
		problem "no recording from the 1-thread sustained session"
		return 1
	fi
	mkdir -p "$W/agg"
	# pairs from the recording itself: the sum of collapsed counts
	time_ior collapsed "$IOR" collapsed "$file" || return 1
	pairs=$(awk '{ s += $NF } END { printf "%.0f", s }' "$W/collapsed.out")
	size=$(stat -c %s "$file")
	extra rec_pairs "$pairs"
	extra rec_bytes "$size"
	extra bytes_per_pair "$(awk -v s="$size" -v p="$pairs" 'BEGIN { printf "%.2f", p ? s / p : 0 }')"
	extra collapsed_pairs_per_s "$(awk -v p="$pairs" -v t="$TIME_NS" 'BEGIN { printf "%.0f", p * 1e9 / t }')"
	extra collapsed_rss_kib "$TIME_RSS"
	time_ior flame "$IOR" -ior "$file" -nohttp || return 1
	extra flame_pairs_per_s "$(awk -v p="$pairs" -v t="$TIME_NS" 'BEGIN { printf "%.0f", p * 1e9 / t }')"
	extra flame_rss_kib "$TIME_RSS"
	[ "$SMOKE" = 1 ] && return 0
	extra trace_rss_kib "${SUST_HWM_LAST[t1]}"
	extra trace_rss_early_kib "${SUST_HWM_EARLY[t1]}"
}

# ---- ior: reading big recordings -----------------------------------------
# ior collapsed -fields=comm,path on iorrecgen recordings of READER_PAIRS
# newstat pairs: on 100 paths, on as many distinct paths, and on 300 k
# distinct ones (not in smoke). pairs/s (median of AGG_RUNS), peak RSS,
# and the pairs the graph's bounds put in "(other)" (README).
bench_reader() {
	local spec tag n d file said few_pps
	if [ ! -x "$RECGEN" ]; then
		problem "$RECGEN missing: run make build/iorrecgen"
		return 1
	fi
	mkdir -p "$W/agg"
	for spec in "few $READER_PAIRS 100" "distinct $READER_PAIRS $READER_PAIRS" "distinct300k 300000 300000"; do
		read -r tag n d <<<"$spec"
		[ "$SMOKE" = 1 ] && [ "$tag" = distinct300k ] && continue
		file=$W/agg/reader-$tag.ior.zst
		log "reader: ior collapsed on $n pairs over $d distinct paths"
		"$RECGEN" "$file" "$n" "$d" || { problem "iorrecgen $n $d failed"; continue; }
		time_ior "reader-$tag" "$IOR" collapsed -fields=comm,path "$file" || continue
		said=$(sed -n 's/^ior: .*: \([0-9][0-9]*\) of [0-9]* pairs are in the "(other)" frame.*/\1/p' "$W/reader-$tag.err")
		extra "reader_${tag}_pairs" "$n"
		extra "reader_${tag}_distinct" "$d"
		extra "reader_${tag}_pairs_per_s" "$(awk -v p="$n" -v t="$TIME_NS" 'BEGIN { printf "%.0f", p * 1e9 / t }')"
		extra "reader_${tag}_rss_kib" "$TIME_RSS"
		extra "reader_${tag}_other_pairs" "${said:-0}"
		extra "reader_${tag}_file_bytes" "$(stat -c %s "$file")"
		rm -f "$file"
	done
	few_pps=$(ex reader_few_pairs_per_s)
	[ -n "$few_pps" ] && [ -n "$(ex reader_distinct_pairs_per_s)" ] &&
		extra reader_distinct_slowdown "$(awk -v a="$few_pps" -v b="$(ex reader_distinct_pairs_per_s)" 'BEGIN { printf "%.1fx", a / b }')"
	return 0
}

# ---- report --------------------------------------------------------------
# Per tracer and workload: medians over runs of syscalls, elapsed and
# ns/syscall, median pairs, summed lost; baseline = untraced.
summarize() {
	awk '
	function med(key, a,  n, i, j, t, v) {
		n = split(vals[key], v, " ")
		for (i = 2; i <= n; i++) { t = v[i] + 0; for (j = i - 1; j >= 1 && v[j] + 0 > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
		if (n == 0) return ""
		return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
	}
	function spread(key,  n, i, v, lo, hi, m) {
		n = split(vals[key], v, " ")
		lo = hi = v[1] + 0
		for (i = 2; i <= n; i++) { if (v[i] + 0 < lo) lo = v[i] + 0; if (v[i] + 0 > hi) hi = v[i] + 0 }
		m = med(key)
		return m > 0 ? sprintf("%.0f", 100 * (hi - lo) / m) : "-"
	}
	{
		k = $1 SUBSEP $2
		if (!(k in seen)) { seen[k] = 1; order[++nk] = k }
		vals[k SUBSEP "sys"] = vals[k SUBSEP "sys"] " " $5
		vals[k SUBSEP "el"] = vals[k SUBSEP "el"] " " $6
		vals[k SUBSEP "ns"] = vals[k SUBSEP "ns"] " " ($6 / $5)
		if ($7 != "-") vals[k SUBSEP "pairs"] = vals[k SUBSEP "pairs"] " " $7
		if ($8 != "-") { lost[k] += $8; haslost[k] = 1 }
	}
	END {
		for (i = 1; i <= nk; i++) {
			k = order[i]; split(k, kk, SUBSEP)
			p = med(k SUBSEP "pairs")
			printf "%s %s %.0f %.0f %.1f %s %s %s\n", kk[1], kk[2], med(k SUBSEP "sys"), med(k SUBSEP "el"),
				med(k SUBSEP "ns"), (p == "" ? "-" : sprintf("%.0f", p)), (haslost[k] ? lost[k] : "-"), spread(k SUBSEP "ns")
		}
	}' "$RESULTS" >"$W/summary"
}

# Fields of the summary: tracer wl syscalls elapsed_ns ns pairs lost
# spread (max - min of ns/syscall over runs, % of the median)
sum_field() { # TRACER WL FIELD(3..8)
	awk -v t="$1" -v w="$2" -v f="$3" '$1 == t && $2 == w { print $f }' "$W/summary"
}
# The median of the numbers on stdin, printed with FMT (default %.1f).
median() { # [FMT]
	sort -g | awk -v f="${1:-%.1f}" '{ v[NR] = $1 } END { if (NR) printf f, NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# The untraced ns/syscall a tracer is compared with: for a paired tracer
# the median of the paired untraced runs; else the median of the rounds
# just before and after it (all rounds for untraced itself).
base_ns() { # TRACER WL
	local r=${ROUND_OF[$1]:-} p=0
	[ "$1" = untraced ] && r=""
	is_paired "$1" && p=1
	awk -v w="$2" -v r="$r" -v p="$p" '$1 == "untraced" && $2 == w &&
		(p ? $3 ~ /^p/ : (r == "" || $3 == r || $3 == r + 1)) { print $6 / $5 }' "$RESULTS" | median
}
# Per run of a paired tracer: its ns/syscall minus the mean of its own two
# untraced runs. Prints "run added" lines.
paired_runs() { # TRACER WL
	awk -v t="$1" -v w="$2" '$2 != w { next }
	$1 == "untraced" && $3 ~ /^p/ { r = substr($3, 2); b[r] += $6 / $5; nb[r]++; next }
	$1 == t { ns[$3] = $6 / $5 }
	END { for (r in ns) if (nb[r]) printf "%s %.1f\n", r, ns[r] - b[r] / nb[r] }' "$RESULTS"
}
added_ns() { # TRACER WL
	local ns base
	if is_paired "$1"; then
		paired_runs "$1" "$2" | awk '{ print $2 }' | median
		return
	fi
	ns=$(sum_field "$1" "$2" 5) base=$(base_ns "$1" "$2")
	[ -n "$ns" ] && [ -n "$base" ] && awk -v a="$ns" -v b="$base" 'BEGIN { printf "%.1f", a - b }'
}
# Paired: the median (and range) over runs of ior's added ns / the empty
# program's added ns in the same run.
run_ratios() { # WL
	local r
	r=$(join <(paired_runs ior-flame "$1" | sort) <(paired_runs empty "$1" | sort) |
		awk '$3 > 0 { print $2 / $3 }' | sort -g)
	[ -n "$r" ] || return 0
	printf '%sx (runs %.2fx to %.2fx)' "$(median %.2f <<<"$r")" "$(head -n 1 <<<"$r")" "$(tail -n 1 <<<"$r")"
}

print_table() {
	local w t sys el ns pairs lost base slow add
	echo "| workload | tracer | syscalls/run | elapsed ms | ns/syscall | spread | untraced ns/syscall (paired or adjacent) | slowdown | +ns/syscall | pairs/run | lost |"
	echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	for w in "${WLS[@]}"; do
		for t in $ALL_TRACERS; do
			sys=$(sum_field "$t" "$w" 3)
			[ -n "$sys" ] || continue
			base=$(base_ns "$t" "$w")
			el=$(sum_field "$t" "$w" 4) ns=$(sum_field "$t" "$w" 5)
			pairs=$(sum_field "$t" "$w" 6) lost=$(sum_field "$t" "$w" 7)
			if [ -n "$base" ]; then
				slow=$(awk -v a="$ns" -v b="$base" 'BEGIN { printf "%.2fx", a / b }')
				add=$(added_ns "$t" "$w")
			else
				slow="?" add="?"
			fi
			[ "$lost" = - ] && [ -n "${SESSION_LOST[$t]:-}" ] && lost="(${SESSION_LOST[$t]}/session)"
			printf "| %s | %s | %s | %.1f | %.1f | %s%% | %s | %s | %s | %s | %s |\n" "$w" "${NAME[$t]}" "$sys" \
				"$(awk -v e="$el" 'BEGIN { print e / 1e6 }')" "$ns" "$(sum_field "$t" "$w" 8)" "${base:-?}" \
				"$slow" "$add" "$pairs" "$lost"
		done
	done
	echo
	echo "Workloads: $(for w in "${WLS[@]}"; do printf '%s = %s; ' "$w" "${WL_DESC[$w]}"; done)"
	echo
	echo "| tracer | filter | pairs recorded | loop syscalls | lost | tracer CPU s | tracer CPU ns/pair | tracer peak RSS KiB |"
	echo "|---|---|---:|---:|---:|---:|---:|---:|"
	for t in $ALL_TRACERS; do
		[ -n "${SESSION_EXPECT[$t]:-}" ] || continue
		printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n" "${NAME[$t]}" "${FILTER[$t]}" "${SESSION_PAIRS[$t]:--}" \
			"${SESSION_EXPECT[$t]}" "${SESSION_LOST[$t]:--}" "${SESSION_CPU[$t]:--}" \
			"$(awk -v c="${SESSION_CPU[$t]:-}" -v p="${SESSION_PAIRS[$t]:-}" -v e="${SESSION_EXPECT[$t]}" \
				'BEGIN { n = p > 0 ? p : e; if (c == "" || n <= 0) print "-"; else printf "%.0f", c * 1e9 / n }')" \
			"${SESSION_RSS[$t]:--}"
	done
}

ex() { # KEY: value from EXTRA
	local e
	for e in "${EXTRA[@]}"; do
		[ "${e%% *}" = "$1" ] && { echo "${e#* }"; return; }
	done
}

TARGETS=()
target() { # NAME met|missed|unknown DETAIL
	TARGETS+=("$1=$2")
	echo "| $1 | $2 | $3 |"
}

# Ratio targets, within this run.
# The families: a syscall of no selected family stays nearly free (getpid
# under the default selection), and what the default's Network family
# costs over FS alone (send: traced by ior -flamegraph, not by
# -trace-families=FS).
ratio_of() { # TRACER WL: its ns/syscall / the untraced one
	local ns=$(sum_field "$1" "$2" 5) base=$(base_ns "$1" "$2")
	[ -n "$ns" ] && [ -n "$base" ] && awk -v a="$ns" -v b="$base" 'BEGIN { printf "%.2f", a / b }'
}
families_targets() {
	local g=$(ratio_of ior-flame getpid) ga=$(added_ns ior-flame getpid) ge=$(added_ns empty getpid)
	local sd=$(ratio_of ior-flame send) sf=$(ratio_of ior-fs send)
	local sda=$(added_ns ior-flame send) sfa=$(added_ns ior-fs send)
	local abg=$(ab_ns ior-flame getpid) abe=$(ab_ns empty getpid)
	# any program on sys_enter/sys_exit costs the floor; what ior adds on
	# a syscall it does not trace is measured against it (A/B)
	if [ -n "$abg" ] && [ -n "$abe" ]; then
		target unselected_free "$(awk -v g="$abg" -v e="$abe" 'BEGIN { print g <= 1.15 * e ? "met" : "missed" }')" \
			"getpid (no default family) under ior -flamegraph, A/B: +$abg ns/syscall, $(ratio "$abg" "$abe")x the empty program's +$abe; paired: ${g:-?}x untraced, +${ga:-?} (empty +${ge:-?}); target <= 1.15x the floor"
	elif [ -n "$g" ]; then
		target unselected_free "$(awk -v g="$g" 'BEGIN { print g <= 1.15 ? "met" : "missed" }')" \
			"getpid under ior -flamegraph (default families): ${g}x untraced, +$ga ns/syscall${ge:+ (empty program +$ge)}; target <= 1.15x"
	fi
	[ -n "$sd" ] && [ -n "$sf" ] && target wider_default measured \
		"sendto+recvfrom: ior -flamegraph (default FS,Network,Polling,AIO) ${sd}x untraced (+$sda ns/syscall), -trace-families=FS ${sf}x (+$sfa ns/syscall)"
	return 0
}

# Per mode: the floor and each tracer's added ns/syscall (paired runs),
# the ratios the targets read, and the programs' ns/run (statistics).
floor_range() { # WL: min-max of the empty program's per-run added ns
	paired_runs empty "$1" | awk '{ print $2 }' | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { if (NR) printf "%.0f..%.0f", lo, hi }'
}
ratio() { # A B
	awk -v a="$1" -v b="$2" 'BEGIN { if (a != "" && b > 0) printf "%.2f", a / b; else print "-" }'
}
prog_ns() { # TRACER WL: "enter/exit" ns/run of its tp_btf or raw programs
	local en ex
	en=$(prog_field "$1" "$2" ior_btf_enter 4)
	[ -n "$en" ] || en=$(prog_field "$1" "$2" ior_raw_enter 4)
	ex=$(prog_field "$1" "$2" ior_btf_exit 4)
	[ -n "$ex" ] || ex=$(prog_field "$1" "$2" ior_raw_exit 4)
	echo "${en:--}/${ex:--}"
}
print_cost_table() {
	local w e f pl b
	if [ -s "$W/ab" ]; then
		echo "A/B (scripts/bench_ab.sh: programs toggled every $AB_MS ms in one ${AB_SECS} s loop), added ns/syscall, median of $AB_RUNS runs (their range, and the widest quartiles of one run's stretch differences); the cost targets read these:"
		echo
		echo "| mode | floor: empty program | ior -flamegraph | ior -plain | flame / floor | plain / floor | floor stable (max off median) | + bpf_ktime_get_ns on both | + bpf_get_current_task on both |"
		echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
		for w in ${AB_WLS:-${WLS[*]}}; do
			e=$(ab_ns empty "$w") f=$(ab_ns ior-flame "$w") pl=$(ab_ns ior-plain "$w")
			local ck=$(ab_ns clock "$w") tk=$(ab_ns task "$w") st=$(ab_stability "$w")
			printf "| %s | %s (%s) | %s (%s) | %s (%s) | %s | %s | %s | %s | %s |\n" "$w" "${e:--}" "$(ab_spread empty "$w")" \
				"${f:--}" "$(ab_spread ior-flame "$w")" "${pl:--}" "$(ab_spread ior-plain "$w")" \
				"$(ratio "$f" "$e")" "$(ratio "$pl" "$e")" "${st:+±$st%}" \
				"$(awk -v c="$ck" -v e="$e" 'BEGIN { if (c != "" && e != "") printf "%+.1f", c - e }')" \
				"$(awk -v c="$tk" -v e="$e" 'BEGIN { if (c != "" && e != "") printf "%+.1f", c - e }')"
		done
		echo
	fi
	echo "Paired runs (untraced, traced, untraced; separate processes), added ns/syscall, median of $RUNS:"
	echo
	echo "| mode | floor +ns (runs) | ior -flamegraph +ns | ior -plain +ns | bpftrace count +ns | flame / floor | plain / floor | flame / bpftrace | flame enter/exit ns/run | plain enter/exit ns/run | empty ns/run |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	for w in "${WLS[@]}"; do
		e=$(added_ns empty "$w") f=$(added_ns ior-flame "$w") pl=$(added_ns ior-plain "$w") b=$(added_ns bt-count-raw "$w")
		[ -n "$e$f$pl" ] || continue
		printf "| %s | %s (%s) | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n" "$w" "${e:--}" "$(floor_range "$w")" \
			"${f:--}" "${pl:--}" "${b:--}" "$(ratio "$f" "$e")" "$(ratio "$pl" "$e")" "$(ratio "$f" "$b")" \
			"$(prog_ns ior-flame "$w")" "$(prog_ns ior-plain "$w")" "$(prog_field empty "$w" ior_raw_empty 4)"
	done
}

print_targets() {
	local w ia ea ba bea r lost1 lost2 bpp agg1 agg2 rss rss0
	echo "| target | result | numbers |"
	echo "|---|---|---|"
	for w in "${WLS[@]}"; do
		# compared with bpftrace counting on the same tracepoints
		# (raw_syscalls), same syscalls, same filter; the per-syscall
		# tracepoint variants are shown too
		ia=$(added_ns ior-flame "$w") ea=$(added_ns empty "$w") ba=$(added_ns bt-count-raw "$w")
		local bs=$(added_ns bt-count "$w") bea=$(added_ns bt-count-enter "$w") pa=$(added_ns ior-plain "$w")
		local abf=$(ab_ns ior-flame "$w") abe=$(ab_ns empty "$w") abst=$(ab_stability "$w")
		[ -n "$ia$abf" ] || continue
		# getpid is not traced: its target is unselected_free
		[ "$w" = getpid ] && continue
		[ -n "$abe" ] && target "floor_stable_$w" "$(awk -v s="${abst:-999}" 'BEGIN { print s <= 20 ? "met" : "missed" }')" \
			"A/B floor +$abe ns/syscall over $AB_RUNS runs: $(ab_spread empty "$w"), ${abst:+at most $abst% off the median}; target ±20%"
		if [ -n "$abf" ] && [ -n "$abe" ] && [ -n "$ba" ] && [ -n "$ia" ]; then
			# the floor ratio from A/B (both programs measured the same
			# way, seconds apart); bpftrace's from paired runs, as ior's
			r=$(awk -v i="$abf" -v e="$abe" -v pi="$ia" -v b="$ba" 'BEGIN { print (i <= 2 * e && pi <= 0.5 * b) ? "met" : "missed" }')
			target "cost_$w" "$r" "A/B: ior -flamegraph +$abf ns/syscall, $(ratio "$abf" "$abe")x the floor +$abe (-plain +$(ab_ns ior-plain "$w"), $(ratio "$(ab_ns ior-plain "$w")" "$abe")x); paired: ior -flamegraph +$ia, $(ratio "$ia" "$ba")x bpftrace count on raw_syscalls +$ba${bs:+ (on sys_enter_X+sys_exit_X +$bs)}${bea:+ (sys_enter_X only +$bea)}, -plain +${pa:-?}, empty +${ea:-?}; programs enter/exit ns/run $(prog_ns ior-flame "$w"); target <= 2x floor (A/B) and <= 0.5x bpftrace count (paired)"
		elif [ -n "$ea" ] && [ -n "$ba" ] && [ -n "$ia" ]; then
			r=$(awk -v i="$ia" -v e="$ea" -v b="$ba" 'BEGIN { print (i <= 2 * e && i <= 0.5 * b) ? "met" : "missed" }')
			local rr
			rr=$(run_ratios "$w")
			target "cost_$w" "$r" "ior -flamegraph +$ia ns/syscall ($(ratio "$ia" "$ea")x floor, $(ratio "$ia" "$ba")x bpftrace count; -plain +${pa:-?}); empty program +$ea, runs $(floor_range "$w") (2x = $(awk -v e="$ea" 'BEGIN { printf "%.1f", 2 * e }'))${rr:+; per-run ratio median $rr}; bpftrace count on raw_syscalls +$ba (0.5x = $(awk -v b="$ba" 'BEGIN { printf "%.1f", b / 2 }'))${bs:+, on sys_enter_X+sys_exit_X +$bs}${bea:+, on sys_enter_X only +$bea}; programs enter/exit ns/run $(prog_ns ior-flame "$w"); target <= 2x floor and <= 0.5x bpftrace count"
		else
			target "cost_$w" unknown "ior +$ia ns/syscall; empty ${ea:-not run}; bpftrace count raw_syscalls ${ba:-not run}; programs enter/exit ns/run $(prog_ns ior-flame "$w")"
		fi
	done
	families_targets
	# the table's 1- and 2-thread read runs; the 10 M-pair flat-out
	# sessions are shown next to it (they measure the sustained rate)
	lost1=$(ex lost_read_1t) lost2=$(ex lost_read_2t) lost4=$(ex lost_read_4t)
	local s1=$(ex summarized_read_1t) s2=$(ex summarized_read_2t) s4=$(ex summarized_read_4t)
	local fr=$(sum_field ior-flame read 7) fr2=$(sum_field ior-flame read2 7)
	local pr=$(sum_field ior-plain read 7) pr2=$(sum_field ior-plain read2 7)
	if [ -n "$fr$pr" ]; then
		r=met
		for v in "$fr" "$fr2" "$pr" "$pr2"; do
			[ -z "$v" ] || [ "$v" = - ] || [ "$v" = 0 ] || r=missed
		done
		target no_loss "$r" "lost records in the table's runs (default -mapSize): read ior -flamegraph ${fr:-not run}, -plain ${pr:-not run}; read2 (2 threads) -flamegraph ${fr2:-not run}, -plain ${pr2:-not run}. Flat-out 10 M-pair read loop: 1 thread ${lost1:-not run}, 2 threads ${lost2:-not run}, 4 threads ${lost4:-not run} (summarized, totals kept: ${s1:-not run}, ${s2:-not run}, ${s4:-not run})"
	fi
	bpp=$(ex bytes_per_pair)
	[ -n "$bpp" ] && target bytes_per_pair "$(awk -v b="$bpp" 'BEGIN { print b <= 6 ? "met" : "missed" }')" \
		"$bpp bytes/pair ($(ex rec_bytes) bytes for $(ex rec_pairs) pairs, read loop)"
	agg1=$(ex collapsed_pairs_per_s) agg2=$(ex flame_pairs_per_s)
	[ -n "$agg1" ] && target aggregation "$(awk -v a="$agg1" -v b="${agg2:-0}" 'BEGIN { print (a >= 2e7 && b >= 2e7) ? "met" : "missed" }')" \
		"ior collapsed $(awk -v a="$agg1" 'BEGIN { printf "%.1f", a / 1e6 }') M pairs/s, ior -ior -nohttp $(awk -v a="${agg2:-0}" 'BEGIN { printf "%.1f", a / 1e6 }') M pairs/s on $(ex rec_pairs) pairs"
	local rp=$(ex reader_distinct_pairs_per_s) rr=$(ex reader_distinct_rss_kib)
	[ -n "$rp" ] && target reader_scale "$(awk -v p="$rp" -v r="$rr" 'BEGIN { print (p >= 1e6 && r != "-" && r < 65536) ? "met" : "missed" }')" \
		"ior collapsed -fields=comm,path on $(ex reader_distinct_pairs) pairs over as many distinct paths: $(awk -v a="$rp" 'BEGIN { printf "%.2f", a / 1e6 }') M pairs/s, $rr KiB peak RSS ($(ex reader_distinct_other_pairs) pairs in (other)); on 100 paths $(awk -v a="$(ex reader_few_pairs_per_s)" 'BEGIN { printf "%.1f", a / 1e6 }') M pairs/s, $(ex reader_few_rss_kib) KiB (>= 1 M pairs/s, < 64 MiB)"
	local pq=$(ex parquet_hot_cpu_pairs_per_s) pqr=$(ex parquet_hot_size_ratio)
	[ -n "$pq" ] && target parquet "$(awk -v p="$pq" -v r="$pqr" 'BEGIN { print (p >= 5e6 && r <= 3) ? "met" : "missed" }')" \
		"ior parquet on $(ex parquet_hot_pairs) pairs over 1000 paths: $(awk -v a="$pq" 'BEGIN { printf "%.2f", a / 1e6 }') M pairs/s of CPU ($(awk -v a="$(ex parquet_hot_pairs_per_s)" 'BEGIN { printf "%.2f", a / 1e6 }') wall), $pqr x the .ior.zst; over 100000 paths $(awk -v a="$(ex parquet_wide_cpu_pairs_per_s)" 'BEGIN { printf "%.2f", a / 1e6 }') M pairs/s, $(ex parquet_wide_size_ratio) x (>= 5 M pairs/s, <= 3x)"
	rss=$(ex trace_rss_kib) rss0=$(ex trace_rss_early_kib)
	if [ -n "$rss" ] && [ "$rss" != "?" ]; then
		target trace_rss "$(awk -v r="$rss" -v r0="${rss0:-0}" 'BEGIN { print (r < 65536 && r - r0 <= 4096) ? "met" : "missed" }')" \
			"ior VmHWM while tracing: ${rss0:-?} KiB a quarter into the run, $rss KiB at the end of $(ex rec_pairs) pairs (< 65536, growth <= 4096)"
	fi
}

# ---- baseline ------------------------------------------------------------
# --baseline REV: ior as it was at REV (scripts/baseline.sh). Its tracers
# are base-X for each paired ior output X, run right after X in every run.
build_baseline() {
	baseline_build "$ROOT" "$BASELINE" ior
	BASE_IOR=$BASE_DIR/ior
	local t all=""
	for t in $ALL_TRACERS; do
		all="$all $t"
		case $t in ior-flame | ior-fs | ior-plain | ior-summary | ior-dash) ;; *) continue ;; esac
		all="$all base-$t"
		NAME[base-$t]="${NAME[$t]} @$BASE_NAME"
		FILTER[base-$t]=${FILTER[$t]}
	done
	ALL_TRACERS=${all# }
}

# The workload's ns/syscall under TRACER over its untraced one.
slowdown() { # TRACER WL
	local ns base
	ns=$(sum_field "$1" "$2" 5) base=$(base_ns "$1" "$2")
	[ -n "$ns" ] && [ -n "$base" ] && awk -v a="$ns" -v b="$base" 'BEGIN { printf "%.2fx", a / b }'
}

# Tracer CPU (user + system, start-up excluded) per pair of its sessions.
cpu_per_pair() { # TRACER
	awk -v c="${SESSION_CPU[$1]:-}" -v p="${SESSION_PAIRS[$1]:-}" -v e="${SESSION_EXPECT[$1]:-}" \
		'BEGIN { n = p > 0 ? p : e; if (c == "" || n <= 0) print ""; else printf "%.0f", c * 1e9 / n }'
}

print_baseline_table() {
	local t w a b
	echo "This ior and ior @$BASE_NAME (--baseline $BASELINE), each output's sessions one after the other in every run:"
	echo
	echo "| output | workloads | CPU ns/pair, this | CPU ns/pair, @$BASE_NAME | @$BASE_NAME / this | lost, this | lost, @$BASE_NAME |"
	echo "|---|---|---:|---:|---:|---:|---:|"
	for t in ior-flame ior-fs ior-plain ior-summary ior-dash; do
		is_paired "base-$t" || continue
		a=$(cpu_per_pair "$t") b=$(cpu_per_pair "base-$t")
		printf "| %s | %s | %s | %s | %s | %s | %s |\n" "${NAME[$t]}" "${WLS[*]}" "${a:--}" "${b:--}" \
			"$(ratio "$b" "$a")" "${SESSION_LOST[$t]:--}" "${SESSION_LOST[base-$t]:--}"
	done
	echo
	echo "| workload | output | slowdown, this | slowdown, @$BASE_NAME | +ns/syscall, this | +ns/syscall, @$BASE_NAME | @$BASE_NAME / this |"
	echo "|---|---|---:|---:|---:|---:|---:|"
	for w in "${WLS[@]}"; do
		for t in ior-flame ior-fs ior-plain ior-summary ior-dash; do
			is_paired "base-$t" || continue
			a=$(added_ns "$t" "$w") b=$(added_ns "base-$t" "$w")
			printf "| %s | %s | %s | %s | %s | %s | %s |\n" "$w" "${NAME[$t]}" "$(slowdown "$t" "$w")" \
				"$(slowdown "base-$t" "$w")" "${a:--}" "${b:--}" "$(ratio "$b" "$a")"
		done
	done
}

bench_line() {
	local w t a line="bench: runs=$RUNS"
	for w in "${WLS[@]}"; do
		a=$(sum_field untraced "$w" 5)
		[ -n "$a" ] && line="$line untraced_${w}_ns=$(awk -v a="$a" 'BEGIN { printf "%.1f", a }')"
		for t in $ALL_TRACERS; do
			[ "$t" = untraced ] && continue
			a=$(added_ns "$t" "$w")
			[ -n "$a" ] && line="$line ${t//-/_}_${w}_added_ns=$a"
		done
	done
	for t in $ALL_TRACERS; do
		[ -n "${SESSION_LOST[$t]:-}" ] && line="$line ${t//-/_}_lost=${SESSION_LOST[$t]}"
		is_paired "$t" && [ "$t" != empty ] && a=$(cpu_per_pair "$t") && [ -n "$a" ] &&
			line="$line ${t//-/_}_cpu_ns_per_pair=$a"
	done
	for w in "${WLS[@]}"; do
		for t in $AB_KINDS; do
			a=$(ab_ns "$t" "$w")
			[ -n "$a" ] && line="$line ab_${t//-/_}_${w}_added_ns=$a"
		done
	done
	for e in "${EXTRA[@]}"; do line="$line ${e%% *}=${e#* }"; done
	for e in "${TARGETS[@]}"; do line="$line target_$e"; done
	echo "$line"
}

# ---- main ----------------------------------------------------------------
# All of it in a function: bash parses it whole before running, so editing
# this file during a run cannot derail the run.
main() {
want() { [ -z "$TRACERS" ] || [[ ",$TRACERS," == *",$1,"* ]]; }
installed() { command -v "$1" >/dev/null 2>&1; }

if [ "$(id -u)" != 0 ]; then
	echo "FAIL: bench-smoke: needs root (tracing)"
	exit 1
fi
[ -x "$GEN" ] || { echo "FAIL: bench-smoke: $GEN missing: run make build/iorbench"; exit 1; }
[ -n "$BASELINE" ] && build_baseline
W=$(mktemp -d /tmp/iorbench.XXXXXX) || exit 1
RESULTS=$W/runs
: >"$RESULTS"

if [ "$SMOKE" = 1 ]; then
	peer=""
	for p in strace perf bpftrace; do installed "$p" && { peer=$p; break; }; done
	case $peer in perf) peer=perf-trace ;; bpftrace) peer=bt-count ;; esac
	TRACERS=${TRACERS:-untraced,ior-flame,$peer,ior-extra,ior-reader,ior-parquet}
fi
need_ior=0
for t in empty ior-flame ior-recorder ior-fs ior-plain ior-summary ior-dash ior-extra ior-reader ior-parquet; do want "$t" && need_ior=1; done
[ "$need_ior" = 1 ] && [ ! -x "$IOR" ] && problem "$IOR missing: run make"
for t in bt-count-raw bt-count bt-count-enter bt-hist bt-print; do
	want "$t" && ! installed bpftrace && { problem "bpftrace missing: scripts/deps.sh bench"; break; }
done
want perf-trace && ! installed perf && problem "perf missing: scripts/deps.sh bench"
want strace && ! installed strace && problem "strace missing: scripts/deps.sh bench"

log "$(uname -r), $(nproc) CPUs, runs=$RUNS, work dir $W"
t_start=$(date +%s)
log "untraced: $ROUND_RUNS runs of every workload before each tracer and at the end"
[ -x "$IOR" ] && bench_ior_paired
[ -x "$IOR" ] && bench_bpf_stats
[ -x "$IOR" ] && bench_ab
for t in bt-count-raw bt-count bt-count-enter bt-hist bt-print; do
	want "$t" && installed bpftrace && untraced_round "$t" && bench_bpftrace "$t"
done
want perf-trace && installed perf && untraced_round perf-trace && bench_child_tracer perf-trace
want strace && installed strace && untraced_round strace && bench_child_tracer strace
untraced_round
want ior-extra && [ -x "$IOR" ] && bench_ior_extra
want ior-reader && [ -x "$IOR" ] && bench_reader
want ior-parquet && [ -x "$IOR" ] && bench_parquet

summarize
stats_summarize
echo
echo "## ior bench: $(date -u '+%Y-%m-%d %H:%M') UTC, Linux $(uname -r), $(nproc) CPUs, median of $RUNS runs ($(( $(date +%s) - t_start )) s)"
echo
print_table
echo
[ -n "$BASE_IOR" ] && print_baseline_table && echo
print_cost_table
echo
print_stats_table
if [ ${#EXTRA[@]} -gt 0 ]; then
	echo "| ior | value |"
	echo "|---|---:|"
	for e in "${EXTRA[@]}"; do echo "| ${e%% *} | ${e#* } |"; done
	echo
fi
[ "$SMOKE" = 0 ] && print_targets && echo
for p in "${PROBLEMS[@]}"; do echo "problem: $p"; done
bench_line

if [ "$SMOKE" = 1 ]; then
	if [ "$(wc -l <"$W/summary")" -ge 2 ] && grep -q '^untraced ' "$W/summary"; then
		pass "table produced ($(wc -l <"$W/summary") rows)"
	else
		fail "table has no rows: $(head -c 300 "$W/summary")"
	fi
	if awk '$3 !~ /^[0-9]+$/ || $4 !~ /^[0-9.]+$/ || $5 !~ /^[0-9.e+]+$/ || $3 == 0 { bad = 1 } END { exit bad }' "$W/summary"; then
		pass "numbers parse (syscalls, elapsed, ns/syscall in every row)"
	else
		fail "a row does not parse: $(cat "$W/summary")"
	fi
	ae=$(ab_ns empty "$AB_WLS") af=$(ab_ns ior-flame "$AB_WLS")
	if awk -v e="$ae" -v f="$af" 'BEGIN { exit !(e > 0 && f > 0) }'; then
		pass "A/B on $AB_WLS: the empty program +$ae ns/syscall, ior -flamegraph +$af ($(ab_spread ior-flame "$AB_WLS"))"
	else
		fail "A/B figures missing or not positive: empty '${ae}', ior -flamegraph '${af}': $(tail -c 300 "$W/ab" 2>/dev/null)"
	fi
	fp=${SESSION_PAIRS[ior-flame]:-0}
	if [ -n "$fp" ] && [ "$fp" -gt 0 ] 2>/dev/null; then
		pass "ior recorded $fp pairs (lost ${SESSION_LOST[ior-flame]:-?})"
	else
		fail "ior recorded no pairs: $(tail -c 300 "$W/ior-flame.err" 2>/dev/null)"
	fi
	rp=$(ex rec_pairs)
	if [ -n "$rp" ] && [ "$rp" -gt 0 ] 2>/dev/null; then
		pass "ior collapsed read back $rp pairs ($(ex bytes_per_pair) bytes/pair)"
	else
		fail "ior collapsed read back no pairs from the recording"
	fi
	if want ior-reader; then
		rd=$(ex reader_distinct_pairs_per_s) ro=$(ex reader_distinct_other_pairs)
		if [ -n "$rd" ] && [ "${ro:-0}" -gt 0 ] && [ "$(ex reader_few_other_pairs)" = 0 ]; then
			pass "ior collapsed read $(ex reader_distinct_pairs) distinct paths at $rd pairs/s, $(ex reader_distinct_rss_kib) KiB ($ro pairs in (other))"
		else
			fail "reader figures: distinct ${rd:-missing} pairs/s, (other) ${ro:-missing}, few (other) $(ex reader_few_other_pairs)"
		fi
	fi
	if want ior-parquet; then
		pp=$(ex parquet_hot_pairs_per_s)
		if [ -n "$pp" ] && [ -n "$(ex parquet_hot_duckdb)$(ex parquet_hot_size_ratio)" ]; then
			pass "ior parquet converted $(ex parquet_hot_pairs) pairs at $pp pairs/s, $(ex parquet_hot_size_ratio) x the .ior.zst"
		else
			fail "parquet figures missing: $(ex parquet_hot_pairs_per_s) pairs/s"
		fi
	fi
	# scripts/bench_hot.sh's program: every output on a small batch (it
	# exits 1 when the pairs delivered are not the pairs built)
	for m in plain flame stats dash none; do
		if out=$("$ROOT/build/iorhot" "$m" -pairs 20000 -threads 2 -reps 1 -out "$W/hot.ior.zst" 2>&1 >/dev/null); then
			pass "iorhot $m: ${out##*: }"
		else
			fail "iorhot $m: $out"
		fi
	done
	exit $((FAILS > 0))
fi
exit 0
}

main "$@"
