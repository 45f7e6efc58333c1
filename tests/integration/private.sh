#!/bin/bash
# What ior writes and serves is for root (or the sudo user) alone.
#  - under umask 000, as root and with SUDO_UID=65534 SUDO_GID=65534: a
#    recording (-flamegraph), Parquet (-parquet while tracing and ior
#    parquet -o), the -nohttp SVG and JSON and a dashboard export (e) are
#    mode 0600 and owned by root, respectively by 65534, and no OUT.tmp is
#    left; as 65534, root's recording cannot be read, the sudo user's can
#    (ior collapsed)
#  - a symlink planted at OUT.tmp or at OUT is replaced, never written
#    through (the file it points to keeps its bytes)
#  - as uid 65534 (setpriv): the printed URL is 200; the route without the
#    token, /, and a wrong token of the same length are 404; /TOKEN
#    redirects to the SVG; -live's page and its polls (/TOKEN/live.svg)
#    work, /live.svg and / do not
#  - -http 0.0.0.0:PORT and [::]:PORT exit 2 saying why; with -http-any it
#    warns in one line and serves; another non-loopback address warns
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/flame.sh"
flame_setup
TMUX_SESSION=private
. "$ROOT/tests/lib/tmux.sh"
umask 000
chmod 755 "$T" # uid 65534 must reach the files to be refused by their mode
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)

# private NAME FILE OWNER: FILE is a regular 0600 file of OWNER (uid:gid),
# and FILE.tmp is gone
private() {
	local name=$1 f=$2 owner=$3 got
	got=$(stat -c '%F %a %u:%g' "$f" 2>&1)
	if [ "$got" != "regular file 600 $owner" ]; then
		fail "$name" "$f: $got, want regular file 600 $owner"
	elif [ -e "$f.tmp" ] || [ -L "$f.tmp" ]; then
		fail "$name" "$f.tmp left behind"
	else
		pass "$name"
	fi
}

# as ROLE ENV...: the recording, Parquet, SVG/JSON and export of one run
as() {
	local role=$1 owner=$2 dir="$T/$1"
	shift 2
	mkdir -p "$dir/w" && cd "$dir" || return
	REC_ARGS=(-parquet "$dir/live.parquet")
	local kv rc
	for kv in "$@"; do export "${kv?}"; done
	record_scenario "$role" basic "$dir/w" 3
	rc=$?
	for kv in "$@"; do unset "${kv%%=*}"; done
	if [ "$rc" != 0 ]; then
		fail "$role-record" "$WHY"
		cd "$T" || return
		return
	fi
	private "$role-recording" "$REC" "$owner"
	private "$role-parquet-live" "$dir/live.parquet" "$owner"
	env "$@" "$IOR" parquet "$REC" -o "$dir/conv.parquet" >/dev/null 2>"$dir/conv.err" ||
		fail "$role-parquet" "ior parquet: $(head -c 200 "$dir/conv.err")"
	private "$role-parquet" "$dir/conv.parquet" "$owner"
	env "$@" "$IOR" -ior="$REC" -nohttp -flamegraphJson >/dev/null 2>"$dir/svg.err" ||
		fail "$role-nohttp" "ior -nohttp: $(head -c 200 "$dir/svg.err")"
	private "$role-svg" "${REC%.ior.zst}.comm:path:tracepoint-by-count.svg" "$owner"
	private "$role-json" "${REC%.ior.zst}.comm:path:tracepoint-by-count.json" "$owner"
	tmux_window "$role" 120 30 "cd $dir; env $* TERM=xterm $IOR -ior=$REC -tui 2>$dir/tui.err; echo EXIT=\$?"
	if expect "$role" "$role-dash" '1 Overview' && keys "$role" 3 && sleep 0.3 && keys "$role" e &&
		expect "$role" "$role-dash-export" 'Wrote ior-files-[0-9-]+\.csv'; then
		private "$role-dash-csv" "$(ls "$dir"/ior-files-*.csv)" "$owner"
	fi
	keys "$role" q
	cd "$T" || return
	echo "$REC" >"$T/$role.rec"
}

as root 0:0 IOR_PRIVATE_TEST=1
as sudo 65534:65534 SUDO_UID=65534 SUDO_GID=65534

ROOT_REC=$(cat "$T/root.rec" 2>/dev/null)
SUDO_REC=$(cat "$T/sudo.rec" 2>/dev/null)
if [ -n "$ROOT_REC" ] && ! "${NOBODY[@]}" cat "$ROOT_REC" >/dev/null 2>&1 &&
	"${NOBODY[@]}" "$IOR" collapsed "$SUDO_REC" >"$T/nobody.folded" 2>&1 && [ -s "$T/nobody.folded" ]; then
	pass readers
else
	fail readers "uid 65534 read root's recording, or could not read its own: $(head -c 200 "$T/nobody.folded")"
fi

