# shellcheck shell=bash disable=SC2034 # variables set here are read by the tests
# Helpers for tests/integration/flame_*.sh: recordings, the flamegraph
# server. Sourced after tests/lib/common.sh (whose setup/pass/fail/
# start_workload/start_ior/stop_ior these build on).
#
#   flame_setup               common.sh's setup, then cd $T (ior -flamegraph
#                             writes into the cwd), checks curl/xmllint/zstd,
#                             kills servers at exit
#   record_scenario NAME SCENARIO ARGS...
#                             runs SCENARIO under ior -flamegraph -name NAME
#                             -pid WL_PID ${REC_ARGS[@]}: release, workload
#                             exit, settle, SIGINT; sets REC (file in $T),
#                             REC_PAIRS and REC_BYTES from ior's "Wrote FILE
#                             (N pairs, B bytes)" line, REC_WPID
#   start_server ARGS...      $IOR ARGS in the background (stdout $SRV_OUT,
#                             stderr $SRV_ERR), waits <= 10 s for "Flamegraph
#                             available at URL"; sets SRV_PID, SRV_URL,
#                             SRV_ORIGIN (http://HOST:PORT), SRV_TOKEN (32
#                             hex), SRV_BASE (ORIGIN/TOKEN), SRV_ROUTE (/x.svg)
#   stop_server [SIGNAL]      SIGINT (default), waits <= 10 s; sets SRV_RC
#   http_get URL OUT [CURL_ARGS...]
#                             GET (5 s bound); body in OUT, headers in
#                             OUT.h; prints the status code (000: no answer)
#   header_of OUT NAME        value of a response header saved by http_get
#   render_svg RECORDING OUT [ARGS...]
#                             ior -ior=copy -nohttp ARGS in a scratch dir:
#                             the SVG ior draws for RECORDING, copied to OUT

SRV_PID=""
SRV_RUN=0

flame_kill_servers() {
	[ -n "$SRV_PID" ] && kill -KILL "$SRV_PID" 2>/dev/null
	SRV_PID=""
}

flame_setup() {
	setup
	cd "$T" || { echo "FAIL: setup: cd $T"; exit 1; }
	at_exit flame_kill_servers
	local tool
	for tool in curl xmllint zstd; do
		command -v "$tool" >/dev/null ||
			{ echo "FAIL: setup: $tool missing (scripts/deps.sh test)"; exit 1; }
	done
}

record_scenario() { # NAME SCENARIO ARGS...
	local name=$1 line
	shift
	REC="" REC_PAIRS="" REC_BYTES=""
	start_workload "$@" || return 1
	REC_WPID=$WL_PID
	run_released -flamegraph -name "$name" -pid "$WL_PID" "${REC_ARGS[@]}" || return 1
	line=$(grep '^Wrote .* pairs, [0-9]* bytes)$' "$IOR_ERR" | tail -n 1) # not -parquet's "rows"
	if [[ ! "$line" =~ ^Wrote\ (.+)\ \(([0-9]+)\ pairs,\ ([0-9]+)\ bytes\)$ ]]; then
		WHY="no \"Wrote FILE (N pairs, B bytes)\" line on stderr: $(tail -c 300 "$IOR_ERR")"
		return 1
	fi
	REC=${BASH_REMATCH[1]} REC_PAIRS=${BASH_REMATCH[2]} REC_BYTES=${BASH_REMATCH[3]}
	case $REC in /*) ;; *) REC="$PWD/$REC" ;; esac
	if [ ! -f "$REC" ]; then
		WHY="ior wrote \"$line\" but there is no such file"
		return 1
	fi
}

start_server() {
	SRV_RUN=$((SRV_RUN + 1))
	SRV_OUT="$T/server.$SRV_RUN.out" SRV_ERR="$T/server.$SRV_RUN.err"
	"$IOR" "$@" >"$SRV_OUT" 2>"$SRV_ERR" </dev/null &
	SRV_PID=$!
	local i line
	for ((i = 0; i < 200; i++)); do
		line=$(grep -m 1 '^Flamegraph available at ' "$SRV_OUT" 2>/dev/null)
		if [[ "$line" =~ ^Flamegraph\ available\ at\ (http://[^/]+)/([0-9a-f]{32})(/[^[:space:]]*\.svg)$ ]]; then
			SRV_ORIGIN=${BASH_REMATCH[1]} SRV_TOKEN=${BASH_REMATCH[2]} SRV_ROUTE=${BASH_REMATCH[3]}
			SRV_BASE="$SRV_ORIGIN/$SRV_TOKEN"
			SRV_URL="$SRV_BASE$SRV_ROUTE"
			return 0
		fi
		if ! alive "$SRV_PID"; then
			wait "$SRV_PID"
			SRV_RC=$?
			SRV_PID=""
			WHY="ior $* exited $SRV_RC before serving: $(tail -c 300 "$SRV_ERR") $(tail -c 200 "$SRV_OUT")"
			return 1
		fi
		sleep 0.05
	done
	WHY="ior $* printed no \"Flamegraph available at http://HOST:PORT/TOKEN/NAME.svg\" within 10 s: $(head -c 300 "$SRV_OUT")"
	flame_kill_servers
	return 1
}

stop_server() {
	kill "-${1:-INT}" "$SRV_PID" 2>/dev/null
	if ! wait_until 10 not_alive "$SRV_PID"; then
		WHY="server ignored SIG${1:-INT} for 10 s (killed)"
		flame_kill_servers
		return 1
	fi
	wait "$SRV_PID"
	SRV_RC=$?
	SRV_PID=""
}

http_get() { # URL OUT [CURL_ARGS...]
	local url=$1 out=$2
	shift 2
	curl -sS --max-time 5 -o "$out" -D "$out.h" -w '%{http_code}' "$@" "$url" 2>"$out.curlerr"
	return 0
}

header_of() { # OUT NAME
	tr -d '\r' <"$1.h" | sed -n "s/^$2: *//Ip" | tail -n 1
}

render_svg() { # RECORDING OUT [ARGS...]
	local rec=$1 out=$2 dir
	shift 2
	dir=$(mktemp -d "$T/render.XXXXXX")
	cp "$rec" "$dir/r.ior.zst"
	if ! (cd "$dir" && "$IOR" -ior=r.ior.zst -nohttp "$@" >out 2>err); then
		WHY="ior -ior=$rec -nohttp $* failed: $(tail -c 300 "$dir/err")"
		return 1
	fi
	cp "$dir"/r.*.svg "$out"
}
