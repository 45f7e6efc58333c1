# Shared helpers for tests/integration/*.sh (bash; sourced, never run).
#
#   . "$(dirname "$0")/../lib/common.sh"
#   setup                     temp dir $T under /tmp, cleanup trap, checks
#                             $IOR and $WORKLOAD (env, defaults ./ior and
#                             build/workload)
#   start_workload SCENARIO ARGS...
#                             starts $WORKLOAD in the background, waits <= 5 s
#                             for its "ready" line; sets WL_PID (cleared when
#                             it exits), WL_LAST (kept) and WL_READY (the
#                             words after "ready", e.g. thread ids)
#   release_workload          kill -USR1 $WL_PID
#   wait_workload [SECONDS]   waits (default 30 s) for it to exit; sets WL_RC;
#                             returns 1 (and kills it) on timeout or rc != 0
#   start_ior ARGS...         $IOR ARGS in the background, stdout to
#                             $IOR_OUT, stderr to $IOR_ERR; waits <= 10 s for
#                             "ior: tracing ... syscalls"; sets IOR_PID
#   stop_ior [SIGNAL]         SIGINT (default) and waits <= 10 s; sets IOR_RC
#   wait_ior SECONDS          waits for ior to exit by itself; sets IOR_RC
#   trace_released IOR_ARGS...
#                             after start_workload: ior -plain IOR_ARGS,
#                             release, workload exit, settle, stop ior
#   trace_scenario IOR_ARGS... -- SCENARIO ARGS...
#                             start_workload + trace_released with
#                             -pid $WL_PID added unless NO_PID=1
#   pass NAME / fail NAME WHY print PASS:/FAIL: lines (fail also counts)
#   check NAME CSVCHECK_ARGS...
#                             runs tests/lib/csvcheck.py on $IOR_OUT with the
#                             given selects and assertions: PASS or FAIL
#   check_stats NAME 'LABEL=N'...
#                             ior's end-of-run statistics (ior_stat LABEL)
#                             equal N, e.g. 'lost=0' 'syscall pairs=22'
#   ior_fails CODE REGEX ARGS...
#                             $IOR ARGS exits CODE, prints nothing on stdout
#                             and one line on stderr matching REGEX ("": any)
#   finish                    exit status: 1 when any fail was printed
#
# Every wait is bounded; the EXIT trap kills what the script started and
# removes $T. A helper that fails leaves the reason in $WHY.

TESTS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOT=$(cd "$TESTS_DIR/.." && pwd)
CSVCHECK="$TESTS_DIR/lib/csvcheck.py"
IOR=${IOR:-$ROOT/ior}
WORKLOAD=${WORKLOAD:-$ROOT/build/workload}
SETTLE=${SETTLE:-0.5} # seconds between the workload's exit and stopping ior
FAILS=0
WHY=""
T=""
WL_PID=""
IOR_PID=""
RUN=0
CLEANUPS=()

pass() { echo "PASS: $1"; }
fail() {
	echo "FAIL: $1: $2"
	FAILS=$((FAILS + 1))
}
finish() { [ "$FAILS" = 0 ]; }

# Runs a command at exit (e.g. restoring a mount), last registered first.
at_exit() { CLEANUPS+=("$1"); }