# ---- links planted at OUT.tmp and at OUT ---------------------------------
printf victim >"$T/victim"
ln -s "$T/victim" "$T/planted.parquet.tmp"
ln -s "$T/victim" "$T/over.parquet"
"$IOR" parquet "$ROOT_REC" -o "$T/planted.parquet" >/dev/null 2>"$T/planted.err"
"$IOR" parquet "$ROOT_REC" -o "$T/over.parquet" >/dev/null 2>>"$T/planted.err"
if [ "$(cat "$T/victim")" != victim ]; then
	fail planted-link "the file behind the links was written: $(head -c 100 "$T/victim" | od -c | head -2)"
else
	private planted-link-tmp "$T/planted.parquet" 0:0
	private planted-link-out "$T/over.parquet" 0:0
fi

# ---- the token, as uid 65534 ----------------------------------------------
get() { # URL: the status code curl gets as uid 65534
	"${NOBODY[@]}" curl -s -o /dev/null --max-time 5 -w '%{http_code}' "$1"
}
if ! start_server -ior="$ROOT_REC"; then
	fail token-start "$WHY"
else
	WRONG=$(printf '%s' "$SRV_TOKEN" | tr '0-9a-f' '1-9a-f0')
	codes="url=$(get "$SRV_URL") bare=$(get "$SRV_ORIGIN$SRV_ROUTE") root=$(get "$SRV_ORIGIN/")"
	codes="$codes wrong=$(get "$SRV_ORIGIN/$WRONG$SRV_ROUTE") wrongroot=$(get "$SRV_ORIGIN/$WRONG")"
	codes="$codes tokenroot=$(get "$SRV_BASE")"
	want="url=200 bare=404 root=404 wrong=404 wrongroot=404 tokenroot=302"
	if [ "$codes" = "$want" ]; then
		pass token-served
	else
		fail token-served "as uid 65534: $codes, want $want"
	fi
	stop_server
fi

mkdir -p "$T/l"
if start_workload basic "$T/l" 3 && start_ior -live -pid "$WL_PID" &&
	wait_until 5 file_has "$IOR_ERR" '^Live flamegraph at '; then
	line=$(grep -m 1 '^Live flamegraph at ' "$IOR_ERR")
	base=${line#Live flamegraph at }
	origin=${base%/*} tok=${base##*/}
	wrong=$(printf '%s' "$tok" | tr '0-9a-f' '1-9a-f0')
	"${NOBODY[@]}" curl -s --max-time 5 "$base" >"$T/live.html"
	codes="page=$(get "$base") poll=$(get "$base/live.svg?t=1") bare=$(get "$origin/live.svg")"
	codes="$codes root=$(get "$origin/") wrong=$(get "$origin/$wrong/live.svg")"
	want="page=200 poll=200 bare=404 root=404 wrong=404"
	if [ "$codes" != "$want" ]; then
		fail token-live "as uid 65534: $codes, want $want"
	elif ! grep -q "data-src=\"/$tok/live.svg\"" "$T/live.html"; then
		fail token-live "the page does not poll /TOKEN/live.svg: $(head -c 200 "$T/live.html")"
	else
		pass token-live
	fi
	release_workload
	wait_workload
	stop_ior
else
	fail token-live "$WHY"
fi

# ---- binding ------------------------------------------------------------------
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
bad=""
ior_fails 2 "0\.0\.0\.0:$PORT listens on every interface.*-http-any" -ior="$ROOT_REC" -http "0.0.0.0:$PORT" || bad="$bad; $WHY"
ior_fails 2 'listens on every interface.*-http-any' -ior="$ROOT_REC" -http "[::]:$PORT" || bad="$bad; $WHY"
ior_fails 2 'listens on every interface.*-http-any' -live -http "0.0.0.0:$PORT" || bad="$bad; $WHY"
if [ -z "$bad" ]; then pass bind-any-refused; else fail bind-any-refused "${bad#; }"; fi

if ! start_server -ior="$ROOT_REC" -http "0.0.0.0:$PORT" -http-any; then
	fail bind-any-flag "$WHY"
else
	code=$(get "$SRV_URL")
	if [ "$code" != 200 ]; then
		fail bind-any-flag "GET $SRV_URL: $code"
	elif [ "$(grep -c 'reachable from the network' "$SRV_ERR")" != 1 ]; then
		fail bind-any-flag "no one-line warning: $(head -c 200 "$SRV_ERR")"
	else
		pass bind-any-flag
	fi
	stop_server
fi

# a specific non-loopback address: warned about, not refused
ADDR=$(ip -4 -o addr show scope global 2>/dev/null | awk '{ sub(/\/.*/, "", $4); print $4; exit }')
if [ -z "$ADDR" ]; then
	echo "SKIP: bind-host-warns: no global IPv4 address"
elif ! start_server -ior="$ROOT_REC" -http "$ADDR:0"; then
	fail bind-host-warns "$WHY"
elif ! grep -q "^ior: warning: -http $ADDR:0: the graph is reachable from the network" "$SRV_ERR"; then
	fail bind-host-warns "no warning: $(head -c 200 "$SRV_ERR")"
	stop_server
else
	pass bind-host-warns
	stop_server
fi
finish