cleanup() {
	local i
	[ -n "$IOR_PID" ] && kill -KILL "$IOR_PID" 2>/dev/null
	[ -n "$WL_PID" ] && kill -KILL "$WL_PID" 2>/dev/null
	for ((i = ${#CLEANUPS[@]} - 1; i >= 0; i--)); do
		eval "${CLEANUPS[$i]}"
	done
	[ -n "$T" ] && rm -rf "$T"
}

setup() {
	T=$(mktemp -d /tmp/ior-it.XXXXXX) || { echo "FAIL: setup: mktemp"; exit 1; }
	trap cleanup EXIT
	trap 'exit 130' INT TERM
	if [ "$(id -u)" != 0 ]; then
		echo "FAIL: setup: integration tests need root"
		exit 1
	fi
	if [ ! -x "$IOR" ]; then
		echo "FAIL: setup: $IOR is not an executable (run make)"
		exit 1
	fi
	if [ ! -x "$WORKLOAD" ]; then
		echo "FAIL: setup: $WORKLOAD is not an executable (run make build/workload)"
		exit 1
	fi
	command -v python3 >/dev/null || { echo "FAIL: setup: python3 missing (scripts/deps.sh test)"; exit 1; }
}

# Polls a shell condition every 50 ms for at most SECONDS.
wait_until() { # SECONDS CONDITION...
	local limit=$1 i
	shift
	for ((i = 0; i < limit * 20; i++)); do
		"$@" && return 0
		sleep 0.05
	done
	"$@"
}

alive() { kill -0 "$1" 2>/dev/null; }
not_alive() { ! alive "$1"; }
file_has() { grep -q -- "$2" "$1" 2>/dev/null; }

start_workload() {
	RUN=$((RUN + 1))
	WL_OUT="$T/workload.$RUN.out" WL_ERR="$T/workload.$RUN.err"
	# fds above 2 closed: the scenarios expect their first open to be fd 3
	"$WORKLOAD" "$@" >"$WL_OUT" 2>"$WL_ERR" </dev/null 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- &
	WL_PID=$! WL_LAST=$!
	if ! wait_until 5 file_has "$WL_OUT" '^ready'; then
		WHY="workload $* not ready after 5 s: $(head -c 300 "$WL_ERR")"
		kill -KILL "$WL_PID" 2>/dev/null
		wait "$WL_PID" 2>/dev/null
		WL_PID=""
		return 1
	fi
	WL_READY=$(sed -n 's/^ready//p' "$WL_OUT")
}

release_workload() { kill -USR1 "$WL_PID"; }

wait_workload() {
	local limit=${1:-30}
	if ! wait_until "$limit" not_alive "$WL_PID"; then
		kill -KILL "$WL_PID" 2>/dev/null
		wait "$WL_PID" 2>/dev/null
		WHY="workload still running after ${limit} s (killed)"
		WL_PID=""
		return 1
	fi
	wait "$WL_PID"
	WL_RC=$?
	WL_PID=""
	if [ "$WL_RC" != 0 ]; then
		WHY="workload exited $WL_RC: $(head -c 300 "$WL_ERR")"
		return 1
	fi
}

start_ior() {
	RUN=$((RUN + 1))
	IOR_OUT="$T/ior.$RUN.csv" IOR_ERR="$T/ior.$RUN.err"
	"$IOR" "$@" >"$IOR_OUT" 2>"$IOR_ERR" </dev/null &
	IOR_PID=$!
	local i
	for ((i = 0; i < 200; i++)); do
		grep -q '^ior: tracing [0-9]* syscalls' "$IOR_ERR" 2>/dev/null && return 0
		if ! alive "$IOR_PID"; then
			wait "$IOR_PID"
			IOR_RC=$?
			IOR_PID=""
			WHY="ior $* exited $IOR_RC before tracing: $(tail -c 400 "$IOR_ERR")"
			return 1
		fi
		sleep 0.05
	done
	WHY="ior $* printed no tracing line within 10 s: $(tail -c 400 "$IOR_ERR")"
	kill -KILL "$IOR_PID" 2>/dev/null
	wait "$IOR_PID" 2>/dev/null
	IOR_PID=""
	return 1
}

wait_ior() {
	local limit=$1
	if ! wait_until "$limit" not_alive "$IOR_PID"; then
		kill -KILL "$IOR_PID" 2>/dev/null
		wait "$IOR_PID" 2>/dev/null
		IOR_PID=""
		WHY="ior did not exit within ${limit} s (killed)"
		return 1
	fi
	wait "$IOR_PID"
	IOR_RC=$?
	IOR_PID=""
}

stop_ior() {
	kill "-${1:-INT}" "$IOR_PID" 2>/dev/null
	wait_ior 10 || { WHY="ior ignored SIG${1:-INT} for 10 s (killed)"; return 1; }
	if [ "$IOR_RC" != 0 ]; then
		WHY="ior exited $IOR_RC after SIG${1:-INT}: $(tail -c 400 "$IOR_ERR")"
		return 1
	fi
}

# trace_released IOR_ARGS...: the workload is ready; traces its run with
# ior -plain IOR_ARGS and leaves the CSV in $IOR_OUT.
trace_released() {
	run_released -plain "$@"
}

# Starts ior IOR_ARGS on the waiting workload, releases it, waits for it to
# finish and stops ior; on failure WHY says why.
run_released() {
	local why
	if ! start_ior "$@"; then
		kill -KILL "$WL_PID" 2>/dev/null
		wait "$WL_PID" 2>/dev/null
		WL_PID=""
		return 1
	fi
	release_workload
	if ! wait_workload "${WL_TIMEOUT:-30}"; then
		why=$WHY
		stop_ior
		WHY=$why
		return 1
	fi
	sleep "$SETTLE"
	stop_ior
}

# trace_scenario [IOR_ARGS...] -- SCENARIO [ARGS...]: runs one scenario
# under ior -plain -pid WL_PID (unless NO_PID=1: IOR_ARGS filter instead).
trace_scenario() {
	local ior_args=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		ior_args+=("$1")
		shift
	done
	shift
	start_workload "$@" || return 1
	[ "${NO_PID:-0}" = 1 ] || ior_args=(-pid "$WL_PID" "${ior_args[@]}")
	trace_released "${ior_args[@]}"
}

ior_fails() { # CODE REGEX ARGS...
	local code=$1 regex=$2 rc
	shift 2
	"$IOR" "$@" >"$T/fails.out" 2>"$T/fails.err" </dev/null
	rc=$?
	if [ "$rc" != "$code" ] || [ -s "$T/fails.out" ] || [ "$(wc -l <"$T/fails.err")" != 1 ] ||
		! grep -qE -- "$regex" "$T/fails.err"; then
		WHY="ior $*: exit $rc (want $code), stderr: $(head -c 150 "$T/fails.err")"
		return 1
	fi
}

check() { # NAME CSVCHECK_ARGS...
	local name=$1 out
	shift
	if out=$(python3 "$CSVCHECK" "$IOR_OUT" "$@" 2>&1); then
		pass "$name"
	else
		fail "$name" "$(echo "$out" | head -n 1)"
		echo "$out" | tail -n +2 | head -n 20 | sed 's/^/      /'
	fi
}

# The number in ior's statistics line "... N LABEL ..." or "LABEL: N" on
# stderr; empty when ior did not print it.
ior_stat() { # LABEL
	python3 - "$IOR_ERR" "$1" <<'PY'
import re, sys
text = open(sys.argv[1], errors="replace").read()
label = re.escape(sys.argv[2])
m = (re.search(r"(\d+)\s+" + label + r"\b", text) or
     re.search(r"\b" + label + r"\s*[:=]\s*(\d+)", text))
print(m.group(1) if m else "")
PY
}

check_stats() { # NAME 'LABEL=N'...
	local name=$1 kv got bad=""
	shift
	for kv in "$@"; do
		got=$(ior_stat "${kv%=*}")
		[ "$got" = "${kv##*=}" ] || bad="$bad${bad:+; }${kv%=*} is ${got:-missing}, want ${kv##*=}"
	done
	if [ -z "$bad" ]; then
		pass "$name"
	else
		fail "$name" "$bad"
		grep -v '^ior: tracing' "$IOR_ERR" | head -n 8 | sed 's/^/      /'
	fi
}
